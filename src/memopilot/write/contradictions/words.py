"""Closed word classes the contradiction rules read sentences with (grammar, never topics)."""

from __future__ import annotations

import re

from ...text import stem


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
# (with the interjections a correction opens with: "Ugh, sorry, I misread her email")
_LEADING_FILLERS = _words(
    "so ok okay well also and but now currently honestly basically btw fyi note update please "
    "just oh hey hi yes yeah alright anyway anyways then ugh argh hmm hm um umm uh ah ahh eh"
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
# Signal words that may only describe a thing ("some new dance routines"), not change a statement.
_DESCRIPTIVE_SIGNALS = _words("new updated revised latest")
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
_S_IS_AFTER = _words(
    "been now not no going gone still also a an the at in on with over out back actually definitely "
    "moved changed set due being really always never just"
)
_S_IS_BEFORE = _words("it that what there here he she who where how this")

# Words that say "this changed" in the other languages users write in, read where a statement is
# not in English (the token rules above read English only): "ya no va a la danza; ahora juega al
# waterpolo", "wir wohnen jetzt in Graz", "je ne bois plus de café".
_CHANGE_ELSEWHERE = re.compile(
    r"\b(?:"
    r"ya\s+no|ahora|en\s+(?:vez|lugar)\s+de|me\s+mud[ée]|nos\s+mudamos|cambi[ée]|cambiamos"  # es
    r"|nicht\s+mehr|keine?n?\s+\w+\s+mehr|jetzt|inzwischen|mittlerweile|stattdessen"  # de
    r"|umgezogen|gewechselt"
    r"|n(?:e\s+|')\w+\s+plus|maintenant|désormais|dorénavant|au\s+lieu\s+de|déménag\w+"  # fr
    r"|non\s+\w+\s+più|adesso|invece|trasferit[oaie]"  # it
    r"|já\s+não|não\s+\w+\s+mais|agora|em\s+vez\s+de|mudei|mudamos"  # pt
    r"|niet\s+meer|inmiddels|tegenwoordig|in\s+plaats\s+van|verhuisd|overgestapt"  # nl
    r")\b"
    r"|不再|已经不|現在|现在|改成|换成|換成|搬到|もう\S{0,8}ない|今は|に変え|引っ越",  # zh, ja
    re.IGNORECASE,
)


# "these days" anywhere in a statement, as "nowadays" ("I'm at Saltreach Climbing these days",
# "Work update: these days I teach pottery"): the token rules read it only at a sentence's ends.
_THESE_DAYS = re.compile(r"\bthese\s+days\b", re.IGNORECASE)
# An amount said to go up or down: "the rent goes up to 1,620", "Landlord's put the rent up",
# "they cut my hours to 20 a week". It says the earlier amount no longer holds, as "now" does; a
# rise or fall without a new figure or a thing put up ("going up to Scotland", "put the baby down
# for a nap") says nothing of the kind.
_AMOUNT_CHANGED = re.compile(
    r"\b(?:go(?:es)?|going|gone|went)\s+(?:up|down)\s+(?:to|by)\s+[£$€¥]?\d"
    r"|\b(?:put|puts|putting)\s+(?:the|my|our|their|his|her)\s+[^\W\d_]+\s+(?:up|down)\b"
    r"(?!\s+(?:for|with|on|in|at|as)\b)"
    r"|\b(?:rais(?:ed|ing)|increas(?:ed|ing)|reduc(?:ed|ing)|lower(?:ed|ing)|dropp(?:ed|ing)|cut(?:ting)?"
    r"|hik(?:ed|ing)|bump(?:ed|ing)|upp(?:ed|ing))\s+(?:[^\W\d_]+\s+){0,4}?(?:(?:up|down)\s+)?(?:to|by)\s+[£$€¥]?\d"
    # "the landlord raised the rent. It's 1,620 a month": the thing raised, then its new figure
    r"|\b(?:raised|increased|hiked|upped|reduced|lowered)\s+(?:the|my|our|their|his|her)\s+[^\W\d_]+"
    r"\b(?=[^?]{0,60}?\d[\d,.]*(?![\d:]|\s*(?:am|pm|a\.m|p\.m|h\b|o'clock)))",
    re.IGNORECASE,
)
# An amount's period: "250 a month", "per week", "monthly"
_PER_PERIOD = re.compile(
    r"\b(?:a|an|per|each|every)\s+(?P<unit>day|week|fortnight|month|year)\b"
    r"|\b(?P<adverb>daily|weekly|fortnightly|monthly|yearly|annual|annually)\b",
    re.IGNORECASE,
)
_PERIOD_OF = {
    "daily": "day",
    "weekly": "week",
    "fortnightly": "fortnight",
    "monthly": "month",
    "yearly": "year",
    "annual": "year",
    "annually": "year",
}
