from __future__ import annotations

from datetime import timedelta

import pytest

from memopilot import Memory, MemoryState, MemoryType, Privacy, Settings
from memopilot.read.scorer import COMPONENTS, recency, score_memory, usage

from .conftest import T0


def _memory(**kw: object) -> Memory:
    base = dict(
        user_id="u",
        content="x",
        type=MemoryType.PREFERENCE,
        created_at=T0,
        updated_at=T0,
        importance=0.5,
        confidence=0.8,
        project_id="p",
    )
    base.update(kw)
    return Memory(**base)  # type: ignore[arg-type]


def test_formula_with_default_weights() -> None:
    m = _memory(importance=0.6, confidence=0.9, usage_count=1, created_at=T0 - timedelta(days=14))
    s = score_memory(m, semantic=0.7, now=T0, project_id="p", settings=Settings())
    expected = 0.40 * 0.7 + 0.20 * 0.6 + 0.15 * 0.5 + 0.10 * 0.9 + 0.10 * 0.5 + 0.15 * 1.0
    assert s.final == pytest.approx(expected)
    assert set(s.components) == set(COMPONENTS)
    assert sum(s.contributions().values()) == pytest.approx(s.final)


def test_half_life_is_fourteen_days() -> None:
    assert recency(T0, T0, 14) == 1.0
    assert recency(T0 - timedelta(days=14), T0, 14) == pytest.approx(0.5)
    assert recency(T0 - timedelta(days=28), T0, 14) == pytest.approx(0.25)
    m = _memory(created_at=T0 - timedelta(days=14))
    assert score_memory(m, semantic=0, now=T0, project_id="p", settings=Settings()).components[
        "recency"
    ] == pytest.approx(0.5)


def test_recency_counts_from_occurred_at() -> None:
    m = _memory(created_at=T0, occurred_at=T0 - timedelta(days=7))
    s = score_memory(m, semantic=0, now=T0, project_id="p", settings=Settings())
    assert s.components["recency"] == pytest.approx(0.5**0.5)


def test_usage_has_diminishing_returns() -> None:
    assert usage(0) == 0.0
    assert usage(1) == pytest.approx(0.5)
    assert usage(3) == pytest.approx(0.75)
    assert usage(1000) < 1.0


@pytest.mark.parametrize(
    ("privacy", "penalty"), [(Privacy.NORMAL, 0.0), (Privacy.PRIVATE, 0.5), (Privacy.SENSITIVE, 1.0)]
)
def test_privacy_penalty(privacy: Privacy, penalty: float) -> None:
    s = score_memory(_memory(privacy=privacy), semantic=0.5, now=T0, project_id="p", settings=Settings())
    assert s.components["privacy_penalty"] == penalty
    assert s.contributions()["privacy_penalty"] == pytest.approx(-0.25 * penalty)


def test_project_match_and_critical_bonus() -> None:
    settings = Settings()
    other = score_memory(_memory(project_id="q"), semantic=0.5, now=T0, project_id="p", settings=settings)
    wide = score_memory(_memory(project_id=None), semantic=0.5, now=T0, project_id="p", settings=settings)
    same = score_memory(_memory(), semantic=0.5, now=T0, project_id="p", settings=settings)
    assert (other.components["project_match"], wide.components["project_match"]) == (0.0, 0.0)
    assert same.final - wide.final == pytest.approx(0.15)
    critical = score_memory(
        _memory(type=MemoryType.CRITICAL), semantic=0.5, now=T0, project_id="p", settings=settings
    )
    pinned = score_memory(
        _memory(state=MemoryState.PINNED), semantic=0.5, now=T0, project_id="p", settings=settings
    )
    assert critical.components["critical_bonus"] == pinned.components["critical_bonus"] == 1.0
    assert critical.final - same.final == pytest.approx(0.20)
    assert critical.priority and pinned.priority and not same.priority


def test_penalties_for_outdated_and_superseded() -> None:
    settings = Settings()
    base = score_memory(_memory(), semantic=0.5, now=T0, project_id="p", settings=settings).final
    for kw in (
        {"type": MemoryType.OUTDATED},
        {"valid_to": T0 - timedelta(seconds=1)},
        {"expires_at": T0 - timedelta(hours=1)},
    ):
        s = score_memory(_memory(**kw), semantic=0.5, now=T0, project_id="p", settings=settings)
        assert s.components["outdated_penalty"] == 1.0, kw
    superseded = score_memory(
        _memory(state=MemoryState.SUPERSEDED), semantic=0.5, now=T0, project_id="p", settings=settings
    )
    assert superseded.final == pytest.approx(base - 0.5)
    future = score_memory(
        _memory(expires_at=T0 + timedelta(days=1)), semantic=0.5, now=T0, project_id="p", settings=settings
    )
    assert future.components["outdated_penalty"] == 0.0


def test_weights_come_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMOPILOT_WEIGHT_SEMANTIC", "1.0")
    monkeypatch.setenv("MEMOPILOT_RECENCY_HALF_LIFE_DAYS", "7")
    settings = Settings.load()
    m = _memory(created_at=T0 - timedelta(days=7))
    s = score_memory(m, semantic=0.5, now=T0, project_id="p", settings=settings)
    assert s.weights["semantic"] == 1.0
    assert s.components["recency"] == pytest.approx(0.5)


def test_sort_key_puts_priority_first() -> None:
    settings = Settings()
    strong = score_memory(_memory(importance=1.0), semantic=1.0, now=T0, project_id="p", settings=settings)
    weak_pin = score_memory(
        _memory(state=MemoryState.PINNED, importance=0.0, confidence=0.0),
        semantic=0.0,
        now=T0 - timedelta(days=0),
        project_id="q",
        settings=settings,
    )
    assert weak_pin.final < strong.final
    assert sorted([strong, weak_pin], key=lambda s: s.sort_key())[0] is weak_pin
