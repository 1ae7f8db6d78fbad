"""Per-user in-memory index of the memories that may reach a context, loaded once, kept in sync.

The store is the source of truth. This index exists so that the read path never decodes rows,
vectors or a full-text index from disk per question: it holds, for each user and each project
(``None``: user-wide), the active and pinned memories themselves, their vectors as one matrix,
and an inverted index of their stemmed topic words. A question then costs one matrix-vector
product and a few numpy sums over the posting lists of its words, within the question's scope
(its project's memories plus the user-wide ones) only.

Keeping it in sync: the engine hands every commit it makes to :meth:`MemoryIndex.apply`
(memories written, vectors, uses counted). Commits by *other* processes are noticed through
the store's change token (a per-user counter); the rows those commits wrote carry the counter, so
the index applies just them (``Store.changed_memories``) rather than reloading the user, unless
they are a large share of the user (then a reload is as cheap).

Loading a user costs what a cold read waits for, so it does the least it can per memory: the
words each memory is found by come stored with its row (``text.stored_index_terms``; rows from
before are tokenized here), posting lists are built for a whole bucket at once as arrays, and
the objects it keeps per memory are few (each is work for the garbage collector's full passes).

Bounded (``MEMOPILOT_INDEX_CACHE_MB``): each user's index knows what it holds (its arrays' bytes,
its texts, and measured per-row and per-word overheads); past the cap the least recently read
users are dropped and reload on their next read. A user larger than the whole cap is loaded for
the read that needs it and not kept.

Rows are append-only within a bucket: a memory that leaves the context states, or whose text
changes, leaves a dead row behind (so posting lists never need rewriting on the hot path), and a
bucket compacts itself once half its rows are dead.
"""

from __future__ import annotations

import gc
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import repeat
from typing import Any

import numpy as np

from ..domain import Memory, MemoryFacts, MemoryState, MemoryType
from ..store import ChangeSet, ContextMemories, FactColumns, Store, Uses
from ..store.change_counters import after_own_commit
from ..text import index_terms
from .scorer import PRIORITY_FIELD, SCORE_FIELDS, USAGE_FIELD, ScoreInputs, facts_score_fields, score_fields

__all__ = [
    "BM25_B",
    "BM25_K1",
    "CacheStats",
    "MemoryIndex",
    "ScopeMatches",
    "freeze_long_lived",
    "indexed_terms",
    "release_free_heap",
    "tune_gc_for_serving",
]

# Okapi BM25 constants, as in SQLite FTS5 and Lucene.
BM25_K1 = 1.2
BM25_B = 0.75
_MIN_COMPACT = 256  # dead rows tolerated before a bucket considers compacting
# What the arrays' own bytes do not show, fitted to tracemalloc's count while loading users of 50
# to 2,000 memories over 1 to 60 projects (the bench's users and scripted ones; within 10%, and
# tests/test_index_cache.py checks it): a row's stored tuple with its strings (or its Memory
# object, about as large) and the row's list and dict slots; a word's entry in its bucket's term
# map; a memory's entry in its user's id map; a bucket with its arrays' headers.
_ROW_BYTES = 990
_TERM_BYTES = 56
_ID_BYTES = 120
_BUCKET_BYTES = 2048
_TAIL_ENTRIES = 256  # posting entries appended after a load, merged into the sorted ones past this
_NO_ROWS = np.zeros(0, dtype=np.int32)
_NO_COUNTS = np.zeros(0, dtype=np.float32)
_SYNC_ROWS = 256  # changed rows always applied in place; beyond this and a quarter of the user, reload
_TRIM_AFTER_ROWS = 500  # a load this large returns the allocator's free memory (release_free_heap)


def indexed_terms(memory: Memory) -> dict[str, int]:
    """The words a memory is found by: stemmed topic words of its content and its tags."""
    return index_terms(memory.content, memory.tags)


def _grow(array: np.ndarray, needed: int) -> np.ndarray:
    """``array`` with room for ``needed`` rows (doubling, so appends are amortised O(1))."""
    if needed <= array.shape[0]:
        return array
    grown = np.zeros((max(16, 2 * array.shape[0], needed), *array.shape[1:]), dtype=array.dtype)
    grown[: array.shape[0]] = array
    return grown


