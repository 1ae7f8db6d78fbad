"""The memory record, its types, states and timeline events: plain data, no I/O.

Everything here is shared by every layer (policy, engine, stores, interfaces) and
imports nothing else of ours.
"""

from __future__ import annotations

import dataclasses
import math
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

__all__ = [
    "CONTEXT_STATES",
    "DEFAULT_IMPORTANCE",
    "DEFAULT_PROJECT",
    "DEFAULT_USER",
    "SPEAKER_TAG",
    "SUMMARY_TAG",
    "USER_SETTABLE_STATES",
    "EventKind",
    "Memory",
    "MemoryFacts",
    "MemoryState",
    "MemoryType",
    "Privacy",
    "TimelineEvent",
    "jsonable",
    "new_id",
    "speaker_of",
    "words_said",
]


class MemoryType(StrEnum):
    PREFERENCE = "preference"
    PROJECT = "project"
    DECISION = "decision"
    MISTAKE = "mistake"
    CONSTRAINT = "constraint"
    DEADLINE = "deadline"
    LEARNING_GOAL = "learning_goal"
    TASK = "task"
    CRITICAL = "critical"
    TEMPORARY = "temporary"
    OUTDATED = "outdated"
    DELETED_BY_USER = "deleted_by_user"
    # A stable fact about the user's life and world: people and relations, names, places, pets,
    # work, health, past events ("my daughter is called Lina"). SPEC section 1.
    FACT = "fact"
    # A verbatim conversation turn stored without interpretation (infer=False elsewhere).
    EPISODE = "episode"


class MemoryState(StrEnum):
    ACTIVE = "active"
    PINNED = "pinned"
    ARCHIVED = "archived"
    EXPIRED = "expired"
    SUPERSEDED = "superseded"
    DELETED = "deleted"


class Privacy(StrEnum):
    NORMAL = "normal"
    PRIVATE = "private"
    SENSITIVE = "sensitive"


