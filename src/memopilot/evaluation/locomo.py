"""The LoCoMo retrieval benchmark: how much of each question's evidence reaches the context.

Each conversation becomes one user. Its turns are ingested through the engine with the clock set
to the session's date (``occurred_at`` = the session date, provenance = the turn's ``dia_id``):

- ``episodes``: each turn stored verbatim as an ``episode`` memory (one batch per session);
- ``both``: each turn run through the write path, which keeps it as the same episode and adds the
  typed memories the configured Memory Editor derives from it.

For each question of categories 1-4 with evidence, every system builds a context under the same
token budget and is scored by **evidence_recall**: the share of the question's evidence turns
covered by what the context includes. A baseline covers the turns it includes. A memory covers the
turn ids in its provenance (its own message id, plus the message ids of a summary's sources) when
there are at most :data:`MAX_PROVENANCE` of them: a memory citing more covers none, so recall cannot
be bought with one memory that cites everything. **all_evidence_rate** is the share of questions
whose evidence is covered entirely.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from ..clock import FixedClock
from ..domain import Memory
from ..embedding import Embedder, make_embedder
from ..engine.facade import MemoPilot
from ..llm import ChatClient
from ..read.retriever import SPEAKER_TAG
from ..read.tokens import count_tokens
from ..settings import Settings
from .baselines import BM25Ranker, DenseRanker, pack_lines, rrf_fuse
from .locomo_data import LocomoConversation, LocomoQuestion, render_turn
from .metrics import answer_words_present, mean, percentile
from .paired import bootstrap_lead, recall_by_question

__all__ = [
    "BASELINES",
    "MAX_PROVENANCE",
    "MODES",
    "LocomoRun",
    "QuestionResult",
    "covered_turns",
    "run_locomo",
]

MAX_PROVENANCE = 3
MODES = ("episodes", "both")
BASELINES = ("bm25", "dense", "hybrid_rrf", "recent")
MEMOPILOT = "memopilot"
FULL_HISTORY = "full_history"
QUESTION_DELAY = timedelta(days=1)  # questions are asked a day after the last session


@dataclass(slots=True)
class QuestionResult:
    sample_id: str
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]
    budget: int
    system: str
    covered: list[str]
    recall: float
    tokens: int
    ms: float
    context: str = ""
    answer_shown: bool | None = None  # every word of the answer in the context (metrics.py)
    prediction: str | None = None
    f1: float | None = None
    judged: bool | None = None
    question_index: int = -1  # position in the conversation's qa list (paired.py's key)

    def as_row(self) -> dict[str, Any]:
        """The per-question row other runs compare with (paired.py)."""
        return {
            "system": self.system,
            "sample_id": self.sample_id,
            "question_index": self.question_index,
            "budget": self.budget,
            "evidence_recall": self.recall,
            "category": self.category,
            "context_tokens": self.tokens,
        }


@dataclass(slots=True)
class LocomoRun:
    budgets: list[int]
    mode: str
    results: list[QuestionResult] = field(default_factory=list)
    full_history_tokens: dict[str, int] = field(default_factory=dict)  # per conversation
    questions: int = 0
    ingest_seconds: float = 0.0
    memories: int = 0
    # per-question rows of systems run elsewhere (paired.read_rows), compared like the built-in ones
    external: list[dict[str, Any]] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        return rows_as_dicts(self.results)

    def summary(self) -> dict[str, Any]:
        """The JSON document: one budget gives its object; several give ``{"budgets": {...}}``."""
        per_budget = {str(b): self._budget_summary(b) for b in self.budgets}
        if len(self.budgets) == 1:
            return next(iter(per_budget.values()))
        return {"budgets": per_budget, "questions": self.questions, "mode": self.mode}

    def _budget_summary(self, budget: int) -> dict[str, Any]:
        rows = [r for r in self.results if r.budget == budget]
        systems: dict[str, dict[str, Any]] = {}
        by_category: dict[str, dict[str, dict[str, Any]]] = {}
        by_conversation: dict[str, dict[str, dict[str, Any]]] = {}
        for name in _ordered({r.system for r in rows}):
            mine = [r for r in rows if r.system == name]
            systems[name] = _metrics(mine)
            # a change can help one conversation and hurt another: judge each on its own
            for sample in sorted({r.sample_id for r in mine}):
                by_conversation.setdefault(sample, {})[name] = _metrics(
                    [r for r in mine if r.sample_id == sample]
                )
            for category in sorted({r.category for r in mine}):
                label = f"{category}:{next(r for r in mine if r.category == category).category_name}"
                by_category.setdefault(label, {})[name] = _metrics(
                    [r for r in mine if r.category == category]
                )
        theirs = [r for r in self.external if r["budget"] == budget]
        for name in sorted({r["system"] for r in theirs} - set(systems)):
            systems[name] = _external_metrics([r for r in theirs if r["system"] == name])
        full = sum(self.full_history_tokens.values())
        conversations = max(1, len(self.full_history_tokens))
        systems[FULL_HISTORY] = {
            "evidence_recall": 1.0,
            "all_evidence_rate": 1.0,
            "avg_context_tokens": round(full / conversations, 1),
            "p50_ms": 0.0,
            "p95_ms": 0.0,
        }
        for name, metrics in systems.items():
            if name != FULL_HISTORY and full and "avg_context_tokens" in metrics:
                metrics["token_reduction"] = round(
                    1.0 - metrics["avg_context_tokens"] / (full / conversations), 4
                )
        return {
            "budget": budget,
            "mode": self.mode,
            "systems": systems,
            "by_category": by_category,
            "by_conversation": by_conversation,
            "leads": self._leads(budget, [*rows_as_dicts(rows), *theirs], systems),
            "questions": self.questions,
        }

    @staticmethod
    def _leads(budget: int, rows: list[dict[str, Any]], systems: dict[str, Any]) -> dict[str, Any]:
        """MemoPilot's lead over each other system with its paired 95% bootstrap interval."""
        if MEMOPILOT not in systems:
            return {}
        mine = recall_by_question(rows, MEMOPILOT, budget)
        return {
            name: bootstrap_lead(mine, recall_by_question(rows, name, budget))
            for name in systems
            if name not in (MEMOPILOT, FULL_HISTORY)
        }


