"""SPEC section 3: hybrid retrieval of candidate memories for one question.

    similarity = max(dense, (1 - b) * dense + b * keyword_overlap)      b = 0.5 by default

Candidates are the user's active and pinned memories in scope (the asking project's
and user-wide ones), gathered from three sources so the cost does not grow with a
Python loop over every row:
- the top ``candidate_limit`` by cosine from the in-memory :class:`VectorIndex`;
- the top ``candidate_limit`` by BM25 from the store's keyword index (FTS5);
- every critical and pinned memory in scope (they are always considered).
Keyword overlap is then measured on those candidates only: the larger of
- the share of the question's topic words (stemmed) that appear in the memory's content or tags, and
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

import numpy as np

from .domain import Memory, MemoryType
from .settings import Settings
from .store import Store
from .text import content_terms, query_words
from .vector_index import VectorIndex

__all__ = [
    "SPEAKER_TAG",
    "Candidate",
    "EpisodeRelevance",
    "Retriever",
    "episode_relevance",
    "hybrid_similarity",
    "keyword_overlap",
]

SPEAKER_TAG = "speaker:"  # an episode tagged "speaker:Caroline" was said by Caroline


@dataclass(frozen=True, slots=True)
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
    def __init__(self, store: Store, index: VectorIndex, settings: Settings) -> None:
        self._store = store
        self._index = index
        self._settings = settings

    def candidates(
        self, query: str, query_vector: np.ndarray, *, user_id: str, project_id: str | None
    ) -> list[Candidate]:
        """Every candidate with its similarity parts, most similar first."""
        limit = self._settings.candidate_limit
        dense_hits, priority_ids, priority_dense = self._index.search(
            user_id, project_id, query_vector, limit
        )
        dense = dict(dense_hits)
        keyword_hits = self._store.keyword_search(user_id, project_id, query_words(query), limit)
        keyword_ids = [m for m, _ in keyword_hits]
        best = max((score for _, score in keyword_hits), default=0.0)
        lexical = {m: score / best for m, score in keyword_hits} if best > 0 else {}

        sources: dict[str, list[str]] = {}
        for name, ids in (("dense", dense), ("keyword", keyword_ids), ("priority", priority_ids)):
            for memory_id in ids:
                sources.setdefault(memory_id, []).append(name)
        unknown = [m for m in sources if m not in dense and m not in priority_dense]
        dense.update(priority_dense)
        dense.update(self._index.similarity(user_id, unknown, query_vector))

        memories = self._store.get_many(sources)
        terms = content_terms(query)
        found: list[Candidate] = []
        for memory_id, memory in memories.items():
            if not _visible(memory, user_id, project_id):
                continue  # changed since the index saw it
            d = dense.get(memory_id, 0.0)
            k = max(keyword_overlap(terms, memory), min(1.0, max(0.0, lexical.get(memory_id, 0.0))))
            found.append(
                Candidate(
                    memory,
                    d,
                    k,
                    hybrid_similarity(d, k, self._settings.keyword_blend),
                    tuple(sources[memory_id]),
                )
            )
        found.sort(key=lambda c: (-c.similarity, c.memory.id))
        return found


def _visible(memory: Memory, user_id: str, project_id: str | None) -> bool:
    return (
        memory.user_id == user_id
        and memory.in_context_state
        and (memory.project_id is None or memory.project_id == project_id)
    )


@dataclass(frozen=True, slots=True)
class EpisodeRelevance:
    value: float  # what the context builder ranks episodes by
    neighbor: float  # the part that came from an adjacent turn
    speaker: float  # the part that came from the question naming the speaker


def speaker_of(memory: Memory) -> str | None:
    for tag in memory.tags:
        if tag.lower().startswith(SPEAKER_TAG) and tag[len(SPEAKER_TAG) :].strip():
            return tag[len(SPEAKER_TAG) :].strip()
    return None


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
