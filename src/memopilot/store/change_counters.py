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

__all__ = ["after_own_commit", "bump_change_counters", "change_counter_sql", "stamp_changed_rows"]


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


def after_own_commit(held: Any, now: Any) -> Any:
    """The token a process may hold for a user after committing one change of its own: ``now``
    when that commit is the only one since ``held`` (it moved the counter by exactly one), else
    ``held``, so that the next read still sees, and applies, what another process committed in
    between. (Taking ``now`` in that case would skip the other process's change for good.)"""
    if isinstance(held, int) and isinstance(now, int) and now == held + 1:
        return now
    return held


def stamp_changed_rows(cursor: Any, changes: ChangeSet, mark: str) -> None:
    """Mark every memory row ``changes`` wrote (or whose vector it wrote) with its user's counter
    after this commit's bump: rows with ``change_seq`` above a counter a process holds are exactly
    what changed since (``Store.changed_memories``). Runs after the rows and the bump, in the same
    transaction."""
    ids = sorted({m.id for m in changes.memories} | changes.vectors.keys())
    for chunk, marks in id_batches(ids, mark):
        cursor.execute(
            "UPDATE memories SET change_seq = (SELECT counter FROM memory_changes "
            f"WHERE memory_changes.user_id = memories.user_id) WHERE id IN ({marks})",
            chunk,
        )


def _owners(cursor: Any, memory_ids: Iterable[str], mark: str) -> set[str]:
    owners: set[str] = set()
    for chunk, marks in id_batches(sorted(memory_ids), mark):
        sql = f"SELECT DISTINCT user_id FROM memories WHERE id IN ({marks})"
        owners.update(r[0] for r in cursor.execute(sql, chunk).fetchall())
    return owners
