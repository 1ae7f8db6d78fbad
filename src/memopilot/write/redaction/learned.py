"""A learned last net: a logistic model that reads each token and the words around it.

The hand-written detectors know formats and the phrasings they were tuned on; measured on corpora
written by people who had not seen them, they miss secrets stated in new ways. This model is
trained (``scripts/train_redaction_model.py``) on the tune corpora's messages, every token
labelled secret or not, against benign messages and real conversation. It learns which words
announce a secret in any language ("contraseña", "mot de passe", "PIN", "密码") and which token
shapes are secrets (a mixed-class run after a colon) or not (an order number after "order").

Features are plain strings (no hashing, so they are stable across processes); the model is the
weight of each feature that training kept, a bias and a threshold chosen on held-out corpora.
A token is scored only when it could be a secret: it is not a plain word, or a word the model
counts as a cue stands just before it. That keeps the scan to a few tokens per message.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import math
import operator
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from stdnum import luhn

from . import prefilter
from .identifiers import opens_iban_shape
from .keywords import KeywordIndex
from .rules import P_PROSE, Span
from .statements import public_field_before, public_key_named_before, public_shape

__all__ = [
    "KIND",
    "PRIORITY",
    "TokenModel",
    "candidate_tokens",
    "context_features",
    "detect",
    "own_features",
    "token_features",
]

KIND = "likely_secret"  # named apart from the detectors' kinds, so a trace shows which net caught it
PRIORITY = P_PROSE + 5  # the least specific finding: any detector that names the secret wins
MODEL_PATH = Path(__file__).parent / "data" / "token_model.json"

# A token: a run without spaces, quotes, brackets, separators such as "=" and ":", or characters
# of scripts written without spaces (those are read as context, two characters at a time).
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef\u3000-\u303f"
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_TOKEN_CHARS = rf"[^\s\"'`“”‘’«»„()\[\]{{}}<>,;|=:{_CJK}]"
_CONTEXT_WORDS = 3
_WORD_CACHE = 50_000  # words whose context weight is kept (a few MB at most)
_TOKEN_CACHE = 20_000  # tokens whose own score is kept (a few MB at most)
# What makes a token more than a plain word, after its first character (see _shaped_starts): a
# digit or capital, or a symbol that more of the token follows. Written to start with the mark's
# class, which `re` skips to in C, and to look behind only there: a look-behind first was tried at
# every position, four times the cost on chat text.
_SHAPED_MARK = re.compile(
    rf"[0-9A-Z_\-.@!#$%&*+/~^?](?<={_TOKEN_CHARS}[\s\S])(?:(?<=[0-9A-Z])|(?={_TOKEN_CHARS}))"
)
_TOKEN_CHAR = re.compile(_TOKEN_CHARS)
# The same, and the rest of its token: the match ends where the token does.
_SHAPED_MARK_ON = re.compile(rf"{_SHAPED_MARK.pattern}{_TOKEN_CHARS}*")


def _shaped_starts(text: str) -> dict[int, int]:
    """Starts of the tokens that hold a digit or a capital after their first character, or a
    symbol that more of the token follows, each with its token's end (that of ``_TOKEN`` there:
    the run of token characters less the full stops, commas and question marks that close it;
    its start where there is no token). (Found from those characters: one regular expression
    for whole such tokens tried a look-around at every position, a third of the net's time.)"""
    starts: dict[int, int] = {}
    mark = _SHAPED_MARK_ON.search(text)
    if mark is None:
        return starts
    backwards = text[::-1]
    while mark is not None:
        at, run_end = mark.span()
        start = _run_start(backwards, at)
        starts[start] = start + len(text[start:run_end].rstrip(".,?"))
        # the token's other marks are skipped (a hash holds dozens)
        mark = _SHAPED_MARK_ON.search(text, run_end)
    return starts


_TOKEN_RUN = re.compile(rf"{_TOKEN_CHARS}+")


def _run_start(backwards: str, end: int) -> int:
    """Where the run of token characters that ends at ``end`` starts, at least one character before
    it (``backwards``: the text reversed). Found in one match on the reversed text: a match per
    character, walking back, cost a third of the net's token search."""
    size = len(backwards)
    return end - (_TOKEN_RUN.match(backwards, size - end).end() - (size - end))


# A token ends before any full stops, commas and question marks that close it.
_TOKEN = re.compile(rf"{_TOKEN_CHARS}+(?<![.,?])")


_CLASS_OF = str.maketrans(
    string.ascii_lowercase + string.ascii_uppercase + string.digits, "a" * 26 + "A" * 26 + "9" * 10
)
_KEPT_SYMBOLS = frozenset("_-.@!#$%&*+/~^?")


# Classes that ASCII letters, digits and the kept symbols map to: a token of those alone (most
# tokens) needs no character-by-character pass.
_PLAIN_CLASSES = re.compile(f"[aA9{re.escape(''.join(sorted(_KEPT_SYMBOLS)))}]*")


def _collapsed(classes: str, runs: int) -> str:
    """The first ``runs`` runs of a class string, each one character: "Aaaaa99!a" -> "Aa9!a"."""
    return "".join(map(_FIRST, itertools.islice(itertools.groupby(classes), runs)))


_FIRST = operator.itemgetter(0)
_SHAPE_RUNS = 8  # the runs of classes a token's shape feature keeps ("shape:Aa9!a")


# The same classes for ASCII, as a byte table (a token is ASCII almost always: one C call, where
# ``str.translate`` with a dict costs four times more): other ASCII characters are "?".
_ASCII_CLASSES = bytes(_CLASS_OF.get(b, b if chr(b) in _KEPT_SYMBOLS else ord("?")) for b in range(256))


def _class_string(token: str) -> str:
    """The class of each character: "Maple77!q" -> "Aaaaa99!a"."""
    if token.isascii():
        return token.encode("ascii").translate(_ASCII_CLASSES).decode("ascii")
    classes = token.translate(_CLASS_OF)
    if not _PLAIN_CLASSES.fullmatch(classes):
        classes = "".join(_class_of(c) for c in classes)
    return classes


def _class_of(ch: str) -> str:
    if ch in "aA9" or ch in _KEPT_SYMBOLS:
        return ch
    if ch.isalpha():
        return "A" if ch.isupper() else "a"  # letters without case (Arabic, Devanagari) count as small
    return "9" if ch.isdigit() else "?"


@functools.lru_cache(maxsize=4096)  # (a token's classes are a few of twenty: few sets come up)
def _named_classes(present: frozenset[str]) -> str:
    named = "".join(c for c in "aA9" if c in present)
    return named + "!" if present - {"a", "A", "9"} else named


def _bucket_of(n: int) -> str:
    for limit, name in ((4, "4"), (5, "5"), (6, "6"), (7, "7"), (8, "8"), (11, "9-11"), (15, "12-15")):
        if n <= limit:
            return name
    return "16-23" if n <= 23 else "24-39" if n <= 39 else "40+"


_LENGTH_BUCKETS = tuple(_bucket_of(n) for n in range(40))  # (looked up: every token scored asks)


def _length_bucket(n: int) -> str:
    return _LENGTH_BUCKETS[n] if n < len(_LENGTH_BUCKETS) else "40+"


def _word(token: str) -> str:
    return token.lower().strip(".,!?:;-*#>")


def candidate_tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) of every token, trailing full stops and commas left out."""
    return [m.span() for m in _TOKEN.finditer(text)]


# A few tokens scored are read among the tokens around each (see _tokens_around); more, among
# every token of the text, found once.
_LOCAL_CONTEXTS = 3
_CONTEXT_REACH = 48  # characters read before a token for its context, at first


def _tokens_around(text: str, start: int) -> tuple[list[tuple[int, int]], int] | None:
    """The tokens of ``text`` from a few before the one at ``start`` to the one after it, and that
    one's index among them; None when no token starts at ``start``. Context features read no
    further, and with three tokens before it (or every token before it) they are the same as
    among all the text's tokens: the tokens found from a position after a character that no
    token holds are the text's own (a token cannot run across that character)."""
    reach = _CONTEXT_REACH
    while True:
        begin = max(0, start - reach)
        if begin > 0 and _TOKEN_CHAR.match(text, begin - 1):  # back to the start of the token there
            begin = _run_start(text[::-1], begin)
        tokens: list[tuple[int, int]] = []
        for m in _TOKEN.finditer(text, begin):
            tokens.append(m.span())
            if m.start() > start:
                break
        index = next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i][0] <= start), -1)
        if index < 0 or tokens[index][0] != start:
            return None
        if index >= _CONTEXT_WORDS or begin == 0:
            return tokens, index
        reach *= 2


