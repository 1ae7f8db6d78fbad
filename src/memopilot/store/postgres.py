"""The PostgreSQL store: one database shared by many processes (psycopg 3 and a connection pool).

Same contract and semantics as the SQLite store (``sqlite.py``), with these backend choices:

- Versioned migrations (``postgres_schema.py``) run under an advisory lock, so servers that
  start together do not race; a schema from a newer MemoPilot is refused.
- Vectors live in a pgvector column, with a cosine HNSW index per embedding dimension
  (created at the first write of that dimension).
- Keyword search uses a generated ``tsvector`` of the content and tags of active and pinned
  memories, a GIN index, and ``ts_rank`` order.
- :meth:`change_token` reads the user's change counter, which every commit changing that user's
  memories or vectors bumps in its own transaction (``change_counters.py``), so each process's
  in-memory index notices the other writers.
- A commit is one transaction. It first claims the messages it applies (a primary key on
  ``(user_id, message_id)``: a concurrent second claim waits, then is refused), then locks the
  existing memory rows it touches in id order, so concurrent writers cannot deadlock on them.
  A deadlock or serialization failure (e.g. two Forgets erasing the same message) is retried.
- A set holding only what a read records (its trace and use counts) commits with
  ``synchronous_commit`` off: the server has it at once, and flushes its log within a fraction
  of a second instead of before answering (which was most of a read's time). Only a crash of the
  server itself can lose that last fraction; the SQLite store's ``synchronous = NORMAL`` makes the
  same trade for every commit. Everything a user wrote commits durably.
- Forget: Postgres has no ``secure_delete``. The transaction erases the content from every
  live row; :meth:`purge_residue` then runs ``VACUUM`` on the tables that held it, which prunes
  the dead row versions. What remains until PostgreSQL overwrites or recycles it: freed space
  inside data pages, entries in the GIN and HNSW index pages (until an index cleanup), the
  write-ahead log, and any replica, WAL archive or backup.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, TypeVar

import numpy as np
import orjson
import psycopg
import psycopg.types.json
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from ..domain import Memory, TimelineEvent
from ..errors import (
    CorruptStoreError,
    InvalidInputError,
    MessageAlreadyAppliedError,
    SchemaTooNewError,
    StoreError,
)
from .base import ChangeSet, ContextMemories, MemoryQuery, Store
from .change_counters import MemoryRowWriter, bump_change_counters
from .postgres_schema import MIGRATIONS, SCHEMA_VERSION
from .rows import (
    EVENT_COLUMNS,
    TURN_COLUMNS,
    WRITTEN_COLUMNS,
    RowCodec,
    context_batch,
    dump_json,
    memory_filter,
)
from .shared_queries import SharedQueries
from .use_counts import (
    MEMORY_SELECT_COLUMNS,
    NEVER_USED,
    USE_UPSERT_ASSIGNMENTS,
    USES_JOIN,
    fold_uses,
    memory_select_columns,
    use_rows,
)

__all__ = ["PostgresStore"]

_log = logging.getLogger(__name__)
T = TypeVar("T")

_MIGRATION_LOCK = 0x6D656D6F70696C6F  # advisory lock keys ("memopilo", and one more)
_INDEX_LOCK = _MIGRATION_LOCK + 1
_WRITE_ATTEMPTS = 3
_HNSW_MAX_DIM = 2000  # pgvector indexes `vector` columns of at most 2,000 dimensions
_OWN_TABLES = frozenset(
    {"meta", "memories", "events", "traces", "turns", "applied_messages", "memory_uses", "memory_changes"}
)

_CODEC = RowCodec(dump_time=lambda v: v, load_time=lambda v: v, load_json=lambda v: v)
_COLUMNS = ", ".join(WRITTEN_COLUMNS)
_SELECT_MEMORY = f"SELECT {MEMORY_SELECT_COLUMNS} FROM memories"
# What the index loads keeps each row as it came (rows.context_batch): JSON as text, not lists.
_CONTEXT_COLUMNS = memory_select_columns(as_text=frozenset({"tags", "source_ids"}), joined=True)
_SELECT_EVENT = f"SELECT {', '.join(EVENT_COLUMNS)} FROM events"
# A batch of uses in one statement (arrays of ids, counts and times), in id order (concurrent
# batches lock rows alike): one statement per memory took 70 ms for a batch of 64 reads' uses that
# one read waited for, this 47 ms (measured in a harness on 2026-12-04).
_COUNT_USES = (
    "INSERT INTO memory_uses (user_id, memory_id, use_count, last_use_at) "
    "SELECT m.user_id, m.id, u.count, u.at FROM unnest(%s::text[], %s::bigint[], %s::timestamptz[]) "
    "AS u(id, count, at) JOIN memories m ON m.id = u.id ORDER BY m.id "
    f"ON CONFLICT (user_id, memory_id) DO UPDATE SET {USE_UPSERT_ASSIGNMENTS}"
)


def _vector_param(vector: np.ndarray) -> list[float]:
    return np.asarray(vector, dtype=np.float32).tolist()  # type: ignore[no-any-return]


# A memory row is written once per commit, its change_seq and vector with it (change_counters.py).
_ROWS = MemoryRowWriter.of(
    "%s", "(user_id, id)", ("id", "user_id"), "%s::real[]::vector", _CODEC.memory_row, _vector_param
)


_UPSERT_META = (
    "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)
_INSERT_EVENT = f"INSERT INTO events ({', '.join(EVENT_COLUMNS)}) VALUES ({', '.join(['%s'] * 9)})"
_INSERT_TURN = (
    f"INSERT INTO turns ({', '.join(TURN_COLUMNS)}) VALUES ({', '.join(f'%({c})s' for c in TURN_COLUMNS)})"
)
_INSERT_TRACE = (
    "INSERT INTO traces (id, user_id, project_id, created_at, payload, message_id) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)
_CLAIM_MESSAGE = "INSERT INTO applied_messages (user_id, message_id) VALUES (%s, %s) ON CONFLICT DO NOTHING"
_SCANS: dict[str, tuple[str, Callable[[Sequence[Any]], Any]]] = {  # (SELECT seq, ... FROM t, converter)
    "memories": (
        f"SELECT seq, {MEMORY_SELECT_COLUMNS}, vector_send(embedding) FROM memories",
        lambda r: (_CODEC.memory_from_row(r[:-1]), None if r[-1] is None else _vectors([r[-1]])[0]),
    ),
    "events": (f"SELECT seq, {', '.join(EVENT_COLUMNS)} FROM events", _CODEC.event_from_row),
    "traces": ("SELECT seq, payload FROM traces", lambda r: r[0]),
    "turns": (
        f"SELECT seq, {', '.join(TURN_COLUMNS)} FROM turns",
        lambda r: dict(zip(TURN_COLUMNS, r, strict=True)) | {"at": r[-1].isoformat()},
    ),
    "messages": ("SELECT seq, user_id, message_id FROM applied_messages", tuple),
}


class PostgresStore(SharedQueries, Store):
    _param = "%s"
    _scan_key = "seq"

    @property
    def _scans(self) -> dict[str, tuple[str, Any]]:  # type: ignore[override]
        return _SCANS

    def __init__(self, url: str, *, pool_size: int = 10) -> None:
        self.url = url
        conninfo = "postgresql://" + url.split("://", 1)[1]
        try:
            params = conninfo_to_dict(conninfo)
        except psycopg.Error:  # its message may quote the URL, password included
            raise InvalidInputError(
                "bad PostgreSQL URL: use postgresql://user:password@host:port/dbname"
            ) from None
        self._where = f"{params.get('host') or 'localhost'}/{params.get('dbname') or '(default database)'}"
        try:
            with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
                _configure(conn)
                self._migrate(conn)
                self._indexed_dims = _hnsw_dims(conn)
        except psycopg.OperationalError as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {self._where}: {_first_line(exc)}") from None
        except psycopg.Error as exc:
            raise _wrap(exc) from None
        self._pool = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            configure=_configure,
            name="memopilot",
            open=True,
        )

    # --- lifecycle -------------------------------------------------------------------------
    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            tables = {
                r[0]
                for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
            }
            if "meta" not in tables and tables & _OWN_TABLES:
                clash = ", ".join(sorted(tables & _OWN_TABLES))
                raise CorruptStoreError(
                    f"{self._where} has tables named like MemoPilot's ({clash}) but is not a MemoPilot "
                    "database; use another database or schema"
                )
            version = 0
            if "meta" in tables:
                row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise SchemaTooNewError(
                    f"{self._where} has schema version {version}, newer than this MemoPilot knows "
                    f"({SCHEMA_VERSION}); upgrade memopilot to open it"
                )
            try:
                for target in range(version + 1, SCHEMA_VERSION + 1):
                    conn.execute(MIGRATIONS[target - 1])
                    conn.execute(_UPSERT_META, ("schema_version", str(target)))
            except (pg_errors.InsufficientPrivilege, pg_errors.FeatureNotSupported) as exc:
                raise StoreError(
                    f"cannot create MemoPilot's tables in {self._where}: {_first_line(exc)}. The pgvector "
                    "extension must be installed; a superuser can run: CREATE EXTENSION vector"
                ) from None
            except (pg_errors.DuplicateTable, pg_errors.DuplicateObject) as exc:
                raise CorruptStoreError(
                    f"{self._where} is not a MemoPilot database ({_first_line(exc)})"
                ) from None

    def close(self) -> None:
        self._pool.close()

    def _query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._pool.connection() as conn:
                return conn.execute(sql, params).fetchall()
        except psycopg.Error as exc:
            raise _wrap(exc) from None

    def _write(self, apply: Callable[[psycopg.Connection[Any]], T], *, durable: bool = True) -> T:
        """Run ``apply`` in one transaction, retrying a transaction the server aborted to break a cycle.

        ``durable=False`` commits without waiting for the log to reach disk (see the module notes).
        """
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                with self._pool.connection() as conn, conn.transaction():
                    if not durable:
                        conn.execute("SET LOCAL synchronous_commit TO OFF")
                    return apply(conn)
            except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure) as exc:
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise _wrap(exc) from None
            except psycopg.Error as exc:
                raise _wrap(exc) from None
        raise AssertionError("unreachable")

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = %s", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._write(lambda conn: conn.execute(_UPSERT_META, (key, value)))

    def _load_time(self, value: Any) -> Any:
        return value

    # --- writes ----------------------------------------------------------------------------
    def commit(self, changes: ChangeSet) -> None:
        if not changes:
            return
        for dim in {int(v.shape[0]) for v in changes.vectors.values() if v is not None} - self._indexed_dims:
            self._ensure_vector_index(dim)
        self._write(lambda conn: _apply(conn, changes), durable=not changes.records_reads_only)

    def _ensure_vector_index(self, dim: int) -> None:
        """Create the cosine HNSW index of ``dim``-dimensional vectors (once, whoever comes first)."""
        if dim <= _HNSW_MAX_DIM:
            name = f"memories_embedding_hnsw_{dim}"

            def create(conn: psycopg.Connection[Any]) -> None:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_INDEX_LOCK,))
                if conn.execute("SELECT to_regclass(%s)", (name,)).fetchone() == (None,):
                    conn.execute(
                        f"CREATE INDEX {name} ON memories USING hnsw ((embedding::vector({dim})) "
                        f"vector_cosine_ops) WHERE vector_dims(embedding) = {dim}"
                    )

            self._write(create)
        else:
            _log.warning("no HNSW index for %d-dimensional vectors (pgvector's limit is 2000)", dim)
        self._indexed_dims.add(dim)

    def purge_residue(self) -> None:
        """Prune the dead row versions that Forget left (VACUUM cannot run inside a transaction)."""
        try:
            with self._pool.connection() as conn:
                conn.execute("VACUUM (SKIP_LOCKED) memories, events, turns, traces")
        except psycopg.Error as exc:  # the erase itself is committed; the autovacuum will prune later
            _log.warning("VACUUM after Forget failed: %s", _first_line(exc))

    # --- reads -----------------------------------------------------------------------------
    def get(self, memory_id: str, *, user_id: str) -> Memory | None:
        rows = self._query(f"{_SELECT_MEMORY} WHERE id = %s AND user_id = %s", (memory_id, user_id))
        return _CODEC.memory_from_row(rows[0]) if rows else None

    def get_many(self, memory_ids: Iterable[str], *, user_id: str) -> dict[str, Memory]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {}
        rows = self._query(f"{_SELECT_MEMORY} WHERE id = ANY(%s) AND user_id = %s", (ids, user_id))
        return {m.id: m for m in map(_CODEC.memory_from_row, rows)}

    def citing(self, memory_ids: Iterable[str], *, user_id: str) -> list[Memory]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return []
        sql = f"{_SELECT_MEMORY} WHERE user_id = %s AND source_ids ?| %s::text[]"
        return [_CODEC.memory_from_row(r) for r in self._query(sql, (user_id, ids))]

    def list_memories(self, query: MemoryQuery) -> tuple[list[Memory], int]:
        where, params = memory_filter(query, mark="%s", tags_text="tags::text")
        total = self._query(f"SELECT COUNT(*) FROM memories WHERE {where}", params)[0][0]
        sql = f"{_SELECT_MEMORY} WHERE {where} ORDER BY created_at DESC, seq DESC"
        if query.limit is not None:
            sql += " LIMIT %s OFFSET %s"
            params = [*params, query.limit, query.offset]
        return [_CODEC.memory_from_row(r) for r in self._query(sql, params)], total

    def context_memories(self, user_id: str, batch_size: int = 5000) -> Iterator[ContextMemories]:
        where = "memories.user_id = %s AND memories.state IN ('active', 'pinned')"
        return self._memory_batches(where, (user_id,), batch_size)

    def changed_memories(self, user_id: str, since: Any) -> Iterator[ContextMemories]:
        where = "memories.user_id = %s AND memories.change_seq > %s"
        return self._memory_batches(where, (user_id, since), 5000)

    def _memory_batches(
        self, where: str, params: tuple[Any, ...], batch_size: int
    ) -> Iterator[ContextMemories]:
        columns = f"{_CONTEXT_COLUMNS}, memories.index_terms, vector_send(memories.embedding)"
        # in the order the user's rows last changed, as the index reaches by appending (sqlite.py)
        sql = (
            f"SELECT {columns} FROM memories {USES_JOIN} WHERE {where} "
            "ORDER BY memories.change_seq, memories.seq"
        )
        # One statement (one snapshot) whose rows arrive in chunks (libpq's chunked mode), a batch
        # in memory at a time. A server-side cursor did the same with 10 ms more per user (its
        # DECLARE, FETCHes and transaction), a third of a cold 1,000-memory read.
        try:
            # Binary results: a vector arrives as its 1 KB of bytes, not as 2 KB of hex text that
            # psycopg then decodes (5 ms of a 1,000-memory load); every other column decodes to
            # the same Python value either way.
            with self._pool.connection() as conn, conn.cursor(binary=True) as cursor:
                batch: list[Any] = []
                for row in cursor.stream(sql, params, size=min(batch_size, 1000)):
                    batch.append(row)
                    if len(batch) == batch_size:
                        yield context_batch(batch, _CODEC, _vectors)
                        batch = []
                if batch:
                    yield context_batch(batch, _CODEC, _vectors)
        except psycopg.Error as exc:
            raise _wrap(exc) from None

    def vectors_of(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not memory_ids:
            return {}
        rows = self._query(
            "SELECT id, vector_send(embedding) FROM memories WHERE id = ANY(%s) AND embedding IS NOT NULL",
            (list(memory_ids),),
        )
        return {r[0]: _vectors([r[1]])[0] for r in rows}

    def keyword_search(
        self, user_id: str, project_id: str | None, terms: Sequence[str], limit: int
    ) -> list[tuple[str, float]]:
        if not terms:
            return []
        any_term = " || ".join(["plainto_tsquery('memopilot_english', %s)"] * len(terms))
        project_filter = "project_id IS NULL" + (" OR project_id = %s" if project_id is not None else "")
        params: list[Any] = [*terms, user_id, *([project_id] if project_id is not None else []), limit]
        rows = self._query(
            f"SELECT id, ts_rank(fts, q) AS rank FROM memories, (SELECT {any_term} AS q) AS query "
            f"WHERE user_id = %s AND state IN ('active', 'pinned') AND fts @@ q AND ({project_filter}) "
            "ORDER BY rank DESC, id LIMIT %s",
            params,
        )
        return [(r[0], float(r[1])) for r in rows]

    def due_for_expiry(self, now: datetime, user_id: str | None = None) -> list[Memory]:
        sql = f"{_SELECT_MEMORY} WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= %s"
        params: list[Any] = [now]
        if user_id is not None:
            sql += " AND user_id = %s"
            params.append(user_id)
        return [_CODEC.memory_from_row(r) for r in self._query(sql + " ORDER BY expires_at, id", params)]

    def due_for_archive(
        self, created_before: datetime, importance_below: float, user_id: str | None = None
    ) -> list[Memory]:
        sql = (
            f"{_SELECT_MEMORY} WHERE state = 'active' AND {NEVER_USED} AND created_at <= %s "
            "AND importance < %s AND type NOT IN ('critical', 'episode')"
        )
        params: list[Any] = [created_before, importance_below]
        if user_id is not None:
            sql += " AND user_id = %s"
            params.append(user_id)
        return [_CODEC.memory_from_row(r) for r in self._query(sql + " ORDER BY created_at, id", params)]

    def events(self, memory_id: str) -> list[TimelineEvent]:
        rows = self._query(f"{_SELECT_EVENT} WHERE memory_id = %s ORDER BY at, seq", (memory_id,))
        return [_CODEC.event_from_row(r) for r in rows]

    def timeline(
        self,
        user_id: str,
        project_id: str | None = None,
        kinds: Sequence[str] | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[TimelineEvent]:
        sql = f"{_SELECT_EVENT} WHERE user_id = %s"
        params: list[Any] = [user_id]
        if project_id is not None:
            sql += " AND (project_id = %s OR project_id IS NULL)"
            params.append(project_id)
        if kinds:
            sql += " AND kind = ANY(%s)"
            params.append(list(kinds))
        sql += " ORDER BY at DESC, seq DESC LIMIT %s OFFSET %s"
        params += [limit, offset]
        return [_CODEC.event_from_row(r) for r in self._query(sql, params)]

    def recent_turns(self, user_id: str, session_id: str, limit: int) -> list[dict[str, Any]]:
        if limit <= 0:
            return []
        rows = self._query(
            "SELECT t.role, t.content, t.message_id, t.at, tr.id FROM turns t LEFT JOIN traces tr "
            "ON tr.user_id = t.user_id AND tr.message_id = t.message_id "
            "WHERE t.user_id = %s AND t.session_id = %s ORDER BY t.seq DESC LIMIT %s",
            (user_id, session_id, limit),
        )
        return [
            {"role": role, "content": text, "message_id": message_id, "at": at.isoformat(), "trace_id": tid}
            for role, text, message_id, at, tid in reversed(rows)
        ]

    def get_trace(self, trace_id: str) -> dict[str, Any] | None:
        rows = self._query("SELECT payload FROM traces WHERE id = %s", (trace_id,))
        return rows[0][0] if rows else None

    def list_traces(self, user_id: str, limit: int = 20) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT payload FROM traces WHERE user_id = %s ORDER BY created_at DESC, seq DESC LIMIT %s",
            (user_id, limit),
        )
        return [r[0] for r in rows]


# --- one commit ------------------------------------------------------------------------------
def _apply(conn: psycopg.Connection[Any], changes: ChangeSet) -> None:
    cur = conn.cursor()
    for user_id, message_id in changes.messages:  # first: a second claimant waits here, holding nothing
        if cur.execute(_CLAIM_MESSAGE, (user_id, message_id)).rowcount == 0:
            raise MessageAlreadyAppliedError(
                f"message {message_id!r} of user {user_id!r} was already applied"
            )
    touched = sorted({m.id for m in changes.memories} | set(changes.vectors) | set(changes.scrub_events_of))
    if touched:  # lock the rows this set rewrites in one order: concurrent writers queue, never cross
        cur.execute("SELECT 1 FROM memories WHERE id = ANY(%s) ORDER BY id FOR UPDATE", (touched,))
    if changes.meta:
        cur.executemany(_UPSERT_META, list(changes.meta.items()))
    if changes.uses:  # before the upserts: see ChangeSet.uses
        counts, times, ids = zip(*use_rows(changes.uses, lambda t: t), strict=True)
        cur.execute(_COUNT_USES, (list(ids), list(counts), list(times)))
    # After the memory rows' locks, as every writer does; before the rows: they carry the new count.
    bump_change_counters(cur, changes, "%s")
    model = None
    if changes.vectors:
        model = changes.meta.get("embedding_model")
        if model is None:
            row = cur.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
            model = row[0] if row else None
    if changes.memories:
        fold_uses(cur, changes.memories, "%s")
    _ROWS.write(cur, changes, model)
    if changes.scrub_events_of:
        cur.executemany(
            "UPDATE events SET details = '{}', reason = '(erased by Forget)' WHERE memory_id = %s",
            [(i,) for i in changes.scrub_events_of],
        )
    if changes.events:
        cur.executemany(_INSERT_EVENT, [_CODEC.event_row(e) for e in changes.events])
    if changes.traces:
        cur.executemany(
            _INSERT_TRACE,
            [
                (
                    t["id"],
                    t["user_id"],
                    t.get("project_id"),
                    t["created_at"],
                    dump_json(t),
                    t.get("message_id"),
                )
                for t in changes.traces
            ],
        )
    if changes.turns:
        cur.executemany(_INSERT_TURN, changes.turns)
    if changes.event_texts:
        cur.executemany(
            "UPDATE events SET reason = %s, details = %s WHERE id = %s",
            [(r, json.dumps(d), i) for i, (r, d) in changes.event_texts.items()],
        )
    if changes.turn_texts:
        cur.executemany(
            "UPDATE turns SET content = %s WHERE id = %s", [(t, i) for i, t in changes.turn_texts.items()]
        )
    if changes.trace_payloads:
        cur.executemany(
            "UPDATE traces SET payload = %s WHERE id = %s",
            [(dump_json(p), i) for i, p in changes.trace_payloads.items()],
        )
    if changes.erase_quotes:  # strpos, not LIKE: the text is matched as it is, wildcards and all
        cur.executemany(
            "UPDATE turns SET content = '' WHERE user_id = %s AND strpos(content, %s) > 0",
            changes.erase_quotes,
        )
    for user_id, message_id in changes.erase_messages:
        where = (user_id, message_id)
        cur.execute("UPDATE turns SET content = '' WHERE user_id = %s AND message_id = %s", where)
        found = cur.execute(
            "SELECT id, payload FROM traces WHERE user_id = %s AND message_id = %s ORDER BY seq", where
        ).fetchall()
        cur.executemany(  # the question goes; the payload text keeps its key order (as json_set does)
            "UPDATE traces SET payload = %s WHERE user_id = %s AND id = %s",
            [(json.dumps(payload | {"query": ""}), user_id, trace_id) for trace_id, payload in found],
        )


# --- helpers ---------------------------------------------------------------------------------
def _configure(conn: psycopg.Connection[Any]) -> None:
    conn.execute("SET TIME ZONE 'UTC'")
    # orjson for json/jsonb columns (tags, source ids, event details): the standard library's
    # decoder took a quarter of loading a user's memories (two values a row).
    psycopg.types.json.set_json_loads(orjson.loads, conn)


def _hnsw_dims(conn: psycopg.Connection[Any]) -> set[int]:
    rows = conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
        "AND indexname ~ '^memories_embedding_hnsw_[0-9]+$'"
    ).fetchall()
    return {int(r[0].rsplit("_", 1)[1]) for r in rows}


def _vectors(blobs: Sequence[bytes]) -> np.ndarray:
    """pgvector's binary form (int16 dimension, int16 unused, big-endian float32s) -> float32 rows."""
    flat = np.frombuffer(b"".join(blobs), dtype=">f4").reshape(len(blobs), -1)
    return flat[:, 1:].astype(np.float32)  # the 4-byte header is one column wide


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _wrap(exc: psycopg.Error) -> StoreError:
    return StoreError(f"database error: {_first_line(exc)}")
