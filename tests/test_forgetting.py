"""SPEC section 6 with a fixed clock: expiry, archiving rules, never deleting."""

from __future__ import annotations

from datetime import timedelta

from memopilot import MemoPilot, MemoryState


def _state(mp: MemoPilot, memory_id: str) -> MemoryState:
    return mp.get(memory_id).state


def test_expiry_at_expires_at(mp: MemoPilot, clock) -> None:
    note = mp.add(
        "For today only, answer in French", type="temporary", expires_at=clock.now() + timedelta(days=1)
    )
    deadline = mp.add("Report due Friday", type="deadline", expires_at=clock.now() + timedelta(days=3))
    clock.advance(hours=23)
    assert mp.run_forgetting().expired == []
    clock.advance(hours=1)
    assert mp.run_forgetting().expired == [note.id]
    assert _state(mp, note.id) is MemoryState.EXPIRED and _state(mp, deadline.id) is MemoryState.ACTIVE
    clock.advance(days=2)
    assert mp.run_forgetting().expired == [deadline.id]
    event = mp.history(note.id)[-1]
    assert (event.kind.value, event.details["to_state"]) == ("expired", "expired")
    assert mp.run_forgetting().expired == []  # idempotent


def test_archive_after_30_days_only_for_unused_low_importance(mp: MemoPilot, clock) -> None:
    low = mp.add("Mentioned the garden fence once", type="task", importance=0.2)
    important = mp.add("Uses Kubernetes at work", type="project", importance=0.35)
    used = mp.add("Likes a podcast about history", type="preference", importance=0.2)
    critical = mp.add("Allergic to peanuts", type="critical", importance=0.1)
    episode = mp.add("We talked about the weather", type="episode", importance=0.1)
    pinned = mp.add("Minor pinned note", type="task", importance=0.1)
    mp.pin(pinned.id)
    mp.build_context("Which podcast about history do I like?")
    assert mp.get(used.id).usage_count == 1

    clock.advance(days=29, hours=23)
    assert mp.run_forgetting().archived == []
    clock.advance(hours=1)
    report = mp.run_forgetting()
    assert report.archived == [low.id]
    assert _state(mp, low.id) is MemoryState.ARCHIVED
    for kept in (important, used, critical, episode):
        assert _state(mp, kept.id) is MemoryState.ACTIVE
    assert _state(mp, pinned.id) is MemoryState.PINNED
    assert mp.history(low.id)[-1].reason.startswith("unused for 30 days")
    # nothing is ever deleted by the sweep
    assert mp.get(low.id).content == "Mentioned the garden fence once"
    assert mp.run_forgetting().archived == []


def test_reading_runs_the_sweep(mp: MemoPilot, clock) -> None:
    note = mp.add("Today I work from the cafe", type="temporary", expires_at=clock.now() + timedelta(hours=8))
    clock.advance(hours=9)
    result = mp.build_context("Where do I work today?")
    assert "cafe" not in result.text
    assert _state(mp, note.id) is MemoryState.EXPIRED


def test_sweep_covers_every_user_when_asked(mp: MemoPilot, clock) -> None:
    a = mp.add("Temp A", type="temporary", user_id="a", expires_at=clock.now())
    b = mp.add("Temp B", type="temporary", user_id="b", expires_at=clock.now())
    assert sorted(mp.run_forgetting(user_id="a").expired) == [a.id]
    assert mp.run_forgetting().expired == [b.id]


def test_restoring_an_expired_memory_clears_its_expiry(mp: MemoPilot, clock) -> None:
    note = mp.add(
        "Use the blue theme this week", type="temporary", expires_at=clock.now() + timedelta(days=7)
    )
    clock.advance(days=8)
    mp.run_forgetting()
    restored = mp.restore(note.id)
    assert restored.state is MemoryState.ACTIVE and restored.expires_at is None
    assert mp.run_forgetting().expired == []


def test_a_first_read_with_nothing_due_asks_for_the_moment_and_sweeps_nothing(
    settings, embedder, clock, monkeypatch
) -> None:
    """A process reading a user for the first time asks the store when the next sweep could
    find something (one query) and sweeps only once that moment has come."""
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as writer:
        note = writer.add(
            "Today I work from the cafe", type="temporary", expires_at=clock.now() + timedelta(hours=8)
        )
        writer.add("Likes green tea", type="preference")
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as reader:
        swept: list[str] = []
        real_sweep = reader.run_forgetting
        monkeypatch.setattr(
            reader, "run_forgetting", lambda **kw: swept.append(kw["user_id"]) or real_sweep(**kw)
        )
        assert "cafe" in reader.build_context("Where do I work today?").text
        assert swept == []  # nothing due: no sweep, and no write of the uses before one
        clock.advance(hours=9)
        assert "cafe" not in reader.build_context("Where do I work today?").text
        assert len(swept) == 1 and _state(reader, note.id) is MemoryState.EXPIRED