def _cjk_context(text: str, start: int) -> list[str]:
    """Pairs of characters of a script written without spaces just before ``start``."""
    window = text[max(0, start - 8) : start]
    if window.isascii():  # (a flag of the string: no scan)
        return []
    runs = _CJK_RUN.findall(window)
    return _pairs(runs[-1][-6:]) if runs else []


def _pairs(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def own_features(token: str) -> tuple[list[str], str]:
    """The features a token has whatever surrounds it (its shape, length, classes and first
    characters), and its classes ("aA9!"), which the context features pair with the word before."""
    # Only the shape's first eight runs are read, and collapsing runs keeps the classes a token
    # holds: a 64-digit hash is not grouped to its end (a sixth of the net's time went there).
    class_string = _class_string(token)
    classes = _named_classes(frozenset(class_string))
    length = _length_bucket(len(token))
    shape = _collapsed(class_string, _SHAPE_RUNS)
    features = [f"shape:{shape}", f"len:{length}", f"cls:{classes}", f"cls_len:{classes}|{length}"]
    if len(token) >= 8:
        features.append(f"pre:{token[:3]}")
        features.append(f"uniq:{classes}|{_variety(token)}")
    if token.isalpha():
        features.append(_alpha_case(token))
    return features, classes


def _variety(token: str) -> int:
    """How varied a token's characters are (0-4): a random value repeats few, a word or a number many."""
    return min(4, int(5 * len(set(token)) / len(token)))


def _alpha_case(token: str) -> str:
    return "alpha_title" if token.istitle() else "alpha_lower" if token.islower() else "alpha_mixed"


def context_features(text: str, tokens: list[tuple[int, int]], index: int, classes: str) -> list[str]:
    """The words before and after ``tokens[index]``, the separator before it, and the characters
    before it in a script written without spaces."""
    start = tokens[index][0]
    before = tokens[index - 1][1] if index else 0
    separator = text[before:start].strip()
    features = [f"sep:{separator[-2:]}" if separator else "sep:"]
    for distance in range(1, min(_CONTEXT_WORDS, index) + 1):
        word = _word(text[tokens[index - distance][0] : tokens[index - distance][1]])
        features.append(f"ctx:{word}")
        features.append(f"ctx5:{word[:5]}")
        if distance == 1:
            features.append(f"p1:{word}")
            features.append(f"p1_cls:{word}|{classes}")
            features.extend(f"p1g:{word[i : i + 3]}" for i in range(max(0, len(word) - 2)))
        elif distance == 2:
            features.append(f"p21:{word} {_word(text[tokens[index - 1][0] : tokens[index - 1][1]])}")
    if index + 1 < len(tokens):
        features.append(f"n1:{_word(text[tokens[index + 1][0] : tokens[index + 1][1]])}")
    features.extend(f"cjk:{pair}" for pair in _cjk_context(text, start))
    return features


def token_features(text: str, tokens: list[tuple[int, int]], index: int) -> list[str]:
    """Every feature of ``tokens[index]`` (what training reads)."""
    own, classes = own_features(text[tokens[index][0] : tokens[index][1]])
    return own + context_features(text, tokens, index, classes)


@dataclass(frozen=True)
class TokenModel:
    """The weights of a trained model, its bias and its keep threshold (a probability).

    ``own_floor``: in training, the whole model kept almost no token (half a percent of those it
    kept) whose own features (without context) scored below it, so such a token is not read
    further; most tokens stop there."""

    weights: dict[str, float]
    bias: float
    threshold: float
    cues: frozenset[str]  # context words that, alone, make a plain word worth scoring
    own_floor: float = -math.inf

    @classmethod
    def from_json(cls, data: dict) -> TokenModel:
        weights = {k: float(v) for k, v in data["weights"].items()}
        cue_floor = float(data.get("cue_floor", 1.0))
        cues = frozenset(
            k.split(":", 1)[1]
            for k, v in weights.items()
            if k.startswith(("ctx:", "cjk:")) and v >= cue_floor
        )
        own_floor = float(data.get("own_floor", -math.inf))
        return cls(weights, float(data["bias"]), float(data["threshold"]), cues, own_floor)

    def score(self, features: list[str]) -> float:
        """The model's log-odds that a token with these features is a secret."""
        # (map() with the default repeated: a generator's frame per feature cost a fifth more; the sum
        # adds the same weights in the same order)
        return self.bias + sum(map(self.weights.get, features, itertools.repeat(0.0)))

    def probability(self, features: list[str]) -> float:
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, self.score(features)))))

    @functools.cached_property
    def _threshold_score(self) -> float:
        return math.log(self.threshold / (1.0 - self.threshold))

    @functools.cached_property
    def _cue_index(self) -> KeywordIndex:
        """The cue words written with spaces, as whole words (the others are matched as pairs)."""
        return KeywordIndex(c for c in self.cues if not _CJK_RUN.search(c))

    def _worth_scoring(self, text: str, lower: str) -> dict[int, int]:
        """Starts of the tokens that could be secrets, each with its token's end (its start where
        none is there): a token that is not a plain word (a digit, a capital after its first
        letter, a symbol inside it), and the three tokens after a cue. Found by scans for such a
        character and for the cues, so a message of plain words costs little more than reading it."""
        starts = _shaped_starts(text)
        after = [end for _, end, _ in self._cue_index.find(lower)]
        for run in (
            () if text.isascii() or not prefilter.may(prefilter.CJK, text) else _CJK_RUN.finditer(text)
        ):
            if any(pair in self.cues for pair in _pairs(run.group())):
                after.append(run.end())
        for position in after:
            for m in itertools.islice(_TOKEN.finditer(text, position), _CONTEXT_WORDS):
                starts[m.start()] = m.end()
        return starts

    def spans(self, text: str, lower: str | None = None) -> Iterator[tuple[int, int]]:
        """(start, end) of each token the model keeps."""
        starts = self._worth_scoring(text, text.lower() if lower is None else lower)
        scored: list[tuple[int, str, float]] = []  # start, classes, own score
        for start in sorted(starts):
            end = starts[start]
            if end - start < 4 or text[start:end].isdigit():
                continue
            own = self._own_score(text[start:end])
            if own[0] >= self.own_floor:
                scored.append((start, own[1], own[0]))
        if not scored:
            return
        if len(scored) > _LOCAL_CONTEXTS or "[REDACTED:" in text:
            yield from self._kept_in_text(text, scored)
            return
        for start, classes, own_score in scored:
            around = _tokens_around(text, start)
            if around is None:
                continue  # a cue's tail inside a token ("password-reset")
            tokens, index = around
            if own_score + self._context_score(text, tokens, index, classes) >= self._threshold_score:
                yield start, tokens[index][1]

    def _kept_in_text(self, text: str, scored: list[tuple[int, str, float]]) -> Iterator[tuple[int, int]]:
        """The scored tokens the model keeps, read among every token of the text."""
        tokens = candidate_tokens(text)
        beside_placeholders = _beside_placeholders(text, tokens) if "[REDACTED:" in text else ()
        for start, classes, own_score in scored:
            # (the few tokens scored are looked up in the sorted spans: a dictionary of every
            # token's start cost more than all the lookups)
            index = bisect.bisect_left(tokens, (start,))
            if index == len(tokens) or tokens[index][0] != start:
                continue  # a cue's tail inside a token ("password-reset")
            if index in beside_placeholders:
                continue
            if own_score + self._context_score(text, tokens, index, classes) >= self._threshold_score:
                yield start, tokens[index][1]

    def _context_score(self, text: str, tokens: list[tuple[int, int]], index: int, classes: str) -> float:
        """The weights of :func:`context_features`, summed word by word: what a word adds as
        context is looked up once per word and kept, since the same words come back."""
        get = self.weights.get
        start = tokens[index][0]
        separator = text[(tokens[index - 1][1] if index else 0) : start].strip()
        total = get(f"sep:{separator[-2:]}" if separator else "sep:", 0.0)
        for distance in range(1, min(_CONTEXT_WORDS, index) + 1):
            word = _word(text[tokens[index - distance][0] : tokens[index - distance][1]])
            total += self._word_weight(word)
            if distance == 1:
                total += self._next_word_weight(word) + get(f"p1_cls:{word}|{classes}", 0.0)
                previous = word
            elif distance == 2:
                total += get(f"p21:{word} {previous}", 0.0)
        if index + 1 < len(tokens):
            total += get(f"n1:{_word(text[tokens[index + 1][0] : tokens[index + 1][1]])}", 0.0)
        return total + sum(get(f"cjk:{pair}", 0.0) for pair in _cjk_context(text, start))

    @functools.cached_property
    def _word_weights(self) -> dict[tuple[str, str], float]:
        return {}

    @functools.cached_property
    def _own_scores(self) -> dict[str, tuple[float, str]]:
        return {}

    def _own_score(self, token: str) -> tuple[float, str]:
        """The score of a token's own features, and its classes, kept per token: the same tokens
        come back ("OAuth2", "GitHub", "v1.2"; four in ten on the first reading of the corpora), and
        each costs a few microseconds to describe."""
        cached = self._own_scores.get(token)
        if cached is None:
            if len(self._own_scores) > _TOKEN_CACHE:
                self._own_scores.clear()
            cached = self._own_scores[token] = self._own_score_of(token)
        return cached

    def _own_score_of(self, token: str) -> tuple[float, str]:
        """The score of a token's own features (``score(own_features(token))``: the same weights
        summed in the same order) and its classes, read from small tables of the weights of each
        kind of own feature, where the features' names were written out and looked up among all
        the model's (40,000): a token met for the first time (a hash, an id) costs that lookup."""
        class_string = _class_string(token)
        classes = _named_classes(frozenset(class_string))
        shapes, prefixes = self._own_tables
        length = _length_bucket(len(token))
        by_class = self._class_weights.get((classes, length))
        if by_class is None:
            get = self.weights.get
            by_class = self._class_weights[classes, length] = (
                get(f"len:{length}", 0.0),
                get(f"cls:{classes}", 0.0),
                get(f"cls_len:{classes}|{length}", 0.0),
                tuple(get(f"uniq:{classes}|{variety}", 0.0) for variety in range(5)),
            )
        weights = [
            shapes.get(_collapsed(class_string, _SHAPE_RUNS), 0.0),
            by_class[0],
            by_class[1],
            by_class[2],
        ]
        if len(token) >= 8:
            weights.append(prefixes.get(token[:3], 0.0))
            weights.append(by_class[3][_variety(token)])
        if token.isalpha():
            weights.append(self.weights.get(_alpha_case(token), 0.0))
        return self.bias + sum(weights), classes

    @functools.cached_property
    def _own_tables(self) -> tuple[dict[str, float], dict[str, float]]:
        """The weights of the shape features by shape, and of the prefix features by prefix."""
        shapes = {name[len("shape:") :]: w for name, w in self.weights.items() if name.startswith("shape:")}
        prefixes = {name[len("pre:") :]: w for name, w in self.weights.items() if name.startswith("pre:")}
        return shapes, prefixes

    @functools.cached_property
    def _class_weights(self) -> dict[tuple[str, str], tuple[float, float, float, tuple[float, ...]]]:
        """(classes, length bucket) -> the weights of its length, classes, both, and each variety."""
        return {}

    def _word_weight(self, word: str) -> float:
        """``ctx:`` and ``ctx5:`` of a word before the token (at any of the three places)."""
        return self._cached("ctx", word)

    def _next_word_weight(self, word: str) -> float:
        """``p1:`` and ``p1g:`` of the word right before the token."""
        return self._cached("p1", word)

    def _cached(self, place: str, word: str) -> float:
        cached = self._word_weights.get((place, word))
        if cached is None:
            if len(self._word_weights) > _WORD_CACHE:
                self._word_weights.clear()
            get = self.weights.get
            if place == "ctx":
                cached = get(f"ctx:{word}", 0.0) + get(f"ctx5:{word[:5]}", 0.0)
            else:
                trigrams = (f"p1g:{word[i : i + 3]}" for i in range(max(0, len(word) - 2)))
                cached = get(f"p1:{word}", 0.0) + sum(get(t, 0.0) for t in trigrams)
            self._word_weights[place, word] = cached
        return cached


