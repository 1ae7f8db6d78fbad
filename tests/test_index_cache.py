"""The bounded index cache (MEMOPILOT_INDEX_CACHE_MB): what it holds, what it drops, and that a
dropped user reads exactly as before, under concurrent reads and writes too."""

from __future__ import annotations

import gc
import random
import threading
import tracemalloc
from collections.abc import Iterator
from unittest import mock

import pytest

from memopilot import MemoPilot, Memory, Settings
from memopilot.embedding import StaticEmbedder, make_embedder
from memopilot.read.index import MemoryIndex
from memopilot.text import content_terms

TOPICS = ["billing", "search", "deploys", "onboarding", "metrics", "backups", "alerts", "invoices"]


def _fill(mp: MemoPilot, user_id: str, count: int) -> None:
    mp.add_many(
        [
            {
                "content": f"The {TOPICS[i % len(TOPICS)]} service {i} of {user_id} runs on host h{i}.",
                "type": "project",
            }
            for i in range(count)
        ],
        user_id=user_id,
    )


def _ids(mp: MemoPilot, user_id: str, query: str) -> list[str]:
    return [r.memory.id for r in mp.search(query, user_id=user_id, k=5)]


@pytest.fixture
def capped(settings: Settings, embedder: StaticEmbedder, clock) -> Iterator[MemoPilot]:
    """An engine whose cache holds about three users of 60 memories."""
    probe = MemoPilot.open(settings=settings, embedder=embedder, clock=clock)
    _fill(probe, "probe", 60)
    probe.search("billing", user_id="probe")
    one_user = probe.index.stats().held_bytes
    probe.close()
    capped_settings = settings.model_copy(update={"index_cache_mb": 3.5 * one_user / 2**20})
    engine = MemoPilot.open(settings=capped_settings, embedder=embedder, clock=clock)
    yield engine
    engine.close()


def test_the_cache_stays_under_its_cap_and_a_dropped_user_reads_as_before(capped: MemoPilot) -> None:
    users = [f"user{i}" for i in range(10)]
    for user in users:
        _fill(capped, user, 60)
    first = {user: _ids(capped, user, "which host runs billing") for user in users}
    stats = capped.index.stats()
    assert 0 < stats.held_bytes <= stats.cap_bytes
    assert stats.users == 3 and stats.evictions >= 7
    assert len(capped.sweeps) <= 10
    # The oldest users were dropped; reading them again reloads them with the same answers.
    again = {user: _ids(capped, user, "which host runs billing") for user in users}
    assert again == first
    assert capped.index.stats().loads >= stats.loads + 7


def test_the_most_recently_read_users_are_the_ones_kept(capped: MemoPilot) -> None:
    for user in ("a", "b", "c", "d"):
        _fill(capped, user, 60)
    for user in ("a", "b", "c"):
        capped.search("billing", user_id=user)
    capped.search("billing", user_id="a")  # a is now the most recent
    loads = capped.index.stats().loads
    capped.search("billing", user_id="d")  # pushes out b, the least recently read
    capped.search("billing", user_id="a")
    capped.search("billing", user_id="c")
    assert capped.index.stats().loads == loads + 1  # only d was loaded
    capped.search("billing", user_id="b")
    assert capped.index.stats().loads == loads + 2


def test_a_read_asks_the_store_for_its_change_token_once(mp: MemoPilot, capped: MemoPilot) -> None:
    """One read of the user's change token serves the index and the sweep schedule: a held user's
    read and a cold user's first read each make one; a user larger than the cap is loaded once
    per read (served, not kept), not once for the sweep and again for the ranking."""
    _fill(mp, "tokened", 50)
    asked: list[str] = []
    real = mp.store.change_token
    with mock.patch.object(mp.store, "change_token", lambda user: asked.append(user) or real(user)):
        mp.index.clear()
        assert "host h3" in mp.build_context("which host runs service 3", user_id="tokened").text
        assert asked == ["tokened"]  # cold: the load, the sweep schedule and the search share it
        mp.build_context("which host runs service 4", user_id="tokened")
        assert asked == ["tokened", "tokened"]  # warm: one more
    _fill(capped, "huge", 400)
    loads = capped.index.stats().loads
    assert "host h7" in capped.build_context("which host runs service 7", user_id="huge").text
    assert capped.index.stats().loads == loads + 1 and "huge" not in capped.index._users


def test_an_index_newer_than_the_callers_token_is_not_reloaded(mp: MemoPilot) -> None:
    """A read's token may be older than the index it then searches (this process committed for the
    user in between, as another thread's write does): the index already shows that state."""
    _fill(mp, "ahead", 30)
    mp.search("billing", user_id="ahead")
    read_before = mp.store.change_token("ahead")
    added = mp.add("The heron cluster now serves billing.", type="project", user_id="ahead")
    loads = mp.index.stats().loads
    vector = mp.embed_texts(["heron cluster"], queries=True)[0]
    found = mp.index.search(
        "ahead", added.project_id, vector, content_terms("heron cluster"), 10, read_before
    )
    assert added.id in {m.id for m in found.memories} and mp.index.stats().loads == loads


