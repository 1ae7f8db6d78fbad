"""Comparing two systems question by question: a paired bootstrap interval of the lead in
evidence recall, and per-question rows in a file so that a system run elsewhere (another memory
layer, an independent baseline) can be compared with the same numbers.

A row is one question at one budget: ``{"system", "sample_id", "question_index", "budget",
"evidence_recall"}`` (``question_index``: the question's position in the conversation's ``qa``
list of the LoCoMo file, counting every question). A file of rows is JSON Lines or one JSON list.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InvalidInputError

__all__ = ["QuestionKey", "bootstrap_lead", "read_rows", "recall_by_question", "write_rows"]

QuestionKey = tuple[str, int]  # (sample_id, question_index)

_RESAMPLES = 10_000
_SEED = 20261204  # fixed: the same rows always give the same interval


def bootstrap_lead(mine: Mapping[QuestionKey, float], theirs: Mapping[QuestionKey, float]) -> dict[str, Any]:
    """Mean per-question lead of ``mine`` over ``theirs`` on the questions both answered, with a
    95% percentile interval from resampling those questions (paired: a question's two recalls
    are drawn together, so what the two systems share cancels out)."""
    keys = sorted(set(mine) & set(theirs))
    if not keys:
        return {"lead": None, "ci95": None, "n": 0}
    diffs = np.array([mine[k] - theirs[k] for k in keys], dtype=np.float64)
    rng = np.random.default_rng(_SEED)
    draws = rng.integers(0, len(diffs), size=(_RESAMPLES, len(diffs)))
    means = diffs[draws].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return {
        "lead": round(float(diffs.mean()), 4),
        "ci95": [round(float(low), 4), round(float(high), 4)],
        "n": len(keys),
    }


def write_rows(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """Per-question rows as JSON Lines."""
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


_FIELDS = {"system": str, "sample_id": str, "question_index": int, "budget": int, "evidence_recall": float}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows from a JSON Lines file or a JSON list, each checked for the fields a comparison needs."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from None
    try:
        stripped = text.lstrip()
        raw = (
            json.loads(text)
            if stripped.startswith("[")
            else [json.loads(x) for x in text.splitlines() if x.strip()]
        )
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path} is neither JSON Lines nor a JSON list: {exc}") from None
    return [_checked(row, position, path) for position, row in enumerate(raw)]


def _checked(row: Any, position: int, path: Path) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise InvalidInputError(f"{path}: row {position} is not an object")
    missing = [name for name in _FIELDS if name not in row]
    if missing:
        raise InvalidInputError(f"{path}: row {position} lacks {', '.join(missing)}")
    out = dict(row)
    for name, kind in _FIELDS.items():
        value = row[name]
        if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
            out[name] = float(value)
        elif not isinstance(value, kind) or isinstance(value, bool):
            raise InvalidInputError(f"{path}: row {position}: {name} must be {kind.__name__}")
    if not 0.0 <= out["evidence_recall"] <= 1.0:
        raise InvalidInputError(f"{path}: row {position}: evidence_recall must be within [0, 1]")
    return out


def recall_by_question(
    rows: Sequence[Mapping[str, Any]], system: str, budget: int
) -> dict[QuestionKey, float]:
    return {
        (r["sample_id"], r["question_index"]): r["evidence_recall"]
        for r in rows
        if r["system"] == system and r["budget"] == budget
    }
