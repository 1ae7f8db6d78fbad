"""The learned judgement applied after the write returns (engine/later_judgements.py): the same
changes as a write that judges at once, never seen half done, drained on close, and robust."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memopilot import MemoPilot, MemoryState
from memopilot.clock import FixedClock
from memopilot.embedding import StaticEmbedder
from memopilot.engine.later_judgements import LaterJudgements
from memopilot.settings import Settings
from memopilot.write.planner import LaterJudgement
from memopilot.write.update_judge import default_judge

pytestmark = pytest.mark.skipif(
    default_judge() is None or not default_judge().reads_with_e5,  # type: ignore[union-attr]
    reason="only a judgement that reads e5 is left for later",
)

CAR = "I drive a 2012 Honda Civic, silver, with a dent in the back door."
NEW_CAR = "We finally bought a Skoda Octavia estate. The old Civic went to my nephew."
# a user's messages, some of which change earlier ones in words only the learned judgement reads
MESSAGES = [
    CAR,
    "I like jazz music.",
    "My GP is Dr. Okafor at the Elm Park surgery.",
    NEW_CAR,
    "I go to the gym on Monday mornings.",
    "I switched practices after the move. I'm registered with Dr. Lindqvist at Riverside Health now.",
    "I started climbing twice a week too.",
    "J'habite à Bordeaux, près de la gare.",
    "En fait, on a déménagé à Nantes le mois dernier, on est sur l'île de Nantes maintenant.",
]


def _open(db: Path, clock: FixedClock, *, judge_later: bool) -> MemoPilot:
    settings = Settings.load(database_url=f"sqlite:///{db}")
    return MemoPilot.open(settings=settings, embedder=StaticEmbedder(), clock=clock, judge_later=judge_later)


def _states(mp: MemoPilot) -> dict[tuple[str, str], str]:
    states = [s.value for s in MemoryState]
    return {(m.type.value, m.content): m.state.value for m in mp.list(states=states, limit=500).items}


def test_a_write_returns_before_the_judgement_and_every_read_waits_for_it(
    tmp_path: Path, clock: FixedClock
) -> None:
    with _open(tmp_path / "later.db", clock, judge_later=True) as mp:
        (car,) = mp.remember(CAR).created
        outcome = mp.remember(NEW_CAR)
        assert outcome.judged_later and outcome.superseded == []
        assert outcome.summary()["judged_later"] is True
        # the next read waits for the judgement: the old car is superseded, with its reason
        assert mp.get(car.id).state is MemoryState.SUPERSEDED
        last = mp.history(car.id)[-1]
        assert last.details.get("rule") == "learned" and "learned judgement" in last.reason
        context = mp.build_context("What make and model is my car?").text
        assert "Skoda" in context and "2012 Honda" not in context
        assert mp.later_judgements.pending() == 0


def test_judging_later_leaves_what_judging_at_once_leaves(tmp_path: Path, clock: FixedClock) -> None:
    results = []
    for judge_later in (False, True):
        with _open(tmp_path / f"{judge_later}.db", clock, judge_later=judge_later) as mp:
            outcomes = [mp.remember(message) for message in MESSAGES]
            results.append((_states(mp), [o.judged_later for o in outcomes]))
    (at_once, never_later), (later, judged_later) = results
    assert not any(never_later) and any(judged_later)
    assert later == at_once
    assert at_once[("fact", CAR)] == "superseded"  # the run did change what it should


def test_a_memory_changed_meanwhile_is_judged_as_it_is_now(
    tmp_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judgement reads the memories it names when it runs: if the message's own memory was
    forgotten in between, its news is stale and nothing is superseded."""
    with _open(tmp_path / "x.db", clock, judge_later=True) as mp:
        (car,) = mp.remember(CAR).created
        queued: list[tuple[str, LaterJudgement]] = []
        monkeypatch.setattr(mp.later_judgements, "submit", lambda user, j: queued.append((user, j)))
        outcome = mp.remember(NEW_CAR)
        assert len(queued) == 1 and queued[0][1].news == tuple(m.id for m in outcome.created)
        mp.forget(outcome.created[0].id)
        mp._apply_later_judgement(*queued[0])
        assert mp.get(car.id).state is MemoryState.ACTIVE
        # and with the message's memory in place, the same judgement does supersede
        outcome = mp.remember(NEW_CAR)
        mp._apply_later_judgement(*queued[-1])
        assert mp.get(car.id).state is MemoryState.SUPERSEDED


def test_closing_applies_what_is_queued(tmp_path: Path, clock: FixedClock) -> None:
    with _open(tmp_path / "x.db", clock, judge_later=True) as mp:
        (car,) = mp.remember(CAR).created
        assert mp.remember(NEW_CAR).judged_later
    with _open(tmp_path / "x.db", clock, judge_later=True) as mp:
        assert mp.get(car.id).state is MemoryState.SUPERSEDED


def _job(text: str) -> LaterJudgement:
    return LaterJudgement(text, (), (), (), (), FixedClock().now(), "editor:rules")


def test_a_failing_judgement_does_not_stop_the_ones_behind_it() -> None:
    applied: list[str] = []

    def apply(user: str, job: LaterJudgement) -> None:
        if job.text == "bad":
            raise RuntimeError("the store is busy")
        applied.append(f"{user}:{job.text}")

    queue = LaterJudgements(apply)
    queue.submit("ana", _job("bad"))
    queue.submit("ana", _job("good"))
    assert queue.settle("ana", timeout=5) is True
    assert applied == ["ana:good"] and queue.pending() == 0
    queue.close(drain_seconds=1)
    with pytest.raises(RuntimeError):
        queue.submit("ana", _job("late"))


def test_settle_waits_for_the_users_own_judgements_only() -> None:
    release = threading.Event()
    applied: list[str] = []

    def apply(user: str, job: LaterJudgement) -> None:
        release.wait(5)
        applied.append(user)

    queue = LaterJudgements(apply)
    queue.submit("ana", _job("slow"))
    assert queue.settle("ana", timeout=0.05) is False  # still being applied
    assert queue.settle("bo", timeout=0.05) is True  # bo has nothing queued
    assert queue.pending("ana") == 1 and queue.pending() == 1
    release.set()
    assert queue.settle(timeout=5) is True and applied == ["ana"]
    queue.close(drain_seconds=1)


def test_closing_drops_what_does_not_fit_in_time() -> None:
    started, release = threading.Event(), threading.Event()
    applied: list[str] = []

    def apply(user: str, job: LaterJudgement) -> None:
        started.set()
        release.wait(5)
        applied.append(job.text)

    queue = LaterJudgements(apply)
    queue.submit("ana", _job("one"))
    queue.submit("ana", _job("two"))
    assert started.wait(5)  # "one" is being applied, "two" waits behind it
    queue.close(drain_seconds=0.05)
    assert queue.pending() == 0
    release.set()
    assert queue._thread is not None
    queue._thread.join(5)
    assert applied == ["one"]  # the one under way finished; the queued one was dropped
