"""Crash safety: write through the API, SIGKILL the server at random points, check every acknowledged write.

    python scripts/crash_test.py --kills 20 [--db URL] [--writers 4] [--seed 1] [--json]

Writers (one thread and one user each) stream requests at ``memopilot serve`` on loopback: new
memories (most), chat turns, and Forgets of their own acknowledged memories. At a random moment
the server gets SIGKILL. After each restart:

- every acknowledged write is there: a created memory with its exact content and its ``created``
  timeline event; an acknowledged chat turn's trace and the memories it reported; an
  acknowledged Forget's tombstone (no content) and its ``deleted`` event;
- nothing is half-written (checked through the store itself): every memory has its creating
  event, every event belongs to a stored memory, every active memory with content has its vector.

At the end the database itself is checked: SQLite ``PRAGMA integrity_check``, ``foreign_key_check``
and the FTS5 index's ``integrity-check``; PostgreSQL ``amcheck`` over every B-tree index of the
schema (``bt_index_check`` with ``heapallindexed``). Exit status 0 when all of it holds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from reliability_server import ServerProcess

WORDS = ["alpha", "bravo", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper"]


@dataclass
class Ledger:
    """What the server acknowledged (and what it may or may not have done when it died)."""

    # id -> (user, content); content None for a chat's memories (a later turn may restate them)
    created: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    forgotten: set[str] = field(default_factory=set)  # acknowledged Forgets
    maybe_forgotten: set[str] = field(default_factory=set)  # Forgets in flight at a kill
    chats: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # trace id -> (user, created ids)
    cut: int = 0  # requests that a kill left unanswered
    errors: list[str] = field(default_factory=list)  # HTTP error answers (none expected)
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _writer(base: str, user: str, ledger: Ledger, stop: threading.Event, rng: random.Random) -> None:
    with httpx.Client(base_url=base, timeout=30.0, params={"user_id": user}) as client:
        seq = 0
        while not stop.is_set():
            seq += 1
            roll = rng.random()
            with ledger.lock:
                mine = [i for i, (u, _) in ledger.created.items() if u == user and i not in ledger.forgotten]
            try:
                if roll < 0.12 and mine:
                    target = rng.choice(mine)
                    with ledger.lock:
                        ledger.maybe_forgotten.add(target)
                    response = client.delete(f"/api/memories/{target}")
                    response.raise_for_status()
                    with ledger.lock:
                        ledger.forgotten.add(target)
                elif roll < 0.3:
                    word = rng.choice(WORDS)
                    message = (
                        f"I prefer the {word} {user} {seq} layout. The {word} review is due next Friday."
                    )
                    response = client.post("/api/chat", json={"message": message, "user_id": user})
                    response.raise_for_status()
                    body = response.json()
                    made = [m["id"] for m in body["actions"]["created"]]
                    with ledger.lock:
                        ledger.chats[body["trace_id"]] = (user, made)
                        for memory_id in made:
                            ledger.created[memory_id] = (user, None)
                else:
                    content = f"crash-safety note {user} {seq}: " + " ".join(rng.sample(WORDS, 4))
                    body = {"content": content, "type": "task", "tags": ["crash"], "user_id": user}
                    response = client.post("/api/memories", json=body)
                    response.raise_for_status()
                    memory = response.json()
                    assert memory["content"] == content
                    with ledger.lock:
                        ledger.created[memory["id"]] = (user, content)
                with ledger.lock:
                    ledger.requests += 1
            except httpx.TransportError:
                with ledger.lock:
                    ledger.cut += 1
                return  # the server is gone: this writer's run is over
            except httpx.HTTPStatusError as exc:
                with ledger.lock:
                    ledger.errors.append(
                        f"{exc.request.method} {exc.request.url.path}: {exc.response.text[:200]}"
                    )
                return


def verify_acknowledged(base: str, ledger: Ledger) -> list[str]:
    """Every acknowledged write is present, with its timeline event. Returns the problems found."""
    problems: list[str] = []
    with httpx.Client(base_url=base, timeout=30.0) as client:
        for memory_id, (user, content) in sorted(ledger.created.items()):
            got = client.get(f"/api/memories/{memory_id}", params={"user_id": user})
            if got.status_code != 200:
                problems.append(f"acknowledged memory {memory_id} is missing ({got.status_code})")
                continue
            memory = got.json()
            kinds = [
                e["kind"]
                for e in client.get(f"/api/memories/{memory_id}/history", params={"user_id": user}).json()[
                    "events"
                ]
            ]
            if "created" not in kinds:
                problems.append(f"memory {memory_id} has no created event: {kinds}")
            if memory_id in ledger.forgotten:
                if memory["state"] != "deleted" or memory["content"] or "deleted" not in kinds:
                    problems.append(f"acknowledged Forget of {memory_id} is not a clean tombstone")
            elif memory_id in ledger.maybe_forgotten and memory["state"] == "deleted":
                if memory["content"] or "deleted" not in kinds:
                    problems.append(f"half-done Forget of {memory_id}")
            elif content is not None and memory["content"] != content:
                problems.append(f"memory {memory_id} content changed: {memory['content']!r}")
        for trace_id, (user, _made) in sorted(ledger.chats.items()):
            if client.get(f"/api/traces/{trace_id}", params={"user_id": user}).status_code != 200:
                problems.append(f"acknowledged chat turn {trace_id} has no trace")
    return problems


def verify_store(db_url: str) -> tuple[list[str], dict[str, int]]:
    """Nothing half-written, read through the store itself (either backend)."""
    from memopilot.store import MemoryQuery, open_store

    problems: list[str] = []
    counts = {"memories": 0, "events": 0}
    store = open_store(db_url)
    try:
        for user in store.user_ids():
            memories, _ = store.list_memories(MemoryQuery(user_id=user, all_projects=True))
            ids = {m.id for m in memories}
            counts["memories"] += len(memories)
            with_vectors = set(store.vectors_of(list(ids)))
            for memory in memories:
                kinds = [e.kind.value for e in store.events(memory.id)]
                if not {"created", "imported", "summary_created"} & set(kinds):
                    problems.append(f"memory {memory.id} has no creating event: {kinds}")
                if (
                    memory.state.value in ("active", "pinned")
                    and memory.content
                    and memory.id not in with_vectors
                ):
                    problems.append(f"active memory {memory.id} has no vector")
                if memory.state.value == "deleted" and (memory.content or memory.tags):
                    problems.append(f"tombstone {memory.id} still holds content")
            events = store.timeline(user, limit=10_000_000)
            counts["events"] += len(events)
            problems += [
                f"event {e.id} names missing memory {e.memory_id}"
                for e in events
                if e.memory_id and e.memory_id not in ids
            ]
    finally:
        store.close()
    return problems, counts


def check_database(db_url: str) -> dict[str, Any]:
    """The backend's own consistency checks."""
    if db_url.startswith("sqlite:"):
        import sqlite3

        from memopilot.store.sqlite import sqlite_path_from_url

        conn = sqlite3.connect(sqlite_path_from_url(db_url))
        try:
            integrity = [r[0] for r in conn.execute("PRAGMA integrity_check")]
            foreign = conn.execute("PRAGMA foreign_key_check").fetchall()
            try:
                conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')")
                fts = "ok"
            except sqlite3.DatabaseError as exc:
                fts = str(exc)
        finally:
            conn.close()
        ok = integrity == ["ok"] and not foreign and fts == "ok"
        return {
            "backend": "sqlite",
            "ok": ok,
            "integrity_check": integrity[:5],
            "foreign_key_check": len(foreign),
            "fts5": fts,
        }
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        indexes = conn.execute(
            "SELECT c.oid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = c.relam "
            "WHERE a.amname = 'btree' AND c.relnamespace = current_schema()::regnamespace"
        ).fetchall()
        failures = []
        for (name,) in indexes:
            try:
                conn.execute("SELECT bt_index_check(%s::regclass, true)", (name,))
            except psycopg.Error as exc:
                failures.append(f"{name}: {exc}")
    return {
        "backend": "postgres",
        "ok": not failures and bool(indexes),
        "btree_indexes_checked": len(indexes),
        "amcheck_failures": failures,
    }


