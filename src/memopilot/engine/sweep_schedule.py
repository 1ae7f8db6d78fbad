"""When each user's forgetting sweep can next find something, so that reads skip it until then.

Every read used to run the sweep (SPEC section 6): two indexed queries that almost always find
nothing, and on PostgreSQL the largest part of a read after the context itself. Instead the
engine asks the store once when the user's next expiry or archive could happen and skips the
sweep until that moment. The schedule stays safe (never later than the truth):
- memories this process writes can only bring the moment forward, and :meth:`noted` does;
- uses and other changes can only push it back, which at worst runs a sweep that finds nothing;
- a commit by another process (the user's change counter, store/change_counters.py) forgets that
  user's schedule.

A read that loads a user (engine/facade.py loads before it sweeps) hands the schedule the
moment from the loaded rows (:meth:`loaded`), so a cold read asks the store nothing more.

Bounded like the index cache: a user the index drops is forgotten here too (:meth:`forget`), and
at most ``max_users`` schedules are kept (the least recently asked about go first; forgetting
one only costs that user a sweep that finds nothing).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from ..domain import Memory
from ..settings import Settings
from ..store import Store
from ..store.change_counters import after_own_commit
from . import forgetting

__all__ = ["SweepSchedule"]

_UNKNOWN = object()


# About 300 bytes a schedule (a user id, a moment, a token): 10,000 of them hold ~3 MB.
DEFAULT_MAX_USERS = 10_000


class SweepSchedule:
    def __init__(self, store: Store, max_users: int = DEFAULT_MAX_USERS) -> None:
        self._store = store
        self._max_users = max_users
        # user -> next due moment (None: never), least recently asked about first
        self._next: OrderedDict[str, datetime | None] = OrderedDict()
        self._tokens: dict[str, Any] = {}  # user -> the change token the moment was found at
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tokens)

    def is_due(self, user_id: str, now: datetime, settings: Settings, token: Any = None) -> bool:
        """Whether a sweep of this user can find something now. A user without a known moment
        (its first read in this process, or another process wrote) costs one query for it, where
        a sweep would write the pending uses and run three (about 9 ms of a cold read on
        PostgreSQL). Uses not yet written can only push the moment later, so at worst a sweep
        runs and finds nothing."""
        with self._lock:
            if token is None:  # (a read passes the token it read once for the index and for this)
                token = self._store.change_token(user_id)
            if token != self._tokens.get(user_id):
                self._next.pop(user_id, None)
                self._tokens[user_id] = token
                self._bound()
            elif user_id in self._next:
                self._next.move_to_end(user_id)
            when = self._next.get(user_id, _UNKNOWN)
        if when is _UNKNOWN:
            when = self.swept(user_id, settings)
        return when is not None and when <= now  # type: ignore[operator]

    def forget(self, user_id: str) -> None:
        with self._lock:
            self._next.pop(user_id, None)
            self._tokens.pop(user_id, None)

    def _bound(self) -> None:
        while len(self._tokens) > self._max_users:
            oldest = next(iter(self._next), None) or next(iter(self._tokens))
            self._next.pop(oldest, None)
            self._tokens.pop(oldest, None)

    def swept(self, user_id: str, settings: Settings) -> datetime | None:
        """Ask the store when this user's next sweep could find something (after a sweep, or
        when the moment is unknown); returns it (None: never)."""
        expiry, archivable = self._store.forgetting_horizon(user_id, settings.archive_importance_below)
        when = forgetting.next_due(expiry, archivable, settings)
        with self._lock:
            self._tokens[user_id] = self._store.change_token(user_id)
            self._next[user_id] = when
            self._next.move_to_end(user_id)
            self._bound()
        return when

    def loaded(
        self, user_id: str, token: Any, horizon: tuple[datetime | None, datetime | None], settings: Settings
    ) -> None:
        """The index just read this user whole at change ``token``: their ``horizon`` (as the
        store's ``forgetting_horizon`` gives it, here from the loaded rows) saves the query a
        first read would otherwise make."""
        when = forgetting.next_due(*horizon, settings)
        with self._lock:
            self._tokens[user_id] = token
            self._next[user_id] = when
            self._next.move_to_end(user_id)
            self._bound()

    def noted(self, memories: Iterable[Memory], settings: Settings) -> None:
        """Memories this process just committed: a new expiry or archive moment may come sooner."""
        memories = list(memories)
        with self._lock:
            for user_id in {m.user_id for m in memories} & self._next.keys():
                now = self._store.change_token(user_id)
                if after_own_commit(self._tokens.get(user_id), now) != now:
                    # another process wrote too: its memories may be due sooner than we know
                    self._next.pop(user_id, None)
                    self._tokens.pop(user_id, None)
                    continue
                self._tokens[user_id] = now
            for memory in memories:
                if memory.user_id not in self._next:
                    continue
                when = forgetting.due_at(memory, settings)
                current = self._next[memory.user_id]
                if when is not None and (current is None or when < current):
                    self._next[memory.user_id] = when

    def clear(self) -> None:
        with self._lock:
            self._next.clear()
            self._tokens.clear()