def _external_metrics(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What rows from elsewhere tell: recall, and context size when every row gives it."""
    out: dict[str, Any] = {
        "evidence_recall": round(mean(r["evidence_recall"] for r in rows), 4),
        "n": len(rows),
        "external": True,
    }
    tokens = [r.get("context_tokens") for r in rows]
    if all(isinstance(t, int | float) and not isinstance(t, bool) for t in tokens):
        out["avg_context_tokens"] = round(mean(float(t) for t in tokens), 1)  # type: ignore[arg-type]
    return out


def rows_as_dicts(rows: Iterable[QuestionResult]) -> list[dict[str, Any]]:
    return [r.as_row() for r in rows]


def _ordered(names: Iterable[str]) -> list[str]:
    order = [MEMOPILOT, *BASELINES]
    return sorted(names, key=lambda n: (order.index(n) if n in order else len(order), n))


def _metrics(rows: Sequence[QuestionResult]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "evidence_recall": round(mean(r.recall for r in rows), 4),
        "all_evidence_rate": round(mean(1.0 if r.recall >= 1.0 else 0.0 for r in rows), 4),
        "avg_context_tokens": round(mean(r.tokens for r in rows), 1),
        "p50_ms": round(percentile([r.ms for r in rows], 50), 3),
        "p95_ms": round(percentile([r.ms for r in rows], 95), 3),
        "n": len(rows),
    }
    shown = [r.answer_shown for r in rows if r.answer_shown is not None]
    if shown:
        out["answer_words_shown"] = round(mean(1.0 if s else 0.0 for s in shown), 4)
    answered = [r for r in rows if r.prediction is not None]
    if answered:
        out["answer_f1"] = round(mean(r.f1 or 0.0 for r in answered), 4)
    judged = [r for r in rows if r.judged is not None]
    if judged:
        out["j_score"] = round(mean(1.0 if r.judged else 0.0 for r in judged), 4)
    return out


# The category name is handy on a result row too.
QuestionResult.category_name = property(  # type: ignore[attr-defined]
    lambda self: LocomoQuestion(self.question, self.answer, self.category, self.evidence).category_name
)


def covered_turns(memory: Memory, memories: dict[str, Memory]) -> set[str]:
    """The turn ids a memory stands for: its own and its sources', if there are at most three."""
    ids: set[str] = set()
    if memory.message_id:
        ids.add(memory.message_id)
    for source_id in memory.source_ids:
        source = memories.get(source_id)
        if source is not None and source.message_id:
            ids.add(source.message_id)
    return ids if len(ids) <= MAX_PROVENANCE else set()


def _evaluable(question: LocomoQuestion) -> bool:
    return question.category in (1, 2, 3, 4) and bool(question.evidence)


def _recall(evidence: Sequence[str], covered: set[str]) -> float:
    return sum(1 for e in evidence if e in covered) / len(evidence)


# --- ingestion ------------------------------------------------------------------------------------
def ingest(mp: MemoPilot, clock: FixedClock, conversation: LocomoConversation, mode: str) -> int:
    """Feed one conversation's turns to the engine as user ``sample_id``; returns memories stored."""
    user = conversation.sample_id
    stored = 0
    sessions: dict[int, list[Any]] = {}
    for turn in conversation.turns:
        sessions.setdefault(turn.session, []).append(turn)
    for number in sorted(sessions):
        turns = sessions[number]
        if mode == "episodes":
            clock.set(turns[-1].at + timedelta(seconds=len(turns)))
            added = mp.add_many(
                [
                    {
                        "content": t.content,
                        "type": "episode",
                        "tags": [f"{SPEAKER_TAG}{t.speaker}"],
                        "occurred_at": t.at + timedelta(seconds=offset),  # one turn after the other
                        "session_id": f"session_{number}",
                        "message_id": t.dia_id,
                    }
                    for offset, t in enumerate(turns)
                ],
                user_id=user,
                reason="LoCoMo turn",
            )
            stored += len(added)
        else:
            for offset, t in enumerate(turns):
                clock.set(t.at + timedelta(seconds=offset))  # one turn after the other within a session
                outcome = mp.remember(
                    t.said,
                    user_id=user,
                    session_id=f"session_{number}",
                    message_id=t.dia_id,
                    speaker=t.speaker,
                )
                stored += len(outcome.created) + len(outcome.episodes)
    return stored


# --- the run ------------------------------------------------------------------------------------
def run_locomo(
    conversations: Sequence[LocomoConversation],
    *,
    budgets: Sequence[int] = (2500,),
    mode: str = "episodes",
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    llm: ChatClient | None = None,
    answerer: Callable[[QuestionResult], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
    systems: Sequence[str] | None = None,
    keep_context: bool = False,
) -> LocomoRun:
    """Ingest every conversation, then build each system's context for each question and budget.

    ``llm`` is the chat model the ``both`` mode's Memory Editor uses (None: the rule editor).
    ``answerer`` is called on each result row (``--answer``/``--judge``); it needs the context text,
    so rows keep it when an answerer is given or ``keep_context`` is set.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    budgets = sorted({int(b) for b in budgets})
    if not budgets or budgets[0] < 1:
        raise ValueError("budgets must be positive")
    settings = settings or Settings.load()
    embedder = embedder or make_embedder(settings)
    wanted = set(systems) if systems else {MEMOPILOT, *BASELINES}
    run = LocomoRun(budgets=budgets, mode=mode)
    total = sum(sum(1 for q in c.questions if _evaluable(q)) for c in conversations)
    run.questions = total
    done = 0
    keep = keep_context or answerer is not None
    with tempfile.TemporaryDirectory(prefix="memopilot-locomo-") as tmp:
        clock = FixedClock()
        db = f"sqlite:///{Path(tmp) / 'locomo.db'}"
        with MemoPilot.open(db, settings=settings, embedder=embedder, clock=clock, llm=llm) as mp:
            for conversation in conversations:
                started = time.perf_counter()
                if MEMOPILOT in wanted:
                    run.memories += ingest(mp, clock, conversation, mode)
                    # questions come once every vector is whole (a model that completes them later,
                    # in the background, gets that time here: it counts as ingest)
                    mp.complete_vectors()
                run.ingest_seconds += time.perf_counter() - started
                lines = [render_turn(t) for t in conversation.turns]
                run.full_history_tokens[conversation.sample_id] = count_tokens("\n".join(lines))
                rankers = _Rankers(conversation, embedder, wanted)
                clock.set(conversation.last_time + QUESTION_DELAY)
                for index, question in enumerate(conversation.questions):
                    if not _evaluable(question):
                        continue
                    rows = _answer_question(mp, conversation, question, budgets, rankers, lines, wanted)
                    for row in rows:
                        row.question_index = index
                        if not keep:
                            row.context = ""
                        elif answerer is not None:
                            answerer(row)
                    run.results.extend(rows)
                    done += 1
                    if progress is not None:
                        progress(done, total)
    return run


class _Rankers:
    def __init__(self, conversation: LocomoConversation, embedder: Embedder, wanted: set[str]) -> None:
        texts = [t.content for t in conversation.turns]
        need_bm25 = bool(wanted & {"bm25", "hybrid_rrf"})
        need_dense = bool(wanted & {"dense", "hybrid_rrf"})
        self.bm25 = BM25Ranker(texts) if need_bm25 else None
        self.dense = DenseRanker(texts, embedder.embed) if need_dense else None
        # newest first; turns within a session keep their order
        self.recent = sorted(range(len(texts)), key=lambda i: (conversation.turns[i].at, i), reverse=True)

    def ranking(self, system: str, query: str) -> list[int]:
        if system == "bm25":
            assert self.bm25 is not None
            return self.bm25.rank(query)
        if system == "dense":
            assert self.dense is not None
            return self.dense.rank(query)
        if system == "hybrid_rrf":
            assert self.bm25 is not None and self.dense is not None
            return rrf_fuse([self.bm25.rank(query), self.dense.rank(query)])
        return self.recent


def _answer_question(
    mp: MemoPilot,
    conversation: LocomoConversation,
    question: LocomoQuestion,
    budgets: Sequence[int],
    rankers: _Rankers,
    lines: Sequence[str],
    wanted: set[str],
) -> list[QuestionResult]:
    rows: list[QuestionResult] = []

    def row(system: str, budget: int, covered: set[str], tokens: int, ms: float, context: str) -> None:
        rows.append(
            QuestionResult(
                sample_id=conversation.sample_id,
                question=question.question,
                answer=question.answer,
                category=question.category,
                evidence=question.evidence,
                budget=budget,
                system=system,
                covered=sorted(covered & set(question.evidence)),
                recall=_recall(question.evidence, covered),
                tokens=tokens,
                ms=ms,
                context=context,
                answer_shown=answer_words_present(context, question.answer),
            )
        )

    for budget in budgets:
        if MEMOPILOT in wanted:
            started = time.perf_counter()
            result = mp.build_context(
                question.question,
                user_id=conversation.sample_id,
                budget_tokens=budget,
                record_usage=False,
                persist=False,
            )
            ms = (time.perf_counter() - started) * 1000.0
            owner = conversation.sample_id
            included = mp.store.get_many((i.memory_id for i in result.trace.included), user_id=owner)
            sources = mp.store.get_many((s for m in included.values() for s in m.source_ids), user_id=owner)
            covered: set[str] = set()
            for memory in included.values():
                covered |= covered_turns(memory, sources)
            row(MEMOPILOT, budget, covered, count_tokens(result.text), ms, result.text)
        ids = [t.dia_id for t in conversation.turns]
        for system in BASELINES:
            if system not in wanted:
                continue
            started = time.perf_counter()
            ranking = rankers.ranking(system, question.question)
            packed = pack_lines(ranking, lines, budget, stop_at_first_miss=system == "recent")
            ms = (time.perf_counter() - started) * 1000.0
            row(system, budget, {ids[i] for i in packed.indices}, packed.tokens, ms, packed.text)
    return rows
