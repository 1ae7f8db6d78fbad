"""The MemoPilot facade: the read path, the lifecycle operations and maintenance.

Read path (a question arrives):

    question -> forgetting sweep (cheap, indexed) -> embed -> hybrid candidates in scope
             -> score (the formula) -> pack within the token budget -> context + trace

Every change of state or content goes through :meth:`MemoPilot._commit`, which
writes the memory, its vector and its timeline event in one store transaction and
then tells the vector index.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .. import transitions
from ..clock import Clock
from ..domain import EventKind, Memory, MemoryState, MemoryType, TimelineEvent
from ..embedding import Embedder, make_embedder
from ..errors import ContentTooLongError, InvalidInputError, MessageAlreadyAppliedError, NotFoundError
from ..read.context import pack_context
from ..read.retriever import Candidate, Retrieved
from ..read.scorer import ScoreTable
from ..read.trace import Trace, readable_trace
from ..results import ContextResult, ForgettingReport, ImportReport, Page, SearchResult
from ..settings import Settings
from ..store import ChangeSet, MemoryQuery, Store, open_store
from ..validation import (
    check_ids,
    clean_speaker,
    new_record,
    parse_enum,
    parse_state,
    parse_type,
)
from ..write.redaction import Redaction, redact
from . import insights, portability
from .core import DEFAULT_PROJECT, DEFAULT_USER
from .later_judgements import settled
from .lifecycle import LifecycleOps
from .maintenance import MaintenanceOps

if TYPE_CHECKING:  # the write path, the chat turn and the HTTP client load on first use (CLI start-up)
    from ..llm import ChatClient
    from ..write.editor import MemoryEditor
    from ..write.planner import LaterJudgement, WriteInputs, WriteOutcome, WritePath
    from .chat import ChatResult

__all__ = ["DEFAULT_PROJECT", "DEFAULT_USER", "MemoPilot"]

_FROM_SETTINGS: Any = object()  # "build it from settings", as distinct from an explicit None
_MAX_BATCH = 5000  # memories per add_many call


@dataclass(frozen=True, slots=True)
class Found:
    """A message's vector and its retrieval candidates, most similar first."""

    text: str
    vector: np.ndarray
    candidates: list[Candidate]
    # whether ``vector`` is the one the text would be stored with (not a question's own embedding)
    storable: bool = True


def _configured_llm(settings: Settings) -> ChatClient | None:
    """The chat model settings name, or None; the HTTP client loads only when there is one."""
    if not settings.llm_configured:
        return None
    from ..llm import make_chat_client

    return make_chat_client(settings)


def _classified(content: object) -> MemoryType:
    """The rule classifier's type for text stored directly, else ``episode``."""
    from ..write.rule_editor import classify

    return (classify(content) if isinstance(content, str) else None) or MemoryType.EPISODE


_DRAIN_ON_CLOSE_SECONDS = 2.0

_Method = TypeVar("_Method", bound=Callable[..., Any])


def _beside_the_embedder(method: _Method) -> _Method:
    """Run an engine method with numpy's BLAS on the calling thread when the embedder has threads of
    its own (EngineCore.blas_beside_the_embedder)."""

    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self.blas_beside_the_embedder():
            return method(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]


