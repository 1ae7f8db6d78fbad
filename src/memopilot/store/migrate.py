"""Copy a whole store into another one (``memopilot migrate --from URL --to URL``).

Everything is copied through the :class:`~memopilot.store.base.Store` port, so any backend can
be the source or the target: the metadata (embedding model and dimension, API keys, ...), then
memories with their vectors, events, traces, chat turns and the applied message ids, each in
insertion order so that every ordering tie stays as it was. The target must be empty. At the
end the row counts, the vectors per model and the metadata of both sides are compared.

Stop the writers of the source first: a write during the copy makes the comparison fail. If the
copy fails, empty the target (drop the database or file) and run it again.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConflictError, StoreError
from . import open_store
from .base import ChangeSet, Store

__all__ = ["migrate_store"]


def migrate_store(source_url: str, target_url: str, *, batch_size: int = 500) -> dict[str, int]:
    """Copy everything from ``source_url`` into the empty ``target_url``; the verified row counts."""
    source = open_store(source_url)
    try:
        target = open_store(target_url)
        try:
            return copy_store(source, target, batch_size=batch_size)
        finally:
            target.close()
    finally:
        source.close()


def copy_store(source: Store, target: Store, *, batch_size: int = 500) -> dict[str, int]:
    if any(target.counts().values()):
        raise ConflictError("the target database already holds MemoPilot data; migrate into an empty one")
    meta = source.meta_items()
    target.commit(ChangeSet(meta=meta))  # first: vectors are labelled with its model
    # vectors still waiting for the background worker stay pending in the copy
    model = meta.get("embedding_model")
    pending = {row[0] for row in source.pending_vectors(model, 2**62)} if model else set()
    for batch in source.scan("memories", batch_size):
        vectors = {memory.id: vector for memory, vector in batch if vector is not None}
        target.commit(
            ChangeSet(
                memories=[memory for memory, _ in batch],
                vectors=vectors,
                pending_vectors=pending & vectors.keys(),
            )
        )
    for kind in ("events", "traces", "turns", "messages"):  # each a ChangeSet field of the same name
        for batch in source.scan(kind, batch_size):
            target.commit(ChangeSet(**{kind: batch}))
    _verify(source, target)
    return target.counts()


def _verify(source: Store, target: Store) -> None:
    pairs: list[tuple[str, Any, Any]] = [
        ("row counts", source.counts(), target.counts()),
        ("vectors per model", source.count_vectors_by_model(), target.count_vectors_by_model()),
        ("metadata", source.meta_items(), target.meta_items()),
    ]
    for what, expected, found in pairs:
        if expected != found:
            raise StoreError(f"the copy is incomplete: {what} differ (source {expected}, target {found})")
