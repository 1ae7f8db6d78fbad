"""Sentences: corrections, questions, hedges, clauses, and the analysis of a text."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

from ..sentences import clean_statement, is_question, past_form, split_sentences
from .analysis import _Analysis, _Change, _Slot, _Stance
from .changes import _clause_changes
from .choices import returned_to
from .slots import _clause_slot
from .stances import _clause_stances
from .tokens import _terms, _Tok, _tokens
from .words import (
    _DESCRIPTIVE_SIGNALS,
    _HEDGES,
    _LEADING_FILLERS,
    _SIGNALS,
    _USER,
    _phrases,
)

_CORRECTION_PREFIXES = _phrases(
    "actually|correction|scratch that|on second thought|on second thoughts|i changed my mind|"
    "we changed our minds|we changed our mind|changed my mind|change of plans|change of plan|"
    "wait|no wait|sorry|i meant|make that|let me correct that|to correct|update|small correction|"
    "quick correction|i misspoke|my mistake|my bad|oops"
)


# What opens a message that takes back what the user has just said: "scratch that", "correction",
# "I got it wrong", "wrong town", "I meant", after the interjections a correction opens with ("Oops,",
# "Wait, no,"). Stronger than a correction marker inside a sentence ("actually", "sorry", "update"
# also stress or greet), so it may name what it corrects by its place in the conversation alone.
_TAKES_BACK = re.compile(
    r"^(?:(?:oops|whoops|wait|no|sorry|argh|ugh|ah|hmm|oh|erm|um)\b[\s,.!:;-]*)*"
    r"(?:scratch that|correction\b|(?:i|we) (?:got|had) (?:it|that|this) wrong|(?:i|we) (?:was|were) wrong|"
    r"wrong (?!way\b)[a-z]+\s*[,.!:;-]|i meant\b|i misspoke|my mistake|let me correct)",
    re.IGNORECASE,
)


def takes_back(text: str) -> bool:
    """Whether a message opens by taking back what the user has just said ("Oops, scratch that,
    wrong town. It's in Kestrel Bay.", "Wait, I got it wrong. His allergy is peanuts.")."""
    return _TAKES_BACK.match(text.strip()) is not None


# Leading time adjuncts that say the statement replaces an earlier one ("These days, I ...").
_LEADING_CHANGES: tuple[tuple[str, ...], ...] = (
    ("these", "days"),
    ("from", "now", "on"),
    ("going", "forward"),
    ("as", "of", "today"),
    ("starting", "today"),
    ("since", "then"),
    ("lately",),
    ("nowadays",),
)


def _leading_change(toks: Sequence[_Tok]) -> int:
    """How many tokens a leading change adjunct takes (0: none)."""
    lows = tuple(t.low for t in toks[:3])
    return next((len(p) for p in _LEADING_CHANGES if lows[: len(p)] == p), 0)


def _signal_words(toks: Sequence[_Tok]) -> set[str]:
    """The sentence's words, without an "actually" that stresses what happened ("the rolling
    trick actually worked", "she actually called back"): that one corrects nothing, and the aisle
    seat a user always takes was retired by it."""
    lows = [t.low for t in toks]
    stressing = any(a == "actually" and past_form(b) for a, b in itertools.pairwise(lows))
    return set(lows) - {"actually"} if stressing else set(lows)


def _strip_correction(toks: list[_Tok]) -> tuple[list[_Tok], bool]:
    corrected = False
    changed = True
    while changed and toks:
        changed = False
        lows = [t.low for t in toks]
        for prefix in _CORRECTION_PREFIXES:
            n = len(prefix)
            if tuple(lows[:n]) == prefix and (
                n == len(lows)
                or lows[n] in {",", ":", ";", "the", "it", "i", "we"}
                or prefix[0] in {"actually", "make"}
            ):
                if prefix[-1] in {"mind", "minds"} and n < len(lows) and lows[n] in {"about", "on"}:
                    return toks, True  # "changed my mind about X": a change marker, read as such
                toks = toks[n:]
                while toks and toks[0].low in {",", ":", ";", "-"}:
                    toks = toks[1:]
                corrected = changed = True
                break
        while toks and toks[0].low in _LEADING_FILLERS and len(toks) > 1:
            toks = toks[1:]
            while toks and toks[0].low in {",", "-"} and len(toks) > 1:
                toks = toks[1:]  # ("Ugh, sorry, ...": the correction follows the comma)
            changed = True
        lead = _leading_change(toks)
        if lead and len(toks) > lead:
            toks = toks[lead:]  # "These days I prefer X": a time adjunct that marks a change
            while toks and toks[0].low in {",", ":", ";", "-"}:
                toks = toks[1:]
            changed = True
        label = _label_end(toks)
        if label:
            # "Decision: ...", "Heads up, my routine changed: ...": a label or a lead-in, not
            # part of the statement
            toks = toks[label:]
            changed = True
    return toks, corrected


_MAX_LEAD_IN = 6  # tokens before a ":" that introduce the statement rather than belong to it


def _label_end(toks: Sequence[_Tok]) -> int:
    """How many tokens a leading label or lead-in ending with ":" takes (0: none)."""
    colon = next((i for i, t in enumerate(toks[: _MAX_LEAD_IN + 1]) if t.low == ":"), 0)
    if colon and len(toks) > colon + 1 and toks[0].low[:1].isalpha():
        return colon + 1
    return 0


def _hedged(toks: list[_Tok]) -> bool:
    lows = [t.low for t in toks]
    if any(w in _HEDGES for w in lows):
        for i, w in enumerate(lows):
            if w in _HEDGES and not (w == "could" and i + 1 < len(lows) and lows[i + 1] == "not"):
                return True
    line = " ".join(lows)
    return any(p in line for p in ("thinking about", "thinking of", "not sure", "wonder ", "i guess"))


def _clauses(toks: list[_Tok]) -> list[list[_Tok]]:
    """Split at ",", ";" and "but": each part is read on its own ("instead of X" openers dropped)."""
    parts: list[list[_Tok]] = [[]]
    for tok in toks:
        if tok.low in {",", ";"} or (tok.low == "but" and parts[-1]):
            if parts[-1]:
                parts.append([])
            continue
        if tok.low in {"now", "and", "so"} and not parts[-1]:
            continue
        parts[-1].append(tok)
    out: list[list[_Tok]] = []
    for part in parts:
        if len(part) > 2 and (part[0].low, part[1].low) in {("instead", "of"), ("rather", "than")}:
            start = next((k for k in range(2, len(part)) if part[k].low in _USER | {"you", "they", "let"}), 0)
            part = part[start:] if start else []
        if part:
            out.append(part)
    return out


@functools.lru_cache(maxsize=8192)
def _analyse(text: str) -> _Analysis:
    slots: list[_Slot] = []
    stances: list[_Stance] = []
    changes: list[_Change] = []
    loose: list[frozenset[str]] = []
    terms: set[str] = set()
    statement = False
    corrected_any = False
    signal = marked = False
    carry = False  # "Scratch that. The meeting is on Monday." -> the marker applies to the next one
    for raw in split_sentences(text):
        toks = _tokens(clean_statement(raw))
        if not toks:
            continue
        marked = marked or _leading_change(toks) > 0
        toks, corrected = _strip_correction(toks)
        corrected = corrected or carry
        carry = corrected and not toks
        if not toks or is_question(raw) or _hedged(toks):
            continue
        statement = True
        corrected_any = corrected_any or corrected
        sentence_terms = _terms(toks)
        terms |= sentence_terms
        lows = {t.low for t in toks}
        signals = _signal_words(toks)
        no_longer = "no" in lows and "longer" in lows
        # "we ended up going with terracotta": the choice made after one considered earlier
        ended_up = any(a.low == "ended" and b.low == "up" for a, b in itertools.pairwise(toks))
        marked = (
            marked
            or corrected
            or no_longer
            or ended_up
            or returned_to(clean_statement(raw)) is not None
            or bool(signals & (_SIGNALS - _DESCRIPTIVE_SIGNALS))
        )
        signal = signal or marked or bool(signals & _SIGNALS)
        sentence_changes = _clause_changes(toks)
        clauses = _clauses(toks)
        if len(clauses) > 1:  # "I no longer use Vim; I use Helix": each clause may carry its own marker
            sentence_changes += [
                c for part in clauses for c in _clause_changes(part) if c not in sentence_changes
            ]
        changes.extend(sentence_changes)
        found_structure = bool(sentence_changes)
        for clause in clauses:
            slot = _clause_slot(clause)
            if slot is not None:
                slots.append(slot)
            found = _clause_stances(clause)
            stances.extend(found)
            found_structure = found_structure or slot is not None or bool(found)
        for change in sentence_changes:  # "switched from X to Y" is -X, +Y
            if change.old.specific or not change.context:
                stances.append(_Stance("", "*", change.old.obj, False, False))
        if corrected and not found_structure and sentence_terms:
            loose.append(sentence_terms)
    return _Analysis(
        statement,
        frozenset(terms),
        tuple(slots),
        tuple(stances),
        tuple(changes),
        corrected_any,
        signal,
        marked,
        tuple(loose),
    )