class MemoPilot(LifecycleOps, MaintenanceOps):
    """A memory layer over one store. Build it with :meth:`open`."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings | None = None,
        clock: Clock | None = None,
        *,
        allow_model_change: bool = False,
        llm: ChatClient | None = _FROM_SETTINGS,
        editor: MemoryEditor | None = None,
        background_vectors: bool = True,
        judge_later: bool | None = None,
    ) -> None:
        super().__init__(
            store,
            embedder,
            settings,
            clock,
            allow_model_change=allow_model_change,
            background_vectors=background_vectors,
        )
        self.llm: ChatClient | None = _configured_llm(self.settings) if llm is _FROM_SETTINGS else llm
        self._editor = editor
        # the learned judgement's e5 reading runs after a write returns (engine/later_judgements.py)
        self._judge_later = self.settings.judge_later if judge_later is None else judge_later

    @functools.cached_property
    def write_path(self) -> WritePath:
        """The write path, built on first use: a command that only reads never loads it."""
        from ..write.llm_editor import LLMEditor
        from ..write.planner import WritePath
        from ..write.rule_editor import RuleEditor

        editor = self._editor
        if editor is None:
            rules = RuleEditor()
            editor = LLMEditor(self.llm, fallback=rules) if self.llm is not None else rules
        return WritePath(editor)

    @classmethod
    def open(
        cls,
        path_or_url: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
        allow_model_change: bool = False,
        llm: ChatClient | None = _FROM_SETTINGS,
        editor: MemoryEditor | None = None,
        background_vectors: bool = True,
        judge_later: bool | None = None,
    ) -> MemoPilot:
        """Open the store at ``path_or_url`` (default: settings, then the user data dir).

        The chat model and the memory editor come from settings unless given.
        ``background_vectors=False``: vectors stored with only their fast part (the default model's
        writes) are completed only by :meth:`complete_vectors` and at :meth:`close`, not by a
        background thread (tests that want every step in their own hands). ``judge_later``
        (default: ``MEMOPILOT_JUDGE_LATER``, on): a write leaves the learned judgement's e5 reading
        to a background thread (engine/later_judgements.py); False: it judges within the write.
        """
        settings = settings or Settings.load()
        url = path_or_url or settings.database_url
        # Only the default data folder is created; a folder named by the caller must exist.
        store = open_store(url) if url else open_store(settings.resolved_database_url, create_folder=True)
        try:
            return cls(
                store,
                embedder or make_embedder(settings),
                settings,
                clock,
                allow_model_change=allow_model_change,
                llm=llm,
                editor=editor,
                background_vectors=background_vectors,
                judge_later=judge_later,
            )
        except BaseException:
            store.close()
            raise

    def close(self) -> None:
        try:
            self.later_judgements.close(drain_seconds=_DRAIN_ON_CLOSE_SECONDS)
            # a one-shot command's few new memories are usually whole before the process exits;
            # what does not fit stays pending for the next process
            self.vectors.close(drain_seconds=_DRAIN_ON_CLOSE_SECONDS)
            self.flush_uses()
        finally:
            if self.llm is not None:
                self.llm.close()
            self.store.close()

    def __enter__(self) -> MemoPilot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- adding and reading one memory -------------------------------------------------------
    @settled
    def add(
        self,
        content: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        type: str | MemoryType | None = None,
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
        """Store one memory verbatim, embed it, and record its event.

        ``type`` None: the rule classifier's type for the text, else ``episode``.
        """
        if type is None:
            type = _classified(content)
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
        self.check_memory_limit(user_id)
        vector = self.embed_texts([memory.content])[0]
        changes = ChangeSet(vectors={memory.id: vector})
        changes.add(*transitions.create(memory, reason=reason, actor=actor, at=self.clock.now()))
        self._commit(changes)
        return memory

    @settled
    def add_many(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        actor: str = "user",
        reason: str = "added directly",
    ) -> list[Memory]:
        """Store several memories verbatim in one transaction (e.g. a session's turns as episodes).

        Each item holds :meth:`add`'s per-memory arguments (``content`` required; ``type``, ``tags``,
        ``importance``, ``confidence``, ``privacy``, ``state``, ``expires_at``, ``occurred_at``,
        ``session_id``, ``message_id``). Every item is validated before anything is written, all are
        embedded in one batch, and each gets its ``created`` event: all land together or none does.
        """
        allowed = {
            "content", "type", "tags", "importance", "confidence", "privacy", "state",
            "expires_at", "occurred_at", "session_id", "message_id",
        }  # fmt: skip
        if len(items) > _MAX_BATCH:
            raise InvalidInputError(f"add_many takes at most {_MAX_BATCH} memories at once")
        memories: list[Memory] = []
        for position, item in enumerate(items):
            if not isinstance(item, Mapping) or "content" not in item:
                raise InvalidInputError(f"item {position} must be a mapping with 'content'")
            unknown = set(item) - allowed
            if unknown:
                raise InvalidInputError(f"item {position} has unknown fields: {', '.join(sorted(unknown))}")
            fields = dict(item)
            content = fields.pop("content")
            memory_type = fields.pop("type", None)
            if memory_type is None:
                memory_type = _classified(content)
            memories.append(
                self.new_memory(content, user_id=user_id, project_id=project_id, type=memory_type, **fields)
            )
        if not memories:
            return []
        self.check_memory_limit(user_id, adding=len(memories))
        vectors = self.embed_texts([m.content for m in memories])
        changes = ChangeSet(vectors={m.id: v for m, v in zip(memories, vectors, strict=True)})
        for memory in memories:
            changes.add(*transitions.create(memory, reason=reason, actor=actor, at=self.clock.now()))
        self._commit(changes)
        return memories

    def new_memory(self, content: str, **fields: Any) -> Memory:
        """A validated, unsaved memory created now; ``fields`` are those of
        :func:`~memopilot.validation.new_record` (user_id, project_id, type, tags, ...)."""
        return new_record(content, now=self.clock.now(), settings=self.settings, **fields)

    @settled
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
        self.flush_uses()
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

    @settled
    def history(self, memory_id: str, *, user_id: str = DEFAULT_USER) -> list[TimelineEvent]:
        self.get(memory_id, user_id=user_id)
        return self.store.events(memory_id)

    @settled
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

    # --- the read path -----------------------------------------------------------------------
    @_beside_the_embedder
    @settled
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
        vector = self.embed_texts([query], queries=True)[0]
        candidates = [
            c
            for c in self.retriever.candidates(query, vector, user_id=user_id, project_id=project_id)
            if c.sources != ("priority",)  # listed for the context builder, not matched by the query
        ]
        table = ScoreTable.of_memories(
            [c.memory for c in candidates],
            [c.similarity for c in candidates],
            now=now,
            project_id=project_id,
            settings=self.settings,
        )
        results = [
            SearchResult(c.memory, score.final, score.components, c.similarity)
            for c, score in zip(candidates, table.scores(), strict=True)
        ]
        results.sort(key=lambda r: (-r.score, r.memory.id))
        # copies: the index's memory objects are shared
        return [dataclasses.replace(r, memory=r.memory.copy()) for r in results[:k]]

    @settled
    def build_context(
        self,
        query: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        budget_tokens: int | None = None,
        record_usage: bool = True,
        persist: bool = True,
    ) -> ContextResult:
        """The memory context for ``query`` within ``budget_tokens`` and its stored trace.

        ``persist=False`` leaves storing the trace and counting uses to the caller (the chat turn).
        """
        query = redact(_clean_query(query, self.settings)).text  # the question is stored in the trace
        return self._context_and_found(
            query,
            user_id=user_id,
            project_id=project_id,
            budget_tokens=budget_tokens,
            record_usage=record_usage,
            persist=persist,
        )[0]

    @_beside_the_embedder
    def _context_and_found(
        self,
        query: str,
        *,
        user_id: str,
        project_id: str | None,
        budget_tokens: int | None,
        record_usage: bool = True,
        persist: bool = True,
    ) -> tuple[ContextResult, Found]:
        """The context, and what was retrieved for it: the chat turn hands that on to the write
        path, which needs the same message's vector and candidates (nothing changes in between)."""
        budget = self.settings.context_budget if budget_tokens is None else int(budget_tokens)
        if budget < 1:
            raise InvalidInputError("budget_tokens must be at least 1")
        started = time.perf_counter()
        vector = self.embed_texts([query], queries=True)[0]
        embedded = time.perf_counter()
        maintenance, found, cold, sweep_ms = self._swept_candidates(
            query, vector, user_id=user_id, project_id=project_id
        )
        candidates = found.candidates
        retrieved = time.perf_counter()
        now = self.clock.now()
        table = ScoreTable(found.inputs, [c.similarity for c in candidates], now=now, settings=self.settings)
        packed = pack_context(
            list(zip(candidates, table.scores(), strict=True)),
            budget=budget,
            settings=self.settings,
            query=query,
            # the best-placed skipped candidates; the rest only as a count (a trace is stored per read)
            skipped_listed=self.settings.trace_skipped_limit,
        )
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
            skipped_total=packed.skipped_total,
            maintenance={"expired": len(maintenance.expired), "archived": len(maintenance.archived)},
            signed_weights=table.signed_weights,
        )
        trace.latency_ms = {
            "forgetting": round(sweep_ms, 3),
            "embed": _ms(started, embedded),
            "retrieve": round(_ms(embedded, retrieved) - sweep_ms, 3),
            "score_and_pack": _ms(retrieved, packed_at),
            "total": _ms(started, packed_at),
        }
        if persist:
            # A question asked outside a chat turn is its own message: its id lets delete_user erase it.
            trace.message_id = trace.message_id or trace.id
            self.persist_turn(
                ChangeSet(traces=[trace.to_stored()]),
                packed.included_ids if record_usage else [],
                user_id,
                after_load=cold,
            )
        storable = self.embedder.embeds_queries_alike  # a question's vector, stored only if alike
        return ContextResult(packed.text, trace), Found(query, vector, candidates, storable)

    def _swept_candidates(
        self, query: str, vector: np.ndarray, *, user_id: str, project_id: str | None
    ) -> tuple[ForgettingReport, Retrieved, bool, float]:
        """The forgetting sweep (when something can be due) and the candidates, with one read of
        the user's change token for both; also whether the user was loaded (a cold read) and the
        sweep's milliseconds. A held user is swept first. A cold one is loaded first: the load
        gives the sweep schedule the user's next moment, so the sweep asks the store nothing, and
        in the rare case it then changes something the user is ranked again."""
        token = self.store.change_token(user_id)
        cold = not self.index.holds(user_id)  # this read loads its user (the slowest kind of read)
        sweep_s = 0.0
        report = None
        if not cold:
            began = time.perf_counter()
            report = self.sweep_if_due(user_id, token)
            sweep_s += time.perf_counter() - began
        # (after a sweep that ran, the token may be behind its commit: the index reads it anew)
        found = self.retriever.retrieve(
            query, vector, user_id=user_id, project_id=project_id, token=token if report is None else None
        )
        if cold:
            began = time.perf_counter()
            report = self.sweep_if_due(user_id, token)
            sweep_s += time.perf_counter() - began
            if report is not None:
                found = self.retriever.retrieve(query, vector, user_id=user_id, project_id=project_id)
        return report or ForgettingReport(), found, cold, sweep_s * 1000.0

    def persist_turn(
        self, changes: ChangeSet, used_ids: Sequence[str], user_id: str, *, after_load: bool = False
    ) -> None:
        """Store a trace (and logged turns) and count one use of each of ``user_id``'s memories
        given to a caller, all in one transaction (``after_load``: the read loaded its user's
        index, so a batch of earlier reads' uses waits for a later read; UsageBuffer.due)."""
        if used_ids:
            now = self.clock.now()
            self.uses.add(used_ids, now)
            self.index.count_uses(user_id, used_ids, now)
        self._commit(changes, after_load=after_load)

    # --- the write path and the chat turn ----------------------------------------------------
    def remember(
        self,
        message: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        session_id: str | None = None,
        message_id: str | None = None,
        speaker: str | None = None,
    ) -> WriteOutcome:
        """Run the write path on one user message (SPEC section 5) and commit what it decides.

        The message is always kept verbatim (redacted) as an ``episode``; ``speaker`` names who
        said it when several people share one memory (the episode reads "speaker: message").

        A message with a ``message_id`` is applied once: the store claims (user_id, message_id)
        in the transaction that writes its memories, so a retry, or the same message arriving at
        two processes at once, writes nothing the second time.
        """
        if not isinstance(message, str) or not message.strip():
            raise InvalidInputError("the message is empty")
        return self._remember(
            redact(message),
            user_id=user_id,
            project_id=project_id,
            session_id=session_id,
            message_id=message_id,
            speaker=speaker,
        )

    @_beside_the_embedder
    def _remember(
        self,
        message: Redaction,
        *,
        user_id: str,
        project_id: str | None,
        session_id: str | None,
        message_id: str | None,
        speaker: str | None = None,
        found: Found | None = None,
    ) -> WriteOutcome:
        """:meth:`remember` for a message already redacted (the chat turn redacts it once, and
        gives what its read path ``found`` for the same text)."""
        check_ids(user_id, project_id)
        if speaker is not None:
            speaker = clean_speaker(speaker)
        self.later_judgements.settle(user_id)  # the previous message's judgement lands first
        if found is None or found.text != message.text:
            found = self._find(message.text, user_id, project_id)
        plan = self.write_path.plan(
            message,
            self._write_inputs(found, user_id),
            user_id=user_id,
            project_id=project_id,
            session_id=session_id,
            message_id=message_id,
            speaker=speaker,
        )
        changes, outcome = plan.changes, plan.outcome
        # an episode without a speaker is the message itself: its vector is known when it was embedded
        # as a memory would be
        known = {found.text: found.vector} if found.storable else {}
        fresh = [m for m in plan.to_embed if m.content not in known]
        if fresh:
            known.update(
                zip([m.content for m in fresh], self.embed_texts([m.content for m in fresh]), strict=True)
            )
        changes.vectors.update((m.id, known[m.content]) for m in plan.to_embed)
        if message_id is not None:
            changes.messages.append((user_id, message_id))
        try:
            self._commit(changes)
        except MessageAlreadyAppliedError:
            from ..write.planner import WriteOutcome

            return WriteOutcome(
                editor=outcome.editor,
                notes=[f"message {message_id!r} was already applied; nothing was written again"],
            )
        if plan.later is not None:
            self.later_judgements.submit(user_id, plan.later)
        return outcome

    def settle(self, user_id: str | None = None, timeout: float | None = None) -> bool:
        """Wait until the learned judgements earlier writes left to the background are applied
        (the user's, or everyone's); False when ``timeout`` passed first. Every engine operation on
        a user does this first; a caller reading the store directly calls it. A write's outcome
        then lists what its judgement superseded (``WriteOutcome.judged_later`` says one ran)."""
        return self.later_judgements.settle(user_id, timeout)

    def _apply_later_judgement(self, user_id: str, later: LaterJudgement) -> None:
        """The background half of a write (engine/later_judgements.py): the judgement over the
        memories it names, as they are now, committed with its events."""
        from ..write.planner import WriteInputs

        named = [*later.candidates, *later.turns, *later.news]
        found = self.store.get_many(set(named), user_id=user_id)
        existing = [found[i] for i in (*later.candidates, *later.news) if i in found]
        earlier = [found[i] for i in later.turns if i in found]
        evidence = self.store.get_many({s for m in existing for s in m.source_ids}, user_id=user_id)
        inputs = WriteInputs(
            now=later.said_at,
            settings=self.settings,
            existing=existing,
            earlier=earlier,
            evidence=evidence,
            room=None,
        )
        with self.blas_beside_the_embedder():
            plan = self.write_path.plan_later_judgement(later, inputs)
        if plan is not None:
            if plan.to_embed:  # the part of an earlier turn that stays (the planner's retire_stale)
                vectors = self.embed_texts([m.content for m in plan.to_embed])
                plan.changes.vectors.update(zip([m.id for m in plan.to_embed], vectors, strict=True))
            self._commit(plan.changes)
            self.write_path.landed(later, plan)

    def _find(self, text: str, user_id: str, project_id: str | None) -> Found:
        """What a write reads of the store: the memories nearest ``text``. The write path uses the
        first :data:`~memopilot.write.planner.EXISTING_SHOWN` of each kind, so it asks for twice
        that many per ranking rather than a read's ``candidate_limit``."""
        from ..write.planner import EXISTING_SHOWN

        vector = self.embed_texts([text])[0]
        candidates = self.retriever.candidates(
            text, vector, user_id=user_id, project_id=project_id, limit=2 * EXISTING_SHOWN
        )
        return Found(text, vector, candidates)

    def _write_inputs(self, found: Found, user_id: str) -> WriteInputs:
        """Every read the write path needs for one message: the typed memories most relevant to it
        (the editor sees them; duplicates and contradictions are checked against them), the most
        relevant earlier episodes, the episodes those memories came from, and the room left."""
        from ..write.planner import EXISTING_SHOWN, WriteInputs

        candidates = found.candidates
        typed = [
            c.memory
            for c in candidates
            if c.memory.type is not MemoryType.EPISODE and not c.memory.is_summary
        ]
        typed = typed[:EXISTING_SHOWN]
        earlier = [c.memory for c in candidates if c.memory.type is MemoryType.EPISODE][:EXISTING_SHOWN]
        evidence = self.store.get_many({s for m in typed for s in m.source_ids}, user_id=user_id)
        return WriteInputs(
            now=self.clock.now(),
            settings=self.settings,
            existing=typed,
            earlier=earlier,
            evidence=evidence,
            replaced=self._replaced(typed, user_id),
            room=self.memory_room(user_id),
            judge_later=self._judge_later,
        )

    def _replaced(self, typed: list[Memory], user_id: str) -> dict[str, Memory]:
        """The memories ``typed`` ones replaced, and the episodes those cite, by id (what a
        reversal may go back to: :meth:`WritePath._apply_reversal`)."""
        replaced = self.store.get_many({m.supersedes for m in typed if m.supersedes}, user_id=user_id)
        if not replaced:
            return {}
        cited = {s for m in replaced.values() for s in m.source_ids} - set(replaced)
        return {**replaced, **self.store.get_many(cited, user_id=user_id)} if cited else replaced

    def chat(
        self,
        message: str,
        *,
        user_id: str = DEFAULT_USER,
        project_id: str | None = DEFAULT_PROJECT,
        session_id: str | None = None,
    ) -> ChatResult:
        """One chat turn: read, answer (LLM or honest offline reply), write."""
        from .chat import run_chat_turn

        check_ids(user_id, project_id)
        return run_chat_turn(
            self, message, user_id=user_id, project_id=project_id, session_id=session_id, llm=self.llm
        )

    @settled
    def get_trace(self, trace_id: str, *, user_id: str = DEFAULT_USER) -> dict[str, Any]:
        trace = self.store.get_trace(trace_id)
        if trace is None or trace.get("user_id") != user_id:
            raise NotFoundError(f"no trace {trace_id!r} for this user")
        return readable_trace(trace)

    @settled
    def traces(self, *, user_id: str = DEFAULT_USER, limit: int = 20) -> list[dict[str, Any]]:
        return [readable_trace(t) for t in self.store.list_traces(user_id, limit)]

    @settled
    def session_turns(
        self, session_id: str, *, user_id: str = DEFAULT_USER, limit: int = 100
    ) -> list[dict[str, Any]]:
        """The last ``limit`` logged messages of a chat session, oldest first, each with the id of
        its turn's trace: what a client needs to show the conversation again (a page reload).
        Forgotten messages come back with empty content."""
        return self.store.recent_turns(user_id, session_id, limit)

    # --- views and portability ---------------------------------------------------------------
    @settled
    def graph(
        self, *, user_id: str = DEFAULT_USER, project_id: str | None = None, limit: int = 300
    ) -> dict[str, Any]:
        self.flush_uses()
        return insights.build_graph(
            self.store,
            user_id=user_id,
            project_id=project_id,
            limit=limit,
            similarities=self.embedder.similarities,
        )

    @settled
    def analytics(self, *, user_id: str = DEFAULT_USER, project_id: str | None = None) -> dict[str, Any]:
        self.flush_uses()
        return insights.build_analytics(
            self.store, user_id=user_id, project_id=project_id, now=self.clock.now()
        )

    @settled
    def export(self, user_id: str = DEFAULT_USER) -> dict[str, Any]:
        self.flush_uses()
        return portability.export_user(
            self.store, user_id, now=self.clock.now(), model_id=self.embedder.model_id
        )

    @settled
    def import_(self, document: dict[str, Any], *, user_id: str | None = None) -> ImportReport:
        """Import an :meth:`export` document (into ``user_id`` if given, else its own user)."""
        plan = portability.plan_import(
            self.store, document, user_id=user_id, now=self.clock.now(), settings=self.settings
        )
        if plan.memories:  # all of one target user
            live_count = sum(1 for m in plan.memories if m.content)
            self.check_memory_limit(plan.memories[0].user_id, adding=live_count)
        live = [m for m in plan.memories if m.content]
        vectors = self.embed_texts([m.content for m in live]) if live else []
        changes = ChangeSet(
            memories=plan.memories,
            events=plan.events,
            vectors={m.id: v for m, v in zip(live, vectors, strict=True)},
        )
        self._commit(changes)
        return plan.report


def _clean_query(query: str, settings: Settings) -> str:
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("the question is empty")
    if len(query) > settings.max_message_chars:  # a chat message is the question of its turn
        raise ContentTooLongError(
            f"the question is {len(query)} characters; the limit is {settings.max_message_chars} "
            "(MEMOPILOT_MAX_MESSAGE_CHARS)"
        )
    return query.strip()


def _ms(start: float, end: float) -> float:
    return round((end - start) * 1000.0, 3)
