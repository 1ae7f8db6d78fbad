"""The REST API over HTTP semantics (ASGI client) against the real app and a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from memopilot import MemoPilot
from memopilot.server import create_app
from memopilot.server.keys import ApiKeyStore


@pytest.fixture
def client(mp: MemoPilot) -> Iterator[TestClient]:
    with TestClient(create_app(mp=mp)) as c:
        yield c


@pytest.fixture
def keyed(mp: MemoPilot) -> Iterator[tuple[TestClient, dict[str, str], dict[str, str]]]:
    keys = ApiKeyStore(mp.store)
    alice = {"Authorization": f"Bearer {keys.create('alice', now=mp.clock.now())}"}
    bob = {"Authorization": f"Bearer {keys.create('bob', now=mp.clock.now())}"}
    with TestClient(create_app(mp=mp)) as c:
        yield c, alice, bob


def test_health_and_local_mode(client: TestClient) -> None:
    body = client.get("/health").json()
    assert body["status"] == "ok" and body["mode"] == "local" and body["llm"] is False


def test_memory_crud_contract(client: TestClient) -> None:
    created = client.post(
        "/api/memories", json={"content": "I prefer tabs", "type": "preference", "tags": ["style"]}
    )
    assert created.status_code == 201
    memory = created.json()
    assert (
        memory["type"] == "preference" and memory["project_id"] == "default" and memory["user_id"] == "local"
    )
    memory_id = memory["id"]
    assert client.get(f"/api/memories/{memory_id}").json()["content"] == "I prefer tabs"

    patched = client.patch(
        f"/api/memories/{memory_id}", json={"content": "I prefer tabs (width 4)", "state": "pinned"}
    )
    assert patched.status_code == 200 and patched.json()["state"] == "pinned"
    page = client.get("/api/memories", params={"state": "pinned", "limit": 10}).json()
    assert set(page) == {"items", "total", "limit", "offset"} and page["total"] == 1
    assert (
        client.patch(f"/api/memories/{memory_id}", json={"state": "archived"}).json()["state"] == "archived"
    )
    assert client.patch(f"/api/memories/{memory_id}", json={"state": "active"}).json()["state"] == "active"

    history = client.get(f"/api/memories/{memory_id}/history").json()["events"]
    assert [e["kind"] for e in history] == ["created", "updated", "pinned", "archived", "restored"]

    tomb = client.delete(f"/api/memories/{memory_id}")
    assert tomb.status_code == 200 and tomb.json()["state"] == "deleted" and tomb.json()["content"] == ""
    assert client.get("/api/memories", params={"q": "tabs"}).json()["total"] == 0
    assert (
        client.get("/api/timeline", params={"kind": "deleted"}).json()["events"][0]["memory_id"] == memory_id
    )


def test_chat_context_search_and_traces(client: TestClient) -> None:
    reply = client.post(
        "/api/chat", json={"message": "We decided to use PostgreSQL for billing.", "session_id": "s"}
    )
    assert reply.status_code == 200
    body = reply.json()
    assert set(body) == {"answer", "trace_id", "trace", "actions"}
    assert body["actions"]["created"][0]["type"] == "decision"
    context = client.post("/api/context", json={"query": "Which database for billing?"}).json()
    assert "PostgreSQL" in context["context"]
    trace = client.get(f"/api/traces/{context['trace']['id']}").json()
    assert trace["included"][0]["content"] == "We decided to use PostgreSQL for billing."
    assert client.get("/api/traces").json()["items"][0]["id"] == context["trace"]["id"]
    results = client.get("/api/search", params={"q": "billing database"}).json()["results"]
    assert results[0]["memory"]["content"].startswith("We decided")
    assert client.get("/api/projects").json()["items"] == ["default"]


def test_maintenance_views_and_portability(client: TestClient) -> None:
    for text in ("I like tea", "I prefer dark mode", "I enjoy jazz music"):
        client.post("/api/memories", json={"content": text, "type": "preference"})
    report = client.post("/api/reflect", json={}).json()
    assert [s["type"] for s in report["summaries_created"]] == ["preference"]
    assert client.post("/api/forgetting/run").json() == {"expired": [], "archived": []}
    graph = client.get("/api/graph").json()
    assert any(n["shape"] == "star" for n in graph["nodes"])
    assert client.get("/api/analytics").json()["by_type"]["preference"] == 4
    exported = client.get("/api/export").json()
    assert len(exported["memories"]) == 4
    assert client.post("/api/import", json=exported).json()["skipped"] == 4


def test_reflect_through_the_api_reaches_user_wide_preferences(client: TestClient) -> None:
    """Chat stores preferences user-wide: the web app's Reflect (project given) must consolidate them."""
    for text in ("I like tea", "I prefer dark mode", "I enjoy jazz music"):
        client.post("/api/memories", json={"content": text, "type": "preference", "project_id": None})
    narrow = client.post("/api/reflect", json={"project_id": "default", "include_user_wide": False})
    assert narrow.json()["changed"] is False
    report = client.post("/api/reflect", json={"project_id": "default"}).json()
    assert [s["type"] for s in report["summaries_created"]] == ["preference"]


