"""The examples run for real: the chat loop against the loopback chat server, the REST client on a server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .llm_server import ScriptedLLM
from .test_client import _Server

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_chat_loop_example_adds_memory_to_a_model(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'loop.db'}"
    with ScriptedLLM() as llm:
        llm.push("Noted, tabs it is.", "You prefer tabs.")
        env = {**os.environ, "OPENAI_API_KEY": "sk-example"}
        proc = subprocess.run(
            [
                sys.executable,
                str(EXAMPLES / "chat_loop.py"),
                *("--base-url", llm.base_url, "--model", "m", "--db", db),
            ],
            input="I prefer tabs over spaces.\nHow should I indent my code?\n\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines() == ["Noted, tabs it is.", "You prefer tabs."]
        second = llm.requests[1]["messages"]
        assert second[-1]["content"].endswith("Message:\nHow should I indent my code?")
        assert '"I prefer tabs over spaces."' in second[-1]["content"]  # recalled from memory, fenced
        assert llm.requests[0]["auth"] == "Bearer sk-example"


def test_rest_client_example(mp) -> None:
    with _Server(mp) as server:
        proc = subprocess.run([sys.executable, str(EXAMPLES / "rest_client.py"), server.url],
                              capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "We decided to use PostgreSQL for billing." in proc.stdout


def test_mcp_config_snippet_is_valid() -> None:
    config = json.loads((EXAMPLES / "mcp_config.json").read_text())
    server = config["mcpServers"]["memopilot"]
    assert server["command"] == "memopilot" and "mcp" in server["args"]
