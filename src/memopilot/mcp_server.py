"""``memopilot mcp``: the memory layer as MCP tools over stdio (official ``mcp`` SDK).

Tools (SPEC Contracts): ``remember(content)``, ``recall(query)``, ``search(query)``,
``forget(memory_id)``, ``pin(memory_id)``, ``unpin(memory_id)``, ``list_memories()``,
``history(memory_id)``. Each also takes optional ``user_id`` and ``project_id``; the
defaults come from the server's options (a single local user). Results are text
holding JSON; a mistake (unknown id, bad input) comes back as a tool error with the
same clear message the CLI prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from .engine.facade import DEFAULT_PROJECT, DEFAULT_USER, MemoPilot
from .errors import MemoPilotError

__all__ = ["build_mcp_server"]

T = TypeVar("T")
_SHORT_TRACE_ITEMS = 10


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)


def _guard(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except MemoPilotError as exc:
        raise ToolError(str(exc)) from None


def build_mcp_server(
    mp: MemoPilot, *, user_id: str = DEFAULT_USER, project_id: str | None = DEFAULT_PROJECT
) -> MCPServer:
    server = MCPServer(
        name="memopilot",
        instructions=(
            "Long-term memory for this user. Call recall(query) before answering questions that may depend "
            "on earlier conversations, remember(content) when the user states a preference, decision, "
            "deadline, constraint or other lasting fact, and forget(memory_id) only when the user asks."
        ),
    )

    def scope(user: str | None, project: str | None) -> tuple[str, str | None]:
        return user or user_id, project or project_id

    @server.tool()
    def remember(content: str, user_id: str | None = None, project_id: str | None = None) -> str:
        """Store what a user message says worth remembering (secrets are redacted first)."""
        user, project = scope(user_id, project_id)
        outcome = _guard(lambda: mp.remember(content, user_id=user, project_id=project))
        return _json({**outcome.actions(), "editor": outcome.editor, "notes": outcome.notes})

    @server.tool()
    def recall(
        query: str,
        user_id: str | None = None,
        project_id: str | None = None,
        budget_tokens: int | None = None,
    ) -> str:
        """The memory context for a question, within a token budget, with a short trace."""
        user, project = scope(user_id, project_id)
        result = _guard(
            lambda: mp.build_context(query, user_id=user, project_id=project, budget_tokens=budget_tokens)
        )
        trace = result.trace
        short = {
            "id": trace.id,
            "used_tokens": trace.used_tokens,
            "budget_tokens": trace.budget_tokens,
            "candidates": trace.candidates_considered,
            "latency_ms": trace.latency_ms.get("total"),
            "included": [
                {"memory_id": i.memory_id, "type": i.type, "score": i.score, "reason": i.reason}
                for i in trace.included[:_SHORT_TRACE_ITEMS]
            ],
            "skipped": len(trace.skipped),
        }
        return _json({"context": result.text, "trace": short})

    @server.tool()
    def search(query: str, k: int = 10, user_id: str | None = None, project_id: str | None = None) -> str:
        """The best-scoring memories for a query, with their score breakdown."""
        user, project = scope(user_id, project_id)
        results = _guard(lambda: mp.search(query, user_id=user, project_id=project, k=k))
        return _json({"results": [r.to_dict() for r in results]})

    @server.tool()
    def forget(
        memory_id: str, cascade: bool = False, user_id: str | None = None, project_id: str | None = None
    ) -> str:
        """The user's Forget: erase a memory's content, keeping a content-free tombstone. What came
        only from it goes too; cascade=true also forgets its source episode (the message it came
        from) and what came only from that. also_forgotten lists the other ids."""
        user = scope(user_id, project_id)[0]
        tombstone, others = _guard(lambda: mp.forget_report(memory_id, user_id=user, cascade=cascade))
        return _json({**tombstone.to_dict(), "also_forgotten": others})

    @server.tool()
    def pin(memory_id: str, user_id: str | None = None, project_id: str | None = None) -> str:
        """Pin a memory: it is always considered first for the context."""
        return _json(_guard(lambda: mp.pin(memory_id, user_id=scope(user_id, project_id)[0])).to_dict())

    @server.tool()
    def unpin(memory_id: str, user_id: str | None = None, project_id: str | None = None) -> str:
        """Unpin a memory."""
        return _json(_guard(lambda: mp.unpin(memory_id, user_id=scope(user_id, project_id)[0])).to_dict())

    @server.tool()
    def list_memories(
        user_id: str | None = None,
        project_id: str | None = None,
        type: str | None = None,
        state: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> str:
        """Memories of the project (and user-wide ones), newest first."""
        user, project = scope(user_id, project_id)
        page = _guard(
            lambda: mp.list(
                user_id=user,
                project_id=project,
                limit=limit,
                offset=offset,
                types=type.split(",") if type else None,
                states=state.split(",") if state else None,
            )
        )
        return _json(page.to_dict())

    @server.tool()
    def history(memory_id: str, user_id: str | None = None, project_id: str | None = None) -> str:
        """The timeline events of one memory, oldest first."""
        events = _guard(lambda: mp.history(memory_id, user_id=scope(user_id, project_id)[0]))
        return _json({"events": [e.to_dict() for e in events]})

    return server
