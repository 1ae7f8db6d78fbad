"""Request and response models of the REST API (SPEC Contracts), shared by the server and the client.

Separate models per use: ``*Request``/``MemoryCreate``/``MemoryUpdate`` for what clients send,
``*Out`` and the reply models for what the server answers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ChatReply",
    "ChatRequest",
    "ContextReply",
    "ContextRequest",
    "ErrorOut",
    "EventsOut",
    "MemoryCreate",
    "MemoryOut",
    "MemoryPage",
    "MemoryUpdate",
    "ReflectRequest",
    "SearchHit",
]

_ID = Field(default=None, max_length=200)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChatRequest(_Strict):
    message: str = Field(min_length=1, description="the user's message")
    user_id: str | None = Field(default=None, max_length=200, description="honoured in local mode only")
    project_id: str | None = _ID
    session_id: str | None = _ID


class MemoryCreate(_Strict):
    content: str = Field(min_length=1)
    type: str | None = Field(
        default=None, description="memory type; default: the rule classifier's, else episode"
    )
    tags: list[str] | None = None
    importance: float | None = Field(default=None, ge=0, le=1)
    confidence: float | None = Field(default=None, ge=0, le=1)
    privacy: Literal["normal", "private", "sensitive"] = "normal"
    state: Literal["active", "pinned", "archived"] = "active"
    project_id: str | None = Field(default="default", max_length=200, description="null = user-wide")
    expires_at: datetime | None = None
    occurred_at: datetime | None = None
    user_id: str | None = Field(default=None, max_length=200, description="honoured in local mode only")


class MemoryUpdate(_Strict):
    content: str | None = Field(default=None, min_length=1)
    tags: list[str] | None = None
    importance: float | None = Field(default=None, ge=0, le=1)
    state: Literal["active", "pinned", "archived"] | None = None


class ContextRequest(_Strict):
    query: str = Field(min_length=1)
    project_id: str | None = _ID
    budget_tokens: int | None = Field(default=None, ge=1, le=200_000)
    user_id: str | None = Field(default=None, max_length=200)


class ReflectRequest(_Strict):
    project_id: str | None = _ID
    user_id: str | None = Field(default=None, max_length=200)


class MemoryOut(BaseModel):
    id: str
    user_id: str
    project_id: str | None
    type: str
    state: str
    content: str
    tags: list[str]
    importance: float
    confidence: float
    usage_count: int
    last_used_at: datetime | None
    privacy: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None
    occurred_at: datetime | None
    valid_from: datetime | None
    valid_to: datetime | None
    supersedes: str | None
    superseded_by: str | None
    session_id: str | None
    message_id: str | None
    source_ids: list[str]
    promoted_at: datetime | None


class MemoryPage(BaseModel):
    items: list[MemoryOut]
    total: int
    limit: int
    offset: int


class EventOut(BaseModel):
    id: str
    user_id: str
    memory_id: str | None
    kind: str
    at: datetime
    actor: str
    reason: str
    project_id: str | None
    details: dict[str, Any]


class EventsOut(BaseModel):
    events: list[EventOut]


class ErrorOut(BaseModel):
    detail: str


class ChatReply(BaseModel):
    answer: str
    trace_id: str
    trace: dict[str, Any]
    actions: dict[str, Any]


class ContextReply(BaseModel):
    context: str
    trace: dict[str, Any]


class SearchHit(BaseModel):
    memory: MemoryOut
    score: float
    similarity: float
    components: dict[str, float]
