"""Export a user's memories and events as one JSON document, and import it back.

Vectors are not exported: they belong to a model, and the importing store re-embeds
with its own. The document is validated with pydantic before anything is written, each
record with the API's own limits and redaction (SPEC Contracts: import).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..clock import ensure_utc
from ..domain import EventKind, Memory, MemoryState, MemoryType, Privacy, TimelineEvent, new_id
from ..errors import InvalidInputError
from ..results import ImportReport
from ..settings import Settings
from ..store import MemoryQuery, Store
from ..validation import clean_content, clean_tags
from ..write.redaction import redact, redact_values

__all__ = ["EXPORT_FORMAT", "ExportDocument", "ImportPlan", "export_user", "imported_id", "plan_import"]

EXPORT_FORMAT = "memopilot-export"
_MAX_INT32 = 2**31 - 1  # counters fit every backend's integer column


def _to_utc(cls: type, value: Any) -> Any:
    """Naive times are taken as UTC, others converted: stores compare times as UTC text."""
    return ensure_utc(value) if isinstance(value, datetime) else value


_ID_TEXT = Field(default=None, max_length=200)
_MAX_DEPTH = 8  # records and event details are small flat dicts; deeper nesting is not ours


def _plain_json(cls: type, value: Any) -> Any:
    """Refuse a record nested deeper than :data:`_MAX_DEPTH` or holding a NUL character. Walked
    without recursion: a hostile document may nest thousands of levels deep."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise ValueError(f"nested deeper than {_MAX_DEPTH} levels")
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError("holds a NUL character")
        elif isinstance(item, dict):
            stack += [(k, depth + 1) for k in item] + [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]
    return value