def _wait_for_writes(ledger: Ledger, count: int, limit_s: float = 60.0) -> None:
    """Hold the kill until the run has `count` acknowledged writes: on a slow machine a fixed run
    time may see few, and a run that proves nothing should not pass for one that does."""
    deadline = time.monotonic() + limit_s
    while ledger.requests < count and time.monotonic() < deadline:
        time.sleep(0.05)


def run(
    db_url: str,
    *,
    kills: int,
    writers: int,
    min_run: float,
    max_run: float,
    min_writes: int,
    seed: int | None,
    log: Path | None,
) -> dict[str, Any]:
    rng = random.Random(seed)
    ledger = Ledger()
    server = ServerProcess(db_url, env={"MEMOPILOT_RATE_LIMIT_PER_MINUTE": "0"}, log_path=log)
    problems: list[str] = []
    verified_after_restart: list[tuple[int, int, int]] = [(0, 0, 0)]
    started = time.monotonic()
    startup: list[float] = []
    try:
        for kill in range(kills + 1):
            startup.append(server.start())
            found = verify_acknowledged(server.url, ledger)
            problems += [f"after restart {kill}: {p}" for p in found]
            if not found:
                verified_after_restart.append((len(ledger.created), len(ledger.forgotten), len(ledger.chats)))
            if kill == kills:
                break
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=_writer, args=(server.url, f"writer{w}", ledger, stop, random.Random(rng.random()))
                )
                for w in range(writers)
            ]
            before = ledger.requests
            for t in threads:
                t.start()
            time.sleep(rng.uniform(min_run, max_run))
            _wait_for_writes(ledger, before + min_writes)
            server.kill()  # SIGKILL, mid-request
            stop.set()
            for t in threads:
                t.join(timeout=60)
        server.stop()
        store_problems, counts = verify_store(db_url)
        problems += store_problems
        database = check_database(db_url)
    finally:
        server.stop()
    return {
        "db": db_url.split("?")[0] if db_url.startswith("postgres") else db_url,
        "kills": kills,
        "writers": writers,
        "acknowledged_writes": ledger.requests,
        "acknowledged_memories": len(ledger.created),
        "acknowledged_forgets": len(ledger.forgotten),
        "acknowledged_chats": len(ledger.chats),
        "verified_memories": verified_after_restart[-1][0],
        "verified_forgets": verified_after_restart[-1][1],
        "verified_chat_traces": verified_after_restart[-1][2],
        "requests_cut_by_kills": ledger.cut,
        "http_errors": ledger.errors[:20],
        "stored_memories": counts["memories"],
        # committed while their request was cut by a kill: allowed either way, but whole
        "committed_unacknowledged": counts["memories"] - len(ledger.created),
        "stored_events": counts["events"],
        "database": database,
        "problems": problems[:50],
        "problem_count": len(problems),
        "server_start_seconds_median": round(sorted(startup)[len(startup) // 2], 2),
        "seconds": round(time.monotonic() - started, 1),
        "ok": not problems and not ledger.errors and database["ok"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--db", help="database URL (sqlite:///path or postgresql://...; default: a temporary SQLite file)"
    )
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--writers", type=int, default=4, help="concurrent writer threads (one user each)")
    parser.add_argument(
        "--min-run", type=float, default=0.3, help="shortest time between a start and its kill (s)"
    )
    parser.add_argument(
        "--max-run", type=float, default=2.5, help="longest time between a start and its kill (s)"
    )
    parser.add_argument(
        "--min-writes",
        type=int,
        default=0,
        help="acknowledged writes each run waits for before its kill (at most 60 s), whatever its time",
    )
    parser.add_argument("--seed", type=int)
    parser.add_argument("--server-log", type=Path, help="append the server's output to this file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.db or f"sqlite:///{Path(scratch) / 'crash.db'}"
        report = run(
            url,
            kills=args.kills,
            writers=args.writers,
            min_run=args.min_run,
            max_run=args.max_run,
            min_writes=args.min_writes,
            seed=args.seed,
            log=args.server_log,
        )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{report['kills']} SIGKILLs, {report['acknowledged_writes']} acknowledged writes "
            f"({report['acknowledged_memories']} memories, {report['acknowledged_chats']} chat turns, "
            f"{report['acknowledged_forgets']} Forgets), "
            f"{report['requests_cut_by_kills']} requests cut by a kill; "
            f"{report['problem_count']} problems; database check: {report['database']}; {report['seconds']} s"
        )
        for problem in report["problems"]:
            print("  ", problem)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
