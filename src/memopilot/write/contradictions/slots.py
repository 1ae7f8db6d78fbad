"""Slot templates: a statement read as an attribute and a value."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text import STOPWORDS, stem
from .analysis import _Slot
from .tokens import _number, _terms, _Tok, _verb_stem
from .values import (
    _SELF,
    _Attr,
    _cut_value,
    _date_part,
    _mk_slot,
    _negated,
    _np,
    _pos_verb,
    _split_value,
    _subject_key,
    _value,
)
from .words import (
    _ADVERBS,
    _AUX,
    _BOUNDARY,
    _BUILD_VERBS,
    _CHANGE_VERBS,
    _CHOICE_BY_FIRST,
    _COMMON_ADJECTIVES,
    _COPULAS,
    _DETS,
    _FREQUENCY,
    _INTENT,
    _IRREGULAR,
    _LOC_VERBS,
    _MOVE_SELF,
    _NAMING,
    _NEGATIONS,
    _PAST_COPULAS,
    _PLACE_VERBS,
    _POSS,
    _PREPS,
    _PRONOUNS,
    _ROLE_VERBS,
    _SPEECH_VERBS,
    _USER,
)


def _find_seq(lows: list[str], seq: tuple[str, ...], start: int = 0) -> int:
    n = len(seq)
    for i in range(start, len(lows) - n + 1):
        if tuple(lows[i : i + n]) == seq:
            return i
    return -1


def _prefix_ok(toks: Sequence[_Tok]) -> str | None:
    """Subject key when ``toks`` is only pronouns/auxiliaries/modals (or a short named subject)."""
    allowed = (
        _USER | _AUX | _INTENT | _ADVERBS | _NEGATIONS | {"you", "to", "no", "longer", "let", "please", "all"}
    )
    if all(t.low in allowed for t in toks):
        return ""
    core = [
        t for t in toks if t.low not in _AUX | _INTENT and t.low not in _ADVERBS and t.low not in _NEGATIONS
    ]
    if core and (core[0].low in _DETS or core[0].low in _POSS or core[0].proper or core[0].first):
        return _subject_key(core)
    return None


def _slot_naming(toks: list[_Tok]) -> _Slot | None:
    lows = [t.low for t in toks]
    for i, low in enumerate(lows):
        if low not in _NAMING or (low in {"named", "called"} and i and lows[i - 1] in _COPULAS):
            continue
        if _prefix_ok(toks[:i]) is None:
            return None
        rest = toks[i + 1 :]
        if not rest:
            return None
        # "call the app Nimbus" / "call me Sam" / "rename the app to Nimbus"
        split = next((j for j, t in enumerate(rest) if t.low in {"to", "as"}), None)
        if split is None:
            caps = next((j for j, t in enumerate(rest) if j and (t.proper or t.orig[:1].isupper())), None)
            split = caps if caps is not None else len(rest) - 1
            np_toks, val_toks = rest[:split], rest[split:]
        else:
            np_toks, val_toks = rest[:split], rest[split + 1 :]
        attr_np = [t for t in np_toks if t.low not in {"me", "us"}]
        attr = _np(attr_np) if attr_np else _Attr(frozenset(), "", "name")
        value = _value(_cut_value(val_toks, 0)[0])
        if attr is None or value is None or value.kind == "date":
            return None
        named = _Attr(attr.terms | {"name"}, f"{attr.key} name".strip(), "name")
        return _mk_slot("", named, "is", value, _negated(toks[:i]))
    return None


def _slot_copula(toks: list[_Tok]) -> _Slot | None:
    lows = [t.low for t in toks]
    p = next((i for i, w in enumerate(lows) if w in _COPULAS), -1)
    if p < 1:
        return None
    subj = toks[:p]
    while subj and subj[-1].low in _AUX | _ADVERBS:
        subj = subj[:-1]
    if not subj:
        return None
    i = p
    while i < len(toks) and (
        toks[i].low in _COPULAS or toks[i].low in _ADVERBS or toks[i].low in {"going", "to"}
    ):
        i += 1
    negated = False
    while i < len(toks) and (
        toks[i].low in _NEGATIONS or toks[i].low in {"no", "longer"} or toks[i].low in _ADVERBS
    ):
        negated = negated or (toks[i].low != "no" and toks[i].low not in _ADVERBS)
        i += 1
    past = lows[p] in _PAST_COPULAS
    if i >= len(toks):
        return None
    nxt = toks[i].low
    if nxt in {"out", "over", "off", "gone"}:
        return None  # "X is out, Y is in": a change marker, not a value
    if nxt.endswith("ing") and nxt not in _COMMON_ADJECTIVES and i + 1 < len(toks):
        return None  # "I am learning Korean": a progressive verb, read by the verb template
    rel = "is"
    weak = False
    wildcard = False
    naming = False
    if nxt in _CHANGE_VERBS and i + 1 < len(toks) and toks[i + 1].low in {"to", "until", "for", "back"}:
        wildcard = True
        i += 2
        if i < len(toks) and toks[i].low == "to":
            i += 1
    elif nxt in _NAMING:
        naming = True
        i += 1
        if i < len(toks) and toks[i].low in {"to", "as"}:
            i += 1
    elif nxt in _BUILD_VERBS and i + 1 < len(toks) and toks[i + 1].low in {"in", "with", "using"}:
        rel = "made"
        i += 2
    elif nxt in _PLACE_VERBS and i + 1 < len(toks) and toks[i + 1].low in _PREPS:
        rel = f"is {_prep_class(toks[i + 1].low)}"
        i += 2
    elif nxt in _PREPS and nxt not in {"of", "as", "about"}:
        rel = f"is {_prep_class(nxt)}"
        i += 1
    elif (nxt.endswith("ed") or nxt in _IRREGULAR) and i + 1 < len(toks) and toks[i + 1].low in _PREPS:
        rel = f"{_verb_stem(nxt)} {_prep_class(toks[i + 1].low)}"
        i += 2
    elif nxt == "due":
        i += 1
    if past and not wildcard:
        return None  # "The budget was $5,000": history, not the current value
    value = _value(_cut_value(toks, i)[0])
    if value is None:
        return None
    if wildcard:
        rel = "*"
    subj_lows = [t.low for t in subj if t.low not in _ADVERBS]
    if len(subj_lows) == 1 and subj_lows[0] in _USER:
        if naming:
            return None
        replaceable = True
        if rel in {"is in", "is at"} and toks[p + 1 : i] and toks[i - 2].low in _LOC_VERBS:
            rel = "live"
        elif rel != "is from":
            replaceable = False  # "I am a student": many things are true of a person at once
        return _mk_slot("", _SELF, rel, value, negated, replaceable=replaceable)
    if subj_lows and (subj_lows[0] in _PRONOUNS or subj_lows[0] in {"there", "here"}):
        return None
    # "Jenkins is our CI tool" / "Sam is the project owner": the definite noun phrase is the attribute.
    val_toks = toks[i:]
    if (
        rel == "is"
        and val_toks
        and (val_toks[0].low in _POSS or (val_toks[0].low == "the" and len(subj) <= 2))
        and subj[0].low not in _DETS
        and subj[0].low not in _POSS
        and (val_toks[0].low != "the" or all(t.orig[:1].isupper() for t in subj))
    ):
        attr = _np(_cut_value(val_toks, 0)[0])
        inverted = _value(list(subj))
        if attr is None or inverted is None:
            return None
        return _mk_slot("", attr, "is", inverted, negated)
    attr = _np(subj)
    if attr is None:
        return None
    if naming:
        attr = _Attr(attr.terms | {"name"}, f"{attr.key} name", "name")
    return _mk_slot("", attr, rel, value, negated, weak=weak)


def _prep_class(prep: str) -> str:
    return {"inside": "in", "within": "in", "onto": "on", "into": "to", "till": "until"}.get(prep, prep)


def _choice_verbs(lows: list[str]) -> list[tuple[int, tuple[str, ...]]]:
    """Positions of choice verbs ("use", "go with", ...) in a clause, in order."""
    found = []
    for v, low in enumerate(lows):
        for verb in _CHOICE_BY_FIRST.get(low, ()):
            if tuple(lows[v : v + len(verb)]) == verb:
                found.append((v, verb))
                break
    return found


def _slot_choice(toks: list[_Tok]) -> _Slot | None:
    lows = [t.low for t in toks]
    for v, verb in _choice_verbs(lows):
        subject = _prefix_ok(toks[:v])
        if subject is None:
            continue
        after = v + len(verb)
        j = next(
            (k for k in range(after, len(toks)) if lows[k] in {"for", "as"} or lows[k] in _BOUNDARY), None
        )
        if j is None or lows[j] not in {"for", "as"} or j == after or j - after > 6:
            return None
        purpose, _ = _cut_value(toks, j + 1)
        purpose_head, _ = _split_value(purpose)
        cut = next((k for k, t in enumerate(purpose_head) if t.low == "and"), len(purpose_head))
        attr = _np(purpose_head[:cut])
        value = _value(_cut_value(toks[after:j], 0)[0])
        if attr is None or value is None:
            return None
        return _mk_slot(subject, attr, "is", value, _negated(toks[:v]))
    return None


def _slot_verb(toks: list[_Tok]) -> _Slot | None:
    """ "<subject> [aux] <verb> ..." with a preposition, a counted noun, or an object and a place."""
    lows = [t.low for t in toks]
    n = len(toks)
    # subject
    if not toks:
        return None
    if lows[0] in _USER or lows[0] in {"they"}:
        subject, s_end, pronoun = "", 1, True
    elif lows[0] in _DETS or lows[0] in _POSS or toks[0].proper or toks[0].orig[:1].isupper():
        split = _np_verb_split(toks)
        if split is None:
            return None
        s_end = split[0]
        subject_np = _np(toks[:s_end])
        if subject_np is None:
            return None
        subject, pronoun = subject_np[1], False
    else:
        return None
    i = s_end
    negated = False
    aux_be = False
    while i < n and (
        lows[i] in _AUX or lows[i] in _ADVERBS or lows[i] in _NEGATIONS or lows[i] in {"no", "longer"}
    ):
        if _main_verb_aux(toks, i):
            break
        negated = negated or lows[i] in _NEGATIONS or lows[i] == "longer"
        aux_be = aux_be or lows[i] in {"am", "are", "is", "be", "been"}
        i += 1
    if i >= n or not _pos_verb(toks[i], toks[i - 1] if i else None):
        return None
    verb = lows[i]
    if i + 1 >= n:
        return None
    nxt = lows[i + 1]
    change = verb in _CHANGE_VERBS
    past = verb.endswith("ed") or verb in {"went", "ran", "met", "made", "built", "wrote", "kept"}
    if past and not change and not aux_be and verb not in _LOC_VERBS:
        return None  # "I worked at X": an event, not the current state
    # "I moved to Lisbon" == "I live in Lisbon"
    if pronoun and verb in _MOVE_SELF and nxt == "to":
        value = _value(_cut_value(toks, i + 2)[0])
        return _mk_slot(subject, _SELF, "live", value, negated) if value else None
    # "<NP> moved/was pushed to <value>"
    if not pronoun and change and nxt in {"to", "until", "back"}:
        j = i + 2 + (nxt == "back" and i + 2 < n and lows[i + 2] == "to")
        value = _value(_cut_value(toks, j)[0])
        attr = _np(toks[:s_end])
        return _mk_slot("", attr, "*", value, negated) if value and attr else None
    # "<subject> <verb> <number> <noun>" -> a count
    if _number(nxt) is not None and i + 2 < n and lows[i + 2] not in _PREPS and lows[i + 2][:1].isalpha():
        noun = toks[i + 2]
        value = _value([toks[i + 1]])
        if value is None:
            return None
        attr = _Attr(frozenset({stem(noun.low)}), f"{noun.low} count", stem(noun.low))
        rel = f"{_verb_stem(verb)} #"
        return _mk_slot(subject if not pronoun else "", attr, rel, value, negated)
    if change and nxt == "from":
        return None  # "X switched from A to B": a change marker, read by the change rules
    # "Omar owns the billing service": the owner is the value of the object's role
    if not pronoun and verb in _ROLE_VERBS and nxt in _DETS | _POSS:
        obj = _np(_cut_value(toks, i + 1)[0])
        owner = _value(toks[:s_end])
        if obj is None or owner is None:
            return None
        role = _Attr(obj.terms | {_verb_stem(verb)}, f"{obj.key} {_verb_stem(verb)}er", obj.head)
        return _mk_slot("", role, "role", owner, negated, weak=True)
    # "<subject> <verb> <prep> <value>"
    if nxt in _PREPS:
        prep = _prep_class(nxt)
        if verb in {"work", "works", "working"} and prep == "for":
            prep = "at"
        value = _value(_cut_value(toks, i + 2)[0])
        if value is None:
            return None
        allowed = {"in", "at"} if pronoun else {"in", "at", "on", "from", "until", "by", "for"}
        if prep not in allowed and value.kind != "date":
            return None
        if pronoun and verb in _LOC_VERBS and prep in {"in", "at"}:
            return _mk_slot(subject, _SELF, "live", value, negated)
        rel = f"{_verb_stem(verb)} {prep}"
        if pronoun:
            return _mk_slot(
                "",
                _SELF if lows[0] != "we" else _Attr(frozenset({"<we>"}), "we", "<we>"),
                rel,
                value,
                negated,
            )
        return _mk_slot("", subject_np, rel, value, negated)
    # "<NP> costs $20" / "<NP> starts Monday"
    if not pronoun and (verb.endswith("s") or aux_be):
        value = _value(_cut_value(toks, i + 1)[0])
        if value and value.kind in {"num", "date"}:
            attr = _np(toks[:s_end])
            return _mk_slot("", attr, _verb_stem(verb), value, negated) if attr else None
    # "we write the backend in Go" / "we host the app on AWS" / "we moved the standup to Tuesday"
    if pronoun and nxt in _DETS | _POSS:
        j = next((k for k in range(i + 2, min(n, i + 8)) if lows[k] in _PREPS and lows[k] != "of"), None)
        attr = _np(toks[i + 1 : j]) if j is not None and j + 1 < n else None
        if j is not None and attr is not None and lows[j] != "from":
            prep = _prep_class(lows[j])
            if change and prep in {"to", "until", "for"}:
                rel = "*"
            elif verb in _BUILD_VERBS and prep in {"in", "with", "using"}:
                rel = "made"
            elif verb in _PLACE_VERBS:
                rel = f"is {prep}"
            else:
                rel = f"{_verb_stem(verb)} {prep}"
            value = _value(_cut_value(toks, j + 1)[0])
            return _mk_slot("", attr, rel, value, negated) if value else None
    # "we ship releases every two weeks" / "I call my mom on Sundays": when a habit happens
    if pronoun and nxt not in _PREPS:
        when = next((k for k in range(i + 1, min(n, i + 7)) if _date_part(toks[k], k) == "day"), None)
        if when is not None:
            start = when
            while start > i + 1 and (_number(lows[start - 1]) is not None or lows[start - 1] in _FREQUENCY):
                start -= 1
            obj = [t for t in toks[i + 1 : start] if t.low not in _PREPS]
            if all(t.low not in _BOUNDARY for t in toks[i + 1 : when]):
                value = _value(_cut_value(toks, start)[0])
                verb_terms = frozenset({_verb_stem(verb)}) | _terms(obj)
                attr = _Attr(verb_terms, " ".join([verb, *(t.low for t in obj)]), _verb_stem(verb))
                return _mk_slot("", attr, "when", value, negated) if value else None
    return None


def _np_verb_split(toks: Sequence[_Tok]) -> tuple[int, int] | None:
    """Where a noun-phrase subject ends and its verb stands: the verb is the word before the first
    preposition, number or determiner that follows it ("The meeting with Dana happens on Friday")."""
    lows = [t.low for t in toks]
    bare = lows[0] not in _DETS and lows[0] not in _POSS
    for k in range(2, min(len(toks), 9)):
        if not (lows[k] in _PREPS or lows[k] in _DETS or lows[k] in _POSS or _number(lows[k]) is not None):
            continue
        v = k - 1
        if (lows[v] in _AUX and not _main_verb_aux(toks, v)) or lows[v] in _ADVERBS or lows[v] in _NEGATIONS:
            continue
        if lows[v - 1] in _DETS or lows[v - 1] in _POSS or lows[v] in _PREPS or not lows[v][:1].isalpha():
            continue
        end = v
        while end > 1 and (
            lows[end - 1] in _AUX
            or lows[end - 1] in _ADVERBS
            or lows[end - 1] in _NEGATIONS
            or lows[end - 1] in {"no", "longer"}
        ):
            end -= 1
        if end < 1 or (bare and end > 3) or end > 6:
            return None
        if any(w in _COPULAS or (w in _PREPS and w not in {"of", "for", "with"}) for w in lows[:end]):
            return None
        return end, v
    return None


def _main_verb_aux(toks: Sequence[_Tok], i: int) -> bool:
    """ "have"/"need"/"get" used as the main verb ("we have 5 engineers"), not as an auxiliary."""
    if toks[i].low not in {"have", "has", "had", "get", "gets", "got", "need", "needs", "want", "wants"}:
        return False
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    return _number(nxt) is not None or nxt in _DETS or nxt in _POSS


def _likely_verb(toks: Sequence[_Tok], i: int) -> bool:
    tok = toks[i]
    low = tok.low
    prev = toks[i - 1].low if i else ""
    if prev in _DETS or prev in _POSS or not low[:1].isalpha():
        return False
    if low in _COPULAS or low in _AUX or low in _NEGATIONS or low in _CHANGE_VERBS:
        return True
    if low.endswith("ing"):
        return False
    return (low.endswith("s") and not low.endswith("ss")) or low.endswith("ed")


def _slot_imperative(toks: list[_Tok]) -> _Slot | None:
    """ "(always) answer in Spanish" / "reply to me in English": verb + preposition, no subject."""
    i = 0
    while i < len(toks) and toks[i].low in _ADVERBS | {"please", "always", "from", "now", "on"}:
        i += 1
    if i + 2 >= len(toks) or not toks[i].low[:1].isalpha():
        return None
    verb = toks[i]
    if verb.low in STOPWORDS or verb.low in _PRONOUNS or verb.proper:
        return None
    j = i + 1
    if toks[j].low == "to" and j + 1 < len(toks) and toks[j + 1].low in {"me", "us"}:
        j += 2
    elif toks[j].low in {"me", "us"}:
        j += 1
    if j >= len(toks) or toks[j].low not in {"in", "at", "on"}:
        return None
    value = _value(_cut_value(toks, j + 1)[0])
    if value is None:
        return None
    verb_class = "respond" if verb.low in _SPEECH_VERBS else _verb_stem(verb.low)
    attr = _Attr(frozenset({"<imperative>", verb_class}), verb_class, verb_class)
    return _mk_slot("", attr, toks[j].low, value, False)


def _slot_employer(toks: list[_Tok]) -> _Slot | None:
    """Where the user works, however the job is told: "I'm a payroll accountant at Belvane
    Logistics", "I work as a pharmacist at Kelmore Pharmacy", "I teach maths at Hollowmere
    Primary", "I started at Harwick & Stroud last month", "I started a new job at Quillford": the
    slot of "I work at Belvane Logistics", so that a new employer replaces the old one. ("I'm a
    nurse" alone is one of many things true of a person; "I worked at X" tells the past.)"""
    lows = [t.low for t in toks]
    # (the user first, or after a word that says when: "Two weeks ago I started at ...")
    me = next((k for k in range(min(len(lows), 4)) if lows[k] in {"i", "we"}), None)
    if me is None or (me and lows[me - 1] not in _WHEN_BEFORE_SUBJECT):
        return None
    at = next(
        (k for k in range(me + 1, min(len(toks) - 1, me + 9)) if lows[k] == "at" and toks[k + 1].proper), None
    )
    if at is None or not _EMPLOYED.match(" ".join(lows[me + 1 : at])):
        return None
    negated = any(low in _NEGATIONS or low == "longer" for low in lows[me + 1 : at])
    value = _value(_split_value(_cut_value(toks, at + 1)[0])[0])
    return _mk_slot("", _SELF, "work at", value, negated) if value else None


_WHEN_BEFORE_SUBJECT = frozenset({"since", "ago", "now", "so", "and", "but", "recently"})
# what comes between "I" and "at <Employer>" when it tells the user's job (not a customer's or a
# member's place: "I'm a regular at Mario's")
_EMPLOYED = re.compile(
    r"(?:(?:now|still|currently|also|just|recently|no longer|not)\s+)*"
    r"(?:(?:am|'m)\s+(?:(?:now|still|not|no longer)\s+)*an?\s+"
    r"(?!(?:[\w'-]+\s+)?(?:regular|member|customer|guest|patient|visitor|fan|client|subscriber)\b)"
    r"[\w' -]{2,40}"
    r"|(?:work|works)\s+as\s+an?\s+[\w' -]{2,40}"
    r"|teach(?:es)?\s+[\w' -]{2,30}"
    r"|(?:(?:have\s+|'ve\s+)?started|start|(?:am\s+|'m\s+)starting)(?:\s+(?:a\s+new\s+job|a\s+job|work|working))?)$"
)


def _clause_slot(toks: list[_Tok]) -> _Slot | None:
    for template in (_slot_naming, _slot_choice, _slot_employer, _slot_copula, _slot_verb, _slot_imperative):
        found = template(toks)
        if found is not None:
            return found
    return None
