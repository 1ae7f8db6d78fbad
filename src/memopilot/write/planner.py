"""SPEC section 5: the write path, from one user message to a change set.

    message -> redact secrets -> keep the message verbatim as an episode (its evidence)
            -> memory editor (rules, or an LLM with fallback)
            -> drop anything still secret-like -> merge near-duplicates (same type)
            -> contradictions: deterministic rules, then the editor's updates and forgets
               (every id re-checked: this user, this project or user-wide; never critical)
            -> expires_at for temporary notes and deadlines -> embed -> one ChangeSet

The planner is pure: it is given the message, what the engine read for it (the relevant
memories and earlier episodes, the episodes they came from, how many memories the user may
still add), the time and the editor, and returns a plan. The engine does every read before and
all I/O after: it embeds what the plan lists and commits the change set in one transaction, so a
message's memories, supersessions and events land together or not at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .. import transitions
from ..domain import SPEAKER_TAG, EventKind, Memory, MemoryState, MemoryType, TimelineEvent, new_id
from ..errors import InvalidInputError, MemoryLimitError
from ..settings import Settings
from ..store import ChangeSet
from ..text import content_terms, split_for_storage, text_ratio
from ..validation import clean_content, clean_tags, new_record
from . import dates
from .contradictions import (
    announces_change,
    changed_period,
    find_supersessions,
    marks_change,
    pointed_back_at,
    returned_to,
    settles_a_choice,
    stale_episodes,
    states_one_thing,
    states_other_amounts,
    takes_back,
    weighs_a_choice,
)
from .date_words import readable_dates
from .editor import EditorContext, EditorResult, MemoryEditor, MemoryUpdate, NewMemory
from .redaction import Redaction, looks_secret
from .sentences import clauses, clean_statement, parted, split_sentences, tells_past_event, told
from .update_judge import UpdateJudge, Verdict, default_judge

__all__ = ["EXISTING_SHOWN", "LaterJudgement", "WriteInputs", "WriteOutcome", "WritePath", "WritePlan"]

_SAID_IN_FULL = 0.8  # a message whose memories hold this share of its text said nothing else
_MAX_CITED = 50  # episodes a typed memory cites when several messages stated it
EXISTING_SHOWN = 30  # relevant memories shown to the editor and checked for duplicates/contradictions


@dataclass(slots=True)
class WriteOutcome:
    """What one message changed, for the chat answer, the trace and the API."""

    editor: str
    fallback_reason: str | None = None
    redacted: int = 0
    redacted_kinds: list[str] = field(default_factory=list)
    created: list[Memory] = field(default_factory=list)  # typed memories
    episodes: list[Memory] = field(default_factory=list)  # the message kept verbatim
    updated: list[Memory] = field(default_factory=list)
    superseded: list[dict[str, str]] = field(default_factory=list)  # {"id", "by", "rule", "reason"}
    archived: list[dict[str, str]] = field(default_factory=list)  # the editor's forget requests
    notes: list[str] = field(default_factory=list)  # refusals, blocked conflicts, dropped secrets
    # the learned judgement of what the message updates was left to the background: applied just
    # after the write returns, its change joins ``superseded`` once it has landed (MemoPilot.settle)
    judged_later: bool = False

    def actions(self) -> dict[str, Any]:
        return {
            "created": [m.to_dict() for m in self.created],
            "episodes": [m.to_dict() for m in self.episodes],
            "updated": [m.to_dict() for m in self.updated],
            "superseded": self.superseded,
            "archived": self.archived,
            "redacted": self.redacted,
        }

    def summary(self) -> dict[str, Any]:
        """The content-free record of the write kept in the trace."""
        return {
            "editor": self.editor,
            "fallback_reason": self.fallback_reason,
            "redacted": self.redacted,
            "redacted_kinds": self.redacted_kinds,
            "created": [m.id for m in self.created],
            "episodes": [m.id for m in self.episodes],
            "updated": [m.id for m in self.updated],
            "superseded": self.superseded,
            "archived": self.archived,
            "notes": self.notes,
            "judged_later": self.judged_later,
        }


@dataclass(frozen=True, slots=True)
class WriteInputs:
    """What the engine read for one message before planning it."""

    now: datetime
    settings: Settings
    existing: list[Memory]  # the most relevant typed memories (the editor sees them; dedup, contradictions)
    earlier: list[Memory]  # the most relevant earlier episodes (a value the message explicitly changes)
    evidence: dict[str, Memory]  # the episodes the existing memories cite, by id
    room: int | None  # how many memories the user may still add (None: no limit)
    # the memories the existing ones replaced (their ``supersedes``), and the episodes those cite,
    # by id: what a reversal ("back on oat milk") may go back to
    replaced: dict[str, Memory] = field(default_factory=dict)
    # leave the learned judgement's e5 reading to the engine's background (WritePlan.later)
    judge_later: bool = False


@dataclass(frozen=True, slots=True)
class LaterJudgement:
    """A learned judgement the write left to the background: e5's reading of a pair costs more
    than the rest of a write (about 20 ms a text on two cores), so a write whose static screening
    finds a plausible update commits everything else at once and the engine applies this after it
    (engine/later_judgements.py) to the memories named here, as they are then."""

    text: str  # the message (redacted)
    candidates: tuple[str, ...]  # ids of the typed memories it may update, in the planner's order
    turns: tuple[str, ...]  # ids of earlier turns a marked change may make stale when no memory is picked
    # the message's typed memories: the first supersedes what the message changes, or the one whose
    # own words the judgement is sure change it (:func:`_decide`)
    news: tuple[str, ...]
    sources: tuple[str, ...]  # the message's episodes
    said_at: datetime
    actor: str
    # the write's outcome, which gains the judgement's changes when it lands (its caller sees them
    # after MemoPilot.settle)
    outcome: WriteOutcome | None = field(default=None, compare=False)


@dataclass(slots=True)
class WritePlan:
    changes: ChangeSet  # memories and events; the engine adds the vectors of ``to_embed``
    outcome: WriteOutcome
    to_embed: list[Memory]
    later: LaterJudgement | None = None  # for the engine to apply after committing ``changes``


class WritePath:
    """Plans the changes one message makes; the engine reads before and commits after."""

    def __init__(self, editor: MemoryEditor) -> None:
        self.editor = editor

    def plan(
        self,
        redaction: Redaction,
        inputs: WriteInputs,
        *,
        user_id: str,
        project_id: str | None,
        session_id: str | None,
        message_id: str | None,
        speaker: str | None = None,
    ) -> WritePlan:
        """The plan for one message, given redacted (the caller redacts it once).

        The message is always kept as an episode (several when it is longer than one memory may
        be); every typed memory the editor derives cites it in ``source_ids``.
        """
        text = redaction.text
        now = inputs.now
        existing, earlier = inputs.existing, inputs.earlier
        result = self.editor.edit(text, EditorContext(now, user_id, project_id, existing))
        outcome = WriteOutcome(
            editor=result.editor,
            fallback_reason=result.fallback_reason,
            redacted=redaction.count,
            redacted_kinds=sorted({f.kind for f in redaction.findings}),
            notes=list(result.notes),
        )
        plan = _Plan(inputs, outcome, actor=f"editor:{result.editor}")
        plan.live = {m.id: m for m in existing}
        provenance = {"session_id": session_id, "message_id": message_id}
        plan.speaker = speaker
        plan.session_id = session_id
        plan.speaker_tags = [f"{SPEAKER_TAG}{speaker}"] if speaker else []
        episodes = self._keep_episodes(plan, text, user_id, project_id, provenance, speaker)
        plan.sources = [e.id for e in episodes]
        created = self._apply_new(plan, result, user_id, project_id, provenance)
        plan.date_episodes([m for m in created if m is not None])
        self._apply_updates(plan, result.output.updates, created, user_id, project_id)
        self._apply_forgets(plan, result, user_id, project_id)
        self._apply_message_changes(plan, text, created)
        self._apply_reversal(plan, text, created)
        if not plan.outcome.superseded:
            self._apply_correction(plan, text, created)
        if not plan.outcome.superseded:
            self._apply_judged_update(plan, text, created)
        elif beside := _told_beside_the_changed(plan):
            self._apply_judged_update(plan, text, created, among=beside)
        for stale in stale_episodes(text, earlier):
            plan.retire_episode(stale, reason="a later message explicitly changed what it said")
        changes, to_embed = plan.finish()
        return WritePlan(changes, outcome, to_embed, later=plan.later)

    def plan_later_judgement(self, later: LaterJudgement, inputs: WriteInputs) -> WritePlan | None:
        """The plan of a judgement left to the background, over the memories it names as they are
        now (``inputs.existing``: the candidates and the message's memories; ``inputs.earlier``: the
        earlier turns; ``inputs.evidence``: the episodes the candidates cite). Those no longer in
        a context state are left alone; None when a memory of the message is gone or nothing is changed."""
        judge = default_judge()
        if judge is None:
            return None
        outcome = WriteOutcome(editor=later.actor.removeprefix("editor:"))
        plan = _Plan(inputs, outcome, actor=later.actor)
        plan.live = {m.id: m for m in [*inputs.existing, *inputs.earlier] if m.in_context_state}
        plan.sources = list(later.sources)
        news = [plan.live[i] for i in later.news if i in plan.live]
        if len(news) < len(later.news):
            return None  # a memory of the message was changed or forgotten since: its news is stale
        live = [plan.live[i] for i in later.candidates if i in plan.live]
        turns = [plan.live[i] for i in later.turns if i in plan.live]
        _decide(plan, judge, later.text, live, turns, news)
        if not outcome.superseded:
            return None
        changes, to_embed = plan.finish()  # (the part of a turn that stays needs its vector)
        return WritePlan(changes, outcome, to_embed)

    @staticmethod
    def landed(later: LaterJudgement, plan: WritePlan) -> None:
        """Once the engine committed ``plan``: the write's own outcome lists its changes too."""
        if later.outcome is not None:
            later.outcome.superseded.extend(plan.outcome.superseded)

    def _keep_episodes(
        self,
        plan: _Plan,
        text: str,
        user_id: str,
        project_id: str | None,
        provenance: dict[str, Any],
        speaker: str | None,
    ) -> list[Memory]:
        said = f"{speaker}: {text}" if speaker else text
        pieces = split_for_storage(said, plan.settings.max_content_chars)
        try:
            plan.make_room(len(pieces))
            episodes = [
                new_record(
                    piece,
                    now=plan.now,
                    settings=plan.settings,
                    user_id=user_id,
                    project_id=project_id,
                    type=MemoryType.EPISODE,
                    tags=plan.speaker_tags,
                    occurred_at=plan.now,
                    redacted=True,  # the caller redacted the message
                    **provenance,
                )
                for piece in pieces
            ]
        except InvalidInputError as exc:
            plan.outcome.notes.append(f"the message was not kept as an episode: {exc}")
            return []
        for episode in episodes:
            plan.keep_episode(episode)
        return episodes

    def _apply_new(
        self,
        plan: _Plan,
        result: EditorResult,
        user_id: str,
        project_id: str | None,
        provenance: dict[str, Any],
    ) -> list[Memory | None]:
        """Create (or merge) each proposed memory; index-aligned with new_memories for the updates."""
        created: list[Memory | None] = []
        for item in result.output.new_memories:
            memory = self._new_memory(plan, item, user_id, project_id, provenance)
            created.append(memory)
        return created

    def _new_memory(
        self, plan: _Plan, item: NewMemory, user_id: str, project_id: str | None, provenance: dict[str, Any]
    ) -> Memory | None:
        content = item.content.lower()
        # (a tag that is a word of the content was scanned with it: one scan costs ~0.1 ms)
        if looks_secret(item.content) or any(looks_secret(t) for t in item.tags if t.lower() not in content):
            plan.outcome.notes.append(
                f"dropped a proposed {item.type} memory that still looked like a secret"
            )
            return None
        memory_type = MemoryType(item.type)
        duplicate = plan.find_duplicate(item.content, memory_type, plan.settings.dedup_ratio)
        if duplicate is not None and not find_supersessions(item.content, memory_type, [duplicate]):
            return plan.restate(duplicate, item)  # the same thing said again, not a changed value
        try:
            plan.make_room(1)
            memory = new_record(
                item.content,
                now=plan.now,
                settings=plan.settings,
                user_id=user_id,
                project_id=project_id if item.scope == "project" else None,
                type=memory_type,
                tags=[*plan.speaker_tags, *item.tags],
                importance=item.importance,
                confidence=item.confidence,
                expires_at=_expiry(item, memory_type, plan.now, plan.settings),
                occurred_at=plan.now,
                redacted=True,  # looks_secret above passed the content and every tag
                **provenance,
            ).copy(source_ids=list(plan.sources))
        except InvalidInputError as exc:
            plan.outcome.notes.append(f"skipped a proposed memory: {exc}")
            return None
        plan.create(memory)
        for found in find_supersessions(memory.content, memory.type, plan.earlier_live()):
            if found.blocked:
                plan.outcome.notes.append(
                    f"conflict with critical memory {found.old.id} ({found.reason}); "
                    "not superseded automatically"
                )
            else:
                plan.supersede(found.old, memory, rule=found.rule, reason=found.reason)
        return memory

    def _apply_message_changes(self, plan: _Plan, text: str, created: list[Memory | None]) -> None:
        """A message that marks a change ("I no longer like dark mode; I prefer light themes now")
        supersedes what it changes as a whole, even when the memory taken from it states only the
        new value. The successor is that memory; without one the old memory is retired."""
        if not marks_change(text):
            return
        successor = _first(created)
        for found in find_supersessions(text, MemoryType.FACT, plan.earlier_live()):
            if found.blocked:
                continue
            if successor is not None:
                current = plan.live.get(successor.id, successor)
                plan.supersede(found.old, current, rule=found.rule, reason=found.reason)
            else:
                plan.retire(found.old, reason=found.reason)

    def _apply_correction(self, plan: _Plan, text: str, created: list[Memory | None]) -> None:
        """A message that opens by taking back what the user has just said ("Oops, scratch that,
        wrong town. It's in Kestrel Bay, the hall by the estuary.") corrects what was taken from the
        same conversation's turn before it: the memory of that turn that shares the most words with
        it (:func:`_what_is_taken_back`) is superseded by the message's first memory, or retired
        when the message stored none (its episode, which states the correction, stays). The learned
        judgement read such pairs at 0.03-0.19: "scratch that" names nothing of what it takes back."""
        if plan.session_id is None or not takes_back(text):
            return
        told = _told_just_before(plan)
        target = _what_is_taken_back(told, text)
        if target is None:
            return
        reason = "the user took back what they had just said"
        plan.replace(target, _first(created), rule="correction", reason=reason)

    def _apply_reversal(self, plan: _Plan, text: str, created: list[Memory | None]) -> None:
        """A change undone ("we've gone back to his old Hollowfield kibble" after "we moved him
        over to Marrowbone Select"): the memory that replaced the value the message returns to was
        the choice in between, and leaves. Read from the chain of supersessions, not from how close
        the words are: the learned judgement reads "I'm back on oat milk after all" as no change of
        "Switched to soy milk for a while" (0.42), since the message never names soy."""
        named, pointed_at = _restored_values(text), _values_pointed_back_at(text)
        if not (named or pointed_at):
            return
        successor = _first(created)
        replaced_by_id = plan.inputs.replaced  # (the superseded memories and their episodes)
        for memory in plan.untouched_earlier():
            replaced = replaced_by_id.get(memory.supersedes or "")
            if replaced is None or memory.is_critical:
                continue
            if not (
                any(_restores(replaced, memory, replaced_by_id, v, tie=False) for v in named)
                or any(_restores(replaced, memory, replaced_by_id, v, tie=True) for v in pointed_at)
            ):
                continue
            plan.replace(
                memory,
                successor,
                rule="reversal",
                reason="the message goes back to what this memory replaced",
            )

    def _apply_judged_update(
        self, plan: _Plan, text: str, created: list[Memory | None], among: set[str] | None = None
    ) -> None:
        """A change the rules did not read ("We finally bought a Skoda; the old car went to my
        nephew"): the learned judgement picks the earlier memory the message most likely updates,
        if it is sure enough. Only one: a message seldom changes two things, and a wrong pick hides
        a memory that still holds.

        Not in a conversation of several speakers (``speaker``): the judgement learned from what a
        user tells an assistant, and friends telling each other their news ("I went to a pride
        parade", then "I went to a poetry reading") read to it as changes. On LoCoMo dev it
        superseded so much that evidence recall fell from 0.82 to 0.42 at 1,000 tokens.

        ``among``: the ids it may judge, when the rules changed something already (then only what
        the same earlier turn told beside it)."""
        judge = default_judge()
        if judge is None or plan.speaker is not None or _adds_to_what_holds(text):
            return
        # A passing state changes nothing that holds, but a new day for a deadline ("the deposit
        # can wait until mid-July now") moves it; news without a day, "off" or "moved" leaves it due.
        dated = readable_dates(text)  # "lo aplazaron al 20 de enero": a day the rules read
        passing = _states_a_passing_state(dated, created, plan.now)
        moves_a_deadline = _moves_a_deadline(dated, plan.now)
        candidates = [
            m
            for m in plan.untouched_earlier()
            if m.type is not MemoryType.EPISODE
            and not m.is_summary
            and not m.is_critical
            and (moves_a_deadline if m.type is MemoryType.DEADLINE else not passing)
            and (among is None or m.id in among)
        ]
        # A message that stores nothing typed (a question, chatter: "what can i take for the
        # pain") retires a memory only when it says it changes something.
        news = [m for m in created if m is not None]
        marked = announces_change(text)  # ("the new world symphony" announces nothing)
        # "We booked it! Port Caldera for the anniversary" closes only a choice left open
        # ("Booked the flights!" changes no taste for aisle seats)
        settled_only = not news and not marked and settles_a_choice(text)
        if not (news or marked or settled_only):
            return
        if settled_only:
            candidates = [m for m in candidates if weighs_a_choice(m.content)]
        if _tells_a_dated_event(dated, plan.now) and not marks_change(text):
            return  # (an event adds to what holds, unless a word says it changes: "my new ...")
        if not marked and plan.session_id is not None:
            # In one conversation, news the rules read no change in adds to what was just said:
            # "coriander tastes like soap to me", then "on the flip side i put smoked paprika in
            # everything" (on the scenario suites, 0 of 4 such replacements were right).
            candidates = [m for m in candidates if m.session_id != plan.session_id]
        if not settles_a_choice(text):
            firmly = marked and _announces_firmly(text)
            candidates = [m for m in candidates if not _builds_on(m, marked=marked, firmly=firmly)]
        # a marked change may also make an earlier turn stale
        turns = _earlier_turns(plan) if (marked or settled_only) and not passing else []
        if marked and (period := changed_period(text)):  # (a sum per month leaves a price be)
            candidates = [m for m in candidates if not states_other_amounts(m.content, period)]
            turns = [turn for turn in turns if not states_other_amounts(turn.content, period)]
        if settled_only:
            turns = [turn for turn in turns if weighs_a_choice(turn.content)]
        if plan.inputs.judge_later and judge.reads_with_e5:
            plan.later = _later_judgement(judge, plan, text, candidates, turns, news)
            plan.outcome.judged_later = plan.later is not None
            return
        _decide(plan, judge, text, candidates, turns, news)

    def _apply_updates(
        self,
        plan: _Plan,
        updates: list[MemoryUpdate],
        created: list[Memory | None],
        user_id: str,
        project_id: str | None,
    ) -> None:
        for update in updates:
            target = plan.owned(update.id, user_id, project_id)
            if target is None:
                continue
            if update.supersede:
                successor = _indexed(created, update.superseded_by_index)
                if target.is_critical:
                    plan.outcome.notes.append(f"refused to supersede critical memory {target.id}")
                elif successor is not None and successor.id != target.id:
                    plan.supersede(
                        target, successor, rule="editor", reason=update.reason or "replaced by the editor"
                    )
                else:
                    plan.retire(target, reason=update.reason or "obsolete according to the editor")
                continue
            plan.edit(target, update)

    def _apply_forgets(self, plan: _Plan, result: EditorResult, user_id: str, project_id: str | None) -> None:
        for request in result.output.forget:
            target = plan.owned(request.id, user_id, project_id)
            if target is not None:
                plan.archive(target, reason=request.reason or "the user asked to forget it")


