"""Keys and deletion: keys stored hashed and compared in constant time; deleting a user erases all of
their content (``DELETE /api/users/me``, ``memopilot delete-user``) and leaves content-free
tombstones; export then import round-trips to an identical set of memories.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memopilot import MemoPilot
from memopilot.server import create_app
from memopilot.server import keys as keys_module
from memopilot.server.keys import ApiKeyStore

from .reliability_helpers import bearer_headers, raw_storage, unlimited

ALICE_WORDS = ("Zorblatt", "Quintessa", "Vexmoor", "Plumbrick", "Tarragull")


def _fill(client: TestClient, headers: dict[str, str]) -> dict[str, Any]:
    """A user with every kind of content: memories in two projects, chat turns, a context, a summary."""
    made = [
        client.post("/api/memories", json=body, headers=headers).json()
        for body in (
            {"content": "I prefer the Zorblatt colour scheme", "type": "preference", "tags": ["Zorblatt"]},
            {"content": "I prefer Quintessa fonts in every editor", "type": "preference"},
            {"content": "I prefer Vexmoor keyboards", "type": "preference"},
            {"content": "The Vexmoor garden needs water", "type": "task", "project_id": "home"},
            {"content": "Never share the Plumbrick dataset", "type": "critical", "project_id": None},
        )
    ]
    chat = client.post(
        "/api/chat",
        json={"message": "We decided to use Tarragull for billing.", "session_id": "s1"},
        headers=headers,
    ).json()
    client.post(
        "/api/chat", json={"message": "Which Zorblatt scheme do I like?", "session_id": "s1"}, headers=headers
    )
    client.post("/api/context", json={"query": "What about Quintessa and Vexmoor?"}, headers=headers)
    reflect = client.post("/api/reflect", json={}, headers=headers).json()
    client.delete(f"/api/memories/{made[1]['id']}", headers=headers)  # one already forgotten
    return {"made": made, "chat": chat, "reflect": reflect}


def test_delete_me_erases_every_content_and_keeps_tombstones(mp: MemoPilot, db_url: str) -> None:
    headers = bearer_headers(unlimited(mp), ["alice", "bob"])
    alice, bob = headers["alice"], headers["bob"]
    with TestClient(create_app(mp=mp)) as client:
        filled = _fill(client, alice)
        assert filled["reflect"]["summaries_created"]  # a summary that quotes its sources exists
        bobs = client.post("/api/memories", json={"content": "Bob likes Zorblatt too"}, headers=bob).json()
        before = client.get("/api/memories", params={"limit": 1000}, headers=alice).json()

        report = client.delete("/api/users/me", headers=alice)
        assert report.status_code == 200, report.text
        counts = report.json()
        assert counts["user_id"] == "alice" and counts["keys_revoked"] == 0
        assert counts["tombstones"] == before["total"] and counts["memories_forgotten"] == before["total"] - 1
        assert counts["messages_erased"] >= 3  # two chat turns and one context question

        after = client.get("/api/memories", params={"limit": 1000}, headers=alice).json()
        assert {m["id"] for m in after["items"]} == {m["id"] for m in before["items"]}
        for tomb in after["items"]:
            assert tomb["state"] == "deleted" and tomb["content"] == "" and tomb["tags"] == []
            assert tomb["source_ids"] == []
        text = json.dumps(
            [
                client.get("/api/timeline", params={"limit": 1000}, headers=alice).json(),
                client.get("/api/export", headers=alice).json(),
                client.get("/api/traces", params={"limit": 200}, headers=alice).json(),
                client.get("/api/graph", headers=alice).json(),
                client.get("/api/search", params={"q": "Zorblatt Quintessa"}, headers=alice).json(),
            ]
        )
        assert not [w for w in ALICE_WORDS if w in text]
        traces = client.get("/api/traces", params={"limit": 200}, headers=alice).json()["items"]
        assert len(traces) == 3 and all(t["query"] == "" for t in traces)
        assert all(t["content"] == "" for t in mp.store.recent_turns("alice", "s1", 10))
        kinds = [
            e["kind"]
            for e in client.get("/api/timeline", params={"limit": 1000}, headers=alice).json()["events"]
        ]
        assert kinds[0] == "deleted"  # the user-level record of the erasure, newest first

        # Bob is untouched; alice's key still works (she can start over) unless she revokes it.
        assert (
            client.get(f"/api/memories/{bobs['id']}", headers=bob).json()["content"]
            == "Bob likes Zorblatt too"
        )
        assert client.get("/api/memories", headers=alice).status_code == 200
        assert client.post("/api/memories", json={"content": "fresh start"}, headers=alice).status_code == 201
        again = client.delete("/api/users/me", params={"revoke_keys": "true"}, headers=alice).json()
        assert again["keys_revoked"] == 1 and again["memories_forgotten"] == 1
        assert client.get("/api/memories", headers=alice).status_code == 401
        assert client.get("/api/memories", headers=bob).status_code == 200

    raw = raw_storage(db_url)
    assert not [w for w in ALICE_WORDS if w.encode() in raw and w != "Zorblatt"]
    assert raw.count(b"Zorblatt") >= 1  # bob's memory still says it


@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_delete_user_command(mp: MemoPilot, db_url: str) -> None:
    headers = bearer_headers(unlimited(mp), ["alice"])
    with TestClient(create_app(mp=mp)) as client:
        _fill(client, headers["alice"])
    mp.close()

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "memopilot", "--db", db_url, "delete-user", "--user", "alice", *args],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )

    refused = cli()
    assert refused.returncode == 1 and "--yes" in refused.stderr and "Traceback" not in refused.stderr
    done = cli("--yes", "--revoke-keys", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["user_id"] == "alice" and report["keys_revoked"] == 1
    assert report["memories_forgotten"] == report["tombstones"] - 1 >= 5  # one was forgotten before
    assert not [w for w in ALICE_WORDS if w.encode() in raw_storage(db_url)]
    with MemoPilot.open(db_url) as reopened:
        assert not ApiKeyStore(reopened.store).any()
        assert reopened.list(user_id="alice", limit=100).total == report["tombstones"]
        assert all(m.content == "" for m in reopened.list(user_id="alice", limit=100).items)


def test_keys_are_stored_hashed_and_compared_in_constant_time(
    mp: MemoPilot, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ApiKeyStore(mp.store)
    keys = [store.create(f"user{i}", now=mp.clock.now()) for i in range(5)]
    raw = raw_storage(db_url)
    for key in keys:
        assert key.encode() not in raw and key[3:20].encode() not in raw
        assert hashlib.sha256(key.encode()).hexdigest().encode() in raw
    calls: list[tuple[str, str]] = []
    real = keys_module.hmac.compare_digest

    def counting(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(keys_module.hmac, "compare_digest", counting)
    for presented, expected in ((keys[0], "user0"), (keys[4], "user4"), ("mp_wrong", None)):
        calls.clear()
        assert store.user_for(presented) == expected
        # every stored digest is compared, whichever matches (no early exit), with hmac.compare_digest
        assert len(calls) == 5 and {len(a) for a, _ in calls} == {64}


def _normalised(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The memories of an export without who holds them and under which ids."""
    memories = sorted(document["memories"], key=lambda m: (m["created_at"], m["content"], m["type"]))
    alias = {m["id"]: f"m{i}" for i, m in enumerate(memories)}
    out = []
    for m in memories:
        fields = {k: v for k, v in m.items() if k not in ("id", "user_id")}
        for ref in ("supersedes", "superseded_by"):
            fields[ref] = alias.get(fields[ref], fields[ref])
        fields["source_ids"] = [alias.get(s, s) for s in fields["source_ids"]]
        out.append(fields)
    return out


def test_export_then_import_round_trips_to_an_identical_set_of_memories(mp: MemoPilot) -> None:
    headers = bearer_headers(unlimited(mp), ["alice", "restored"])
    with TestClient(create_app(mp=mp)) as client:
        _fill(client, headers["alice"])
        switch = {"message": "Actually, we switched from Tarragull to Oxbow for billing."}
        client.post("/api/chat", json=switch, headers=headers["alice"])
        exported = client.get("/api/export", headers=headers["alice"]).json()
        assert {m["state"] for m in exported["memories"]} >= {"active", "deleted", "superseded"}
        imported = client.post("/api/import", json=exported, headers=headers["restored"])
        assert imported.status_code == 200, imported.text
        assert imported.json()["imported"] == len(exported["memories"])
        again = client.get("/api/export", headers=headers["restored"]).json()
        assert again["user_id"] == "restored"
        assert _normalised(again) == _normalised(exported)
        # Importing the same document again changes nothing.
        assert client.post("/api/import", json=again, headers=headers["restored"]).json()["skipped"] == len(
            again["memories"]
        )
        assert _normalised(client.get("/api/export", headers=headers["restored"]).json()) == _normalised(
            exported
        )
