"""Reading the LoCoMo conversation format (Maharana et al., 2024; data licence CC BY-NC 4.0).

A file is a JSON list of samples. Each sample has ``conversation`` (``speaker_a``, ``speaker_b``,
``session_<n>`` lists of turns with ``speaker``, ``dia_id``, ``text`` and optionally an image's
``blip_caption``, and ``session_<n>_date_time`` such as ``"1:56 pm on 8 May, 2023"``) and ``qa``
(``question``, ``answer``, ``category``, ``evidence``: the dia ids of the turns that hold the answer).

Every system in the benchmark sees the same turn text, :attr:`LocomoTurn.content`
("Speaker: text", plus the image caption when the turn shared a picture), and baselines render it
with its session date (:func:`render_turn`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError

__all__ = [
    "CATEGORY_NAMES",
    "LocomoConversation",
    "LocomoQuestion",
    "LocomoTurn",
    "load_locomo",
    "parse_session_date",
    "render_turn",
]

# The released data's category numbers (as used by the LoCoMo authors' and most later evaluations).
CATEGORY_NAMES: dict[int, str] = {
    1: "multi_hop",
    2: "temporal",
    3: "open_domain",
    4: "single_hop",
    5: "adversarial",
}
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DIA_ID = re.compile(r"D\d+:\d+")


@dataclass(frozen=True, slots=True)
class LocomoTurn:
    dia_id: str
    speaker: str
    text: str
    session: int
    at: datetime  # the session's date and time
    caption: str | None = None

    @property
    def said(self) -> str:
        """The turn's words, and what a shared image showed."""
        body = self.text.strip()
        if self.caption:
            body += f" [shares an image: {self.caption.strip()}]"
        return body

    @property
    def content(self) -> str:
        """The turn as every system stores it: "speaker: " and what was :attr:`said`."""
        return f"{self.speaker}: {self.said}"


@dataclass(frozen=True, slots=True)
class LocomoQuestion:
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]

    @property
    def category_name(self) -> str:
        return CATEGORY_NAMES.get(self.category, f"category_{self.category}")


@dataclass(slots=True)
class LocomoConversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[LocomoTurn] = field(default_factory=list)
    questions: list[LocomoQuestion] = field(default_factory=list)

    @property
    def turn_ids(self) -> set[str]:
        return {t.dia_id for t in self.turns}

    @property
    def last_time(self) -> datetime:
        return max(t.at for t in self.turns)


def parse_session_date(value: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` (LoCoMo's form) or an ISO date, as UTC."""
    text = " ".join(str(value).split())
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%d %B, %Y", "%d %B %Y"):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInputError(f"cannot read the session date {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def render_turn(turn: LocomoTurn) -> str:
    """One turn for a baseline's context: its session date, speaker and words."""
    return f"[{turn.at.day} {turn.at:%B %Y}] {turn.content}"


def load_locomo(path: str | Path) -> list[LocomoConversation]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot read the LoCoMo file {path}: {exc}") from None
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise InvalidInputError(f"{path} is not a LoCoMo file: expected a JSON list of conversations")
    return [_conversation(sample, i) for i, sample in enumerate(raw)]


def _conversation(sample: Any, position: int) -> LocomoConversation:
    if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
        raise InvalidInputError(f"conversation {position} has no 'conversation' object")
    conv = sample["conversation"]
    sample_id = str(sample.get("sample_id") or f"conv-{position}")
    out = LocomoConversation(sample_id, (str(conv.get("speaker_a", "A")), str(conv.get("speaker_b", "B"))))
    sessions = sorted(
        (int(m.group(1)), key)
        for key in conv
        if (m := _SESSION_KEY.match(key)) and isinstance(conv[key], list)
    )
    for number, key in sessions:
        date_text = conv.get(f"{key}_date_time")
        if not date_text:
            raise InvalidInputError(f"{sample_id}: {key} has no {key}_date_time")
        at = parse_session_date(date_text)
        for turn in conv[key]:
            if not isinstance(turn, dict) or not turn.get("dia_id") or not str(turn.get("text", "")).strip():
                continue
            out.turns.append(
                LocomoTurn(
                    dia_id=str(turn["dia_id"]).strip(),
                    speaker=str(turn.get("speaker", "?")),
                    text=str(turn["text"]),
                    session=number,
                    at=at,
                    caption=turn.get("blip_caption") or None,
                )
            )
    known = out.turn_ids
    for qa in sample.get("qa", []):
        if not isinstance(qa, dict) or "question" not in qa:
            continue
        evidence = _evidence_ids(qa.get("evidence", []), known)
        answer = qa.get("answer", qa.get("adversarial_answer", ""))
        out.questions.append(
            LocomoQuestion(str(qa["question"]), str(answer), int(qa.get("category", 0)), evidence)
        )
    return out


def _evidence_ids(items: Any, known: set[str]) -> tuple[str, ...]:
    """Evidence ids that name a turn of this conversation (some entries hold two, "D8:6; D9:17")."""
    found: list[str] = []
    for item in items if isinstance(items, list) else [items]:
        for dia_id in _DIA_ID.findall(str(item)):
            if dia_id in known and dia_id not in found:
                found.append(dia_id)
    return tuple(found)
