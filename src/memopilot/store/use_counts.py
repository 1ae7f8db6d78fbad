"""Use counts in a narrow table of their own, added to the memory rows wherever memories are read.

Every read counts a use of each memory it gives to a caller (``usage_buffer.py`` writes them in
batches). Written into the memory rows, a batch of about 1,000 uses rewrote about 1,000 whole
rows, each with its vector: 15-24 ms on SQLite and 50-135 ms on PostgreSQL (where a row version
that does not fit its page writes an entry in every index of the table), paid by one read in 32.
Here a batch upserts rows of ``memory_uses`` (user, memory, count, last use) instead, a few dozen
bytes each. The memory row keeps the count it had when it was last written:

- every SELECT of memories adds the two (:data:`MEMORY_SELECT_COLUMNS`, :data:`NEVER_USED`);
- a commit that rewrites a memory first moves its ``memory_uses`` row into the memory row
  (:func:`fold_uses`), so the upsert's rule that a count never goes down stays right, and a
  memory never counts a use twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from ..domain import Memory
from .base import Uses
from .rows import MEMORY_COLUMNS, id_batches

__all__ = [
    "MEMORY_SELECT_COLUMNS",
    "NEVER_USED",
    "USES_JOIN",
    "USE_UPSERT_ASSIGNMENTS",
    "count_uses_sql",
    "fold_uses",
    "memory_select_columns",
    "use_rows",
]

_USES_OF_ROW = "FROM memory_uses u WHERE u.user_id = memories.user_id AND u.memory_id = memories.id"
_LATER_USE = (
    "CASE WHEN memories.last_used_at IS NULL OR u.last_use_at > memories.last_used_at "
    "THEN u.last_use_at ELSE memories.last_used_at END"
)
_TOTALS = {
    "usage_count": f"memories.usage_count + COALESCE((SELECT u.use_count {_USES_OF_ROW}), 0)",
    "last_used_at": f"COALESCE((SELECT {_LATER_USE} {_USES_OF_ROW}), memories.last_used_at)",
}
# The same totals over ``memories`` joined with its uses (USES_JOIN): a load of a whole user reads
# its uses in one scan and a hash join instead of two lookups per row (on PostgreSQL a cold
# 1,000-memory load took 8-10 instead of 12-14 ms with uses on 40% of the rows; measured in a
# harness on 2026-12-04).
_JOINED_TOTALS = {
    "usage_count": "memories.usage_count + COALESCE(u.use_count, 0)",
    "last_used_at": f"CASE WHEN u.last_use_at IS NULL THEN memories.last_used_at ELSE {_LATER_USE} END",
}
USES_JOIN = "LEFT JOIN memory_uses u ON u.user_id = memories.user_id AND u.memory_id = memories.id"


# The memory columns in MEMORY_COLUMNS order, with the uses of memory_uses added in.
def memory_select_columns(as_text: frozenset[str] = frozenset(), *, joined: bool = False) -> str:
    """The memory columns, uses added in; those named in ``as_text`` cast to text (PostgreSQL's
    JSON columns, for rows made only of strings and numbers). ``joined``: for a query that joins
    the uses (``FROM memories`` + :data:`USES_JOIN`)."""
    totals = _JOINED_TOTALS if joined else _TOTALS
    return ", ".join(
        totals.get(c, f"memories.{c}::text" if c in as_text else f"memories.{c}") for c in MEMORY_COLUMNS
    )


MEMORY_SELECT_COLUMNS = memory_select_columns()
# "usage_count = 0" of the totals (a memory_uses row always holds at least one use).
NEVER_USED = f"memories.usage_count = 0 AND NOT EXISTS (SELECT 1 {_USES_OF_ROW})"


# How a batch adds to a memory's existing memory_uses row.
USE_UPSERT_ASSIGNMENTS = (
    "use_count = memory_uses.use_count + excluded.use_count, "
    "last_use_at = CASE WHEN excluded.last_use_at > memory_uses.last_use_at "
    "THEN excluded.last_use_at ELSE memory_uses.last_use_at END"
)


def count_uses_sql(mark: str) -> str:
    """Add uses to a memory's ``memory_uses`` row (made if missing; a memory that is gone gets
    none). The last-use time never goes back: another process may be ahead."""
    return (
        "INSERT INTO memory_uses (user_id, memory_id, use_count, last_use_at) "
        f"SELECT user_id, id, {mark}, {mark} FROM memories WHERE id = {mark} "
        f"ON CONFLICT (user_id, memory_id) DO UPDATE SET {USE_UPSERT_ASSIGNMENTS}"
    )


def use_rows(uses: dict[str, Uses], dump_time: Callable[[datetime], Any]) -> list[tuple[Any, ...]]:
    """Parameters of :func:`count_uses_sql`, in id order (concurrent batches lock rows alike)."""
    return [(use.count, dump_time(use.last_at), memory_id) for memory_id, use in sorted(uses.items())]


def fold_uses(cursor: Any, memories: Iterable[Memory], mark: str) -> None:
    """Move the ``memory_uses`` rows of ``memories`` into their memory rows (before rewriting them).

    The row is deleted first and its count taken from the delete: on PostgreSQL a batch of uses
    committing meanwhile is waited for and included, never lost.
    """
    ids_of: dict[str, list[str]] = defaultdict(list)
    for memory in memories:
        ids_of[memory.user_id].append(memory.id)
    add = (
        f"UPDATE memories SET usage_count = usage_count + {mark}, last_used_at = CASE "
        f"WHEN last_used_at IS NULL OR last_used_at < {mark} THEN {mark} ELSE last_used_at END "
        f"WHERE user_id = {mark} AND id = {mark}"
    )
    for user_id, ids in ids_of.items():
        for chunk, marks in id_batches(sorted(set(ids)), mark):
            moved = cursor.execute(
                f"DELETE FROM memory_uses WHERE user_id = {mark} AND memory_id IN ({marks}) "
                "RETURNING memory_id, use_count, last_use_at",
                (user_id, *chunk),
            ).fetchall()
            if moved:
                rows = [(count, last, last, user_id, memory_id) for memory_id, count, last in moved]
                cursor.executemany(add, rows)
