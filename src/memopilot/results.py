"""What the engine's operations return: small, JSON-ready records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .domain import Memory
from .read.trace import Trace

__all__ = ["ContextResult", "ForgettingReport", "ImportReport", "Page", "ReflectionReport", "SearchResult"]


@dataclass(frozen=True, slots=True)
class SearchResult:
    memory: Memory
    score: float
    components: dict[str, float]
    similarity: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "memory": self.memory.to_dict(),
            "score": self.score,
            "similarity": self.similarity,
            "components": self.components,
        }


@dataclass(frozen=True, slots=True)
class ContextResult:
    """The memory context for one question and the trace that explains it."""

    text: str
    trace: Trace

    def to_dict(self) -> dict[str, Any]:
        return {"context": self.text, "trace": self.trace.to_dict()}


@dataclass(frozen=True, slots=True)
class Page:
    items: list[Memory]
    total: int
    limit: int
    offset: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": [m.to_dict() for m in self.items],
            "total": self.total,
            "limit": self.limit,
            "offset": self.offset,
        }


@dataclass(slots=True)
class ForgettingReport:
    expired: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"expired": self.expired, "archived": self.archived}


@dataclass(slots=True)
class ReflectionReport:
    merged: list[dict[str, Any]] = field(default_factory=list)  # {"survivor", "archived": [...], "ratio"}
    promoted: list[str] = field(default_factory=list)
    summaries_created: list[dict[str, Any]] = field(default_factory=list)  # {"id", "type", "source_ids"}
    summaries_refreshed: list[dict[str, Any]] = field(default_factory=list)
    summaries_retired: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(
            self.merged
            or self.promoted
            or self.summaries_created
            or self.summaries_refreshed
            or self.summaries_retired
        )

    def extend(self, other: ReflectionReport) -> None:
        """Add another scope's pass to this report."""
        self.merged += other.merged
        self.promoted += other.promoted
        self.summaries_created += other.summaries_created
        self.summaries_refreshed += other.summaries_refreshed
        self.summaries_retired += other.summaries_retired

    def to_dict(self) -> dict[str, Any]:
        return {
            "merged": self.merged,
            "promoted": self.promoted,
            "summaries_created": self.summaries_created,
            "summaries_refreshed": self.summaries_refreshed,
            "summaries_retired": self.summaries_retired,
            "changed": self.changed,
        }


@dataclass(slots=True)
class ImportReport:
    imported: int = 0
    skipped: int = 0  # already present in the target user
    renamed: int = 0  # imported under an id other than the document's
    events: int = 0
    # records refused by the API's checks: {"kind": "memory" | "event", "index", "reason"}
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def reject(self, kind: str, index: int, reason: str) -> None:
        self.rejected.append({"kind": kind, "index": index, "reason": reason})

    def to_dict(self) -> dict[str, Any]:
        return {
            "imported": self.imported,
            "skipped": self.skipped,
            "renamed": self.renamed,
            "events": self.events,
            "rejected": list(self.rejected),
        }
