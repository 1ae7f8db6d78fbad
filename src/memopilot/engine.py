"""The MemoPilot facade: the read path, the lifecycle operations and maintenance.

Read path (a question arrives):

    question -> forgetting sweep (cheap, indexed) -> embed -> hybrid candidates in scope
             -> score (the formula) -> pack within the token budget -> context + trace

Every change of state or content goes through :meth:`MemoPilot._commit`, which
writes the memory, its vector and its timeline event in one store transaction and
then tells the vector index.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from . import forgetting, insights, portability, reflection
from .clock import Clock, SystemClock, ensure_utc
from .context_builder import pack_context
from .domain import (
    DEFAULT_IMPORTANCE,
    SUMMARY_TAG,
    EventKind,
    Memory,
    MemoryState,
    MemoryType,
    TimelineEvent,
)
from .embedding import Embedder, make_embedder
from .errors import ConflictError, EmbedderMismatchError, InvalidInputError, NotFoundError
from .results import ContextResult, ForgettingReport, ImportReport, Page, ReflectionReport, SearchResult
from .retriever import Retriever
from .scorer import score_memory
from .settings import Settings
from .store import ChangeSet, MemoryQuery, Store, open_store
from .trace import Trace
from .validation import (
    clean_content,
    clean_tags,
    clean_unit,
    parse_enum,
    parse_privacy,
    parse_state,
    parse_type,
)
from .vector_index import VectorIndex

__all__ = ["DEFAULT_PROJECT", "DEFAULT_USER", "MemoPilot"]

DEFAULT_USER = "local"
DEFAULT_PROJECT = "default"
_UNSET: Any = object()


class MemoPilot:
    """A memory layer over one store. Build it with :meth:`open`."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings | None = None,
        clock: Clock | None = None,
        *,
        allow_model_change: bool = False,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings or Settings.load()
        self.clock = clock or SystemClock()
        self._check_embedder(allow_model_change)
        self.index = VectorIndex(store)
        self.retriever = Retriever(store, self.index, self.settings)

    @classmethod
    def open(
        cls,
        path_or_url: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
        allow_model_change: bool = False,
    ) -> MemoPilot:
        """Open the store at ``path_or_url`` (default: settings, then the user data dir)."""
        settings = settings or Settings.load()
        store = open_store(path_or_url or settings.resolved_database_url)
        try:
            return cls(
                store,
                embedder or make_embedder(settings),
                settings,
                clock,
                allow_model_change=allow_model_change,
            )
        except BaseException:
            store.close()
            raise

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> MemoPilot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- embedder bookkeeping ----------------------------------------------------------------
    def _check_embedder(self, allow_model_change: bool) -> None:
        stored = self.store.get_meta("embedding_model")
        if stored is None:
            self.store.set_meta("embedding_model", self.embedder.model_id)
        elif stored != self.embedder.model_id and not allow_model_change:
            raise EmbedderMismatchError(
                f"this database's vectors were made by {stored!r}, but the configured embedder is "
                f"{self.embedder.model_id!r}. Set MEMOPILOT_EMBEDDER back, or re-embed every memory "
                "with the new model: memopilot reembed --db <url>"
            )

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.embedder.embed(texts)
        stored_dim = self.store.get_meta("embedding_dim")
        if stored_dim is None:
            self.store.set_meta("embedding_dim", str(vectors.shape[1]))
        elif int(stored_dim) != vectors.shape[1]:
            raise EmbedderMismatchError(
                f"the store holds {stored_dim}-dimensional vectors but {self.embedder.model_id} makes "
                f"{vectors.shape[1]}-dimensional ones; run: memopilot reembed"
            )
        return vectors

    # --- the one place that writes -----------------------------------------------------------
    def _commit(self, changes: ChangeSet) -> None:
        self.store.commit(changes)
        self.index.apply(changes.memories, changes.vectors)

    def _event(
        self, memory: Memory, kind: EventKind, reason: str, actor: str = "system", **details: Any
    ) -> TimelineEvent:
        return TimelineEvent(
            user_id=memory.user_id,
            memory_id=memory.id,
            kind=kind,
            at=self.clock.now(),
            actor=actor,
            reason=reason,
            project_id=memory.project_id,
            details=details,
        )

    # --- adding and reading one memory -------------------------------------------------------
    def add(
        self,
        content: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        type: str | MemoryType = MemoryType.EPISODE,
        tags: Iterable[str] | None = None,
        importance: float | None = None,
        confidence: float = 0.8,
        privacy: str = "normal",
        state: str | MemoryState = MemoryState.ACTIVE,
        expires_at: datetime | None = None,
        occurred_at: datetime | None = None,
        session_id: str | None = None,
        message_id: str | None = None,
        actor: str = "user",
        reason: str = "added directly",
    ) -> Memory:
        """Store one memory verbatim (no interpretation), embed it, and record its event."""
        memory = self.new_memory(
            content,
            user_id=user_id,
            project_id=project_id,
            type=type,
            tags=tags,
            importance=importance,
            confidence=confidence,
            privacy=privacy,
            state=state,
            expires_at=expires_at,
            occurred_at=occurred_at,
            session_id=session_id,
            message_id=message_id,
        )
        vector = self._embed([memory.content])[0]
        changes = ChangeSet(vectors={memory.id: vector})
        changes.add(memory, self._event(memory, EventKind.CREATED, reason, actor, type=memory.type.value))
        self._commit(changes)
        return memory

    def new_memory(
        self,
        content: str,
        *,
        user_id: str,
        project_id: str | None,
        type: str | MemoryType,
        tags: Iterable[str] | None = None,
        importance: float | None = None,
        confidence: float = 0.8,
        privacy: str = "normal",
        state: str | MemoryState = MemoryState.ACTIVE,
        expires_at: datetime | None = None,
        occurred_at: datetime | None = None,
        session_id: str | None = None,
        message_id: str | None = None,
    ) -> Memory:
        """A validated, unsaved memory (the write path builds on this)."""
        memory_type = parse_type(type)
        memory_state = parse_state(state)
        if memory_state not in (MemoryState.ACTIVE, MemoryState.PINNED, MemoryState.ARCHIVED):
            raise InvalidInputError(
                f"a new memory can be active, pinned or archived, not {memory_state.value}"
            )
        _check_ids(user_id, project_id)
        now = self.clock.now()
        return Memory(
            user_id=user_id,
            project_id=project_id or None,
            type=memory_type,
            state=memory_state,
            content=clean_content(content, self.settings),
            tags=clean_tags(tags, self.settings),
            importance=clean_unit(
                DEFAULT_IMPORTANCE[memory_type] if importance is None else importance, "importance"
            ),
            confidence=clean_unit(confidence, "confidence"),
            privacy=parse_privacy(privacy),
            created_at=now,
            updated_at=now,
            valid_from=now,
            expires_at=ensure_utc(expires_at) if expires_at else None,
            occurred_at=ensure_utc(occurred_at) if occurred_at else None,
            session_id=session_id,
            message_id=message_id,
        )

    def get(self, memory_id: str, *, user_id: str = DEFAULT_USER) -> Memory:
        """The memory, if it belongs to ``user_id``; another user's id is reported as not found."""
        memory = self.store.get(memory_id) if isinstance(memory_id, str) else None
        if memory is None or memory.user_id != user_id:
            raise NotFoundError(f"no memory {memory_id!r} for this user")
        return memory

    def list(
        self,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = None,
        types: Iterable[str] | None = None,
        states: Iterable[str] | None = None,
        q: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> Page:
        """Memories newest first; ``project_id`` None lists every project of the user."""
        if not 1 <= limit <= 1000 or offset < 0:
            raise InvalidInputError("limit must be 1..1000 and offset >= 0")
        query = MemoryQuery(
            user_id=user_id,
            project_id=project_id,
            all_projects=project_id is None,
            types=frozenset(parse_type(t) for t in types) if types else None,
            states=frozenset(parse_state(s) for s in states) if states else None,
            text=q or None,
            limit=limit,
            offset=offset,
        )
        items, total = self.store.list_memories(query)
        return Page(items, total, limit, offset)

    def history(self, memory_id: str, *, user_id: str = DEFAULT_USER) -> list[TimelineEvent]:
        self.get(memory_id, user_id=user_id)
        return self.store.events(memory_id)

    def timeline(
        self,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = None,
        kinds: Sequence[str] | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[TimelineEvent]:
        """Events newest first; with ``project_id``, that project's and user-wide ones."""
        if kinds:
            kinds = [parse_enum(EventKind, k, "event kind").value for k in kinds]
        return self.store.timeline(user_id, project_id, kinds, limit, offset)

    # --- lifecycle ---------------------------------------------------------------------------
    def update(
        self,
        memory_id: str,
        *,
        user_id: str = DEFAULT_USER,
        content: str | None = None,
        tags: Iterable[str] | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        privacy: str | None = None,
        type: str | MemoryType | None = None,
        expires_at: datetime | None = _UNSET,
        actor: str = "user",
        reason: str = "edited",
    ) -> Memory:
        """Change fields of a memory (not its state); a content change re-embeds it."""
        memory = self._owned_live(memory_id, user_id)
        changes_to: dict[str, Any] = {}
        if content is not None:
            changes_to["content"] = clean_content(content, self.settings)
        if tags is not None:
            changes_to["tags"] = clean_tags(tags, self.settings)
        if importance is not None:
            changes_to["importance"] = clean_unit(importance, "importance")
        if confidence is not None:
            changes_to["confidence"] = clean_unit(confidence, "confidence")
        if privacy is not None:
            changes_to["privacy"] = parse_privacy(privacy)
        if type is not None:
            changes_to["type"] = parse_type(type)
        if expires_at is not _UNSET:
            changes_to["expires_at"] = ensure_utc(expires_at) if expires_at else None
        changed = {k: v for k, v in changes_to.items() if getattr(memory, k) != v}
        if not changed:
            return memory
        updated = memory.copy(**changed, updated_at=self.clock.now())
        before = {k: _plain(getattr(memory, k)) for k in changed}
        after = {k: _plain(v) for k, v in changed.items()}
        changes = ChangeSet()
        if "content" in changed:
            changes.vectors[updated.id] = self._embed([updated.content])[0]
        changes.add(
            updated,
            self._event(
                updated, EventKind.UPDATED, reason, actor, fields=sorted(changed), before=before, after=after
            ),
        )
        self._commit(changes)
        return updated

    def pin(
        self, memory_id: str, *, user_id: str = DEFAULT_USER, reason: str = "pinned by the user"
    ) -> Memory:
        return self._transition(
            memory_id,
            user_id,
            MemoryState.PINNED,
            EventKind.PINNED,
            reason,
            allowed_from={MemoryState.ACTIVE, MemoryState.ARCHIVED, MemoryState.EXPIRED},
        )

    def unpin(
        self, memory_id: str, *, user_id: str = DEFAULT_USER, reason: str = "unpinned by the user"
    ) -> Memory:
        memory = self._owned_live(memory_id, user_id)
        if memory.state is MemoryState.ACTIVE:
            return memory
        return self._transition(
            memory_id,
            user_id,
            MemoryState.ACTIVE,
            EventKind.UNPINNED,
            reason,
            allowed_from={MemoryState.PINNED},
        )

    def archive(
        self, memory_id: str, *, user_id: str = DEFAULT_USER, reason: str = "archived by the user"
    ) -> Memory:
        return self._transition(
            memory_id,
            user_id,
            MemoryState.ARCHIVED,
            EventKind.ARCHIVED,
            reason,
            allowed_from={MemoryState.ACTIVE, MemoryState.PINNED, MemoryState.EXPIRED},
        )

    def restore(
        self, memory_id: str, *, user_id: str = DEFAULT_USER, reason: str = "restored by the user"
    ) -> Memory:
        return self._transition(
            memory_id,
            user_id,
            MemoryState.ACTIVE,
            EventKind.RESTORED,
            reason,
            allowed_from={MemoryState.ARCHIVED, MemoryState.EXPIRED},
        )

    def set_state(self, memory_id: str, state: str | MemoryState, *, user_id: str = DEFAULT_USER) -> Memory:
        """The user-settable states (active, pinned, archived), as PATCH state=... asks."""
        target = parse_state(state)
        memory = self._owned_live(memory_id, user_id)
        if target is MemoryState.PINNED:
            return self.pin(memory_id, user_id=user_id)
        if target is MemoryState.ARCHIVED:
            return self.archive(memory_id, user_id=user_id)
        if target is MemoryState.ACTIVE:
            if memory.state is MemoryState.PINNED:
                return self.unpin(memory_id, user_id=user_id)
            if memory.state is MemoryState.ACTIVE:
                return memory
            return self.restore(memory_id, user_id=user_id)
        raise InvalidInputError(f"state can be set to active, pinned or archived, not {target.value}")

    def supersede(
        self,
        old_id: str,
        new_id: str,
        *,
        user_id: str = DEFAULT_USER,
        reason: str = "replaced by a newer memory",
        actor: str = "system",
    ) -> Memory:
        """Mark ``old_id`` as replaced by ``new_id`` (both of ``user_id``). Critical memories refuse."""
        old = self._owned_live(old_id, user_id)
        new = self._owned_live(new_id, user_id)
        if old.id == new.id:
            raise InvalidInputError("a memory cannot supersede itself")
        if old.is_critical and actor != "user":
            raise ConflictError(f"memory {old.id} is critical: only the user can supersede it")
        if old.state not in (MemoryState.ACTIVE, MemoryState.PINNED):
            raise ConflictError(
                f"memory {old.id} is {old.state.value}; only active or pinned ones can be superseded"
            )
        now = self.clock.now()
        replaced = old.copy(state=MemoryState.SUPERSEDED, superseded_by=new.id, valid_to=now, updated_at=now)
        successor = new.copy(supersedes=old.id, updated_at=now)
        changes = ChangeSet()
        changes.add(
            replaced,
            self._event(
                replaced,
                EventKind.SUPERSEDED,
                reason,
                actor,
                from_state=old.state.value,
                superseded_by=new.id,
            ),
        )
        changes.add(successor)
        self._commit(changes)
        return replaced

    def forget(self, memory_id: str, *, user_id: str = DEFAULT_USER, actor: str = "user") -> Memory:
        """The user's Forget: erase content, tags and vector; keep a content-free tombstone.

        Earlier events of the memory lose their details and reasons; summaries that listed
        it are rewritten without it; the store then purges residue from its files.
        """
        memory = self.get(memory_id, user_id=user_id)
        if memory.state is MemoryState.DELETED:
            return memory
        now = self.clock.now()
        tombstone = memory.copy(
            content="", tags=[], source_ids=[], state=MemoryState.DELETED, updated_at=now, valid_to=now
        )
        changes = ChangeSet(vectors={memory.id: None}, scrub_events_of=[memory.id])
        changes.add(
            tombstone,
            self._event(
                tombstone,
                EventKind.DELETED,
                "forgotten at the user's request",
                actor,
                from_state=memory.state.value,
            ),
        )
        self._drop_from_summaries(memory, changes)
        self._commit(changes)
        self.store.purge_residue()
        return tombstone

    def _drop_from_summaries(self, forgotten: Memory, changes: ChangeSet) -> None:
        summaries, _ = self.store.list_memories(
            MemoryQuery(user_id=forgotten.user_id, all_projects=True, text=SUMMARY_TAG)
        )
        for summary in summaries:
            if not summary.is_summary or forgotten.id not in summary.source_ids:
                continue
            sources = list(self.store.get_many(i for i in summary.source_ids if i != forgotten.id).values())
            sources.sort(key=lambda m: (m.created_at, m.id))
            state = (
                summary.state if len(sources) >= self.settings.reflect_summary_min else MemoryState.ARCHIVED
            )
            rewritten = summary.copy(
                content=reflection.summary_content(summary.type, sources),
                source_ids=[m.id for m in sources],
                state=state,
                updated_at=self.clock.now(),
            )
            changes.vectors[rewritten.id] = self._embed([rewritten.content])[0]
            changes.add(
                rewritten,
                self._event(
                    rewritten,
                    EventKind.SUMMARY_REFRESHED,
                    "a source was forgotten",
                    source_ids=rewritten.source_ids,
                ),
            )

    def _owned_live(self, memory_id: str, user_id: str) -> Memory:
        memory = self.get(memory_id, user_id=user_id)
        if memory.state is MemoryState.DELETED:
            raise ConflictError(f"memory {memory_id} was forgotten; it cannot be changed")
        return memory

    def _transition(
        self,
        memory_id: str,
        user_id: str,
        to_state: MemoryState,
        kind: EventKind,
        reason: str,
        *,
        allowed_from: set[MemoryState],
    ) -> Memory:
        memory = self._owned_live(memory_id, user_id)
        if memory.state is to_state:
            return memory
        if memory.state not in allowed_from:
            raise ConflictError(
                f"memory {memory_id} is {memory.state.value}; cannot go to {to_state.value} from there"
            )
        extra: dict[str, Any] = {}
        if memory.state is MemoryState.EXPIRED and to_state in (MemoryState.ACTIVE, MemoryState.PINNED):
            extra["expires_at"] = None  # otherwise the next sweep would expire it again
        updated = memory.copy(state=to_state, updated_at=self.clock.now(), **extra)
        changes = ChangeSet()
        changes.add(
            updated,
            self._event(
                updated, kind, reason, "user", from_state=memory.state.value, to_state=to_state.value
            ),
        )
        self._commit(changes)
        return updated

    # --- the read path -----------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        k: int = 10,
    ) -> list[SearchResult]:
        """The ``k`` best-scoring active/pinned memories for ``query`` in scope (no usage counted)."""
        if not 1 <= k <= 1000:
            raise InvalidInputError("k must be between 1 and 1000")
        query = _clean_query(query, self.settings)
        now = self.clock.now()
        vector = self._embed([query])[0]
        results = []
        for candidate in self.retriever.candidates(query, vector, user_id=user_id, project_id=project_id):
            if candidate.sources == ("priority",):
                continue  # listed for the context builder, not matched by the query
            score = score_memory(
                candidate.memory,
                semantic=candidate.similarity,
                now=now,
                project_id=project_id,
                settings=self.settings,
            )
            results.append(
                SearchResult(candidate.memory, score.final, score.components, candidate.similarity)
            )
        results.sort(key=lambda r: (-r.score, r.memory.id))
        return results[:k]

    def build_context(
        self,
        query: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        budget_tokens: int | None = None,
        record_usage: bool = True,
    ) -> ContextResult:
        """The memory context for ``query`` within ``budget_tokens`` and its stored trace."""
        budget = self.settings.context_budget if budget_tokens is None else int(budget_tokens)
        if budget < 1:
            raise InvalidInputError("budget_tokens must be at least 1")
        query = _clean_query(query, self.settings)
        started = time.perf_counter()
        maintenance = self.run_forgetting(user_id=user_id)
        swept = time.perf_counter()
        vector = self._embed([query])[0]
        embedded = time.perf_counter()
        candidates = self.retriever.candidates(query, vector, user_id=user_id, project_id=project_id)
        retrieved = time.perf_counter()
        now = self.clock.now()
        scored = [
            (
                c,
                score_memory(
                    c.memory, semantic=c.similarity, now=now, project_id=project_id, settings=self.settings
                ),
            )
            for c in candidates
        ]
        packed = pack_context(scored, budget=budget, settings=self.settings)
        packed_at = time.perf_counter()
        trace = Trace(
            user_id=user_id,
            project_id=project_id,
            query=query,
            created_at=now,
            budget_tokens=budget,
            used_tokens=packed.used_tokens,
            candidates_considered=len(candidates),
            included=packed.included,
            skipped=packed.skipped,
            maintenance={"expired": len(maintenance.expired), "archived": len(maintenance.archived)},
        )
        trace.latency_ms = {
            "forgetting": _ms(started, swept),
            "embed": _ms(swept, embedded),
            "retrieve": _ms(embedded, retrieved),
            "score_and_pack": _ms(retrieved, packed_at),
            "total": _ms(started, packed_at),
        }
        self._commit(ChangeSet(traces=[trace.to_dict()]))
        if record_usage:
            self.store.record_usage(packed.included_ids, now)
        return ContextResult(packed.text, trace)

    def get_trace(self, trace_id: str, *, user_id: str = DEFAULT_USER) -> dict[str, Any]:
        trace = self.store.get_trace(trace_id)
        if trace is None or trace.get("user_id") != user_id:
            raise NotFoundError(f"no trace {trace_id!r} for this user")
        return trace

    def traces(self, *, user_id: str = DEFAULT_USER, limit: int = 20) -> list[dict[str, Any]]:
        return self.store.list_traces(user_id, limit)

    # --- maintenance -------------------------------------------------------------------------
    def run_forgetting(self, *, user_id: str | None = None) -> ForgettingReport:
        """Expire and archive what SPEC section 6 says is due now (one user, or everyone)."""
        now = self.clock.now()
        due = forgetting.expiry_transitions(self.store.due_for_expiry(now, user_id), now)
        cutoff = forgetting.archive_cutoff(now, self.settings)
        stale = self.store.due_for_archive(cutoff, self.settings.archive_importance_below, user_id)
        due += forgetting.archive_transitions(stale, now, self.settings)
        report = ForgettingReport()
        if not due:
            return report
        changes = ChangeSet()
        for transition in due:
            memory = transition.memory
            updated = memory.copy(state=transition.to_state, updated_at=now)
            changes.add(
                updated,
                self._event(
                    updated,
                    transition.kind,
                    transition.reason,
                    from_state=memory.state.value,
                    to_state=transition.to_state.value,
                ),
            )
            (report.expired if transition.kind is EventKind.EXPIRED else report.archived).append(memory.id)
        self._commit(changes)
        return report

    def reflect(
        self, *, user_id: str = DEFAULT_USER, project_id: str | None = DEFAULT_PROJECT
    ) -> ReflectionReport:
        """One consolidation pass over the memories of exactly this scope (SPEC section 8)."""
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
                self._event(
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
                    self._event(
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
                self._event(
                    promoted,
                    EventKind.PROMOTED,
                    f"used at least {self.settings.reflect_promote_usage} times",
                    importance=promoted.importance,
                ),
            )
            report.promoted.append(promoted.id)
        fresh = plan.summaries_created + plan.summaries_refreshed
        vectors = self._embed([m.content for m in fresh]) if fresh else []
        for summary, vector in zip(fresh, vectors, strict=True):
            changes.vectors[summary.id] = vector
            created = summary in plan.summaries_created
            kind = EventKind.SUMMARY_CREATED if created else EventKind.SUMMARY_REFRESHED
            changes.add(
                summary,
                self._event(
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
                self._event(
                    retired,
                    EventKind.ARCHIVED,
                    f"fewer than {self.settings.reflect_summary_min} sources remain",
                    to_state="archived",
                ),
            )
            report.summaries_retired.append(retired.id)
        self._commit(changes)
        return report

    def reembed(self, *, batch_size: int = 512) -> int:
        """Re-embed every stored memory with the configured embedder; returns how many."""
        count = 0
        changes = ChangeSet(
            meta={"embedding_model": self.embedder.model_id, "embedding_dim": str(self.embedder.dim)}
        )
        for user_id in self.store.user_ids():
            items, _ = self.store.list_memories(MemoryQuery(user_id=user_id, all_projects=True))
            live = [m for m in items if m.state is not MemoryState.DELETED and m.content]
            for start in range(0, len(live), batch_size):
                chunk = live[start : start + batch_size]
                for memory, vector in zip(
                    chunk, self.embedder.embed([m.content for m in chunk]), strict=True
                ):
                    changes.vectors[memory.id] = vector
                count += len(chunk)
        self.store.commit(changes)
        self.index.clear()
        return count

    # --- views and portability ---------------------------------------------------------------
    def graph(
        self, *, user_id: str = DEFAULT_USER, project_id: str | None = None, limit: int = 300
    ) -> dict[str, Any]:
        return insights.build_graph(self.store, user_id=user_id, project_id=project_id, limit=limit)

    def analytics(self, *, user_id: str = DEFAULT_USER, project_id: str | None = None) -> dict[str, Any]:
        return insights.build_analytics(
            self.store, user_id=user_id, project_id=project_id, now=self.clock.now()
        )

    def export(self, user_id: str = DEFAULT_USER) -> dict[str, Any]:
        return portability.export_user(
            self.store, user_id, now=self.clock.now(), model_id=self.embedder.model_id
        )

    def import_(self, document: dict[str, Any], *, user_id: str | None = None) -> ImportReport:
        """Import an :meth:`export` document (into ``user_id`` if given, else its own user)."""
        plan = portability.plan_import(self.store, document, user_id=user_id, now=self.clock.now())
        live = [m for m in plan.memories if m.content]
        vectors = self._embed([m.content for m in live]) if live else []
        changes = ChangeSet(
            memories=plan.memories,
            events=plan.events,
            vectors={m.id: v for m, v in zip(live, vectors, strict=True)},
        )
        self._commit(changes)
        return plan.report


def _check_ids(user_id: str, project_id: str | None) -> None:
    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > 200:
        raise InvalidInputError("user_id must be a non-empty string of at most 200 characters")
    if project_id is not None and (not isinstance(project_id, str) or len(project_id) > 200):
        raise InvalidInputError("project_id must be a string of at most 200 characters")


def _clean_query(query: str, settings: Settings) -> str:
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("the question is empty")
    if len(query) > settings.max_content_chars:
        raise InvalidInputError(f"the question is longer than {settings.max_content_chars} characters")
    return query.strip()


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return getattr(value, "value", value)


def _ms(start: float, end: float) -> float:
    return round((end - start) * 1000.0, 3)