def _first(created: list[Memory | None]) -> Memory | None:
    """The message's first memory that was stored (what supersedes what the message changes)."""
    return next((m for m in created if m is not None), None)


def _told_just_before(plan: _Plan) -> list[Memory]:
    """The live typed memories taken from the user's turn just before this message in the same
    conversation (none when a later turn of it is known to have stored nothing)."""
    same = [m for m in plan.untouched_earlier() if m.session_id == plan.session_id and not m.is_critical]
    if not same:
        return []
    last = max(same, key=lambda m: m.created_at)
    turns = [*plan.inputs.earlier, *plan.inputs.evidence.values()]
    later = [e for e in turns if e.session_id == plan.session_id and e.created_at > last.created_at]
    if any(e.id not in last.source_ids for e in later):
        return []  # a turn in between: "scratch that" speaks of that one
    return [m for m in same if m.message_id == last.message_id and m.created_at == last.created_at]


def _what_is_taken_back(told: list[Memory], text: str) -> Memory | None:
    """Of the memories one turn told, the one a correction speaks of: the one sharing the most
    words with it (by their first five letters: "allergic" and "allergy"), when that one is clear.
    One sharing none is left be, even alone: "Scratch that, something with rice" after "I have been
    vegetarian since I was twelve" takes back an answer the assistant gave, not the user's words."""
    said = {term[:5] for term in content_terms(text)}
    shared = sorted(
        ((len(said & {term[:5] for term in content_terms(m.content)}), m) for m in told),
        key=lambda pair: -pair[0],
    )
    if not shared or shared[0][0] == 0 or (len(shared) > 1 and shared[1][0] == shared[0][0]):
        return None
    return shared[0][1]


