"""Every change of a memory's state or content, built together with the event that records it.

A memory never changes without a timeline event (SPEC section 1): who, what, why, when. Each
function here takes a memory and returns the changed copy and its event, for the caller to put in
one :class:`~memopilot.store.ChangeSet` so both land in the same transaction. The engine's
operations (add, edit, pin, archive, restore, supersede, Forget, erasing a user, the forgetting
sweep) and the write path's planner all build their changes here, so a kind of change looks the
same wherever it happens. Consolidation (merged, promoted, summary events: engine/reflection.py)
and import (imported events: engine/portability.py) keep their own event kinds. Pure functions of
their arguments; nothing here reads or writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .domain import EventKind, Memory, MemoryState, TimelineEvent, jsonable

__all__ = ["Change", "create", "edit", "move", "supersede", "tombstone"]

Change = tuple[Memory, TimelineEvent]


def create(memory: Memory, *, reason: str, actor: str, at: datetime) -> Change:
    """A new memory (already built and validated) and its ``created`` event."""
    return memory, TimelineEvent.of(memory, EventKind.CREATED, reason, actor, at, type=memory.type.value)


def move(
    memory: Memory, to_state: MemoryState, kind: EventKind, *, reason: str, actor: str, at: datetime
) -> Change:
    """A new state: pin, unpin, archive, restore, expire. Leaving ``expired`` for a live state
    clears ``expires_at``, or the next sweep would expire it again."""
    extra: dict[str, Any] = {}
    if memory.state is MemoryState.EXPIRED and to_state in (MemoryState.ACTIVE, MemoryState.PINNED):
        extra["expires_at"] = None
    moved = memory.copy(state=to_state, updated_at=at, **extra)
    event = TimelineEvent.of(
        moved, kind, reason, actor, at, from_state=memory.state.value, to_state=to_state.value
    )
    return moved, event


def supersede(
    old: Memory, *, by: str | None, reason: str, actor: str, at: datetime, **details: Any
) -> Change:
    """``old`` replaced by memory ``by`` (None: retired without a successor); ``details`` say by
    which rule. Its validity ends now."""
    replaced = old.copy(state=MemoryState.SUPERSEDED, superseded_by=by, valid_to=at, updated_at=at)
    if by is not None:
        details = {"superseded_by": by, **details}
    event = TimelineEvent.of(
        replaced, EventKind.SUPERSEDED, reason, actor, at, from_state=old.state.value, **details
    )
    return replaced, event


def edit(
    memory: Memory,
    changed: dict[str, Any],
    *,
    reason: str,
    actor: str,
    at: datetime,
    listed: tuple[str, ...] | None = None,
    recorded: tuple[str, ...] | None = None,
) -> Change:
    """New field values. The event lists the ``listed`` fields (default: every changed one) and
    the values before and after of the ``recorded`` ones (default: the listed ones): a
    restatement lists its text and date and records its text, not its bookkeeping."""
    updated = memory.copy(**changed, updated_at=at)
    fields = sorted(changed) if listed is None else list(listed)
    kept = fields if recorded is None else [k for k in recorded if k in changed]
    before = {k: jsonable(getattr(memory, k)) for k in kept}
    after = {k: jsonable(changed[k]) for k in kept}
    event = TimelineEvent.of(
        updated, EventKind.UPDATED, reason, actor, at, fields=fields, before=before, after=after
    )
    return updated, event


def tombstone(memory: Memory, *, reason: str, actor: str, at: datetime, **details: Any) -> Change:
    """The user's Forget: content, tags and sources erased, state ``deleted``; the event holds no
    content."""
    erased = memory.copy(
        content="", tags=[], source_ids=[], state=MemoryState.DELETED, updated_at=at, valid_to=at
    )
    event = TimelineEvent.of(
        erased, EventKind.DELETED, reason, actor, at, from_state=memory.state.value, **details
    )
    return erased, event
