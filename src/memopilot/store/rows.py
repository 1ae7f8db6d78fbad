"""Row mapping shared by the SQL stores: columns, conversions, the memory upsert and list filters.

SQLite keeps datetimes as ISO text and JSON as text; PostgreSQL keeps ``timestamptz``
and ``json``/``jsonb``. Each store builds a :class:`RowCodec` from its own converters,
so both map records to rows (and back) with the same code.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import orjson

from ..domain import (
    SUMMARY_TAG,
    EventKind,
    Memory,
    MemoryState,
    MemoryType,
    Privacy,
    TimelineEvent,
)
from ..errors import CorruptStoreError
from ..text import read_stored_index_terms, stored_index_terms
from .base import ContextMemories, DecodedRows, FactColumns, MemoryQuery

__all__ = [
    "DATETIME_COLUMNS",
    "EVENT_COLUMNS",
    "KIND_TABLES",
    "MEMORY_COLUMNS",
    "TURN_COLUMNS",
    "WRITTEN_COLUMNS",
    "RowCodec",
    "context_batch",
    "memory_filter",
    "memory_upsert_assignments",
]

MEMORY_COLUMNS = (
    "id",
    "user_id",
    "project_id",
    "type",
    "state",
    "content",
    "tags",
    "importance",
    "confidence",
    "usage_count",
    "last_used_at",
    "privacy",
    "created_at",
    "updated_at",
    "expires_at",
    "occurred_at",
    "valid_from",
    "valid_to",
    "supersedes",
    "superseded_by",
    "session_id",
    "message_id",
    "source_ids",
    "promoted_at",
)
DATETIME_COLUMNS = frozenset(
    {
        "last_used_at",
        "created_at",
        "updated_at",
        "expires_at",
        "occurred_at",
        "valid_from",
        "valid_to",
        "promoted_at",
    }
)
_JSON_COLUMNS = frozenset({"tags", "source_ids"})
# What a memory upsert writes: the memory's columns and the words it is found by
# (text.stored_index_terms), which loading a user's index reads instead of tokenizing again.
WRITTEN_COLUMNS = (*MEMORY_COLUMNS, "index_terms")
EVENT_COLUMNS = ("id", "user_id", "project_id", "memory_id", "kind", "actor", "reason", "details", "at")
TURN_COLUMNS = ("id", "user_id", "project_id", "session_id", "message_id", "role", "content", "at")
# The table that holds each kind of record (Store.scan, Store.counts).
KIND_TABLES = {
    "memories": "memories",
    "events": "events",
    "traces": "traces",
    "turns": "turns",
    "messages": "applied_messages",
}

# Uses are counted by atomic increments (record_usage) while other writes upsert whole rows
# read a moment earlier: an upsert never lowers the use count or the last-use time, so a
# concurrent use is never lost.
_MONOTONIC = {
    "usage_count": "CASE WHEN excluded.usage_count > memories.usage_count "
    "THEN excluded.usage_count ELSE memories.usage_count END",
    "last_used_at": "CASE WHEN memories.last_used_at IS NULL "
    "OR excluded.last_used_at > memories.last_used_at "
    "THEN excluded.last_used_at ELSE memories.last_used_at END",
}


def memory_upsert_assignments(skip: Sequence[str] = ("id",), extra: Sequence[str] = ()) -> str:
    """The ``DO UPDATE SET`` list of the memory upsert (both dialects accept it); ``extra``
    columns are written as given."""
    written = [c for c in WRITTEN_COLUMNS if c not in skip]
    return ", ".join(f"{c} = {_MONOTONIC.get(c, f'excluded.{c}')}" for c in [*written, *extra])


class _SharedEmptyList(list[Any]):
    """An empty list that cannot change, one instance shared by every memory read without tags or
    source ids (most of them). A process holds hundreds of thousands of memories in its index, and
    two lists of its own per memory were two thirds of the objects the garbage collector tracks:
    its full collections, which a read then waits for, took that much longer. Code that wants
    other tags assigns a new list (as all code here does); changing this one in place raises."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a memory's empty tags are shared: assign a new list instead of changing it")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]


NO_ITEMS: list[Any] = _SharedEmptyList()

_TYPES: dict[str, MemoryType] = {t.value: t for t in MemoryType}
_STATES: dict[str, MemoryState] = {t.value: t for t in MemoryState}
_PRIVACY: dict[str, Privacy] = {t.value: t for t in Privacy}
# Where fact_columns finds each column in a row of MEMORY_COLUMNS.
_COLUMN = {name: i for i, name in enumerate(MEMORY_COLUMNS)}
_ID, _PROJECT_ID, _TYPE, _STATE = _COLUMN["id"], _COLUMN["project_id"], _COLUMN["type"], _COLUMN["state"]
_CONTENT, _TAGS, _PRIVACY_COLUMN = _COLUMN["content"], _COLUMN["tags"], _COLUMN["privacy"]
_IMPORTANCE, _CONFIDENCE, _USAGE_COUNT = _COLUMN["importance"], _COLUMN["confidence"], _COLUMN["usage_count"]
_CREATED_AT, _OCCURRED_AT = _COLUMN["created_at"], _COLUMN["occurred_at"]
_EXPIRES_AT, _VALID_TO = _COLUMN["expires_at"], _COLUMN["valid_to"]


