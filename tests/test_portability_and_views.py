"""Export/import round trips, the memory graph and analytics."""

from __future__ import annotations

import json

import pytest

from memopilot import InvalidInputError, MemoPilot
from memopilot.domain import Memory
from memopilot.engine.portability import imported_id


def _populate(mp: MemoPilot) -> None:
    old = mp.add("We use MySQL", type="decision", tags=["db"])
    new = mp.add("We moved to PostgreSQL", type="decision", tags=["db"])
    mp.supersede(old.id, new.id)
    pinned = mp.add("Never force-push to main", type="critical")
    mp.pin(pinned.id)
    for t in ("I like tea", "I prefer dark mode", "I enjoy jazz music"):
        mp.add(t, type="preference", project_id=None)
    mp.reflect(project_id=None)
    mp.forget(mp.add("forget me", type="task").id)


def test_export_then_import_round_trips(mp: MemoPilot, tmp_path, embedder, clock) -> None:
    _populate(mp)
    document = json.loads(json.dumps(mp.export()))
    fresh = MemoPilot.open(f"sqlite:///{tmp_path / 'fresh.db'}", embedder=embedder, clock=clock)
    report = fresh.import_(document)
    assert report.imported == len(document["memories"]) and report.skipped == 0 and not report.rejected
    original = {imported_id("local", m.id): _remapped(m) for m in mp.list(limit=1000).items}
    copied = {m.id: m for m in fresh.list(limit=1000).items}
    assert copied == original  # every field, with ids and references remapped (SPEC Contracts: import)
    assert [e.kind for e in fresh.history(next(iter(original)))][-1].value == "imported"
    assert fresh.search("PostgreSQL")[0].memory.content == "We moved to PostgreSQL"
    again = fresh.import_(document)
    assert (again.imported, again.skipped) == (0, len(document["memories"]))
    assert mp.import_(document).imported == 0  # into its own user: already present
    fresh.close()


def _remapped(memory: Memory) -> Memory:
    def new(i: str | None) -> str | None:
        return imported_id(memory.user_id, i) if i else None

    return memory.copy(
        id=new(memory.id),
        supersedes=new(memory.supersedes),
        superseded_by=new(memory.superseded_by),
        source_ids=[new(s) for s in memory.source_ids],
    )


def test_import_into_another_user_never_touches_the_owner(mp: MemoPilot) -> None:
    mp.add("Alice likes chess", type="preference", user_id="alice")
    document = mp.export("alice")
    report = mp.import_(document, user_id="bob")
    assert report.renamed == 1
    bob = mp.list(user_id="bob").items
    alice = mp.list(user_id="alice").items
    assert bob[0].content == alice[0].content and bob[0].id != alice[0].id


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"format": "other"},
        {"format": "memopilot-export", "version": 1, "user_id": "u", "memories": {"id": "x"}},
    ],
)
def test_bad_import_documents_change_nothing(mp: MemoPilot, document: dict) -> None:
    with pytest.raises(InvalidInputError, match="not a MemoPilot export"):
        mp.import_(document)
    assert mp.list().total == 0


def test_graph_has_typed_nodes_summary_stars_and_edges(mp: MemoPilot) -> None:
    _populate(mp)
    graph = mp.graph()
    kinds = {e["kind"] for e in graph["edges"]}
    assert {"supersedes", "summarizes"} <= kinds
    stars = [n for n in graph["nodes"] if n["shape"] == "star"]
    assert len(stars) == 1 and stars[0]["summary"] and len(stars[0]["source_ids"]) == 3
    assert all(n["state"] != "deleted" for n in graph["nodes"])
    ids = {n["id"] for n in graph["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in graph["edges"])


def test_analytics_counts_and_token_savings(mp: MemoPilot) -> None:
    _populate(mp)
    mp.build_context("Which database do we use?", budget_tokens=60)
    stats = mp.analytics()
    assert stats["by_state"]["superseded"] == 1 and stats["by_state"]["deleted"] == 1
    assert stats["by_state"]["pinned"] == 1
    assert stats["by_type"]["preference"] == 4  # three and their summary
    assert stats["total"] == sum(stats["by_state"].values())
    assert stats["tokens"]["contexts"] == 1
    assert 0 < stats["tokens"]["avg_context_tokens"] <= 60
    assert stats["consolidation"]["summaries"] == 1
    assert stats["growth"][0]["created"] == stats["total"]
    assert stats["tokens"]["savings_basis"] == "every active memory in the prompt"


def test_token_savings_are_shown_only_where_they_mean_something(mp: MemoPilot) -> None:
    assert mp.analytics()["tokens"]["savings_ratio"] is None  # no context built yet
    mp.add("I like tea", type="preference")
    mp.build_context("What do I like to drink?")
    tokens = mp.analytics()["tokens"]
    # one short memory: the context's header makes it larger than the memory alone, no saving
    assert tokens["avg_context_tokens"] > tokens["active_memory_tokens"]
    assert tokens["savings_ratio"] is None
    for n in range(30):
        mp.add(f"Service number {n} runs on host h{n} and is owned by team t{n % 4}", type="project")
    mp.build_context("What do I like to drink?", budget_tokens=100)
    tokens = mp.analytics()["tokens"]
    assert (
        0
        < tokens["savings_ratio"]
        == pytest.approx(1 - tokens["avg_context_tokens"] / tokens["active_memory_tokens"], abs=1e-3)
    )


def test_an_invalid_record_is_rejected_by_index_and_the_rest_imported(mp: MemoPilot) -> None:
    mp.add("Alice likes chess", type="preference", user_id="alice")
    document = mp.export("alice")
    document["memories"].insert(0, {"id": "x"})
    report = mp.import_(document, user_id="bob")
    assert report.imported == 1 and [r["index"] for r in report.rejected] == [0]
    assert "Field required" in report.rejected[0]["reason"]
