"""SPEC section 2: the score of one memory for one question, with its component breakdown.

    final = 0.40 semantic + 0.20 importance + 0.15 recency + 0.10 confidence
          + 0.10 usage + 0.15 project_match + 0.20 critical_bonus
          - 0.30 outdated_penalty - 0.25 privacy_penalty - 0.50 superseded_penalty

Weights come from :class:`~memopilot.settings.Settings`; this module is pure
(memory + similarity + clock time in, numbers out).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .domain import Memory, MemoryState, MemoryType, Privacy
from .settings import Settings

__all__ = ["COMPONENTS", "Score", "recency", "score_memory", "usage"]

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


@dataclass(frozen=True, slots=True)
class Score:
    """A final score and the raw component values (each in [0,1]) that produced it."""

    final: float
    components: dict[str, float]
    weights: dict[str, float]

    @property
    def priority(self) -> bool:
        """Critical and pinned memories sort before all others."""
        return self.components["critical_bonus"] >= 1.0

    def contributions(self) -> dict[str, float]:
        """Signed weighted contribution of each component (sums to ``final``)."""
        return {
            name: (-1.0 if name in _PENALTIES else 1.0) * self.weights[name] * value
            for name, value in self.components.items()
        }

    def sort_key(self) -> tuple[int, float]:
        return (0 if self.priority else 1, -self.final)


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


def score_memory(
    memory: Memory,
    *,
    semantic: float,
    now: datetime,
    project_id: str | None,
    settings: Settings,
) -> Score:
    """Score ``memory`` for a question asked at ``now`` in ``project_id``."""
    components = {
        "semantic": min(1.0, max(0.0, semantic)),
        "importance": memory.importance,
        "recency": recency(memory.reference_time, now, settings.recency_half_life_days),
        "confidence": memory.confidence,
        "usage": usage(memory.usage_count),
        "project_match": 1.0 if project_id is not None and memory.project_id == project_id else 0.0,
        "critical_bonus": 1.0 if memory.is_critical or memory.state is MemoryState.PINNED else 0.0,
        "outdated_penalty": _outdated(memory, now),
        "privacy_penalty": _PRIVACY_PENALTY[memory.privacy],
        "superseded_penalty": 1.0 if memory.state is MemoryState.SUPERSEDED else 0.0,
    }
    weights = {name: float(getattr(settings, field)) for name, field in _WEIGHT_FIELDS.items()}
    final = sum(
        (-1.0 if name in _PENALTIES else 1.0) * weights[name] * value for name, value in components.items()
    )
    return Score(final=final, components=components, weights=weights)
