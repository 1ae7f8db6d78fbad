"""The lifecycle operations of :class:`~memopilot.engine.facade.MemoPilot`: edit, pin, archive,
supersede, Forget.

Each operation checks ownership (another user's id is "not found"), refuses transitions
that make no sense with a :class:`ConflictError`, and writes the change with its
timeline event through the engine's one commit path.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .. import transitions
from ..clock import ensure_utc
from ..domain import EventKind, Memory, MemoryState, MemoryType, TimelineEvent
from ..errors import ConflictError, InvalidInputError
from ..store import ChangeSet, MemoryQuery
from ..validation import clean_content, clean_tags, clean_unit, parse_privacy, parse_state, parse_type
from . import reflection
from .core import DEFAULT_USER, EngineCore
from .later_judgements import settled

__all__ = ["LifecycleOps"]

_UNSET: Any = object()
_ALL_TRACES = 10_000_000  # delete_user reads every trace of the user


class LifecycleOps(EngineCore):
    @settled
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
        updated, event = transitions.edit(memory, changed, reason=reason, actor=actor, at=self.clock.now())
        changes = ChangeSet()
        if "content" in changed:
            changes.vectors[updated.id] = self.embed_texts([updated.content])[0]
        changes.add(updated, event)
        self._commit(changes)
        return updated

    @settled
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

    @settled
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

    @settled
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

    @settled
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

    @settled
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

    @settled
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
        replaced, event = transitions.supersede(old, by=new.id, reason=reason, actor=actor, at=now)
        changes = ChangeSet()
        changes.add(replaced, event)
        changes.add(new.copy(supersedes=old.id, updated_at=now))
        self._commit(changes)
        return replaced

    def forget(
        self, memory_id: str, *, user_id: str = DEFAULT_USER, actor: str = "user", cascade: bool = False
    ) -> Memory:
        """The user's Forget (see :meth:`forget_report`); returns the tombstone."""
        return self.forget_report(memory_id, user_id=user_id, actor=actor, cascade=cascade)[0]

    @settled
    def forget_report(
        self, memory_id: str, *, user_id: str = DEFAULT_USER, actor: str = "user", cascade: bool = False
    ) -> tuple[Memory, list[str]]:
        """The user's Forget: erase content, tags and vector; keep a content-free tombstone.

        What was derived only from the forgotten memory goes with it (an episode's typed
        memories, unless another message stated them too); ``cascade`` also forgets the
        memory's source episodes and what was derived only from them. Earlier events lose
        their details and reasons; summaries that listed a forgotten memory are rewritten
        without it; the store then purges residue from its files. Returns the tombstone and the
        ids of the other memories forgotten with it (also in its event's ``also_forgotten``).
        """
        memory = self.get(memory_id, user_id=user_id)
        if memory.state is MemoryState.DELETED:
            return memory, []
        forgotten = self._forget_set(memory, cascade=cascade)
        now = self.clock.now()
        changes = ChangeSet(scrub_events_of=list(forgotten))
        tombstones: dict[str, Memory] = {}
        for target in forgotten.values():
            changes.vectors[target.id] = None
            if target.message_id:  # the logged message it came from, and that turn's trace question
                changes.erase_messages.append((target.user_id, target.message_id))
            if target.content:
                changes.erase_quotes.append((target.user_id, target.content))
            if target.id == memory.id:
                reason = "forgotten at the user's request"
                details = {"also_forgotten": [i for i in forgotten if i != memory.id]}
            else:
                reason = f"forgotten with memory {memory.id}, from which it came or which came from it"
                details = {}
            tombstone, event = transitions.tombstone(target, reason=reason, actor=actor, at=now, **details)
            tombstones[target.id] = tombstone
            changes.add(tombstone, event)
        self._drop_from_summaries(memory.user_id, set(forgotten), changes)
        self._commit(changes)
        self.store.purge_residue()
        return tombstones[memory.id], [i for i in forgotten if i != memory.id]

    def _forget_set(self, memory: Memory, *, cascade: bool) -> dict[str, Memory]:
        """``memory``, its source episodes when ``cascade``, and everything derived only from
        those (repeatedly: a summary of memories that all go, goes too)."""
        chosen = {memory.id: memory}
        if cascade and memory.type is not MemoryType.EPISODE:
            for source in self.store.get_many(memory.source_ids, user_id=memory.user_id).values():
                if source.type is MemoryType.EPISODE and source.state is not MemoryState.DELETED:
                    chosen[source.id] = source
        frontier = list(chosen)
        while frontier:
            added = [
                derived
                for derived in self.store.citing(frontier, user_id=memory.user_id)
                if derived.id not in chosen
                and derived.state is not MemoryState.DELETED
                and self._only_from(derived, set(chosen))
            ]
            chosen.update((d.id, d) for d in added)
            frontier = [d.id for d in added]
        return chosen

    def _only_from(self, derived: Memory, going: set[str]) -> bool:
        """Whether every source of ``derived`` is going now or was forgotten before."""
        others = [i for i in derived.source_ids if i not in going]
        if not others:
            return True
        found = self.store.get_many(others, user_id=derived.user_id)
        return all(i in found and found[i].state is MemoryState.DELETED for i in others)

    @settled
    def delete_user(self, user_id: str, *, actor: str = "user", batch_size: int = 500) -> dict[str, Any]:
        """Erase all content of ``user_id``, leaving content-free tombstones (``DELETE /api/users/me``).

        Every memory is forgotten as :meth:`forget` does (content, tags, sources and vector
        erased, earlier events scrubbed, a content-free ``deleted`` event), ``batch_size``
        memories per transaction. Then the user's logged chat turns and the questions of their
        stored traces are erased, and the store purges residue from its files. An interrupted
        run leaves every batch either done or untouched; running it again finishes the job.
        """
        self.flush_uses()
        if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > 200:
            raise InvalidInputError("user_id must be a non-empty string of at most 200 characters")
        if batch_size < 1:
            raise InvalidInputError("batch_size must be at least 1")
        report = {"user_id": user_id, "memories_forgotten": 0, "tombstones": 0, "messages_erased": 0}
        messages: set[str] = set()
        offset = 0
        while True:  # rows are never removed, so paging by offset sees each memory once
            page, _ = self.store.list_memories(
                MemoryQuery(user_id=user_id, all_projects=True, limit=batch_size, offset=offset)
            )
            if not page:
                break
            offset += len(page)
            now = self.clock.now()
            changes = ChangeSet(scrub_events_of=[m.id for m in page])
            for memory in page:
                changes.vectors[memory.id] = None
                if memory.message_id:
                    messages.add(memory.message_id)
                    changes.erase_messages.append((user_id, memory.message_id))
                report["tombstones"] += 1
                if memory.state is MemoryState.DELETED and not (memory.content or memory.tags):
                    continue
                changes.add(
                    *transitions.tombstone(
                        memory, reason="erased with all of the user's data", actor=actor, at=now
                    )
                )
                report["memories_forgotten"] += 1
            self._commit(changes)
        # Chat turns and context questions are logged under message ids that their traces carry.
        traces = self.store.list_traces(user_id, limit=_ALL_TRACES)
        pending = sorted({t["message_id"] for t in traces if t.get("message_id")} - messages)
        report["messages_erased"] = len(messages) + len(pending)
        done = TimelineEvent(
            user_id=user_id,
            memory_id=None,
            kind=EventKind.DELETED,
            at=self.clock.now(),
            actor=actor,
            reason="all of the user's data was erased",
            details={k: v for k, v in report.items() if k != "user_id"},
        )
        self._commit(ChangeSet(events=[done], erase_messages=[(user_id, m) for m in pending]))
        self.store.purge_residue()
        return report

    def _drop_from_summaries(self, user_id: str, forgotten: set[str], changes: ChangeSet) -> None:
        for summary in self.store.citing(forgotten, user_id=user_id):
            if not summary.is_summary or summary.id in forgotten:
                continue
            wanted = (i for i in summary.source_ids if i not in forgotten)
            sources = list(self.store.get_many(wanted, user_id=user_id).values())
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
            changes.vectors[rewritten.id] = self.embed_texts([rewritten.content])[0]
            changes.add(
                rewritten,
                self.make_event(
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
        updated, event = transitions.move(
            memory, to_state, kind, reason=reason, actor="user", at=self.clock.now()
        )
        changes = ChangeSet()
        changes.add(updated, event)
        self._commit(changes)
        return updated