class _PostingTable:
    """One bucket's inverted index: for each term, the rows that contain it and how often.

    Held as arrays, not as an object per term (a bucket of 1,000 memories has about 2,000 terms,
    and every object the garbage collector tracks lengthens its full collections, which a cold
    read then pays for): the entries of the rows indexed at load time sorted by term, each term's
    entries a slice of them; rows appended later go to a small unsorted tail, merged into the
    sorted part once it grows past an eighth of it.
    """

    __slots__ = (
        "counts",
        "offsets",
        "rows",
        "slot_of",
        "tail_counts",
        "tail_rows",
        "tail_size",
        "tail_slots",
    )

    def __init__(self) -> None:
        self.slot_of: dict[str, int] = {}  # term -> its slot (holds only str and int: untracked)
        self.offsets = np.zeros(1, dtype=np.int64)  # sorted part: slot s is entries offsets[s]:offsets[s+1]
        self.rows = np.zeros(0, dtype=np.int32)
        self.counts = np.zeros(0, dtype=np.float32)
        self._clear_tail()

    @classmethod
    def of(cls, slots: np.ndarray, rows: np.ndarray, counts: np.ndarray, terms: list[str]) -> _PostingTable:
        """A table of these entries (``slots[i]`` indexes ``terms``), every term with an entry."""
        table = cls()
        table.slot_of = {term: slot for slot, term in enumerate(terms)}
        table._sort(slots, rows, counts, len(terms))
        return table

    def _sort(self, slots: np.ndarray, rows: np.ndarray, counts: np.ndarray, terms: int) -> None:
        order = np.lexsort((rows, slots))  # by term, rows ascending within a term
        self.rows = rows[order].astype(np.int32)
        self.counts = counts[order].astype(np.float32)
        self.offsets = np.zeros(terms + 1, dtype=np.int64)
        np.cumsum(np.bincount(slots, minlength=terms), out=self.offsets[1:])
        self._clear_tail()

    def _clear_tail(self) -> None:
        self.tail_slots = np.zeros(0, dtype=np.int32)
        self.tail_rows = np.zeros(0, dtype=np.int32)
        self.tail_counts = np.zeros(0, dtype=np.float32)
        self.tail_size = 0

    def add(self, row: int, terms: dict[str, int]) -> None:
        """Index one more row with its term counts."""
        end = self.tail_size + len(terms)
        self.tail_slots = _grow(self.tail_slots, end)
        self.tail_rows = _grow(self.tail_rows, end)
        self.tail_counts = _grow(self.tail_counts, end)
        for at, (term, count) in enumerate(terms.items(), start=self.tail_size):
            self.tail_slots[at] = self.slot_of.setdefault(term, len(self.slot_of))
            self.tail_rows[at] = row
            self.tail_counts[at] = count
        self.tail_size = end
        if end > max(_TAIL_ENTRIES, self.rows.size // 8):
            self.renumber(None)

    def lookup(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """The rows containing ``term`` and its count in each."""
        slot = self.slot_of.get(term)
        if slot is None:
            return _NO_ROWS, _NO_COUNTS
        rows, counts = _NO_ROWS, _NO_COUNTS
        if slot + 1 < self.offsets.size:
            start, end = self.offsets[slot], self.offsets[slot + 1]
            rows, counts = self.rows[start:end], self.counts[start:end]
        if self.tail_size:
            hit = self.tail_slots[: self.tail_size] == slot
            if hit.any():
                rows = np.concatenate([rows, self.tail_rows[: self.tail_size][hit]])
                counts = np.concatenate([counts, self.tail_counts[: self.tail_size][hit]])
        return rows, counts

    def renumber(self, new_row: np.ndarray | None) -> None:
        """Merge the tail into the sorted part; with ``new_row`` (old row -> new, -1: dropped) also
        renumber the rows and forget terms left without any."""
        terms = self.offsets.size - 1
        slots = np.concatenate(
            [np.repeat(np.arange(terms), np.diff(self.offsets)), self.tail_slots[: self.tail_size]]
        )
        rows = np.concatenate([self.rows, self.tail_rows[: self.tail_size]])
        counts = np.concatenate([self.counts, self.tail_counts[: self.tail_size]])
        names = list(self.slot_of)
        if new_row is not None:
            rows = new_row[rows]
            live = rows >= 0
            slots, rows, counts = slots[live], rows[live], counts[live]
            kept = np.unique(slots)
            new_slot = np.full(len(names), -1, dtype=np.int64)
            new_slot[kept] = np.arange(kept.size)
            slots = new_slot[slots]
            names = [names[s] for s in kept.tolist()]
            self.slot_of = {term: slot for slot, term in enumerate(names)}
        self._sort(slots, rows, counts, len(names))

    @property
    def terms(self) -> int:
        return len(self.slot_of)

    @property
    def nbytes(self) -> int:
        arrays = (self.offsets, self.rows, self.counts, self.tail_slots, self.tail_rows, self.tail_counts)
        return sum(a.nbytes for a in arrays)


@dataclass(slots=True)
class _Bucket:
    """One user's context-state memories in one project (or user-wide)."""

    dim: int
    project_id: str | None = None
    size: int = 0  # rows used, dead ones included
    dead: int = 0
    ids: list[str | None] = field(default_factory=list)
    # each row's memory: a Memory, or (rows loaded from the store) its stored row, decoded by
    # ``decode`` when first asked for (see memory()); None for a dead row
    memories: list[Memory | tuple[Any, ...] | None] = field(default_factory=list)
    decode: Callable[[tuple[Any, ...]], Memory] | None = None
    row_of: dict[str, int] = field(default_factory=dict)
    alive: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    priority: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))  # critical or pinned
    episode: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))  # a verbatim turn
    # each row's scorer.score_fields: scoring a candidate never visits its memory object
    fields: np.ndarray = field(default_factory=lambda: np.zeros((0, SCORE_FIELDS), dtype=np.float64))
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))  # words per row
    matrix: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    postings: _PostingTable = field(default_factory=_PostingTable)
    text_bytes: int = 0  # content and tags of the live rows

    def memory(self, row: int) -> Memory | None:
        """The memory at ``row``, decoded from its stored row the first time it is asked for.

        A loaded user keeps its rows as the store returned them (tuples of strings and numbers,
        which the garbage collector stops tracking), not as Memory objects: a full collection
        visits every tracked object, and with the index full of Memory objects it took about
        1.5 µs each (100 ms for 65,000), a pause some read had to wait for. Only the memories a
        read gathers, or a write touches, are decoded and kept as objects.
        """
        found = self.memories[row]
        if found is None or isinstance(found, Memory):
            return found
        assert self.decode is not None  # (stored rows come with their decoder)
        memory = self.memories[row] = self.decode(found)
        return memory

    def nbytes(self) -> int:
        """What this bucket holds in memory: its arrays exactly, its objects as measured."""
        arrays = self.alive.nbytes + self.priority.nbytes + self.episode.nbytes + self.fields.nbytes
        arrays += self.lengths.nbytes + self.matrix.nbytes + self.postings.nbytes
        objects = _BUCKET_BYTES + self.size * _ROW_BYTES + self.postings.terms * _TERM_BYTES
        return arrays + self.text_bytes + objects

    def append(self, memory: Memory, vector: np.ndarray | None) -> None:
        row = self.size
        self.size += 1
        self.alive = _grow(self.alive, self.size)
        self.priority = _grow(self.priority, self.size)
        self.episode = _grow(self.episode, self.size)
        self.fields = _grow(self.fields, self.size)
        self.lengths = _grow(self.lengths, self.size)
        if self.matrix.shape[1] != self.dim:
            self.matrix = np.zeros((0, self.dim), dtype=np.float32)
        self.matrix = _grow(self.matrix, self.size)
        self.ids.append(memory.id)
        self.memories.append(memory)
        self.row_of[memory.id] = row
        self.alive[row] = True
        self.priority[row] = _is_priority(memory)
        self.episode[row] = memory.type is MemoryType.EPISODE
        self.fields[row] = score_fields(memory)
        self.matrix[row] = 0.0 if vector is None or vector.size == 0 else vector
        self.text_bytes += _text_bytes(memory)
        terms = indexed_terms(memory)
        self.lengths[row] = sum(terms.values())
        self.postings.add(row, terms)

    def replace(self, memory: Memory) -> None:
        """The same row, new fields that do not change what the memory is found by."""
        row = self.row_of[memory.id]
        self.text_bytes += _text_bytes(memory) - _text_bytes(self.memory(row))  # type: ignore[arg-type]
        self.memories[row] = memory
        self.priority[row] = _is_priority(memory)
        self.episode[row] = memory.type is MemoryType.EPISODE
        self.fields[row] = score_fields(memory)

    def remove(self, memory_id: str) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is None:
            return
        self.alive[row] = False
        self.priority[row] = False
        self.ids[row] = None
        self.text_bytes -= _text_bytes(self.memory(row))  # type: ignore[arg-type]  # a live row
        self.memories[row] = None
        self.dead += 1
        if self.dead >= _MIN_COMPACT and self.dead * 2 >= self.size:
            self.compact()

    def compact(self) -> None:
        """Drop dead rows; posting lists are renumbered, not rebuilt from text."""
        keep = np.flatnonzero(self.alive[: self.size])
        new_row = np.full(self.size, -1, dtype=np.int64)
        new_row[keep] = np.arange(keep.size)
        self.ids = [self.ids[r] for r in keep]
        self.memories = [self.memories[r] for r in keep]
        self.row_of = {memory_id: r for r, memory_id in enumerate(self.ids) if memory_id is not None}
        self.alive = self.alive[keep].copy()
        self.priority = self.priority[keep].copy()
        self.episode = self.episode[keep].copy()
        self.fields = self.fields[keep].copy()
        self.lengths = self.lengths[keep].copy()
        self.matrix = self.matrix[keep].copy()
        self.postings.renumber(new_row)
        self.size = int(keep.size)
        self.dead = 0


