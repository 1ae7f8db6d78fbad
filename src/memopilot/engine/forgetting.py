"""SPEC section 6: which memories expire or are archived at a given time. Pure policy.

- Expire active memories whose ``expires_at`` has passed (temporary notes, deadlines).
- Archive active memories never used (usage_count 0) with importance below 0.35,
  30 days after they were created.
- Expire with a temporary note the turn it was taken from, when the note is what the turn told
  (its questions aside), it said when the state ends, and every other typed memory taken from the
  turn has left the context too: "I'm staying at my brother's place in Drennick for the next two
  weeks" would otherwise present the stay as current in every later context.
- Never archive automatically: critical memories, episodes (the raw evidence other memories
  point to), consolidation summaries (reflection refreshes or retires them), and
  pinned memories (the user asked to keep them in view).
Nothing is ever deleted here; the engine applies each transition with its event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from ..domain import EventKind, Memory, MemoryState, MemoryType
from ..settings import Settings
from ..store.base import FactColumns
from ..text import content_terms
from ..write import dates
from ..write.date_words import readable_dates
from ..write.sentences import told

__all__ = [
    "Transition",
    "archive_cutoff",
    "archive_transitions",
    "due_at",
    "expiry_transitions",
    "horizon_of",
    "next_due",
    "spent_episode_transitions",
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


def spent_episode_transitions(
    expiring: Sequence[Memory], episodes: Mapping[str, Memory], derived: Sequence[Memory]
) -> list[Transition]:
    """The turns that expire with the temporary notes in ``expiring`` (see the module docstring).
    ``episodes``: the turns those notes cite, by id; ``derived``: every memory citing them."""
    leaving = {m.id for m in expiring}
    transitions: dict[str, Transition] = {}
    for note in expiring:
        if note.type is not MemoryType.TEMPORARY:
            continue  # a passed deadline's turn still tells when it was (LoCoMo asks)
        for episode in (episodes.get(i) for i in note.source_ids):
            if episode is None or episode.type is not MemoryType.EPISODE or episode.id in transitions:
                continue
            if episode.state is not MemoryState.ACTIVE:
                continue  # pinned: the user keeps it in view
            taken = [m for m in derived if episode.id in m.source_ids and not m.is_summary]
            if _tells_only(note, episode) and all(m.id in leaving or not m.in_context_state for m in taken):
                reason = f"all it said that lasts was temporary memory {note.id}, which expired"
                transitions[episode.id] = Transition(episode, MemoryState.EXPIRED, EventKind.EXPIRED, reason)
    return list(transitions.values())


# The share of what a turn tells (its words, questions aside) that its temporary note must hold:
# "I'd rather pay more for a direct flight than sit in an airport for 4 hours" is one clause of a
# turn that also says "I always want a window seat", which the editor may have missed.
_COVERED = 0.8


def _tells_only(note: Memory, episode: Memory) -> bool:
    """Whether the temporary ``note`` is all ``episode`` told and it said when the state ends:
    "for now" (the editor's guess of a week) may well last ("my knee can't take running on tarmac
    for now"), and a turn that told more keeps telling it."""
    if dates.temporary_expiry(readable_dates(note.content), note.created_at, guess=False) is None:
        return False
    told_terms = content_terms(told(episode.content))
    return len(told_terms & content_terms(note.content)) >= _COVERED * len(told_terms)


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