@dataclass(frozen=True, slots=True)
class RowCodec:
    """How one backend stores datetimes and JSON values."""

    dump_time: Callable[[datetime | None], Any]
    load_time: Callable[[Any], datetime | None]
    load_json: Callable[[Any], Any]
    dump_json: Callable[[Any], Any] = json.dumps
    # many stored times to POSIX seconds at once (inf for None), or None when it cannot read them
    load_timestamps: Callable[[Sequence[Any]], np.ndarray | None] | None = None

    def memory_row(self, m: Memory) -> tuple[Any, ...]:
        """The values of :data:`WRITTEN_COLUMNS` for ``m``."""
        values: list[Any] = []
        for column in MEMORY_COLUMNS:
            value = getattr(m, column)
            if column in DATETIME_COLUMNS:
                value = self.dump_time(value)
            elif column in _JSON_COLUMNS:
                value = self.dump_json(value)
            elif hasattr(value, "value"):
                value = value.value
            values.append(value)
        values.append(stored_index_terms(m.content, m.tags))
        return tuple(values)

    def memory_from_row(self, row: Sequence[Any]) -> Memory:
        try:
            return self._memory_from_row(row)
        except (ValueError, KeyError, TypeError) as exc:  # a row written by something else
            raise CorruptStoreError(f"memory {row[0]!r} holds an unreadable value: {exc}") from None

    def _memory_from_row(self, row: Sequence[Any]) -> Memory:
        data = dict(zip(MEMORY_COLUMNS, row, strict=True))
        for column in DATETIME_COLUMNS:
            data[column] = self.load_time(data[column])
        # The read path decodes hundreds of rows per question: skip json for empty lists and use
        # the enums' value maps rather than their (slow) constructors.
        data["tags"] = self._list(data["tags"])
        data["source_ids"] = self._list(data["source_ids"])
        data["type"] = _TYPES[data["type"]]
        data["state"] = _STATES[data["state"]]
        data["privacy"] = _PRIVACY[data["privacy"]]
        return Memory(**data)

    def fact_columns(self, rows: Sequence[Sequence[Any]]) -> FactColumns:
        """What the index needs of stored rows (see :class:`FactColumns`), without building a
        Memory; row i equals ``MemoryFacts.of(self.memory_from_row(rows[i]))`` (a test checks it)."""
        if not rows:
            return FactColumns.of([])
        try:
            column = list(zip(*rows, strict=True))
            tags = [self._list(raw) for raw in column[_TAGS]]
            created_ts = self._timestamps(column[_CREATED_AT])
            occurred_ts = self._timestamps(column[_OCCURRED_AT])
            return FactColumns(
                id=list(column[_ID]),
                project_id=list(column[_PROJECT_ID]),
                type=[_TYPES[t] for t in column[_TYPE]],
                state=[_STATES[t] for t in column[_STATE]],
                privacy=[_PRIVACY[t] for t in column[_PRIVACY_COLUMN]],
                importance=np.array(column[_IMPORTANCE], dtype=np.float64),
                confidence=np.array(column[_CONFIDENCE], dtype=np.float64),
                usage_count=np.array(column[_USAGE_COUNT], dtype=np.float64),
                reference_ts=np.where(np.isinf(occurred_ts), created_ts, occurred_ts),
                created_ts=created_ts,
                expires_ts=self._timestamps(column[_EXPIRES_AT]),
                valid_to_ts=self._timestamps(column[_VALID_TO]),
                is_summary=np.array([SUMMARY_TAG in t for t in tags], dtype=bool),
                text_bytes=np.array(
                    [len(c) + sum(map(len, t)) for c, t in zip(column[_CONTENT], tags, strict=True)],
                    dtype=np.int64,
                ),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            for row in rows:  # name the row: decoding it whole raises with its id
                self.memory_from_row(row)
            raise CorruptStoreError(f"a memory row holds an unreadable value: {exc}") from None

    def _timestamps(self, values: Sequence[Any]) -> np.ndarray:
        """Stored times as POSIX seconds (``inf`` for none), all at once where the backend can."""
        if self.load_timestamps is not None:
            found = self.load_timestamps(values)
            if found is not None:
                return found
        load = self.load_time
        return np.fromiter(
            (math.inf if v is None else load(v).timestamp() for v in values),  # type: ignore[union-attr]
            dtype=np.float64,
            count=len(values),
        )

    def _list(self, raw: Any) -> list[Any]:
        if raw is None or raw == "[]" or raw == []:
            return NO_ITEMS
        # (SQLite keeps JSON as text; PostgreSQL's driver decodes it, unless it was cast to text)
        return orjson.loads(raw) if isinstance(raw, str) else raw

    def event_row(self, e: TimelineEvent) -> tuple[Any, ...]:
        return (
            e.id,
            e.user_id,
            e.project_id,
            e.memory_id,
            e.kind.value,
            e.actor,
            e.reason,
            self.dump_json(e.details),
            self.dump_time(e.at),
        )

    def event_from_row(self, row: Sequence[Any]) -> TimelineEvent:
        id_, user_id, project_id, memory_id, kind, actor, reason, details, at = row
        try:
            return TimelineEvent(
                id=id_,
                user_id=user_id,
                project_id=project_id,
                memory_id=memory_id,
                kind=EventKind(kind),
                actor=actor,
                reason=reason,
                details=self.load_json(details),
                at=self.load_time(at),  # type: ignore[arg-type]
            )
        except (ValueError, TypeError) as exc:
            raise CorruptStoreError(f"event {id_!r} holds an unreadable value: {exc}") from None


def memory_filter(query: MemoryQuery, *, mark: str = "?", tags_text: str = "tags") -> tuple[str, list[Any]]:
    """The WHERE clause (and its parameters) of a memory list query.

    ``mark`` is the dialect's parameter placeholder; ``tags_text`` the SQL for the tags as JSON text.
    """
    clauses = [f"user_id = {mark}"]
    params: list[Any] = [query.user_id]
    if not query.all_projects:
        if query.project_id is None:
            clauses.append("project_id IS NULL")
        elif query.include_user_wide:
            clauses.append(f"(project_id = {mark} OR project_id IS NULL)")
            params.append(query.project_id)
        else:
            clauses.append(f"project_id = {mark}")
            params.append(query.project_id)
    for column, values in (("type", query.types), ("state", query.states)):
        if values:
            clauses.append(f"{column} IN ({','.join([mark] * len(values))})")
            params.extend(sorted(v.value for v in values))
    if query.text:
        escaped = query.text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append(
            f"(lower(content) LIKE {mark} ESCAPE '\\' OR lower({tags_text}) LIKE {mark} ESCAPE '\\')"
        )
        params += [f"%{escaped}%"] * 2
    return " AND ".join(clauses), params


def stack_vectors(blobs: Sequence[Any], decode_many: Callable[[Sequence[Any]], np.ndarray]) -> np.ndarray:
    """Stored vectors as one float32 matrix, a row of zeros for each missing (NULL) one."""
    present = [i for i, blob in enumerate(blobs) if blob is not None]
    if not present:
        return np.zeros((len(blobs), 0), dtype=np.float32)
    decoded = decode_many([blobs[i] for i in present])
    if len(present) == len(blobs):
        return np.ascontiguousarray(decoded, dtype=np.float32)
    matrix = np.zeros((len(blobs), decoded.shape[1]), dtype=np.float32)
    matrix[present] = decoded
    return matrix


# The columns a context load selects after the memory's own: its stored index terms, its vector.
CONTEXT_EXTRA_COLUMNS = 2


def context_batch(
    rows: Sequence[Sequence[Any]],
    codec: RowCodec,
    decode_vectors: Callable[[Sequence[Any]], np.ndarray],
) -> ContextMemories:
    """Rows of ``SELECT <memory columns>, index_terms, <vector>`` as the index loads them. The
    memory columns must hold only strings, numbers, datetimes and None (JSON as text), so that
    the rows kept are tuples the garbage collector stops tracking. No Memory is built: the batch
    carries each row's facts, and its ``memories`` decode a row when one is asked for."""
    stored = [r[:-CONTEXT_EXTRA_COLUMNS] for r in rows]
    return ContextMemories(
        DecodedRows(stored, codec.memory_from_row),
        stack_vectors([r[-1] for r in rows], decode_vectors),
        [read_stored_index_terms(r[-2]) for r in rows],
        stored,
        codec.memory_from_row,
        codec.fact_columns(stored),
    )


def id_batches(ids: Sequence[str], mark: str, size: int = 500) -> Iterator[tuple[Sequence[str], str]]:
    """``ids`` in batches for ``IN (...)``: each batch with its parameter markers (SQLite allows
    at most 999 parameters in a statement)."""
    for start in range(0, len(ids), size):
        batch = ids[start : start + size]
        yield batch, ", ".join([mark] * len(batch))


def dump_json(value: Any) -> str:
    """Compact JSON text (orjson: a trace is written on every read, so this is on the hot path)."""
    return orjson.dumps(value).decode()
