"""Comparing a new statement with old memories and episodes: the public rules."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...domain import CONTEXT_STATES, Memory, MemoryType, words_said
from ...read.tokens import mostly_cjk
from ...text import stem, text_ratio
from ..language import in_english_strictly
from ..sentences import split_sentences, told
from .analysis import _Analysis, _Phrase, _Slot, _Stance
from .sentences import _analyse
from .words import (
    _AMOUNT_CHANGED,
    _CHANGE_ELSEWHERE,
    _CLASSIFIER_NOUNS,
    _MONTHS,
    _PER_PERIOD,
    _PERIOD_OF,
    _THESE_DAYS,
    _WEEKDAYS,
)


@dataclass(frozen=True, slots=True)
class Supersession:
    """One old memory that the new statement replaces (or would, were it not critical)."""

    old: Memory
    rule: str  # "preference_reversal", "negation", "same_slot_new_value", "change_marker", "correction"
    reason: str  # readable and, where possible, free of the memories' content
    blocked: bool  # old is critical: the caller must not supersede it, only flag the conflict


def slot_of(text: str) -> tuple[str, str] | None:
    """The (slot key, value) of the first statement in ``text`` that has one, else None.

    >>> slot_of("Our target audience is enterprises")
    ('target audience', 'enterprises')
    """
    analysis = _analyse(text)
    if not analysis.slots:
        return None
    slot = analysis.slots[0]
    return slot.key, slot.value


def marks_change(text: str, *, other_languages: bool = True, loose: bool = True) -> bool:
    """Whether ``text`` states something and says it changes an earlier value: now, no longer,
    switched, actually, ...; with ``other_languages``, their like in the other languages users
    write in ("ya no", "jetzt", "ne ... plus": :func:`_changed_elsewhere`); with ``loose``, "these
    days" anywhere and an amount said to go up or down (:func:`_said_to_change`), which say that a
    value changed but not which. (The learned judgement's pair features read neither: its weights
    were trained with the English words of the token rules alone.)"""
    analysis = _analyse(text)
    if not analysis.statement:
        return False
    if analysis.signal or analysis.corrected:
        return True
    return (other_languages and _changed_elsewhere(text)) or (loose and _said_to_change(text))


def announces_change(text: str) -> bool:
    """:func:`marks_change` without the words that may only describe a thing ("the orchestra is
    doing the new world symphony", "the latest album"): what lets a message that stores nothing
    typed retire something."""
    analysis = _analyse(text)
    return analysis.statement and (analysis.marked or _changed_elsewhere(text) or _said_to_change(text))


def _changed_elsewhere(text: str) -> bool:
    """Whether a statement not in English says something changed ("Maelis ya no va a la danza;
    ahora juega al waterpolo"): the token rules read English only, and without this a change told
    in Spanish was judged at the unmarked bar, as news that may sit beside the old value. (Read
    with :func:`in_english_strictly`: "Por cierto, me cambié de gimnasio" is not English.)"""
    return _CHANGE_ELSEWHERE.search(text) is not None and (mostly_cjk(text) or not in_english_strictly(text))


def _said_to_change(text: str) -> bool:
    """Whether a statement of ``text`` (not a question it asks) says "these days" anywhere or an
    amount goes up or down ("the rent goes up to 1,620", "Landlord's put the rent up")."""
    statements = told(text)
    return _THESE_DAYS.search(statements) is not None or _AMOUNT_CHANGED.search(statements) is not None


def changed_period(text: str) -> str | None:
    """The period of the sum ``text`` says goes up or down ("day", "week", "month", ...), when that
    is all it says changes (:data:`_AMOUNT_CHANGED`, no other change word): "I've bumped the monthly
    kayak savings up to 260" is "month". None for any other message, or an amount without its
    period ("rent's going up to 1,290")."""
    statements = told(text)
    if _analyse(text).marked or _AMOUNT_CHANGED.search(statements) is None:
        return None
    found = _PER_PERIOD.search(statements)
    return _period(found) if found else None


def states_other_amounts(old: str, period: str) -> bool:
    """Whether ``old`` states figures, none of them per ``period``: a sum per month and a price
    are two things (raising the monthly kayak savings changes the 150 a month going in, not the
    kayak's price of 2,400; "I'm putting 250 a month into the holiday pot" is a sum of the month)."""
    return _FIGURE.search(old) is not None and period not in {_period(m) for m in _PER_PERIOD.finditer(old)}


_FIGURE = re.compile(r"\d")


def _period(found: re.Match[str]) -> str:
    """The period a rate is per: "day", "week", "month" or "year"."""
    unit = found.group("unit") or found.group("adverb")
    return _PERIOD_OF.get(unit.lower(), unit.lower())


def stale_episodes(new_content: str, episodes: Sequence[Memory], max_chars: int = 300) -> list[Memory]:
    """The short episodes (one statement, at most ``max_chars``) whose value a new message
    explicitly changes ("Standup is now at 10am" makes "Standup is at 9am." stale), even when no
    typed memory was taken from them. Only a marked change counts (now, no longer, switched,
    actually, ...): an unmarked new value may be a second thing, not a replacement."""
    if not marks_change(new_content):
        return []
    new = _analyse(new_content)
    return [
        episode
        for episode in episodes
        if states_one_thing(episode, max_chars)
        and _compare(new, _analyse(said := words_said(episode)), new_content, said) is not None
    ]


def states_one_thing(episode: Memory, max_chars: int = 300) -> bool:
    """A live episode of one short statement, which a change can make stale as a whole. A turn that
    says several things stays: its other statements still hold."""
    if episode.type is not MemoryType.EPISODE or episode.state not in CONTEXT_STATES:
        return False
    said = words_said(episode)
    return len(said) <= max_chars and len(split_sentences(said)) == 1


def find_supersessions(
    new_content: str, new_type: MemoryType, existing: Sequence[Memory]
) -> list[Supersession]:
    """The memories in ``existing`` that the new statement replaces, by deterministic rules.

    ``existing`` holds the user's active and pinned memories in scope, of any type. Episodes and
    consolidation summaries are never returned; critical memories come back with ``blocked=True``.
    A new episode supersedes nothing (it is verbatim evidence, not an interpretation).
    """
    if new_type is MemoryType.EPISODE or not new_content.strip():
        return []
    new = _analyse(new_content)
    if not new.statement:
        return []
    out: list[Supersession] = []
    norm_new = " ".join(new_content.lower().split())
    for old in existing:
        if old.type is MemoryType.EPISODE or old.is_summary or old.state not in CONTEXT_STATES:
            continue
        if " ".join(old.content.lower().split()) == norm_new:
            continue
        before = _analyse(old.content)
        if MemoryType.FACT in (old.type, new_type) and not new.marked and not _moved_on(new, before):
            continue  # life facts and past events add up ("I went to X", "I went to Y") unless marked
        verdict = _compare(new, before, new_content, old.content)
        if verdict is not None:
            rule, reason = verdict
            out.append(Supersession(old=old, rule=rule, reason=reason, blocked=old.is_critical))
    return out


def _moved_on(new: _Analysis, old: _Analysis) -> bool:
    """Whether both tell where the user lives or works, in other places: a fact a new one
    replaces unmarked ("I'm a school librarian at Fenwick Academy" after "I teach maths at
    Hollowmere Primary"), where other facts add up."""
    return any(
        n.key == o.key and n.key in _ONE_PLACE and not n.negated and not o.negated and n.value != o.value
        for n in new.slots
        for o in old.slots
    )


_ONE_PLACE = frozenset({"self live", "self work at"})


def _compare(new: _Analysis, old: _Analysis, new_text: str, old_text: str) -> tuple[str, str] | None:
    if not old.statement:
        return None
    duplicate = False
    # 1. stances on the same object
    for ns in new.stances:
        for os_ in old.stances:
            if ns.subject != os_.subject or not _same_verb(ns, os_):
                continue
            if ns.verb == "*" and not os_.obj <= ns.obj:
                continue
            if not _overlaps(ns.obj, os_.obj) or _digits(ns.obj) != _digits(os_.obj):
                if ns.exclusive and os_.exclusive and ns.positive and os_.positive and ns.head == os_.head:
                    return (
                        "same_slot_new_value",
                        "a different choice is now preferred for the same kind of thing",
                    )
                continue
            if ns.positive != os_.positive:
                if ns.preference or os_.preference:
                    return "preference_reversal", "the same preference is now reversed"
                if ns.verb == "*" or new.signal:
                    return "change_marker", "the new statement says this no longer holds"
                return "negation", "the new statement negates the old one"
            duplicate = True
    # 2. the same slot with a new value
    for ns in new.slots:
        for os_ in old.slots:
            if not _same_slot(ns, os_):
                continue
            if _same_value(ns, os_):
                if ns.negated != os_.negated:
                    return "negation", f"slot '{os_.key}' is now negated"
                duplicate = True
                continue
            if ns.negated or os_.negated or not (ns.replaceable and os_.replaceable):
                continue
            if not _kinds_compatible(ns, os_):
                continue
            if (ns.weak or os_.weak) and not new.signal:
                continue
            rule = "change_marker" if new.corrected else "same_slot_new_value"
            return rule, f"same slot '{os_.key}' has a new value"
    if duplicate:
        return None
    # 3. explicit change markers naming the old value
    for change in new.changes:
        if not _mentions(old, change.old):
            continue
        if change.new_terms and change.new_terms <= old.terms:
            continue  # the old memory already speaks of the new value: not the one replaced
        if change.context and not change.old.specific and not (change.context & old.terms):
            continue
        return "change_marker", "an explicit change marker names the old value"
    # 4. a correction without structure: the old memory on the same topic
    for topic in new.loose:
        shared = topic & old.terms
        similar = len(shared) >= 2 and len(shared) >= 0.4 * len(topic | old.terms)
        if similar and text_ratio(new_text, old_text) <= 0.86:
            return "correction", "a correction on the same topic"
    return None


def _same_verb(a: _Stance, b: _Stance) -> bool:
    return a.verb == b.verb or "*" in (a.verb, b.verb)


def _overlaps(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a) and bool(b) and (a <= b or b <= a)


def _same_slot(a: _Slot, b: _Slot) -> bool:
    if a.subject != b.subject or not _overlaps(a.attr, b.attr):
        return False
    if _scope(a.attr) != _scope(b.attr):
        return False  # "the Q3 budget" is not "the Q4 budget" nor "the budget"
    if a.head != b.head:
        # "our CI tool" ~ "CI": only a generic classifier noun may stand in for the head
        bigger = a if len(a.attr) > len(b.attr) else b
        if bigger.head not in _CLASSIFIER_NOUNS or a.rel != b.rel:
            return False
    if a.rel == b.rel:
        return True
    if {a.rel, b.rel} == {"is", "made"}:
        return True  # "go with Rust for the backend" / "the backend is written in Go"
    if "*" in (a.rel, b.rel):
        other = b.rel if a.rel == "*" else a.rel
        return not other.endswith((" with", " from", " #")) and other != "live"
    if a.kind == "date" and b.kind == "date":
        return a.rel.split()[0] == b.rel.split()[0]  # "is on Friday" / "is at 3pm on Friday" / "is Friday"
    return False


def _scope(terms: frozenset[str]) -> frozenset[str]:
    """Numbers and calendar words in an attribute: they scope it ("Q3", "2026", "March")."""
    return frozenset(t for t in terms if t[:1].isdigit() or t in _SCOPE_WORDS)


_SCOPE_WORDS = frozenset(stem(w) for w in _MONTHS | _WEEKDAYS | {"q1", "q2", "q3", "q4", "h1", "h2"})


def _same_value(a: _Slot, b: _Slot) -> bool:
    if a.kind in {"num", "date"} and b.kind in {"num", "date"} and _numbers(a) != _numbers(b):
        return False
    return _overlaps(a.value_terms, b.value_terms)


def _numbers(slot: _Slot) -> frozenset[str]:
    return _digits(slot.value_terms)


def _digits(terms: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in terms if t[:1].isdigit())


def _kinds_compatible(a: _Slot, b: _Slot) -> bool:
    if a.kind == "date" and b.kind == "date":
        return bool(a.subkinds & b.subkinds)
    if {a.kind, b.kind} <= {"num", "date"}:
        return True
    return a.kind == b.kind


def _mentions(old: _Analysis, phrase: _Phrase) -> bool:
    """Does the old memory speak about the value that the change marker names as old?"""
    if not phrase.subject <= old.terms:
        return False
    named = {s.subject for s in old.stances} | {s.subject for s in old.slots}
    if named and "" not in named and not phrase.subject:
        return False  # "Dana likes X" is not what "I don't like X anymore" revokes
    if not (phrase.terms <= old.terms or phrase.obj <= old.terms):
        return bool(phrase.proper) and phrase.proper <= old.terms
    if phrase.specific:
        if phrase.terms <= old.terms:
            return True
        if phrase.proper and phrase.proper <= old.terms:
            return True
    # A generic word ("tea", "Fridays", "March 3"): the old memory must hold it as a value or a stance.
    for slot in old.slots:
        if not slot.subject and _overlaps(phrase.obj, slot.value_terms):
            return True
    return any(
        s.positive
        and not s.subject
        and _overlaps(phrase.obj, s.obj)
        and (s.verb == phrase.verb or s.preference)
        for s in old.stances
    )
