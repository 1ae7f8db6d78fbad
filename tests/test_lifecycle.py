"""States, events and the user's Forget, on every backend with the real embedder."""

from __future__ import annotations

import pytest

from memopilot import (
    ConflictError,
    EventKind,
    InvalidInputError,
    MemoPilot,
    MemoryState,
    NotFoundError,
)


def _kinds(mp: MemoPilot, memory_id: str) -> list[str]:
    return [e.kind.value for e in mp.history(memory_id)]


def test_add_stores_record_fields_and_created_event(mp: MemoPilot) -> None:
    m = mp.add(
        "User speaks German at home",
        type="episode",
        session_id="s1",
        message_id="m7",
        tags=["language"],
        project_id=None,
    )
    stored = mp.get(m.id)
    assert stored == m
    assert (stored.session_id, stored.message_id, stored.project_id) == ("s1", "m7", None)
    assert stored.importance == pytest.approx(0.3)
    assert _kinds(mp, m.id) == ["created"]


def test_state_changes_write_events_in_order(mp: MemoPilot, clock) -> None:
    m = mp.add("Use black for formatting", type="preference")
    for step in (mp.pin, mp.unpin, mp.archive, mp.restore):
        clock.advance(minutes=1)
        step(m.id)
    assert _kinds(mp, m.id) == ["created", "pinned", "unpinned", "archived", "restored"]
    events = mp.history(m.id)
    assert [e.at for e in events] == sorted(e.at for e in events)
    assert events[1].details == {"from_state": "active", "to_state": "pinned"}
    assert mp.get(m.id).state is MemoryState.ACTIVE


def test_repeating_a_state_change_is_a_no_op(mp: MemoPilot) -> None:
    m = mp.add("Prefers vim", type="preference")
    mp.pin(m.id)
    mp.pin(m.id)
    assert _kinds(mp, m.id) == ["created", "pinned"]


def test_set_state_accepts_only_user_states(mp: MemoPilot) -> None:
    m = mp.add("Prefers vim", type="preference")
    assert mp.set_state(m.id, "pinned").state is MemoryState.PINNED
    assert mp.set_state(m.id, "archived").state is MemoryState.ARCHIVED
    assert mp.set_state(m.id, "active").state is MemoryState.ACTIVE
    with pytest.raises(InvalidInputError):
        mp.set_state(m.id, "expired")
    with pytest.raises(InvalidInputError, match="unknown state"):
        mp.set_state(m.id, "sleeping")


def test_update_changes_content_reembeds_and_records_before_after(mp: MemoPilot) -> None:
    m = mp.add("The API runs on port 8000", type="project")
    before = mp.store.vectors_of([m.id])[m.id]
    updated = mp.update(m.id, content="The API runs on port 9000", importance=0.9)
    after = mp.store.vectors_of([m.id])[m.id]
    assert updated.content.endswith("9000") and updated.importance == 0.9
    assert not (before == after).all()
    event = mp.history(m.id)[-1]
    assert event.kind is EventKind.UPDATED
    assert event.details["before"]["content"].endswith("8000")
    assert event.details["fields"] == ["content", "importance"]


def test_supersede_keeps_both_and_links_them(mp: MemoPilot) -> None:
    old = mp.add("We use MySQL", type="decision")
    new = mp.add("We switched to PostgreSQL", type="decision")
    mp.supersede(old.id, new.id)
    old_now, new_now = mp.get(old.id), mp.get(new.id)
    assert old_now.state is MemoryState.SUPERSEDED and old_now.superseded_by == new.id
    assert old_now.valid_to is not None and new_now.supersedes == old.id
    assert _kinds(mp, old.id)[-1] == "superseded"


def test_critical_memories_are_never_superseded_automatically(mp: MemoPilot) -> None:
    critical = mp.add("Never deploy on Fridays", type="critical")
    new = mp.add("Deploy any day", type="decision")
    with pytest.raises(ConflictError, match="critical"):
        mp.supersede(critical.id, new.id, actor="system")
    assert mp.get(critical.id).state is MemoryState.ACTIVE
    mp.supersede(critical.id, new.id, actor="user")  # the user may
    assert mp.get(critical.id).state is MemoryState.SUPERSEDED


