"""Work that ``test_concurrency.py`` runs in separate processes (multiprocessing spawn).

Each worker process loads the embedder once and opens its own MemoPilot (its own SQLite
connection or PostgreSQL pool) per task, as an API worker would.
"""

from __future__ import annotations

import os
import tempfile
import time
from functools import cache

from memopilot import MemoPilot, Settings
from memopilot.embedding import StaticEmbedder


@cache
def _embedder() -> StaticEmbedder:
    return StaticEmbedder()


def start_worker() -> None:
    """Like the suite's autouse fixture: no developer settings, no .env; and load the embedder."""
    for name in list(os.environ):
        if name.startswith("MEMOPILOT_") or name in ("DASHSCOPE_API_KEY", "OPENAI_API_KEY"):
            del os.environ[name]
    os.chdir(tempfile.gettempdir())
    _embedder()


def _open(url: str) -> MemoPilot:
    return MemoPilot.open(url, settings=Settings(), embedder=_embedder(), llm=None)


def _wait_until(start_at: float) -> None:
    time.sleep(max(0.0, start_at - time.time()))


def write_many(url: str, worker: int, count: int, shared_id: str, start_at: float) -> list[str]:
    """Add ``count`` memories; for each, also use the shared memory once and rewrite it once.

    The context counts one use of the shared (critical) memory; the update rewrites its whole row
    from a copy read a moment earlier, racing the other workers' uses of it.
    """
    _wait_until(start_at)
    added = []
    with _open(url) as mp:
        for i in range(count):
            added.append(mp.add(f"Worker {worker} task {i}: ship parcel {worker * 1000 + i}", type="task").id)
            mp.build_context("What must I never do?")
            mp.update(shared_id, importance=round(0.5 + (worker * count + i) / 1000, 4), reason=f"w{worker}")
    return added


def remember(url: str, message: str, message_id: str, start_at: float) -> list[str]:
    """Run the write path on one message; the ids of the memories it created (its episode too)."""
    _wait_until(start_at)
    with _open(url) as mp:
        outcome = mp.remember(message, message_id=message_id)
        return [m.id for m in outcome.episodes + outcome.created]