@pytest.mark.parametrize(
    ("method", "path", "payload", "status"),
    [
        ("post", "/api/memories", {"content": "x", "type": "wish"}, 422),
        ("post", "/api/memories", {"content": "x", "importance": 2}, 422),
        ("post", "/api/memories", {"content": ""}, 422),
        ("post", "/api/memories", {"content": "x" * 9000}, 413),
        ("post", "/api/memories", {"nonsense": True}, 422),
        ("get", "/api/memories/does-not-exist", None, 404),
        ("patch", "/api/memories/does-not-exist", {"state": "pinned"}, 404),
        ("get", "/api/traces/nope", None, 404),
        ("post", "/api/chat", {"message": ""}, 422),
        ("get", "/api/memories?limit=0", None, 422),
        ("get", "/api/timeline?kind=bogus", None, 422),
        ("post", "/api/import", {"format": "zip"}, 422),
    ],
)
def test_bad_requests_get_clear_json_errors(
    client: TestClient, method: str, path: str, payload, status: int
) -> None:
    response = getattr(client, method)(path, **({"json": payload} if payload is not None else {}))
    assert response.status_code == status, response.text
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]


def test_conflicts_answer_409(client: TestClient) -> None:
    memory_id = client.post("/api/memories", json={"content": "temp", "type": "task"}).json()["id"]
    client.delete(f"/api/memories/{memory_id}")
    response = client.patch(f"/api/memories/{memory_id}", json={"content": "again"})
    assert response.status_code == 409 and "forgotten" in response.json()["detail"]


def test_oversized_body_is_413(client: TestClient) -> None:
    response = client.post("/api/import", content=b"{" + b" " * 1_100_000 + b"}",
                           headers={"Content-Type": "application/json"})  # fmt: skip
    assert response.status_code == 413


