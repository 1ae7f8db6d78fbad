"""SPEC section 6: which memories expire or are archived at a given time. Pure policy.

- Expire active memories whose ``expires_at`` has passed (temporary notes, deadlines).
- Archive active memories never used (usage_count 0) with importance below 0.35,
  30 days after they were created.
- Never automatically: critical memories, episodes (the raw evidence other memories
  point to), consolidation summaries (reflection refreshes or retires them), and
  pinned memories (the user asked to keep them in view).
Nothing is ever deleted here; the engine applies each transition with its event.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from ..domain import EventKind, Memory, MemoryState, MemoryType
from ..settings import Settings
from ..store.base import FactColumns

__all__ = [
    "Transition",
    "archive_cutoff",
    "archive_transitions",
    "due_at",
    "expiry_transitions",
    "horizon_of",
    "next_due",
]

# Types the archive rule never takes (critical memories, episodes: see the module docstring).
_NEVER_ARCHIVED = frozenset({MemoryType.CRITICAL, MemoryType.EPISODE})


@dataclass(frozen=True, slots=True)
class Transition:
    memory: Memory
    to_state: MemoryState
    kind: EventKind
    reason: str


def expiry_transitions(memories: Iterable[Memory], now: datetime) -> list[Transition]:
    return [
        Transition(
            m, MemoryState.EXPIRED, EventKind.EXPIRED, f"expires_at {m.expires_at.isoformat()} has passed"
        )
        for m in memories
        if m.state is MemoryState.ACTIVE and m.expires_at is not None and m.expires_at <= now
    ]


def archive_cutoff(now: datetime, settings: Settings) -> datetime:
    """Memories created at or before this moment are old enough to be archived."""
    return now - timedelta(days=settings.archive_after_days)


def archive_transitions(memories: Iterable[Memory], now: datetime, settings: Settings) -> list[Transition]:
    cutoff = archive_cutoff(now, settings)
    reason = (
        f"unused for {settings.archive_after_days:g} days with importance below "
        f"{settings.archive_importance_below:g}"
    )
    return [
        Transition(m, MemoryState.ARCHIVED, EventKind.ARCHIVED, reason)
        for m in memories
        if m.state is MemoryState.ACTIVE
        and m.usage_count == 0
        and m.importance < settings.archive_importance_below
        and m.created_at <= cutoff
        and m.type not in _NEVER_ARCHIVED
        and not m.is_summary
    ]


def due_at(memory: Memory, settings: Settings) -> datetime | None:
    """The earliest moment a sweep could change ``memory`` as it is now (None: never)."""
    if memory.state is not MemoryState.ACTIVE:
        return None
    times = [memory.expires_at] if memory.expires_at is not None else []
    if (
        memory.usage_count == 0
        and memory.importance < settings.archive_importance_below
        and memory.type not in _NEVER_ARCHIVED
        and not memory.is_summary
    ):
        times.append(memory.created_at + timedelta(days=settings.archive_after_days))
    return min(times, default=None)


def next_due(
    earliest_expiry: datetime | None, earliest_archivable: datetime | None, settings: Settings
) -> datetime | None:
    """When a sweep could next find something, from the store's :meth:`forgetting_horizon`."""
    times = [earliest_expiry] if earliest_expiry is not None else []
    if earliest_archivable is not None:
        times.append(earliest_archivable + timedelta(days=settings.archive_after_days))
    return min(times, default=None)


def horizon_of(facts: FactColumns, importance_below: float) -> tuple[datetime | None, datetime | None]:
    """What the store's ``forgetting_horizon`` answers, from a user's loaded active and pinned
    memories: the earliest ``expires_at`` among the active ones, and the earliest ``created_at``
    among those the archive rule could take once old enough (never used, importance below the
    threshold, neither critical nor an episode). A cold read loads the user anyway; asking the
    store as well was 1-3 ms of a cold 1,000-memory read on PostgreSQL (6-9 at its slowest).
    The store's query stays for the moments after a sweep and after another process's change;
    tests/test_forgetting.py checks that the two agree."""
    count = len(facts)
    active = np.fromiter((s is MemoryState.ACTIVE for s in facts.state), dtype=bool, count=count)
    exempt = np.fromiter((t in _NEVER_ARCHIVED for t in facts.type), dtype=bool, count=count)
    archivable = active & ~exempt & (facts.usage_count == 0) & (facts.importance < importance_below)
    return _earliest(facts.expires_ts[active]), _earliest(facts.created_ts[archivable])


def _earliest(timestamps: np.ndarray) -> datetime | None:
    finite = timestamps[np.isfinite(timestamps)]
    return datetime.fromtimestamp(float(finite.min()), UTC) if finite.size else None