def _built_bucket(
    dim: int,
    project_id: str | None,
    ids: list[str],
    fields: np.ndarray,
    episode: np.ndarray,
    text_bytes: int,
    matrix: np.ndarray,
    stored_terms: list[dict[str, int] | None],
    kept: list[Any],
    memory_at: Callable[[int], Memory],
    decode: Callable[[tuple[Any, ...]], Memory] | None = None,
) -> _Bucket:
    """A bucket of memories (rows of ``matrix``) built in one pass: what :meth:`_Bucket.append`
    does row by row, with each array and posting list made once at its final size (a cold read
    loads a whole user this way). Row i has id ``ids[i]`` and score fields ``fields[i]``;
    ``stored_terms[i]`` are its terms as its row stored them (None: tokenize ``memory_at(i)``
    here); ``kept[i]`` is what the bucket holds for it: its stored row (with ``decode``, see
    :meth:`_Bucket.memory`) or its Memory."""
    entry_terms: list[str] = []  # one entry per (memory, term): the term, its count; row by row
    entry_counts: list[int] = []
    terms_per_row: list[int] = []
    for i, stored in enumerate(stored_terms):  # whole rows at a time
        terms = indexed_terms(memory_at(i)) if stored is None else stored
        entry_terms += terms
        entry_counts += terms.values()
        terms_per_row.append(len(terms))
    term_ids = {term: slot for slot, term in enumerate(dict.fromkeys(entry_terms))}
    size = len(ids)
    rows = np.repeat(np.arange(size, dtype=np.int32), np.asarray(terms_per_row, dtype=np.int64))
    counts = np.asarray(entry_counts, dtype=np.float32)
    bucket = _Bucket(dim=dim, project_id=project_id)
    bucket.size = size
    bucket.ids = ids
    bucket.memories = kept
    bucket.decode = decode
    bucket.row_of = {memory_id: row for row, memory_id in enumerate(ids)}
    bucket.alive = np.ones(size, dtype=bool)
    bucket.fields = fields
    bucket.priority = fields[:, PRIORITY_FIELD] > 0.5  # critical or pinned: as _is_priority
    bucket.episode = episode
    bucket.lengths = np.bincount(rows, weights=counts, minlength=size).astype(np.float32)
    bucket.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
    bucket.text_bytes = text_bytes
    bucket.postings = _PostingTable.of(
        np.asarray([term_ids[term] for term in entry_terms], dtype=np.int64),
        rows,
        counts,
        list(term_ids),
    )
    return bucket