def test_a_first_read_takes_its_sweep_moment_from_the_load(settings, embedder, clock, monkeypatch) -> None:
    """A cold read loads its user before the sweep and learns the next sweep's moment from the
    loaded rows: no forgetting_horizon query, and the moment is right (whether it has come before
    the first read or comes later)."""
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as writer:
        cafe = writer.add(
            "Today I work from the cafe", type="temporary", expires_at=clock.now() + timedelta(hours=1)
        )
        level = writer.add(
            "This week I park on level 3", type="temporary", expires_at=clock.now() + timedelta(days=3)
        )
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as reader:
        asked: list[str] = []
        real_horizon = reader.store.forgetting_horizon
        monkeypatch.setattr(
            reader.store,
            "forgetting_horizon",
            lambda user, below: asked.append(user) or real_horizon(user, below),
        )
        assert "cafe" in reader.build_context("Where do I work today?").text
        assert asked == []  # the moment came with the load
        clock.advance(hours=2)
        assert "cafe" not in reader.build_context("Where do I work today?").text
        assert _state(reader, cafe.id) is MemoryState.EXPIRED
    clock.advance(days=3)  # the parking note is due before this process's first read
    with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as reader:
        assert "level 3" not in reader.build_context("Where do I park?").text
        assert _state(reader, level.id) is MemoryState.EXPIRED


def test_the_horizon_of_loaded_rows_is_the_stores(mp: MemoPilot, clock) -> None:
    """forgetting.horizon_of (from a load) answers what the store's forgetting_horizon query does."""
    from memopilot.engine import forgetting

    below = mp.settings.archive_importance_below
    assert forgetting.horizon_of(mp.index._load("someone")[1], below) == (None, None)
    soon = clock.now() + timedelta(days=2)
    mp.add("Exam on Monday", type="deadline", expires_at=soon + timedelta(days=1), importance=0.9)
    pinned = mp.add("Parking permit until Sunday", type="temporary", expires_at=soon, importance=0.1)
    mp.pin(pinned.id)  # pinned: neither expires nor is archived automatically
    clock.advance(days=1)
    mp.add("Minor note about the fence", type="task", importance=0.1)
    mp.add("Peanut allergy", type="critical", importance=0.1)
    mp.add("We talked about the weather", type="episode", importance=0.1)
    clock.advance(days=1)
    read = mp.add("Likes a podcast about history", type="preference", importance=0.1)
    mp.build_context("Which podcast about history do I like?")
    mp.flush_uses()
    assert mp.get(read.id).usage_count == 1  # used: no longer archivable
    ours = forgetting.horizon_of(mp.index._load(read.user_id)[1], below)
    assert ours == mp.store.forgetting_horizon(read.user_id, below)
    assert ours[0] == soon + timedelta(days=1) and ours[1] == clock.now() - timedelta(days=1)


def test_a_turn_that_told_only_a_passing_state_expires_with_it(mp: MemoPilot, clock) -> None:
    """What the turn asked the assistant beside its news is not more said: the turn would
    otherwise present the stay as current in every later context."""
    stay = mp.remember(
        "I'm staying at my brother's place in Drennick for the next two weeks while my flat gets "
        "new floors. Where can I find decent coffee around there?"
    )
    (note,) = stay.created
    (turn,) = stay.episodes
    assert note.type.value == "temporary" and turn.expires_at == note.expires_at
    clock.advance(days=15)
    report = mp.run_forgetting()
    assert set(report.expired) == {note.id, turn.id}
    assert _state(mp, turn.id) is MemoryState.EXPIRED
    assert "Drennick" not in mp.build_context("Recommend a coworking space near me").text


def test_a_turn_that_told_more_or_no_end_stays(mp: MemoPilot, clock) -> None:
    """What a turn told beside its temporary note that a lasting memory holds stays when the note
    ends (the turn is parted); a turn whose end the editor guessed ("for now": a week) stays whole.
    (What no memory holds is the passing state's story and ends with it: a preference the judgement
    is not sure enough of as a second memory, "General thing about how I travel: I always want a
    window seat" at 0.899 against 0.9, ends with the in-laws' stay, a cost of that rule.)"""
    more = mp.remember(
        "My in-laws are staying with us this week. For flights, I always book a window seat and "
        "avoid layovers."
    )
    guessed = mp.remember("Physio says my left knee can't take running on tarmac for now.")
    clock.advance(days=30)
    mp.run_forgetting()
    context = mp.build_context("Book me a flight to Lisbon: what should you know about how I travel?").text
    assert "window seat" in context and "in-laws" not in context
    assert [_state(mp, t.id) for t in guessed.episodes] == [MemoryState.ACTIVE]
    assert any(_state(mp, t.id) is MemoryState.ACTIVE for t in more.episodes)
