"""SPEC section 8: deterministic consolidation ("reflect"). Pure planning, no I/O.

Over one scope (a user's project, or their user-wide memories):
1. Merge near-duplicates of the same type (SequenceMatcher ratio >= 0.82): the
   strongest survives, the others are archived (never deleted), and the survivor's
   importance and usage are boosted. Episodes are evidence and never merged; critical
   and pinned memories are never the ones archived.
2. Promote memories used at least twice by raising their importance, once each.
3. For each type with at least 3 active memories, keep one summary memory tagged
   ``consolidation-summary`` that lists its sources (ids and text): created once,
   refreshed only when its sources change, retired when fewer than 3 remain.

A second run with nothing new plans nothing: merged memories are archived,
promotions are stamped with ``promoted_at``, and summaries compare their sources.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher

from ..domain import SUMMARY_TAG, Memory, MemoryState, MemoryType
from ..settings import Settings

__all__ = ["Merge", "ReflectionPlan", "plan_reflection", "summary_content"]

_SUMMARY_ITEM_CHARS = 90
_SUMMARY_MAX_ITEMS = 12


@dataclass(slots=True)
class Merge:
    survivor: Memory  # already boosted
    archived: list[Memory]  # already in state archived
    ratio: float


@dataclass(slots=True)
class ReflectionPlan:
    merges: list[Merge] = field(default_factory=list)
    promotions: list[Memory] = field(default_factory=list)
    summaries_created: list[Memory] = field(default_factory=list)
    summaries_refreshed: list[Memory] = field(default_factory=list)
    summaries_retired: list[Memory] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(
            self.merges
            or self.promotions
            or self.summaries_created
            or self.summaries_refreshed
            or self.summaries_retired
        )


def plan_reflection(
    memories: Sequence[Memory],
    existing_summaries: Sequence[Memory],
    *,
    user_id: str,
    project_id: str | None,
    now: datetime,
    settings: Settings,
) -> ReflectionPlan:
    """Plan one consolidation pass over the active and pinned ``memories`` of one scope.

    ``existing_summaries``: this scope's summary memories in any state but deleted.
    """
    plan = ReflectionPlan()
    live = {m.id: m for m in memories if m.in_context_state and not m.is_summary}
    for merge in _plan_merges(list(live.values()), now, settings):
        plan.merges.append(merge)
        live[merge.survivor.id] = merge.survivor
        for gone in merge.archived:
            live.pop(gone.id, None)
    for memory in sorted(live.values(), key=_stable):
        if memory.usage_count >= settings.reflect_promote_usage and memory.promoted_at is None:
            promoted = memory.copy(
                importance=_boosted(memory.importance, settings.reflect_promote_boost),
                promoted_at=now,
                updated_at=now,
            )
            live[memory.id] = promoted
            plan.promotions.append(promoted)
    _plan_summaries(plan, list(live.values()), existing_summaries, user_id, project_id, now, settings)
    return plan


def _boosted(importance: float, boost: float) -> float:
    """Raised, capped at 1, and rounded: 0.7 + 0.1 is stored and shown as 0.8, not 0.7999999999999999."""
    return round(min(1.0, importance + boost), 6)


def _stable(memory: Memory) -> tuple[datetime, str]:
    return (memory.created_at, memory.id)


def _strength(memory: Memory) -> tuple[bool, float, int, float, datetime, str]:
    protected = memory.is_critical or memory.state is MemoryState.PINNED
    return (protected, memory.importance, memory.usage_count, memory.confidence, memory.created_at, memory.id)


def _plan_merges(memories: list[Memory], now: datetime, settings: Settings) -> list[Merge]:
    by_type: dict[MemoryType, list[Memory]] = defaultdict(list)
    for memory in sorted(memories, key=_stable):
        if memory.type is not MemoryType.EPISODE:
            by_type[memory.type].append(memory)
    merges: list[Merge] = []
    for group in by_type.values():
        for cluster, ratio in _clusters(group, settings.reflect_merge_ratio):
            merge = _merge(cluster, ratio, now, settings)
            if merge is not None:
                merges.append(merge)
    return merges


def _clusters(group: list[Memory], threshold: float) -> list[tuple[list[Memory], float]]:
    """Connected groups of memories whose pairwise text ratio reaches ``threshold``."""
    parent = list(range(len(group)))
    best: dict[int, float] = {}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    texts = [m.content.lower() for m in group]
    for i in range(len(group)):
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(texts[i])
        for j in range(i + 1, len(group)):
            if not _could_match(len(texts[i]), len(texts[j]), threshold):
                continue
            matcher.set_seq1(texts[j])
            if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
                continue
            ratio = matcher.ratio()
            if ratio >= threshold:
                a, b = find(i), find(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
                root = find(i)
                best[root] = max(best.get(root, 0.0), ratio)
    members: dict[int, list[Memory]] = defaultdict(list)
    for i, memory in enumerate(group):
        members[find(i)].append(memory)
    return [(ms, best.get(root, threshold)) for root, ms in sorted(members.items()) if len(ms) > 1]


def _could_match(len_a: int, len_b: int, threshold: float) -> bool:
    """ratio <= 2*min/(len_a+len_b): skip pairs whose lengths alone rule a match out."""
    total = len_a + len_b
    return total > 0 and 2.0 * min(len_a, len_b) / total >= threshold


def _merge(cluster: list[Memory], ratio: float, now: datetime, settings: Settings) -> Merge | None:
    survivor = max(cluster, key=_strength)
    archived = [
        m.copy(state=MemoryState.ARCHIVED, updated_at=now)
        for m in cluster
        if m is not survivor and not m.is_critical and m.state is not MemoryState.PINNED
    ]
    if not archived:
        return None
    boosted = survivor.copy(
        importance=_boosted(max(m.importance for m in cluster), settings.reflect_merge_boost),
        usage_count=survivor.usage_count + sum(m.usage_count for m in archived),
        updated_at=now,
    )
    return Merge(boosted, archived, ratio)


def summary_content(memory_type: MemoryType, sources: Sequence[Memory]) -> str:
    """The deterministic text of a summary: a count and the sources' text, oldest first."""
    items = [_clip(m.content) for m in sources[:_SUMMARY_MAX_ITEMS]]
    more = len(sources) - len(items)
    listed = "; ".join(items) + (f"; and {more} more" if more > 0 else "")
    label = memory_type.value.replace("_", " ")
    return f"Summary of {len(sources)} {label} memories: {listed}"


