"""Several processes writing to the same user at once, on every backend (real processes, spawned).

- No write is lost: every memory, event and use of a memory that a worker made is stored, even
  while other workers rewrite the same memory from copies they read earlier.
- One message (user_id, message_id) delivered to several workers at the same moment is applied
  once: its memories exist once, whichever worker won.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from memopilot import EventKind, MemoPilot, MemoryState

from . import workers

WORKERS = 3


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(WORKERS, mp_context=context, initializer=workers.start_worker) as executor:
        for future in [executor.submit(time.sleep, 0.2) for _ in range(WORKERS)]:
            future.result()  # three at once: every worker is up before the first race
        yield executor


def test_parallel_writers_lose_no_write(pool: ProcessPoolExecutor, db_url: str, embedder) -> None:
    count = 12
    with MemoPilot.open(db_url, embedder=embedder, llm=None) as mp:
        shared = mp.add("Never force-push to main", type="critical")
        mp.pin(shared.id)
    start_at = time.time() + 0.5
    futures = [pool.submit(workers.write_many, db_url, w, count, shared.id, start_at) for w in range(WORKERS)]
    added = [memory_id for f in futures for memory_id in f.result(timeout=120)]

    with MemoPilot.open(db_url, embedder=embedder, llm=None) as mp:
        stored = {m.id for m in mp.list(limit=1000).items}
        assert set(added) <= stored and len(added) == len(set(added)) == WORKERS * count
        assert len(stored) == WORKERS * count + 1
        for memory_id in added:
            assert [e.kind for e in mp.history(memory_id)] == [EventKind.CREATED]
        shared_now = mp.get(shared.id)
        assert shared_now.state is MemoryState.PINNED
        assert shared_now.usage_count == WORKERS * count  # every use counted despite the rewrites
        kinds = [e.kind for e in mp.history(shared.id)]
        assert kinds.count(EventKind.UPDATED) == WORKERS * count
        assert len(mp.traces(limit=1000)) == WORKERS * count


MESSAGES = [
    "We decided to deploy the analytics service on Kubernetes.",
    "I prefer dark mode in every editor.",
    "The quarterly tax report is due on 2026-12-20.",
    "Remember that the office wifi is slow on Mondays.",
]


def test_the_same_message_at_the_same_moment_is_applied_once(
    pool: ProcessPoolExecutor, db_url: str, embedder
) -> None:
    with MemoPilot.open(db_url, embedder=embedder, llm=None) as mp:
        mp.add("I like green tea", type="preference")  # the store exists before the race
    for n, message in enumerate(MESSAGES):
        start_at = time.time() + 0.3
        futures = [
            pool.submit(workers.remember, db_url, message, f"msg-{n}", start_at) for _ in range(WORKERS)
        ]
        created = [f.result(timeout=60) for f in futures]
        winners = [ids for ids in created if ids]
        assert len(winners) == 1, (message, created)  # one worker applied it; the others wrote nothing
        with MemoPilot.open(db_url, embedder=embedder, llm=None) as mp:
            from_message = [m for m in mp.list(limit=1000).items if m.message_id == f"msg-{n}"]
            assert sorted(m.id for m in from_message) == sorted(winners[0])
    with MemoPilot.open(db_url, embedder=embedder, llm=None) as mp:
        assert mp.store.counts()["messages"] == len(MESSAGES)
        again = mp.remember(MESSAGES[0], message_id="msg-0")  # a later retry is refused too
        assert again.created == [] and "already applied" in again.notes[0]
