"""The embedded default store: one SQLite file in WAL mode.

- Versioned migrations (``sqlite_schema.py``); a file from a newer MemoPilot or a file
  that is not a MemoPilot database is refused with a clear error and left untouched.
- Vectors are float32 BLOBs next to their row, tagged with the model that made them.
- Keyword search uses the FTS5 index of active and pinned memories.
- ``secure_delete`` is on, so pages freed by Forget are zeroed, and
  :meth:`purge_residue` merges the FTS index and truncates the WAL afterwards: erased
  content leaves no bytes behind in the database files.

One connection is shared by the process under a lock (SQLite serialises writers
anyway); other processes may open the same file, and :meth:`change_token` (a per-user counter
that commits changing memories or vectors bump, ``change_counters.py``) lets the engine notice
their commits.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..domain import Memory, TimelineEvent
from ..errors import (
    ConfigError,
    CorruptStoreError,
    InvalidInputError,
    MessageAlreadyAppliedError,
    SchemaTooNewError,
    StoreError,
)
from .base import ChangeSet, ContextMemories, MemoryQuery, Store
from .change_counters import MemoryRowWriter, bump_change_counters
from .rows import (
    EVENT_COLUMNS,
    TURN_COLUMNS,
    RowCodec,
    context_batch,
    dump_json,
    id_batches,
    memory_filter,
)
from .shared_queries import SharedQueries
from .sqlite_schema import MIGRATIONS, SCHEMA_VERSION
from .use_counts import (
    MEMORY_SELECT_COLUMNS,
    NEVER_USED,
    USES_JOIN,
    count_uses_sql,
    fold_uses,
    memory_select_columns,
    use_rows,
)
from .wal_checkpointer import BACKSTOP_PAGES, WalCheckpointer

__all__ = ["SQLiteStore", "sqlite_path_from_url"]

_CONTEXT_STATES = ("active", "pinned")
_UPSERT_META = (
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
)
_INSERT_EVENT = (
    "INSERT INTO events (id, user_id, project_id, memory_id, kind, actor, reason, details, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_TURN = (
    "INSERT INTO turns (id, user_id, project_id, session_id, message_id, role, content, at) "
    "VALUES (:id, :user_id, :project_id, :session_id, :message_id, :role, :content, :at)"
)
_CLAIM_MESSAGE = "INSERT INTO applied_messages (user_id, message_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
_SELECT_MEMORY = f"SELECT {MEMORY_SELECT_COLUMNS} FROM memories"
_JOINED_COLUMNS = memory_select_columns(joined=True)  # a whole user's load joins its uses
_COUNT_USES = count_uses_sql("?")


def _vector_blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def sqlite_path_from_url(url: str) -> str:
    """``sqlite:///relative.db``, ``sqlite:////abs/path.db`` or a bare path -> a filesystem path."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
    elif url.startswith("sqlite://"):
        raise InvalidInputError(f"bad SQLite URL {url!r}: use sqlite:///path/to/file.db")
    else:
        path = url
    if not path:
        raise InvalidInputError("SQLite URL has no file path")
    return path


def to_text(value: datetime | None) -> str | None:
    """Datetimes are stored as fixed-width UTC ISO strings so that text order is time order."""
    return None if value is None else value.isoformat(timespec="microseconds")


