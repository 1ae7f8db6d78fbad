"""Helpers of the reliability suite (issue 8): keyed clients, raw storage reads, the secret corpus.

The tests that use them run on every backend of the ``db_url`` / ``settings`` / ``mp`` fixtures.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memopilot import MemoPilot
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


@contextmanager
def scripts_on_path() -> Iterator[None]:
    """Import ``scripts/*.py`` as modules (they also run as programs)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        yield
    finally:
        sys.path.remove(str(SCRIPTS))