def test_a_user_larger_than_the_cap_is_served_and_not_kept(capped: MemoPilot) -> None:
    _fill(capped, "big", 400)
    _fill(capped, "small", 20)
    capped.search("billing", user_id="small")
    results = capped.search("which host runs service 7", user_id="big", k=3)
    assert results and results[0].memory.user_id == "big"
    stats = capped.index.stats()
    assert stats.oversized >= 1 and stats.held_bytes <= stats.cap_bytes
    assert "big" not in capped.index._users and "small" in capped.index._users
    context = capped.build_context("which host runs service 7", user_id="big")
    assert "host h7" in context.text


def test_writes_to_a_held_user_count_against_the_cap(capped: MemoPilot) -> None:
    _fill(capped, "grows", 30)
    capped.search("billing", user_id="grows")
    before = capped.index.stats().held_bytes
    _fill(capped, "grows", 30)
    after = capped.index.stats()
    assert after.held_bytes > before and after.held_bytes <= after.cap_bytes
    assert "grows" in capped.index._users  # applied in place, not reloaded
    assert capped.index.stats().loads == after.loads


def test_a_read_counts_its_uses_in_its_own_users_index_only(mp: MemoPilot) -> None:
    """A read's uses are counted in the reader's index, not looked up in every held user's: with
    the cache full that was 50,000 lookups per read (half a cold read's time in the bench)."""
    for user in ("reader", "other-1", "other-2"):
        mp.add(f"{user} keeps the release notes in the wiki.", type="project", user_id=user)
        mp.build_context("where are the release notes?", user_id=user)  # held now
    visited: list[int] = []
    original = MemoryIndex._count

    def counting(index, memory_id, count, used_at):  # type: ignore[no-untyped-def]
        visited.append(id(index))
        return original(index, memory_id, count, used_at)

    with mock.patch.object(MemoryIndex, "_count", staticmethod(counting)):
        context = mp.build_context("where are the release notes?", user_id="reader")
    assert context.trace.included and len(set(visited)) == 1
    assert len(visited) == len(context.trace.included)
    used = mp.index.get("reader", context.trace.included[0].memory_id)
    assert used is not None and used.usage_count == 2  # the index saw both reads' uses


def test_accounting_matches_what_the_index_really_allocates(mp: MemoPilot) -> None:
    _fill(mp, "measured", 2000)
    mp.index._load("measured")  # fills the process-wide (bounded) word caches first: not the index's
    tracemalloc.start()
    try:
        index, facts = mp.index._load("measured")
        del facts  # what the load hands the sweep schedule, not kept by the index
        allocated, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0.8 * allocated <= index.nbytes() <= 1.25 * allocated, (index.nbytes(), allocated)


