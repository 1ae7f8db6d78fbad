"""Shared fixtures: a real database on every backend, the real default embedder, and a fixed clock.

Every test that uses ``db_url`` (directly or through ``settings``, ``mp``, ...) is the contract
suite: it runs once per backend of ``tests/backends.py`` (SQLite, PostgreSQL + pgvector), each
time on a fresh database. ``@pytest.mark.sqlite_only`` keeps a test that reads SQLite's own
files or pragmas to the SQLite run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memopilot import FixedClock, MemoPilot, Settings
from memopilot.embedding import StaticEmbedder

from .backends import BACKENDS, PostgresServer, stored_bytes

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: reads SQLite's own files; runs on SQLite only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", ["sqlite"] if sqlite_only else list(BACKENDS), indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    with PostgresServer.start() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty PostgreSQL schema (pgvector installed) for this test."""
    url = postgres_server.create_schema()
    yield url
    postgres_server.drop_schema(url)


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "postgres":
        return request.getfixturevalue("postgres_url")
    return f"sqlite:///{tmp_path / 'memories.db'}"


@pytest.fixture
def storage(db_url: str) -> Callable[[], bytes]:
    """Reads back everything the backend stores (see ``backends.stored_bytes``)."""
    return lambda: stored_bytes(db_url)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings.load(database_url=db_url)


@pytest.fixture
def mp(settings: Settings, embedder: StaticEmbedder, clock: FixedClock) -> Iterator[MemoPilot]:
    engine = MemoPilot.open(settings=settings, embedder=embedder, clock=clock)
    yield engine
    engine.close()
