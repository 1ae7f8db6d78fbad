"""The read path's in-memory index, on every backend: BM25 and cosine signals against an independent
computation, scope, staying in step with every commit (this engine's and another one's), compaction,
use counts; and the pieces built with it: the score table, compact stored traces, WAL checkpoints.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import sqlite3
import struct
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from memopilot import FixedClock, MemoPilot, Memory, MemoryState, MemoryType, Privacy, Settings
from memopilot.embedding import StaticEmbedder
from memopilot.read import index as index_module
from memopilot.read.index import MemoryIndex, ScopeMatches, _PostingTable, indexed_terms
from memopilot.read.scorer import COMPONENTS, ScoreTable, score_memory
from memopilot.read.trace import readable_trace
from memopilot.store import ChangeSet
from memopilot.store.base import DecodedRows
from memopilot.store.sqlite import sqlite_path_from_url
from memopilot.text import content_terms, stored_index_terms

from .conftest import T0

USER = "local"  # the engine's default user
PROJECT = "default"  # the engine's default project
EVERYTHING = 100_000  # a candidate limit above any count here: every live memory in scope comes back
K1, B = 1.2, 0.75  # Okapi BM25, as the index documents it


# --- helpers ---------------------------------------------------------------------------------------
def _search(
    mp: MemoPilot,
    query: str,
    *,
    user_id: str = USER,
    project_id: str | None = PROJECT,
    index: MemoryIndex | None = None,
    limit: int = EVERYTHING,
) -> ScopeMatches:
    """What the index (the engine's, or ``index``) finds for ``query``, as the retriever asks it."""
    vector = mp.embed_texts([query])[0]
    return (index or mp.index).search(user_id, project_id, vector, content_terms(query), limit)


def _ids(found: ScopeMatches) -> set[str]:
    return {m.id for m in found.memories}


def _column(found: ScopeMatches, name: str) -> dict[str, float]:
    values: np.ndarray = getattr(found, name)
    return {m.id: float(v) for m, v in zip(found.memories, values, strict=True)}


def _sources(found: ScopeMatches) -> dict[str, tuple[str, ...]]:
    return {m.id: s for m, s in zip(found.memories, found.sources, strict=True)}


def _keyword_hits(found: ScopeMatches) -> set[str]:
    return {memory_id for memory_id, score in _column(found, "bm25").items() if score > 0}


def _assert_same_signals(got: ScopeMatches, want: ScopeMatches) -> None:
    """Same memories, same cosine, BM25, matched terms and sources (by memory id)."""
    assert _ids(got) == _ids(want)
    for name in ("dense", "bm25", "matched"):
        assert _column(got, name) == pytest.approx(_column(want, name), abs=1e-6)
    assert _sources(got) == _sources(want)
    got_memories = {m.id: m for m in got.memories}
    assert all(got_memories[m.id] == m for m in want.memories)


def _assert_index_matches_store(mp: MemoPilot, query: str, **scope: Any) -> None:
    """The engine's index, kept in step commit by commit, answers as one freshly loaded from the store."""
    fresh = MemoryIndex(mp.store)
    _assert_same_signals(_search(mp, query, **scope), _search(mp, query, index=fresh, **scope))


def _load(mp: MemoPilot, user_id: str = USER) -> None:
    """Make the index load ``user_id`` now, so that later commits reach it through ``apply``."""
    mp.index.get(user_id, "no-such-memory")


def _in_scope(mp: MemoPilot, user_id: str, project_id: str | None) -> list[Memory]:
    """The user's active and pinned memories of ``project_id`` and user-wide ones, from the store."""
    page = mp.list(user_id=user_id, states=["active", "pinned"], limit=1000)
    return [m for m in page.items if m.project_id is None or m.project_id == project_id]


def _okapi_bm25(scope: Sequence[Memory], query_terms: Iterable[str]) -> dict[str, tuple[float, int]]:
    """memory id -> (Okapi BM25, distinct query terms present), computed the textbook way."""
    docs = {m.id: indexed_terms(m) for m in scope}
    n = len(docs)
    avgdl = sum(sum(tf.values()) for tf in docs.values()) / n
    terms = set(query_terms)
    df = {t: sum(1 for tf in docs.values() if t in tf) for t in terms}
    out: dict[str, tuple[float, int]] = {}
    for memory_id, tf in docs.items():
        dl = sum(tf.values())
        score = 0.0
        for t in terms & tf.keys():
            idf = max(math.log((n - df[t] + 0.5) / (df[t] + 0.5)), 1e-6)
            score += idf * tf[t] * (K1 + 1) / (tf[t] + K1 * (1 - B + B * dl / avgdl))
        out[memory_id] = (score, len(terms & tf.keys()))
    return out


def _cosines(mp: MemoPilot, query: str, memory_ids: Iterable[str]) -> dict[str, float]:
    vector = mp.embed_texts([query])[0]
    return {i: float(v @ vector) for i, v in mp.store.vectors_of(list(memory_ids)).items()}


# --- BM25, cosine and scope ------------------------------------------------------------------------
BM25_CORPUS: list[tuple[str | None, str, list[str]]] = [  # (project, content, tags)
    ("apollo", "Deploy the billing service to Kubernetes every Friday", ["deploy"]),
    ("apollo", "Billing invoices are generated nightly; billing retries twice on failure", []),
    ("apollo", "The staging cluster runs Kubernetes 1.29 with three nodes", ["cluster", "staging"]),
    ("apollo", "Lunch on Fridays is pizza", []),
    (None, "I prefer short answers about Kubernetes and billing", []),
    (None, "My cat is called Miso", ["pets"]),
]
BM25_QUERY = "How do we deploy billing to the Kubernetes clusters on Friday?"


def test_bm25_and_cosine_equal_an_independent_okapi_computation(mp: MemoPilot) -> None:
    for project_id, content, tags in BM25_CORPUS:
        mp.add(content, project_id=project_id, tags=tags, type="episode")
    # Outside the scope (another project, another user): these must not change N, df or avgdl.
    mp.add("Billing billing billing: deploy Kubernetes clusters", project_id="gemini", type="episode")
    mp.add("Deploy billing to Kubernetes on Friday", user_id="bob", project_id="apollo", type="episode")

    found = _search(mp, BM25_QUERY, project_id="apollo")
    scope = _in_scope(mp, USER, "apollo")
    reference = _okapi_bm25(scope, content_terms(BM25_QUERY))
    assert _ids(found) == {m.id for m in scope} and len(scope) == len(BM25_CORPUS)
    assert _column(found, "bm25") == pytest.approx({i: r[0] for i, r in reference.items()}, rel=1e-6)
    assert _column(found, "matched") == {i: float(r[1]) for i, r in reference.items()}
    assert _column(found, "dense") == pytest.approx(_cosines(mp, BM25_QUERY, _ids(found)), abs=1e-5)
    # The reference is not trivial: some memories match no term, one term is in most of the scope.
    assert 0 < len(_keyword_hits(found)) < len(scope)
    assert max(r[1] for r in reference.values()) >= 3


def test_retriever_keyword_is_term_share_or_relative_bm25(mp: MemoPilot) -> None:
    for project_id, content, tags in BM25_CORPUS:
        mp.add(content, project_id=project_id, tags=tags, type="episode")
    terms = content_terms(BM25_QUERY)
    reference = _okapi_bm25(_in_scope(mp, USER, "apollo"), terms)
    best = max(score for score, _ in reference.values())
    vector = mp.embed_texts([BM25_QUERY])[0]
    candidates = mp.retriever.candidates(BM25_QUERY, vector, user_id=USER, project_id="apollo")
    assert {c.memory.id for c in candidates} == set(reference)
    for c in candidates:
        score, matched = reference[c.memory.id]
        assert c.keyword == pytest.approx(min(1.0, max(matched / len(terms), score / best)), rel=1e-6)


def test_scope_is_one_users_project_plus_user_wide(mp: MemoPilot) -> None:
    mine = mp.add("Project Apollo uses Rust for the flight software", project_id="apollo")
    wide = mp.add("I prefer detailed explanations about Rust", project_id=None)
    gemini = mp.add("Project Gemini uses Rust for telemetry", project_id="gemini")
    bobs = mp.add("Bob writes Rust for Apollo too", user_id="bob", project_id="apollo")
    bobs_wide = mp.add("Bob likes Rust", user_id="bob", project_id=None)

    assert _ids(_search(mp, "Rust", project_id="apollo")) == {mine.id, wide.id}
    assert _ids(_search(mp, "Rust", project_id="gemini")) == {gemini.id, wide.id}
    assert _ids(_search(mp, "Rust", project_id=None)) == {wide.id}
    assert _ids(_search(mp, "Rust", user_id="bob", project_id="apollo")) == {bobs.id, bobs_wide.id}
    assert _ids(_search(mp, "Rust", user_id="carol", project_id="apollo")) == set()
    vector = mp.embed_texts(["Rust"])[0]
    candidates = mp.retriever.candidates("Rust", vector, user_id=USER, project_id="apollo")
    assert {c.memory.id for c in candidates} == {mine.id, wide.id}


# --- kept in step with this engine's commits ----------------------------------------------------------
def test_leaving_the_context_states_leaves_the_index(mp: MemoPilot, clock: FixedClock) -> None:
    made = {
        name: mp.add(f"The {name} server is called {bird}", type="project")
        for name, bird in [
            ("kept", "kestrel"),
            ("archived", "sparrow"),
            ("forgotten", "osprey"),
            ("superseded", "heron"),
            ("expiring", "wren"),
        ]
    }
    _load(mp)
    mp.archive(made["archived"].id)
    mp.forget(made["forgotten"].id)
    mp.supersede(made["superseded"].id, made["kept"].id)
    mp.update(made["expiring"].id, expires_at=clock.now() + timedelta(hours=1))
    clock.advance(hours=2)
    assert mp.run_forgetting(user_id=USER).expired == [made["expiring"].id]

    found = _search(mp, "server called sparrow osprey heron wren kestrel")
    assert _ids(found) == {made["kept"].id}
    assert all(mp.index.get(USER, m.id) is None for name, m in made.items() if name != "kept")
    _assert_index_matches_store(mp, "server called sparrow osprey heron wren kestrel")


def test_restored_memory_comes_back_with_its_vector(mp: MemoPilot) -> None:
    keep = mp.add("The staging server is called kestrel", type="project")
    back = mp.add("The backup server is called sparrow", type="project")
    mp.archive(back.id)
    _load(mp)
    mp.restore(back.id)
    found = _search(mp, "sparrow backup server")
    assert _ids(found) == {keep.id, back.id}
    assert back.id in _keyword_hits(found)
    cosines = _cosines(mp, "sparrow backup server", _ids(found))
    assert _column(found, "dense") == pytest.approx(cosines, abs=1e-5)
    _assert_index_matches_store(mp, "sparrow backup server")


def test_restore_when_the_loaded_user_had_no_active_memory(mp: MemoPilot) -> None:
    only = mp.add("The backup server is called sparrow", type="project")
    mp.archive(only.id)
    _load(mp)  # loads an empty index for the user
    mp.restore(only.id)
    assert _ids(_search(mp, "sparrow")) == {only.id}
    _assert_index_matches_store(mp, "sparrow")


def test_edited_content_is_found_by_its_new_words_only(mp: MemoPilot) -> None:
    edited = mp.add("The team standup is at nine in the blue room", type="project")
    other = mp.add("Deploys happen on Tuesday afternoons", type="project")
    _load(mp)
    mp.update(edited.id, content="The team retro is on Thursday in the garden")
    assert _keyword_hits(_search(mp, "standup blue room")) == set()
    assert _keyword_hits(_search(mp, "retro garden Thursday")) == {edited.id}
    assert mp.index.get(USER, edited.id).content == "The team retro is on Thursday in the garden"
    mp.update(other.id, tags=["calendar"])
    assert _keyword_hits(_search(mp, "calendar")) == {other.id}
    _assert_index_matches_store(mp, "retro standup calendar Tuesday")


def test_field_edits_show_in_the_index(mp: MemoPilot) -> None:
    memory = mp.add("Use ruff for linting Python code", type="preference")
    _load(mp)
    mp.update(memory.id, importance=0.9, confidence=0.4, privacy="private")
    indexed = mp.index.get(USER, memory.id)
    assert indexed is not None
    assert (indexed.importance, indexed.confidence, indexed.privacy) == (0.9, 0.4, Privacy.PRIVATE)
    assert _keyword_hits(_search(mp, "ruff linting")) == {memory.id}
    _assert_index_matches_store(mp, "ruff linting")


def test_pinned_memories_are_priority_candidates(mp: MemoPilot) -> None:
    for i in range(5):
        mp.add(f"Python tip {i}: prefer list comprehensions in loops", type="preference")
    pinned = mp.add("Ping Dana before merging anything", type="task")
    critical = mp.add("Never run migrations against production without a backup", type="critical")
    _load(mp)
    mp.pin(pinned.id)
    # A small limit keeps the dense and keyword picks to the best matches of the question.
    found = _sources(_search(mp, "list comprehensions", limit=2))
    assert "priority" in found[pinned.id] and "priority" in found[critical.id]
    assert mp.index.get(USER, pinned.id).state is MemoryState.PINNED
    mp.unpin(pinned.id)
    found = _sources(_search(mp, "list comprehensions", limit=2))
    assert "priority" not in found.get(pinned.id, ())
    assert "priority" in found[critical.id]
    _assert_index_matches_store(mp, "list comprehensions Dana")


# --- compaction -----------------------------------------------------------------------------------
_TOPICS = ["billing", "kubernetes", "lunch", "weather", "invoices", "python", "deploys"]
_PLACES = ["berlin", "lisbon", "oslo", "kyoto", "lima", "quito", "accra", "hanoi", "perth", "tunis", "cusco"]


def _note(i: int) -> dict[str, Any]:
    """Varied lengths, tags and types, so that a row mixed up with another shows in the signals."""
    return {
        "content": f"Note {i} about {_TOPICS[i % 7]} in {_PLACES[i % 11]}, code w{i}" + " ticket" * (i % 4),
        "tags": [_TOPICS[(i + 3) % 7]] if i % 5 == 1 else [],
        "type": "critical" if i % 8 == 3 else "episode",
    }


def test_many_removals_compact_a_bucket_and_keep_exact_signals(mp: MemoPilot) -> None:
    notes = mp.add_many([_note(i) for i in range(600)], project_id="big")
    wide = mp.add("User-wide note about billing in Oslo", project_id=None, type="episode")
    _load(mp)
    archived = [m for i, m in enumerate(notes) if i % 3 != 0]  # 400 of 600: past the compaction threshold
    for memory in archived:
        mp.archive(memory.id)
    live = {m.id for i, m in enumerate(notes) if i % 3 == 0} | {wide.id}

    query = "billing kubernetes Oslo lima ticket w3 w4 w5 w6"
    found = _search(mp, query, project_id="big")
    assert _ids(found) == live
    assert _keyword_hits(_search(mp, "w4 w5 w6 w9", project_id="big")) == {notes[6].id, notes[9].id}
    reference = _okapi_bm25(_in_scope(mp, USER, "big"), content_terms(query))
    assert _column(found, "bm25") == pytest.approx({i: r[0] for i, r in reference.items()}, rel=1e-6)
    _assert_index_matches_store(mp, query, project_id="big")

    # Rows appended and rewritten after the compaction are found like the others.
    mp.update(notes[0].id, content="Note zero moved to Reykjavik, code w0")
    added = mp.add("Note about invoices in Reykjavik, code w9999", project_id="big", type="episode")
    assert _keyword_hits(_search(mp, "Reykjavik", project_id="big")) == {notes[0].id, added.id}
    _assert_index_matches_store(mp, "Reykjavik invoices berlin w0 w9999", project_id="big")


# --- other engines' commits -------------------------------------------------------------------------
def test_commits_of_another_engine_on_the_same_database_are_seen(
    mp: MemoPilot, settings: Settings, embedder: StaticEmbedder, clock: FixedClock
) -> None:
    first = mp.add("The staging server is called kestrel", type="project")
    assert _ids(_search(mp, "server called")) == {first.id}  # loaded before the other engine writes
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as other:
        added = other.add("The wiki server is called osprey", type="project")
        other.archive(first.id)
    found = _search(mp, "server called osprey")
    assert _ids(found) == {added.id}
    assert _keyword_hits(found) == {added.id}
    _assert_index_matches_store(mp, "server called osprey kestrel")


# --- use counts -----------------------------------------------------------------------------------
def test_use_counts_in_the_index_equal_the_stores(mp: MemoPilot, clock: FixedClock) -> None:
    mp.add("I prefer dark mode in all editors", type="preference")
    mp.add("My editor is Neovim with the gruvbox theme", type="preference")
    mp.add("The cat's name is Miso", type="episode")
    first = mp.build_context("Which editor theme do I like?")
    clock.advance(minutes=5)
    second = mp.build_context("Which editor theme do I like?")
    mp.build_context("Which editor theme do I like?", record_usage=False)
    included = [i.memory_id for i in second.trace.included]
    assert included and included == [i.memory_id for i in first.trace.included]
    read = {memory_id: mp.get(memory_id) for memory_id in included}  # the engine's own read first
    stored = mp.store.get_many(included, user_id="local")
    for memory_id in included:
        indexed = mp.index.get(USER, memory_id)
        assert indexed is not None
        assert indexed.usage_count == read[memory_id].usage_count == stored[memory_id].usage_count == 2
        assert indexed.last_used_at == stored[memory_id].last_used_at == clock.now()
    _assert_index_matches_store(mp, "editor theme cat")


def test_a_load_reads_the_uses_written_beside_the_memory_rows(mp: MemoPilot, clock: FixedClock) -> None:
    """A whole user's load joins the memory_uses rows (one scan, not two lookups per row): a
    freshly loaded index gives every memory the counts and last-use times the store's other reads
    give, used or not, on both backends."""
    used = mp.add("I prefer dark mode in all editors", type="preference")
    unused = mp.add("The cat's name is Miso", type="fact")
    mp.build_context("Which editor theme do I like?")
    clock.advance(minutes=5)
    mp.build_context("Which editor theme do I like?")
    mp.flush_uses()  # into memory_uses, beside the rows (UsageBuffer)
    stored = mp.store.get_many([used.id, unused.id], user_id=USER)
    assert stored[used.id].usage_count == 2 and stored[unused.id].usage_count == 0
    fresh = MemoryIndex(mp.store)
    for memory_id in (used.id, unused.id):
        loaded = fresh.get(USER, memory_id)
        assert loaded is not None
        assert loaded.usage_count == stored[memory_id].usage_count
        assert loaded.last_used_at == stored[memory_id].last_used_at


# --- the score table ------------------------------------------------------------------------------
def _memory(**fields: Any) -> Memory:
    base: dict[str, Any] = {
        "user_id": "u",
        "content": "x",
        "type": MemoryType.PREFERENCE,
        "created_at": T0 - timedelta(days=3),
        "updated_at": T0,
        "project_id": "p",
    }
    return Memory(**(base | fields))


VARIED = [
    _memory(),
    _memory(type=MemoryType.CRITICAL, importance=0.95, usage_count=7, project_id=None),
    _memory(state=MemoryState.PINNED, privacy=Privacy.PRIVATE, project_id="q"),
    _memory(privacy=Privacy.SENSITIVE, expires_at=T0 - timedelta(minutes=1), usage_count=1),
    _memory(expires_at=T0 + timedelta(days=2), confidence=0.3, occurred_at=T0 - timedelta(days=40)),
    _memory(valid_to=T0 - timedelta(days=1), importance=0.1),
    _memory(valid_to=T0 + timedelta(days=1), type=MemoryType.EPISODE, occurred_at=T0 - timedelta(days=14)),
    _memory(type=MemoryType.OUTDATED, state=MemoryState.SUPERSEDED, usage_count=3),
    _memory(type=MemoryType.CRITICAL, tags=["consolidation-summary"], created_at=T0 + timedelta(days=1)),
]
SEMANTIC = [0.7, 1.4, -0.2, 0.0, 0.5, 0.33, 1.0, 0.9, 0.2]


_PRIVACY_PENALTY = {Privacy.NORMAL: 0.0, Privacy.PRIVATE: 0.5, Privacy.SENSITIVE: 1.0}


def _expected_components(memory: Memory, semantic: float, project_id: str | None) -> dict[str, float]:
    """SPEC section 2's components, written out here independently of the scorer."""
    age_days = max(0.0, (T0 - (memory.occurred_at or memory.created_at)).total_seconds() / 86_400)
    outdated = (
        memory.type is MemoryType.OUTDATED
        or (memory.valid_to is not None and memory.valid_to <= T0)
        or (memory.expires_at is not None and memory.expires_at <= T0)
    )
    critical = memory.type is MemoryType.CRITICAL and "consolidation-summary" not in memory.tags
    return {
        "semantic": min(1.0, max(0.0, semantic)),
        "importance": memory.importance,
        "recency": 0.5 ** (age_days / 14.0),
        "confidence": memory.confidence,
        "usage": memory.usage_count / (1 + memory.usage_count),
        "project_match": float(project_id is not None and memory.project_id == project_id),
        "critical_bonus": float(critical or memory.state is MemoryState.PINNED),
        "outdated_penalty": float(outdated),
        "privacy_penalty": _PRIVACY_PENALTY[memory.privacy],
        "superseded_penalty": float(memory.state is MemoryState.SUPERSEDED),
    }


@pytest.mark.parametrize("project_id", ["p", None])
def test_score_table_rows_equal_score_memory_and_the_formula(project_id: str | None) -> None:
    settings = Settings()
    table = ScoreTable.of_memories(VARIED, SEMANTIC, now=T0, project_id=project_id, settings=settings)
    assert len(table) == len(VARIED)
    for row, (memory, semantic) in enumerate(zip(VARIED, SEMANTIC, strict=True)):
        score = table.score(row)
        alone = score_memory(memory, semantic=semantic, now=T0, project_id=project_id, settings=settings)
        assert score.components == alone.components
        assert list(score.components) == list(COMPONENTS)
        assert score.components == pytest.approx(_expected_components(memory, semantic, project_id))
        assert score.final == pytest.approx(sum(score.contributions().values()), abs=1e-12)
        assert score.final == pytest.approx(alone.final, abs=1e-12)
        assert score.priority == (score.components["critical_bonus"] == 1.0)
        signed = {n: c * table.signed_weights[n] for n, c in score.components.items()}
        assert score.contributions() == pytest.approx(signed)


def test_score_table_with_no_rows() -> None:
    table = ScoreTable.of_memories([], [], now=T0, project_id="p", settings=Settings())
    assert len(table) == 0 and table.scores() == []


# --- stored traces --------------------------------------------------------------------------------
def test_stored_trace_reads_back_as_the_full_trace(mp: MemoPilot) -> None:
    mp.add("I prefer dark mode in all editors", type="preference", privacy="private")
    mp.add("Never force-push to main", type="critical")
    mp.add("The cat's name is Miso", type="episode")
    trace = mp.build_context("Which editor theme do I like?").trace
    assert trace.included and trace.skipped
    assert any(i.components["privacy_penalty"] > 0 for i in trace.included)  # a negative contribution
    stored = trace.to_stored()
    assert all(isinstance(i["components"], list) and "contributions" not in i for i in stored["included"])
    assert readable_trace(stored) == trace.to_dict()
    assert mp.get_trace(trace.id) == json.loads(json.dumps(trace.to_dict()))


def _old_form_trace() -> dict[str, Any]:
    components = dict.fromkeys(COMPONENTS, 0.5)
    item = {
        "memory_id": "m1",
        "type": "preference",
        "state": "active",
        "project_id": PROJECT,
        "included": True,
        "reason": "fits",
        "score": 0.42,
        "components": components,
        "contributions": {name: 0.1 for name in components},
        "dense": 0.5,
        "keyword": 0.0,
        "tokens": 9,
        "sources": ["dense"],
    }
    return {
        "id": "t-old",
        "user_id": USER,
        "project_id": PROJECT,
        "query": "old question",
        "created_at": T0.isoformat(),
        "budget_tokens": 100,
        "used_tokens": 9,
        "candidate_tokens": 9,
        "candidates_considered": 1,
        "included": [item],
        "skipped": [],
        "skipped_total": 0,
        "latency_ms": {},
        "maintenance": {},
        "session_id": None,
        "message_id": None,
        "turn": None,
    }


def test_traces_stored_in_the_old_form_read_back_unchanged(mp: MemoPilot) -> None:
    old = _old_form_trace()
    assert readable_trace(copy.deepcopy(old)) == old
    mp.store.commit(ChangeSet(traces=[copy.deepcopy(old)]))
    assert mp.get_trace("t-old") == old
    assert mp.traces()[0] == old


# --- the WAL checkpointer (SQLite) ----------------------------------------------------------------
def _wal_progress(db_path: str) -> tuple[int, int]:
    """(frames in the WAL, frames already copied back) as the -shm wal-index records them.

    Read from the file (layout: sqlite.org/walformat.html), not by running a checkpoint, which
    would itself copy the frames back.
    """
    header = Path(db_path + "-shm").read_bytes()[:100]
    (max_frame,) = struct.unpack_from("=I", header, 16)
    (backfilled,) = struct.unpack_from("=I", header, 96)
    return max_frame, backfilled


def _wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _write_a_lot(mp: MemoPilot) -> None:
    for i in range(150):
        mp.add(f"Note {i} about the {_TOPICS[i % 7]} plan", type="episode")
    for _ in range(150):
        mp.build_context("What is the billing plan?")


@pytest.mark.sqlite_only
def test_wal_is_checkpointed_soon_after_commits(mp: MemoPilot) -> None:
    db_path = sqlite_path_from_url(mp.store.url)
    _write_a_lot(mp)
    frames, _ = _wal_progress(db_path)
    assert frames > 0
    # No commit follows, so nothing but the checkpointer can copy the log back.
    assert _wait_for(lambda: (lambda f, b: f > 0 and b == f)(*_wal_progress(db_path)))


@pytest.mark.sqlite_only
def test_checkpoints_do_not_look_like_another_writer(mp: MemoPilot) -> None:
    memory = mp.add("Billing runs nightly", type="project")
    indexed = mp.index.get(USER, memory.id)
    _write_a_lot(mp)
    token = mp.store.change_token(USER)
    db_path = sqlite_path_from_url(mp.store.url)
    assert _wait_for(lambda: (lambda f, b: f > 0 and b == f)(*_wal_progress(db_path)))
    assert mp.store.change_token(USER) == token
    assert mp.index.get(USER, memory.id) is indexed  # not dropped and reloaded


@pytest.mark.sqlite_only
def test_closing_after_many_commits_leaves_a_consistent_file(
    settings: Settings, embedder: StaticEmbedder, clock: FixedClock
) -> None:
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as engine:
        db_path = sqlite_path_from_url(engine.store.url)
        _write_a_lot(engine)
    wal = Path(db_path + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # the last connection folded the log in
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("SELECT COUNT(*) FROM memories").fetchone() == (150,)
        assert conn.execute("SELECT COUNT(*) FROM traces").fetchone() == (150,)
    finally:
        conn.close()


# --- ownership of objects and buffered use counts ---------------------------------------------------
def test_callers_objects_are_not_the_indexs(mp: MemoPilot) -> None:
    _load(mp)
    added = mp.add("Dark mode in every editor", type="preference")
    mp.build_context("editor dark mode")
    assert added.usage_count == 0  # the caller's object is theirs: a use does not change it
    indexed = mp.index.get(USER, added.id)
    assert indexed is not None and indexed is not added and indexed.usage_count == 1
    added.content = "changed by the caller"
    assert mp.index.get(USER, added.id).content == "Dark mode in every editor"  # type: ignore[union-attr]


def test_buffered_uses_are_counted_once_across_a_write_of_the_same_memory(mp: MemoPilot) -> None:
    memory = mp.add("The kestrel service runs billing", type="project")
    for _ in range(3):
        mp.build_context("kestrel billing")
    mp.update(memory.id, importance=0.9)  # upserts the row (with the index's count) and flushes
    mp.build_context("kestrel billing")
    mp.flush_uses()
    stored = mp.store.get(memory.id, user_id=memory.user_id)
    assert stored is not None and stored.usage_count == 4 and stored.importance == 0.9
    assert mp.index.get(USER, memory.id).usage_count == 4  # type: ignore[union-attr]


def test_uses_pending_at_a_reload_are_added_to_what_the_store_holds(mp: MemoPilot) -> None:
    memory = mp.add("The kestrel service runs billing", type="project")
    mp.build_context("kestrel billing")
    mp.build_context("kestrel billing")
    mp.index.clear()  # as after another process's commit
    assert mp.index.get(USER, memory.id).usage_count == 2  # type: ignore[union-attr]
    mp.close()
    with MemoPilot.open(settings=mp.settings, embedder=mp.embedder) as reopened:
        assert reopened.get(memory.id).usage_count == 2  # closing wrote them


@pytest.mark.sqlite_only
def test_another_process_storing_traces_does_not_reload_the_index(mp: MemoPilot) -> None:
    memory = mp.add("Billing runs nightly", type="project")
    indexed = mp.index.get(USER, memory.id)
    with MemoPilot.open(settings=mp.settings, embedder=mp.embedder) as other:
        for _ in range(3):
            other.build_context("billing")  # stores traces and, on close, use counts
    assert mp.index.get(USER, memory.id) is indexed  # only memory changes make it reload
    loads = mp.index.stats().loads
    other_memory_writer = MemoPilot.open(settings=mp.settings, embedder=mp.embedder)
    with other_memory_writer:
        moved = other_memory_writer.add("Billing moved to the new cluster", type="project")
    assert mp.index.get(USER, moved.id) is not None  # a memory change is applied: that row alone
    assert mp.index.get(USER, memory.id) is indexed and mp.index.stats().loads == loads


def test_another_process_writing_for_another_user_syncs_only_that_user(mp: MemoPilot) -> None:
    mine = mp.add("Billing runs nightly", type="project")
    mp.add("Deploys go out on Tuesdays", type="project", user_id="bob")
    mp.build_context("billing")  # loads this user and finds when its next sweep is due
    indexed = mp.index.get(USER, mine.id)
    mp.search("deploys", user_id="bob")
    bobs = mp.index._users["bob"]
    assert USER in mp.sweeps._next  # the sweep schedule knows this user's next due moment
    with MemoPilot.open(settings=mp.settings, embedder=mp.embedder) as other:
        other.add("Deploys moved to Thursdays", type="project", user_id="bob")
    assert mp.index.get(USER, mine.id) is indexed  # untouched by bob's change
    assert USER in mp.sweeps._next  # and still does: bob's change is not this user's
    syncs = mp.index.stats().syncs
    found = {r.memory.content for r in mp.search("deploys", user_id="bob", k=10)}
    assert "Deploys moved to Thursdays" in found and mp.index._users["bob"] is bobs  # bob caught up
    assert mp.index.stats().syncs == syncs + 1
    with MemoPilot.open(settings=mp.settings, embedder=mp.embedder) as other:
        other.add("Billing moved to the new cluster", type="project")
        other.forget(mine.id)
    assert mp.index.get(USER, mine.id) is None  # this user's own changes apply: the Forget too
    assert "Billing moved to the new cluster" in {r.memory.content for r in mp.search("billing", k=10)}
    assert mp.index.stats().syncs == syncs + 2


def test_a_memory_write_waits_for_another_threads_batch_of_uses(
    settings: Settings, embedder: StaticEmbedder, clock: FixedClock
) -> None:
    settings = settings.model_copy(update={"usage_flush_reads": 1})  # every read writes its uses
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        memory = mp.add("The kestrel service runs billing", type="project")
        _load(mp)  # a warm read carries its due uses (a read that loads leaves them for later)
        in_flight, release = threading.Event(), threading.Event()
        commit = mp.store.commit

        def held(changes: ChangeSet) -> None:
            if changes.uses and changes.traces:  # the read's own commit, carrying the due uses
                in_flight.set()
                release.wait(10)
            commit(changes)

        mp.store.commit = held  # type: ignore[method-assign]
        reader = threading.Thread(target=lambda: mp.build_context("kestrel billing"))
        reader.start()
        assert in_flight.wait(10)
        writer = threading.Thread(target=lambda: mp.update(memory.id, importance=0.9))
        writer.start()
        writer.join(0.3)
        assert writer.is_alive()  # it waits until the batch of uses is in the store
        release.set()
        reader.join(10)
        writer.join(10)
        stored = mp.store.get(memory.id, user_id=memory.user_id)
        assert stored is not None and stored.usage_count == 1 and stored.importance == 0.9


def test_a_read_that_loads_its_user_leaves_a_due_batch_of_uses_to_a_warm_read(
    settings: Settings, embedder: StaticEmbedder, clock: FixedClock
) -> None:
    settings = settings.model_copy(update={"usage_flush_reads": 2, "usage_flush_seconds": 3600})
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        for user in ("ann", "bob", "cat", "dan"):
            mp.add("The kestrel service runs billing", type="project", user_id=user)
        carried: list[int] = []  # uses carried by each read's commit
        commit = mp.store.commit

        def counted(changes: ChangeSet) -> None:
            if changes.traces:
                carried.append(sum(u.count for u in changes.uses.values()))
            commit(changes)

        mp.store.commit = counted  # type: ignore[method-assign]
        mp.index.clear()
        mp.build_context("kestrel", user_id="ann")  # cold: loads ann (1 read of uses pending)
        mp.build_context("kestrel", user_id="bob")  # cold: 2 reads pending, due, but it loaded
        mp.build_context("kestrel", user_id="ann")  # warm: carries the batch
        assert carried == [0, 0, 3]
        mp.build_context("kestrel", user_id="bob")  # warm, 1 pending: not due
        mp.index.clear()
        mp.build_context("kestrel", user_id="cat")  # cold, 2 pending: waits
        mp.build_context("kestrel", user_id="dan")  # cold, 3 pending: waits
        assert carried[3:] == [0, 0, 0]
        mp.build_context("kestrel", user_id="ann")  # cold too, but twice the batch has gathered
        assert carried[6] == 4


def test_a_batch_of_uses_writes_narrow_rows_and_a_rewrite_moves_them_into_the_memory(mp: MemoPilot) -> None:
    memory = mp.add("The kestrel service runs billing", type="project")
    other = mp.add("Billing invoices go out on the first", type="project")
    for _ in range(3):
        mp.build_context("kestrel billing")
    mp.flush_uses()

    def raw() -> dict[str, tuple[int, int | None]]:  # memory id -> (the row's own count, memory_uses)
        rows = mp.store._query(  # type: ignore[attr-defined]
            "SELECT m.id, m.usage_count, u.use_count FROM memories m "
            "LEFT JOIN memory_uses u ON u.user_id = m.user_id AND u.memory_id = m.id"
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    assert raw() == {memory.id: (0, 3), other.id: (0, 3)}  # the memory rows were not rewritten
    assert (
        mp.get(memory.id).usage_count == 3
        and mp.store.get(memory.id, user_id=memory.user_id).last_used_at is not None
    )  # type: ignore[union-attr]
    mp.update(memory.id, importance=0.9)  # rewrites the row: its uses move into it, once
    assert raw() == {memory.id: (3, None), other.id: (0, 3)}
    mp.build_context("kestrel billing")
    mp.flush_uses()
    assert raw()[memory.id] == (3, 1)
    assert [mp.get(m.id).usage_count for m in (memory, other)] == [4, 4]
    with MemoPilot.open(settings=mp.settings, embedder=mp.embedder) as reopened:  # as the index loads
        assert reopened.search("kestrel billing")[0].memory.usage_count == 4


def test_a_vectors_only_commit_moves_the_owners_change_counter(mp: MemoPilot) -> None:
    mine = mp.add("Billing runs nightly", type="project")
    mp.add("Deploys go out on Tuesdays", type="project", user_id="bob")
    before = {user: mp.store.change_token(user) for user in (USER, "bob")}
    vector = mp.embed_texts(["Billing runs every night"])[0]
    mp.store.commit(ChangeSet(vectors={mine.id: vector}))  # as memopilot reembed writes them
    assert mp.store.change_token(USER) != before[USER]
    assert mp.store.change_token("bob") == before["bob"]


@hypothesis_settings(max_examples=60, deadline=None)
@given(
    loaded=st.lists(st.dictionaries(st.sampled_from("abcdefgh"), st.integers(1, 3), max_size=4), max_size=30),
    steps=st.lists(
        st.one_of(
            st.dictionaries(st.sampled_from("abcdefghij"), st.integers(1, 3), max_size=4),  # append a row
            st.frozensets(st.integers(0, 80)),  # drop these rows, then renumber (compaction)
        ),
        max_size=60,
    ),
)
def test_posting_table_answers_as_a_plain_term_map(
    loaded: list[dict[str, int]], steps: list[dict[str, int] | frozenset[int]]
) -> None:
    """The array-backed postings (a sorted part, an appended tail merged past its limit, rows
    renumbered when a bucket compacts) hold exactly what a dict of term -> {row: count} holds."""
    entries = [(term, row, count) for row, terms in enumerate(loaded) for term, count in terms.items()]
    names = sorted({term for term, _, _ in entries})
    table = _PostingTable.of(
        np.array([names.index(t) for t, _, _ in entries], dtype=np.int64),
        np.array([r for _, r, _ in entries], dtype=np.int32),
        np.array([c for _, _, c in entries], dtype=np.float32),
        names,
    )
    rows: list[dict[str, int]] = list(loaded)  # the model: row -> its terms
    with mock.patch.object(index_module, "_TAIL_ENTRIES", 5):  # merge the tail often
        _check_steps(table, rows, steps)


def _check_steps(table: _PostingTable, rows: list[dict[str, int]], steps: list[Any]) -> None:
    for step in steps:
        if isinstance(step, dict):
            table.add(len(rows), step)
            rows.append(step)
        else:
            kept = [r for r in range(len(rows)) if r not in step]
            new_row = np.full(max(len(rows), 1), -1, dtype=np.int64)
            new_row[kept] = np.arange(len(kept))
            table.renumber(new_row)
            rows = [rows[r] for r in kept]
            assert set(table.slot_of) <= {t for terms in rows for t in terms}  # emptied terms forgotten
        for term in "abcdefghijk":
            got_rows, got_counts = table.lookup(term)
            got = dict(zip(got_rows.tolist(), got_counts.tolist(), strict=True))
            assert got == {r: terms[term] for r, terms in enumerate(rows) if term in terms}


def _set_stored_terms(mp: MemoPilot, backend: str, memory_id: str, stored: str | None) -> None:
    """Overwrite a row's stored index terms behind the engine's back."""
    if backend == "sqlite":
        with sqlite3.connect(sqlite_path_from_url(mp.store.url)) as conn:
            conn.execute("UPDATE memories SET index_terms = ? WHERE id = ?", (stored, memory_id))
        return
    import psycopg

    with psycopg.connect("postgresql://" + mp.store.url.split("://", 1)[1], autocommit=True) as conn:
        conn.execute("UPDATE memories SET index_terms = %s WHERE id = %s", (stored, memory_id))


def test_a_load_reads_the_terms_each_row_stored_and_tokenizes_rows_without_them(
    mp: MemoPilot, backend: str
) -> None:
    kept = mp.add("The billing export runs nightly from the reports host.", type="project", tags=["finance"])
    old = mp.add("Deploys go through the staging cluster first.", type="project")
    batches = list(mp.store.context_memories(USER))
    stored = {m.id: t for b in batches for m, t in zip(b.memories, b.terms, strict=True)}
    assert stored[kept.id] == indexed_terms(kept)  # written with the row, as tokenizing counts them
    # What a load uses is what the row stored: a (tampered) stored word finds the memory...
    _set_stored_terms(mp, backend, kept.id, stored_index_terms("zanzibar", []))
    # ...while rows stored before this column existed, or under another tokenizer version, are
    # tokenized at load.
    _set_stored_terms(mp, backend, old.id, None)
    fresh = MemoryIndex(mp.store)
    assert _keyword_hits(_search(mp, "zanzibar", index=fresh)) == {kept.id}
    assert kept.id not in _keyword_hits(_search(mp, "billing export", index=fresh))
    assert old.id in _keyword_hits(_search(mp, "staging cluster", index=fresh))
    _set_stored_terms(mp, backend, old.id, "v0:" + stored_index_terms("zanzibar", []).split(":", 1)[1])
    assert old.id in _keyword_hits(_search(mp, "staging cluster", index=MemoryIndex(mp.store)))


def test_a_cold_load_reads_each_rows_facts_without_building_memories(mp: MemoPilot, clock) -> None:
    """A load keeps the rows and needs only their facts (ids, score fields, sizes): building a
    Memory per row was a third of a 1,000-memory user's first read. The facts read from a row equal
    the facts of the Memory decoded from it, for every kind of row (both backends)."""
    from memopilot.domain import SUMMARY_TAG, MemoryFacts
    from memopilot.read.index import MemoryIndex
    from memopilot.read.scorer import PRIORITY_FIELD, facts_score_fields, score_fields
    from memopilot.store import FactColumns

    made = [
        mp.add("We deploy on Fridays only after the freeze ends.", type="constraint", tags=["ops", "ß-tag"]),
        mp.add("Peanut allergy: never suggest peanuts.", type="critical"),
        mp.add("Summary of the critical notes.", type="critical", tags=[SUMMARY_TAG]),
        mp.add("Call the bank at nine.", type="temporary", expires_at=clock.now() + timedelta(days=1)),
        mp.add("The staging host was retired.", type="fact", occurred_at=clock.now() - timedelta(days=40)),
        mp.add("Pinned: the VPN config lives in the wiki.", type="project", privacy=Privacy.PRIVATE),
    ]
    mp.pin(made[-1].id)
    batches = list(mp.store.context_memories(USER))
    rows = [r for b in batches for r in b.rows]
    facts = FactColumns.concatenated([b.facts for b in batches if b.facts is not None])
    decode = batches[0].decode
    assert decode is not None and len(rows) == len(facts) == len(made)
    for i, row in enumerate(rows):
        assert facts.row(i) == MemoryFacts.of(decode(row))
    # the score fields read from the columns are those of the decoded memories, row by row
    by_rows = np.array([score_fields(decode(row)) for row in rows])
    assert np.array_equal(facts_score_fields(facts), by_rows)
    assert by_rows[:, PRIORITY_FIELD].sum() == 2  # the critical one and the pinned one, not the summary
    decoded: list[str] = []

    def counting(row):  # type: ignore[no-untyped-def]
        decoded.append(row[0])
        return decode(row)

    with mock.patch.object(type(mp.store), "context_memories", autospec=True) as loads:
        loads.side_effect = lambda store, user_id, *a, **k: [
            dataclasses.replace(b, memories=DecodedRows(b.rows, counting), decode=counting) for b in batches
        ]
        index = MemoryIndex(mp.store)
        assert index.holds(USER) is False
        found = index.get(USER, made[0].id)
    assert found is not None and found.content == made[0].content
    assert decoded == [made[0].id]  # the load decoded nothing; asking for one memory decoded it alone


# --- vectors in two parts (the blend) ---------------------------------------------------------------
class _TwoPartEmbedder(StaticEmbedder):
    """The static vector, then a second part that prefers the *last* memory of _TWO_PART: like the
    blend, whose fast leading part picks candidates and whose whole vector scores them."""

    fast_dims = StaticEmbedder().dim

    @property
    def dim(self) -> int:
        return 2 * super().dim

    def _embed(self, texts: list[str]) -> np.ndarray:
        fast = super()._embed(texts)
        second = np.zeros_like(fast)
        second[:, 0] = [3.0 if ("picnic" in t or "of the" in t) else 0.0 for t in texts]
        return np.hstack([fast, second])


_TWO_PART = [
    "The invoice for the Lisbon office is due Friday",
    "Lisbon weather was sunny",
    "A picnic in June",
]


def test_two_part_vectors_pick_candidates_by_their_fast_part_and_score_them_whole(
    settings: Settings, clock: FixedClock
) -> None:
    embedder = _TwoPartEmbedder()
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        stored = mp.add_many([{"content": c, "type": "fact"} for c in _TWO_PART])
        query = "invoice of the Lisbon office"
        vector = mp.embed_texts([query], queries=True)[0]
        whole = embedder.embed([m.content for m in stored]) @ vector
        fast = (
            whole
            - embedder.embed([m.content for m in stored])[:, embedder.fast_dims :]
            @ vector[embedder.fast_dims :]
        )
        found = mp.index.search(USER, PROJECT, vector, [], 1)  # one dense pick, no keyword terms
        best_fast = int(np.argmax(fast))
        assert [m.id for m in found.memories] == [stored[best_fast].id]  # picked by the fast part
        assert found.dense[0] == pytest.approx(whole[best_fast], abs=1e-5)  # scored whole
        assert int(np.argmax(whole)) == 2 and best_fast != 2  # the whole vector would have picked another
        everything = mp.index.search(USER, PROJECT, vector, [], EVERYTHING)
        assert np.allclose(
            everything.dense, [whole[[m.id for m in stored].index(m.id)] for m in everything.memories]
        )


def test_a_load_copies_each_projects_vectors_out_batch_by_batch() -> None:
    """A cold load fills each project's matrix from the store's batches one at a time and lets
    each batch's vectors go once copied (one copy of a user's vectors at a time, not three): the
    projects' matrices equal the joined matrix's rows, in order."""
    from memopilot.store.base import ContextMemories

    rng = np.random.default_rng(3)
    whole = rng.standard_normal((23, 4)).astype(np.float32)
    projects = [None, "a", "b", "a", None, "b", "b", "a"] * 3
    batches = [ContextMemories([], whole[i : i + 5].copy()) for i in range(0, 23, 5)]
    rows_of: dict[str | None, list[int]] = {}
    for row, project in enumerate(projects[:23]):
        rows_of.setdefault(project, []).append(row)
    matrices = index_module._project_matrices(batches, rows_of, 23)
    assert set(matrices) == {None, "a", "b"}
    for project, rows in rows_of.items():
        assert np.array_equal(matrices[project], whole[rows])
        assert matrices[project].flags.c_contiguous and matrices[project].dtype == np.float32
    assert all(b.matrix.size == 0 for b in batches)  # each batch's vectors were let go


# --- turns and typed memories pick their candidates apart ---------------------------------------
def test_typed_memories_do_not_push_the_turns_out_of_the_candidates(
    settings: Settings, embedder: StaticEmbedder, clock: FixedClock
) -> None:
    """Typed memories taken from a conversation sit near its turns for a question; each kind has
    its own limit by cosine and by BM25, so the turns stay candidates however many typed memories
    crowd the same question (a loaded user, and one written row by row, alike)."""
    typed = [f"The Lisbon office invoice is due on Friday, note {i}" for i in range(6)]
    turns = [
        "Caroline: the invoice for our Lisbon office has to be paid by Friday",
        "Mel: nice weather today",
    ]
    question = "when is the Lisbon office invoice due"
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        mp.add_many([{"content": c, "type": "deadline"} for c in typed])
        episodes = mp.add_many([{"content": c, "type": "episode"} for c in turns])
        vector = mp.embed_texts([question], queries=True)[0]
        terms = list(content_terms(question))
        for fresh in (False, True):
            if fresh:
                mp.index.clear()  # the same user loaded whole from the store
            found = mp.index.search(USER, PROJECT, vector, terms, 2)
            picked = {m.id for m in found.memories}
            assert episodes[0].id in picked  # the turn about the invoice is a candidate
            assert sum(m.type is MemoryType.EPISODE for m in found.memories) <= 2 * 2
            assert 2 <= sum(m.type is MemoryType.DEADLINE for m in found.memories) <= 2 * 2
