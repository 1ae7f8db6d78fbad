"""SPEC section 8: merge at >= 0.82, promote once, one summary per type, idempotent."""

from __future__ import annotations

import pytest

from memopilot import MemoPilot, MemoryState
from memopilot.domain import SUMMARY_TAG
from memopilot.text import text_ratio

BASE = "I prefer using pytest with fixtures for every test suite"


def test_merge_threshold_is_0_82(mp: MemoPilot) -> None:
    near = "I prefer using pytest with fixtures for all test suites"
    far = "I prefer unittest classes for the legacy code base"
    assert text_ratio(BASE, near) >= 0.82 > text_ratio(BASE, far)
    a = mp.add(BASE, type="preference", importance=0.6)
    b = mp.add(near, type="preference", importance=0.7)
    c = mp.add(far, type="preference")
    mp.store.record_usage([a.id], mp.clock.now())
    report = mp.reflect()
    assert len(report.merged) == 1
    merge = report.merged[0]
    assert merge["survivor"] == b.id and merge["archived"] == [a.id]
    survivor, gone = mp.get(b.id), mp.get(a.id)
    assert survivor.importance == pytest.approx(0.75) and survivor.usage_count == 1
    assert gone.state is MemoryState.ARCHIVED and gone.content == BASE  # archived, not deleted
    assert mp.get(c.id).state is MemoryState.ACTIVE
    assert mp.history(a.id)[-1].details["merged_into"] == b.id


def test_ratio_just_below_threshold_does_not_merge(mp: MemoPilot, settings) -> None:
    strict = settings.model_copy(update={"reflect_merge_ratio": 0.99})
    mp.settings = strict
    mp.add(BASE, type="preference")
    mp.add("I prefer using pytest with fixtures for all test suites", type="preference")
    assert mp.reflect().merged == []


def test_different_types_and_episodes_never_merge(mp: MemoPilot) -> None:
    mp.add(BASE, type="preference")
    mp.add(BASE, type="decision")
    mp.add("We talked about pytest fixtures today", type="episode")
    mp.add("We talked about pytest fixtures today", type="episode")
    assert mp.reflect().merged == []


def test_critical_and_pinned_duplicates_are_never_archived(mp: MemoPilot) -> None:
    a = mp.add("Never push directly to the main branch", type="critical")
    b = mp.add("Never push directly to the main branch!", type="critical")
    assert mp.reflect().merged == []
    assert mp.get(a.id).state is mp.get(b.id).state is MemoryState.ACTIVE


def test_promotion_happens_once(mp: MemoPilot) -> None:
    m = mp.add("I like concise answers", type="preference", importance=0.5)
    once = mp.add("I use a standing desk", type="preference", importance=0.5)
    mp.store.record_usage([m.id, m.id, once.id], mp.clock.now())
    first = mp.reflect()
    assert first.promoted == [m.id]
    assert mp.get(m.id).importance == pytest.approx(0.6)
    mp.store.record_usage([m.id], mp.clock.now())
    assert mp.reflect().promoted == []
    assert mp.get(m.id).importance == pytest.approx(0.6)


def test_one_summary_per_type_with_three_or_more(mp: MemoPilot) -> None:
    prefs = [
        mp.add(t, type="preference").id for t in ("I like tea", "I prefer dark mode", "I enjoy jazz music")
    ]
    mp.add("Finish the report", type="task")
    mp.add("Review the PR", type="task")
    for _ in range(3):
        mp.add("A conversation turn", type="episode")
    report = mp.reflect()
    assert [s["type"] for s in report.summaries_created] == ["preference"]
    summary = mp.get(report.summaries_created[0]["id"])
    assert SUMMARY_TAG in summary.tags and sorted(summary.source_ids) == sorted(prefs)
    assert summary.content.startswith("Summary of 3 preference memories")
    assert mp.history(summary.id)[0].kind.value == "summary_created"


def test_second_run_with_nothing_new_changes_nothing(mp: MemoPilot) -> None:
    for t in ("I like tea", "I like tea!", "I prefer dark mode", "I enjoy jazz music", "I like hiking"):
        mp.add(t, type="preference")
    m = mp.list().items[0]
    mp.store.record_usage([m.id, m.id], mp.clock.now())
    first = mp.reflect()
    assert first.changed
    events_before = len(mp.timeline(limit=1000))
    snapshot = {x.id: x for x in mp.list(limit=1000).items}
    second = mp.reflect()
    assert not second.changed
    assert len(mp.timeline(limit=1000)) == events_before
    assert {x.id: x for x in mp.list(limit=1000).items} == snapshot


def test_summary_refreshes_when_sources_change_and_retires_below_three(mp: MemoPilot) -> None:
    ids = [
        mp.add(t, type="preference").id for t in ("I like tea", "I prefer dark mode", "I enjoy jazz music")
    ]
    summary_id = mp.reflect().summaries_created[0]["id"]
    new = mp.add("I cycle to work", type="preference")
    refreshed = mp.reflect()
    assert refreshed.summaries_created == []
    assert sorted(refreshed.summaries_refreshed[0]["source_ids"]) == sorted([*ids, new.id])
    mp.archive(ids[0])
    mp.archive(ids[1])
    retired = mp.reflect()
    assert retired.summaries_retired == [summary_id]
    assert mp.get(summary_id).state is MemoryState.ARCHIVED
    assert not mp.reflect().changed


def test_summaries_are_per_project_scope(mp: MemoPilot) -> None:
    for project in ("a", "b"):
        for t in ("I like tea", "I prefer dark mode", "I enjoy jazz music"):
            mp.add(f"{t} ({project})", type="preference", project_id=project)
    assert len(mp.reflect(project_id="a").summaries_created) == 1
    assert len(mp.reflect(project_id="b").summaries_created) == 1
    assert not mp.reflect(project_id="a").changed


def test_reflect_reaches_the_user_wide_memories_the_project_sees(mp: MemoPilot) -> None:
    wide = [
        mp.add(t, type="preference", project_id=None).id
        for t in ("I like tea", "I prefer dark mode", "I enjoy jazz music")
    ]
    mp.store.record_usage([wide[0]], mp.clock.now())
    mp.store.record_usage([wide[0]], mp.clock.now())
    assert not mp.reflect(include_user_wide=False).changed  # the project alone has nothing
    report = mp.reflect()  # project "default" and the user-wide scope it sees
    assert report.promoted == [wide[0]]
    created = report.summaries_created
    assert len(created) == 1 and sorted(created[0]["source_ids"]) == sorted(wide)
    assert mp.get(created[0]["id"]).project_id is None  # the summary stays in its own scope
    assert not mp.reflect().changed


def test_boosted_importance_is_stored_rounded(mp: MemoPilot) -> None:
    m = mp.add("I like concise answers", type="preference", importance=0.7)
    mp.store.record_usage([m.id], mp.clock.now())
    mp.store.record_usage([m.id], mp.clock.now())
    assert mp.reflect().promoted == [m.id]
    assert mp.get(m.id).importance == 0.8  # not 0.7999999999999999
    assert mp.history(m.id)[-1].details["importance"] == 0.8