def test_another_users_memory_is_not_found_and_unchanged(mp: MemoPilot) -> None:
    m = mp.add("Alice's secret plan", type="project", user_id="alice")
    for action in (mp.get, mp.pin, mp.archive, mp.forget, mp.history):
        with pytest.raises(NotFoundError):
            action(m.id, user_id="bob")
    assert mp.get(m.id, user_id="alice").content == "Alice's secret plan"
    assert [e.kind.value for e in mp.history(m.id, user_id="alice")] == ["created"]


def test_forgotten_memory_cannot_be_edited(mp: MemoPilot) -> None:
    m = mp.add("temporary thing", type="task")
    mp.forget(m.id)
    with pytest.raises(ConflictError):
        mp.update(m.id, content="again")
    with pytest.raises(ConflictError):
        mp.restore(m.id)
    assert mp.forget(m.id).state is MemoryState.DELETED  # forgetting twice is harmless


def test_forget_leaves_content_free_tombstone_and_no_bytes_on_disk(mp: MemoPilot, storage) -> None:
    secret = "Zanzibarquux is my childhood nickname"
    keep = mp.add("I like green tea", type="preference")
    m = mp.add(secret, type="preference", tags=["nickname-qwertyzz"])
    mp.update(m.id, content=secret + " and Plumbobvex too")  # the old text sits in an event
    mp.build_context("what is my nickname?")  # the memory appears in a trace
    tombstone = mp.forget(m.id)

    assert tombstone.state is MemoryState.DELETED
    assert (tombstone.content, tombstone.tags) == ("", [])
    assert mp.store.vectors_of([m.id]) == {}
    history = mp.history(m.id)
    assert history[-1].kind is EventKind.DELETED
    for event in history:
        text = repr(event.to_dict()).lower()
        assert "zanzibarquux" not in text and "plumbobvex" not in text
    assert mp.get(keep.id).content == "I like green tea"

    raw = storage()  # SQLite: the file and WAL bytes; PostgreSQL: every row and heap tuple version
    for needle in (b"Zanzibarquux", b"zanzibarquux", b"Plumbobvex", b"plumbobvex", b"qwertyzz"):
        assert needle not in raw, needle
    assert b"green tea" in raw  # the scan does see stored text


def test_forget_rewrites_summaries_that_listed_it(mp: MemoPilot) -> None:
    ids = [
        mp.add(text, type="preference").id
        for text in (
            "I like hiking in the Alps",
            "I prefer espresso",
            "I enjoy Quuxberry jam",
            "I read sci-fi novels",
        )
    ]
    report = mp.reflect()
    summary_id = report.summaries_created[0]["id"]
    assert "Quuxberry" in mp.get(summary_id).content
    mp.forget(ids[2])
    summary = mp.get(summary_id)
    assert "Quuxberry" not in summary.content and ids[2] not in summary.source_ids
    assert len(summary.source_ids) == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"type": "wish"}, "unknown memory type"),
        ({"importance": 1.5}, "importance"),
        ({"importance": -0.1}, "importance"),
        ({"confidence": float("nan")}, "confidence"),
        ({"content": "   "}, "empty"),
        ({"content": "x" * 8001}, "limit is 8000"),
        ({"state": "deleted"}, "active, pinned or archived"),
        ({"privacy": "secret"}, "unknown privacy"),
        ({"tags": "one-string"}, "list"),
        ({"user_id": ""}, "user_id"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(mp: MemoPilot, kwargs: dict, message: str) -> None:
    existing = mp.add("I like green tea", type="preference")
    args = {"content": "valid text", "type": "preference"} | kwargs
    content = args.pop("content")
    with pytest.raises(InvalidInputError, match=message):
        mp.add(content, **args)
    assert mp.list().total == 1
    assert mp.timeline() == mp.history(existing.id)
