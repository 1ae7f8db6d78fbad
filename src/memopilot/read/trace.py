"""SPEC section 7: the explanation of one context: what was included or skipped, and why.

A trace holds ids, scores, reasons and token counts, never memory content: the text
is looked up live when a trace is shown, so Forget leaves nothing behind in stored
traces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..domain import new_id
from .scorer import Score

__all__ = ["Trace", "TraceItem", "readable_trace"]


@dataclass(slots=True)
class TraceItem:
    memory_id: str
    type: str
    state: str
    project_id: str | None
    included: bool
    reason: str
    score: float
    breakdown: Score  # components and contributions, built when first asked for
    dense: float
    keyword: float
    tokens: int
    sources: list[str]

    @property
    def components(self) -> dict[str, float]:
        return self.breakdown.components

    @property
    def contributions(self) -> dict[str, float]:
        return self.breakdown.contributions()

    def to_dict(self, *, explain: bool = True) -> dict[str, Any]:
        # Shallow on purpose: dataclasses.asdict deep-copies every dict and was the read path's
        # largest cost (a trace holds hundreds of items).
        out = {
            "memory_id": self.memory_id,
            "type": self.type,
            "state": self.state,
            "project_id": self.project_id,
            "included": self.included,
            "reason": self.reason,
            "score": self.score,
            "dense": self.dense,
            "keyword": self.keyword,
            "tokens": self.tokens,
            "sources": self.sources,
        }
        if explain:
            out["components"] = self.components
            out["contributions"] = self.contributions
        return out

    def to_stored(self) -> dict[str, Any]:
        out = self.to_dict(explain=False)
        out["components"] = self.breakdown.component_values()
        return out


@dataclass(slots=True)
class Trace:
    user_id: str
    project_id: str | None
    query: str
    created_at: datetime
    budget_tokens: int
    used_tokens: int = 0
    candidates_considered: int = 0
    included: list[TraceItem] = field(default_factory=list)
    skipped: list[TraceItem] = field(default_factory=list)
    skipped_total: int = 0  # skipped candidates, including those beyond the listed ones
    latency_ms: dict[str, float] = field(default_factory=dict)
    maintenance: dict[str, int] = field(default_factory=dict)  # what the forgetting sweep changed
    # Set for chat turns: the message answered and what its write path did (ids, never text).
    session_id: str | None = None
    message_id: str | None = None
    turn: dict[str, Any] | None = None
    id: str = field(default_factory=new_id)
    # Each score component's weight, negative for penalties (names in the items' order).
    signed_weights: dict[str, float] = field(default_factory=dict)

    @property
    def candidate_tokens(self) -> int:
        """Tokens all candidates would have cost: what the budget saved is the difference."""
        return sum(i.tokens for i in self.included) + sum(i.tokens for i in self.skipped)  # listed ones

    def to_stored(self) -> dict[str, Any]:
        """The compact form a store keeps (one per read): see :func:`readable_trace`."""
        out = self.to_dict(items=False)
        # A contribution is a component times its signed weight: the weights are stored once, not
        # a contribution per component per item.
        out["signed_weights"] = self.signed_weights
        out["included"] = [i.to_stored() for i in self.included]
        out["skipped"] = [i.to_stored() for i in self.skipped]
        return out

    def to_dict(self, *, items: bool = True) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "project_id": self.project_id,
            "query": self.query,
            "created_at": self.created_at.isoformat(),
            "budget_tokens": self.budget_tokens,
            "used_tokens": self.used_tokens,
            "candidate_tokens": self.candidate_tokens,
            "candidates_considered": self.candidates_considered,
            "included": [i.to_dict() for i in self.included] if items else [],
            "skipped": [i.to_dict() for i in self.skipped] if items else [],
            "skipped_total": max(self.skipped_total, len(self.skipped)),
            "latency_ms": self.latency_ms,
            "maintenance": self.maintenance,
            "session_id": self.session_id,
            "message_id": self.message_id,
            "turn": self.turn,
        }


def readable_trace(payload: dict[str, Any]) -> dict[str, Any]:
    """A stored trace in the form the API shows (:meth:`Trace.to_dict`).

    Stored items list their components as numbers in ``signed_weights`` order and no
    contributions; traces stored before that form are returned unchanged.
    """
    weights = payload.pop("signed_weights", None)
    if weights is None:
        return payload
    names = list(weights)
    for key in ("included", "skipped"):
        for item in payload.get(key, []):
            if isinstance(item.get("components"), list):
                item["components"] = dict(zip(names, item["components"], strict=True))
                item["contributions"] = {n: weights[n] * v for n, v in item["components"].items()}
    return payload
