"""Tenant isolation: random operations through the HTTP API by three API keys, two projects each.

A hypothesis state machine drives create, chat, search, list, get, patch, pin, Forget, reflect,
context, export, graph, analytics, timeline, history, traces and user deletion, sometimes aimed
at another user's ids or words; hostile import documents (another user's ids as record ids and
as a summary's sources, duplicate ids); key revocation, of one user's keys and of every key; and
reads of another user's words right after that user's Forget. Every text a user writes carries
that user's own marker word, so the invariant can be read off each raw response body: it never
holds another user's marker (content) or memory id, every memory it lists is the caller's, and
project-scoped answers hold only that project's and user-wide memories.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from memopilot import MemoPilot
from memopilot.server import create_app
from memopilot.server.keys import ApiKeyStore

from .reliability_helpers import bearer_headers, unlimited

# Examples of the state machine per run: the CI profile; RELIABILITY.md's full run sets it to 300.
EXAMPLES = int(os.environ.get("ISOLATION_EXAMPLES", "30"))
USERS = ("alice", "bob", "carol")
MARKERS = {"alice": "aardvark", "bob": "bisonette", "carol": "caracal"}  # one word per user, nowhere else
PROJECTS = {u: (f"{u}-work", f"{u}-home") for u in USERS}
CHAT_TEMPLATES = (
    "I prefer {w} mode in every editor.",
    "We decided to use {w} for billing.",
    "The {w} report is due next Friday.",
    "Never deploy the {w} service on Fridays.",
    "Actually, we switched from {w} to {w}x for billing.",
    "What do you know about {w}?",
)
MEMORY_TYPES = ("preference", "decision", "project", "critical", "task", None)

users = st.sampled_from(USERS)
picks = st.integers(min_value=0, max_value=2**16)  # an index into ids seen so far (drawn unconditionally)
project_slots = st.sampled_from((0, 1, None))  # None: user-wide


@dataclass
class World:
    """What the machine has seen, across examples: the database keeps growing between them."""

    client: TestClient
    headers: dict[str, dict[str, str]]
    keys: ApiKeyStore
    ids: dict[str, set[str]] = field(default_factory=lambda: {u: set() for u in USERS})
    traces: dict[str, set[str]] = field(default_factory=lambda: {u: set() for u in USERS})
    requests: int = 0
    counter: int = 0

    def word(self, user: str) -> str:
        self.counter += 1
        return f"{MARKERS[user]}{self.counter}"

    def call(self, user: str, method: str, path: str, *, probing: bool = False, **kwargs: Any) -> Any:
        response = self.client.request(method, path, headers=self.headers[user], **kwargs)
        self.requests += 1
        assert response.status_code < 500, (method, path, response.text)
        self.check_text(user, response.text, probing=probing)
        return response

    def check_text(self, user: str, text: str, *, probing: bool = False) -> None:
        for other in USERS:
            if other == user:
                continue
            assert MARKERS[other] not in text, f"{user} saw {other}'s content: {text[:300]}"
            if not probing:  # a 404 for a probed id names the id the caller sent
                leaked = [i for i in self.ids[other] if i in text]
                assert not leaked, f"{user} saw {other}'s memory ids {leaked[:3]}"

    def own(self, user: str, memory: dict[str, Any]) -> None:
        """Register a memory a response gave ``user``: it must be theirs and no one else's."""
        assert memory["user_id"] == user, memory
        for other in USERS:
            assert other == user or memory["id"] not in self.ids[other], memory["id"]
        self.ids[user].add(memory["id"])


def _pick(ids: set[str], index: int) -> str | None:
    return sorted(ids)[index % len(ids)] if ids else None


def _in_scope(project_id: str | None, asked: str | None) -> bool:
    return asked is None or project_id in (asked, None)


