"""Request and response models of the REST API (SPEC Contracts), shared by the server and the client.

Separate models per use: ``*Request``/``MemoryCreate``/``MemoryUpdate`` for what clients send,
``*Out`` and the reply models for what the server answers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from .domain import MemoryType

__all__ = [
    "ChatReply",
    "ChatRequest",
    "ContextReply",
    "ContextRequest",
    "ErrorOut",
    "EvalRunRequest",
    "EventsOut",
    "ForgettingOut",
    "HealthOut",
    "ImportOut",
    "ItemsOut",
    "MemoryCreate",
    "MemoryOut",
    "MemoryPage",
    "MemoryUpdate",
    "ReflectRequest",
    "ReflectionOut",
    "SearchHit",
    "SearchOut",
    "UserDeletionOut",
]

_ID = Field(default=None, max_length=200)


def _iso_text(value: Any) -> Any:
    if isinstance(value, str | datetime) or value is None:
        return value
    raise ValueError("must be an ISO 8601 date-time string")


# A time in a request: ISO 8601 text only (strict models would refuse text, lax ones take numbers).
IsoTime = Annotated[datetime, Field(strict=False), BeforeValidator(_iso_text)]


class _Strict(BaseModel):
    # strict: no lax coercions ("0.5" for a number, 1700000000 for a time): what the schema says
    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        """No text may hold a NUL character (databases refuse or truncate it)."""
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(t, str) and "\x00" in t for t in texts):
            raise ValueError("contains a NUL character")
        return value


class ChatRequest(_Strict):
    message: str = Field(min_length=1, description="the user's message")
    user_id: str | None = Field(default=None, max_length=200, description="honoured in local mode only")
    project_id: str | None = _ID
    session_id: str | None = _ID


class MemoryCreate(_Strict):
    content: str = Field(min_length=1)
    type: str | None = Field(
        default=None,
        description="memory type; default: the rule classifier's, else episode",
        json_schema_extra={"enum": [*(t.value for t in MemoryType), None]},
    )
    tags: list[str] | None = None
    importance: float | None = Field(default=None, ge=0, le=1)
    confidence: float | None = Field(default=None, ge=0, le=1)
    privacy: Literal["normal", "private", "sensitive"] = "normal"
    state: Literal["active", "pinned", "archived"] = "active"
    project_id: str | None = Field(default="default", max_length=200, description="null = user-wide")
    expires_at: IsoTime | None = None
    occurred_at: IsoTime | None = None
    user_id: str | None = Field(default=None, max_length=200, description="honoured in local mode only")


class MemoryUpdate(_Strict):
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"minProperties": 1})

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
    # the project's memories and the user-wide ones it sees (false: the project's alone)
    include_user_wide: bool = True


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


class ForgottenOut(MemoryOut):
    """The tombstone of a Forget, and the other memories forgotten with it."""

    also_forgotten: list[str] = []


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


class SearchOut(BaseModel):
    results: list[SearchHit]


class ItemsOut(BaseModel):
    """A plain list: project ids, stored traces."""

    items: list[Any]


class TurnOut(BaseModel):
    role: str  # user | assistant
    content: str  # empty once forgotten
    message_id: str | None
    at: str
    trace_id: str | None


class SessionTurnsOut(BaseModel):
    session_id: str
    items: list[TurnOut]


class HealthOut(BaseModel):
    status: str
    version: str
    mode: Literal["local", "keys"]
    llm: bool


class ReflectionOut(BaseModel):
    merged: list[dict[str, Any]]
    promoted: list[str]
    summaries_created: list[dict[str, Any]]
    summaries_refreshed: list[dict[str, Any]]
    summaries_retired: list[str]
    changed: bool


class ForgettingOut(BaseModel):
    expired: list[str]
    archived: list[str]


class ImportOut(BaseModel):
    imported: int
    skipped: int = Field(description="already present in the calling user")
    renamed: int = Field(description="imported under an id other than the document's")
    events: int
    rejected: list[dict[str, Any]] = Field(
        description='records refused by the API\'s checks: {"kind": "memory"|"event", "index", "reason"}'
    )


class UserDeletionOut(BaseModel):
    """What ``DELETE /api/users/me`` erased (counts only)."""

    user_id: str
    memories_forgotten: int = Field(description="memories whose content was erased now")
    tombstones: int = Field(description="content-free records the user now has")
    messages_erased: int = Field(description="logged messages and trace questions erased")
    keys_revoked: int = Field(description="API keys revoked (only with revoke_keys=true)")


class EvalRunRequest(_Strict):
    strategies: list[str] | None = Field(default=None, max_length=10, description="default: all five")
