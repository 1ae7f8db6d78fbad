"""SPEC section 2: the score of one memory for one question, with its component breakdown.

    final = 0.40 semantic + 0.20 importance + 0.15 recency + 0.10 confidence
          + 0.10 usage + 0.15 project_match + 0.20 critical_bonus
          - 0.30 outdated_penalty - 0.25 privacy_penalty - 0.50 superseded_penalty

Weights come from :class:`~memopilot.settings.Settings`; this module is pure
(memory + similarity + clock time in, numbers out).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from ..domain import Memory, MemoryFacts, MemoryState, MemoryType, Privacy
from ..settings import Settings
from ..store.base import FactColumns

__all__ = [
    "COMPONENTS",
    "PRIORITY_FIELD",
    "SCORE_FIELDS",
    "USAGE_FIELD",
    "Score",
    "ScoreInputs",
    "ScoreTable",
    "facts_score_fields",
    "recency",
    "score_fields",
    "score_memory",
    "usage",
]

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
            self._components = dict(zip(COMPONENTS, self._table.row("components", self._row), strict=True))
        return self._components

    def component_values(self) -> list[float]:
        """The components as numbers in :data:`COMPONENTS` order."""
        return self._table.row("components", self._row)

    def top_contribution(self) -> tuple[str, float]:
        """The component that adds the most to this score, and how much."""
        values = self._table.row("contributions", self._row)
        best = max(range(len(values)), key=values.__getitem__)
        return COMPONENTS[best], values[best]

    @property
    def weights(self) -> dict[str, float]:
        return self._table.weights

    def contributions(self) -> dict[str, float]:
        """Signed weighted contribution of each component (sums to ``final``)."""
        return dict(zip(COMPONENTS, self._table.row("contributions", self._row), strict=True))

    def sort_key(self) -> tuple[int, float]:
        return (0 if self.priority else 1, -self.final)


@dataclasses.dataclass(slots=True)
class ScoreInputs:
    """What scoring needs of each memory: one numpy column per field, one row per memory.

    The in-memory index keeps these columns beside its memories, so the read path scores its
    candidates without visiting a memory object; :meth:`of_memories` builds them from objects.
    """

    importance: np.ndarray
    confidence: np.ndarray
    usage_count: np.ndarray
    reference_ts: np.ndarray  # when the remembered thing happened, POSIX seconds
    expires_ts: np.ndarray  # +inf: never expires
    valid_to_ts: np.ndarray  # +inf: still valid
    privacy_penalty: np.ndarray
    priority: np.ndarray  # bool: critical (not a summary) or pinned
    outdated_type: np.ndarray  # bool
    superseded: np.ndarray  # bool
    same_project: np.ndarray  # bool: in the asking project (not user-wide, not another one)

    @classmethod
    def of_memories(cls, memories: Sequence[Memory], project_id: str | None) -> ScoreInputs:
        rows = facts_score_fields(FactColumns.of([MemoryFacts.of(m) for m in memories]))
        same = [project_id is not None and m.project_id == project_id for m in memories]
        return cls.of_rows(rows, np.array(same, dtype=bool))

    def take(self, order: np.ndarray) -> ScoreInputs:
        """The rows at ``order``, in that order."""
        return ScoreInputs(*(getattr(self, f.name)[order] for f in dataclasses.fields(self)))

    @classmethod
    def of_rows(cls, rows: np.ndarray, same_project: np.ndarray) -> ScoreInputs:
        """From a (n, 10) array of :func:`score_fields` rows."""
        flags = rows[:, 7:10] > 0.5
        return cls(*(rows[:, i] for i in range(7)), flags[:, 0], flags[:, 1], flags[:, 2], same_project)


SCORE_FIELDS = 10  # the length of a score_fields row
USAGE_FIELD = 2  # where usage_count sits in it
PRIORITY_FIELD = 7  # where the critical-or-pinned flag sits in it


def score_fields(memory: Memory) -> np.ndarray:
    """One memory's :class:`ScoreInputs` row (all but ``same_project``), as floats."""
    return facts_score_fields(FactColumns.of([MemoryFacts.of(memory)]))[0]


