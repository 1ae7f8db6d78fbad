"""Small, exact metric helpers shared by the scenario suite and the LoCoMo benchmark.

Matching is case-insensitive and starts at a word's start: ``"tabs"`` is found in ``"Use tabs."``
but ``"tab"`` is not in ``"establishment"``. The phrase may end inside a word, so a stem finds its
inflections (``"horse"`` in ``"horses"``, ``"laktose"`` in ``"laktoseintolerant"``): suites written
outside the team give short stems and call their rule a substring match. The start boundary is only
required when the phrase starts with a word character, so ``"$50"`` still matches; and never beside
a Chinese, Japanese or Korean character, since those scripts run words together (``"杭州"`` is found
in ``"搬到杭州了"``).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence

from ..read.tokens import has_cjk

__all__ = [
    "contains_phrase",
    "groups_present",
    "mean",
    "percentile",
    "token_f1",
]


@functools.lru_cache(maxsize=4096)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    words = phrase.strip().split()
    body = r"\s+".join(re.escape(w) for w in words)
    start = r"(?<!\w)" if words and _bounded(words[0][0]) else ""
    return re.compile(start + body, re.IGNORECASE)


def contains_phrase(text: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``text`` from a word's start, ignoring case and spacing."""
    if not phrase or not phrase.strip() or not text:
        return False
    return _phrase_pattern(phrase).search(text) is not None


def groups_present(text: str, groups: Sequence[Sequence[str]]) -> list[bool]:
    """For each group of alternatives, whether any alternative occurs in ``text``."""
    return [any(contains_phrase(text, alt) for alt in group) for group in groups]


def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def percentile(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation between closest ranks."""
    items = sorted(values)
    if not items:
        return 0.0
    if len(items) == 1:
        return float(items[0])
    rank = (len(items) - 1) * q / 100.0
    low, high = math.floor(rank), math.ceil(rank)
    return float(items[low] + (items[high] - items[low]) * (rank - low))


def _bounded(char: str) -> bool:
    """Whether a phrase starting with ``char`` needs a word boundary before it."""
    return re.match(r"\w", char) is not None and not has_cjk(char)


_TOKEN = re.compile(r"\w+", re.UNICODE)
_ARTICLES = frozenset({"a", "an", "the", "and"})


def _answer_tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(str(text).lower()) if t not in _ARTICLES]


def answer_words_present(context: str, answer: str) -> bool | None:
    """Whether every word of ``answer`` (articles aside) occurs in ``context``: a check that a
    context which covers a question's evidence turns still shows the words of its answer (None
    for an empty answer). Evidence recall counts a turn as covered however it is rendered, so a
    rendering that drops the sentence holding the answer would look as good by recall alone."""
    words = set(_answer_tokens(answer))
    if not words:
        return None
    return words <= set(_answer_tokens(context))


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style token F1 between an answer and the reference (LoCoMo's F1 measure)."""
    pred, ref = _answer_tokens(prediction), _answer_tokens(reference)
    if not pred or not ref:
        return float(pred == ref)
    common: dict[str, int] = {}
    ref_counts: dict[str, int] = {}
    for t in ref:
        ref_counts[t] = ref_counts.get(t, 0) + 1
    for t in pred:
        if ref_counts.get(t, 0) > 0:
            ref_counts[t] -= 1
            common[t] = common.get(t, 0) + 1
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)
