"""Values and noun phrases: what a slot holds and what it is about."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...text import STOPWORDS
from .analysis import _Slot
from .tokens import _CLOCK, _NUMERIC_DATE, _number, _term, _terms, _Tok
from .words import (
    _ADJ_SUFFIXES,
    _ADVERBS,
    _AND_BREAK,
    _BOUNDARY,
    _CHANGE_ADJECTIVES,
    _COMMON_ADJECTIVES,
    _COPULAS,
    _CURRENCY,
    _DAY_WORDS,
    _DETS,
    _FREQUENCY,
    _MONTHS,
    _MULTI_FILLERS,
    _NEGATIONS,
    _POSS,
    _PREPS,
    _PRONOUNS,
    _SIGNALS,
    _TIME_WORDS,
    _TRAILING_FILLERS,
    _USER,
    _WEEKDAYS,
    _WH,
)


def _strip_fillers(toks: list[_Tok]) -> tuple[list[_Tok], bool]:
    """Drop trailing/leading fillers ("now", "from now on", "anymore"); True if one was a signal."""
    signal = False
    changed = True
    while changed and toks:
        changed = False
        for multi in _MULTI_FILLERS:
            n = len(multi)
            if len(toks) >= n and tuple(t.low for t in toks[-n:]) == multi:
                toks = toks[:-n]
                signal = True
                changed = True
        if toks and (toks[-1].low in _TRAILING_FILLERS or toks[-1].low in {",", ";", ":"}):
            signal = signal or toks[-1].low in _SIGNALS
            toks = toks[:-1]
            changed = True
    while toks and (toks[0].low in _ADVERBS or toks[0].low in {",", "also"}):
        signal = signal or toks[0].low in _SIGNALS
        toks = toks[1:]
    return toks, signal


def _date_part(tok: _Tok, i: int) -> str | None:
    low = tok.low
    if low in _TIME_WORDS or (low[:1].isdigit() and _CLOCK.fullmatch(low)):
        return "time"
    if low in {"am", "pm", "o'clock"} and i:
        return "time"
    if (
        low in _MONTHS
        or low in _WEEKDAYS
        or low in _DAY_WORDS
        or (low[:1].isdigit() and _NUMERIC_DATE.fullmatch(low))
    ):
        return "day"
    return None


def _kind(toks: Sequence[_Tok]) -> tuple[str, frozenset[str]]:
    sub: set[str] = set()
    has_number = False
    for i, tok in enumerate(toks):
        part = _date_part(tok, i)
        if part:
            sub.add(part)
        elif i == 0 and (tok.low[:1].isdigit() or tok.low[:1] in _CURRENCY):
            has_number = True  # an amount; "Room 4" or "PostgreSQL 16" are names
    if sub:
        return "date", frozenset(sub)
    if has_number:
        return "num", frozenset()
    content = [t for t in toks if t.low not in _DETS and t.low not in _POSS]
    if toks and toks[0].low in {"a", "an"}:
        return "class", frozenset()
    if len(content) == 1 and content[0].orig.islower():
        low = content[0].low
        if low in _COMMON_ADJECTIVES or low.endswith(_ADJ_SUFFIXES):
            return "class", frozenset()
    return "thing", frozenset()


def _drop_time_adjunct(head: list[_Tok]) -> list[_Tok]:
    """ "Vancouver last month" -> "Vancouver": a trailing time word does not belong to a place or name."""
    parts = [_date_part(t, i) for i, t in enumerate(head)]
    if not head or parts[0] or _number(head[0].low) is not None or head[0].low[:1] in _CURRENCY:
        return head
    if head[0].low in _FREQUENCY or head[0].low in {"last", "end", "early", "late", "mid"}:
        return head
    for i, part in enumerate(parts):
        if part:
            cut = i - 1 if i and head[i - 1].low in {"last", "this", "next", "every", "each"} else i
            return head[:cut] or head
    return head


def _cut_value(toks: list[_Tok], start: int) -> tuple[list[_Tok], list[_Tok]]:
    """The value phrase from ``start`` up to a boundary, and the rest of the clause."""
    end = start
    n = len(toks)
    while end < n:
        low = toks[end].low
        if low in _BOUNDARY or low in _NEGATIONS or low in {"instead", "rather"}:
            break
        if low == "and" and end + 1 < n and toks[end + 1].low in _AND_BREAK:
            break
        end += 1
    return toks[start:end], toks[end:]


def _split_value(phrase: list[_Tok]) -> tuple[list[_Tok], list[list[_Tok]]]:
    """Split "3pm on Friday for the team" into the value and its trailing prepositional phrases."""
    head: list[_Tok] = []
    pps: list[list[_Tok]] = []
    for i, tok in enumerate(phrase):
        is_prep = tok.low in _PREPS and tok.low != "of"
        if is_prep and ((i > 0 and not pps and head) or (pps and len(pps[-1]) > 1)):
            pps.append([tok])
        elif pps:
            pps[-1].append(tok)
        else:
            head.append(tok)
    return head, pps


@dataclass(slots=True)
class _Value:
    text: str
    terms: frozenset[str]
    kind: str
    subkinds: frozenset[str]
    extra: frozenset[str]  # terms of qualifying phrases ("for Q3"): they refine the attribute
    signal: bool


def _value(phrase: list[_Tok]) -> _Value | None:
    phrase, signal = _strip_fillers(list(phrase))
    if not phrase:
        return None
    head, pps = _split_value(phrase)
    head, more = _strip_fillers(head)
    signal = signal or more
    head = _drop_time_adjunct(head)
    if not head:
        return None
    kind, sub = _kind(head)
    extra: set[str] = set()
    for pp in pps:
        pp_body, more = _strip_fillers(pp[1:])
        signal = signal or more
        if not pp_body:
            continue
        pp_kind, pp_sub = _kind(pp_body)
        if pp_kind == "date":
            if kind == "date":
                head = head + pp  # "3pm on Friday" is one moment
                sub = sub | pp_sub
            continue  # a time adjunct does not change which slot this is
        extra |= _terms(pp_body)
    terms = _terms(head)
    if not terms:
        return None
    text = " ".join(t.orig for t in head if t.low not in _DETS).lower()
    return _Value(text, terms, kind, sub, frozenset(extra), signal)


# --------------------------------------------------------------------------------------------
# Noun phrases and subjects


class _Attr(NamedTuple):
    terms: frozenset[str]  # stemmed head noun and modifiers
    key: str  # readable
    head: str  # stemmed head noun: "audience" in "our target audience", "name" in "the app's name"


_SELF = _Attr(frozenset({"<self>"}), "self", "<self>")


def _np(toks: Sequence[_Tok]) -> _Attr | None:
    """Attribute terms, a readable key and the head noun of a noun phrase ("our target audience")."""
    words = [t for t in toks if t.low not in _DETS and t.low not in _POSS and t.low not in _ADVERBS]
    if not words or len(words) > 7:
        return None
    if any(t.low in _PRONOUNS or t.low in _WH or t.low in _COPULAS for t in words):
        return None
    owned = 0
    if "'s" in [t.low for t in words]:  # "the app's name" -> name + {app}
        cut = [t.low for t in words].index("'s")
        owned = len(words) - cut - 1
        words = words[cut + 1 :] + words[:cut]
    kept = [t for t in words if t.low not in _CHANGE_ADJECTIVES and t.low != "'s"] or words
    terms = _terms(kept)
    if not terms:
        return None
    key = " ".join(t.low for t in kept if _term(t.low))
    if owned:
        core = [t for t in words[:owned] if t in kept] or kept
    else:
        cut = next((k for k, t in enumerate(kept) if k and t.low in _PREPS), len(kept))
        core = kept[:cut]
    heads = [h for h in (_term(t.low) for t in core) if h]
    return _Attr(terms, key, heads[-1] if heads else sorted(terms)[0])


def _subject_key(toks: Sequence[_Tok]) -> str | None:
    """ "" for the user (I/we/my team's own voice), the stemmed words of a named subject, else None."""
    words = [t.low for t in toks if t.low not in _ADVERBS]
    if not words:
        return ""
    if len(words) == 1 and words[0] in _USER:
        return ""
    if words[0] in _PRONOUNS or any(w in _WH or w in _PREPS or w in _NEGATIONS for w in words):
        return None
    if len(words) > 4:
        return None
    return " ".join(sorted(_terms(toks)))


def _negated(toks: Sequence[_Tok]) -> bool:
    lows = [t.low for t in toks]
    return any(w in _NEGATIONS for w in lows) or ("no" in lows and "longer" in lows)


def _pos_verb(tok: _Tok, prev: _Tok | None) -> bool:
    """A token that can be the main verb after a subject (a word, not a function word)."""
    low = tok.low
    if not low[:1].isalpha() or low in _DETS or low in _POSS or low in _PREPS or low in _PRONOUNS:
        return False
    if low in STOPWORDS and low not in {"do", "does", "have", "has"}:
        return False
    return not (prev is not None and (prev.low in _DETS or prev.low in _POSS))


def _mk_slot(
    subject: str,
    attr: _Attr,
    rel: str,
    value: _Value,
    negated: bool,
    weak: bool = False,
    replaceable: bool = True,
) -> _Slot:
    terms, key, head = attr
    terms = terms | value.extra
    weak = weak or value.kind == "class"
    label = (
        key if rel in {"is", "*", "made", "role"} or rel.endswith("#") else f"{key} {rel.removeprefix('is ')}"
    )
    if subject:
        label = f"{subject}: {label}"
    return _Slot(
        subject,
        head,
        terms,
        rel,
        value.text,
        value.terms,
        value.kind,
        value.subkinds,
        negated,
        weak,
        label.strip(),
        replaceable,
    )
