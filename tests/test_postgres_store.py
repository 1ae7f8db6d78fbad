"""What only the PostgreSQL store has: its schema, pgvector and HNSW, user-keyed tables, its errors.

The behaviour it shares with SQLite is the contract suite (every test using ``db_url``).
"""

from __future__ import annotations

import threading
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import numpy as np
import psycopg
import pytest

from memopilot import CorruptStoreError, MemoPilot, StoreError
from memopilot.store import ChangeSet, open_store
from memopilot.store.postgres import PostgresStore
from memopilot.store.postgres_schema import SCHEMA_VERSION


def _rows(url: str, sql: str, *params: object) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


def test_schema_version_pgvector_column_and_indexes(postgres_url: str, embedder, clock) -> None:
    with MemoPilot.open(postgres_url, embedder=embedder, clock=clock) as mp:
        m = mp.add("I prefer tabs", type="preference")
    assert _rows(postgres_url, "SELECT value FROM meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]
    ((text, dims, model),) = _rows(
        postgres_url,
        "SELECT embedding::text, vector_dims(embedding), embedding_model FROM memories WHERE id = %s",
        m.id,
    )
    vector = np.array(text.strip("[]").split(","), dtype=np.float32)
    assert dims == embedder.dim and model == embedder.model_id
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    indexes = dict(
        _rows(
            postgres_url,
            "SELECT indexname, indexdef FROM pg_indexes "
            "WHERE schemaname = current_schema() AND tablename = 'memories'",
        )
    )
    assert (
        f"USING hnsw (((embedding)::vector({embedder.dim})) vector_cosine_ops)"
        in indexes[f"memories_embedding_hnsw_{embedder.dim}"]
    )
    assert "USING gin (fts)" in indexes["memories_fts"]


def test_every_table_is_keyed_by_user_first(postgres_url: str, embedder) -> None:
    MemoPilot.open(postgres_url, embedder=embedder).close()
    keys = _rows(
        postgres_url,
        "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c "
        "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
        "WHERE c.contype IN ('p', 'u') AND c.connamespace = current_schema()::regnamespace",
    )
    assert {table for table, _ in keys} >= {"memories", "events", "traces", "turns", "applied_messages"}
    assert all(column == "user_id" for table, column in keys if table != "meta"), keys


def test_nearest_neighbours_use_the_hnsw_index(postgres_url: str, embedder, clock) -> None:
    with MemoPilot.open(postgres_url, embedder=embedder, clock=clock) as mp:
        tea = mp.add("I drink oolong tea every morning", type="preference")
        mp.add("The deploy pipeline runs on GitHub Actions", type="project")
    query = "[" + ",".join(str(x) for x in embedder.embed(["Which tea do I like?"])[0]) + "]"
    nearest = f"ORDER BY embedding::vector({embedder.dim}) <=> %s::vector({embedder.dim}) LIMIT 1"
    where = f"WHERE vector_dims(embedding) = {embedder.dim}"
    with psycopg.connect(postgres_url) as conn:
        conn.execute("SET enable_seqscan = off")
        plan = "\n".join(
            r[0] for r in conn.execute(f"EXPLAIN SELECT id FROM memories {where} {nearest}", (query,))
        )
        assert f"memories_embedding_hnsw_{embedder.dim}" in plan
        assert conn.execute(f"SELECT id FROM memories {where} {nearest}", (query,)).fetchone() == (tea.id,)


def test_change_token_moves_only_when_memories_or_vectors_change(postgres_url: str, embedder, clock) -> None:
    with MemoPilot.open(postgres_url, embedder=embedder, clock=clock) as mp:
        other = open_store(postgres_url)
        try:
            before = other.change_token("local")
            mp.build_context("anything?")  # a trace and no memory change
            assert other.change_token("local") == before
            mp.add("I drink oolong tea", type="preference")
            assert other.change_token("local") != before
        finally:
            other.close()


def test_a_memory_write_is_one_row_version(postgres_url: str, embedder, clock) -> None:
    # Each UPDATE of a row is a new version with an entry in every index (the HNSW one too): the
    # row, its vector and its change_seq go in one statement, not three.
    with MemoPilot.open(postgres_url, embedder=embedder, clock=clock) as mp:
        memory = mp.add("I drink oolong tea", type="preference")
        assert _rows(postgres_url, "SELECT ctid::text FROM memories WHERE id = %s", memory.id) == [("(0,1)",)]
        mp.pin(memory.id)  # a rewrite without a new vector: one more version
        assert _rows(postgres_url, "SELECT ctid::text FROM memories WHERE id = %s", memory.id) == [("(0,2)",)]
        token = mp.store.change_token(memory.user_id)
        stored = _rows(postgres_url, "SELECT change_seq FROM memories WHERE id = %s", memory.id)
        assert stored == [(token,)]  # written with the count of the commit that wrote it


def test_only_what_reads_record_commits_without_waiting_for_the_log(
    postgres_url: str, embedder, clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memopilot.store.postgres as postgres_module

    seen: list[tuple[bool, str]] = []  # (the set holds memories, synchronous_commit in its transaction)
    apply = postgres_module._apply

    def recording(conn: psycopg.Connection, changes: ChangeSet) -> None:
        setting = conn.execute("SHOW synchronous_commit").fetchone()[0]
        seen.append((bool(changes.memories), setting))
        apply(conn, changes)

    monkeypatch.setattr(postgres_module, "_apply", recording)
    # the test server commits without waiting for its log (tests/backends.py); this URL's sessions wait
    parts = urlsplit(postgres_url)
    query = [(k, f"{v} -csynchronous_commit=on" if k == "options" else v) for k, v in parse_qsl(parts.query)]
    url = urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))
    with MemoPilot.open(url, embedder=embedder, clock=clock) as mp:
        mp.add("I drink oolong tea", type="preference")
        result = mp.build_context("What tea do I drink?")  # a trace and a use
        mp.flush_uses()
        assert mp.get_trace(result.trace.id)["query"] == "What tea do I drink?"
        assert mp.get(mp.search("tea")[0].memory.id).usage_count == 1
    assert seen[0] == (True, "on")
    assert seen[1:] == [(False, "off"), (False, "off")]
    # SET LOCAL ends with its transaction: the pooled connections are back to durable commits
    store = PostgresStore(url)
    try:
        assert store._query("SHOW synchronous_commit") == [("on",)]
    finally:
        store.close()


def test_servers_starting_together_migrate_once(postgres_url: str) -> None:
    opened: list[PostgresStore] = []
    threads = [threading.Thread(target=lambda: opened.append(PostgresStore(postgres_url))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(opened) == 4
    for store in opened:
        store.close()
    assert _rows(postgres_url, "SELECT value FROM meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]


def test_tables_that_are_not_memopilots_are_refused(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        conn.execute("CREATE TABLE memories (id INTEGER)")
    with pytest.raises(CorruptStoreError, match="not a MemoPilot database"):
        open_store(postgres_url)
    assert _rows(postgres_url, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == [(1,)]


def test_unreachable_server_is_a_clear_error_without_the_password() -> None:
    url = "postgresql://memo:s3cret-pw@127.0.0.1:9/memories?connect_timeout=2"
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at 127\.0\.0\.1/memories") as caught:
        open_store(url)
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize("scheme", ["postgres://", "postgresql+psycopg://"])
def test_url_spellings(postgres_url: str, scheme: str) -> None:
    store = open_store(scheme + postgres_url.split("://", 1)[1])
    try:
        store.commit(ChangeSet(meta={"probe": "1"}))
        assert store.get_meta("probe") == "1"
    finally:
        store.close()
