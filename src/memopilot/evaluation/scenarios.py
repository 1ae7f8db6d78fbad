"""Scenario files: small multi-turn conversations with a question and what its answer needs.

The format (a JSON list) is meant to be shared, so that other people's cases run unchanged::

    {"id": "pref-tabs", "category": "preference", "project_id": "web",      # project optional
     "turns": [{"content": "I prefer tabs", "session": "s1", "project_id": "web", "days_ago": 3}],
     "question": {"content": "How should I indent?", "project_id": "web", "days_after_last_turn": 0},
     "expect": [["tabs"], ["two", "2"]],     # every group is required; any alternative satisfies it
     "forbid": ["spaces"]}                   # outdated or leaked phrases that must not appear

Time (SPEC Contracts): turns happen at T - days_ago, the question is asked at T + days_after_last_turn.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import InvalidInputError

__all__ = [
    "SCENARIO_TIME",
    "Question",
    "Scenario",
    "Turn",
    "default_scenarios_path",
    "load_scenarios",
    "parse_scenarios",
]

# T in "turns happen at T - days_ago": a fixed instant, so that runs are reproducible.
SCENARIO_TIME = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


class Turn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    content: str = Field(min_length=1)
    session: str = "s1"
    project_id: str | None = None
    days_ago: float = Field(default=0.0, ge=0)


class Question(BaseModel):
    model_config = ConfigDict(extra="ignore")

    content: str = Field(min_length=1)
    project_id: str | None = None
    days_after_last_turn: float = Field(default=0.0, ge=0)


class Scenario(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1)
    category: str = Field(min_length=1)
    project_id: str | None = None
    turns: list[Turn] = Field(min_length=1)
    question: Question
    expect: list[list[str]] = Field(default_factory=list)
    forbid: list[str] = Field(default_factory=list)

    @field_validator("expect", mode="before")
    @classmethod
    def _groups(cls, value: Any) -> Any:
        """A bare string is one group of one alternative; a flat string inside the list is a group."""
        if isinstance(value, str):
            return [[value]]
        if isinstance(value, list):
            return [[g] if isinstance(g, str) else g for g in value]
        return value

    @field_validator("forbid", mode="before")
    @classmethod
    def _forbid(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    def turn_project(self, turn: Turn) -> str | None:
        return turn.project_id if turn.project_id is not None else self.project_id

    @property
    def question_project(self) -> str | None:
        return self.question.project_id if self.question.project_id is not None else self.project_id


def parse_scenarios(data: Any, source: str = "scenarios") -> list[Scenario]:
    if not isinstance(data, list):
        raise InvalidInputError(f"{source}: a scenario file is a JSON list of scenarios")
    out: list[Scenario] = []
    seen: set[str] = set()
    for position, item in enumerate(data):
        try:
            scenario = Scenario.model_validate(item)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise InvalidInputError(f"{source}: scenario {position}: {where}: {first['msg']}") from None
        if scenario.id in seen:
            raise InvalidInputError(f"{source}: the scenario id {scenario.id!r} is used twice")
        seen.add(scenario.id)
        out.append(scenario)
    return out


def default_scenarios_path() -> Path:
    """The suite shipped with the package (the repository's ``eval/scenarios.json`` links to it)."""
    return Path(str(resources.files("memopilot.evaluation").joinpath("scenarios.json")))


def load_scenarios(path: str | Path | None = None) -> list[Scenario]:
    path = Path(path) if path is not None else default_scenarios_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read the scenario file {path}: {exc}") from None
    return parse_scenarios(data, str(path))
