"""No secret of the redaction corpus survives a full chat turn anywhere we can look.

Every message of ``tests/data/secret_messages.jsonl`` goes through ``POST /api/chat``: half with
no model (rule editor, offline reply), half with a loopback model whose editor reply copies the
whole message, secrets and all, into a proposed memory. Then the raw database storage, the log
records, the model's requests, the chat replies, every stored trace, the export and the error
messages that quote what the caller sent are scanned for each secret.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from memopilot import MemoPilot, Settings
from memopilot.server import create_app

from .llm_server import Reply, ScriptedLLM
from .reliability_helpers import raw_storage, secret_rows

ROWS = secret_rows()


def _needles(secret: str) -> list[bytes]:
    """The secret as stored text might hold it: raw, JSON-escaped, and each long line of it."""
    forms = {secret, json.dumps(secret)[1:-1]}
    forms |= {line.strip() for line in secret.splitlines() if len(line.strip()) >= 12}
    return sorted({f.encode() for f in forms})


def _found(needle: bytes, data: bytes) -> bool:
    if len(needle) >= 10:
        return needle in data
    # a short secret such as a 4-digit PIN also occurs inside ids and scores: match it as a token
    return re.search(rb"(?<![0-9A-Za-z])" + re.escape(needle) + rb"(?![0-9A-Za-z])", data) is not None


def _leaks(haystack: bytes | str, rows: list[dict]) -> list[str]:
    data = haystack.encode() if isinstance(haystack, str) else haystack
    return sorted({s for r in rows for s in r["secrets"] if any(_found(n, data) for n in _needles(s))})


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def test_no_secret_reaches_storage_logs_traces_exports_or_errors(
    db_url: str, embedder, clock, llm: ScriptedLLM, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    offline = Settings(database_url=db_url, rate_limit_per_minute=0)
    online = offline.model_copy(update={"llm_base_url": llm.base_url, "llm_api_key": "sk-local-test"})
    half = len(ROWS) // 2
    replies: list[str] = []
    for settings, rows in ((offline, ROWS[:half]), (online, ROWS[half:])):
        with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
            client = TestClient(create_app(mp=mp))
            for row in rows:
                copied = {"content": row["message"], "type": "preference", "tags": row["secrets"][:1]}
                llm.push(Reply("Noted."), json.dumps({"new_memories": [copied], "updates": [], "forget": []}))
                reply = client.post("/api/chat", json={"message": row["message"], "session_id": "s"})
                assert reply.status_code == 200, reply.text
                assert reply.json()["actions"]["redacted"] >= 1
                replies.append(reply.text)
                # Errors that quote the caller's input: a bad type, an unknown id.
                bad = client.post("/api/memories", json={"content": "x", "type": row["message"]})
                assert bad.status_code == 422
                replies.append(bad.text)
                missing = client.get(f"/api/memories/{quote(row['message'][:150], safe='')}")
                assert missing.status_code in (404, 422)
                replies.append(missing.text)
            traces = client.get("/api/traces", params={"limit": 200}).json()["items"]
            details = [client.get(f"/api/traces/{t['id']}").text for t in traces]
            export = client.get("/api/export").text
            memories = client.get("/api/memories", params={"limit": 1000}).json()
        assert len(traces) == min(200, half if settings is offline else len(ROWS))
        assert memories["total"] > 0  # the turns did write memories
    assert len(llm.requests) == 2 * (len(ROWS) - half)  # an answer and an editor call per turn

    assert _leaks(raw_storage(db_url), ROWS) == []
    # The server's and the engine's log records (not the test client's own request lines).
    logged = "\n".join(
        r.getMessage() + (r.exc_text or "") for r in caplog.records if "//testserver/" not in r.getMessage()
    )
    assert "chat/completions" in logged  # the model client's records are there
    assert _leaks(logged, ROWS) == []
    assert _leaks(json.dumps(llm.requests), ROWS) == []
    assert _leaks("\n".join(replies), ROWS) == []
    assert _leaks(json.dumps(traces) + "\n".join(details), ROWS) == []
    assert _leaks(export, ROWS) == []
    assert b"[REDACTED:" in raw_storage(db_url)
