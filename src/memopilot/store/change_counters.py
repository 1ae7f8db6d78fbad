"""Per-user change counters: how each process notices that another one changed a user's memories.

Every process keeps an in-memory index of the users it serves (``memory_index.py``) and a sweep
schedule per user (``sweep_schedule.py``). A commit that writes memories or vectors adds one to
the counter of each user it touches, in the same transaction, so a reader that sees the new count
also sees the commit. A process reloads a user when that user's count moved. The counter used to
be one for the whole store: then any user's write, in any process, made every other process drop
and reload every user it held (about 40 ms for 1,000 memories, 3.7 s for 100,000).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import ChangeSet
from .rows import id_batches

__all__ = ["bump_change_counters", "change_counter_sql"]


def change_counter_sql(mark: str) -> str:
    return f"SELECT counter FROM memory_changes WHERE user_id = {mark}"


def bump_change_counters(cursor: Any, changes: ChangeSet, mark: str) -> None:
    """Add one to the counter of every user whose memories or vectors ``changes`` writes (in id
    order, so that concurrent writers lock the counters alike)."""
    users = {m.user_id for m in changes.memories}
    users |= _owners(cursor, changes.vectors.keys() - {m.id for m in changes.memories}, mark)
    if users:
        cursor.executemany(
            f"INSERT INTO memory_changes (user_id, counter) VALUES ({mark}, 1) "
            "ON CONFLICT (user_id) DO UPDATE SET counter = memory_changes.counter + 1",
            [(user_id,) for user_id in sorted(users)],
        )


def _owners(cursor: Any, memory_ids: Iterable[str], mark: str) -> set[str]:
    owners: set[str] = set()
    for chunk, marks in id_batches(sorted(memory_ids), mark):
        sql = f"SELECT DISTINCT user_id FROM memories WHERE id IN ({marks})"
        owners.update(r[0] for r in cursor.execute(sql, chunk).fetchall())
    return owners
