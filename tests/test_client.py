"""The Python clients against the real server over HTTP on loopback."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import anyio
import pytest
import uvicorn

from memopilot import (
    AsyncClient,
    AuthenticationError,
    Client,
    ConflictError,
    InvalidInputError,
    MemoPilot,
    NotFoundError,
    RateLimitedError,
)
from memopilot.server import create_app
from memopilot.server.keys import ApiKeyStore


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    def __init__(self, mp: MemoPilot) -> None:
        self.port = _free_port()
        config = uvicorn.Config(create_app(mp=mp), host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> _Server:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)


@pytest.fixture
def server(mp: MemoPilot) -> Iterator[_Server]:
    with _Server(mp) as running:
        yield running


def test_sync_client_covers_the_api(server: _Server) -> None:
    with Client(server.url) as client:
        assert client.health()["status"] == "ok"
        memory = client.add("We decided to use PostgreSQL for billing.", type="decision")
        assert memory.type == "decision" and memory.project_id == "default"
        assert client.get(memory.id).content == memory.content
        assert client.pin(memory.id).state == "pinned"
        assert client.unpin(memory.id).state == "active"
        assert client.list(state="active").total == 1
        hits = client.search("billing database")
        assert hits[0].memory.id == memory.id and hits[0].components["semantic"] > 0
        context = client.context("Which database do we use for billing?")
        assert "PostgreSQL" in context.context and context.trace["included"]
        reply = client.chat("I prefer dark mode in every editor.")
        assert reply.actions["created"][0]["type"] == "preference"
        assert client.trace(reply.trace_id)["id"] == reply.trace_id
        assert [e.kind for e in client.history(memory.id).events] == ["created", "pinned", "unpinned"]
        assert client.forget(memory.id).state == "deleted"
        assert client.analytics()["by_state"]["deleted"] == 1
        with pytest.raises(NotFoundError):
            client.get("missing")
        with pytest.raises(ConflictError):
            client.update(memory.id, content="again")
        with pytest.raises(InvalidInputError) as bad:
            client.add("x", type="wish")
        assert bad.value.status == 422 and "unknown memory type" in bad.value.detail


def test_async_client(server: _Server) -> None:
    async def scenario() -> list[str]:
        async with AsyncClient(server.url) as client:
            made = await client.add("I prefer tabs over spaces", type="preference")
            page = await client.list()
            hits = await client.search("tabs")
            return [made.id, page.items[0].id, hits[0].memory.id]

    ids = anyio.run(scenario)
    assert len(set(ids)) == 1


def test_api_key_auth(mp: MemoPilot) -> None:
    key = ApiKeyStore(mp.store).create("alice", now=mp.clock.now())
    with _Server(mp) as running:
        with Client(running.url) as anonymous, pytest.raises(AuthenticationError):
            anonymous.list()
        with Client(running.url, api_key=key) as alice:
            assert alice.add("Alice likes chess", type="preference").user_id == "alice"


def test_429_is_retried_after_retry_after(mp: MemoPilot) -> None:
    mp.settings = mp.settings.model_copy(update={"rate_limit_per_minute": 60})
    with _Server(mp) as running:
        with Client(running.url, max_retries=0) as impatient:
            statuses = []
            for _ in range(70):
                try:
                    impatient.health()
                    impatient.list(limit=1)
                    statuses.append(200)
                except RateLimitedError as exc:
                    statuses.append(exc.status)
                    break
            assert statuses[-1] == 429
        with Client(running.url, max_retries=3) as patient:
            started = time.monotonic()
            assert patient.list(limit=1).limit == 1  # waited for Retry-After, then succeeded
            assert time.monotonic() - started >= 0.9
