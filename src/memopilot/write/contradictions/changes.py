"""Explicit change markers: "switched from X to Y", "no longer X", "X instead of Y"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .analysis import _Change, _Phrase
from .slots import _find_seq
from .tokens import _number, _terms, _Tok, _verb_stem
from .values import _cut_value, _kind, _split_value, _subject_key
from .words import _ADVERBS, _AUX, _DETS, _INTENT, _MARKER_WORDS, _NEGATIONS, _POSS, _PREPS


def _phrase(toks: Sequence[_Tok], subject: Sequence[_Tok] = (), verb_first: bool = False) -> _Phrase | None:
    toks = [t for t in toks if t.low not in {"any", "more", "anymore", "here", "there", "now"}]
    terms = _terms(toks)
    if not terms:
        return None
    proper = _terms([t for t in toks if t.proper])
    obj = terms
    verb = ""
    if verb_first and len(toks) > 1 and toks[0].low[:1].isalpha():
        verb = _verb_stem(toks[0].low)
        rest = toks[1:]
        while rest and (rest[0].low in _PREPS or rest[0].low in _DETS or rest[0].low in _POSS):
            rest = rest[1:]
        obj = _terms(rest) or terms
    subject_terms = frozenset() if _subject_key(subject) == "" else _terms(subject)
    specific = bool(proper) or (
        len(terms) > 1 and all(_number(t) is None for t in terms) and _kind(toks)[0] == "thing"
    )
    return _Phrase(terms | subject_terms, proper, obj, subject_terms, specific, verb)


_FROM_TO = re.compile(
    r"^(?P<s>.*?)\b(?:switch|switched|switching|move|moved|moving|migrate|migrated|migrating|change|changed|changing|"
    r"go|went|gone|going|transition|transitioned|transitioning|upgrade|upgraded|upgrading|convert|converted|"
    r"shift|shifted|push|pushed|bump|bumped|reschedule|rescheduled|pivot|pivoted|jump|jumped|port|ported)\b"
    r"(?P<obj>(?: [^ ]+){0,5}?) from (?P<x>.+?) (?:to|over to|into) (?P<y>.+)$"
)
_REPLACE = re.compile(r"\breplac(?:e|ed|es|ing) (?P<x>.+?) (?:with|by) (?P<y>.+)$")
_REPLACED_BY = re.compile(
    r"^(?P<x>.+?) (?:is|are|was|were|has been|have been|got|will be|is being|gets) "
    r"replaced (?:with|by) (?P<y>.+)$"
)
_REPLACED_ACTIVE = re.compile(
    r"^(?P<y>.+?) (?:replaced|replaces|has replaced|will replace|is replacing) (?P<x>.+)$"
)
_INSTEAD_OF = re.compile(r"^(?P<y>.+?),? (?:instead of|rather than|in place of) (?P<x>.+)$")
_INSTEAD_OF_FIRST = re.compile(
    r"^(?:instead of|rather than) (?P<x>.+?) (?:, )?(?P<y>(?:i|we|you|they|let us|the|our|my) .+)$"
)
_OUT_IN = re.compile(r"^(?P<x>.+?) (?:is|are) out (?:, (?:and )?|and )(?P<y>.+?)(?: (?:is|are) in)?$")
_NO_LONGER = re.compile(r"^(?P<s>.*?)\bno longer (?P<x>.+)$")
_NOT_ANYMORE = re.compile(r"^(?P<s>.*?)\b(?:not|never) (?P<x>.+?) (?:anymore|any more)\b")
_USED_TO = re.compile(r"^(?P<s>.*?)\bused to (?P<x>.+?)(?: , (?P<y>.+))?$")
_STOPPED = re.compile(
    r"^(?P<s>.*?)\b(?:stopped|quit|ditched|dropped|abandoned|gave up(?: on)?|gotten rid of|got rid of|"
    r"are done with|am done with|dumped) (?P<x>(?!to\b|by\b)\S.*)$"
)
_NO_MORE = re.compile(r"^(?:no more) (?P<x>.+)$")
_NOT_TAIL = re.compile(r"^(?P<y>.+) , not (?P<x>[^,]+)$")
_MIND_ABOUT = re.compile(r"\bchanged (?:my|our) minds? (?:about|on) (?P<x>.+?)(?: [,:] (?P<y>.+))?$")


def _span_tokens(toks: list[_Tok], text: str) -> list[_Tok]:
    """Tokens of ``toks`` whose lowercase join equals the matched ``text`` (a suffix/prefix search)."""
    words = text.split()
    lows = [t.low for t in toks]
    start = _find_seq(lows, tuple(words))
    return toks[start : start + len(words)] if start >= 0 else []


def _cut_clause(toks: list[_Tok]) -> list[_Tok]:
    return _cut_value(toks, 0)[0] if toks else []


def _clause_changes(toks: list[_Tok]) -> list[_Change]:
    lows = [t.low for t in toks]
    line = " ".join(lows)
    found: list[tuple[list[_Tok], list[_Tok], list[_Tok], bool]] = []  # (x, y, subject, verb_first)

    def grab(m: re.Match[str], name: str) -> list[_Tok]:
        return _span_tokens(toks, m.group(name)) if m.group(name) else []

    if m := _FROM_TO.search(line):
        subject = [t for t in grab(m, "s") if t.low not in _AUX | _NEGATIONS | _ADVERBS | _INTENT]
        found.append((_cut_clause(grab(m, "x")), _cut_clause(grab(m, "y")), subject, False))
    elif (m := _REPLACED_BY.search(line)) or (m := _REPLACE.search(line)):
        found.append((grab(m, "x"), _cut_clause(grab(m, "y")), [], False))
    elif m := _REPLACED_ACTIVE.search(line):
        found.append((_split_value(_cut_clause(grab(m, "x")))[0], grab(m, "y"), [], False))
    elif m := _INSTEAD_OF_FIRST.search(line):
        found.append((_split_value(grab(m, "x"))[0], grab(m, "y"), [], False))
    elif m := _INSTEAD_OF.search(line):
        found.append((_split_value(_cut_clause(grab(m, "x")))[0], grab(m, "y"), [], False))
    elif m := _OUT_IN.search(line):
        found.append((grab(m, "x"), grab(m, "y"), [], False))
    elif m := _MIND_ABOUT.search(line):
        found.append((_cut_clause(grab(m, "x")), grab(m, "y"), [], False))
    else:
        for pattern, verb_first in (
            (_NO_LONGER, True),
            (_NOT_ANYMORE, True),
            (_USED_TO, True),
            (_STOPPED, True),
        ):
            if m := pattern.search(line):
                subject = [t for t in grab(m, "s") if t.low not in _AUX | _NEGATIONS | _ADVERBS | {"no"}]
                x = _cut_clause(grab(m, "x"))  # "stopped using Vim": the gerund is the verb
                y = grab(m, "y") if "y" in m.groupdict() else []
                found.append((x, y, subject, verb_first))
                break
        else:
            if m := _NO_MORE.search(line):
                found.append((_cut_clause(grab(m, "x")), [], [], False))
            elif m := _NOT_TAIL.search(line):
                found.append((grab(m, "x"), grab(m, "y"), [], False))
    out: list[_Change] = []
    all_terms = _terms(toks)
    for x, y, subject, verb_first in found:
        phrase = _phrase(x, subject, verb_first)
        if phrase is None:
            continue
        new_terms = _terms(y) - _MARKER_WORDS - {"us", "let"}
        context = all_terms - phrase.terms - new_terms - _MARKER_WORDS - {"us", "let"}
        out.append(_Change(phrase, new_terms, frozenset(context)))
    return out
