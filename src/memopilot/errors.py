"""Every error MemoPilot raises on purpose.

    MemoPilotError                 base: catch this to handle any of ours
    ├── InvalidInputError          bad argument from a caller (also a ValueError)
    │   ├── ContentTooLongError    content over settings.max_content_chars
    │   └── MemoryLimitError       the user already holds settings.max_memories_per_user memories
    ├── NotFoundError              no such memory/trace *for this user* (also a LookupError)
    ├── ConflictError              the request clashes with stored state (e.g. edit a deleted memory)
    │   └── MessageAlreadyAppliedError  this user's message id was written before (the write path)
    ├── ConfigError                settings that cannot work together
    ├── StoreError                 the storage backend failed or cannot be used
    │   ├── CorruptStoreError      the file is not a MemoPilot database or is damaged
    │   └── SchemaTooNewError      written by a newer MemoPilot than this one
    ├── EmbedderError              the embedding model failed or cannot be loaded
    │   └── EmbedderMismatchError  the store's vectors come from another model or dimension
    └── LLMError                   the chat model was unreachable, timed out or answered unusably

Interfaces map them to exit codes (CLI) and HTTP statuses (REST); each message is
written for the person who made the mistake and says what to do next.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ConflictError",
    "ContentTooLongError",
    "CorruptStoreError",
    "EmbedderError",
    "EmbedderMismatchError",
    "InvalidInputError",
    "LLMError",
    "MemoPilotError",
    "MemoryLimitError",
    "MessageAlreadyAppliedError",
    "NotFoundError",
    "SchemaTooNewError",
    "StoreError",
]


class MemoPilotError(Exception):
    """Base class of every MemoPilot error."""


class InvalidInputError(MemoPilotError, ValueError):
    """An argument is outside what MemoPilot accepts; nothing was changed."""


class ContentTooLongError(InvalidInputError):
    """Memory content longer than the configured limit."""


class MemoryLimitError(InvalidInputError):
    """Adding memories would take the user over ``max_memories_per_user``; nothing was written."""


class NotFoundError(MemoPilotError, LookupError):
    """The object does not exist for this user (other users' ids look the same as missing ones)."""


class ConflictError(MemoPilotError):
    """The request is valid but clashes with the stored state."""


class MessageAlreadyAppliedError(ConflictError):
    """The write path already applied this (user_id, message_id); a message's memories are made once."""


class ConfigError(MemoPilotError):
    """Settings that cannot be used."""


class StoreError(MemoPilotError):
    """The storage backend failed or cannot be used."""


class CorruptStoreError(StoreError):
    """The database file is damaged or is not a MemoPilot database."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer MemoPilot (its schema version is unknown here)."""


class EmbedderError(MemoPilotError):
    """The embedding model failed or cannot be loaded."""


class EmbedderMismatchError(EmbedderError):
    """Vectors in the store were made by another model or have another dimension."""


class LLMError(MemoPilotError):
    """The chat model was unreachable, timed out, or answered with something unusable."""
