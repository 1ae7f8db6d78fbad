"""Deterministic contradiction rules: does a NEW statement replace an OLD memory?

The write path calls :func:`find_supersessions` for every new memory, over the user's active and
pinned memories in scope. The rules read the *structure* of a sentence, never a list of topics; the
only word lists are closed grammatical classes (articles, pronouns, prepositions, auxiliaries,
change verbs such as moved/pushed/raised, preference verbs, calendar words). Each sentence of both
texts is tokenised (contractions expanded, "'s" told apart as "is" or a possessive), questions and
hedged sentences ("maybe we should switch to X") are ignored, and the rest is read four ways, tried
in this order for each old memory:

1. **Stances** (``preference_reversal``, ``negation``, ``change_marker``). A clause
   ``<subject> [not] <verb> <object>`` is a stance on that object, positive or negative.
   Preference verbs (like, love, enjoy, prefer, hate, dislike, "am into", ...) share one verb
   class, so "I like X" / "I don't like X anymore" / "I hate X" speak about the same thing.
   "I prefer X over Y" is +X and -Y; "switched from X to Y" is -X. The same subject and object (one
   term set inside the other, equal numbers) with the opposite polarity is a reversal.
   "I prefer dark mode" / "I prefer light mode" (same head noun, both preferred) is a new choice.
2. **Slots** (``same_slot_new_value``). A statement is read as an attribute and a value:
   ``<noun phrase> is|are|will be [prep] <value>`` ("The budget is $5,000", "The meeting is with Dana"),
   ``<NP> moved|changed|was pushed to <value>`` (a change verb: any preposition of that attribute),
   ``<subject> use|pick|go with|prefer <value> for|as <purpose>`` (the purpose is the attribute),
   ``<Name> is our/the <role>`` (the role is the attribute), ``<Name> owns|leads <the thing>``,
   ``I live|work|am based in|at <value>`` (moved/relocated to = live in),
   ``we <verb> the <object> in|on <value>`` ("We write the backend in Go"),
   ``<subject> <verb> <number> <noun>`` ("We have 5 engineers"), habits
   ``<subject> <verb> ... every <time>``, naming ("call the app X", "is called X") and
   imperatives ("answer in Spanish"). The attribute is normalised (lowercase, stemmed, articles,
   possessives and change adjectives such as "new" dropped, "of"/"for" qualifiers and possessors
   kept as modifiers). Two attributes are the same slot when one term set contains the other and
   their head nouns agree ("target audience" ~ "audience", "frontend framework" !~ "backend
   framework", "client contact" !~ "client"; a generic classifier head may stand in: "CI tool" ~
   "CI"), with the same calendar/number scope ("Q3 budget" !~ "Q4 budget") and a compatible
   relation. Values are compared by kind (amount, date/time, thing, class/adjective): a different
   value of a compatible kind supersedes; an adjective or "a/an ..." value only with a change signal
   ("now", "anymore", "actually", "new", ...); "I am <something>" never by value (many things hold
   of a person at once), only when negated ("I'm not vegetarian anymore").
3. **Explicit change markers** (``change_marker``): "switch(ed)/moved/migrated from X to Y",
   "replace X with Y", "X was replaced by Y", "Y replaced X", "Y instead of / rather than X",
   "no longer X", "not X anymore", "used to X", "stopped/quit/ditched/gave up X", "no more X",
   "X is out, Y is in", "..., not X", "changed my mind about X". The old memory is one that
   mentions X: all its terms or its proper names when X names something specific; when X is generic
   (a date, a number, a lowercase word) the old memory must hold X as a slot value or a stance of
   the same subject, and must mention the context the sentence names ("the standup").
4. **Corrections** ("actually, ...", "correction: ...", "scratch that", "on second thought",
   "I changed my mind: ..."): the rest is read with rules 1-3 (a correction alone in its sentence
   applies to the next one) and counts as a change signal; when it has no structure at all, an old
   memory sharing most of its topic words, but not a near-copy of it, is the one corrected
   (rule ``correction``).

Never superseded: episodes (raw evidence), consolidation summaries, memories not active or pinned,
and an old memory that says the same thing (same slot and value, or same stance: a duplicate, not a
contradiction; this also stops the marker rules for that memory). A new *episode* supersedes
nothing: it is a verbatim turn, not an interpretation. Critical memories are returned with
``blocked=True``: the caller flags the conflict and keeps them.

Everything here is a pure function of its arguments; sentence analyses are cached by text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..domain import CONTEXT_STATES, SPEAKER_TAG, Memory, MemoryType
from ..text import STOPWORDS, stem, text_ratio

__all__ = ["Supersession", "find_supersessions", "slot_of"]


@dataclass(frozen=True, slots=True)
class Supersession:
    """One old memory that the new statement replaces (or would, were it not critical)."""

    old: Memory
    rule: str  # "preference_reversal", "negation", "same_slot_new_value", "change_marker", "correction"
    reason: str  # readable and, where possible, free of the memories' content
    blocked: bool  # old is critical: the caller must not supersede it, only flag the conflict


# --------------------------------------------------------------------------------------------
# Closed word classes (grammar, not topics)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _phrases(text: str) -> tuple[tuple[str, ...], ...]:
    """ "go with|rely on" -> (("go", "with"), ("rely", "on"))"""
    return tuple(tuple(p.split()) for p in text.split("|"))


_DETS = _words("the a an this that these those some any each every")
_POSS = _words("my our your his her their its")
_USER = _words("i we me us")
_PRONOUNS = _words("i we you he she they it me us them")
_WH = _words("what which who whom whose where when why how")
_QUESTION_START = _WH | _words(
    "do does did is are am was were can could should would will shall may might have has had"
)
_COPULAS = _words("is are am be been was were remains remain becomes became")
_PAST_COPULAS = frozenset({"was", "were"})
_AUX = _words(
    "will would shall should can could may might must do does did have has had going to gonna "
    "get gets got being be been is are am let us 's"
)
# Intent words that may stand between a subject and its choice ("we decided to use X for Y").
_INTENT = _words("decided agreed plan plans planning want wants need needs try trying like")
_ADVERBS = _words(
    "now still currently actually really also always usually mostly generally officially definitely "
    "just only mainly primarily typically already finally again even basically honestly then "
    "probably certainly otherwise today nowadays"
)
_LEADING_FILLERS = _words(
    "so ok okay well also and but now currently honestly basically btw fyi note update please "
    "just oh hey hi yes yeah alright anyway anyways then"
)
_PREPS = _words(
    "in at on for to from with by until till near under over into onto via about of as before after "
    "during within inside since around through between per against"
)
_BOUNDARY = _words(
    ", ; : because since so but although though which who whereas while unless if when where whenever "
    "whether than"
)
_AND_BREAK = _words("i we you they he she it the our my then now also")
_NEGATIONS = frozenset({"not", "never"})
# Words that say "this is a change" without naming what changed.
_SIGNALS = _words(
    "now anymore instead nowadays actually changed change switched switch moved new updated revised "
    "latest correction"
)
_TRAILING_FILLERS = _words(
    "now anymore instead nowadays currently again too already then either please though"
)
_MULTI_FILLERS: tuple[tuple[str, ...], ...] = (
    ("from", "now", "on"),
    ("going", "forward"),
    ("these", "days"),
    ("any", "more"),
    ("for", "now"),
    ("as", "well"),
    ("for", "good"),
    ("at", "the", "moment"),
    ("right", "now"),
    ("as", "of", "today"),
    ("starting", "today"),
)
# Modifiers that describe the change, not the attribute: "the new deadline" is "the deadline".
_CHANGE_ADJECTIVES = _words(
    "new old current updated revised final latest actual official previous original real"
)
_HEDGES = _words(
    "maybe might perhaps considering consider wondering whether if could possibly hypothetically"
)

# Verb classes (word forms, so no stemming surprises).
_PREF_POS = _words("like likes love loves enjoy enjoys prefer prefers adore adores fancy")
_PREF_NEG = _words("dislike dislikes hate hates detest detests despise despises loathe")
_CHOICE_VERBS = _phrases(
    "rely on|relies on|relying on|go with|going with|went with|gone with|stick with|sticking with|"
    "stuck with|settle on|settled on|opt for|opted for|opting for|switch to|switched to|"
    "switching to|moved to|migrated to|use|uses|using|pick|picks|picked|choose|chooses|chose|"
    "chosen|adopt|adopts|adopted|prefer|prefers|standardize on|standardized on|select|selected"
)
_CHOICE_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _phrase_words in sorted(_CHOICE_VERBS, key=len, reverse=True):
    _CHOICE_BY_FIRST.setdefault(_phrase_words[0], []).append(_phrase_words)
del _phrase_words
_CHANGE_VERBS = _words(
    "moved move moves changed change changes pushed push pushes shifted shift shifts bumped bump "
    "postponed postpone delayed delay extended extend rescheduled reschedule set updated update "
    "raised raise increased increase decreased decrease lowered lower reduced reduce cut dropped drop "
    "grew grow went goes go rose fell climbed adjusted adjust revised revise pulled brought "
    "switched switch"
)
_NAMING = _words("call calls called name names named rename renamed renaming calling")
# Generic nouns that classify the thing named before them ("CI tool" is the CI).
_CLASSIFIER_NOUNS = frozenset(
    stem(w)
    for w in _words(
        "tool system platform service provider solution software framework library engine stack setup "
        "vendor option choice product app application"
    )
)
# Words that end the object of a stance: "prefer X over Y", "X rather than Y", "X anymore".
_OBJECT_END = _words("over than instead rather anymore now")
_FREQUENCY = _words("every each on next this once twice thrice times a an per")
# Verbs of an exclusive role: one owner/lead at a time ("Omar owns the billing service").
_ROLE_VERBS = _words("own owns owned lead leads manage manages head heads chair chairs maintain maintains")
_SPEECH_VERBS = _words("answer reply respond speak talk communicate explain chat")
_MOVE_SELF = _words("moved move moving relocated relocate relocating")
_LOC_VERBS = _words("live lives living based located reside resides residing")
# "<object> is hosted on X" == "we host <object> on X": the participle does not change the slot.
_PLACE_VERBS = _words(
    "host hosts hosted deploy deploys deployed store stores stored keep keeps kept run runs running "
    "hold holds held put puts locate located base based"
)
_BUILD_VERBS = _words(
    "write writes written wrote writing build builds built building implement implements implemented "
    "code codes coded develop develops developed make makes made"
)
_IRREGULAR = {
    "written": "write",
    "wrote": "write",
    "built": "build",
    "made": "make",
    "kept": "keep",
    "held": "hold",
    "ran": "run",
    "done": "do",
    "chosen": "choose",
    "chose": "choose",
    "taught": "teach",
    "spoken": "speak",
    "spoke": "speak",
    "given": "give",
    "gave": "give",
    "went": "go",
    "gone": "go",
    "led": "lead",
    "paid": "pay",
    "sent": "send",
    "met": "meet",
}
_COMMON_ADJECTIVES = _words(
    "slow fast quick good bad great fine big small large tight high low late early ready done open "
    "closed free busy full empty hard easy safe stable broken public private live down up complete "
    "urgent important optional required mandatory strict flexible remote hybrid cheap expensive "
    "short long simple complex happy sad tired sick healthy vegan vegetarian blocked paused active "
    "inactive single married young huge tiny clean messy"
)
_ADJ_SUFFIXES = ("ous", "ful", "ive", "able", "ible", "ical", "less", "ish", "ent", "ant", "ary")
_MONTHS = _words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
_WEEKDAYS = _words(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays "
    "fridays saturdays sundays mon tue tues wed thu thurs fri sat sun weekday weekdays"
)
_DAY_WORDS = _words(
    "today tomorrow tonight yesterday weekend weekends week weeks month months year years quarter "
    "eod eow eom q1 q2 q3 q4 h1 h2 midweek fortnight day days daily weekly monthly yearly annually "
    "hourly nightly biweekly quarterly"
)
_TIME_WORDS = _words("noon midnight morning mornings afternoon afternoons evening evenings night")
_CURRENCY = "$€£¥"
# Marker and helper words that carry no topic of their own for the "context" of a change.
_MARKER_WORDS = frozenset(
    stem(w)
    for w in _words(
        "switch switched switching move moved moving migrate migrated change changed replace replaced "
        "replacing instead longer anymore stop stopped quit ditch ditched drop dropped gave give up "
        "abandon abandoned actually correction scratch mind second thought rather used go went going "
        "use using let want need like prefer pick choose chose get take have make start decide decided "
        "agree agreed plan now transition upgrade upgraded convert shift push pushed bump reschedule "
        "mean meant wait sorry today"
    )
)

_TOKEN = re.compile(
    r"[$€£¥]?\d+(?:[,.:/\-]\d+)*[a-z%]*"
    r"|'s\b"
    r"|[^\W\d_](?:[\w+#]|['.\-](?=[^\W_]))*[+#]*"
    r"|[,;:]",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+|(?<=[!?])(?=\S)")
_S_IS_AFTER = _words(
    "been now not no going gone still also a an the at in on with over out back actually definitely "
    "moved changed set due being really always never just"
)
_S_IS_BEFORE = _words("it that what there here he she who where how this")


# --------------------------------------------------------------------------------------------
# Tokens


@dataclass(frozen=True, slots=True)
class _Tok:
    low: str
    orig: str
    first: bool  # first token of its sentence (capitalised for grammar, not as a name)

    @property
    def proper(self) -> bool:
        """A name-like token: capitalised mid-sentence, or with an inner capital (GitHub, iOS)."""
        o = self.orig
        if self.low in _USER or self.low in _MONTHS or self.low in _WEEKDAYS or not o[:1].isalpha():
            return False
        inner = any(c.isupper() for c in o[1:])
        return inner or (o[0].isupper() and not self.first)


_CONTRACTIONS = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\b(can)'t\b", r"\1 not"),
        (r"\bwon't\b", "will not"),
        (r"\b(\w+)n't\b", r"\1 not"),
        (r"\b(\w+)'m\b", r"\1 am"),
        (r"\b(\w+)'re\b", r"\1 are"),
        (r"\b(\w+)'ve\b", r"\1 have"),
        (r"\b(\w+)'ll\b", r"\1 will"),
        (r"\b(\w+)'d\b", r"\1 would"),
        (r"\blet's\b", "let us"),
    )
)
_APOSTROPHE_S = re.compile(r"\b(\w+)'s\b\s*(\w+)?")


def _expand(sentence: str) -> str:
    """Expand contractions; "'s" is "is" after pronouns or before "been/now/the...", else a possessive."""
    s = sentence.replace("’", "'").replace("‘", "'")
    if "'" not in s:
        return s
    for pattern, replacement in _CONTRACTIONS:
        s = pattern.sub(replacement, s)

    def _s(match: re.Match[str]) -> str:
        word, after = match.group(1), (match.group(2) or "").lower()
        if word.lower() in _S_IS_BEFORE or after in _S_IS_AFTER:
            return f"{word} is "
        return f"{word} 's "

    return _APOSTROPHE_S.sub(lambda m: _s(m) + (m.group(2) or ""), s)


def _tokens(sentence: str) -> list[_Tok]:
    out: list[_Tok] = []
    for match in _TOKEN.finditer(_expand(sentence)):
        orig = match.group()
        out.append(_Tok(orig.lower(), orig, not out))
    return out


_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        re.split(
            r"\s+",
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty",
        )
    )
}


_NUMBER = re.compile(r"[$€£¥]?(\d+(?:,\d{3})*(?:\.\d+)?)(k|m|mm|bn|b|st|nd|rd|th|%|usd|eur|gbp)?")
_CLOCK = re.compile(r"\d{1,2}(?::\d{2})?(?:am|pm)|\d{1,2}:\d{2}")
_NUMERIC_DATE = re.compile(r"\d+[/\-]\d+.*")


def _number(low: str) -> str | None:
    """Canonical text of a plain number or amount ("$5,000" / "5k" / "five" -> "5000"/"5"), else None."""
    if low in _NUMBER_WORDS:
        return _NUMBER_WORDS[low]
    if not (low[:1].isdigit() or low[:1] in _CURRENCY):
        return None
    m = _NUMBER.fullmatch(low)
    if not m:
        return None
    value = float(m.group(1).replace(",", ""))
    value *= {"k": 1e3, "m": 1e6, "mm": 1e6, "b": 1e9, "bn": 1e9}.get(m.group(2) or "", 1.0)
    return f"{value:g}"


_DROP = STOPWORDS | _DETS | _POSS | {"'s", ",", ";", ":"} | _TRAILING_FILLERS


@functools.lru_cache(maxsize=65_536)
def _term(low: str) -> str | None:
    if low in _DROP:
        return None
    number = _number(low)
    if number is not None:
        return number
    return stem(low) if low[:1].isalnum() or low[:1] in _CURRENCY else None


def _terms(toks: Sequence[_Tok]) -> frozenset[str]:
    return frozenset(t for t in (_term(tok.low) for tok in toks) if t)


def _verb_stem(low: str) -> str:
    return stem(_IRREGULAR.get(low, low))


# --------------------------------------------------------------------------------------------
# Analysis records


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
    signal: bool
    loose: tuple[frozenset[str], ...]  # topic terms of corrected sentences without structure


# --------------------------------------------------------------------------------------------
# Values


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


# --------------------------------------------------------------------------------------------
# Slot templates


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


def _clause_slot(toks: list[_Tok]) -> _Slot | None:
    for template in (_slot_naming, _slot_choice, _slot_copula, _slot_verb, _slot_imperative):
        found = template(toks)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------------------------
# Stances (preferences, plain actions and their negations)


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


# --------------------------------------------------------------------------------------------
# Explicit change markers


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


# --------------------------------------------------------------------------------------------
# Sentences


_CORRECTION_PREFIXES = _phrases(
    "actually|correction|scratch that|on second thought|on second thoughts|i changed my mind|"
    "we changed our minds|we changed our mind|changed my mind|change of plans|change of plan|"
    "wait|no wait|sorry|i meant|make that|let me correct that|to correct|update|small correction|"
    "quick correction|i misspoke|my mistake|my bad|oops"
)


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
            changed = True
        lead = _leading_change(toks)
        if lead and len(toks) > lead:
            toks = toks[lead:]  # "These days I prefer X": a time adjunct that marks a change
            while toks and toks[0].low in {",", ":", ";", "-"}:
                toks = toks[1:]
            changed = True
        if len(toks) > 2 and toks[1].low == ":" and toks[0].low[:1].isalpha():
            toks = toks[2:]  # "Decision: ...", "Note: ...": a label, not part of the statement
            changed = True
    return toks, corrected


def _is_question(raw: str, toks: list[_Tok]) -> bool:
    if raw.rstrip().endswith("?"):
        return True
    if not toks:
        return False
    first = toks[0].low
    if first in {"do", "does", "did"} and len(toks) > 1 and toks[1].low in _NEGATIONS:
        return False  # "Don't use tabs": an instruction
    if first in _QUESTION_START and len(toks) > 1 and toks[1].low in _PRONOUNS | _DETS | _POSS:
        return True
    return first in _WH and len(toks) > 1 and toks[1].low in _COPULAS | _AUX


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
    signal = False
    carry = False  # "Scratch that. The meeting is on Monday." -> the marker applies to the next one
    for raw in _SENTENCE_END.split(text.strip()):
        toks = _tokens(raw)
        if not toks:
            continue
        signal = signal or _leading_change(toks) > 0
        toks, corrected = _strip_correction(toks)
        corrected = corrected or carry
        carry = corrected and not toks
        if not toks or _is_question(raw, toks) or _hedged(toks):
            continue
        statement = True
        corrected_any = corrected_any or corrected
        sentence_terms = _terms(toks)
        terms |= sentence_terms
        lows = {t.low for t in toks}
        signal = signal or corrected or bool(lows & _SIGNALS) or ("no" in lows and "longer" in lows)
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
        tuple(loose),
    )


# --------------------------------------------------------------------------------------------
# Public API


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


def marks_change(text: str) -> bool:
    """Whether ``text`` states something and says it changes an earlier value (now, no longer,
    switched, actually, ...)."""
    analysis = _analyse(text)
    return analysis.statement and (analysis.signal or analysis.corrected)


def stale_episodes(new_content: str, episodes: Sequence[Memory], max_chars: int = 300) -> list[Memory]:
    """The short episodes (one statement, at most ``max_chars``) whose value a new message
    explicitly changes ("Standup is now at 10am" makes "Standup is at 9am." stale), even when no
    typed memory was taken from them. Only a marked change counts (now, no longer, switched,
    actually, ...): an unmarked new value may be a second thing, not a replacement."""
    if not marks_change(new_content):
        return []
    new = _analyse(new_content)
    out: list[Memory] = []
    for episode in episodes:
        if episode.type is not MemoryType.EPISODE or episode.state not in CONTEXT_STATES:
            continue
        said = _without_speaker(episode)
        if len(said) > max_chars:
            continue
        if len(_SENTENCE_END.split(said.strip())) > 1:
            continue  # a turn that says several things stays: its other statements still hold
        if _compare(new, _analyse(said), new_content, said) is not None:
            out.append(episode)
    return out


def _without_speaker(episode: Memory) -> str:
    """An episode's words without the "Speaker: " its content starts with in a group chat."""
    for tag in episode.tags:
        if tag.startswith(SPEAKER_TAG):
            prefix = f"{tag[len(SPEAKER_TAG) :]}: "
            if episode.content.startswith(prefix):
                return episode.content[len(prefix) :]
    return episode.content


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
        if MemoryType.FACT in (old.type, new_type) and not (new.signal or new.corrected):
            continue  # life facts and past events add up ("I went to X", "I went to Y") unless marked
        verdict = _compare(new, _analyse(old.content), new_content, old.content)
        if verdict is not None:
            rule, reason = verdict
            out.append(Supersession(old=old, rule=rule, reason=reason, blocked=old.is_critical))
    return out


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