def _adds_to_what_holds(text: str) -> bool:
    """Whether every part of ``text`` that marks a change says it comes on top of what was
    ("Mom found out she's lactose intolerant, so dairy is out for her too now" after "my mom has
    gone fully vegetarian": 0.998 as a change, and the vegetarian mother left every context). Read
    by the parts of a sentence (:data:`_PART_JOIN`): "since I switched our broadband over to
    Tallyfibre ..., so he saw the blackberries too" still changes the broadband."""
    marked = [part for sentence in split_sentences(told(text)) for part in _marked_parts(sentence)]
    return bool(marked) and all(_ADDED.search(part) for part in marked)


# "too" or "as well" closing a clause ("for her too now"), not "too sweet"
_ADDED = re.compile(r"\b(?:too|as well)\s*(?:now\s*)?(?=[,.!?;]|$)", re.IGNORECASE)


def _told_beside_the_changed(plan: _Plan) -> set[str]:
    """The live memories an earlier turn told beside one this message's rules superseded: "I no
    longer have a car at all" replaced "I adore that car", and the same turn's "My daily commute is
    25 minutes in the Corvano" tells of the same car in words the rules cannot tie to it; the
    learned judgement may take it too (at its own bar)."""
    changed = {entry["id"] for entry in plan.outcome.superseded}
    turns = {s for i in changed if i in plan.live for s in plan.live[i].source_ids}
    return {m.id for m in plan.untouched_earlier() if turns & set(m.source_ids)}


