"""``memopilot migrate``: a whole store copied between backends, verified, with nothing changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from memopilot import ConflictError, MemoPilot
from memopilot.cli import app
from memopilot.store.migrate import migrate_store


def _populate(mp: MemoPilot, clock) -> None:
    mp.add("I prefer tabs over spaces", type="preference", tags=["style"], project_id=None)
    mp.remember("We decided to use PostgreSQL for billing. The report is due next Friday.", message_id="m1")
    clock.advance(minutes=1)
    mp.chat("Actually, we switched from PostgreSQL to CockroachDB for billing.", session_id="s1")
    critical = mp.add("Never deploy on Fridays", type="critical")
    mp.pin(critical.id)
    for text in ("I like tea", "I enjoy jazz music", "I prefer dark mode"):
        mp.add(text, type="preference", project_id=None)  # same created_at: ties keep their order
    mp.reflect(project_id=None)
    mp.add("Alice reads sci-fi", type="preference", user_id="alice")
    mp.forget(mp.add("forget me: Quuxberry", type="task").id)
    mp.build_context("How should I indent?")
    mp.store.set_meta("server_api_keys", '{"k1": "hash"}')


def _snapshot(mp: MemoPilot) -> dict[str, Any]:
    """Everything a caller can read back."""
    users = mp.store.user_ids()
    memories = {u: mp.list(user_id=u, limit=1000).items for u in users}
    ids = [m.id for items in memories.values() for m in items]
    vectors = mp.store.vectors_of(ids)
    return {
        "memories": memories,
        "events": {i: mp.store.events(i) for i in ids},
        "timeline": {u: mp.timeline(user_id=u, limit=1000) for u in users},
        "traces": {u: mp.traces(user_id=u, limit=1000) for u in users},
        "turns": mp.store.recent_turns("local", "s1", 100),
        "vectors": {i: v.tolist() for i, v in vectors.items()},
        "meta": mp.store.meta_items(),
        "search": [r.memory.id for r in mp.search("billing database")],
    }


def test_sqlite_to_postgres_and_back_keeps_everything(
    tmp_path: Path, postgres_url: str, embedder, clock
) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    with MemoPilot.open(source, embedder=embedder, clock=clock, llm=None) as mp:
        _populate(mp, clock)
        before = _snapshot(mp)
        expected = mp.store.counts()
    assert expected["turns"] == 2 and expected["messages"] == 2 and expected["vectors"] > 0  # m1, the chat

    assert migrate_store(source, postgres_url) == expected
    with MemoPilot.open(postgres_url, embedder=embedder, clock=clock, llm=None) as mp:
        assert _snapshot(mp) == before
        retry = mp.remember("We decided to use PostgreSQL for billing.", message_id="m1")
        assert retry.created == [] and "already applied" in retry.notes[0]

    back = f"sqlite:///{tmp_path / 'back.db'}"
    assert migrate_store(postgres_url, back, batch_size=3) == expected  # several batches of each kind
    with MemoPilot.open(back, embedder=embedder, clock=clock, llm=None) as mp:
        assert _snapshot(mp) == before
        assert all(np.linalg.norm(v) == pytest.approx(1.0, abs=1e-5) for v in mp.store.vectors_of(
            [m.id for m in mp.list(limit=1000).items]).values())  # fmt: skip


def test_a_target_with_data_is_refused(tmp_path: Path, postgres_url: str, embedder) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    with MemoPilot.open(source, embedder=embedder, llm=None) as mp:
        mp.add("I prefer tabs", type="preference")
    with MemoPilot.open(postgres_url, embedder=embedder, llm=None) as mp:
        mp.add("Already here", type="preference")
    with pytest.raises(ConflictError, match="already holds MemoPilot data"):
        migrate_store(source, postgres_url)
    with MemoPilot.open(postgres_url, embedder=embedder, llm=None) as mp:
        assert [m.content for m in mp.list().items] == ["Already here"]


def test_cli_migrate(tmp_path: Path, postgres_url: str, embedder) -> None:
    source = f"sqlite:///{tmp_path / 'source.db'}"
    with MemoPilot.open(source, embedder=embedder, llm=None) as mp:
        mp.add("I prefer tabs", type="preference")
    runner = CliRunner()
    result = runner.invoke(app, ["migrate", "--from", source, "--to", postgres_url, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verified"] is True
    assert report["copied"] == {
        "memories": 1,
        "events": 1,
        "traces": 0,
        "turns": 0,
        "messages": 0,
        "vectors": 1,
    }
    again = runner.invoke(app, ["migrate", "--from", source, "--to", postgres_url])
    assert again.exit_code == 1
    assert again.stderr.startswith("error: the target database already holds MemoPilot data")
