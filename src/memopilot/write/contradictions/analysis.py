"""The records one sentence analysis is made of: slots, stances, phrases, changes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Slot:
    subject: str  # "" for the user or an impersonal statement
    head: str  # the attribute's head noun
    attr: frozenset[str]  # stemmed attribute terms (head noun and modifiers)
    rel: str  # relation: "is", "is in", "live in", "*" (any preposition, from a change verb) ...
    value: str
    value_terms: frozenset[str]
    kind: str  # "num", "date", "thing", "class"
    subkinds: frozenset[str]  # for dates: "day" and/or "time"
    negated: bool
    weak: bool  # replaced only with a change signal
    key: str  # readable slot key
    replaceable: bool = True  # False: "I am ..." (many things hold of a person): only negated or restated


@dataclass(frozen=True, slots=True)
class _Stance:
    subject: str
    verb: str  # "pref" for preference verbs, "*" for "ditched X" (any verb), else the verb stem
    obj: frozenset[str]
    positive: bool
    preference: bool
    exclusive: bool = False  # "prefer": one choice per kind of thing ("dark mode" vs "light mode")
    head: str = ""  # the object's last word, the kind of thing preferred


@dataclass(frozen=True, slots=True)
class _Phrase:
    """The old value named by a change marker ("switched from <X> to ...")."""

    terms: frozenset[str]
    proper: frozenset[str]  # terms of name-like tokens
    obj: frozenset[str]  # terms without a leading verb ("use vim" -> "vim")
    subject: frozenset[str]  # terms of a noun-phrase subject that must be mentioned too
    specific: bool  # names something (a proper noun), not a generic date / number / word
    verb: str = ""  # stem of a leading verb ("use vim" -> "use")


@dataclass(frozen=True, slots=True)
class _Change:
    old: _Phrase
    new_terms: frozenset[str]
    context: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Analysis:
    statement: bool
    terms: frozenset[str]
    slots: tuple[_Slot, ...]
    stances: tuple[_Stance, ...]
    changes: tuple[_Change, ...]
    corrected: bool
    signal: bool  # says "this is a change" ("now", "anymore", "switched", a correction, "new", ...)
    marked: bool  # the same without the words that may just describe a thing ("new", "latest")
    loose: tuple[frozenset[str], ...]  # topic terms of corrected sentences without structure