class EventKind(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    PINNED = "pinned"
    UNPINNED = "unpinned"
    ARCHIVED = "archived"
    RESTORED = "restored"
    EXPIRED = "expired"
    SUPERSEDED = "superseded"
    DELETED = "deleted"
    MERGED = "merged"
    PROMOTED = "promoted"
    SUMMARY_CREATED = "summary_created"
    SUMMARY_REFRESHED = "summary_refreshed"
    IMPORTED = "imported"
    REEMBEDDED = "reembedded"


# Only these states ever reach a model's context.
CONTEXT_STATES: frozenset[MemoryState] = frozenset({MemoryState.ACTIVE, MemoryState.PINNED})
# States a user may set directly (PATCH state=..., pin/unpin, archive/restore).
USER_SETTABLE_STATES: frozenset[MemoryState] = frozenset(
    {MemoryState.ACTIVE, MemoryState.PINNED, MemoryState.ARCHIVED}
)
# Importance given to a new memory when the caller does not say: how costly forgetting it is.
DEFAULT_IMPORTANCE: dict[MemoryType, float] = {
    MemoryType.CRITICAL: 0.95,
    MemoryType.CONSTRAINT: 0.8,
    MemoryType.DEADLINE: 0.75,
    MemoryType.DECISION: 0.7,
    MemoryType.MISTAKE: 0.7,
    MemoryType.PREFERENCE: 0.6,
    MemoryType.PROJECT: 0.6,
    MemoryType.TASK: 0.6,
    MemoryType.LEARNING_GOAL: 0.55,
    MemoryType.FACT: 0.6,
    MemoryType.TEMPORARY: 0.4,
    MemoryType.EPISODE: 0.3,
    MemoryType.OUTDATED: 0.2,
    MemoryType.DELETED_BY_USER: 0.1,
}
# Tag carried by the deterministic summaries that reflection creates.
DEFAULT_USER = "local"  # the CLI's, the local-mode server's and MCP's user
DEFAULT_PROJECT = "default"
SPEAKER_TAG = "speaker:"  # an episode tagged "speaker:Caroline" was said by Caroline
SUMMARY_TAG = "consolidation-summary"


def speaker_of(memory: Memory) -> str | None:
    """Who said ``memory`` in a conversation of several speakers (its speaker tag), else None."""
    for tag in memory.tags:
        if tag.lower().startswith(SPEAKER_TAG) and tag[len(SPEAKER_TAG) :].strip():
            return tag[len(SPEAKER_TAG) :].strip()
    return None


def words_said(memory: Memory) -> str:
    """A turn's words without the "Speaker: " a group chat's turn starts with."""
    speaker = speaker_of(memory)
    if speaker and memory.content.startswith(f"{speaker}: "):
        return memory.content[len(speaker) + 2 :]
    return memory.content


def new_id() -> str:
    """A fresh opaque identifier (UUID4 hex), used for memories, events and traces."""
    return uuid.uuid4().hex


@dataclass(slots=True)
class Memory:
    """One memory record (SPEC section 1)."""

    user_id: str
    content: str
    type: MemoryType
    created_at: datetime
    updated_at: datetime
    id: str = field(default_factory=new_id)
    project_id: str | None = None  # None = user-wide, visible in every project
    state: MemoryState = MemoryState.ACTIVE
    tags: list[str] = field(default_factory=list)
    importance: float = 0.5
    confidence: float = 0.8
    usage_count: int = 0
    last_used_at: datetime | None = None
    privacy: Privacy = Privacy.NORMAL
    expires_at: datetime | None = None
    occurred_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    session_id: str | None = None
    message_id: str | None = None
    # Consolidation bookkeeping: the sources a summary lists, and when a memory was promoted.
    source_ids: list[str] = field(default_factory=list)
    promoted_at: datetime | None = None

    @property
    def is_critical(self) -> bool:
        """Critical memories go first and are never superseded or archived automatically.

        A summary of critical memories is an aggregate, not a critical fact itself.
        """
        return self.type is MemoryType.CRITICAL and not self.is_summary

    @property
    def is_summary(self) -> bool:
        return SUMMARY_TAG in self.tags

    @property
    def in_context_state(self) -> bool:
        return self.state in CONTEXT_STATES

    @property
    def reference_time(self) -> datetime:
        """When the remembered thing happened: recency counts from here."""
        return self.occurred_at or self.created_at

    def copy(self, **changes: Any) -> Memory:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (datetimes as ISO 8601 strings, enums as their values)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            out[f.name] = jsonable(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class MemoryFacts:
    """What ranking and the index's accounting need of a memory, read straight from its stored row.

    A cold read loads a whole user; building a :class:`Memory` per row (two dozen fields, enums,
    datetimes) was a third of a 1,000-memory user's load, and the index keeps the rows anyway
    (it decodes a Memory only when a read gathers it). Times are POSIX timestamps; ``inf`` for none.
    """

    id: str
    project_id: str | None
    type: MemoryType
    state: MemoryState
    privacy: Privacy
    importance: float
    confidence: float
    usage_count: int
    reference_ts: float  # occurred_at, else created_at
    created_ts: float  # when it was stored (the archive rule's clock, SPEC section 6)
    expires_ts: float
    valid_to_ts: float
    is_summary: bool
    text_bytes: int  # content and tags, in characters

    @property
    def is_critical(self) -> bool:
        return self.type is MemoryType.CRITICAL and not self.is_summary

    @classmethod
    def of(cls, memory: Memory) -> MemoryFacts:
        return cls(
            id=memory.id,
            project_id=memory.project_id,
            type=memory.type,
            state=memory.state,
            privacy=memory.privacy,
            importance=memory.importance,
            confidence=memory.confidence,
            usage_count=memory.usage_count,
            reference_ts=memory.reference_time.timestamp(),
            created_ts=memory.created_at.timestamp(),
            expires_ts=memory.expires_at.timestamp() if memory.expires_at is not None else math.inf,
            valid_to_ts=memory.valid_to.timestamp() if memory.valid_to is not None else math.inf,
            is_summary=memory.is_summary,
            text_bytes=len(memory.content) + sum(len(tag) for tag in memory.tags),
        )


@dataclass(slots=True)
class TimelineEvent:
    """One change of a memory's state or content: who, what, why, when."""

    user_id: str
    memory_id: str | None
    kind: EventKind
    at: datetime
    actor: str = "system"
    reason: str = ""
    project_id: str | None = None
    # Structured detail (old/new state, changed fields, ...). Cleared of content on Forget.
    details: dict[str, Any] = field(default_factory=dict)
    id: str = field(default_factory=new_id)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def of(
        cls, memory: Memory, kind: EventKind, reason: str, actor: str, at: datetime, **details: Any
    ) -> TimelineEvent:
        """The event of a change to ``memory`` at ``at``."""
        return cls(
            user_id=memory.user_id,
            memory_id=memory.id,
            kind=kind,
            at=at,
            actor=actor,
            reason=reason,
            project_id=memory.project_id,
            details=details,
        )


def jsonable(value: Any) -> Any:
    """A field value as JSON-ready data (datetimes as ISO strings, enums as values)."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, list):
        return list(value)
    return value