class MemoryRecord(BaseModel):
    """One memory of an export document, with the API's own limits on ids (SPEC Contracts: import)."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=64)
    user_id: str | None = Field(default=None, max_length=200)  # replaced by the target user
    project_id: str | None = _ID_TEXT
    type: MemoryType
    state: MemoryState
    content: str
    tags: list[str] = Field(default=[], max_length=1000)
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
    supersedes: str | None = Field(default=None, max_length=64)
    superseded_by: str | None = Field(default=None, max_length=64)
    session_id: str | None = _ID_TEXT
    message_id: str | None = _ID_TEXT
    source_ids: list[str] = Field(default=[], max_length=10_000)
    promoted_at: datetime | None = None

    _utc = field_validator("*")(_to_utc)
    _plain = model_validator(mode="before")(_plain_json)


class EventRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(max_length=64)
    user_id: str | None = Field(default=None, max_length=200)  # replaced by the target user
    memory_id: str | None = Field(default=None, max_length=64)
    kind: EventKind
    at: datetime
    actor: str = Field(default="system", max_length=200)
    reason: str = Field(default="", max_length=2000)
    project_id: str | None = _ID_TEXT
    details: dict[str, Any] = {}

    _utc = field_validator("at")(_to_utc)
    _plain = model_validator(mode="before")(_plain_json)


class ExportDocument(BaseModel):
    """An export document. Its records are checked one by one (:func:`plan_import`), so that one
    bad record is reported by its index instead of refusing the whole document."""

    format: Literal["memopilot-export"]
    version: Literal[1]
    user_id: str = Field(max_length=200)
    exported_at: datetime | None = None
    embedding_model: str | None = None
    memories: list[dict[str, Any]] = Field(description="memory records as GET /api/export writes them")
    events: list[dict[str, Any]] = Field(default=[], description="timeline events of those memories")


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


def imported_id(target_user: str, source_id: str) -> str:
    """The id a record of an export takes in ``target_user``: the same every time, so importing
    a document twice changes nothing the second time, and never an id another user holds."""
    return uuid.uuid5(_IMPORT_NAMESPACE, f"{target_user}\x1f{source_id}").hex


_IMPORT_NAMESPACE = uuid.UUID("5b0c5a8e-4a55-4f0c-9d2e-6d656d6f7069")


def plan_import(
    store: Store, document: dict[str, Any], *, user_id: str | None, now: datetime, settings: Settings
) -> ImportPlan:
    """Validate ``document`` and work out what to write into ``user_id`` (else the document's user).

    Each record passes the same checks as the API (limits, redaction, invisible-only content);
    rejected records are reported by index. Ids are remapped with :func:`imported_id`; a record
    whose id (or remapped id) the target user already holds is skipped as already present.
    References (``supersedes``, ``superseded_by``, ``source_ids``) are remapped the same way and
    dropped when they name a record that is not in the document: nothing outside the document,
    and nothing of another user, can be reached through an import.
    """
    try:
        doc = ExportDocument.model_validate(document)
    except ValidationError as exc:
        raise InvalidInputError(f"not a MemoPilot export: {_first_problem(exc)}") from None
    target = user_id or doc.user_id
    if not target.strip():
        raise InvalidInputError("not a MemoPilot export: user_id is empty")
    report = ImportReport()
    records = _valid_records(doc.memories, settings, report)
    renames = {r.id: imported_id(target, r.id) for r in records}
    held = store.get_many([*renames, *renames.values()], user_id=target)
    # A record the target already holds under the document's own id (an export of this user) is
    # present as it is: references to it keep that id.
    renames.update({r.id: r.id for r in records if r.id in held})
    plan = ImportPlan(report=report)
    events = _valid_events(doc.events, report)
    for record in records:
        if renames[record.id] in held:
            report.skipped += 1
            continue
        memory = _memory(record, target, renames, settings)
        plan.memories.append(memory)
        for event in events.get(record.id, []):
            plan.events.append(_event(event, target, memory))
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
    report.imported = len(plan.memories)
    report.renamed = report.imported  # every imported record takes its imported_id
    report.events = len(plan.events)
    return plan


def _first_problem(exc: ValidationError) -> str:
    """The first validation problem as "field: message" (pydantic lists them all)."""
    first = exc.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc']) or 'record'}: {first['msg']}"


def _valid_records(raw: list[dict[str, Any]], settings: Settings, report: ImportReport) -> list[MemoryRecord]:
    """The records that pass the API's checks, in order; the others go to ``report.rejected``."""
    records: list[MemoryRecord] = []
    first_at: dict[str, int] = {}
    for index, item in enumerate(raw):
        try:
            record = MemoryRecord.model_validate(item)
            _check_record(record, settings)
        except ValidationError as exc:
            report.reject("memory", index, _first_problem(exc))
            continue
        except InvalidInputError as exc:
            report.reject("memory", index, str(exc))
            continue
        if record.id in first_at:
            report.reject(
                "memory", index, f"duplicate id {record.id!r} (first at memory {first_at[record.id]})"
            )
            continue
        first_at[record.id] = index
        records.append(record)
    return records


def _check_record(record: MemoryRecord, settings: Settings) -> None:
    """The API's limits (raises InvalidInputError); a tombstone (deleted, no content) may be empty."""
    if record.state is MemoryState.DELETED and not record.content and not record.tags:
        return
    clean_content(record.content, settings)
    clean_tags(record.tags, settings)
    if record.project_id is not None and not record.project_id.strip():
        raise InvalidInputError("project_id is blank")


def _valid_events(raw: list[dict[str, Any]], report: ImportReport) -> dict[str, list[EventRecord]]:
    """Valid events by the memory id they belong to (events of no memory are not imported)."""
    events: dict[str, list[EventRecord]] = {}
    for index, item in enumerate(raw):
        try:
            event = EventRecord.model_validate(item)
        except ValidationError as exc:
            report.reject("event", index, _first_problem(exc))
            continue
        if event.memory_id:
            events.setdefault(event.memory_id, []).append(event)
    return events


def _memory(record: MemoryRecord, target: str, renames: dict[str, str], settings: Settings) -> Memory:
    data = record.model_dump()
    data.update(user_id=target, id=renames[record.id], project_id=record.project_id or None)
    if record.content or record.tags:
        data.update(content=clean_content(record.content, settings), tags=clean_tags(record.tags, settings))
    for ref in ("supersedes", "superseded_by"):
        data[ref] = renames.get(data[ref]) if data[ref] else None
    data["source_ids"] = [renames[s] for s in data["source_ids"] if s in renames]
    return Memory(**data)


def _event(record: EventRecord, user_id: str, memory: Memory) -> TimelineEvent:
    return TimelineEvent(
        user_id=user_id,
        memory_id=memory.id,
        kind=record.kind,
        at=record.at,
        actor=redact(record.actor).text,
        reason=redact(record.reason).text,
        project_id=memory.project_id,
        details=redact_values(record.details),
        id=new_id(),
    )
