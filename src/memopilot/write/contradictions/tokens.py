"""Tokens: a sentence split into words with contractions expanded and "'s" told apart."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...text import STOPWORDS, stem
from .words import (
    _CURRENCY,
    _DETS,
    _IRREGULAR,
    _MONTHS,
    _POSS,
    _S_IS_AFTER,
    _S_IS_BEFORE,
    _TOKEN,
    _TRAILING_FILLERS,
    _USER,
    _WEEKDAYS,
)


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