def _plain_prose(text: str) -> bool:
    """Text that parts into sentences without losing a character that matters: one paragraph, no
    code, no curly apostrophes (the sentence splitter drops code, bullets and line breaks, and
    straightens apostrophes)."""
    return not any(mark in text for mark in ("\n", "```", "~~~", "’", "‘"))


def _decide(
    plan: _Plan,
    judge: UpdateJudge,
    text: str,
    candidates: list[Memory],
    turns: list[Memory],
    news: list[Memory],
) -> None:
    """Apply the learned judgement: the memory it is surest ``text`` updates is superseded by the
    message's first memory (or retired, when it stored none), with the memories parted from the
    same sentence it is sure of too; failing any, what it is surest of in an earlier turn leaves
    the context (:func:`_stale_turn`); failing that, in a story, what one of its memories changes
    in its own words is superseded by it (:func:`_sure_by_news`)."""
    successor = news[0] if news else None
    sure = _sure_updates(judge, text, candidates)
    if not sure and (stale := _stale_turn(judge, text, turns, candidates)):
        turn, sentences, verdict = stale
        plan.retire_stale(turn, sentences, reason=_judged(verdict))
        return
    if not sure:
        sure, successor = _sure_by_news(judge, text, candidates, news)
    if not sure:
        return
    _, old = sure[0]
    # The other clauses of its sentence it is as sure of go with it: "My running club is the
    # Fenmoor Harriers, we meet on Tuesday evenings" was kept as two memories, and "These days I
    # run with the Saltcombe Striders, Thursday evenings" changes both.
    for verdict, memory in [sure[0], *[(v, m) for v, m in sure[1:] if _one_sentence(plan, m, old)]]:
        plan.replace(memory, successor, rule="learned", reason=_judged(verdict))


def _stale_turn(
    judge: UpdateJudge, text: str, turns: list[Memory], held: list[Memory]
) -> tuple[Memory, list[str], Verdict] | None:
    """The earlier turn whose words the judgement is surest ``text`` changes, the sentences of it
    that it is sure of, and its verdict; None when it is sure of none. A turn of one statement is
    judged whole; a turn of several, a sentence at a time ("I'm looking for a yoga studio near me
    in Harlowmere? My yoga mat is purple." read whole beside "I moved to Dunstow" would take the
    mat out of the context with the town). A sentence that states what the message goes back to
    (more of it than any of the ``held`` memories, which the message is judged against) stays: "We're
    going back to Carrow Isle in June" made the turn that told of a ferry booked to Carrow Isle on
    the wrong date stale (0.99), and a return cannot outdate what it returns to."""
    pieces = [
        (turn, sentence)
        for turn in turns
        for sentence in ([turn.content] if states_one_thing(turn) else split_sentences(turn.content))
    ]
    # (held against the memories too: "Trying almond milk" holds half of "back on oat milk", and
    # only the memory "I take oat milk" holds more)
    said = [sentence for _, sentence in pieces] + [m.content for m in held]
    returned = _stating(said, _restored_values(text))
    pieces = [piece for i, piece in enumerate(pieces) if i not in returned]
    if not pieces:
        return None
    verdicts = judge.judge(text, [sentence for _, sentence in pieces])
    settles = settles_a_choice(text)
    sure = [(v, turn, s) for v, (turn, s) in zip(verdicts, pieces, strict=True) if _updates(v, s, settles)]
    if not sure:
        return None
    verdict, turn, _ = max(sure, key=lambda found: (found[0].closeness, found[0].probability))
    return turn, [s for _, other, s in sure if other.id == turn.id], verdict


def _sure_by_news(
    judge: UpdateJudge, text: str, candidates: list[Memory], news: list[Memory]
) -> tuple[list[tuple[Verdict, Memory]], Memory | None]:
    """In a story (:data:`_STORY_SENTENCES` statements or more), the memories one of its memories
    surely changes, and that memory. The judgement learned from turns of a sentence or two, and a
    story read whole hides its news: "... the owner decided to sell the house, so I rented a flat
    in Elmstead and moved in on Saturday. The removal van was two hours late." reads as no change
    of "I live in Brackenford", its memory of the move alone as one (a held-out suite's story:
    0.001 against 0.96). (In a shorter message a memory says what the message says, and judged alone it reads
    closer to more than it changes: "Big news, we moved to Dunstow over the summer!" against "I
    always swim before work, around 7 in the morning".)"""
    if not _is_story(text):
        return [], None
    for said, memory in _news_told(news):
        if sure := _sure_updates(judge, said, candidates):
            return sure, memory
    return [], None


def _news_told(news: list[Memory]) -> list[tuple[str, Memory]]:
    """What a story's memories say, each whole, then the parts of each that mark a change: a
    sentence of a story runs on ("Saturday was gorgeous though: we hiked up to the fire tower,
    found a kilo of chanterelles, and since I switched my phone plan over to Lumenet last month I
    finally had signal up there, ..."), and read whole it hides its news (0.81 where 0.90 is
    needed; its part that says "switched", 0.998)."""
    wholes = [(memory.content, memory) for memory in news]
    parts = [
        (part, memory) for memory in news for part in _marked_parts(memory.content) if part != memory.content
    ]
    return wholes + parts


