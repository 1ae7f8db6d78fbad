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
from datetime import datetime, timedelta

from ..domain import EventKind, Memory, MemoryState, MemoryType
from ..settings import Settings

__all__ = [
    "Transition",
    "archive_cutoff",
    "archive_transitions",
    "due_at",
    "expiry_transitions",
    "next_due",
]


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
        and m.type not in (MemoryType.CRITICAL, MemoryType.EPISODE)
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
        and memory.type not in (MemoryType.CRITICAL, MemoryType.EPISODE)
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