def _facts_of(loaded: ContextMemories) -> FactColumns:
    """The facts the store read with the rows, or derived from the memories when it gave none."""
    if loaded.facts is not None and len(loaded.facts) == len(loaded.memories):
        return loaded.facts
    return FactColumns.of([MemoryFacts.of(m) for m in loaded.memories])


def _text_bytes(memory: Memory) -> int:
    return len(memory.content) + sum(len(tag) for tag in memory.tags)


def _is_priority(memory: Memory) -> bool:
    return memory.is_critical or memory.state is MemoryState.PINNED


@dataclass(slots=True)
class _UserIndex:
    dim: int
    buckets: dict[str | None, _Bucket] = field(default_factory=dict)
    bucket_of: dict[str, str | None] = field(default_factory=dict)  # memory id -> its project

    def bucket(self, project_id: str | None) -> _Bucket:
        found = self.buckets.get(project_id)
        if found is None:
            found = self.buckets[project_id] = _Bucket(dim=self.dim, project_id=project_id)
        return found

    def memory(self, memory_id: str) -> Memory | None:
        if memory_id not in self.bucket_of:
            return None
        bucket = self.buckets[self.bucket_of[memory_id]]
        return bucket.memory(bucket.row_of[memory_id])

    def add(self, memory: Memory, vector: np.ndarray | None) -> None:
        if self.dim == 0 and vector is not None and len(vector):  # the first vector sets the width
            self.dim = len(vector)
            for bucket in self.buckets.values():
                bucket.dim = self.dim
        self.remove(memory.id)
        self.bucket(memory.project_id).append(memory, vector)
        self.bucket_of[memory.id] = memory.project_id

    def remove(self, memory_id: str) -> None:
        if memory_id in self.bucket_of:
            self.buckets[self.bucket_of.pop(memory_id)].remove(memory_id)

    def nbytes(self) -> int:
        return sum(b.nbytes() for b in self.buckets.values()) + len(self.bucket_of) * _ID_BYTES

    @classmethod
    def built(cls, loaded: ContextMemories, batches: Sequence[ContextMemories]) -> _UserIndex:
        """A user's index from their context-state memories as loaded from the store (from each
        row's facts and stored terms when the store gives them: no Memory is built then).
        ``loaded`` joins ``batches`` without their vectors (ContextMemories.concatenated); the
        batches' matrices are copied into the buckets and dropped one by one."""
        count = len(loaded.memories)
        facts = _facts_of(loaded)
        fields = facts_score_fields(facts)
        episode = np.fromiter((t is MemoryType.EPISODE for t in facts.type), dtype=bool, count=count)
        stored = loaded.rows if len(loaded.rows) == count else None
        terms = loaded.terms if len(loaded.terms) == count else [None] * count
        rows_of: dict[str | None, list[int]] = {}
        for row, project_id in enumerate(facts.project_id):
            rows_of.setdefault(project_id, []).append(row)
        matrices = _project_matrices(batches, rows_of, count)
        index = cls(dim=next(iter(matrices.values())).shape[1] if matrices else 0)
        kept = loaded.memories if stored is None else stored
        for project_id, rows in rows_of.items():
            whole = len(rows) == count  # one project: every row, in order (no copies to take)
            ids = facts.id if whole else [facts.id[r] for r in rows]
            index.buckets[project_id] = _built_bucket(
                index.dim,
                project_id,
                ids,
                fields if whole else fields[rows],
                episode if whole else episode[rows],
                int(facts.text_bytes.sum() if whole else facts.text_bytes[rows].sum()),
                matrices[project_id],
                terms if whole else [terms[r] for r in rows],
                list(kept) if whole else [kept[r] for r in rows],
                lambda i, rows=rows: loaded.memories[rows[i]],  # type: ignore[misc]
                loaded.decode if stored is not None else None,
            )
            index.bucket_of.update(zip(ids, repeat(project_id)))
        return index


def _project_matrices(
    batches: Sequence[ContextMemories], rows_of: dict[str | None, list[int]], count: int
) -> dict[str | None, np.ndarray]:
    """Each project's vectors (its rows in order), copied out of the loaded batches one batch at a
    time, each batch's matrix dropped once copied: a load holds one copy of a user's vectors and
    one batch, where joining them first and then taking each project's rows held two or three
    (peak RSS of the 100,000-memory bench: BENCHMARKS.md)."""
    dim = next((b.matrix.shape[1] for b in batches if b.matrix.ndim == 2 and b.matrix.shape[0]), 0)
    project_of = np.empty(count, dtype=np.int64)
    projects = list(rows_of)
    for code, rows in enumerate(rows_of.values()):
        project_of[rows] = code
    out = [np.empty((len(rows), dim), dtype=np.float32) for rows in rows_of.values()]
    filled = [0] * len(projects)
    start = 0
    for batch in batches:
        size = len(batch.matrix)
        codes = project_of[start : start + size]
        for code in np.unique(codes).tolist():
            local = np.flatnonzero(codes == code)
            out[code][filled[code] : filled[code] + local.size] = batch.matrix[local]
            filled[code] += local.size
        batch.matrix = np.zeros((0, dim), dtype=np.float32)  # copied: let it go before the next one
        start += size
    return dict(zip(projects, out, strict=True))