def from_text(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


_UTC_TEXT = len("2026-01-31T00:00:00.000000+00:00")


def timestamps_from_text(values: Sequence[str | None]) -> np.ndarray | None:
    """Many stored times as POSIX seconds (inf for None) in one numpy parse, or None unless every
    one is in the fixed-width UTC form :func:`to_text` writes (then each is read as a datetime).
    Equal to ``from_text(v).timestamp()``: both count whole microseconds."""
    seconds = np.full(len(values), np.inf)
    present = [i for i, v in enumerate(values) if v is not None]
    texts = [values[i] for i in present]
    if not all(len(t) == _UTC_TEXT and t.endswith("+00:00") for t in texts):  # type: ignore[arg-type]
        return None
    if texts:
        local = np.array([t[:-6] for t in texts], dtype="datetime64[us]")  # type: ignore[index]
        seconds[present] = local.astype(np.int64) / 1e6
    return seconds


class SQLiteStore(SharedQueries, Store):
    _param = "?"
    _scan_key = "rowid"

    @property
    def _scans(self) -> dict[str, tuple[str, Any]]:  # type: ignore[override]
        return _SCANS

    def __init__(self, url: str, *, create_folder: bool = False) -> None:
        self.url = url
        path = sqlite_path_from_url(url)
        if path != ":memory:":
            folder = Path(path).expanduser().parent
            if create_folder:
                folder.mkdir(parents=True, exist_ok=True)
            elif not folder.is_dir():
                raise ConfigError(f"the folder of the SQLite file does not exist: {folder}; create it first")
            path = str(Path(path).expanduser())
        self.path = path
        self._lock = threading.RLock()
        self._checkpointer = WalCheckpointer(path) if path != ":memory:" else None
        try:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30.0)
            tables = self._tables()  # look before writing anything (WAL mode is a write)
            self._configure()
            self._migrate(tables)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                self._conn.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise CorruptStoreError(f"{path} is not a usable MemoPilot database ({exc})") from None
            raise

    # --- lifecycle -------------------------------------------------------------------------
    def _configure(self) -> None:
        c = self._conn
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = NORMAL")  # durable at checkpoints; WAL keeps it consistent
        c.execute("PRAGMA secure_delete = ON")
        c.execute("PRAGMA foreign_keys = ON")
        c.execute("PRAGMA busy_timeout = 30000")
        if self.path != ":memory:":
            c.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")  # see wal_checkpointer.py

    def _tables(self) -> set[str]:
        """The file's tables; refuses a SQLite database that is not a MemoPilot one, untouched."""
        tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:
            raise CorruptStoreError(
                f"{self.path} is a SQLite database but not a MemoPilot one "
                f"(tables: {', '.join(sorted(tables))})"
            )
        return tables

    def _migrate(self, tables: set[str]) -> None:
        version = 0
        if "meta" in tables:
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row and not str(row[0]).isdigit():
                raise CorruptStoreError(f"{self.path} has an unreadable schema version {str(row[0])[:40]!r}")
            version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"{self.path} has schema version {version}, newer than this MemoPilot knows "
                f"({SCHEMA_VERSION}); upgrade memopilot to open it"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self._transaction() as c:
                for statement in _split_sql(MIGRATIONS[target - 1]):
                    c.execute(statement)
                c.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (str(target),),
                )

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._lock:
            cursor = self._conn.cursor()
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
            except BaseException:
                cursor.execute("ROLLBACK")
                raise
            else:
                cursor.execute("COMMIT")
                if self._checkpointer is not None:
                    self._checkpointer.committed()

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as exc:
                raise _wrap(exc) from None

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as c:
            c.execute(
                _UPSERT_META,
                (key, value),
            )

    def _load_time(self, value: Any) -> Any:
        return from_text(value)

    # --- writes ----------------------------------------------------------------------------
    def commit(self, changes: ChangeSet) -> None:
        if not changes:
            return
        model = changes.meta.get("embedding_model") or self.get_meta("embedding_model")
        try:
            with self._transaction() as c:
                for user_id, message_id in changes.messages:
                    c.execute(_CLAIM_MESSAGE, (user_id, message_id))
                    if c.rowcount == 0:
                        raise MessageAlreadyAppliedError(
                            f"message {message_id!r} of user {user_id!r} was already applied"
                        )
                c.executemany(
                    _UPSERT_META,
                    list(changes.meta.items()),
                )
                bump_change_counters(c, changes, "?")  # first: rows are written with the new count
                if changes.uses:  # before the upserts: see ChangeSet.uses
                    c.executemany(_COUNT_USES, use_rows(changes.uses, to_text))
                if changes.memories:
                    fold_uses(c, changes.memories, "?")
                _ROWS.write(c, changes, model)
                if changes.scrub_events_of:
                    c.executemany(
                        "UPDATE events SET details = '{}', reason = '(erased by Forget)' WHERE memory_id = ?",
                        [(i,) for i in changes.scrub_events_of],
                    )
                if changes.events:
                    c.executemany(
                        _INSERT_EVENT,
                        [_event_row(e) for e in changes.events],
                    )
                for trace in changes.traces:
                    c.execute(
                        "INSERT INTO traces (id, user_id, project_id, created_at, payload, message_id) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            trace["id"],
                            trace["user_id"],
                            trace.get("project_id"),
                            trace["created_at"],
                            dump_json(trace),
                            trace.get("message_id"),
                        ),
                    )
                if changes.turns:
                    c.executemany(
                        _INSERT_TURN,
                        changes.turns,
                    )
                c.executemany(
                    "UPDATE events SET reason = ?, details = ? WHERE id = ?",
                    [(r, dump_json(d), i) for i, (r, d) in changes.event_texts.items()],
                )
                c.executemany(
                    "UPDATE turns SET content = ? WHERE id = ?",
                    [(t, i) for i, t in changes.turn_texts.items()],
                )
                c.executemany(
                    "UPDATE traces SET payload = ? WHERE id = ?",
                    [(dump_json(p), i) for i, p in changes.trace_payloads.items()],
                )
                c.executemany(  # instr, not LIKE: the text is matched as it is, wildcards and all
                    "UPDATE turns SET content = '' WHERE user_id = ? AND instr(content, ?) > 0",
                    changes.erase_quotes,
                )
                for user_id, message_id in changes.erase_messages:
                    c.execute(
                        "UPDATE turns SET content = '' WHERE user_id = ? AND message_id = ?",
                        (user_id, message_id),
                    )
                    c.execute(
                        "UPDATE traces SET payload = json_set(payload, '$.query', '') "
                        "WHERE user_id = ? AND message_id = ?",
                        (user_id, message_id),
                    )
        except sqlite3.DatabaseError as exc:
            raise _wrap(exc) from None

    def purge_residue(self) -> None:
        with self._lock:
            self._conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # --- reads -----------------------------------------------------------------------------
    def get(self, memory_id: str, *, user_id: str) -> Memory | None:
        rows = self._query(f"{_SELECT_MEMORY} WHERE id = ? AND user_id = ?", (memory_id, user_id))
        return _memory_from_row(rows[0]) if rows else None

    def get_many(self, memory_ids: Iterable[str], *, user_id: str) -> dict[str, Memory]:
        ids = list(dict.fromkeys(memory_ids))
        found: dict[str, Memory] = {}
        for chunk, marks in id_batches(ids, "?"):
            # "+user_id": the ids find the rows. Without the plus, SQLite's planner (no ANALYZE
            # statistics) took the user's index for two ids or more and read every row of the
            # user: 33 ms a write at 100,000 memories, 0.1 ms this way.
            sql = f"{_SELECT_MEMORY} WHERE id IN ({marks}) AND +user_id = ?"
            for row in self._query(sql, [*chunk, user_id]):
                memory = _memory_from_row(row)
                found[memory.id] = memory
        return found

    def citing(self, memory_ids: Iterable[str], *, user_id: str) -> list[Memory]:
        ids = list(dict.fromkeys(memory_ids))
        found: dict[str, Memory] = {}
        for chunk, marks in id_batches(ids, "?"):
            sql = (
                f"{_SELECT_MEMORY} WHERE user_id = ? AND source_ids != '[]' AND EXISTS "
                f"(SELECT 1 FROM json_each(memories.source_ids) WHERE json_each.value IN ({marks}))"
            )
            for row in self._query(sql, [user_id, *chunk]):
                memory = _memory_from_row(row)
                found[memory.id] = memory
        return list(found.values())

    def list_memories(self, query: MemoryQuery) -> tuple[list[Memory], int]:
        where, params = memory_filter(query)
        total = self._query(f"SELECT COUNT(*) FROM memories WHERE {where}", params)[0][0]
        sql = f"{_SELECT_MEMORY} WHERE {where} ORDER BY created_at DESC, rowid DESC"
        page: list[Any] = list(params)
        if query.limit is not None:
            sql += " LIMIT ? OFFSET ?"
            page += [query.limit, query.offset]
        return [_memory_from_row(r) for r in self._query(sql, page)], total

    def context_memories(self, user_id: str, batch_size: int = 5000) -> Iterator[ContextMemories]:
        where = "memories.user_id = ? AND memories.state IN ('active', 'pinned')"
        return self._memory_batches(where, (user_id,), batch_size)

    def changed_memories(self, user_id: str, since: Any) -> Iterator[ContextMemories]:
        where = "memories.user_id = ? AND memories.change_seq > ?"
        return self._memory_batches(where, (user_id, since), 5000)

    def _memory_batches(
        self, where: str, params: tuple[Any, ...], batch_size: int
    ) -> Iterator[ContextMemories]:
        columns = f"{_JOINED_COLUMNS}, memories.index_terms, memories.embedding"
        # In the order the user's rows last changed (rows of one commit in insertion order), which
        # is the order the index reaches by appending what this process writes, read straight
        # off the (user_id, change_seq) index: ordering by rowid sorted every row of the user,
        # vectors and all, in a temporary b-tree (1-4 ms of a 1,000-memory load).
        sql = (
            f"SELECT {columns} FROM memories INDEXED BY memories_changes {USES_JOIN} WHERE {where} "
            "ORDER BY memories.change_seq, memories.rowid"
        )
        with self._lock:  # one statement, read in batches: one snapshot, a batch in memory at a time
            try:
                cursor = self._conn.execute(sql, params)
                while rows := cursor.fetchmany(batch_size):
                    yield context_batch(rows, _CODEC, _decode_vectors)
            except sqlite3.DatabaseError as exc:
                raise _wrap(exc) from None

    def vectors_of(self, memory_ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        ids = list(memory_ids)
        for chunk, marks in id_batches(ids, "?"):
            for memory_id, blob in self._query(
                f"SELECT id, embedding FROM memories WHERE id IN ({marks}) AND embedding IS NOT NULL", chunk
            ):
                out[memory_id] = np.frombuffer(blob, dtype="<f4").copy()
        return out

    def keyword_search(
        self, user_id: str, project_id: str | None, terms: Sequence[str], limit: int
    ) -> list[tuple[str, float]]:
        if not terms:
            return []
        quoted = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        match = f'user_id : "{user_id.replace(chr(34), chr(34) * 2)}" AND {{content tags}} : ({quoted})'
        project_filter = "m.project_id IS NULL" + (" OR m.project_id = ?" if project_id is not None else "")
        params: list[Any] = [match, user_id] + ([project_id] if project_id is not None else []) + [limit]
        rows = self._query(
            "SELECT m.id, bm25(memories_fts) AS rank FROM memories_fts "
            "JOIN memories m ON m.rowid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.user_id = ? AND ({project_filter}) "
            "ORDER BY rank LIMIT ?",
            params,
        )
        return [(r[0], -float(r[1])) for r in rows]  # bm25() is lower-is-better

    def due_for_expiry(self, now: datetime, user_id: str | None = None) -> list[Memory]:
        sql = f"{_SELECT_MEMORY} WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= ?"
        params: list[Any] = [to_text(now)]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        return [_memory_from_row(r) for r in self._query(sql + " ORDER BY expires_at, id", params)]

    def due_for_archive(
        self, created_before: datetime, importance_below: float, user_id: str | None = None
    ) -> list[Memory]:
        sql = (
            f"{_SELECT_MEMORY} WHERE state = 'active' AND {NEVER_USED} AND created_at <= ? "
            "AND importance < ? AND type NOT IN ('critical', 'episode')"
        )
        params: list[Any] = [to_text(created_before), importance_below]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        return [_memory_from_row(r) for r in self._query(sql + " ORDER BY created_at, id", params)]

    def events(self, memory_id: str) -> list[TimelineEvent]:
        rows = self._query(f"{_SELECT_EVENT} WHERE memory_id = ? ORDER BY at, seq", (memory_id,))
        return [_event_from_row(r) for r in rows]

    def timeline(
        self,
        user_id: str,
        project_id: str | None = None,
        kinds: Sequence[str] | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[TimelineEvent]:
        sql = f"{_SELECT_EVENT} WHERE user_id = ?"
        params: list[Any] = [user_id]
        if project_id is not None:
            sql += " AND (project_id = ? OR project_id IS NULL)"
            params.append(project_id)
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        sql += " ORDER BY at DESC, seq DESC LIMIT ? OFFSET ?"
        params += [limit, offset]
        return [_event_from_row(r) for r in self._query(sql, params)]

    def recent_turns(self, user_id: str, session_id: str, limit: int) -> list[dict[str, Any]]:
        if limit <= 0:
            return []
        rows = self._query(
            "SELECT t.role, t.content, t.message_id, t.at, tr.id FROM turns t LEFT JOIN traces tr "
            "ON tr.user_id = t.user_id AND tr.message_id = t.message_id "
            "WHERE t.user_id = ? AND t.session_id = ? ORDER BY t.seq DESC LIMIT ?",
            (user_id, session_id, limit),
        )
        return [
            {"role": role, "content": content, "message_id": message_id, "at": at, "trace_id": trace_id}
            for role, content, message_id, at, trace_id in reversed(rows)
        ]

    def get_trace(self, trace_id: str) -> dict[str, Any] | None:
        rows = self._query("SELECT payload FROM traces WHERE id = ?", (trace_id,))
        return json.loads(rows[0][0]) if rows else None

    def list_traces(self, user_id: str, limit: int = 20) -> list[dict[str, Any]]:
        rows = self._query(
            "SELECT payload FROM traces WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
            (user_id, limit),
        )
        return [json.loads(r[0]) for r in rows]


# --- row mapping -----------------------------------------------------------------------------
_SELECT_EVENT = f"SELECT {', '.join(EVENT_COLUMNS)} FROM events"
_CODEC = RowCodec(
    dump_time=to_text, load_time=from_text, load_json=json.loads, load_timestamps=timestamps_from_text
)
_memory_row = _CODEC.memory_row
# A memory row is written once per commit, its change_seq and vector with it (change_counters.py).
_ROWS = MemoryRowWriter.of("?", "(id)", ("id",), "?", _memory_row, _vector_blob)
_memory_from_row = _CODEC.memory_from_row
_event_row = _CODEC.event_row
_event_from_row = _CODEC.event_from_row
_SCANS: dict[str, tuple[str, Any]] = {  # kind -> (SELECT rowid, ... FROM table, row -> record)
    "memories": (
        f"SELECT rowid, {MEMORY_SELECT_COLUMNS}, embedding FROM memories",
        lambda r: (_memory_from_row(r[:-1]), None if r[-1] is None else np.frombuffer(r[-1], dtype="<f4")),
    ),
    "events": (f"SELECT rowid, {', '.join(EVENT_COLUMNS)} FROM events", _event_from_row),
    "traces": ("SELECT rowid, payload FROM traces", lambda r: json.loads(r[0])),
    "turns": (
        f"SELECT rowid, {', '.join(TURN_COLUMNS)} FROM turns",
        lambda r: dict(zip(TURN_COLUMNS, r, strict=True)),
    ),
    "messages": ("SELECT rowid, user_id, message_id FROM applied_messages", tuple),
}


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (trigger bodies contain ';', so use sqlite3's own test)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements


def _wrap(exc: sqlite3.DatabaseError) -> StoreError:
    message = str(exc)
    if "malformed" in message or "not a database" in message:
        return CorruptStoreError(f"the database file is damaged: {message}")
    return StoreError(f"database error: {message}")


def _decode_vectors(blobs: Sequence[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1)
