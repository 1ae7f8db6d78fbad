"""SPEC section 2: the score of one memory for one question, with its component breakdown.

    final = 0.40 semantic + 0.20 importance + 0.15 recency + 0.10 confidence
          + 0.10 usage + 0.15 project_match + 0.20 critical_bonus
          - 0.30 outdated_penalty - 0.25 privacy_penalty - 0.50 superseded_penalty

Weights come from :class:`~memopilot.settings.Settings`; this module is pure
(memory + similarity + clock time in, numbers out).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from .domain import Memory, MemoryState, MemoryType, Privacy
from .settings import Settings

__all__ = ["COMPONENTS", "Score", "ScoreTable", "recency", "score_memory", "usage"]

# Component names in the order they are displayed; weights map onto Settings fields.
COMPONENTS: tuple[str, ...] = (
    "semantic",
    "importance",
    "recency",
    "confidence",
    "usage",
    "project_match",
    "critical_bonus",
    "outdated_penalty",
    "privacy_penalty",
    "superseded_penalty",
)
_WEIGHT_FIELDS: dict[str, str] = {
    "semantic": "weight_semantic",
    "importance": "weight_importance",
    "recency": "weight_recency",
    "confidence": "weight_confidence",
    "usage": "weight_usage",
    "project_match": "weight_project_match",
    "critical_bonus": "weight_critical_bonus",
    "outdated_penalty": "penalty_outdated",
    "privacy_penalty": "penalty_privacy",
    "superseded_penalty": "penalty_superseded",
}
_PENALTIES = frozenset({"outdated_penalty", "privacy_penalty", "superseded_penalty"})
_PRIVACY_PENALTY = {Privacy.NORMAL: 0.0, Privacy.PRIVATE: 0.5, Privacy.SENSITIVE: 1.0}
_SECONDS_PER_DAY = 86_400.0


class Score:
    """A final score and the raw component values (each in [0,1]) that produced it.

    One row of a :class:`ScoreTable`; its component dict is built only when asked for (a read
    scores hundreds of candidates but explains a few dozen).
    """

    __slots__ = ("_components", "_row", "_table", "final", "priority")

    def __init__(self, table: ScoreTable, row: int, final: float, priority: bool) -> None:
        self._table = table
        self._row = row
        self._components: dict[str, float] | None = None
        self.final = final
        self.priority = priority  # critical and pinned memories sort before all others

    @property
    def components(self) -> dict[str, float]:
        if self._components is None:
            values = self._table.components[self._row].tolist()
            self._components = dict(zip(COMPONENTS, values, strict=True))
        return self._components

    @property
    def weights(self) -> dict[str, float]:
        return self._table.weights

    def contributions(self) -> dict[str, float]:
        """Signed weighted contribution of each component (sums to ``final``)."""
        values = self._table.contributions[self._row].tolist()
        return dict(zip(COMPONENTS, values, strict=True))

    def sort_key(self) -> tuple[int, float]:
        return (0 if self.priority else 1, -self.final)


class ScoreTable:
    """The scores of many memories for one question, one row per memory (numpy columns).

    The read path scores every candidate at once; :func:`score_memory` is the one-row case, so
    both give the same numbers.
    """

    def __init__(
        self,
        memories: Sequence[Memory],
        semantic: Sequence[float] | np.ndarray,
        *,
        now: datetime,
        project_id: str | None,
        settings: Settings,
    ) -> None:
        self.weights = {name: float(getattr(settings, f)) for name, f in _WEIGHT_FIELDS.items()}
        half_life = settings.recency_half_life_days
        rows = [_raw_components(m, now, project_id, half_life) for m in memories]
        table = np.zeros((len(rows), len(COMPONENTS)), dtype=np.float64)
        if rows:
            table[:, 1:] = rows
            table[:, 0] = np.clip(np.asarray(semantic, dtype=np.float64), 0.0, 1.0)
        self.signed_weights = {
            name: (-1.0 if name in _PENALTIES else 1.0) * self.weights[name] for name in COMPONENTS
        }
        signed = np.array(list(self.signed_weights.values()))
        self.components = table
        self.contributions = table * signed
        self.final = self.contributions.sum(axis=1)
        self.priority = table[:, COMPONENTS.index("critical_bonus")] >= 1.0

    def __len__(self) -> int:
        return len(self.final)

    def score(self, row: int) -> Score:
        return Score(self, row, float(self.final[row]), bool(self.priority[row]))

    def scores(self) -> list[Score]:
        finals, priorities = self.final.tolist(), self.priority.tolist()
        return [Score(self, row, finals[row], priorities[row]) for row in range(len(finals))]


def recency(reference: datetime, now: datetime, half_life_days: float) -> float:
    """A true half-life: 1.0 now, 0.5 after ``half_life_days``, 0.25 after twice that."""
    age_days = max(0.0, (now - reference).total_seconds() / _SECONDS_PER_DAY)
    return 0.5 ** (age_days / half_life_days)


def usage(usage_count: int) -> float:
    """Diminishing returns: 0 at no use, 0.5 at one, approaching 1."""
    return 1.0 - 1.0 / (1.0 + max(0, usage_count))


def _outdated(memory: Memory, now: datetime) -> float:
    if memory.type is MemoryType.OUTDATED:
        return 1.0
    if memory.valid_to is not None and memory.valid_to <= now:
        return 1.0
    if memory.expires_at is not None and memory.expires_at <= now:
        return 1.0
    return 0.0


def _raw_components(
    memory: Memory, now: datetime, project_id: str | None, half_life_days: float
) -> tuple[float, ...]:
    """Every component but ``semantic``, in :data:`COMPONENTS` order."""
    return (
        memory.importance,
        recency(memory.reference_time, now, half_life_days),
        memory.confidence,
        usage(memory.usage_count),
        1.0 if project_id is not None and memory.project_id == project_id else 0.0,
        1.0 if memory.is_critical or memory.state is MemoryState.PINNED else 0.0,
        _outdated(memory, now),
        _PRIVACY_PENALTY[memory.privacy],
        1.0 if memory.state is MemoryState.SUPERSEDED else 0.0,
    )


def score_memory(
    memory: Memory,
    *,
    semantic: float,
    now: datetime,
    project_id: str | None,
    settings: Settings,
) -> Score:
    """Score ``memory`` for a question asked at ``now`` in ``project_id``."""
    return ScoreTable([memory], [semantic], now=now, project_id=project_id, settings=settings).score(0)