_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


def _beside_placeholders(text: str, tokens: list[tuple[int, int]]) -> set[int]:
    """Indexes of the tokens whose context holds a placeholder: the model never saw one in
    training, and its kind ("password") would read as a cue, so a redacted text scanned again
    (a stored memory, an editor's output) would lose words beside it."""
    inside = {
        index
        for m in _PLACEHOLDER.finditer(text)
        for index, (start, end) in enumerate(tokens)
        if start < m.end() and m.start() < end
    }
    return {near for index in inside for near in range(index - 1, index + _CONTEXT_WORDS + 1)}


@functools.cache
def _model() -> TokenModel | None:
    if not MODEL_PATH.exists():
        return None
    return TokenModel.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))


def detect(text: str, lower: str) -> Iterator[Span]:
    """Tokens the trained model takes for secrets (none when no model ships). A token inside a
    placeholder is dropped with every other finding that touches one (see ``_scan``)."""
    model = _model()
    if model is None:
        return
    for start, end in model.spans(text, lower):
        value = text[start:end]
        if (
            not public_field_before(text, start)
            and not public_shape(value)
            and not _failed_card(value)
            and not _ZEROED.fullmatch(value)
            and not opens_iban_shape(text, start)  # (an IBAN's country and check digits: its own checks')
            and not public_key_named_before(text, start)  # "peer: ...": `wg show`'s public keys
        ):
            yield start, end, KIND, PRIORITY


# A few letters and zeros alone: a form's placeholder ("IBAN: DE00 0000 ..."), not a value.
_ZEROED = re.compile(r"[A-Za-z]{0,4}00+")


# A number in a card's four groups of four that fails the Luhn check: the card detector takes every
# card, so such a number is a reference, an order's or a case's ("dossier 5162-6478-6039-0801").
_CARD_GROUPS = re.compile(r"\d{4}([ -])\d{4}\1\d{4}\1\d{4}")


def _failed_card(value: str) -> bool:
    return _CARD_GROUPS.fullmatch(value) is not None and not luhn.is_valid(value.replace(value[4], ""))
