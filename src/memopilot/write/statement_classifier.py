"""A small learned judgement for the rule editor: is a statement worth keeping, and as what type?

Trigger words alone store noise ("Meal times are always fun." is not a constraint) and miss plain
facts ("my son Kyle turned one"). So each statement the rule editor reads is also scored by a
multinomial logistic regression over

- the bundled static embedder's vector of the statement (what it is about),
- its words and word pairs, hashed into 2,048 slots (the words a type is said with),
- the type the rules give it, one-hot (their cues, dates and flags), and
- a few shape flags (question, small talk, code, first person, length, a name, a digit, a date).

The weights are data (``models/statement-classifier/weights.npz``), trained by
``scripts/train_statement_classifier.py`` with a fixed seed on the labelled *tune* halves under
``eval/extraction`` plus ``eval/extraction/train_sentences.json``; the check halves are never
seen. The classifier always uses the bundled static embedder (whatever embedder retrieval is
configured with), so retrain it when that model changes: the file records the model id and the
script's test compares it.

Inference is one matrix product: microseconds per statement after the embedding.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..domain import MemoryType

__all__ = [
    "LABELS",
    "NONE",
    "Judged",
    "ShapeFlags",
    "StatementClassifier",
    "default_classifier",
    "feature_matrix",
    "rule_labels",
]

NONE = "none"
# Every label the classifier can give: "none" (keep nothing) and each typed memory type.
LABELS: tuple[str, ...] = (NONE, *(t.value for t in MemoryType if t is not MemoryType.EPISODE))
RULE_SLOTS: tuple[str, ...] = LABELS  # the rules' type, one-hot ("none": the rules gave nothing)
WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "models" / "statement-classifier" / "weights.npz"

WORD_BUCKETS = 2048
_WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?|\d+")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|us)\b", re.IGNORECASE)
_NAME_INSIDE = re.compile(r"(?<=\w)[\s,]+[A-Z][a-z]{2,}")


@dataclass(frozen=True, slots=True)
class ShapeFlags:
    """What the rule editor already knows about a statement's shape."""

    question: bool
    small_talk: bool
    code: bool
    has_date: bool
    command: bool  # an imperative for this reply ("write a query"), not meant to last

    @property
    def never_kept(self) -> bool:
        """Questions, small talk and code store nothing typed, whatever they mention."""
        return self.question or self.small_talk or self.code

    def vector(self, text: str) -> list[float]:
        words = len(text.split())
        return [
            float(self.question),
            float(self.small_talk),
            float(self.code),
            float(self.has_date),
            float(self.command),
            float(_FIRST_PERSON.search(text) is not None),
            float(words <= 3),
            float(3 < words <= 8),
            float(words > 25),
            float(_NAME_INSIDE.search(text) is not None),
            float(any(ch.isdigit() for ch in text)),
        ]


def rule_labels(rule_types: Sequence[str | None]) -> np.ndarray:
    out = np.zeros((len(rule_types), len(RULE_SLOTS)), dtype=np.float32)
    for row, label in enumerate(rule_types):
        out[row, RULE_SLOTS.index(label or NONE)] = 1.0
    return out


def hashed_words(texts: Sequence[str]) -> np.ndarray:
    """Each text's words and word pairs, hashed into :data:`WORD_BUCKETS` slots (CRC-32, stable
    across runs and platforms), as a unit vector: the words a type is said with ("prefer",
    "allergic", "due", "my sister") that a mean of token embeddings blurs."""
    out = np.zeros((len(texts), WORD_BUCKETS), dtype=np.float32)
    for row, text in enumerate(texts):
        words = _WORD.findall(text.lower())
        for gram in [*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))]:
            out[row, zlib.crc32(gram.encode("utf-8")) % WORD_BUCKETS] = 1.0
        norm = float(np.linalg.norm(out[row]))
        if norm:
            out[row] /= norm
    return out


def feature_matrix(
    vectors: np.ndarray, texts: Sequence[str], rule_types: Sequence[str | None], flags: Sequence[ShapeFlags]
) -> np.ndarray:
    """Rows of [unit embedding | hashed words | rules' type one-hot | shape flags] (the training
    script's too)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.where(norms == 0, 1.0, norms)
    shapes = np.asarray([f.vector(t) for f, t in zip(flags, texts, strict=True)], dtype=np.float32)
    parts = [unit.astype(np.float32), hashed_words(texts), rule_labels(rule_types)]
    return np.hstack([*parts, shapes.reshape(len(texts), -1)])


@dataclass(frozen=True, slots=True)
class Judged:
    keep: float  # the probability that the statement is worth keeping at all
    types: np.ndarray  # if kept, the probability of each label (aligned with LABELS; "none" is 0)


class StatementClassifier:
    """Two linear models over the same features: worth keeping? and, if so, which type?"""

    def __init__(self, path: Path = WEIGHTS_PATH) -> None:
        with np.load(path, allow_pickle=False) as data:
            self._keep_coef = np.asarray(data["keep_coef"], dtype=np.float32)
            self._keep_intercept = float(data["keep_intercept"])
            self._coef = np.asarray(data["coef"], dtype=np.float32)
            self._intercept = np.asarray(data["intercept"], dtype=np.float32)
            meta = json.loads(str(data["meta"]))
        if tuple(meta["labels"]) != LABELS:
            raise ValueError(
                f"{path} was trained for other labels; run scripts/train_statement_classifier.py"
            )
        self.embedder_model = str(meta["embedder_model"])
        self.keep_threshold = float(meta["keep_threshold"])
        self._embedder = _static_embedder()

    def judge(
        self, texts: Sequence[str], rule_types: Sequence[str | None], flags: Sequence[ShapeFlags]
    ) -> list[Judged]:
        if not texts:
            return []
        x = feature_matrix(self._embedder.embed(list(texts)), texts, rule_types, flags)
        keep = 1.0 / (1.0 + np.exp(-(x @ self._keep_coef + self._keep_intercept)))
        logits = x @ self._coef.T + self._intercept
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        types = odds / odds.sum(axis=1, keepdims=True)
        return [Judged(float(k), row) for k, row in zip(keep, types, strict=True)]


def _static_embedder():  # type: ignore[no-untyped-def]
    from ..embedding import StaticEmbedder  # the bundled model, whatever retrieval is set to use

    return StaticEmbedder()


@functools.cache
def default_classifier() -> StatementClassifier | None:
    """The shipped classifier, loaded once; None when its weights are missing (rules alone)."""
    if not WEIGHTS_PATH.exists():
        return None
    return StatementClassifier(WEIGHTS_PATH)
