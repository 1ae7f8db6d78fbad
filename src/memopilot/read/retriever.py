"""SPEC section 3: hybrid retrieval of candidate memories for one question.

    similarity = max(dense, (1 - b) * dense + b * keyword_overlap)      b = 0.5 by default

Candidates are the user's active and pinned memories in scope (the asking project's
and user-wide ones), gathered by the in-memory :class:`~memopilot.read.index.MemoryIndex`
from three sources, so the cost does not grow with a Python loop over every row:
- the top ``candidate_limit`` by cosine;
- the top ``candidate_limit`` by Okapi BM25 over stemmed topic words;
- every critical and pinned memory in scope (they are always considered).
Keyword overlap is the larger of
- the share of the question's topic terms (stemmed) that appear in the memory's content or tags, and
- the memory's BM25 score relative to the best keyword match for this question (1.0 for the best),
  which weighs rare words above common ones and does not reward long memories for their length.

Episodes (verbatim conversation turns) also get a *conversational relevance* for the context
builder, :func:`episode_relevance`: their own similarity, plus a share of the similarity of the
turn just before or after them in the same session (an answer's words are often in the question
it answers), plus a bonus when the question names the turn's speaker (a ``speaker:<name>`` tag).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..domain import SPEAKER_TAG, Memory, MemoryType, speaker_of
from ..settings import Settings
from ..text import content_terms
from .index import MemoryIndex
from .scorer import ScoreInputs

__all__ = [
    "SPEAKER_TAG",
    "Candidate",
    "EpisodeRelevance",
    "Retrieved",
    "Retriever",
    "episode_relevance",
    "hybrid_similarity",
    "keyword_overlap",
]


@dataclass(slots=True)
class Candidate:
    memory: Memory
    dense: float
    keyword: float
    similarity: float
    sources: tuple[str, ...]  # which generators proposed it: dense, keyword, priority


def keyword_overlap(query_terms: frozenset[str], memory: Memory) -> float:
    """Share of the question's topic terms found in the memory's content or tags, in [0,1]."""
    if not query_terms:
        return 0.0
    memory_terms = content_terms(memory.content) | content_terms(" ".join(memory.tags))
    return len(query_terms & memory_terms) / len(query_terms)


def hybrid_similarity(dense: float, keyword: float, blend: float) -> float:
    dense = min(1.0, max(0.0, dense))
    return max(dense, (1.0 - blend) * dense + blend * keyword)


class Retriever:
    def __init__(
        self, index: MemoryIndex, settings: Settings, cosine_scale: tuple[float, float] = (1.0, 0.0)
    ) -> None:
        self._index = index
        self._settings = settings
        # (a, b): the embedder's cosine c is read as a*c + b (Embedder.cosine_scale)
        self._cosine_scale = cosine_scale

    def candidates(
        self,
        query: str,
        query_vector: np.ndarray,
        *,
        user_id: str,
        project_id: str | None,
        limit: int | None = None,
    ) -> list[Candidate]:
        """Every candidate with its similarity parts, most similar first (``limit``: candidates
        per kind and per ranking, ``candidate_limit`` unless given).

        The memories are the index's own objects: read them, copy them to change them.
        """
        found = self.retrieve(query, query_vector, user_id=user_id, project_id=project_id, limit=limit)
        return found.candidates

    def retrieve(
        self,
        query: str,
        query_vector: np.ndarray,
        *,
        user_id: str,
        project_id: str | None,
        token: Any = None,
        limit: int | None = None,
    ) -> Retrieved:
        """The candidates (most similar first) and, row for row, what scoring needs of them
        (``token``: the user's change token as this read found it; None: the index reads it)."""
        terms = content_terms(query)
        limit = limit or self._settings.candidate_limit
        found = self._index.search(user_id, project_id, query_vector, terms, limit, token)
        if not found.memories:
            return Retrieved([], found.inputs)
        best = float(found.bm25.max())
        lexical = found.bm25 / best if best > 0 else np.zeros_like(found.bm25)
        overlap = found.matched / len(terms) if terms else np.zeros_like(found.matched)
        keyword = np.clip(np.maximum(overlap, lexical), 0.0, 1.0)
        scale, shift = self._cosine_scale
        raw = found.dense if (scale, shift) == (1.0, 0.0) else found.dense * scale + shift
        dense = np.clip(raw, 0.0, 1.0)
        blend = self._settings.keyword_blend
        similarity = np.maximum(dense, (1.0 - blend) * dense + blend * keyword)
        ids = [m.id for m in found.memories]
        sims = similarity.tolist()
        order = sorted(range(len(ids)), key=lambda i: (-sims[i], ids[i]))
        dense_of, keyword_of = dense.tolist(), keyword.tolist()
        candidates = [
            Candidate(found.memories[i], dense_of[i], keyword_of[i], sims[i], found.sources[i]) for i in order
        ]
        return Retrieved(candidates, found.inputs.take(np.asarray(order, dtype=np.int64)))


@dataclass(slots=True)
class Retrieved:
    candidates: list[Candidate]
    inputs: ScoreInputs  # row i describes candidates[i]


@dataclass(frozen=True, slots=True)
class EpisodeRelevance:
    value: float  # what the context builder ranks episodes by
    neighbor: float  # the part that came from an adjacent turn
    speaker: float  # the part that came from the question naming the speaker


def _names(query: str, name: str) -> bool:
    """Whether the question names ``name`` (whole words, any case)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", query, re.IGNORECASE) is not None


def episode_relevance(
    candidates: Sequence[Candidate], query: str, *, neighbor_share: float, speaker_bonus: float
) -> dict[str, EpisodeRelevance]:
    """Conversational relevance of each episode candidate (see the module docstring).

    Turns are adjacent when they are consecutive among the candidate episodes of one session, in
    the order they happened (``occurred_at``, then ``created_at``).
    """
    episodes = [c for c in candidates if c.memory.type is MemoryType.EPISODE]
    by_session: dict[str, list[Candidate]] = {}
    for c in episodes:
        if c.memory.session_id:
            by_session.setdefault(c.memory.session_id, []).append(c)
    neighbor: dict[str, float] = {}
    for turns in by_session.values():
        turns.sort(key=lambda c: (c.memory.reference_time, c.memory.created_at, c.memory.message_id or ""))
        for i, c in enumerate(turns):
            around = [turns[j].similarity for j in (i - 1, i + 1) if 0 <= j < len(turns)]
            neighbor[c.memory.id] = max(around, default=0.0)
    out: dict[str, EpisodeRelevance] = {}
    named: dict[str, bool] = {}
    for c in episodes:
        near = neighbor_share * neighbor.get(c.memory.id, 0.0)
        speaker = speaker_of(c.memory)
        if speaker is not None and speaker not in named:
            named[speaker] = _names(query, speaker)
        bonus = speaker_bonus if speaker is not None and named[speaker] else 0.0
        out[c.memory.id] = EpisodeRelevance(c.similarity + near + bonus, near, bonus)
    return out