def _marked_parts(sentence: str) -> list[str]:
    """The parts of ``sentence`` (:data:`_PART_JOIN`) that mark a change."""
    return [part for part in _PART_JOIN.split(sentence) if part and marks_change(part)]


# where a long sentence parts into what each of its parts tells (commas, colons, "and", "so")
_PART_JOIN = re.compile(r"\s*[,;:]\s*(?:(?:and|but|so)\s+)?|\s+(?:and|but|so)\s+", re.IGNORECASE)


_STORY_SENTENCES = 3


def _is_story(text: str) -> bool:
    return len(split_sentences(told(text))) >= _STORY_SENTENCES


def _judged(verdict: Verdict) -> str:
    return f"the learned judgement reads this message as changing it ({verdict.probability:.2f})"


def _one_sentence(plan: _Plan, memory: Memory, other: Memory) -> bool:
    """Whether two memories were parted from one sentence of the turn they cite (not two
    sentences of one turn: "We bought a Fiat Ducato. My husband named it the Whale.")."""
    cited = set(memory.source_ids) & set(other.source_ids)
    for episode in (plan.inputs.evidence[i] for i in cited if i in plan.inputs.evidence):
        for sentence in split_sentences(episode.content):
            terms = content_terms(sentence)
            if all(_held(content_terms(m.content), terms) for m in (memory, other)):
                return True
    return False


def _held(part: set[str], whole: set[str]) -> bool:
    return bool(part) and len(part & whole) >= _HELD_SHARE * len(part)


_HELD_SHARE = 0.8  # (a clause's memory may gain the day it names: "on Monday (2026-03-09)")


def _later_judgement(
    judge: UpdateJudge,
    plan: _Plan,
    text: str,
    candidates: list[Memory],
    turns: list[Memory],
    news: list[Memory],
) -> LaterJudgement | None:
    """What the background judgement needs, or None when the static screening leaves e5 nothing
    to read (then nothing could be superseded, now or later)."""
    olds = [m.content for m in candidates]
    screened = [(text, olds), (text, [s for turn in turns for s in split_sentences(turn.content)])]
    if _is_story(text):  # (only a story's memories are judged in their own words)
        screened += [(said, olds) for said, _ in _news_told(news)]
    if not any(judge.screen(said, olds).to_read for said, olds in screened):
        return None
    return LaterJudgement(
        text=text,
        candidates=tuple(m.id for m in candidates),
        turns=tuple(m.id for m in turns),
        news=tuple(m.id for m in news),
        sources=tuple(plan.sources),
        said_at=plan.now,
        actor=plan.actor,
        outcome=plan.outcome,
    )


def _sure_updates(judge: UpdateJudge, text: str, candidates: list[Memory]) -> list[tuple[Verdict, Memory]]:
    """The memories the judgement is sure ``text`` updates, the closest in meaning (e5's cosine)
    first, then the likeliest; empty when it is sure of none."""
    if not candidates:
        return []
    verdicts = judge.judge(text, [m.content for m in candidates])
    settles = settles_a_choice(text)
    holding = _holders(candidates, _restored_values(text))
    sure = [
        (v, m)
        for v, m in zip(verdicts, candidates, strict=True)
        if _updates(v, m.content, settles) and m.id not in holding
    ]
    return sorted(sure, key=lambda pair: (pair[0].closeness, pair[0].probability), reverse=True)


def _restored_values(text: str) -> list[set[str]]:
    """The terms of each value ``text`` goes back to ("Back to plain black coffee"), not of one
    it points back at (:func:`_values_pointed_back_at`), which names no value."""
    return [
        terms
        for value in _values_returned_to(text)
        if pointed_back_at(value) is None and (terms := content_terms(value))
    ]


def _values_pointed_back_at(text: str) -> list[set[str]]:
    """The terms of what each value ``text`` points back at names ("the original Christmas plan":
    christmas, plan)."""
    return [
        terms
        for value in _values_returned_to(text)
        if (named := pointed_back_at(value)) and (terms := content_terms(named))
    ]


def _values_returned_to(text: str) -> list[str]:
    return [value for s in split_sentences(text) if (value := returned_to(clean_statement(s)))]


def _holders(candidates: list[Memory], values: list[set[str]]) -> set[str]:
    """The ids of the memories that state one of the ``values`` a reversal returns to: it holds
    again ("I take my coffee black" after "Back to plain black coffee"), and the change replaces
    the choice in between, however closer in meaning the old value reads."""
    return {candidates[i].id for i in _stating([m.content for m in candidates], values)}


def _stating(texts: list[str], values: list[set[str]]) -> set[int]:
    """The indexes of the ``texts`` that state one of ``values``: hold at least half its terms,
    and no other text holds more. The choice in between often shares the value's words ("trying
    almond milk in my coffee" beside "Back to oat milk in my coffee" after "I take my coffee with
    oat milk"), and was kept current as if it held too."""
    stating: set[int] = set()
    for value in values:
        shared = [len(value & content_terms(text)) for text in texts]
        most = max(shared, default=0)
        stating |= {i for i, n in enumerate(shared) if n == most and n * 2 >= len(value)}
    return stating


def _restores(
    replaced: Memory, between: Memory, episodes: dict[str, Memory], value: set[str], *, tie: bool
) -> bool:
    """Whether a message going back to ``value`` restores ``replaced`` over ``between``, the choice
    that replaced it. "Switched to soy milk" shares "milk" with "back on oat milk": the memory
    replaced must hold more of the value, and at least half of it; of a value pointed back at ("back
    to the original Christmas plan"), as much (``tie``): the change named the plan too."""
    held, other = _value_held(replaced, episodes, value), _value_held(between, {}, value)
    return 2 * held >= len(value) and (held > other or (tie and held == other))


def _value_held(memory: Memory, episodes: dict[str, Memory], value: set[str]) -> int:
    """How many terms of ``value`` ``memory`` holds, or an episode it cites (among ``episodes``)."""
    texts = [memory.content, *(episodes[i].content for i in memory.source_ids if i in episodes)]
    return max(len(value & content_terms(text)) for text in texts)


def _updates(verdict: Verdict, old: str, settles: bool) -> bool:
    """Whether the judgement's ``verdict`` lets the message change ``old``: sure of it, or (a
    message that ``settles`` a choice) on the same subject as a choice ``old`` only weighed
    ("leaning toward Tamsinvale Montessori" then "Decision made: Lev starts at Pellworth", read
    at 0.66 against the 0.90 an unmarked message needs)."""
    if verdict.updates:
        return True
    return (
        settles
        and verdict.checked
        and verdict.closeness >= verdict.same_subject
        and verdict.probability >= SETTLED_CHOICE_PROBABILITY
        and weighs_a_choice(old)
    )


# The judgement's own even odds: a settled choice on the same subject as one weighed is itself
# the sign of a change that the threshold asks a message's words for.
SETTLED_CHOICE_PROBABILITY = 0.5


