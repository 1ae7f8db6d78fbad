"""Retrieval baselines over raw conversation turns, packed into the same token budget.

- ``bm25``: BM25 (the ``bm25s`` library; Snowball stems, English stopwords) over turn texts;
- ``dense``: cosine between the question and each turn, with the engine's own embedder;
- ``hybrid_rrf``: bm25 and dense fused by reciprocal rank, ``1/(k + rank)`` with k = 60;
- ``recent``: the latest turns that fit;
- ``full_history``: every turn, no budget (its token count is the reduction figure's reference).

Packing is the memory layer's own rule: best first, each line taken while it fits (its tokens
counted with its line break), the lines then shown in conversation order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import snowballstemmer

from ..errors import InvalidInputError
from ..read.tokens import count_tokens

__all__ = ["RRF_K", "BM25Ranker", "DenseRanker", "Packed", "pack_lines", "rrf_fuse"]

RRF_K = 60
_STEMMER = snowballstemmer.stemmer("english")


@dataclass(frozen=True, slots=True)
class Packed:
    text: str
    indices: list[int]  # included items, in the order shown
    tokens: int


def pack_lines(
    ranked: Sequence[int], lines: Sequence[str], budget: int | None, *, stop_at_first_miss: bool = False
) -> Packed:
    """Take ``lines[i]`` for ``i`` in ``ranked`` while they fit ``budget``; show them in index order."""
    remaining = budget if budget is not None else None
    taken: list[int] = []
    for i in ranked:
        cost = count_tokens(("\n" if taken else "") + lines[i])
        if remaining is not None and cost > remaining:
            if stop_at_first_miss:
                break
            continue
        taken.append(i)
        if remaining is not None:
            remaining -= cost
    taken.sort()
    text = "\n".join(lines[i] for i in taken)
    return Packed(text, taken, count_tokens(text))


def _bm25s() -> Any:
    try:
        import bm25s
    except ImportError:  # pragma: no cover - depends on the install
        raise InvalidInputError("the BM25 baselines need bm25s: pip install 'memopilot[eval]'") from None
    return bm25s


def _tokenize(texts: Sequence[str]) -> list[list[str]]:
    return _bm25s().tokenize(
        list(texts), stopwords="en", stemmer=_STEMMER, return_ids=False, show_progress=False
    )


class BM25Ranker:
    """All documents ranked by BM25 for a query (ties keep document order)."""

    def __init__(self, documents: Sequence[str]) -> None:
        self._n = len(documents)
        self._bm25 = _bm25s().BM25()
        self._bm25.index(_tokenize(documents), show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        tokens = [t for t in _tokenize([query])[0] if t in self._bm25.vocab_dict]
        if not tokens:
            return np.zeros(self._n, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(tokens), dtype=np.float32)

    def rank(self, query: str) -> list[int]:
        return _order(self.scores(query))


class DenseRanker:
    """All documents ranked by cosine to the query, with a given embedding function."""

    def __init__(self, documents: Sequence[str], embed: Callable[[Sequence[str]], np.ndarray]) -> None:
        self._embed = embed
        self._matrix = embed(list(documents)) if documents else np.zeros((0, 1), dtype=np.float32)

    def scores(self, query: str) -> np.ndarray:
        return self._matrix @ self._embed([query])[0]

    def rank(self, query: str) -> list[int]:
        return _order(self.scores(query))


def rrf_fuse(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Reciprocal rank fusion: each item scores sum(1 / (k + rank)), ranks counted from 1."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(fused, key=lambda i: (-fused[i], i))


def _order(scores: np.ndarray) -> list[int]:
    return [int(i) for i in np.lexsort((np.arange(len(scores)), -scores))]
