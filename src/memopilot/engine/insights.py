"""Read-only views over a user's memories: the memory graph and analytics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ..domain import EventKind, Memory, MemoryState, MemoryType
from ..read.tokens import count_tokens
from ..store import MemoryQuery, Store

__all__ = ["build_analytics", "build_graph"]

_RELATED_MIN_COSINE = 0.55
_RELATED_PER_NODE = 3
_LABEL_CHARS = 60


def build_graph(
    store: Store,
    *,
    user_id: str,
    project_id: str | None,
    limit: int,
    similarities: Callable[[np.ndarray], np.ndarray] | None = None,
) -> dict[str, Any]:
    """Nodes (memories, summaries as star nodes) and edges: supersedes, summarizes, merged_into, related.
    ``similarities``: stored vectors' pairwise similarities on the scorer's scale (the embedder's
    :meth:`~memopilot.embedding.Embedder.similarities`; plain cosines when None), so that the related
    floor means the same similarity whatever model made the vectors."""
    shown_states = frozenset(
        {MemoryState.ACTIVE, MemoryState.PINNED, MemoryState.SUPERSEDED, MemoryState.ARCHIVED}
    )
    memories, _ = store.list_memories(
        MemoryQuery(
            user_id=user_id,
            project_id=project_id,
            all_projects=project_id is None,
            states=shown_states,
            limit=max(1, limit),
        )
    )
    ids = {m.id for m in memories}
    nodes = [_node(m) for m in memories]
    edges: list[dict[str, Any]] = []
    for m in memories:
        if m.supersedes in ids:
            edges.append({"source": m.id, "target": m.supersedes, "kind": "supersedes"})
        if m.is_summary:
            edges += [{"source": m.id, "target": s, "kind": "summarizes"} for s in m.source_ids if s in ids]
    for event in store.timeline(user_id, None, [EventKind.MERGED.value], limit=10_000):
        for gone in event.details.get("merged", []):
            if gone in ids and event.memory_id in ids:
                edges.append({"source": gone, "target": event.memory_id, "kind": "merged_into"})
    related = [m for m in memories if m.in_context_state and not m.is_summary]
    edges += _related_edges(store, related, similarities or (lambda matrix: matrix @ matrix.T))
    return {"nodes": nodes, "edges": edges}


def _node(memory: Memory) -> dict[str, Any]:
    label = (
        memory.content if len(memory.content) <= _LABEL_CHARS else memory.content[: _LABEL_CHARS - 1] + "…"
    )
    return {
        "id": memory.id,
        "label": label,
        "type": memory.type.value,
        "state": memory.state.value,
        "project_id": memory.project_id,
        "importance": memory.importance,
        "usage_count": memory.usage_count,
        "summary": memory.is_summary,
        "shape": "star" if memory.is_summary else "circle",
        "source_ids": memory.source_ids,
        "created_at": memory.created_at.isoformat(),
    }


def _related_edges(
    store: Store, memories: list[Memory], similarities: Callable[[np.ndarray], np.ndarray]
) -> list[dict[str, Any]]:
    """Each memory's few nearest neighbours above a cosine floor (undirected, listed once)."""
    vectors = store.vectors_of([m.id for m in memories])
    ids = [m.id for m in memories if m.id in vectors]
    if len(ids) < 2:
        return []
    matrix = np.vstack([vectors[i] for i in ids])
    sims = np.array(similarities(matrix), dtype=np.float64)
    np.fill_diagonal(sims, -1.0)
    seen: set[tuple[str, str]] = set()
    edges = []
    for row, source in enumerate(ids):
        for col in np.argsort(-sims[row])[:_RELATED_PER_NODE]:
            weight = float(sims[row, col])
            pair = tuple(sorted((source, ids[col])))
            if weight >= _RELATED_MIN_COSINE and pair not in seen:
                seen.add(pair)  # type: ignore[arg-type]
                edges.append(
                    {"source": pair[0], "target": pair[1], "kind": "related", "weight": round(weight, 4)}
                )
    return edges


def _savings(avg_context_tokens: float, all_memory_tokens: int) -> float | None:
    if avg_context_tokens >= all_memory_tokens:
        return None
    return round(1.0 - avg_context_tokens / all_memory_tokens, 4)


def build_analytics(store: Store, *, user_id: str, project_id: str | None, now: datetime) -> dict[str, Any]:
    """Counts by type and state, growth per day, token savings and consolidation figures."""
    memories, total = store.list_memories(
        MemoryQuery(user_id=user_id, project_id=project_id, all_projects=project_id is None)
    )
    by_type = Counter(m.type.value for m in memories)
    by_state = Counter(m.state.value for m in memories)
    growth = Counter(
        m.created_at.date().isoformat() for m in memories if m.created_at >= now - timedelta(days=90)
    )
    live = [m for m in memories if m.in_context_state]
    traces = [
        t
        for t in store.list_traces(user_id, limit=200)
        if project_id is None or t.get("project_id") == project_id
    ]
    used = [t["used_tokens"] for t in traces]
    candidates = [t.get("candidate_tokens", 0) for t in traces]
    all_memory_tokens = sum(count_tokens(m.content) for m in live)
    avg_used = float(np.mean(used)) if used else 0.0
    return {
        "total": total,
        "by_type": {t.value: by_type.get(t.value, 0) for t in MemoryType},
        "by_state": {s.value: by_state.get(s.value, 0) for s in MemoryState},
        "growth": [{"date": day, "created": n} for day, n in sorted(growth.items())],
        "tokens": {
            "active_memory_tokens": all_memory_tokens,
            "contexts": len(traces),
            "avg_context_tokens": round(avg_used, 1),
            "avg_candidate_tokens": round(float(np.mean(candidates)), 1) if candidates else 0.0,
            # share of the user's active memory text that a typical context leaves out; None until
            # a context is built, and while the store is so small that a context (with its header)
            # is no smaller than the memories themselves: there is nothing to save yet
            "savings_ratio": _savings(avg_used, all_memory_tokens) if traces else None,
            "savings_basis": "every active memory in the prompt",
        },
        "consolidation": {
            "summaries": sum(1 for m in live if m.is_summary),
            "promoted": sum(1 for m in memories if m.promoted_at is not None),
            "pinned": by_state.get("pinned", 0),
        },
    }