def _earlier_turns(plan: _Plan) -> list[Memory]:
    """Earlier turns a marked change ("these days it's rooibos") may make stale, or they present
    the old value as current with nothing to supersede: of one statement, when no relevant memory
    was taken from it ("morning ritual: oat milk flat white from the cart by the station"; one that
    was leaves with its memory); of several, in plain prose, any (its stale sentences leave)."""
    cited = {source for memory in plan.live.values() for source in memory.source_ids}
    return [
        e
        for e in plan.inputs.earlier
        if e.type is MemoryType.EPISODE
        and e.in_context_state
        and (e.id not in cited if states_one_thing(e) else _plain_prose(e.content))
    ]


# What ends or moves a deadline: it is called off or rescheduled ("the trip is cancelled", "they
# pushed it back a week"). News on its subject without a new date or such a word leaves it due:
# "Rent goes up by 4% in the new contract" after "he wants the signed lease back by the end of next
# month", and news of progress too: "we finished the dragon library book already" does not return
# nine books, "sent off the passport renewal form" does not renew the passport (the learned
# judgement took each for the deadline's end). A deadline that was met expires on its day.
_DEADLINE_ENDED = re.compile(
    r"\b(?:cancel+ed|cancel+ing|called off|scrapped|no longer|not (?:needed|happening)|"
    r"moved|postponed|pushed (?:back|out)|brought forward|extended|delayed|rescheduled|"
    r"abgesagt|verschoben|annulé|reporté|cancelado|aplazado|pospuesto|"
    r"annullato|rimandato|adiado|afgezegd|uitgesteld)\b",
    re.IGNORECASE,
)


def _moves_a_deadline(text: str, now: datetime) -> bool:
    """Whether a message can change a deadline: it names a date, or says it is off or moved."""
    return _DEADLINE_ENDED.search(text) is not None or dates.find_date(text, now) is not None


def _states_a_passing_state(text: str, created: list[Memory | None], now: datetime) -> bool:
    """A state that ends ("car's in the garage until Thursday, so I'm taking the bus") is an
    exception to what holds, not a change of it: it replaces nothing. Unless another clause
    settles a choice: "Final decision: kitchen first, with Tolland & Reyes. The bathroom can wait
    until next year" closes the choice whatever waits. (Not any clause that marks a change: "lina
    lost her first tooth today!! tooth fairy rates are insane now" replaces nothing.)"""
    clauses = _clauses_of(text)
    if not _tells_a_passing_state(clauses, created, now):
        return False
    return not any(
        (settles_a_choice(part) or _announces_a_lasting_change(part))
        and dates.temporary_expiry(part, now, any_date=False) is None
        for part in clauses
    )


def _announces_a_lasting_change(clause: str) -> bool:
    """A clause beside the passing state that says something changed for good: "Guess what, I
    moved to Pellingham last week! I can cycle to the office in twenty minutes" (the minutes read
    as a state's end), or a story whose heating was out until Friday and whose son met "his new
    dentist ... from now on" on Thursday. The passing state replaces nothing; this clause may. A
    "now" alone says nothing changed for good ("noor lost her first tooth today!! tooth fairy
    rates are wild now" replaces nothing)."""
    return _announces_firmly(clause) and not _STATE_FOR_NOW.search(clause)


def _announces_firmly(text: str) -> bool:
    """Whether ``text`` announces a change in more than a bare "now"."""
    return announces_change(_NOW.sub("", text))


def _builds_on(memory: Memory, *, marked: bool, firmly: bool) -> bool:
    """Whether news that says no change (``marked``: a change at all; ``firmly``: more than a bare
    "now") builds on ``memory`` rather than replacing it: progress on a project ("Got a bonus!
    I've bumped the monthly canoe savings up to 150" had replaced the saving goal and its price), a
    choice made within it ("Ordered the timber for the shed"); a lesson or a goal, which "now" alone
    does not end either ("My commute is 35 minutes on the bus now" is no end to learning Welsh).
    A project's fact that "now" changes ("Our data lives in PostgreSQL now") is still replaced. On
    the 41 read scenario suites: five scenarios fixed (a saving target, a thesis, a half marathon, a
    language goal, a lesson), none broken."""
    if memory.type is MemoryType.PROJECT:
        return not marked
    return memory.type in _KEPT_UP and not firmly


# A lesson learned and a goal pursued: kept up, not replaced, by news.
_KEPT_UP = frozenset({MemoryType.MISTAKE, MemoryType.LEARNING_GOAL})
_NOW = re.compile(r"(?<!from )\bnow\b(?! on\b)", re.IGNORECASE)  # (not "from now on")
# a change said to last only a while ("so I'm on the stationary bike for now")
_STATE_FOR_NOW = re.compile(
    r"\b(?:for now|for the time being|for the moment|in the meantime|meanwhile|until)\b", re.IGNORECASE
)


def _tells_a_passing_state(clauses: list[str], created: list[Memory | None], now: datetime) -> bool:
    if any(m is not None and m.type is MemoryType.TEMPORARY for m in created):
        return True
    # Read a clause at a time: the day of an event told in the past tense ends no state ("Talked
    # to the bank today and I can borrow 5,000 more"), nor does a day ahead of an event the editor
    # kept as lasting ("Picking up the keys to my electric Lumo Vanta tomorrow" was kept as a
    # decision: no state that passes tomorrow). Today still reads as a state's end ("lina lost her
    # first tooth today!!" replaces nothing).
    kept = [content_terms(m.content) for m in created if m is not None]
    for part in clauses:
        ends = dates.temporary_expiry(part, now, any_date=False)
        if ends is None or tells_past_event(part):
            continue
        if ends.date() > now.date() and any(_held(content_terms(part), terms) for terms in kept):
            continue
        return True
    return False


def _tells_a_dated_event(text: str, now: datetime) -> bool:
    """A message that only tells what happened, on a day it names ("I picked up another rubber
    plant today", "posted the visa application this morning"): an event, which
    adds to what holds unless it says it changes something ("we moved to Leeds today", "I
    started a new job today")."""
    parts = _clauses_of(told(text))
    return (
        bool(parts)
        and all(tells_past_event(part) for part in parts)
        and any(dates.temporary_expiry(part, now, any_date=False) is not None for part in parts)
    )


def _clauses_of(text: str) -> list[str]:
    return [part for sentence in split_sentences(text) for part in clauses(sentence)]


def _expiry(item: NewMemory, memory_type: MemoryType, now: datetime, settings: Settings) -> datetime | None:
    if item.expires_at is not None:
        return item.expires_at
    if memory_type is MemoryType.DEADLINE:  # (read in English: "muss bis zum 31. Juli": "by 31 july")
        return dates.deadline_from(readable_dates(item.content), now)
    if memory_type is MemoryType.TEMPORARY:
        found = dates.temporary_expiry(readable_dates(item.content), now)
        return found or now + timedelta(days=settings.temporary_default_days)
    return None


def _cited(before: list[str], sources: list[str]) -> list[str]:
    """A restated memory cites every message that stated it (the newest :data:`_MAX_CITED`)."""
    merged = [s for s in before if s not in sources] + sources
    return merged[-_MAX_CITED:]


def _indexed(items: list[Memory | None], index: int | None) -> Memory | None:
    if index is None or not 0 <= index < len(items):
        return None
    return items[index]


