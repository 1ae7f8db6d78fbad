"""MemoPilot: a governed long-term memory layer for LLM assistants.

from memopilot import MemoPilot
mp = MemoPilot.open("sqlite:///memories.db")
mp.add("I prefer tabs over spaces", type="preference")
result = mp.build_context("How should I indent this file?")
print(result.text, result.trace.to_dict())
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Each public name and the module that defines it. They load on first use (PEP 562), so
# `memopilot --help` or `from memopilot.domain import Memory` does not pay for the engine, the
# embedder and the HTTP client.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        ["APIError", "AsyncClient", "AuthenticationError", "Client", "RateLimitedError", "ServerError"],
        "client",
    ),
    **dict.fromkeys(["Clock", "FixedClock", "SystemClock"], "clock"),
    **dict.fromkeys(
        ["EventKind", "Memory", "MemoryState", "MemoryType", "Privacy", "TimelineEvent"], "domain"
    ),
    **dict.fromkeys(["DEFAULT_PROJECT", "DEFAULT_USER"], "domain"),
    **dict.fromkeys(["Embedder", "make_embedder"], "embedding"),
    "MemoPilot": "engine.facade",
    **dict.fromkeys(
        [
            "ConfigError",
            "ConflictError",
            "ContentTooLongError",
            "CorruptStoreError",
            "EmbedderError",
            "EmbedderMismatchError",
            "InvalidInputError",
            "MemoPilotError",
            "NotFoundError",
            "SchemaTooNewError",
            "StoreError",
        ],
        "errors",
    ),
    "count_tokens": "read.tokens",
    **dict.fromkeys(["Trace", "TraceItem"], "read.trace"),
    **dict.fromkeys(
        ["ContextResult", "ForgettingReport", "ImportReport", "Page", "ReflectionReport", "SearchResult"],
        "results",
    ),
    "Settings": "settings",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'memopilot' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from .client import APIError, AsyncClient, AuthenticationError, Client, RateLimitedError, ServerError
    from .clock import Clock, FixedClock, SystemClock
    from .domain import (
        DEFAULT_PROJECT,
        DEFAULT_USER,
        EventKind,
        Memory,
        MemoryState,
        MemoryType,
        Privacy,
        TimelineEvent,
    )
    from .embedding import Embedder, make_embedder
    from .engine.facade import MemoPilot
    from .errors import (
        ConfigError,
        ConflictError,
        ContentTooLongError,
        CorruptStoreError,
        EmbedderError,
        EmbedderMismatchError,
        InvalidInputError,
        MemoPilotError,
        NotFoundError,
        SchemaTooNewError,
        StoreError,
    )
    from .read.tokens import count_tokens
    from .read.trace import Trace, TraceItem
    from .results import ContextResult, ForgettingReport, ImportReport, Page, ReflectionReport, SearchResult
    from .settings import Settings

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_PROJECT",
    "DEFAULT_USER",
    "APIError",
    "AsyncClient",
    "AuthenticationError",
    "Client",
    "Clock",
    "ConfigError",
    "ConflictError",
    "ContentTooLongError",
    "ContextResult",
    "CorruptStoreError",
    "Embedder",
    "EmbedderError",
    "EmbedderMismatchError",
    "EventKind",
    "FixedClock",
    "ForgettingReport",
    "ImportReport",
    "InvalidInputError",
    "MemoPilot",
    "MemoPilotError",
    "Memory",
    "MemoryState",
    "MemoryType",
    "NotFoundError",
    "Page",
    "Privacy",
    "RateLimitedError",
    "ReflectionReport",
    "SchemaTooNewError",
    "SearchResult",
    "ServerError",
    "Settings",
    "StoreError",
    "SystemClock",
    "TimelineEvent",
    "Trace",
    "TraceItem",
    "__version__",
    "count_tokens",
    "make_embedder",
]
