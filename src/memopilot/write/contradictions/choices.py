"""A choice weighed, then made, or undone.

A choice weighed, then made: "We're leaning toward Tamsinvale Montessori for Lev" is not a value
the user holds but an open question, and "Decision made: Lev starts at Pellworth Children's House"
closes it. The learned judgement reads such pairs as news on the same subject (0.66 where it needs
0.90: neither says "now" or "instead"), so the write path asks these two questions of a pair whose
subject the judgement finds the same (:data:`memopilot.write.update_judge.SAME_SUBJECT_CLOSENESS`).

A choice undone: "Back to Sasha please, for good" after "I'm going by Alexandra from now on" is a
change that names no new thing; the value it returns to (:func:`returned_to`) is the one that
holds again, so what the change replaces is another memory than the one that says it.

All are closed classes of English phrasing (weighing, deciding and returning verbs), never topics.
"""

from __future__ import annotations

import re

__all__ = ["pointed_back_at", "returned_to", "settles_a_choice", "weighs_a_choice"]

# Options still open: leaning, torn, on the fence, weighing, thinking about, not sure whether ...
_WEIGHING = re.compile(
    r"\b(?:leaning (?:towards?|to)|torn between|on the fence|weighing(?: up)?|deciding between|"
    r"choosing between|(?:can't|cannot|can not) decide|undecided|(?:haven't|have not|not) (?:yet )?decided|"
    r"not sure (?:yet )?(?:whether|if|which)|thinking (?:about|of)|considering|shortlisted|"
    r"(?:might|may|could) (?:go (?:with|for)|pick|choose|book|get)|maybe)\b",
    re.IGNORECASE,
)
# A choice made: decided, the decision made, booked, went with, settled on, ended up, signed ...
_SETTLED = re.compile(
    r"\b(?:decided|decision (?:made|is|was)|final decision|decision(?=\s*:)|"
    r"(?:made|make) (?:the|a|our|my) (?:decision|call)|final answer|"
    r"booked|went with|(?:are|'re|am|'m) going with|settled on|chose|picked|ended up|signed (?:up|the)|"
    r"enrolled|registered|it's official|committed to|locked in|put down a deposit|paid the deposit)\b",
    re.IGNORECASE,
)


def weighs_a_choice(text: str) -> bool:
    """Whether ``text`` weighs options it has not yet chosen between."""
    return _WEIGHING.search(text) is not None


def settles_a_choice(text: str) -> bool:
    """Whether ``text`` says a choice was made (and weighs nothing itself: "we decided to think
    about it" settles nothing)."""
    return _SETTLED.search(text) is not None and not weighs_a_choice(text)


# "Back to X" opening a sentence, or after a verb of going or being ("I'm back on oat milk", "went
# back to my old barber"); not "get back to you", "drove back to the hotel"
_BACK_TO = re.compile(
    r"(?:^|\b(?:am|'m|are|'re|is|'s|go|goes|going|went|gone|switch(?:ed|ing)?|now|firmly|officially|right)\s+)"
    r"back\s+(?:to|on)\s+(?P<value>[^.,;:!?\n]+)",
    re.IGNORECASE,
)


# "Back at X", "back in X" or "back with X" after a verb of being, X named: a place or a provider
# returned to ("the club is back at Sorrel Park for the Sunday runs again", "we're back at Thornbury
# Hall after all"). At a sentence's start only with "again" ("Back at Quillon Baths again"): "Back in
# 2019, I lived in Leeds" tells of then. Not a return from elsewhere ("Priya's back in town next
# week", "back at work"), which names no value.
_BACK_AT = re.compile(
    r"\b(?:am|'m|are|'re|is|'s)\s+back\s+(?:at|in|with)\s+(?P<value>(?:the\s+)?(?-i:[A-Z])[^.,;:!?\n]*)"
    r"|^back\s+(?:at|in|with)\s+(?P<again>(?:the\s+)?(?-i:[A-Z])[^.,;:!?\n]*?)\s+again\b",
    re.IGNORECASE,
)


def returned_to(sentence: str) -> str | None:
    """The value a sentence goes back to ("plain black coffee" in "Back to plain black coffee,
    like the old days"); None when it goes back to nothing."""
    found = _BACK_TO.search(sentence.strip()) or _BACK_AT.search(sentence.strip())
    return next(value.strip() for value in found.groups() if value) if found else None


# A value returned to by pointing back at it ("back to the original Christmas plan", "back to my
# old barber"): its other words name what changed, not the value, which is the one before the change
_POINTS_BACK = re.compile(
    r"^(?:the|my|our|his|her|their)\s+(?:original|old|previous|former|usual)\b\s*", re.I
)


def pointed_back_at(value: str) -> str | None:
    """What a value returned to (:func:`returned_to`) names when it points back at the value before
    the change ("Christmas plan" of "the original Christmas plan"); None when it names the value."""
    found = _POINTS_BACK.match(value)
    return value[found.end() :] if found else None