class _Plan:
    """The memories one message touches, kept current as several steps change them."""

    def __init__(self, inputs: WriteInputs, outcome: WriteOutcome, actor: str) -> None:
        self.inputs = inputs
        self.settings = inputs.settings
        self.outcome = outcome
        self.now = inputs.now
        self.actor = actor
        self._added = 0  # new memories so far, against inputs.room
        self.live: dict[str, Memory] = {}  # relevant existing memories, as changed so far
        self._changed: dict[str, Memory] = {}
        self._events: list[Any] = []
        self._new_ids: set[str] = set()
        self._reembed: set[str] = set()
        self.sources: list[str] = []  # the message's episodes, which every typed memory cites
        self.speaker: str | None = None  # who said it, when a conversation has several speakers
        self.session_id: str | None = None  # the conversation it was said in
        self.speaker_tags: list[str] = []  # and the tag that says so
        self.later: LaterJudgement | None = None  # the learned judgement left to the background

    # --- lookups ---------------------------------------------------------------------------
    def find_duplicate(self, content: str, memory_type: MemoryType, ratio: float) -> Memory | None:
        for memory in self.live.values():
            if (
                memory.type is memory_type
                and memory.in_context_state
                and text_ratio(content, memory.content) > ratio
            ):
                return memory
        return None

    def earlier_live(self) -> list[Memory]:
        """What a new memory may supersede: live memories from earlier messages (two things one
        message says never replace each other)."""
        return [m for m in self.live.values() if m.id not in self._new_ids and m.in_context_state]

    def untouched_earlier(self) -> list[Memory]:
        """Live memories from earlier messages that this message has not changed yet (restated,
        edited or superseded): what a learned judgement of the message may still replace."""
        return [m for m in self.earlier_live() if m.id not in self._changed]

    def make_room(self, adding: int) -> None:
        """Refuse ``adding`` more new memories past the user's limit (MEMOPILOT_MAX_MEMORIES_PER_USER)."""
        room = self.inputs.room
        if room is not None and self._added + adding > room:
            limit = self.settings.max_memories_per_user
            raise MemoryLimitError(
                f"this user holds {limit - room + self._added} memories and the limit is {limit} "
                "(MEMOPILOT_MAX_MEMORIES_PER_USER); forget some memories before adding more"
            )
        self._added += adding

    def owned(self, memory_id: str, user_id: str, project_id: str | None) -> Memory | None:
        """The memory if the editor may touch it: one it was shown (this user's, in this project
        or user-wide), still live."""
        memory = self.live.get(memory_id)
        if memory is None or memory.user_id != user_id or memory.project_id not in (project_id, None):
            self.outcome.notes.append(f"refused an edit of memory {memory_id!r}: not one of this user's here")
            return None
        if not memory.in_context_state:
            self.outcome.notes.append(f"ignored an edit of memory {memory_id}: it is {memory.state.value}")
            return None
        return memory

    # --- changes (built by memopilot.transitions, with their events) ------------------------
    def _put(self, change: tuple[Memory, TimelineEvent | None]) -> Memory:
        memory, event = change
        self.live[memory.id] = memory
        self._changed[memory.id] = memory
        if event is not None:
            self._events.append(event)
        return memory

    def create(self, memory: Memory) -> None:
        self._new_ids.add(memory.id)
        self._reembed.add(memory.id)
        self._put(
            transitions.create(memory, reason="extracted from a message", actor=self.actor, at=self.now)
        )
        self.outcome.created.append(memory)

    def keep_episode(self, episode: Memory) -> None:
        self._new_ids.add(episode.id)
        self._reembed.add(episode.id)
        self._put(
            transitions.create(episode, reason="the message, kept verbatim", actor=self.actor, at=self.now)
        )
        self.outcome.episodes.append(episode)

    def date_episodes(self, derived: list[Memory]) -> None:
        """A message that only said short-lived things (a deadline, a temporary note) ends with
        them: its episodes expire when the last of its memories does, so an old "I'm in Lisbon
        this week" never reads as current. What else it told stays: a message kept as one episode
        is parted in two, the sentences its short-lived memories hold (with the questions asked
        beside them), which expire, and the rest, which stays ("I'm in Lisbon this week. My sister
        Ana is a nurse in Porto."), unless it is only a passing state's story
        (:meth:`_part_episode`). A longer message, or one with code, lists or line breaks, stays
        whole unless its memories hold most of what it told."""
        current = [self.live.get(m.id, m) for m in derived]
        short_lived = [m for m in current if m.expires_at is not None]
        if not short_lived:
            return
        if all(m.type is MemoryType.TEMPORARY for m in short_lived) and not any(
            dates.temporary_expiry(e.content, self.now, guess=False) for e in self.outcome.episodes
        ):
            return  # its end is a guess ("can't run on tarmac for now"): its words stay findable
        last = max(m.expires_at for m in short_lived if m.expires_at is not None)
        if len(self.outcome.episodes) == 1 and _plain_prose(self.outcome.episodes[0].content):
            lasting = [m for m in current if m.expires_at is None]
            passing = all(m.type is MemoryType.TEMPORARY for m in short_lived)
            held = [m.content for m in short_lived]
            self._part_episode(self.outcome.episodes[0], held, last, lasting, passing=passing)
            return
        if len(short_lived) < len(current):
            return  # it told something lasting too, in a message that cannot be parted: it stays
        # (what it asked the assistant beside them is not more said)
        said = sum(len(told(e.content)) for e in self.outcome.episodes)
        if sum(len(m.content) for m in derived) < _SAID_IN_FULL * said:
            return  # the message said more than its short-lived memories hold: it stays
        for episode in self.outcome.episodes:  # not yet stored: its created event stands
            self._put((episode.copy(expires_at=last), None))
        self.outcome.episodes = [self._changed[e.id] for e in self.outcome.episodes]

    def _part_episode(
        self, episode: Memory, held: list[str], ends: datetime, lasting: list[Memory], *, passing: bool
    ) -> None:
        """``episode`` (not yet stored) ends at ``ends``; what it told that ``held`` does not hold
        becomes an episode of its own, with the same provenance, that stays. The ``lasting``
        memories taken from the message cite it too: when one is superseded, the part that states
        it leaves the context with it ("My sister's birthday is March 14" stayed beside its
        correction while "Remind me to get her something this year" ended with the year).

        When its short-lived memories are all ``passing`` states, what it told to the assistant that
        no lasting memory holds is the state's own story ("Had two wisdom teeth out this morning",
        "Renting a room above a chip shop"): an episode of its own that ends with it too (of its
        own, so that the memory of the state does not stand in for it while it lasts). Beside a
        deadline it stays: what is due is told around it ("Her dad can't stand mushrooms"); and in
        a conversation of several speakers, as the evidence of the chat."""
        prefix = f"{self.speaker}: " if self.speaker else ""
        prefix = prefix if episode.content.startswith(prefix) else ""
        short, rest = parted(episode.content[len(prefix) :], held)
        if not short:
            return  # no sentence is what its memories say: which part ends cannot be told, it stays
        story = ""
        if rest and passing and not self.speaker:  # (the rest holds no question: those went first)
            rest, story = parted(rest, [m.content for m in lasting])
        parts = [part for part in (rest, story) if part]
        if parts:
            try:
                self.make_room(len(parts))
            except MemoryLimitError:
                return  # no room for more episodes: the message stays whole
            episode = episode.copy(content=prefix + short)
        if rest:
            rest_episode = episode.copy(id=new_id(), content=prefix + rest)
            self.keep_episode(rest_episode)
            for memory in lasting:
                self._put((memory.copy(source_ids=[*memory.source_ids, rest_episode.id]), None))
        if story:
            self.keep_episode(episode.copy(id=new_id(), content=prefix + story, expires_at=ends))
        self._put((episode.copy(expires_at=ends), None))
        self.outcome.episodes = [self._changed[e.id] for e in self.outcome.episodes]

    def restate(self, existing: Memory, item: NewMemory) -> Memory:
        changed = {
            "content": item.content,
            "source_ids": _cited(existing.source_ids, self.sources),
            "occurred_at": self.now,
            "importance": max(existing.importance, item.importance or 0.0),
            "confidence": max(existing.confidence, item.confidence),
        }
        if item.content != existing.content:
            self._reembed.add(existing.id)
        refreshed = self._put(
            transitions.edit(
                existing,
                changed,
                reason="restated: a near-duplicate was merged into it",
                actor=self.actor,
                at=self.now,
                listed=("content", "occurred_at"),
                recorded=("content",),
            )
        )
        self._track_update(refreshed)
        return refreshed

    def supersede(self, old: Memory, new: Memory, *, rule: str, reason: str) -> None:
        self._put(
            transitions.supersede(old, by=new.id, reason=reason, actor=self.actor, at=self.now, rule=rule)
        )
        current = self.live.get(new.id, new)
        self._put((current.copy(supersedes=old.id), None))  # the new memory's own event covers it
        self.outcome.superseded.append({"id": old.id, "by": new.id, "rule": rule, "reason": reason})
        self._retire_evidence(old, new.id)

    def replace(self, old: Memory, successor: Memory | None, *, rule: str, reason: str) -> None:
        """Supersede ``old`` by ``successor`` as it stands in this plan, or retire it without one."""
        if successor is not None:
            self.supersede(old, self.live.get(successor.id, successor), rule=rule, reason=reason)
        else:
            self.retire(old, reason=reason, rule=rule)

    def retire(self, old: Memory, *, reason: str, rule: str = "editor") -> None:
        self._put(
            transitions.supersede(old, by=None, reason=reason, actor=self.actor, at=self.now, rule=rule)
        )
        self.outcome.superseded.append({"id": old.id, "by": "", "rule": rule, "reason": reason})
        self._retire_evidence(old, None)

    def retire_episode(self, episode: Memory, *, reason: str) -> None:
        episode = self.live.get(episode.id, episode)
        if episode.id in self.sources or not episode.in_context_state:
            return
        successor = self.sources[0] if self.sources else None
        self._retire(episode, successor, reason)
        self.outcome.superseded.append(
            {"id": episode.id, "by": successor or "", "rule": "evidence", "reason": reason}
        )

    def retire_stale(self, turn: Memory, stale: list[str], *, reason: str) -> None:
        """An earlier turn that ``stale`` (sentences of it) makes out of date leaves the context;
        what else it said stays, as an episode of its own with the turn's provenance and date,
        which the memories taken from the turn cite too ("I usually go straight after work around
        purple" still holds after a move that made "a yoga studio near me in Harlowmere" stale)."""
        turn = self.live.get(turn.id, turn)
        sentences = split_sentences(turn.content) if _plain_prose(turn.content) else []
        rest = " ".join(s for s in sentences if s not in stale)
        if rest and len(sentences) > 1 and self._has_room_for_one():
            kept = turn.copy(id=new_id(), content=rest)
            self._new_ids.add(kept.id)
            self._reembed.add(kept.id)
            why = f"what turn {turn.id} said beside what a later message changed"
            self._put(transitions.create(kept, reason=why, actor=self.actor, at=self.now))
            for memory in [m for m in self.live.values() if turn.id in m.source_ids]:
                self._put((memory.copy(source_ids=[*memory.source_ids, kept.id]), None))
        self.retire_episode(turn, reason=reason)

    def _has_room_for_one(self) -> bool:
        """Whether one more memory fits (else a turn leaves whole, its rest not kept apart)."""
        try:
            self.make_room(1)
        except MemoryLimitError:
            return False
        return True

    def _retire_evidence(self, old: Memory, successor: str | None) -> None:
        """The episodes that stated a superseded memory leave the context with it, so an old
        turn never presents the old value as current; they stay in the timeline and history."""
        if old.type is MemoryType.EPISODE:
            return
        cited = [i for i in old.source_ids if i not in self.sources]
        for episode in (self.inputs.evidence[i] for i in cited if i in self.inputs.evidence):
            episode = self.live.get(episode.id, episode)
            if episode.type is MemoryType.EPISODE and episode.in_context_state:
                self._retire(episode, successor, f"it stated memory {old.id}, which a later message changed")

    def _retire(self, episode: Memory, successor: str | None, reason: str) -> None:
        change = transitions.supersede(
            episode, by=successor, reason=reason, actor=self.actor, at=self.now, rule="evidence"
        )
        self._put(change)

    def archive(self, memory: Memory, *, reason: str) -> None:
        change = transitions.move(
            memory, MemoryState.ARCHIVED, EventKind.ARCHIVED, reason=reason, actor=self.actor, at=self.now
        )
        self._put(change)
        self.outcome.archived.append({"id": memory.id, "reason": reason})

    def edit(self, memory: Memory, update: MemoryUpdate) -> None:
        settings = self.settings
        changes: dict[str, Any] = {}
        try:
            if update.content is not None and not looks_secret(update.content):
                changes["content"] = clean_content(update.content, settings)
            if update.type is not None:
                changes["type"] = MemoryType(update.type)
            if update.importance is not None:
                changes["importance"] = update.importance
            if update.tags is not None:
                changes["tags"] = clean_tags(update.tags, settings)
            if update.expires_at is not None:
                changes["expires_at"] = update.expires_at
        except InvalidInputError as exc:
            self.outcome.notes.append(f"skipped an edit of memory {memory.id}: {exc}")
            return
        changed = {k: v for k, v in changes.items() if getattr(memory, k) != v}
        if not changed:
            return
        if memory.is_critical and "type" in changed:
            self.outcome.notes.append(f"refused to change the type of critical memory {memory.id}")
            return
        if "content" in changed:
            self._reembed.add(memory.id)
        reason = update.reason or "edited by the memory editor"
        updated = self._put(transitions.edit(memory, changed, reason=reason, actor=self.actor, at=self.now))
        self._track_update(updated)

    def _track_update(self, memory: Memory) -> None:
        if memory.id in self._new_ids:
            return
        self.outcome.updated = [m for m in self.outcome.updated if m.id != memory.id] + [memory]

    def finish(self) -> tuple[ChangeSet, list[Memory]]:
        """The change set (without vectors) and the memories whose text needs a new vector."""
        changes = ChangeSet(events=self._events)
        final = dict(self._changed)
        self.outcome.created = [final.get(m.id, m) for m in self.outcome.created]
        self.outcome.updated = [final[m.id] for m in self.outcome.updated if final[m.id].in_context_state]
        changes.memories = list(final.values())
        return changes, [final[i] for i in final if i in self._reembed]
