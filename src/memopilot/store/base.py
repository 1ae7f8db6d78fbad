"""The ``Store`` port: what the engine needs from a storage backend.

A store persists memories (with their vectors), timeline events and traces, and
answers the engine's structured queries. Every write goes through :meth:`Store.commit`
with a :class:`ChangeSet`, which the backend applies in one transaction: a memory
change and its timeline event are stored together or not at all.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..domain import Memory, MemoryFacts, MemoryState, MemoryType, Privacy, TimelineEvent

__all__ = ["RECORD_KINDS", "ChangeSet", "ContextMemories", "FactColumns", "MemoryQuery", "Store", "Uses"]

# What a store holds, as :meth:`Store.scan` and :meth:`Store.counts` name it.
RECORD_KINDS = ("memories", "events", "traces", "turns", "messages")


@dataclass(frozen=True, slots=True)
class Uses:
    """Uses of one memory to count: how many, and when the latest was."""

    count: int
    last_at: datetime

    def plus(self, other: Uses) -> Uses:
        return Uses(self.count + other.count, max(self.last_at, other.last_at))


@dataclass(slots=True)
class ChangeSet:
    """Everything one engine operation writes, applied atomically."""

    memories: list[Memory] = field(default_factory=list)
    # memory id -> new vector (unit float32), or None to erase the stored vector
    vectors: dict[str, np.ndarray | None] = field(default_factory=dict)
    # ids among ``vectors`` whose vector holds only its fast part (Embedder.completes_later): stored
    # under the model's pending name (embedding_model + "|pending") for the background worker
    pending_vectors: set[str] = field(default_factory=set)
    # ids among ``vectors`` whose vector completes a pending one, -> the content it was computed
    # from: written only where the row still holds that content and a pending vector (a write in
    # between, which stored a new fast vector, wins)
    completes: dict[str, str] = field(default_factory=dict)
    events: list[TimelineEvent] = field(default_factory=list)
    traces: list[dict[str, Any]] = field(default_factory=list)
    # ids of memories whose stored events must lose all content (Forget)
    scrub_events_of: list[str] = field(default_factory=list)
    # store metadata written in the same transaction (e.g. the embedding model after reembed)
    meta: dict[str, str] = field(default_factory=dict)
    # chat turns to append, each a dict of: id, user_id, project_id, session_id, message_id, role,
    # content, at
    turns: list[dict[str, Any]] = field(default_factory=list)
    # uses of memories given to callers in contexts, added before the memory upserts of the set
    # (an upsert keeps the larger use count, so a memory written with its new count stays right)
    uses: dict[str, Uses] = field(default_factory=dict)
    # (user_id, message_id) whose logged turns and trace questions must be erased (Forget)
    erase_messages: list[tuple[str, str]] = field(default_factory=list)
    # (user_id, text) of forgotten memories: logged turns that quote the text verbatim lose their
    # content too (a reply, an offline one above all, repeats the memories it used)
    erase_quotes: list[tuple[str, str]] = field(default_factory=list)
    # (user_id, message_id) of the messages this set applies (the write path): a message is applied
    # once; a set naming one already applied is refused whole with MessageAlreadyAppliedError
    messages: list[tuple[str, str]] = field(default_factory=list)
    # stored text rewritten in place (redact-existing): event id -> (reason, details),
    # turn id -> content, trace id -> the whole stored trace
    event_texts: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    turn_texts: dict[str, str] = field(default_factory=dict)
    trace_payloads: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def records_reads_only(self) -> bool:
        """Only what reads record: traces (the explanations) and use counts, nothing a user wrote."""
        return not (
            self.memories
            or self.vectors
            or self.events
            or self.scrub_events_of
            or self.meta
            or self.turns
            or self.messages
            or self.erase_messages
            or self.erase_quotes
            or self.event_texts
            or self.turn_texts
            or self.trace_payloads
        )

    def add(self, memory: Memory, event: TimelineEvent | None = None) -> None:
        self.memories.append(memory)
        if event is not None:
            self.events.append(event)

    def __bool__(self) -> bool:
        return bool(self.traces or self.uses) or not self.records_reads_only


@dataclass(frozen=True, slots=True)
class MemoryQuery:
    """Filters for listing memories (the memory list, export, reflection)."""

    user_id: str
    project_id: str | None = None  # with include_user_wide: the project's and user-wide ones
    include_user_wide: bool = True
    all_projects: bool = False
    types: frozenset[MemoryType] | None = None
    states: frozenset[MemoryState] | None = None
    text: str | None = None  # case-insensitive substring of content or tags
    limit: int | None = None
    offset: int = 0


class DecodedRows(Sequence[Memory]):
    """Stored rows read as Memory objects, each decoded when it is asked for (and not kept)."""

    def __init__(self, rows: Sequence[Sequence[Any]], decode: Callable[[Sequence[Any]], Memory]) -> None:
        self._rows = rows
        self._decode = decode

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._decode(row) for row in self._rows[index]]
        return self._decode(self._rows[index])


@dataclass(slots=True)
class FactColumns:
    """The :class:`MemoryFacts` of many memories, a column per field (each field here is the column
    of the MemoryFacts field of the same name). A cold read loads a whole user, and one facts
    object per row was a tenth of a 1,000-memory user's first read; a store fills these columns
    from its rows in a few list and numpy passes."""

    id: list[str]
    project_id: list[str | None]
    type: list[MemoryType]
    state: list[MemoryState]
    privacy: list[Privacy]
    importance: np.ndarray  # float64, as are the other number columns but these two:
    confidence: np.ndarray
    usage_count: np.ndarray
    reference_ts: np.ndarray
    created_ts: np.ndarray
    expires_ts: np.ndarray
    valid_to_ts: np.ndarray
    is_summary: np.ndarray  # bool
    text_bytes: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.id)

    @classmethod
    def of(cls, facts: Sequence[MemoryFacts]) -> FactColumns:
        """The columns of these rows' facts (built one by one: memories not read from a store)."""
        columns: dict[str, Any] = {}
        for name in _FACT_LISTS:
            columns[name] = [getattr(f, name) for f in facts]
        for name in _FACT_ARRAYS:
            dtype = _FACT_DTYPES.get(name, np.float64)
            columns[name] = np.fromiter((getattr(f, name) for f in facts), dtype=dtype, count=len(facts))
        return cls(**columns)

    @classmethod
    def concatenated(cls, parts: Sequence[FactColumns]) -> FactColumns:
        if not parts:
            return cls.of([])
        columns: dict[str, Any] = {name: [v for p in parts for v in getattr(p, name)] for name in _FACT_LISTS}
        columns.update((name, np.concatenate([getattr(p, name) for p in parts])) for name in _FACT_ARRAYS)
        return cls(**columns)

    def row(self, i: int) -> MemoryFacts:
        """Row ``i`` as one facts object (tests compare it with :meth:`MemoryFacts.of`)."""
        values = {name: getattr(self, name)[i] for name in (*_FACT_LISTS, *_FACT_ARRAYS)}
        values.update((name, values[name].item()) for name in _FACT_ARRAYS)
        values["usage_count"] = int(values["usage_count"])
        return MemoryFacts(**values)


