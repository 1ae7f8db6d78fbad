"""Shared fixtures: a real SQLite file, the real default embedder, and a fixed clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memopilot import FixedClock, MemoPilot, Settings
from memopilot.embedding import StaticEmbedder

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never read the developer's own settings or .env."""
    import os

    for name in list(os.environ):
        if name.startswith("MEMOPILOT_") or name in ("DASHSCOPE_API_KEY", "OPENAI_API_KEY"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def embedder() -> StaticEmbedder:
    return StaticEmbedder()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'memories.db'}"


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings.load(database_url=db_url)


@pytest.fixture
def mp(settings: Settings, embedder: StaticEmbedder, clock: FixedClock) -> Iterator[MemoPilot]:
    engine = MemoPilot.open(settings=settings, embedder=embedder, clock=clock)
    yield engine
    engine.close()
