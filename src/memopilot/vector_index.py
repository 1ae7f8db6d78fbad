"""Per-user in-memory vectors of context-state memories, loaded once and kept in sync.

The store is the source of truth; this cache exists so that the read path does not
decode every vector from disk for every question. The engine tells it about each
commit it makes; commits by *other* processes are noticed through the store's change
token and drop the cache, which reloads lazily.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .domain import Memory, MemoryState, MemoryType
from .store import Store

__all__ = ["VectorIndex"]


@dataclass(slots=True)
class _UserRows:
    dim: int
    ids: list[str] = field(default_factory=list)
    projects: list[str | None] = field(default_factory=list)
    priority: set[str] = field(default_factory=set)  # critical or pinned: always candidates
    matrix: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    row_of: dict[str, int] = field(default_factory=dict)
    # Project of each row as a small integer (-1: user-wide), so scoping a search is one numpy
    # comparison instead of a Python loop over every row.
    codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    code_of: dict[str, int] = field(default_factory=dict)

    def code(self, project_id: str | None) -> int:
        if project_id is None:
            return -1
        return self.code_of.setdefault(project_id, len(self.code_of))

    def set_project(self, row: int, project_id: str | None) -> None:
        self.projects[row] = project_id
        self.codes[row] = self.code(project_id)

    def upsert(self, memory_id: str, project_id: str | None, vector: np.ndarray) -> None:
        row = self.row_of.get(memory_id)
        if row is None:
            row = len(self.ids)
            if row >= self.matrix.shape[0]:  # grow by doubling: amortised O(1) appends
                grown = np.zeros((max(16, 2 * self.matrix.shape[0]), self.dim), dtype=np.float32)
                grown[: self.matrix.shape[0]] = self.matrix
                self.matrix = grown
            if row >= self.codes.shape[0]:
                self.codes = np.concatenate([self.codes, np.zeros(max(16, self.codes.shape[0]), np.int32)])
            self.ids.append(memory_id)
            self.projects.append(project_id)
            self.row_of[memory_id] = row
        self.set_project(row, project_id)
        self.matrix[row] = vector

    def remove(self, memory_id: str) -> None:
        row = self.row_of.pop(memory_id, None)
        self.priority.discard(memory_id)
        if row is None:
            return
        last = len(self.ids) - 1
        if row != last:  # move the last row into the hole
            moved = self.ids[last]
            self.ids[row], self.projects[row] = moved, self.projects[last]
            self.matrix[row] = self.matrix[last]
            self.codes[row] = self.codes[last]
            self.row_of[moved] = row
        self.ids.pop()
        self.projects.pop()


class VectorIndex:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._users: dict[str, _UserRows] = {}
        self._lock = threading.RLock()
        self._token: Any = store.change_token()

    def _rows(self, user_id: str) -> _UserRows:
        token = self._store.change_token()
        if token != self._token:  # another process committed: reload lazily
            self._users.clear()
            self._token = token
        rows = self._users.get(user_id)
        if rows is None:
            rows = self._load(user_id)
            self._users[user_id] = rows
        return rows

    def _load(self, user_id: str) -> _UserRows:
        loaded = self._store.load_vectors(user_id)
        n = len(loaded.ids)
        rows = _UserRows(dim=loaded.matrix.shape[1] if n else 0)
        rows.ids, rows.projects = list(loaded.ids), list(loaded.project_ids)
        rows.codes = np.fromiter((rows.code(p) for p in rows.projects), dtype=np.int32, count=n)
        rows.matrix = loaded.matrix
        rows.row_of = {memory_id: i for i, memory_id in enumerate(loaded.ids)}
        rows.priority = set(loaded.priority_ids)
        return rows

    def search(
        self, user_id: str, project_id: str | None, query: np.ndarray, limit: int
    ) -> tuple[list[tuple[str, float]], set[str], dict[str, float]]:
        """Top ``limit`` (id, cosine) in scope, the in-scope priority ids, and a lookup for others.

        Scope: memories of ``project_id`` plus user-wide ones (project None).
        """
        with self._lock:
            rows = self._rows(user_id)
            n = len(rows.ids)
            if n == 0:
                return [], set(), {}
            sims = rows.matrix[:n] @ query
            codes = rows.codes[:n]
            wanted = rows.code_of.get(project_id, -2) if project_id is not None else -2
            in_scope = (codes == -1) | (codes == wanted)
            scoped = np.where(in_scope, sims, -np.inf)
            k = min(limit, int(in_scope.sum()))
            if k <= 0:
                return [], set(), {}
            top = np.argpartition(-scoped, k - 1)[:k]
            top = top[np.argsort(-scoped[top], kind="stable")]
            hits = [(rows.ids[i], float(sims[i])) for i in top]
            in_scope_priority = [m for m in rows.priority if in_scope[rows.row_of[m]]]
            # Critical and pinned memories are always candidates, but a user with thousands of them
            # could never fit them all in one context: beyond `limit`, the most similar ones go on.
            if len(in_scope_priority) > limit:
                in_scope_priority.sort(key=lambda m: (-sims[rows.row_of[m]], m))
                in_scope_priority = in_scope_priority[:limit]
            extra = {m: float(sims[rows.row_of[m]]) for m in in_scope_priority}
            return hits, set(in_scope_priority), extra

    def similarity(self, user_id: str, memory_ids: Iterable[str], query: np.ndarray) -> dict[str, float]:
        with self._lock:
            rows = self._rows(user_id)
            found = [(m, rows.row_of[m]) for m in memory_ids if m in rows.row_of]
            return {m: float(rows.matrix[r] @ query) for m, r in found}

    def apply(self, memories: Iterable[Memory], vectors: dict[str, np.ndarray | None]) -> None:
        """Bring cached users in step with memories this process just committed."""
        with self._lock:
            self._token = self._store.change_token()
            missing: list[Memory] = []
            for memory in memories:
                rows = self._users.get(memory.user_id)
                if rows is None:
                    continue  # not loaded yet: it will load from the store
                if not memory.in_context_state:
                    rows.remove(memory.id)
                    continue
                vector = vectors.get(memory.id)
                if vector is None and memory.id not in rows.row_of:
                    missing.append(memory)
                    continue
                self._place(rows, memory, vector)
            if missing:
                stored = self._store.vectors_of([m.id for m in missing])
                for memory in missing:
                    if memory.id in stored:
                        self._place(self._users[memory.user_id], memory, stored[memory.id])

    @staticmethod
    def _place(rows: _UserRows, memory: Memory, vector: np.ndarray | None) -> None:
        if vector is not None:
            if rows.dim == 0:
                rows.dim = int(vector.shape[0])
                rows.matrix = np.zeros((0, rows.dim), dtype=np.float32)
            rows.upsert(memory.id, memory.project_id, vector)
        else:
            rows.set_project(rows.row_of[memory.id], memory.project_id)
        if memory.type is MemoryType.CRITICAL or memory.state is MemoryState.PINNED:
            rows.priority.add(memory.id)
        else:
            rows.priority.discard(memory.id)

    def clear(self) -> None:
        with self._lock:
            self._users.clear()
            self._token = self._store.change_token()