def test_keys_isolate_users(keyed) -> None:
    client, alice, bob = keyed
    assert client.get("/api/memories").status_code == 401
    assert client.get("/api/memories", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/health").json()["mode"] == "keys"
    secret = client.post(
        "/api/memories", json={"content": "Alice's plan B", "type": "project"}, headers=alice
    ).json()
    assert secret["user_id"] == "alice"
    for method, path in (("get", ""), ("get", "/history"), ("patch", ""), ("delete", "")):
        kwargs = {"json": {"state": "pinned"}} if method == "patch" else {}
        response = getattr(client, method)(f"/api/memories/{secret['id']}{path}", headers=bob, **kwargs)
        assert response.status_code == 404 and "plan B" not in response.text
    # user_id in the request is not honoured once keys exist
    assert client.get("/api/memories", params={"user_id": "alice"}, headers=bob).json()["total"] == 0
    chat = client.post(
        "/api/chat", json={"message": "What is my plan?", "user_id": "alice"}, headers=bob
    ).json()
    assert "plan B" not in str(chat)
    assert client.get(f"/api/memories/{secret['id']}", headers=alice).json()["state"] == "active"


def test_rate_limit_answers_429_with_retry_after(mp: MemoPilot) -> None:
    strict = mp.settings.model_copy(update={"rate_limit_per_minute": 3})
    mp.settings = strict
    with TestClient(create_app(mp=mp)) as client:
        statuses = [client.get("/api/memories").status_code for _ in range(5)]
        assert statuses[:3] == [200, 200, 200] and statuses[-1] == 429
        limited = client.get("/api/memories")
        assert int(limited.headers["Retry-After"]) >= 1


def test_evaluation_endpoints_run_the_suite(client: TestClient) -> None:
    before = client.get("/api/eval/report")
    assert before.status_code == 200 and before.json()["ran"] is False and before.json()["strategies"] == {}
    bad = client.post("/api/eval/run", json={"strategies": ["telepathy"]})
    assert bad.status_code == 422 and "unknown strategies" in bad.json()["detail"]
    report = client.post("/api/eval/run", json={"strategies": ["memory", "no_memory"]}).json()
    assert set(report["strategies"]) == {"memory", "no_memory"}
    assert (
        report["strategies"]["memory"]["context_recall"] > report["strategies"]["no_memory"]["context_recall"]
    )
    assert len(report["scenarios"]) >= 160
    assert client.get("/api/eval/report").json()["strategies"] == report["strategies"]
    assert client.get("/api/memories").json()["total"] == 0  # the suite never touches user data


def test_a_session_transcript_comes_back_with_trace_ids_and_forgotten_messages_empty(
    client: TestClient,
) -> None:
    first = client.post("/api/chat", json={"message": "My dog is called Biscuit.", "session_id": "s1"}).json()
    second = client.post("/api/chat", json={"message": "What is my dog called?", "session_id": "s1"}).json()
    client.post("/api/chat", json={"message": "Another session entirely.", "session_id": "s2"})
    turns = client.get("/api/sessions/s1/turns").json()
    assert turns["session_id"] == "s1"
    items = turns["items"]
    assert [t["role"] for t in items] == ["user", "assistant", "user", "assistant"]
    assert items[0]["content"] == "My dog is called Biscuit."
    assert [t["trace_id"] for t in items] == [first["trace_id"]] * 2 + [second["trace_id"]] * 2
    assert client.get("/api/sessions/s1/turns", params={"limit": 2}).json()["items"] == items[2:]

    fact = first["actions"]["created"][0]
    client.delete(f"/api/memories/{fact['id']}")
    after = client.get("/api/sessions/s1/turns").json()["items"]
    assert after[0]["content"] == "" and "Biscuit" not in after[1]["content"]
    assert client.get("/api/sessions/nobody/turns").json()["items"] == []


def test_a_session_transcript_is_the_callers_own(keyed) -> None:
    client, alice, bob = keyed
    client.post("/api/chat", json={"message": "I like tea.", "session_id": "shared-name"}, headers=alice)
    assert client.get("/api/sessions/shared-name/turns", headers=bob).json()["items"] == []
    assert len(client.get("/api/sessions/shared-name/turns", headers=alice).json()["items"]) == 2


def test_forget_erases_logged_replies_that_quoted_the_memory(client: TestClient) -> None:
    memory = client.post("/api/memories", json={"content": "The project codename is bluefinch."}).json()
    client.post("/api/chat", json={"message": "What is the project codename?", "session_id": "s"})
    reply = client.get("/api/sessions/s/turns").json()["items"][1]
    assert "bluefinch" in reply["content"]  # the offline reply lists the memories it used
    client.delete(f"/api/memories/{memory['id']}")
    items = client.get("/api/sessions/s/turns").json()["items"]
    assert items[0]["content"] == "What is the project codename?"  # the question quoted nothing
    assert items[1]["content"] == ""
