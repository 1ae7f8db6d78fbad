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
from enum import StrEnum
from typing import TypeVar

from .domain import MemoryState, MemoryType, Privacy
from .errors import ContentTooLongError, InvalidInputError
from .settings import Settings
from .write.redaction import redact

__all__ = [
    "clean_content",
    "clean_speaker",
    "clean_tags",
    "clean_unit",
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
