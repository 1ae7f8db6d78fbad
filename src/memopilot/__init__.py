"""MemoPilot: a governed long-term memory layer for LLM assistants.

from memopilot import MemoPilot
mp = MemoPilot.open("sqlite:///memories.db")
mp.add("I prefer tabs over spaces", type="preference")
result = mp.build_context("How should I indent this file?")
print(result.text, result.trace.to_dict())
"""

from __future__ import annotations

from .client import APIError, AsyncClient, AuthenticationError, Client, RateLimitedError, ServerError
from .clock import Clock, FixedClock, SystemClock
from .domain import EventKind, Memory, MemoryState, MemoryType, Privacy, TimelineEvent
from .embedding import Embedder, make_embedder
from .engine.facade import DEFAULT_PROJECT, DEFAULT_USER, MemoPilot
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