def facts_score_fields(facts: FactColumns) -> np.ndarray:
    """The (n, :data:`SCORE_FIELDS`) rows of :func:`score_fields` from memories' facts, as a store
    reads them from its rows (no Memory built)."""
    count = len(facts)
    pinned = np.fromiter((s is MemoryState.PINNED for s in facts.state), dtype=bool, count=count)
    critical = np.fromiter((t is MemoryType.CRITICAL for t in facts.type), dtype=bool, count=count)
    return (
        np.column_stack(
            (
                facts.importance,
                facts.confidence,
                facts.usage_count,
                facts.reference_ts,
                facts.expires_ts,
                facts.valid_to_ts,
                np.fromiter((_PRIVACY_PENALTY[p] for p in facts.privacy), dtype=np.float64, count=count),
                (critical & ~facts.is_summary) | pinned,
                np.fromiter((t is MemoryType.OUTDATED for t in facts.type), dtype=bool, count=count),
                np.fromiter((s is MemoryState.SUPERSEDED for s in facts.state), dtype=bool, count=count),
            )
        )
        .astype(np.float64, copy=False)
        .reshape(count, SCORE_FIELDS)
    )


class ScoreTable:
    """The scores of many memories for one question, one row per memory (numpy columns).

    The read path scores every candidate at once; :func:`score_memory` is the one-row case, so
    both give the same numbers.
    """

    def __init__(
        self,
        inputs: ScoreInputs,
        semantic: Sequence[float] | np.ndarray,
        *,
        now: datetime,
        settings: Settings,
    ) -> None:
        self.weights = {name: float(getattr(settings, f)) for name, f in _WEIGHT_FIELDS.items()}
        now_ts = now.timestamp()
        age_days = np.maximum(0.0, (now_ts - inputs.reference_ts) / _SECONDS_PER_DAY)
        outdated = inputs.outdated_type | (inputs.valid_to_ts <= now_ts) | (inputs.expires_ts <= now_ts)
        columns = (  # in COMPONENTS order
            np.clip(np.asarray(semantic, dtype=np.float64), 0.0, 1.0),
            inputs.importance,
            0.5 ** (age_days / settings.recency_half_life_days),
            inputs.confidence,
            1.0 - 1.0 / (1.0 + np.maximum(0.0, inputs.usage_count)),
            inputs.same_project,
            inputs.priority,
            outdated,
            inputs.privacy_penalty,
            inputs.superseded,
        )
        table = np.zeros((len(inputs.importance), len(COMPONENTS)), dtype=np.float64)
        for i, column in enumerate(columns):
            table[:, i] = column
        self.signed_weights = {
            name: (-1.0 if name in _PENALTIES else 1.0) * self.weights[name] for name in COMPONENTS
        }
        self.components = table
        self.contributions = table * np.array(list(self.signed_weights.values()))
        self.final = self.contributions.sum(axis=1)
        self.priority = inputs.priority.astype(bool)
        self._as_lists: dict[tuple[str, int], list[float]] = {}

    @classmethod
    def of_memories(
        cls,
        memories: Sequence[Memory],
        semantic: Sequence[float] | np.ndarray,
        *,
        now: datetime,
        project_id: str | None,
        settings: Settings,
    ) -> ScoreTable:
        return cls(ScoreInputs.of_memories(memories, project_id), semantic, now=now, settings=settings)

    def __len__(self) -> int:
        return len(self.final)

    def row(self, name: str, row: int) -> list[float]:
        """Row ``row`` of ``components`` or ``contributions`` as a Python list (converted once)."""
        key = (name, row)
        found = self._as_lists.get(key)
        if found is None:
            found = self._as_lists[key] = getattr(self, name)[row].tolist()
        return found

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


def score_memory(
    memory: Memory,
    *,
    semantic: float,
    now: datetime,
    project_id: str | None,
    settings: Settings,
) -> Score:
    """Score ``memory`` for a question asked at ``now`` in ``project_id``."""
    table = ScoreTable.of_memories([memory], [semantic], now=now, project_id=project_id, settings=settings)
    return table.score(0)