def test_eviction_and_reload_under_concurrent_reads_and_writes(capped: MemoPilot) -> None:
    users = [f"c{i}" for i in range(8)]
    for user in users:
        _fill(capped, user, 40)
    errors: list[BaseException] = []
    written: list[tuple[str, str, str]] = []  # user, word, memory id
    lock = threading.Lock()

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(60):
                user = rng.choice(users)
                results = capped.search("which host runs deploys", user_id=user, k=3)
                assert results and all(r.memory.user_id == user for r in results)
        except BaseException as exc:
            errors.append(exc)

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for n in range(15):
                user = rng.choice(users)
                word = f"zephyr{seed}x{n}"
                memory = capped.add(f"The {word} cluster belongs to {user}.", type="project", user_id=user)
                with lock:
                    written.append((user, word, memory.id))
                # read-your-writes, whether the user is held, dropped or being reloaded
                assert memory.id in _ids(capped, user, f"{word} cluster")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(3)]
    threads += [threading.Thread(target=writer, args=(100 + i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == []
    stats = capped.index.stats()
    assert stats.held_bytes <= stats.cap_bytes and stats.evictions > 0
    for user, word, memory_id in written:
        assert memory_id in _ids(capped, user, f"{word} cluster")


_OTHER_PROCESS = """
import sys
from memopilot import MemoPilot, Settings
url, user, forget_id = sys.argv[1:4]
with MemoPilot.open(settings=Settings.load(database_url=url), llm=None) as other:
    other.add("The kestrel cluster now serves billing.", type="project", user_id=user)
    other.forget(forget_id, user_id=user)
"""


def test_another_process_changes_reach_a_held_user_without_a_reload(
    settings: Settings, embedder: StaticEmbedder, clock
) -> None:
    """Two real processes on one database: the writes of one reach the other's held index as the
    rows changed (no reload), and a Forget stops the other serving the content at its next read."""
    import os
    import subprocess
    import sys
    import time

    embedder_name = "static"
    assert type(embedder) is type(make_embedder(Settings(embedder=embedder_name)))
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
        _fill(mp, "shared", 300)
        secret = mp.add("The falcon cluster runs billing.", type="project", user_id="shared")
        assert "falcon" in mp.build_context("Which cluster runs billing?", user_id="shared").text
        before = mp.index.stats()
        held = mp.index._users["shared"]
        done = subprocess.run(
            [sys.executable, "-c", _OTHER_PROCESS, settings.database_url, "shared", secret.id],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "MEMOPILOT_EMBEDDER": embedder_name},  # the model this process uses
        )
        assert done.returncode == 0, done.stderr
        committed = time.monotonic()
        context = mp.build_context("Which cluster runs billing?", user_id="shared")
        served_after = time.monotonic() - committed
        assert "falcon" not in context.text and "kestrel" in context.text
        assert served_after < 1.0  # the very next read, well within a second
        after = mp.index.stats()
        assert after.syncs == before.syncs + 1 and after.loads == before.loads  # rows applied, no reload
        assert mp.index._users["shared"] is held


def test_a_write_of_ones_own_never_hides_another_process_write_before_it(
    mp: MemoPilot, settings: Settings, embedder: StaticEmbedder
) -> None:
    """Another process commits, then this one: the counter moved by two, so this process must not
    take the new counter as its own and skip the other's rows (it did, before: found by the
    scale-out script, where a memory written through one server never showed on another)."""
    mp.add("The falcon cluster runs billing.", type="project")
    mp.search("falcon")  # held
    mp.build_context("falcon")  # and its sweep schedule known
    with MemoPilot.open(settings=settings, embedder=embedder) as other:
        theirs = other.add("The osprey cluster runs search.", type="project")
    mine = mp.add("The kestrel cluster runs deploys.", type="project")
    assert theirs.id in _ids(mp, "local", "osprey cluster")
    assert mine.id in _ids(mp, "local", "kestrel cluster")
    assert mp.index.stats().syncs >= 1


def test_a_loaded_user_keeps_rows_the_gc_does_not_track_until_a_read_gathers_them(mp: MemoPilot) -> None:
    """The garbage collector's full passes cost about 1.5 µs per Memory object held: a loaded
    user is kept as its stored rows, and only the memories a read gathers become objects."""
    _fill(mp, "rows", 300)
    fresh = MemoryIndex(mp.store)
    vector = mp.embed_texts(["which host runs billing"])[0]
    found = fresh.search("rows", "default", vector, content_terms("which host runs billing"), 5)
    gc.collect()
    held = [m for bucket in fresh._users["rows"].buckets.values() for m in bucket.memories]
    assert len(held) == 300
    assert 0 < len(found.memories) <= 15
    assert sum(gc.is_tracked(m) for m in held) == len(found.memories)  # the gathered ones only
    assert all(isinstance(m, Memory) and m.user_id == "rows" for m in found.memories)
    again = fresh.search("rows", "default", vector, content_terms("which host runs billing"), 5)
    assert [m.id for m in again.memories] == [m.id for m in found.memories]
    assert all(a is b for a, b in zip(again.memories, found.memories, strict=True))  # decoded once


def test_tuning_a_serving_process_freezes_start_up_objects_and_spaces_full_collections() -> None:
    import subprocess
    import sys

    code = (
        "import gc; from memopilot.read.index import tune_gc_for_serving; tune_gc_for_serving(); "
        "print(gc.get_threshold()[2], gc.get_freeze_count())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    every, frozen = map(int, out.split())
    assert every == 100 and frozen > 1000


def test_process_wide_text_caches_are_bounded_and_small_beside_the_index_cap() -> None:
    """Caches keyed by a memory's text outlive the users the index drops (they keep the texts
    alive), so what they may hold is part of a process's fixed base: at most 49,152 texts in all
    (about 14 MB). A cache of 131,072 line counts keyed by the content once grew a serving process
    by 25 MB over 20,000 reads after its index cache had filled."""
    import memopilot.quoting as quoting
    import memopilot.read.context as context

    text_keyed = {
        function
        for module in (context, quoting)
        for function in vars(module).values()
        if hasattr(function, "cache_info") and "content" in function.__wrapped__.__code__.co_varnames
    }
    assert text_keyed, "expected the token-count caches of memory texts"
    assert all(f.cache_parameters()["maxsize"] is not None for f in text_keyed)
    assert sum(f.cache_parameters()["maxsize"] for f in text_keyed) <= 49_152


def test_a_large_load_returns_the_allocators_free_memory(mp: MemoPilot) -> None:
    """Loading a user of 500 memories or more ends with a malloc_trim (the fetched rows and
    decoded vectors were freed a moment ago); smaller loads skip it (it costs about 1.5 ms)."""
    from memopilot.read import index as index_module

    _fill(mp, "large", 520)
    _fill(mp, "small", 20)
    mp.index.clear()
    with mock.patch.object(index_module, "release_free_heap") as trim:
        mp.search("billing", user_id="small")
        assert trim.call_count == 0
        mp.search("billing", user_id="large")
        assert trim.call_count == 1
    index_module.release_free_heap()  # and calling it for real is harmless