_FACT_LISTS = ("id", "project_id", "type", "state", "privacy")
_FACT_ARRAYS = tuple(f.name for f in dataclasses.fields(FactColumns) if f.name not in _FACT_LISTS)
_FACT_DTYPES: dict[str, Any] = {"is_summary": bool, "text_bytes": np.int64}


@dataclass(slots=True)
class ContextMemories:
    """A user's active and pinned memories with their vectors, as loaded from the store."""

    memories: Sequence[Memory]
    matrix: np.ndarray  # (n, dim) float32, row i for memories[i]; zeros for a memory without one
    # the words each is found by as its row stored them (text.index_terms); None: tokenize it
    terms: list[dict[str, int] | None] = field(default_factory=list)
    # each memory's row as stored, in a form the garbage collector does not track (strings and
    # numbers), and how to decode one into its Memory: the index keeps these, not the objects
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    decode: Callable[[tuple[Any, ...]], Memory] | None = None
    # what the index needs of each row, read without building its Memory (None: derive it)
    facts: FactColumns | None = None

    @classmethod
    def concatenated(cls, batches: Sequence[ContextMemories]) -> ContextMemories:
        """One batch of ``batches``' memories in order, their rows still undecoded, and *without*
        vectors (an empty matrix): the vectors stay in the batches, which the index copies out
        one at a time (index._project_matrices), never holding two copies of them at once."""
        if not batches:
            return cls([], np.zeros((0, 0), dtype=np.float32))
        rows = [r for b in batches for r in b.rows]
        decode = batches[0].decode
        memories: Sequence[Memory] = (
            DecodedRows(rows, decode)
            if decode is not None and all(len(b.rows) == len(b.memories) for b in batches)
            else [m for b in batches for m in b.memories]
        )
        return cls(
            memories,
            np.zeros((0, 0), dtype=np.float32),
            [t for b in batches for t in b.terms],
            rows,
            decode,
            None
            if any(b.facts is None for b in batches)
            else FactColumns.concatenated([b.facts for b in batches if b.facts is not None]),
        )


