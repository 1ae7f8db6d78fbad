"""The findings of the outside security review (issue 15), each pinned by a test that failed
before its fix. Store-backed tests run on every backend (see conftest)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from memopilot import MemoPilot
from memopilot.server import create_app
from memopilot.server.keys import ApiKeyStore


def _keyed_app(mp: MemoPilot) -> tuple[TestClient, str]:
    key = ApiKeyStore(mp.store).create("alice", now=mp.clock.now())
    return TestClient(create_app(mp=mp)), key


# --- 1. a keyed server never becomes keyless -------------------------------------------------
def test_revoking_the_last_key_never_opens_a_keyed_server(mp: MemoPilot) -> None:
    mp.add("Alice's bank is in Zurich", user_id="alice", type="project")
    client, key = _keyed_app(mp)
    alice = {"Authorization": f"Bearer {key}"}
    with client:
        assert client.get("/api/export", headers=alice).status_code == 200
        wiped = client.delete("/api/users/me", params={"revoke_keys": "true"}, headers=alice)
        assert wiped.status_code == 200 and wiped.json()["keys_revoked"] == 1
        assert not ApiKeyStore(mp.store).any()
        for path in ("/api/export?user_id=alice", "/api/memories?user_id=alice", "/api/timeline"):
            assert client.get(path).status_code == 401
        assert client.get("/api/export", headers=alice).status_code == 401
        assert client.get("/health").json()["mode"] == "keys"


def test_revoking_every_key_from_the_cli_side_keeps_the_server_keyed(mp: MemoPilot) -> None:
    mp.add("Alice's bank is in Zurich", user_id="alice", type="project")
    client, _ = _keyed_app(mp)
    with client:
        store = ApiKeyStore(mp.store)
        assert store.revoke(store.list()[0].key_id)
        response = client.get("/api/export", params={"user_id": "alice"})
        assert response.status_code == 401 and "Zurich" not in response.text


def test_auth_setting_fixes_the_mode(mp: MemoPilot, monkeypatch: pytest.MonkeyPatch) -> None:
    mp.settings = mp.settings.model_copy(update={"auth": "keys"})
    with TestClient(create_app(mp=mp)) as client:  # keys mode with no key at all: closed
        assert client.get("/health").json()["mode"] == "keys"
        assert client.get("/api/memories").status_code == 401
    mp.settings = mp.settings.model_copy(update={"auth": None})
    with TestClient(create_app(mp=mp)) as client:  # no key at start: local mode ...
        assert client.get("/api/memories").status_code == 200
        ApiKeyStore(mp.store).create("bob", now=mp.clock.now())
        # ... for the life of the process: a key created now counts from the next start
        assert client.get("/health").json()["mode"] == "local"
    with TestClient(create_app(mp=mp)) as client:
        assert client.get("/health").json()["mode"] == "keys"
        assert client.get("/api/memories").status_code == 401


@pytest.fixture
def local_client(mp: MemoPilot) -> Iterator[TestClient]:
    with TestClient(create_app(mp=mp)) as client:
        yield client
