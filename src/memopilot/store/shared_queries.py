"""Queries whose SQL is the same on SQLite and PostgreSQL but for the parameter marker.

Both stores mix this in and say how they spell a parameter (``?`` or ``%s``), which column
orders a whole-table scan (SQLite's ``rowid``, PostgreSQL's ``seq``), and how each record
kind is selected and converted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .base import RECORD_KINDS
from .change_counters import change_counter_sql, pending_name
from .rows import KIND_TABLES
from .use_counts import NEVER_USED

__all__ = ["SharedQueries"]


class SharedQueries:
    _param: str
    _scan_key: str

    @property
    def _scans(self) -> dict[str, tuple[str, Callable[[Sequence[Any]], Any]]]:
        """kind -> (SELECT <scan key>, ... FROM its table, row -> record)."""
        raise NotImplementedError

    def _query(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:  # provided by the store
        raise NotImplementedError

    def _load_time(self, value: Any) -> Any:  # provided by the store: a stored time as a datetime
        raise NotImplementedError

    def forgetting_horizon(self, user_id: str, importance_below: float) -> tuple[Any, Any]:
        """The earliest ``expires_at`` among the user's active memories, and the earliest
        ``created_at`` among those the archive rule could take once old enough (None: none)."""
        p = self._param
        row = self._query(
            f"SELECT (SELECT MIN(expires_at) FROM memories WHERE user_id = {p} AND state = 'active' "
            "AND expires_at IS NOT NULL), "
            f"(SELECT MIN(created_at) FROM memories WHERE user_id = {p} AND state = 'active' "
            f"AND {NEVER_USED} AND importance < {p} AND type NOT IN ('critical', 'episode'))",
            (user_id, user_id, importance_below),
        )[0]
        return tuple(None if v is None else self._load_time(v) for v in row)  # type: ignore[return-value]

    def change_token(self, user_id: str) -> Any:
        rows = self._query(change_counter_sql(self._param), (user_id,))
        return rows[0][0] if rows else 0

    def user_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT DISTINCT user_id FROM memories ORDER BY user_id")]

    def project_ids(self, user_id: str) -> list[str]:
        rows = self._query(
            f"SELECT DISTINCT project_id FROM memories WHERE user_id = {self._param} "
            "AND project_id IS NOT NULL ORDER BY project_id",
            (user_id,),
        )
        return [r[0] for r in rows]

    def pending_vectors(self, model: str, limit: int) -> list[tuple[str, str, str]]:
        """Up to ``limit`` memories whose stored vector of ``model`` holds only its fast part
        (Embedder.completes_later), as (id, user_id, content), in the pending index's order."""
        p = self._param
        percent = "%%" if p == "%s" else "%"  # psycopg reads a lone % as a placeholder
        rows = self._query(
            "SELECT id, user_id, content FROM memories "
            # the partial index's own predicate, spelled alike, so the planner takes that index
            f"WHERE embedding_model LIKE '{percent}|pending' AND embedding_model = {p} "
            f"LIMIT {p}",
            (pending_name(model), limit),
        )
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    def count_vectors_by_model(self) -> dict[str, int]:
        rows = self._query(
            "SELECT embedding_model, COUNT(*) FROM memories "
            "WHERE embedding IS NOT NULL GROUP BY embedding_model"
        )
        return {str(r[0]): int(r[1]) for r in rows}

    # --- whole-store copy ----------------------------------------------------------------------
    def meta_items(self) -> dict[str, str]:
        # the schema version and SQLite's change counter belong to the store, not to its content
        rows = self._query(
            "SELECT key, value FROM meta WHERE key NOT IN ('schema_version', 'memory_changes') ORDER BY key"
        )
        return dict(rows)

    def counts(self) -> dict[str, int]:
        found = {k: self._query(f"SELECT COUNT(*) FROM {KIND_TABLES[k]}")[0][0] for k in RECORD_KINDS}
        found["vectors"] = self._query("SELECT COUNT(*) FROM memories WHERE embedding IS NOT NULL")[0][0]
        return found

    def memory_texts(self, batch_size: int = 2000) -> Iterator[list[tuple[str, str]]]:
        """``(id, content)`` of every memory not deleted, in batches: only what re-embedding
        reads, so a row another column of which is unreadable does not stop it."""
        select = f"SELECT {self._scan_key}, id, content FROM memories WHERE state != 'deleted'"
        for rows in self._keyset_batches(select, batch_size):
            yield [(r[1], r[2]) for r in rows if r[2]]

    def scan(self, kind: str, batch_size: int = 500) -> Iterator[list[Any]]:
        select, convert = self._scans[kind]
        for rows in self._keyset_batches(f"{select} WHERE TRUE", batch_size):
            yield [convert(r[1:]) for r in rows]

    def _keyset_batches(self, select: str, batch_size: int) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of ``select`` (its first column the scan key, its WHERE clause open to one
        more condition) in scan-key order, a batch at a time."""
        key, p = self._scan_key, self._param
        last = 0
        while rows := self._query(f"{select} AND {key} > {p} ORDER BY {key} LIMIT {p}", (last, batch_size)):
            last = rows[-1][0]
            yield rows