class Isolation(RuleBasedStateMachine):
    world: World  # set by the test before the machine runs

    @initialize()
    def start(self) -> None:
        self.w = type(self).world

    def _project(self, user: str, slot: int | None) -> str | None:
        return None if slot is None else PROJECTS[user][slot]

    @rule(user=users, slot=project_slots, kind=st.sampled_from(MEMORY_TYPES), pinned=st.booleans())
    def create(self, user: str, slot: int | None, kind: str | None, pinned: bool) -> None:
        word = self.w.word(user)
        body = {
            "content": f"Remember the {word} plan for the quarter.",
            "tags": [word, "plan"],
            "project_id": self._project(user, slot),
            "state": "pinned" if pinned else "active",
        }
        if kind:
            body["type"] = kind
        response = self.w.call(user, "POST", "/api/memories", json=body)
        assert response.status_code == 201, response.text
        memory = response.json()
        assert memory["project_id"] == body["project_id"]
        self.w.own(user, memory)

    @rule(
        user=users,
        slot=project_slots,
        template=st.sampled_from(CHAT_TEMPLATES),
        session=st.sampled_from("ab"),
    )
    def chat(self, user: str, slot: int | None, template: str, session: str) -> None:
        project = self._project(user, slot)
        message = template.format(w=self.w.word(user))
        body = {"message": message, "project_id": project, "session_id": f"{user}-{session}"}
        reply = self.w.call(user, "POST", "/api/chat", json=body).json()
        for memory in reply["actions"]["created"] + reply["actions"]["updated"]:
            self.w.own(user, memory)
        self._check_trace(user, reply["trace"], project)
        self.w.traces[user].add(reply["trace_id"])

    def _check_trace(self, user: str, trace: dict[str, Any], project: str | None) -> None:
        assert trace["user_id"] == user
        for item in trace["included"] + trace["skipped"]:
            assert item["memory_id"] in self.w.ids[user] or not any(
                item["memory_id"] in self.w.ids[o] for o in USERS
            )
            assert item["project_id"] in (project or "default", None), (item, project)

    @rule(user=users, slot=project_slots, probe=st.booleans())
    def search(self, user: str, slot: int | None, probe: bool) -> None:
        project = self._project(user, slot)
        target = next(o for o in USERS if o != user) if probe else user
        q = f"{MARKERS[target]} plan billing editor"
        params = {"q": q} | ({"project_id": project} if project else {})
        results = self.w.call(user, "GET", "/api/search", params=params, probing=probe).json()["results"]
        for hit in results:
            self.w.own(user, hit["memory"])
            assert _in_scope(hit["memory"]["project_id"], project or "default")

    @rule(
        user=users, slot=project_slots, state=st.sampled_from((None, "active", "pinned,archived", "deleted"))
    )
    def list_memories(self, user: str, slot: int | None, state: str | None) -> None:
        project = self._project(user, slot)
        params = (
            {"limit": 1000}
            | ({"project_id": project} if project else {})
            | ({"state": state} if state else {})
        )
        page = self.w.call(user, "GET", "/api/memories", params=params).json()
        for memory in page["items"]:
            self.w.own(user, memory)
            assert _in_scope(memory["project_id"], project)

    @rule(user=users, slot=project_slots)
    def context(self, user: str, slot: int | None) -> None:
        project = self._project(user, slot)
        body = {"query": f"What is the {MARKERS[user]} plan?", "project_id": project}
        reply = self.w.call(user, "POST", "/api/context", json=body).json()
        self._check_trace(user, reply["trace"], project)
        self.w.traces[user].add(reply["trace"]["id"])

    @rule(user=users, other=users, pick=picks)
    def get_one(self, user: str, other: str, pick: int) -> None:
        memory_id = _pick(self.w.ids[other], pick)
        if memory_id is None:
            return
        for path in (f"/api/memories/{memory_id}", f"/api/memories/{memory_id}/history"):
            response = self.w.call(user, "GET", path, probing=user != other)
            assert response.status_code == (200 if user == other else 404), response.text

    @rule(
        user=users,
        other=users,
        pick=picks,
        change=st.sampled_from(("content", "state", "tags")),
        state=st.sampled_from(("active", "pinned", "archived")),
    )
    def patch(self, user: str, other: str, pick: int, change: str, state: str) -> None:
        memory_id = _pick(self.w.ids[other], pick)
        if memory_id is None:
            return
        value = {
            "content": f"Edited: the {self.w.word(user)} plan.",
            "state": state,
            "tags": [self.w.word(user)],
        }[change]
        response = self.w.call(
            user, "PATCH", f"/api/memories/{memory_id}", json={change: value}, probing=True
        )
        if user != other:
            assert response.status_code == 404, response.text
        else:
            assert response.status_code in (200, 409), response.text
            if response.status_code == 200:
                self.w.own(user, response.json())

    @rule(user=users, other=users, pick=picks)
    def forget(self, user: str, other: str, pick: int) -> None:
        memory_id = _pick(self.w.ids[other], pick)
        if memory_id is None:
            return
        response = self.w.call(user, "DELETE", f"/api/memories/{memory_id}", probing=user != other)
        assert response.status_code == (200 if user == other else 404), response.text
        if user == other:
            assert response.json()["content"] == "" and response.json()["state"] == "deleted"

    @rule(user=users, slot=st.sampled_from((0, 1)))
    def reflect(self, user: str, slot: int) -> None:
        report = self.w.call(user, "POST", "/api/reflect", json={"project_id": PROJECTS[user][slot]}).json()
        for summary in report["summaries_created"] + report["summaries_refreshed"]:
            self.w.ids[user].add(summary["id"])
            others = set().union(*(self.w.ids[o] for o in USERS if o != user))
            assert not others & set(summary["source_ids"]), summary

    @rule(user=users, wipe=st.integers(min_value=0, max_value=9))
    def export(self, user: str, wipe: int) -> None:
        if wipe == 0:  # now and then the user erases everything first (DELETE /api/users/me)
            report = self.w.call(user, "DELETE", "/api/users/me").json()
            assert report["user_id"] == user and report["keys_revoked"] == 0
        document = self.w.call(user, "GET", "/api/export").json()
        assert document["user_id"] == user
        for memory in document["memories"]:
            self.w.own(user, memory)
            assert wipe != 0 or (memory["content"] == "" and memory["state"] == "deleted")
        assert all(e["user_id"] == user for e in document["events"])

    @rule(user=users, slot=project_slots)
    def graph(self, user: str, slot: int | None) -> None:
        project = self._project(user, slot)
        params = {"project_id": project} if project else {}
        graph = self.w.call(user, "GET", "/api/graph", params=params).json()
        for node in graph["nodes"]:
            assert node["id"] in self.w.ids[user] or not any(node["id"] in self.w.ids[o] for o in USERS)
            assert _in_scope(node["project_id"], project)
        self.w.call(user, "GET", "/api/analytics", params=params)
        self.w.call(user, "GET", "/api/projects")

    @rule(user=users, slot=project_slots)
    def timeline(self, user: str, slot: int | None) -> None:
        project = self._project(user, slot)
        params = {"limit": 1000} | ({"project_id": project} if project else {})
        for event in self.w.call(user, "GET", "/api/timeline", params=params).json()["events"]:
            assert event["user_id"] == user
            assert _in_scope(event["project_id"], project)

    @rule(user=users, other=users, pick=picks)
    def traces(self, user: str, other: str, pick: int) -> None:
        for trace in self.w.call(user, "GET", "/api/traces", params={"limit": 200}).json()["items"]:
            assert trace["user_id"] == user
        trace_id = _pick(self.w.traces[other], pick)
        if trace_id is not None:
            response = self.w.call(user, "GET", f"/api/traces/{trace_id}", probing=user != other)
            assert response.status_code == (200 if user == other else 404), response.text

    @rule(user=users, other=users, pick=picks)
    def hostile_import(self, user: str, other: str, pick: int) -> None:
        """Import records that reuse ``other``'s ids, a summary whose sources are theirs, and
        duplicate ids: nothing of ``other`` changes or shows, and every record lands as ``user``'s."""
        foreign = _pick(self.w.ids[other], pick)
        if foreign is None or user == other:
            return
        word = self.w.word(user)
        record = {"user_id": other, "type": "preference", "state": "active", "importance": 0.5,
                  "confidence": 0.8, "usage_count": 0, "created_at": "2026-01-01T00:00:00Z",
                  "updated_at": "2026-01-01T00:00:00Z"}  # fmt: skip
        memories = [
            {**record, "id": foreign, "content": f"I prefer {word} tea"},
            {**record, "id": f"own-{word}", "content": f"I prefer {word} coffee"},
            {**record, "id": f"own-{word}", "content": f"I prefer {word} juice"},
            {**record, "id": f"sum-{word}", "content": f"Summary {word}", "tags": ["consolidation-summary"],
             "source_ids": [*sorted(self.w.ids[other])[:5], f"own-{word}"]},
        ]  # fmt: skip
        document = {"format": "memopilot-export", "version": 1, "user_id": other, "memories": memories}
        report = self.w.call(user, "POST", "/api/import", json=document, probing=True).json()
        # the record with another's id may be skipped: this user imported that id before (same new id)
        assert report["imported"] + report["skipped"] == 3, report
        assert [r["index"] for r in report["rejected"]] == [2], report
        listed = self.w.call(user, "GET", "/api/memories", params={"q": word, "limit": 100}).json()["items"]
        assert len(listed) == report["imported"] and foreign not in {m["id"] for m in listed}
        for memory in listed:
            self.w.own(user, memory)
            assert all(s in self.w.ids[user] or s in {m["id"] for m in listed} for s in memory["source_ids"])
        still = self.w.call(other, "GET", f"/api/memories/{foreign}")
        assert still.status_code == 200 and word not in still.text

    @rule(user=users, everyone=st.booleans())
    def revoke_keys(self, user: str, everyone: bool) -> None:
        """Revoke one user's keys, or every key (the last key too): the server stays keyed, old keys
        and no key answer 401, and new keys work."""
        revoked = USERS if everyone else (user,)
        old = {u: self.w.headers[u] for u in revoked}
        for u in revoked:
            assert self.w.keys.revoke_user(u) >= 1
        assert self.w.client.get("/health").json()["mode"] == "keys"
        for u in revoked:
            for path in ("/api/export", "/api/memories", "/api/timeline"):
                assert self.w.client.get(path, headers=old[u]).status_code == 401
                assert self.w.client.get(path, params={"user_id": u}).status_code == 401
        for u in revoked:
            self.w.headers[u] = {"Authorization": f"Bearer {self.w.keys.create(u, now=datetime.now(UTC))}"}
            self.w.call(u, "GET", "/api/memories")

    @rule(user=users, other=users, pick=picks)
    def read_after_anothers_forget(self, user: str, other: str, pick: int) -> None:
        """``other`` forgets a memory; ``user`` then searches and asks for ``other``'s words."""
        memory_id = _pick(self.w.ids[other], pick)
        if memory_id is None or user == other:
            return
        self.w.call(other, "DELETE", f"/api/memories/{memory_id}")
        # the words of the other user's memories (without their marker, which is theirs alone)
        question = "Which mode do I prefer in every editor, and what did we decide for billing?"
        self.w.call(user, "GET", "/api/search", params={"q": question})
        self.w.call(user, "POST", "/api/context", json={"query": question})
        self.w.call(user, "GET", f"/api/memories/{memory_id}", probing=True)

    def teardown(self) -> None:
        if not hasattr(self, "w"):
            return
        for user in USERS:  # the raw list of every user, every state: theirs alone
            page = self.w.call(user, "GET", "/api/memories", params={"limit": 1000}).json()
            for memory in page["items"]:
                self.w.own(user, memory)


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")
def test_no_user_ever_sees_another_users_memories(mp: MemoPilot) -> None:
    headers = bearer_headers(unlimited(mp), USERS)
    with TestClient(create_app(mp=mp)) as client:
        world = World(client, headers, ApiKeyStore(mp.store))
        Isolation.world = world
        run_state_machine_as_test(
            Isolation,
            settings=settings(
                max_examples=EXAMPLES,
                stateful_step_count=30,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
    print(f"\ntenant isolation: {world.requests} requests, {sum(map(len, world.ids.values()))} memories")
    assert world.requests > 10 * EXAMPLES and all(world.ids.values())
