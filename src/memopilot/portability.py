"""Export a user's memories and events as one JSON document, and import it back.

Vectors are not exported: they belong to a model, and the importing store re-embeds
with its own. The document is validated with pydantic before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .clock import ensure_utc
from .domain import EventKind, Memory, MemoryState, MemoryType, Privacy, TimelineEvent, new_id
from .errors import InvalidInputError
from .results import ImportReport
from .store import MemoryQuery, Store

__all__ = ["EXPORT_FORMAT", "ExportDocument", "ImportPlan", "export_user", "plan_import"]

EXPORT_FORMAT = "memopilot-export"
_MAX_INT32 = 2**31 - 1  # counters fit every backend's integer column


def _to_utc(cls: type, value: Any) -> Any:
    """Naive times are taken as UTC, others converted: stores compare times as UTC text."""
    return ensure_utc(value) if isinstance(value, datetime) else value


class MemoryRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=64)
    user_id: str
    project_id: str | None = None
    type: MemoryType
    state: MemoryState
    content: str
    tags: list[str] = []
    importance: float = Field(ge=0, le=1)
    confidence: float = Field(ge=0, le=1)
    usage_count: int = Field(ge=0, le=_MAX_INT32)
    last_used_at: datetime | None = None
    privacy: Privacy = Privacy.NORMAL
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None
    occurred_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    session_id: str | None = None
    message_id: str | None = None
    source_ids: list[str] = []
    promoted_at: datetime | None = None

    _utc = field_validator("*")(_to_utc)


class EventRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str
    user_id: str
    memory_id: str | None = None
    kind: EventKind
    at: datetime
    actor: str = "system"
    reason: str = ""
    project_id: str | None = None
    details: dict[str, Any] = {}

    _utc = field_validator("at")(_to_utc)


class ExportDocument(BaseModel):
    format: Literal["memopilot-export"]
    version: Literal[1]
    user_id: str
    exported_at: datetime | None = None
    embedding_model: str | None = None
    memories: list[MemoryRecord]
    events: list[EventRecord] = []


def export_user(store: Store, user_id: str, *, now: datetime, model_id: str) -> dict[str, Any]:
    memories, _ = store.list_memories(MemoryQuery(user_id=user_id, all_projects=True))
    memories.sort(key=lambda m: (m.created_at, m.id))
    events = [e for m in memories for e in store.events(m.id)]
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "user_id": user_id,
        "exported_at": now.isoformat(),
        "embedding_model": model_id,
        "memories": [m.to_dict() for m in memories],
        "events": [e.to_dict() for e in events],
    }


@dataclass(slots=True)
class ImportPlan:
    memories: list[Memory] = field(default_factory=list)
    events: list[TimelineEvent] = field(default_factory=list)
    report: ImportReport = field(default_factory=ImportReport)


def plan_import(store: Store, document: dict[str, Any], *, user_id: str | None, now: datetime) -> ImportPlan:
    """Validate ``document`` and work out what to write.

    Memories already present for the target user are skipped; an id that another user
    holds is given a fresh id (and references to it are rewritten), so an import can
    never touch another user's memory.
    """
    try:
        doc = ExportDocument.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidInputError(f"not a MemoPilot export: {where}: {first['msg']}") from None
    target = user_id or doc.user_id
    existing = store.get_many(r.id for r in doc.memories)
    renames: dict[str, str] = {}
    plan = ImportPlan()
    skipped: set[str] = set()
    for record in doc.memories:
        held = existing.get(record.id)
        if held is not None and held.user_id == target:
            skipped.add(record.id)
        elif held is not None:
            renames[record.id] = new_id()
    for record in doc.memories:
        if record.id in skipped:
            continue
        data = record.model_dump()
        data.update(user_id=target, id=renames.get(record.id, record.id))
        for ref in ("supersedes", "superseded_by"):
            data[ref] = renames.get(data[ref], data[ref]) if data[ref] else None
        data["source_ids"] = [renames.get(s, s) for s in data["source_ids"]]
        memory = Memory(**data)
        plan.memories.append(memory)
        plan.events += [_event(e, target, renames) for e in doc.events if e.memory_id == record.id]
        plan.events.append(
            TimelineEvent(
                user_id=target,
                memory_id=memory.id,
                kind=EventKind.IMPORTED,
                at=now,
                actor="user",
                reason="imported from an export",
                project_id=memory.project_id,
                details={"from_user": doc.user_id},
            )
        )
    plan.report = ImportReport(
        imported=len(plan.memories), skipped=len(skipped), renamed=len(renames), events=len(plan.events)
    )
    return plan


def _event(record: EventRecord, user_id: str, renames: dict[str, str]) -> TimelineEvent:
    memory_id = renames.get(record.memory_id, record.memory_id) if record.memory_id else None
    return TimelineEvent(
        user_id=user_id,
        memory_id=memory_id,
        kind=record.kind,
        at=record.at,
        actor=record.actor,
        reason=record.reason,
        project_id=record.project_id,
        details=record.details,
        id=new_id(),
    )