@dataclass(slots=True)
class ScopeMatches:
    """What the index found for one question in one scope: candidates and their signals.

    ``memories[i]`` has cosine ``dense[i]``, BM25 score ``bm25[i]`` (0 when no query word
    occurs in it) and contains ``matched[i]`` of the question's distinct terms; ``sources[i]``
    names the generators that proposed it (dense, keyword, priority).
    """

    memories: list[Memory]
    dense: np.ndarray
    bm25: np.ndarray
    matched: np.ndarray
    sources: list[tuple[str, ...]]
    inputs: ScoreInputs  # what scoring needs of each, row for row


@dataclass(slots=True)
class CacheStats:
    """What the index cache holds and has done since the process started."""

    users: int
    held_bytes: int
    cap_bytes: int  # 0: unbounded
    loads: int  # users loaded from the store (first reads, reloads after eviction or a change)
    evictions: int  # users dropped to stay under the cap
    oversized: int  # reads of a user larger than the whole cap (served, not kept)
    syncs: int  # held users brought up to date with another process's changes, without a reload


class MemoryIndex:
    def __init__(
        self,
        store: Store,
        *,
        gc_freeze_rows: int = 0,
        pending_uses: Callable[[], dict[str, Uses]] | None = None,
        cap_bytes: int = 0,
        on_evict: Callable[[str], None] | None = None,
        on_load: Callable[[str, Any, FactColumns], None] | None = None,
        fast_dims: int | None = None,
        fast_only_dots: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        self._store = store
        # vectors whose leading ``fast_dims`` columns are a model of their own (Embedder.fast_dims):
        # candidates are picked by those columns alone, and only they are scored in full
        self._fast_dims = fast_dims
        # what stands in for a full dot product where a vector (the question's or a memory's) holds
        # only its fast part, the rest not computed yet (Embedder.fast_only_dots)
        self._fast_only_dots = fast_only_dots or (lambda dots: dots)
        self._gc_freeze_rows = gc_freeze_rows
        # uses counted but not yet in the store (usage_buffer.py): added to what a reload reads
        self._pending_uses = pending_uses or dict
        self._cap = cap_bytes
        self._on_evict = on_evict or (lambda user_id: None)
        # told of every load: the user, the change token it was read at, and its rows' facts
        self._on_load = on_load or (lambda user_id, token, facts: None)
        self._users: OrderedDict[str, _UserIndex] = OrderedDict()  # least recently read first
        self._tokens: dict[str, Any] = {}  # user -> the change token their index was loaded at
        self._sizes: dict[str, int] = {}  # user -> bytes their index holds
        self._held = 0
        self._loads = self._evictions = self._oversized = self._syncs = 0
        self._lock = threading.RLock()

    def holds(self, user_id: str) -> bool:
        """Whether this user's index is held now (their next read needs no load unless another
        process changed them)."""
        with self._lock:
            return user_id in self._users

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(
                users=len(self._users),
                held_bytes=self._held,
                cap_bytes=self._cap,
                loads=self._loads,
                evictions=self._evictions,
                oversized=self._oversized,
                syncs=self._syncs,
            )

    # --- loading and syncing -----------------------------------------------------------------
    def _user(self, user_id: str, token: Any = None) -> _UserIndex:
        """The user's index, up to date with change ``token`` (read from the store when None)."""
        if token is None:
            token = self._store.change_token(user_id)  # read before loading: a later commit moves it
        found = self._users.get(user_id)
        if found is not None and _at_least(self._tokens.get(user_id), token):
            self._users.move_to_end(user_id)
            return found
        if found is not None and self._caught_up(user_id, found, self._tokens[user_id], token):
            return found
        found, facts = self._load(user_id)  # first read, dropped earlier, or changed elsewhere
        self._loads += 1
        self._keep(user_id, found, token)
        self._on_load(user_id, token, facts)
        if self._gc_freeze_rows and len(found.bucket_of) >= self._gc_freeze_rows:
            freeze_long_lived()
        elif len(found.bucket_of) >= _TRIM_AFTER_ROWS:
            release_free_heap()
        return found

    def _caught_up(self, user_id: str, index: _UserIndex, held: Any, token: Any) -> bool:
        """Apply another process's changes to a held user (the rows written since the token held);
        False when a reload is the better way (many rows changed, or the counter went back)."""
        if not (isinstance(held, int) and isinstance(token, int) and token > held):
            return False
        batches = list(self._store.changed_memories(user_id, held))
        changed = sum(len(b.memories) for b in batches)
        if changed > max(_SYNC_ROWS, len(index.bucket_of) // 4):
            return False
        pending = self._pending_uses()
        for batch in batches:
            for memory, vector in zip(batch.memories, batch.matrix, strict=True):
                if memory.in_context_state:
                    index.add(memory, vector)
                    if memory.id in pending:  # this process's uses the store does not hold yet
                        self._count(index, memory.id, pending[memory.id].count, pending[memory.id].last_at)
                else:
                    index.remove(memory.id)
        self._tokens[user_id] = token
        self._users.move_to_end(user_id)
        self._syncs += 1
        self._resize(user_id)  # (a user that outgrew the cap is dropped, and still served this read)
        return True

    def _keep(self, user_id: str, index: _UserIndex, token: Any) -> None:
        """Hold a freshly loaded user, dropping the least recently read ones past the cap; a user
        larger than the whole cap is served for this read only."""
        self._drop(user_id)
        size = index.nbytes()
        if self._cap and size > self._cap:
            self._oversized += 1
            return
        self._users[user_id] = index
        self._tokens[user_id] = token
        self._sizes[user_id] = size
        self._held += size
        self._shrink(keep=user_id)

    def _resize(self, user_id: str) -> None:
        """A held user grew or shrank with this process's own writes."""
        size = self._users[user_id].nbytes()
        self._held += size - self._sizes[user_id]
        self._sizes[user_id] = size
        if self._cap and size > self._cap:
            self._drop(user_id)
            self._on_evict(user_id)
            self._evictions += 1
        self._shrink(keep=user_id)

    def _shrink(self, keep: str) -> None:
        while self._cap and self._held > self._cap and len(self._users) > 1:
            oldest = next(iter(self._users))
            if oldest == keep:
                self._users.move_to_end(keep)
                continue
            self._drop(oldest)
            self._on_evict(oldest)
            self._evictions += 1

    def _drop(self, user_id: str) -> None:
        if self._users.pop(user_id, None) is not None:
            self._held -= self._sizes.pop(user_id)
        self._tokens.pop(user_id, None)

    def _load(self, user_id: str) -> tuple[_UserIndex, FactColumns]:
        """A user's index read whole from the store, and the facts of the rows it was built from."""
        batches = list(self._store.context_memories(user_id))
        loaded = ContextMemories.concatenated(batches)
        loaded.facts = _facts_of(loaded)
        index = _UserIndex.built(loaded, batches)  # (it checks that terms and rows cover every memory)
        del batches
        for memory_id, use in self._pending_uses().items():
            self._count(index, memory_id, use.count, use.last_at)
        return index, loaded.facts

    def apply(self, changes: ChangeSet) -> None:
        """Bring loaded users in step with a set of changes this process just committed."""
        with self._lock:
            for user_id in {m.user_id for m in changes.memories} & self._users.keys():
                now = self._store.change_token(user_id)
                self._tokens[user_id] = after_own_commit(self._tokens.get(user_id), now)
            missing: list[Memory] = []
            for written in changes.memories:
                index = self._users.get(written.user_id)
                if index is None:
                    continue  # not loaded yet: it will load from the store
                memory = written.copy()  # the caller keeps its object; the index keeps its own
                if not memory.in_context_state:
                    index.remove(memory.id)
                elif not self._place(index, memory, changes.vectors):
                    missing.append(memory)
            if missing:
                stored = self._store.vectors_of([m.id for m in missing])
                for memory in missing:
                    self._users[memory.user_id].add(memory, stored.get(memory.id))
            for user_id in {m.user_id for m in changes.memories}:
                if user_id in self._users:  # (resizing one may have dropped another)
                    self._resize(user_id)

    def _place(self, index: _UserIndex, memory: Memory, vectors: dict[str, np.ndarray | None]) -> bool:
        """Index ``memory``; False when its vector must be fetched from the store first."""
        old = index.memory(memory.id)
        if memory.id in vectors:
            index.add(memory, vectors[memory.id])
        elif old is not None and _same_findability(old, memory):
            index.buckets[memory.project_id].replace(memory)
        elif old is not None:
            bucket = index.buckets[old.project_id]
            vector = bucket.matrix[bucket.row_of[memory.id]].copy()
            index.add(memory, vector)
        else:
            return False
        return True

    def count_uses(self, user_id: str, memory_ids: Iterable[str], used_at: datetime) -> None:
        """One use of each of ``user_id``'s memories, as the store will count it (usage_buffer.py).
        Only that user's index is visited: every held user's was, once per read, which with the
        cache full (900 users) was 50,000 lookups and ~25 ms of a read that gave 60 memories."""
        with self._lock:
            index = self._users.get(user_id)
            if index is not None:
                for memory_id in memory_ids:
                    self._count(index, memory_id, 1, used_at)

    @staticmethod
    def _count(index: _UserIndex, memory_id: str, count: int, used_at: datetime) -> None:
        # In place: a use changes no field the index is keyed on, and copying every memory given
        # to a context would cost more than the rest of the read.
        memory = index.memory(memory_id)
        if memory is not None:
            bucket = index.buckets[memory.project_id]
            bucket.fields[bucket.row_of[memory_id], USAGE_FIELD] += count
            memory.usage_count += count
            if memory.last_used_at is None or memory.last_used_at < used_at:
                memory.last_used_at = used_at

    def clear(self) -> None:
        with self._lock:
            self._users.clear()
            self._tokens.clear()
            self._sizes.clear()
            self._held = 0

    # --- questions ---------------------------------------------------------------------------
    def get(self, user_id: str, memory_id: str) -> Memory | None:
        """The indexed (active or pinned) memory, or None."""
        with self._lock:
            return self._user(user_id).memory(memory_id)

    def search(
        self,
        user_id: str,
        project_id: str | None,
        query_vector: np.ndarray,
        query_terms: Iterable[str],
        limit: int,
        token: Any = None,
    ) -> ScopeMatches:
        """Candidates in scope: the top ``limit`` by cosine, the top ``limit`` by BM25, and every
        critical or pinned memory (the ``limit`` most similar when there are more).

        Scope: memories of ``project_id`` plus user-wide ones (project None). ``token``: the
        store's change token for the user as the caller read it this read (None: read it here).
        """
        with self._lock:
            index = self._user(user_id, token)
            scope = [b for p, b in index.buckets.items() if p is None or p == project_id]
            scope = [b for b in scope if b.size - b.dead > 0]
            if not scope:
                empty = ScoreInputs.of_rows(np.zeros((0, SCORE_FIELDS)), np.zeros(0, dtype=bool))
                return ScopeMatches([], np.zeros(0), np.zeros(0), np.zeros(0), [], empty)
            alive = np.concatenate([b.alive[: b.size] for b in scope])
            fast = self._fast_dims if self._fast_dims and len(query_vector) > self._fast_dims else None
            part = query_vector[:fast] if fast else query_vector
            dense = np.concatenate([b.matrix[: b.size, : len(part)] @ part for b in scope])
            bm25, matched = _keyword_scores(scope, alive, list(dict.fromkeys(query_terms)))
            picked = _pick(
                alive,
                dense,
                bm25,
                np.concatenate([b.priority[: b.size] for b in scope]),
                np.concatenate([b.episode[: b.size] for b in scope]),
                limit,
            )
            rows = sorted(picked)
            memories, fields, same_project = _gather(scope, rows, project_id)
            return ScopeMatches(
                memories=memories,
                dense=(
                    self._candidate_dots(scope, rows, query_vector, dense)
                    if fast
                    else dense[rows].astype(np.float64)
                ),
                bm25=bm25[rows],
                matched=matched[rows],
                sources=[picked[r] for r in rows],
                inputs=ScoreInputs.of_rows(fields, same_project),
            )

    def _candidate_dots(
        self, scope: list[_Bucket], rows: list[int], query_vector: np.ndarray, fast_dots: np.ndarray
    ) -> np.ndarray:
        """The candidates' dot products with the whole vectors, but where the question's vector or a
        memory's holds only its fast part (its tail all zeros): there, what the fast part implies."""
        fast_dims = int(self._fast_dims or 0)
        stand_in = self._fast_only_dots(fast_dots[rows].astype(np.float64))
        if not np.any(query_vector[fast_dims:]):  # the write path asks with a fast vector
            return stand_in
        whole, whole_rows = _whole_dots(scope, rows, query_vector, fast_dims)
        return np.where(whole_rows, whole, stand_in)


def _whole_dots(
    scope: list[_Bucket], rows: list[int], query_vector: np.ndarray, fast_dims: int
) -> tuple[np.ndarray, np.ndarray]:
    """The full vectors' dot products with ``query_vector`` at positions ``rows`` (ascending) of
    the scope's concatenated buckets (the few candidates picked by the vectors' fast part), and
    whether each of those vectors is whole (its part after ``fast_dims`` not all zeros)."""
    at = np.asarray(rows, dtype=np.int64)
    dots: list[np.ndarray] = []
    whole: list[np.ndarray] = []
    start = 0
    for bucket in scope:
        local = at[(at >= start) & (at < start + bucket.size)] - start
        start += bucket.size
        if local.size:
            vectors = bucket.matrix[local]
            dots.append(vectors @ query_vector)
            whole.append(np.any(vectors[:, fast_dims:] != 0, axis=1))
    if not dots:
        return np.zeros(0), np.zeros(0, dtype=bool)
    return np.concatenate(dots).astype(np.float64), np.concatenate(whole)


def _gather(
    scope: list[_Bucket], rows: list[int], project_id: str | None
) -> tuple[list[Memory], np.ndarray, np.ndarray]:
    """The memories at positions ``rows`` (ascending) of the scope's concatenated buckets, their
    score fields, and whether each is in the asking project."""
    memories: list[Memory] = []
    fields: list[np.ndarray] = []
    same: list[np.ndarray] = []
    at = np.asarray(rows, dtype=np.int64)
    start = 0
    for bucket in scope:
        local = at[(at >= start) & (at < start + bucket.size)] - start
        start += bucket.size
        if local.size == 0:
            continue
        memories += [bucket.memory(r) for r in local.tolist()]  # type: ignore[misc]  # alive rows
        fields.append(bucket.fields[local])
        in_project = project_id is not None and bucket.project_id == project_id
        same.append(np.full(local.size, in_project, dtype=bool))
    if not fields:
        return [], np.zeros((0, SCORE_FIELDS)), np.zeros(0, dtype=bool)
    return memories, np.concatenate(fields), np.concatenate(same)


def _libc_malloc_trim() -> Callable[[int], int] | None:
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to do
        return None


_MALLOC_TRIM = _libc_malloc_trim()


def release_free_heap() -> None:
    """Give the C allocator's free memory back to the system (glibc's ``malloc_trim``).

    Loading a large user allocates a few MB for a moment (its rows as fetched, vectors being
    decoded) and frees them; glibc keeps such memory for reuse, and after the many-users bench's
    fifty cold 1,000-memory reads a process held about 27 MB more than its index for it. The trim
    costs about 1.5 ms, paid only after loads of 500 memories or more."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def freeze_long_lived() -> None:
    """Move every object alive now out of the cyclic garbage collector's reach.

    Done once a server has started (its modules, the embedding model, the detectors: about 47,000
    objects, 10-17 ms of every full collection; :func:`tune_gc_for_serving`) and after loading a
    very large user.

    A full collection visits every tracked object: with 100,000 indexed memories that was a
    pause of about 160 ms, every few hundred reads. Frozen objects are still freed by reference
    counting when the index drops them (memories hold no reference cycles); collecting first
    keeps garbage that exists now from being frozen with them.
    """
    gc.collect()
    gc.freeze()


# Full collections at most once per this many collections of the middle generation (Python's
# default is 10: about every 70,000 allocations).
_FULL_COLLECTION_EVERY = 100


def tune_gc_for_serving() -> None:
    """Garbage-collector settings for a process that serves reads (``memopilot serve``; the
    many-users bench runs as one): start-up objects frozen, full collections ten times rarer.

    A full collection visits every object the index holds, and with the cache full that took
    60-120 ms on this 2-core machine, a pause whichever read was running had to wait for: the
    first reads of cold users, which allocate the most, met it every dozen or so. The index holds
    no reference cycles (it is freed by reference counting), so the full passes found nothing to
    free in it; cyclic garbage elsewhere still goes, after at most about 700,000 allocations.
    """
    freeze_long_lived()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, _FULL_COLLECTION_EVERY)


def _at_least(held: Any, token: Any) -> bool:
    """Whether an index held at change ``held`` already shows the store as of ``token``: the same
    token, or a later count (this process's own commit after the caller read ``token``)."""
    if held == token:
        return True
    return isinstance(held, int) and isinstance(token, int) and held > token


def _same_findability(old: Memory, new: Memory) -> bool:
    return old.content == new.content and old.tags == new.tags and old.project_id == new.project_id


def _keyword_scores(
    scope: list[_Bucket], alive: np.ndarray, terms: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Okapi BM25 of every row in scope, and how many of ``terms`` each row contains.

    Document frequencies and the average length are those of the scope (the memories the
    question can reach), so a word common in this user's project weighs little even if it is
    rare elsewhere. Like FTS5, a word in more than half the rows keeps a tiny positive weight.
    """
    total = alive.size
    bm25 = np.zeros(total, dtype=np.float64)
    matched = np.zeros(total, dtype=np.float64)
    live_count = int(alive.sum())
    if not terms or live_count == 0:
        return bm25, matched
    lengths = np.concatenate([b.lengths[: b.size] for b in scope]).astype(np.float64)
    average = float(lengths[alive].sum()) / live_count or 1.0
    offsets = np.cumsum([0] + [b.size for b in scope[:-1]])
    for term in terms:
        found = [(b.postings.lookup(term), at) for b, at in zip(scope, offsets, strict=True)]
        parts = [(rows, counts, at) for (rows, counts), at in found if rows.size]
        if not parts:
            continue
        rows = np.concatenate([rows.astype(np.int64) + start for rows, _, start in parts])
        counts = np.concatenate([counts for _, counts, _ in parts]).astype(np.float64)
        live = alive[rows]
        rows, counts = rows[live], counts[live]
        if rows.size == 0:
            continue
        idf = math.log((live_count - rows.size + 0.5) / (rows.size + 0.5))
        idf = max(idf, 1e-6)
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * lengths[rows] / average)
        bm25[rows] += idf * counts * (BM25_K1 + 1.0) / (counts + norm)
        matched[rows] += 1.0
    return bm25, matched


def _pick(
    alive: np.ndarray,
    dense: np.ndarray,
    bm25: np.ndarray,
    priority: np.ndarray,
    episode: np.ndarray,
    limit: int,
) -> dict[int, tuple[str, ...]]:
    """Row -> the generators that proposed it.

    Episodes (verbatim turns) and typed memories each get their own ``limit`` by cosine and by
    BM25: a typed memory says its turn's point in a few words, so the two are near each other for a
    question, and with one shared limit the typed memories taken from a conversation pushed its
    turns out of the candidates (LoCoMo dev with ``--mode both``: README)."""
    sources: dict[int, list[str]] = {}
    masked = np.where(alive, dense, -np.inf)
    turns, typed = alive & episode, alive & ~episode
    with_words = bm25 > 0
    for name, rows in (
        ("dense", _top(masked, np.flatnonzero(turns), limit)),
        ("dense", _top(masked, np.flatnonzero(typed), limit)),
        ("keyword", _top(bm25, np.flatnonzero(with_words & episode), limit)),
        ("keyword", _top(bm25, np.flatnonzero(with_words & ~episode), limit)),
        # Critical and pinned memories are always candidates, but a user with thousands of them
        # could never fit them all in one context: beyond `limit`, the most similar ones go on.
        ("priority", _top(masked, np.flatnonzero(priority & alive), limit)),
    ):
        for row in rows.tolist():
            sources.setdefault(row, []).append(name)
    return {row: tuple(names) for row, names in sources.items()}


def _top(values: np.ndarray, rows: np.ndarray, limit: int) -> np.ndarray:
    """The ``limit`` rows among ``rows`` with the highest ``values``."""
    if rows.size <= limit:
        return rows
    part = np.argpartition(-values[rows], limit - 1)[:limit]
    return rows[part]
