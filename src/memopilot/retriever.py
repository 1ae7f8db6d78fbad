"""SPEC section 3: hybrid retrieval of candidate memories for one question.

    similarity = max(dense, (1 - b) * dense + b * keyword_overlap)      b = 0.5 by default

Candidates are the user's active and pinned memories in scope (the asking project's
and user-wide ones), gathered from three sources so the cost does not grow with a
Python loop over every row:
- the top ``candidate_limit`` by cosine from the in-memory :class:`VectorIndex`;
- the top ``candidate_limit`` by BM25 from the store's keyword index (FTS5);
- every critical and pinned memory in scope (they are always considered).
Keyword overlap is then measured on those candidates only: the share of the
question's topic words (stemmed) that appear in the memory's content or tags.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .domain import Memory
from .settings import Settings
from .store import Store
from .text import content_terms, query_words
from .vector_index import VectorIndex

__all__ = ["Candidate", "Retriever", "hybrid_similarity", "keyword_overlap"]


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
        keyword_ids = [
            m for m, _ in self._store.keyword_search(user_id, project_id, query_words(query), limit)
        ]

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
            k = keyword_overlap(terms, memory)
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
