"""The MCP server spawned as a real process and driven by the SDK's own stdio client."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

EXPECTED_TOOLS = {"remember", "recall", "search", "forget", "pin", "unpin", "list_memories", "history"}


async def _session_run(db: str) -> dict:
    params = StdioServerParameters(command=sys.executable, args=["-m", "memopilot", "--db", db, "mcp"])
    seen: dict = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        seen["tools"] = {t.name for t in tools.tools}

        async def call(name: str, **args: object) -> dict:
            result = await session.call_tool(name, args)
            seen.setdefault("errors", {})[name] = result.is_error
            return (
                json.loads(result.content[0].text)
                if not result.is_error
                else {"error": result.content[0].text}
            )

        remembered = await call("remember", content="I prefer tabs over spaces. We decided to use Postgres.")
        seen["remembered"] = remembered
        ids = [m["id"] for m in remembered["created"]]
        seen["recall"] = await call("recall", query="Which database did we pick?")
        seen["search"] = await call("search", query="tabs")
        seen["pin"] = await call("pin", memory_id=ids[0])
        seen["unpin"] = await call("unpin", memory_id=ids[0])
        seen["list"] = await call("list_memories")
        seen["history"] = await call("history", memory_id=ids[0])
        seen["forget"] = await call("forget", memory_id=ids[1], cascade=True)
        seen["other_user"] = await call("list_memories", user_id="someone-else")
        seen["bad"] = await call("forget", memory_id="no-such-id")
    return seen


def test_every_tool_over_stdio(tmp_path: Path) -> None:
    seen = anyio.run(_session_run, f"sqlite:///{tmp_path / 'mcp.db'}")
    assert seen["tools"] >= EXPECTED_TOOLS
    assert {m["type"] for m in seen["remembered"]["created"]} == {"preference", "decision"}
    assert "Postgres" in seen["recall"]["context"] and seen["recall"]["trace"]["included"]
    assert seen["search"]["results"][0]["memory"]["content"].startswith("I prefer tabs")
    assert seen["pin"]["state"] == "pinned" and seen["unpin"]["state"] == "active"
    assert seen["list"]["total"] == 3  # two typed memories and the message kept as an episode
    (episode,) = seen["remembered"]["episodes"]
    assert [e["kind"] for e in seen["history"]["events"]] == ["created", "pinned", "unpinned"]
    assert seen["forget"]["state"] == "deleted" and seen["forget"]["content"] == ""
    # cascade: the message it came from, and the other memory taken only from that message
    preference = next(m["id"] for m in seen["remembered"]["created"] if m["type"] == "preference")
    assert sorted(seen["forget"]["also_forgotten"]) == sorted([episode["id"], preference])
    assert seen["other_user"]["total"] == 0
    assert "no memory 'no-such-id'" in seen["bad"]["error"]
