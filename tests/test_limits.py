"""Limits answer with clear errors and change nothing: 413 for sizes, 422 for counts and ranges, 429 for rate.

413: the request body (MEMOPILOT_MAX_REQUEST_BYTES, announced or streamed), a memory's content
(MEMOPILOT_MAX_CONTENT_CHARS), a chat message or a question (MEMOPILOT_MAX_MESSAGE_CHARS).
422: tags (count, length), page sizes, ids, NUL characters, memories per user
(MEMOPILOT_MAX_MEMORIES_PER_USER). 429 with Retry-After: the per-user rate limit.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from memopilot import MemoPilot, Settings
from memopilot.server import create_app

from .reliability_helpers import bearer_headers, unlimited


@pytest.fixture
def client(mp: MemoPilot) -> Iterator[TestClient]:
    with TestClient(create_app(mp=unlimited(mp))) as c:
        yield c


def _error(response, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and all(w in detail for w in words), detail
    return detail


def test_request_body_over_the_limit_is_413_announced_or_streamed(client: TestClient) -> None:
    big = b'{"content": "' + b"x" * 1_000_100 + b'"}'
    json_type = {"Content-Type": "application/json"}
    _error(client.post("/api/memories", content=big, headers=json_type), 413, "1000000 bytes")

    def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
        for start in range(0, len(big), 65536):
            yield big[start : start + 65536]

    _error(client.post("/api/memories", content=chunks(), headers=json_type), 413, "1000000 bytes")
    small = b'{"content": "I prefer tabs"}'
    streamed = client.post("/api/memories", content=iter([small[:9], small[9:]]), headers=json_type)
    assert streamed.status_code == 201, streamed.text  # a streamed body under the limit goes through
    assert client.get("/api/memories").json()["total"] == 1


def test_text_over_its_limit_is_413_and_names_the_setting(client: TestClient) -> None:
    _error(client.post("/api/memories", json={"content": "x" * 8001}), 413, "8000", "MAX_CONTENT_CHARS")
    _error(client.post("/api/chat", json={"message": "x" * 32001}), 413, "32000", "MAX_MESSAGE_CHARS")
    _error(client.post("/api/context", json={"query": "x" * 32001}), 413, "MAX_MESSAGE_CHARS")
    _error(client.get("/api/search", params={"q": "x" * 32001}), 413, "MAX_MESSAGE_CHARS")
    memory_id = client.post("/api/memories", json={"content": "short"}).json()["id"]
    _error(client.patch(f"/api/memories/{memory_id}", json={"content": "y" * 8001}), 413, "8000")
    long_chat = client.post("/api/chat", json={"message": "I prefer tabs. " + "word " * 3000})
    assert long_chat.status_code == 200  # a message over the memory limit but under its own is fine
    assert client.get(f"/api/memories/{memory_id}").json()["content"] == "short"


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "words"),
    [
        ("post", "/api/memories", {"json": {"content": "x", "tags": [f"t{i}" for i in range(33)]}}, ["32"]),
        ("post", "/api/memories", {"json": {"content": "x", "tags": ["t" * 65]}}, ["64"]),
        ("get", "/api/memories", {"params": {"limit": 1001}}, ["limit"]),
        ("get", "/api/memories", {"params": {"limit": 0}}, ["limit"]),
        ("get", "/api/memories", {"params": {"offset": -1}}, ["offset"]),
        ("get", "/api/memories", {"params": {"offset": 10_000_001}}, ["offset"]),
        ("get", "/api/timeline", {"params": {"limit": 1001}}, ["limit"]),
        ("get", "/api/traces", {"params": {"limit": 201}}, ["limit"]),
        ("get", "/api/search", {"params": {"q": "x", "k": 101}}, ["k"]),
        ("get", "/api/graph", {"params": {"limit": 2001}}, ["limit"]),
        ("get", "/api/memories", {"params": {"project_id": "p" * 201}}, ["project_id"]),
        ("get", "/api/memories", {"params": {"user_id": "u" * 201}}, ["user_id"]),
        ("post", "/api/chat", {"json": {"message": "hi", "session_id": "s" * 201}}, ["session_id"]),
        ("post", "/api/memories", {"json": {"content": "a\x00b"}}, ["NUL"]),
        ("get", "/api/memories", {"params": {"q": "a\x00b"}}, ["NUL"]),
        ("get", "/api/memories", {"params": {"state": "active,bogus"}}, ["state"]),
        ("post", "/api/memories", {"json": {"content": "x", "expires_at": 1700000000}}, ["ISO 8601"]),
        ("post", "/api/memories", {"json": {"content": "x", "importance": "0.5"}}, ["importance"]),
        ("post", "/api/memories", {"json": {"content": "x", "occurred_at": "0001-01-01T00:00:00+05:00"}}, []),
    ],
)
def test_counts_ranges_and_shapes_are_422(client: TestClient, method: str, path: str, kwargs, words) -> None:
    _error(getattr(client, method)(path, **kwargs), 422, *words)
    assert client.get("/api/memories").json()["total"] == 0


def test_page_sizes_up_to_the_limits_work(client: TestClient) -> None:
    for path, params in (
        ("/api/memories", {"limit": 1000, "offset": 10_000_000}),
        ("/api/timeline", {"limit": 1000}),
        ("/api/traces", {"limit": 200}),
        ("/api/graph", {"limit": 2000}),
        ("/api/search", {"q": "tabs", "k": 100}),
    ):
        assert client.get(path, params=params).status_code == 200, path


def test_memories_per_user_limit_is_422_and_per_user(mp: MemoPilot) -> None:
    headers = bearer_headers(unlimited(mp, max_memories_per_user=3), ["alice", "bob"])
    alice, bob = headers["alice"], headers["bob"]
    with TestClient(create_app(mp=mp)) as client:
        ids = [
            client.post("/api/memories", json={"content": f"fact {i}"}, headers=alice).json()["id"]
            for i in range(3)
        ]
        _error(
            client.post("/api/memories", json={"content": "one more"}, headers=alice),
            422,
            "holds 3 memories",
            "limit is 3",
            "MEMOPILOT_MAX_MEMORIES_PER_USER",
        )
        assert client.post("/api/memories", json={"content": "bob's"}, headers=bob).status_code == 201
        # A chat turn still answers; the write path skips what would go over and says so.
        chat = client.post("/api/chat", json={"message": "I prefer dark mode."}, headers=alice)
        assert chat.status_code == 200 and chat.json()["actions"]["created"] == []
        assert any("limit is 3" in n for n in chat.json()["trace"]["turn"]["notes"])
        # An import over the limit is refused whole.
        document = client.get("/api/export", headers=bob).json()
        _error(client.post("/api/import", json=document, headers=alice), 422, "limit is 3")
        assert client.get("/api/memories", headers=alice).json()["total"] == 3
        # Forgotten memories do not count; archived ones do.
        client.patch(f"/api/memories/{ids[0]}", json={"state": "archived"}, headers=alice)
        assert client.post("/api/memories", json={"content": "x"}, headers=alice).status_code == 422
        client.delete(f"/api/memories/{ids[0]}", headers=alice)
        assert client.post("/api/memories", json={"content": "now it fits"}, headers=alice).status_code == 201


def test_memories_per_user_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.load().max_memories_per_user == 0  # unlimited by default
    monkeypatch.setenv("MEMOPILOT_MAX_MEMORIES_PER_USER", "500")
    assert Settings.load().max_memories_per_user == 500


def test_rate_limit_is_per_key_user_with_retry_after(mp: MemoPilot) -> None:
    headers = bearer_headers(unlimited(mp, rate_limit_per_minute=5), ["alice", "bob"])
    with TestClient(create_app(mp=mp)) as client:
        statuses = [client.get("/api/memories", headers=headers["alice"]).status_code for _ in range(6)]
        assert statuses == [200] * 5 + [429]
        limited = client.post("/api/memories", json={"content": "x"}, headers=headers["alice"])
        _error(limited, 429, "too many requests")
        assert 1 <= int(limited.headers["Retry-After"]) <= 12
        assert client.get("/api/memories", headers=headers["bob"]).status_code == 200  # bob is not slowed
        assert client.get("/api/memories", headers=headers["alice"]).json()["detail"]
        assert mp.list(user_id="alice").total == 0  # the refused write changed nothing
