"""Helpers of the reliability suite (issue 8): keyed clients, raw storage reads, the secret corpus.

The tests that use them run on every backend of the ``db_url`` / ``settings`` / ``mp`` fixtures.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from memopilot import MemoPilot
from memopilot.server import create_app
from memopilot.server.keys import ApiKeyStore

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
DATA = Path(__file__).resolve().parent / "data"


def unlimited(mp: MemoPilot, **overrides: Any) -> MemoPilot:
    """The engine with the per-user rate limit off (and other settings changed), for driving tests."""
    mp.settings = mp.settings.model_copy(update={"rate_limit_per_minute": 0, **overrides})
    return mp


def bearer_headers(mp: MemoPilot, users: tuple[str, ...] | list[str]) -> dict[str, dict[str, str]]:
    """One fresh API key per user, as ``Authorization`` headers (the server leaves local mode)."""
    keys = ApiKeyStore(mp.store)
    return {u: {"Authorization": f"Bearer {keys.create(u, now=mp.clock.now())}"} for u in users}


def secret_rows() -> list[dict[str, Any]]:
    """The redaction corpus: messages, each with the secrets it holds."""
    with (DATA / "secret_messages.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def raw_storage(db_url: str) -> bytes:
    """Everything the backend keeps on disk or in its tables, as bytes to scan.

    SQLite: the database file, its WAL and shared-memory file. PostgreSQL: what the suite's
    backend helper reads (every row and every tuple version in the heap pages).
    """
    if db_url.startswith("sqlite:///"):
        db = Path(db_url.removeprefix("sqlite:///"))
        return b"".join(p.read_bytes() for p in sorted(db.parent.glob(db.name + "*")))
    from .backends import stored_bytes  # the PostgreSQL side belongs to the backend suite

    return stored_bytes(db_url)


class LiveServer:
    """The real app served by uvicorn on a free loopback port, in a thread of this process."""

    def __init__(self, mp: MemoPilot, **config: Any) -> None:
        self._server = uvicorn.Server(
            uvicorn.Config(create_app(mp=mp), host="127.0.0.1", port=0, log_level="warning", **config)
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def url(self) -> str:
        port = self._server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self._server.started, "the server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)


@contextmanager
def scripts_on_path() -> Iterator[None]:
    """Import ``scripts/*.py`` as modules (they also run as programs)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        yield
    finally:
        sys.path.remove(str(SCRIPTS))
