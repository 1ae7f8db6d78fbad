"""Every store: migrations, compact vectors, refusing bad files, newer schemas and other models.

The checks of SQLite's own file run on SQLite only; ``test_postgres_store.py`` has PostgreSQL's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from memopilot import (
    CorruptStoreError,
    EmbedderMismatchError,
    MemoPilot,
    SchemaTooNewError,
    Settings,
)
from memopilot.embedding import StaticEmbedder
from memopilot.engine.facade import DEFAULT_USER
from memopilot.store.sqlite import SQLiteStore
from memopilot.store.sqlite_schema import SCHEMA_VERSION


def _path(settings: Settings) -> Path:
    return Path(settings.resolved_database_url.removeprefix("sqlite:///"))


@pytest.mark.sqlite_only
def test_wal_mode_schema_version_and_float32_vectors(mp: MemoPilot, settings: Settings) -> None:
    m = mp.add("I prefer tabs", type="preference")
    with sqlite3.connect(_path(settings)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        blob, model = conn.execute(
            "SELECT embedding, embedding_model FROM memories WHERE id = ?", (m.id,)
        ).fetchone()
    assert int(version) == SCHEMA_VERSION
    assert isinstance(blob, bytes) and len(blob) == 4 * mp.embedder.dim
    assert model == mp.embedder.model_id
    vector = np.frombuffer(blob, dtype="<f4")
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_default_location_is_the_user_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert (
        Settings.load().resolved_database_url
        == f"sqlite:///{tmp_path / 'data' / 'memopilot' / 'memopilot.db'}"
    )
    monkeypatch.setenv("MEMOPILOT_DATABASE_URL", "sqlite:///elsewhere.db")
    assert Settings.load().resolved_database_url == "sqlite:///elsewhere.db"


def test_reopening_keeps_everything(settings: Settings, embedder, clock) -> None:
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as first:
        m = first.add("I prefer tabs", type="preference")
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as again:
        assert again.get(m.id) == m
        assert again.search("tabs")[0].memory.id == m.id


def test_corrupt_file_is_refused_and_left_untouched(tmp_path: Path, embedder) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database at all" * 100)
    before = bad.read_bytes()
    with pytest.raises(CorruptStoreError, match="not a usable MemoPilot database"):
        MemoPilot.open(f"sqlite:///{bad}", embedder=embedder)
    assert bad.read_bytes() == before


def test_foreign_sqlite_file_is_refused(tmp_path: Path, embedder) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER)")
    with pytest.raises(CorruptStoreError, match="not a MemoPilot one"):
        MemoPilot.open(f"sqlite:///{other}", embedder=embedder)


def test_newer_schema_is_refused(settings: Settings, embedder) -> None:
    with MemoPilot.open(settings=settings, embedder=embedder) as mp:
        mp.store.set_meta("schema_version", "999")
    with pytest.raises(SchemaTooNewError, match="upgrade memopilot"):
        MemoPilot.open(settings=settings, embedder=embedder)


def test_embedder_mismatch_is_refused_until_reembed(settings: Settings, clock) -> None:
    with MemoPilot.open(settings=settings, clock=clock) as mp:
        m = mp.add("I prefer tabs", type="preference")
    renamed = StaticEmbedder(model_id="another-model")
    with pytest.raises(EmbedderMismatchError, match="memopilot reembed"):
        MemoPilot.open(settings=settings, embedder=renamed)
    with MemoPilot.open(settings=settings, embedder=renamed, allow_model_change=True) as mp:
        assert mp.reembed() == 1
    with MemoPilot.open(settings=settings, embedder=renamed, clock=clock) as mp:
        assert mp.search("tabs")[0].memory.id == m.id
        assert mp.store.count_vectors_by_model() == {"another-model": 1}


def test_vector_dimension_mismatch_changes_nothing(settings: Settings, embedder, clock) -> None:
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        mp.add("I prefer tabs", type="preference")
        mp.store.set_meta("embedding_dim", "384")
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        with pytest.raises(EmbedderMismatchError, match="384-dimensional"):
            mp.add("I prefer spaces", type="preference")
        assert mp.list().total == 1


def _keyword_hits(mp: MemoPilot, *words: str) -> set[str]:
    return {memory_id for memory_id, _ in mp.store.keyword_search("local", "default", list(words), 50)}


def test_keyword_index_stays_consistent_through_every_kind_of_change(mp: MemoPilot) -> None:
    """Regression: an update that rewrote identical content used to corrupt the FTS5 index."""
    from memopilot.store import ChangeSet

    first = mp.add("Please keep answers short and show code first.", type="preference")
    mp.store.commit(ChangeSet(memories=[first.copy(importance=0.9)]))  # the same text rewritten
    assert _keyword_hits(mp, "answers", "code") == {first.id}
    second = mp.add("We use Jenkins for CI", type="decision")
    mp.update(second.id, content="We use GitHub Actions for CI")
    assert _keyword_hits(mp, "jenkins") == set() and _keyword_hits(mp, "github") == {second.id}
    mp.pin(second.id)
    mp.archive(second.id)
    assert _keyword_hits(mp, "github") == set()
    mp.restore(second.id)
    assert _keyword_hits(mp, "github") == {second.id}
    said = mp.remember("Please keep answers short and show code first!")  # a restatement rewrites the text
    (episode,) = said.episodes
    assert _keyword_hits(mp, "answers") == {first.id, episode.id}
    mp.forget(first.id, cascade=True)  # the restated memory and the message that restated it
    assert _keyword_hits(mp, "answers", "code") == set()
    if isinstance(mp.store, SQLiteStore):  # FTS5's own consistency check
        mp.store._conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')")


def test_stored_times_read_many_at_once_equal_their_datetimes() -> None:
    """A cold load reads every row's times in one numpy parse: the seconds equal each datetime's
    own timestamp to the microsecond, None reads as inf, and a time not in the fixed-width UTC form
    (written by another tool) makes the fast path step aside instead of guessing."""
    from datetime import UTC, datetime, timedelta, timezone

    from memopilot.store.sqlite import from_text, timestamps_from_text, to_text

    times = [
        datetime(2026, 12, 4, 14, 42, 33, 123456, tzinfo=UTC),
        datetime(1999, 1, 1, tzinfo=UTC),
        datetime(2026, 3, 29, 1, 30, tzinfo=timezone(timedelta(hours=2))).astimezone(UTC),
    ]
    texts = [to_text(t) for t in times] + [None]
    seconds = timestamps_from_text(texts)
    assert seconds is not None
    assert seconds.tolist() == [from_text(t).timestamp() for t in texts[:3]] + [float("inf")]
    assert timestamps_from_text([None, None]).tolist() == [float("inf")] * 2  # type: ignore[union-attr]
    assert timestamps_from_text([texts[0], "2026-12-04T15:42:33.123456+01:00"]) is None
    assert timestamps_from_text(["2026-12-04T14:42:33+00:00"]) is None


@pytest.mark.sqlite_only
def test_reading_memories_by_id_uses_the_id_index(
    mp: MemoPilot, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without statistics SQLite's planner took the user's index for two ids or more and read every
    # row of the user (33 ms a write at 100,000 memories): the ids must find the rows.
    ids = [mp.add(f"note number {n}", type="fact").id for n in range(3)]
    issued: list[tuple[str, list]] = []
    query = mp.store._query

    def recording(sql: str, params=()):  # type: ignore[no-untyped-def]
        issued.append((sql, list(params)))
        return query(sql, params)

    monkeypatch.setattr(mp.store, "_query", recording)
    assert set(mp.store.get_many(ids, user_id=DEFAULT_USER)) == set(ids)
    sql, params = issued[-1]
    with sqlite3.connect(_path(settings)) as conn:
        plan = " ".join(str(row[-1]) for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))
    assert "(id=?)" in plan, plan
