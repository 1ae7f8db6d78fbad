"""Checks of caller input, shared by the engine and every interface.

Each function returns the cleaned value or raises :class:`InvalidInputError` whose
message names the field, what was given and what is allowed.

:func:`clean_content` and :func:`clean_tags` are the one gate every stored text passes
(direct adds, edits, imports, the write path): they also take secrets out with
:func:`~memopilot.write.redaction.redact`, so no path can store a secret the detectors know.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from typing import TypeVar

from .clock import ensure_utc
from .domain import DEFAULT_IMPORTANCE, Memory, MemoryState, MemoryType, Privacy
from .errors import ContentTooLongError, InvalidInputError
from .settings import Settings
from .write.redaction import redact

__all__ = [
    "check_ids",
    "clean_content",
    "clean_speaker",
    "clean_tags",
    "clean_unit",
    "new_record",
    "parse_enum",
    "parse_privacy",
    "parse_state",
    "parse_type",
]

E = TypeVar("E", bound=StrEnum)


def parse_enum(enum: type[E], value: str | E, field: str) -> E:
    if isinstance(value, enum):
        return value
    try:
        return enum(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(e.value for e in enum)
        raise InvalidInputError(f"unknown {field} {value!r}; expected one of: {allowed}") from None


def parse_type(value: str | MemoryType) -> MemoryType:
    return parse_enum(MemoryType, value, "memory type")


def parse_state(value: str | MemoryState) -> MemoryState:
    return parse_enum(MemoryState, value, "state")


def parse_privacy(value: str | Privacy) -> Privacy:
    return parse_enum(Privacy, value, "privacy")


def clean_unit(value: float, field: str) -> float:
    """A number in [0, 1] (importance, confidence)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidInputError(f"{field} must be a number between 0 and 1, got {value!r}") from None
    if not 0.0 <= number <= 1.0 or number != number:  # NaN fails both comparisons
        raise InvalidInputError(f"{field} must be between 0 and 1, got {value!r}")
    return number


def clean_content(content: str, settings: Settings, *, redacted: bool = False) -> str:
    if not isinstance(content, str):
        raise InvalidInputError(f"content must be text, got {type(content).__name__}")
    text = content.strip()
    if not text:
        raise InvalidInputError("content is empty")
    if not _visible(text):
        raise InvalidInputError("content holds only invisible characters (zero-width or format)")
    if "\x00" in text:
        raise InvalidInputError("content contains a NUL character")
    if len(text) > settings.max_content_chars:
        raise ContentTooLongError(
            f"content is {len(text)} characters; the limit is {settings.max_content_chars} "
            "(MEMOPILOT_MAX_CONTENT_CHARS)"
        )
    return text if redacted else redact(text).text


def _visible(text: str) -> bool:
    """Whether ``text`` holds anything but white space and invisible format characters
    (zero-width spaces and joiners, bidi marks, the BOM: Unicode category Cf)."""
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in text)


def clean_tags(tags: Iterable[str] | None, settings: Settings, *, redacted: bool = False) -> list[str]:
    if tags is None:
        return []
    if isinstance(tags, str):
        raise InvalidInputError("tags must be a list of strings, not one string")
    cleaned: list[str] = []
    for tag in tags:
        if not isinstance(tag, str):
            raise InvalidInputError(f"tag {tag!r} is not text")
        tag = tag.strip()
        if not tag or not _visible(tag):
            continue
        if "\x00" in tag:
            raise InvalidInputError("a tag contains a NUL character")
        if len(tag) > settings.max_tag_chars:
            raise InvalidInputError(f"tag {tag[:20]!r}... is longer than {settings.max_tag_chars} characters")
        tag = tag if redacted else redact(tag).text
        if tag not in cleaned:
            cleaned.append(tag)
    if len(cleaned) > settings.max_tags:
        raise InvalidInputError(f"{len(cleaned)} tags given; the limit is {settings.max_tags}")
    return cleaned


_MAX_SPEAKER_CHARS = 100


def clean_speaker(speaker: str) -> str:
    """Who said a message: a short single-line name, redacted like any stored text."""
    if not isinstance(speaker, str):
        raise InvalidInputError(f"speaker must be text, got {type(speaker).__name__}")
    name = " ".join(speaker.split())
    if not name or not _visible(name):
        raise InvalidInputError("speaker is empty")
    if len(name) > _MAX_SPEAKER_CHARS or any(unicodedata.category(ch) == "Cc" for ch in name):
        raise InvalidInputError(f"speaker must be one line of at most {_MAX_SPEAKER_CHARS} characters")
    return redact(name).text


def check_ids(user_id: str, project_id: str | None) -> None:
    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > 200:
        raise InvalidInputError("user_id must be a non-empty string of at most 200 characters")
    if project_id is not None and (not isinstance(project_id, str) or len(project_id) > 200):
        raise InvalidInputError("project_id must be a string of at most 200 characters")


def new_record(
    content: str,
    *,
    now: datetime,
    settings: Settings,
    user_id: str,
    project_id: str | None,
    type: str | MemoryType,
    tags: Iterable[str] | None = None,
    importance: float | None = None,
    confidence: float = 0.8,
    privacy: str = "normal",
    state: str | MemoryState = MemoryState.ACTIVE,
    expires_at: datetime | None = None,
    occurred_at: datetime | None = None,
    session_id: str | None = None,
    message_id: str | None = None,
    redacted: bool = False,
) -> Memory:
    """A validated, unsaved memory created at ``now``. ``redacted``: content and tags were passed
    through the redaction already (the write path's, which checks each proposed memory)."""
    memory_type = parse_type(type)
    memory_state = parse_state(state)
    if memory_state not in (MemoryState.ACTIVE, MemoryState.PINNED, MemoryState.ARCHIVED):
        raise InvalidInputError(f"a new memory can be active, pinned or archived, not {memory_state.value}")
    check_ids(user_id, project_id)
    return Memory(
        user_id=user_id,
        project_id=project_id or None,
        type=memory_type,
        state=memory_state,
        content=clean_content(content, settings, redacted=redacted),
        tags=clean_tags(tags, settings, redacted=redacted),
        importance=clean_unit(
            DEFAULT_IMPORTANCE[memory_type] if importance is None else importance, "importance"
        ),
        confidence=clean_unit(confidence, "confidence"),
        privacy=parse_privacy(privacy),
        created_at=now,
        updated_at=now,
        valid_from=now,
        expires_at=ensure_utc(expires_at) if expires_at else None,
        occurred_at=ensure_utc(occurred_at) if occurred_at else None,
        session_id=session_id,
        message_id=message_id,
    )
