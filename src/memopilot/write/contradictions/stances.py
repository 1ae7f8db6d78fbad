"""Stances: preferences and plain actions, positive or negated."""

from __future__ import annotations

from ...text import STOPWORDS, stem
from .analysis import _Stance
from .slots import _likely_verb, _main_verb_aux
from .tokens import _term, _terms, _Tok, _verb_stem
from .values import _cut_value, _pos_verb, _strip_fillers
from .words import (
    _ADVERBS,
    _AND_BREAK,
    _AUX,
    _BOUNDARY,
    _CHANGE_VERBS,
    _COPULAS,
    _DETS,
    _NAMING,
    _NEGATIONS,
    _OBJECT_END,
    _PREF_NEG,
    _PREF_POS,
    _USER,
)


def _clause_stances(toks: list[_Tok]) -> list[_Stance]:
    lows = [t.low for t in toks]
    n = len(toks)
    out: list[_Stance] = []
    # subject: pronoun, or nothing (imperative), or a short name
    if not toks:
        return out
    if lows[0] in _USER:
        subject, i = "", 1
    elif lows[0] in {"please", "always", "never", "do", "don't"} or lows[0] not in STOPWORDS | _DETS:
        subject, i = "", 0
    else:
        return out
    if i == 0 and n > 1 and (toks[0].proper or toks[0].orig[:1].isupper()) and _likely_verb(toks, 1):
        subject, i = stem(lows[0]), 1
    negated = False
    while i < n and (
        lows[i] in _AUX or lows[i] in _ADVERBS or lows[i] in _NEGATIONS or lows[i] in {"no", "longer"}
    ):
        if _main_verb_aux(toks, i):
            break
        negated = negated or lows[i] in _NEGATIONS or lows[i] == "longer"
        if lows[i] == "would" and i + 1 < n and lows[i + 1] == "like":
            return out  # "I would like X" is a request, not a preference
        i += 1
    if i >= n:
        return out
    verb = lows[i]
    preference = verb in _PREF_POS or verb in _PREF_NEG
    pos = not negated
    k = i + 1
    # "I'm into jazz" / "I'm a fan of jazz" / "I can't stand jazz"
    if verb == "into" or (verb == "fan" and k < n and lows[k] == "of"):
        preference, k = True, k + (verb == "fan")
    elif verb == "a" and k + 1 < n and lows[k] == "fan" and lows[k + 1] == "of":
        preference, k = True, k + 2
    elif verb == "stand" and negated:
        preference, pos = True, False
    elif verb in _PREF_NEG:
        pos = negated
    elif verb == "rather" and negated is False:
        preference = True
        if k < n and _pos_verb(toks[k], None) and lows[k] not in _DETS:
            k += 1
    elif not preference and (
        not _pos_verb(toks[i], toks[i - 1] if i else None)
        or verb in _COPULAS
        or verb in _CHANGE_VERBS
        or verb in _NAMING
        or verb.endswith("ed")
        or verb in {"used", "stopped", "quit", "ditched", "dropped", "abandoned", "gave"}
    ):
        return out  # not a stance: a state, a change or a past event
    obj_end = k
    while obj_end < n and lows[obj_end] not in _BOUNDARY and lows[obj_end] not in _OBJECT_END:
        if lows[obj_end] == "to" and verb.startswith("prefer"):
            break
        if lows[obj_end] == "and" and obj_end + 1 < n and lows[obj_end + 1] in _AND_BREAK:
            break
        obj_end += 1
    obj_toks, _ = _strip_fillers(toks[k:obj_end])
    obj = _terms(obj_toks)
    if not obj:
        return out
    vclass = "pref" if preference else _verb_stem(verb)
    head = _term(obj_toks[-1].low) or ""
    out.append(_Stance(subject, vclass, obj, pos, preference, verb in {"prefer", "prefers"}, head))
    # "prefer X over Y" / "X rather than Y" / "X more than Y": Y gets the opposite stance
    rest = lows[obj_end:]
    for marker in (("over",), ("to",), ("rather", "than"), ("more", "than"), ("than",), ("instead", "of")):
        if tuple(rest[: len(marker)]) == marker and (preference or marker != ("to",)):
            other_toks, _ = _cut_value(toks, obj_end + len(marker))
            other_toks, _ = _strip_fillers(other_toks)
            other = _terms(other_toks)
            if other:
                out.append(_Stance(subject, vclass, other, not pos, preference))
            break
    return out