def _clip(text: str) -> str:
    text = " ".join(text.split()).rstrip(".;")  # items are joined with "; "
    return text if len(text) <= _SUMMARY_ITEM_CHARS else text[: _SUMMARY_ITEM_CHARS - 1].rstrip() + "…"


def _plan_summaries(
    plan: ReflectionPlan,
    live: Iterable[Memory],
    existing: Sequence[Memory],
    user_id: str,
    project_id: str | None,
    now: datetime,
    settings: Settings,
) -> None:
    by_type: dict[MemoryType, list[Memory]] = defaultdict(list)
    for memory in sorted(live, key=_stable):
        if memory.type is not MemoryType.EPISODE:
            by_type[memory.type].append(memory)
    current = {s.type: s for s in sorted(existing, key=_stable)}
    for memory_type in sorted(set(by_type) | set(current), key=lambda t: t.value):
        sources = by_type.get(memory_type, [])
        summary = current.get(memory_type)
        if len(sources) >= settings.reflect_summary_min:
            _keep_summary(plan, memory_type, sources, summary, user_id, project_id, now)
        elif summary is not None and summary.in_context_state:
            plan.summaries_retired.append(summary.copy(state=MemoryState.ARCHIVED, updated_at=now))


def _keep_summary(
    plan: ReflectionPlan,
    memory_type: MemoryType,
    sources: list[Memory],
    summary: Memory | None,
    user_id: str,
    project_id: str | None,
    now: datetime,
) -> None:
    source_ids = [m.id for m in sources]
    content = summary_content(memory_type, sources)
    if summary is None:
        plan.summaries_created.append(
            Memory(
                user_id=user_id,
                project_id=project_id,
                type=memory_type,
                content=content,
                tags=[SUMMARY_TAG],
                importance=0.4,
                confidence=1.0,
                created_at=now,
                updated_at=now,
                occurred_at=now,
                source_ids=source_ids,
            )
        )
    elif summary.source_ids != source_ids or summary.content != content:
        plan.summaries_refreshed.append(
            summary.copy(
                content=content,
                source_ids=source_ids,
                state=MemoryState.ACTIVE,
                updated_at=now,
                occurred_at=now,
            )
        )
