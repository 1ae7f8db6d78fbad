"""The Memory Editor contract (SPEC section 5, step 2): one interface, two editors.

An editor reads one (already redacted) user message and the user's relevant existing
memories and answers with strict JSON::

    {"new_memories": [{"content", "type", "tags", "importance", "confidence",
                       "expires_at", "scope"}],
     "updates":      [{"id", "content"?, "type"?, "importance"?, "tags"?, "expires_at"?,
                       "supersede"?, "reason"}],
     "forget":       [{"id", "reason"}]}

validated with the pydantic models below. Editors: :class:`~memopilot.write.rule_editor.RuleEditor`
(offline, deterministic, the default) and :class:`~memopilot.write.llm_editor.LLMEditor`
(an OpenAI-compatible chat model, falling back to the rule editor on any failure).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..domain import Memory

__all__ = [
    "EditorContext",
    "EditorOutput",
    "EditorResult",
    "ForgetRequest",
    "MemoryEditor",
    "MemoryUpdate",
    "NewMemory",
]

# Types an editor may create; `episode`, `outdated` and `deleted_by_user` are the engine's own.
EditableType = Literal[
    "preference",
    "project",
    "decision",
    "mistake",
    "constraint",
    "deadline",
    "learning_goal",
    "fact",
    "task",
    "critical",
    "temporary",
]


class NewMemory(BaseModel):
    """One memory the message states."""

    model_config = ConfigDict(extra="ignore")

    content: str = Field(min_length=1, max_length=2000, description="the fact, in the user's words")
    type: EditableType
    tags: list[str] = Field(default_factory=list, max_length=16)
    importance: float | None = Field(default=None, ge=0, le=1)
    confidence: float = Field(default=0.8, ge=0, le=1)
    expires_at: datetime | None = Field(default=None, description="for temporary notes and deadlines")
    # "project": belongs to the active project; "user": holds in every project (e.g. a personal preference)
    scope: Literal["project", "user"] = "project"


class MemoryUpdate(BaseModel):
    """A change to an existing memory, named by its id."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=64)
    content: str | None = Field(default=None, min_length=1, max_length=2000)
    type: EditableType | None = None
    importance: float | None = Field(default=None, ge=0, le=1)
    tags: list[str] | None = Field(default=None, max_length=16)
    expires_at: datetime | None = None
    # True: the message makes this memory obsolete; it is superseded by the new memory
    # at `superseded_by_index` in new_memories (or just marked outdated when absent).
    supersede: bool = False
    superseded_by_index: int | None = Field(default=None, ge=0)
    reason: str = Field(default="", max_length=500)


class ForgetRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=64)
    reason: str = Field(default="", max_length=500)


class EditorOutput(BaseModel):
    """The strict JSON every editor answers with."""

    model_config = ConfigDict(extra="forbid")

    new_memories: list[NewMemory] = Field(default_factory=list, max_length=20)
    updates: list[MemoryUpdate] = Field(default_factory=list, max_length=20)
    forget: list[ForgetRequest] = Field(default_factory=list, max_length=20)


@dataclass(frozen=True, slots=True)
class EditorContext:
    """What an editor may know besides the message."""

    now: datetime
    user_id: str
    project_id: str | None
    existing: list[Memory] = field(default_factory=list)  # relevant active/pinned memories, best first


@dataclass(slots=True)
class EditorResult:
    output: EditorOutput
    editor: str  # "rules" or "llm:<model>"
    fallback_reason: str | None = None  # set when the LLM failed and the rules answered
    notes: list[str] = field(default_factory=list)


class MemoryEditor(ABC):
    name: str

    @abstractmethod
    def edit(self, message: str, context: EditorContext) -> EditorResult:
        """Turn one redacted user message into editor output. Must not raise on odd text."""
