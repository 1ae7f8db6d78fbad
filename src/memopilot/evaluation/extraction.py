"""Extraction test files: does the write path keep what a person would keep, and only that?

The format is SPEC's Contracts ("Extraction test files"). Each item runs on a fresh user through
the real write path (:meth:`MemoPilot.remember`, the configured editor) with the clock at the
item's date; its ``prior`` messages go first and are not scored. A stored typed memory (not an
episode) of at most :data:`MAX_MATCH_CHARS` characters matches an expectation when its type is
one of the expectation's ``types`` and its content holds, case-insensitively, one alternative of
every group in ``all``. Memories and expectations are paired one to one (a maximum matching, so
the order they come in cannot cost a match).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..clock import FixedClock
from ..domain import Memory, MemoryType
from ..embedding import Embedder, make_embedder
from ..engine.facade import MemoPilot
from ..errors import InvalidInputError
from ..llm import ChatClient
from ..settings import Settings
from .locomo_data import LocomoTurn, load_locomo

__all__ = [
    "MAX_MATCH_CHARS",
    "Expectation",
    "ExtractionItem",
    "ExtractionRun",
    "load_items",
    "run_extraction",
]

MAX_MATCH_CHARS = 200
_DEFAULT_DATE = datetime(2026, 6, 1, 12, tzinfo=UTC)
_TYPES = {t.value for t in MemoryType} - {MemoryType.EPISODE.value}


@dataclass(frozen=True, slots=True)
class Expectation:
    types: tuple[str, ...]
    all: tuple[tuple[str, ...], ...]  # every group must be met by one of its alternatives

    def matches(self, memory: Memory) -> bool:
        if memory.type.value not in self.types or len(memory.content) > MAX_MATCH_CHARS:
            return False
        text = memory.content.lower()
        return all(any(alt.lower() in text for alt in group) for group in self.all)

    @property
    def allows_critical(self) -> bool:
        return MemoryType.CRITICAL.value in self.types


@dataclass(frozen=True, slots=True)
class ExtractionItem:
    id: str
    message: str
    expect: tuple[Expectation, ...]
    at: datetime
    speaker: str | None = None
    prior: tuple[str, ...] = ()
    split: str | None = None
    note: str | None = None


@dataclass(slots=True)
class ItemResult:
    item: ExtractionItem
    stored: list[Memory]
    matched: list[tuple[int, str]]  # (expectation index, memory id)
    editor: str

    @property
    def false_critical(self) -> int:
        """Stored critical memories that no expectation allows (SPEC's words): none lists
        `critical` among its types with words the memory holds. One that does counts as allowed
        even when the one-to-one matching gave that expectation to another memory of the message
        ("CRITICAL: I'm severely allergic to peanuts." beside "Never suggest peanuts.")."""
        return sum(
            1
            for m in self.stored
            if m.type is MemoryType.CRITICAL
            and not any(e.allows_critical and e.matches(m) for e in self.item.expect)
        )

    def to_dict(self) -> dict[str, Any]:
        matched = dict(self.matched)
        return {
            "id": self.item.id,
            "split": self.item.split,
            "message": self.item.message,
            "stored": [{"type": m.type.value, "content": m.content} for m in self.stored],
            "expected": [{"types": list(e.types), "all": [list(g) for g in e.all]} for e in self.item.expect],
            "matched": [matched.get(i) is not None for i in range(len(self.item.expect))],
            "false_critical": self.false_critical,
            "editor": self.editor,
        }


@dataclass(slots=True)
class ExtractionRun:
    results: list[ItemResult] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "overall": _scores(self.results),
            "per_type": self._per_type(),
            "items": [r.to_dict() for r in self.results],
        }

    def _per_type(self) -> dict[str, dict[str, Any]]:
        """Precision by the type stored; recall by the expectation's first (preferred) type."""
        out: dict[str, dict[str, Any]] = {}
        for name in sorted(_TYPES):
            stored = [(r, m) for r in self.results for m in r.stored if m.type.value == name]
            expected = [
                (r, i) for r in self.results for i, e in enumerate(r.item.expect) if e.types[0] == name
            ]
            if not stored and not expected:
                continue
            matched_memories = sum(1 for r, m in stored if m.id in {mid for _, mid in r.matched})
            matched_expectations = sum(1 for r, i in expected if i in {ei for ei, _ in r.matched})
            out[name] = {
                "stored": len(stored),
                "expected": len(expected),
                "precision": round(matched_memories / len(stored), 4) if stored else 0.0,
                "recall": round(matched_expectations / len(expected), 4) if expected else None,
            }
        return out


def _scores(results: Sequence[ItemResult]) -> dict[str, Any]:
    stored = sum(len(r.stored) for r in results)
    expected = sum(len(r.item.expect) for r in results)
    matched = sum(len(r.matched) for r in results)
    silent = [r for r in results if not r.item.expect]
    return {
        "precision": round(matched / stored, 4) if stored else 0.0,
        "recall": round(matched / expected, 4) if expected else 0.0,
        "false_critical": sum(r.false_critical for r in results),
        "stored_when_none_expected": (
            round(sum(1 for r in silent if r.stored) / len(silent), 4) if silent else 0.0
        ),
        "items": len(results),
        "stored": stored,
        "expected": expected,
        "matched": matched,
    }


def match(expect: Sequence[Expectation], stored: Sequence[Memory]) -> list[tuple[int, str]]:
    """A maximum one-to-one pairing of expectations with memories that meet them (Kuhn's
    augmenting paths; both sides are a handful, so this is instant)."""
    owner: dict[str, int] = {}  # memory id -> expectation index

    def place(i: int, seen: set[str]) -> bool:
        for memory in stored:
            if memory.id in seen or not expect[i].matches(memory):
                continue
            seen.add(memory.id)
            if memory.id not in owner or place(owner[memory.id], seen):
                owner[memory.id] = i
                return True
        return False

    for i in range(len(expect)):
        place(i, set())
    return sorted((i, memory_id) for memory_id, i in owner.items())


# --- reading a file -----------------------------------------------------------------------------
def load_items(path: str | Path, locomo: str | Path | None = None) -> list[ExtractionItem]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read the extraction file {path}: {exc}") from None
    if not isinstance(raw, list) or not raw:
        raise InvalidInputError(f"{path} is not an extraction file: expected a JSON list of items")
    turns = _locomo_turns(locomo) if locomo is not None else None
    return [_item(entry, position, turns) for position, entry in enumerate(raw)]


def _locomo_turns(path: str | Path) -> dict[tuple[str, str], LocomoTurn]:
    return {(c.sample_id, t.dia_id): t for c in load_locomo(path) for t in c.turns}


def _item(entry: Any, position: int, turns: dict[tuple[str, str], LocomoTurn] | None) -> ExtractionItem:
    where = f"item {position}"
    if not isinstance(entry, dict):
        raise InvalidInputError(f"{where} is not an object")
    item_id = str(entry.get("id") or position)
    where = f"item {item_id!r}"
    speaker = entry.get("speaker")
    at = _date(entry.get("date"), where)
    if "locomo" in entry:
        if turns is None:
            raise InvalidInputError(f"{where} names a LoCoMo turn: give the LoCoMo file with --locomo")
        ref = entry["locomo"]
        key = (str(ref.get("sample_id")), str(ref.get("dia_id"))) if isinstance(ref, dict) else None
        turn = turns.get(key) if key else None
        if turn is None:
            raise InvalidInputError(f"{where}: no LoCoMo turn {ref!r} in the file given with --locomo")
        message, speaker = turn.said, speaker or turn.speaker
        if entry.get("date") is None:
            at = turn.at
    else:
        message = entry.get("message")
    if not isinstance(message, str) or not message.strip():
        raise InvalidInputError(f"{where} has no message")
    prior = entry.get("prior") or []
    if not isinstance(prior, list) or not all(isinstance(p, str) and p.strip() for p in prior):
        raise InvalidInputError(f"{where}: prior must be a list of messages")
    return ExtractionItem(
        id=item_id,
        message=message,
        expect=tuple(_expectation(e, where) for e in _list(entry.get("expect"), f"{where}: expect")),
        at=at,
        speaker=str(speaker) if speaker else None,
        prior=tuple(prior),
        split=entry.get("split"),
        note=entry.get("note"),
    )


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidInputError(f"{where} must be a list")
    return value


def _expectation(value: Any, where: str) -> Expectation:
    if not isinstance(value, dict):
        raise InvalidInputError(f"{where}: an expectation must be an object")
    types = _list(value.get("types"), f"{where}: types")
    unknown = [t for t in types if t not in _TYPES]
    if not types or unknown:
        raise InvalidInputError(f"{where}: unknown or missing types {unknown or types}")
    groups = _list(value.get("all", []), f"{where}: all")
    for group in groups:
        if not isinstance(group, list) or not group or not all(isinstance(a, str) and a for a in group):
            raise InvalidInputError(f"{where}: each group in 'all' is a non-empty list of strings")
    return Expectation(tuple(types), tuple(tuple(g) for g in groups))


def _date(value: Any, where: str) -> datetime:
    if value is None:
        return _DEFAULT_DATE
    try:
        day = datetime.strptime(str(value), "%Y-%m-%d")
    except ValueError:
        raise InvalidInputError(f"{where}: date must be YYYY-MM-DD, got {value!r}") from None
    return day.replace(hour=12, tzinfo=UTC)


# --- the run ------------------------------------------------------------------------------------
def run_extraction(
    items: Sequence[ExtractionItem],
    *,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    llm: ChatClient | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExtractionRun:
    """Run every item on its own user in a scratch database and score what it stored."""
    settings = settings or Settings.load()
    embedder = embedder or make_embedder(settings)
    run = ExtractionRun()
    with tempfile.TemporaryDirectory(prefix="memopilot-extraction-") as tmp:
        clock = FixedClock()
        db = f"sqlite:///{Path(tmp) / 'extraction.db'}"
        with MemoPilot.open(db, settings=settings, embedder=embedder, clock=clock, llm=llm) as mp:
            for done, item in enumerate(items, start=1):
                run.results.append(_run_item(mp, clock, item, user=f"item-{done}"))
                if progress is not None:
                    progress(done, len(items))
    return run


def _run_item(mp: MemoPilot, clock: FixedClock, item: ExtractionItem, user: str) -> ItemResult:
    for offset, earlier in enumerate(item.prior):
        clock.set(item.at - timedelta(minutes=len(item.prior) - offset))
        mp.remember(earlier, user_id=user, speaker=item.speaker)
    clock.set(item.at)
    outcome = mp.remember(item.message, user_id=user, speaker=item.speaker)
    touched = {m.id for m in outcome.created} | {m.id for m in outcome.updated}
    mp.settle(user)  # the store as the next operation would see it
    current = mp.store.get_many(touched, user_id=user)
    stored = [
        m
        for m in current.values()
        if m.type is not MemoryType.EPISODE and m.in_context_state and not m.is_summary
    ]
    stored.sort(key=lambda m: m.created_at)
    return ItemResult(item, stored, match(item.expect, stored), outcome.editor)
