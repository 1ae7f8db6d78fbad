"""Uses of memories, counted in memory at once and written to the store in batches.

Every read gives a few dozen memories to a caller, and each gains a use (SPEC section 2's usage
component). Writing those counts in every read's transaction rewrote a few dozen rows per read:
most of a read's disk writes on SQLite, and on PostgreSQL, where an updated row is a new row
version, the largest single cost of a read. Instead the engine counts uses here (and in its
in-memory index, so the next read's scores see them at once) and adds them to the store:
- with the next commit that upserts memories (which must not race a pending count),
- once ``max_reads`` reads or ``max_seconds`` have gathered uses, in that read's transaction;
  a read that has just loaded its user's index (a cold read, already the slowest kind) leaves the
  batch to a later read unless twice that much has gathered, so a batch's 15-30 ms is not stacked
  on a load's 20-30 ms,
- when the engine closes, and before anything reads use counts from the store.
A crash loses at most that much counting; nothing else waits for it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from datetime import datetime

from ..store import Uses

__all__ = ["UsageBuffer"]


class UsageBuffer:
    def __init__(self, *, max_reads: int, max_seconds: float) -> None:
        self._max_reads = max_reads
        self._max_seconds = max_seconds
        self._pending: dict[str, Uses] = {}
        self._reads = 0
        self._since: float | None = None
        self._lock = threading.Lock()

    def add(self, memory_ids: Iterable[str], at: datetime) -> None:
        """One read's uses: one each."""
        with self._lock:
            for memory_id in memory_ids:
                found = self._pending.get(memory_id)
                self._pending[memory_id] = Uses(1, at) if found is None else found.plus(Uses(1, at))
            self._reads += 1
            if self._since is None:
                self._since = time.monotonic()

    def due(self, *, after_load: bool = False) -> bool:
        """Whether the pending uses should go with this commit (``after_load``: this read loaded
        its user, so they wait up to twice as long for a cheaper read)."""
        stretch = 2 if after_load else 1
        with self._lock:
            if not self._pending:
                return False
            waited = time.monotonic() - (self._since or 0.0)
            return self._reads >= stretch * self._max_reads or waited >= stretch * self._max_seconds

    def take(self) -> dict[str, Uses]:
        """Everything pending, to write now (give it back with :meth:`put_back` if that fails)."""
        with self._lock:
            taken, self._pending = self._pending, {}
            self._reads, self._since = 0, None
            return taken

    def put_back(self, uses: dict[str, Uses]) -> None:
        with self._lock:
            for memory_id, use in uses.items():
                found = self._pending.get(memory_id)
                self._pending[memory_id] = use if found is None else found.plus(use)
            if self._since is None and self._pending:
                self._since = time.monotonic()

    def pending(self) -> dict[str, Uses]:
        """A copy of the uses not yet in the store."""
        with self._lock:
            return dict(self._pending)

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._pending)
