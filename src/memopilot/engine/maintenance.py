"""The maintenance operations of :class:`~memopilot.engine.facade.MemoPilot`: forgetting,
reflection, re-embedding.

The policies (``forgetting.py``, ``reflection.py``) decide; these methods apply their
decisions with one timeline event per change, in one transaction per run.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .. import transitions
from ..domain import EventKind, MemoryState, TimelineEvent
from ..results import ForgettingReport, ReflectionReport
from ..store import ChangeSet, MemoryQuery
from ..write.redaction import redact, redact_values
from . import forgetting, reflection
from .core import DEFAULT_PROJECT, DEFAULT_USER, EngineCore
from .later_judgements import settled

__all__ = ["MaintenanceOps"]


class MaintenanceOps(EngineCore):
    def sweep_if_due(self, user_id: str, token: Any = None) -> ForgettingReport | None:
        """The read path's forgetting sweep: run only when something can be due (sweep_schedule.py).
        ``token``: the user's change token as the read found it. None when no sweep ran."""
        if not self.sweeps.is_due(user_id, self.clock.now(), self.settings, token):
            return None
        return self.run_forgetting(user_id=user_id)

    @settled
    def run_forgetting(self, *, user_id: str | None = None) -> ForgettingReport:
        """Expire and archive what SPEC section 6 says is due now (one user, or everyone)."""
        self.flush_uses()
        now = self.clock.now()
        due = forgetting.expiry_transitions(self.store.due_for_expiry(now, user_id), now)
        cutoff = forgetting.archive_cutoff(now, self.settings)
        stale = self.store.due_for_archive(cutoff, self.settings.archive_importance_below, user_id)
        due += forgetting.archive_transitions(stale, now, self.settings)
        report = ForgettingReport()
        if not due:
            if user_id is not None:
                self.sweeps.swept(user_id, self.settings)
            return report
        changes = ChangeSet()
        for transition in due:
            memory = transition.memory
            changes.add(
                *transitions.move(
                    memory,
                    transition.to_state,
                    transition.kind,
                    reason=transition.reason,
                    actor="system",
                    at=now,
                )
            )
            (report.expired if transition.kind is EventKind.EXPIRED else report.archived).append(memory.id)
        self._commit(changes)
        if user_id is not None:
            self.sweeps.swept(user_id, self.settings)
        return report

    @settled
    def reflect(
        self,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        include_user_wide: bool = True,
    ) -> ReflectionReport:
        """Consolidate what a question in ``project_id`` sees (SPEC section 8): the project's memories
        and, unless ``include_user_wide`` is false, the user-wide ones, each scope on its own (a
        summary never mixes the two). ``project_id=None`` is the user-wide scope alone."""
        self.flush_uses()
        report = self._reflect_scope(user_id, project_id)
        if include_user_wide and project_id is not None:
            report.extend(self._reflect_scope(user_id, None))
        return report

    def _reflect_scope(self, user_id: str, project_id: str | None) -> ReflectionReport:
        """One consolidation pass over the memories of exactly this scope."""
        now = self.clock.now()
        scope = MemoryQuery(user_id=user_id, project_id=project_id, include_user_wide=False)
        in_scope, _ = self.store.list_memories(
            MemoryQuery(
                user_id=user_id,
                project_id=project_id,
                include_user_wide=False,
                states=frozenset({MemoryState.ACTIVE, MemoryState.PINNED}),
            )
        )
        summaries = [
            m
            for m in self.store.list_memories(scope)[0]
            if m.is_summary and m.state is not MemoryState.DELETED
        ]
        plan = reflection.plan_reflection(
            in_scope, summaries, user_id=user_id, project_id=project_id, now=now, settings=self.settings
        )
        return self._apply_reflection(plan)

    def _apply_reflection(self, plan: reflection.ReflectionPlan) -> ReflectionReport:
        report = ReflectionReport()
        if not plan:
            return report
        changes = ChangeSet()
        for merge in plan.merges:
            archived_ids = [m.id for m in merge.archived]
            changes.add(
                merge.survivor,
                self.make_event(
                    merge.survivor,
                    EventKind.MERGED,
                    f"absorbed {len(archived_ids)} near-duplicate(s)",
                    merged=archived_ids,
                    ratio=round(merge.ratio, 4),
                ),
            )
            for gone in merge.archived:
                changes.add(
                    gone,
                    self.make_event(
                        gone,
                        EventKind.ARCHIVED,
                        f"near-duplicate merged into {merge.survivor.id}",
                        merged_into=merge.survivor.id,
                        to_state="archived",
                    ),
                )
            report.merged.append(
                {"survivor": merge.survivor.id, "archived": archived_ids, "ratio": round(merge.ratio, 4)}
            )
        for promoted in plan.promotions:
            changes.add(
                promoted,
                self.make_event(
                    promoted,
                    EventKind.PROMOTED,
                    f"used at least {self.settings.reflect_promote_usage} times",
                    importance=promoted.importance,
                ),
            )
            report.promoted.append(promoted.id)
        fresh = plan.summaries_created + plan.summaries_refreshed
        vectors = self.embed_texts([m.content for m in fresh]) if fresh else []
        for summary, vector in zip(fresh, vectors, strict=True):
            changes.vectors[summary.id] = vector
            created = summary in plan.summaries_created
            kind = EventKind.SUMMARY_CREATED if created else EventKind.SUMMARY_REFRESHED
            changes.add(
                summary,
                self.make_event(
                    summary,
                    kind,
                    f"{len(summary.source_ids)} {summary.type.value} memories",
                    source_ids=summary.source_ids,
                ),
            )
            entry = {"id": summary.id, "type": summary.type.value, "source_ids": summary.source_ids}
            (report.summaries_created if created else report.summaries_refreshed).append(entry)
        for retired in plan.summaries_retired:
            changes.add(
                retired,
                self.make_event(
                    retired,
                    EventKind.ARCHIVED,
                    f"fewer than {self.settings.reflect_summary_min} sources remain",
                    to_state="archived",
                ),
            )
            report.summaries_retired.append(retired.id)
        self._commit(changes)
        return report

    @settled
    def reembed(self, *, batch_size: int = 512) -> int:
        """Re-embed every stored memory with the configured embedder; returns how many."""
        changes, count = self._reembedded(batch_size=batch_size)
        self.store.commit(changes)
        self.index.clear()
        self.sweeps.clear()
        return count

    @settled
    def redact_existing(self, *, dry_run: bool = False, batch_size: int = 500) -> dict[str, int]:
        """Pass everything already stored through the current secret detectors (a one-time scrub
        for databases written by earlier versions, whose detectors knew less).

        Memory content and tags (re-embedded when the content changes, with an ``updated`` event
        that names the fields, never their text), event reasons and details, logged chat turns
        and the questions of stored traces. Nothing else changes: no state, time or count.
        Returns how many records of each kind changed (or would, with ``dry_run``).
        """
        self.flush_uses()
        report: Counter[str] = Counter()
        for batch in self.store.scan("memories", batch_size):
            changes = self._redacted_memories(batch, report)
            if not dry_run:
                self._commit(changes)
        for kind, field_name, rewrite in _TEXT_REWRITES:  # rows rewritten in place, no event
            for batch in self.store.scan(kind, batch_size):
                rewritten = dict(r for r in map(rewrite, batch) if r is not None)
                report[kind] += len(rewritten)
                if rewritten and not dry_run:
                    self.store.commit(ChangeSet(**{field_name: rewritten}))
        return {kind: report[kind] for kind in ("memories", "events", "turns", "traces")}

    def _redacted_memories(self, batch: list, report: Counter[str]) -> ChangeSet:
        changes = ChangeSet()
        redone: list = []
        for memory, vector in batch:
            content = redact(memory.content).text
            tags = [redact(t).text for t in memory.tags]
            if content == memory.content and tags == memory.tags:
                continue
            fields = ["content"] if content != memory.content else []
            fields += ["tags"] if tags != memory.tags else []
            updated = memory.copy(content=content, tags=tags)
            reason = "secrets taken out of stored text"
            changes.add(updated, self.make_event(updated, EventKind.UPDATED, reason, fields=fields))
            if "content" in fields and vector is not None:
                redone.append(updated)
            report["memories"] += 1
        if redone:
            vectors = self.embed_texts([m.content for m in redone])
            changes.vectors.update({m.id: v for m, v in zip(redone, vectors, strict=True)})
        return changes


# What redact_existing rewrites in place: (kind scanned, ChangeSet field, row -> (id, new value)
# when the detectors change something, else None).
def _event_text(event: TimelineEvent) -> tuple[str, tuple[str, dict[str, Any]]] | None:
    reason, details = redact(event.reason).text, redact_values(event.details)
    changed = reason != event.reason or details != event.details
    return (event.id, (reason, details)) if changed else None


def _turn_text(turn: dict[str, Any]) -> tuple[str, str] | None:
    content = redact(turn["content"] or "").text
    return (turn["id"], content) if content != (turn["content"] or "") else None


def _trace_payload(trace: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    query = redact(trace.get("query") or "").text
    return (trace["id"], trace | {"query": query}) if query != (trace.get("query") or "") else None


_TEXT_REWRITES = (
    ("events", "event_texts", _event_text),
    ("turns", "turn_texts", _turn_text),
    ("traces", "trace_payloads", _trace_payload),
)