class Store(ABC):
    """A storage backend.

    Implementations: :class:`~memopilot.store.sqlite.SQLiteStore` and
    :class:`~memopilot.store.postgres.PostgresStore`.
    """

    url: str

    # --- lifecycle & metadata ----------------------------------------------------------
    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    def change_token(self, user_id: str) -> Any:
        """A value that changes whenever any connection or process commits a change to the
        memories or vectors of ``user_id`` (store/change_counters.py)."""

    # --- writes --------------------------------------------------------------------------
    @abstractmethod
    def commit(self, changes: ChangeSet) -> None:
        """Apply ``changes`` in one transaction."""

    def record_usage(self, memory_ids: Sequence[str], used_at: datetime) -> None:
        """Count one use of each memory (inclusion in a context returned to a caller)."""
        counts = Counter(memory_ids)
        self.commit(ChangeSet(uses={memory_id: Uses(n, used_at) for memory_id, n in counts.items()}))

    @abstractmethod
    def purge_residue(self) -> None:
        """Make erased content unrecoverable from the backend's files (after Forget)."""

    # --- reads ---------------------------------------------------------------------------
    # Reads by id always name the user too: an id that came from outside (a request, an import,
    # an editor's reply, a summary's source list) can never reach another user's row.
    @abstractmethod
    def get(self, memory_id: str, *, user_id: str) -> Memory | None:
        """The memory ``memory_id`` if ``user_id`` owns it, else None."""

    @abstractmethod
    def get_many(self, memory_ids: Iterable[str], *, user_id: str) -> dict[str, Memory]:
        """The memories among ``memory_ids`` that ``user_id`` owns, by id."""

    @abstractmethod
    def citing(self, memory_ids: Iterable[str], *, user_id: str) -> list[Memory]:
        """``user_id``'s memories whose ``source_ids`` name any of ``memory_ids`` (what was
        derived from them: a typed memory from its episode, a summary from its sources)."""

    @abstractmethod
    def list_memories(self, query: MemoryQuery) -> tuple[list[Memory], int]:
        """Matching memories, newest first, and the total count before paging."""

    @abstractmethod
    def context_memories(self, user_id: str, batch_size: int = 5000) -> Iterator[ContextMemories]:
        """The user's active and pinned memories and their vectors, in batches (the in-memory
        index's source; batches keep a large user's load from holding every row twice)."""

    @abstractmethod
    def changed_memories(self, user_id: str, since: Any) -> Iterator[ContextMemories]:
        """The user's memories, in any state, written (or their vectors) by commits after the one
        that set the change token ``since`` (:meth:`change_token`), with their vectors: what
        another process applies to bring its index up to date without reloading the user."""

    @abstractmethod
    def vectors_of(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    @abstractmethod
    def keyword_search(
        self, user_id: str, project_id: str | None, terms: Sequence[str], limit: int
    ) -> list[tuple[str, float]]:
        """(memory id, relevance) of active/pinned memories matching any term, best first."""

    @abstractmethod
    def forgetting_horizon(self, user_id: str, importance_below: float) -> tuple[Any, Any]:
        """(earliest expires_at of an active memory, earliest created_at of an archivable one)."""

    @abstractmethod
    def due_for_expiry(self, now: datetime, user_id: str | None = None) -> list[Memory]: ...

    @abstractmethod
    def due_for_archive(
        self, created_before: datetime, importance_below: float, user_id: str | None = None
    ) -> list[Memory]: ...

    @abstractmethod
    def events(self, memory_id: str) -> list[TimelineEvent]: ...

    @abstractmethod
    def timeline(
        self,
        user_id: str,
        project_id: str | None = None,
        kinds: Sequence[str] | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[TimelineEvent]: ...

    @abstractmethod
    def recent_turns(self, user_id: str, session_id: str, limit: int) -> list[dict[str, Any]]:
        """The last ``limit`` logged turns of a session, oldest first: role, content (empty once
        forgotten), message_id, at, and the id of the turn's trace (``trace_id``, None if none)."""

    @abstractmethod
    def get_trace(self, trace_id: str) -> dict[str, Any] | None: ...

    @abstractmethod
    def list_traces(self, user_id: str, limit: int = 20) -> list[dict[str, Any]]: ...

    @abstractmethod
    def user_ids(self) -> list[str]: ...

    def project_ids(self, user_id: str) -> list[str]:
        """The projects a user has memories in (backends may answer this with one query)."""
        memories, _ = self.list_memories(MemoryQuery(user_id=user_id, all_projects=True))
        return sorted({m.project_id for m in memories if m.project_id is not None})

    @abstractmethod
    def count_vectors_by_model(self) -> dict[str, int]: ...

    @abstractmethod
    def pending_vectors(self, model: str, limit: int) -> list[tuple[str, str, str]]:
        """Up to ``limit`` memories whose vector of ``model`` holds only its fast part, as (id,
        user_id, content): what the background worker completes (engine/refinement.py)."""

    # --- whole-store copy (memopilot migrate) ------------------------------------------------
    @abstractmethod
    def meta_items(self) -> dict[str, str]:
        """Every metadata entry but the schema version (which belongs to the backend)."""

    @abstractmethod
    def counts(self) -> dict[str, int]:
        """How many rows of each kind the store holds: every kind of :data:`RECORD_KINDS`, and vectors."""

    @abstractmethod
    def memory_texts(self, batch_size: int = 2000) -> Iterator[list[tuple[str, str]]]:
        """``(id, content)`` of every memory not deleted (with content), in batches."""

    @abstractmethod
    def scan(self, kind: str, batch_size: int = 500) -> Iterator[list[Any]]:
        """Every stored record of ``kind`` in insertion order, in batches.

        memories: ``(Memory, vector or None)``; events: :class:`TimelineEvent`; traces: the trace
        dicts; turns: dicts as in :attr:`ChangeSet.turns`; messages: ``(user_id, message_id)``.
        """
