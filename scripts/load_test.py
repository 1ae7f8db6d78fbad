"""Load: concurrent clients mix chat, search and writes against ``memopilot serve`` on loopback.

    python scripts/load_test.py --clients 32 --seconds 60 [--db URL] [--users 8] [--json]

The script creates one API key per user in the database, seeds each user with memories, starts
the server on 127.0.0.1 and runs ``--clients`` asyncio clients (each acting as one of the users)
for ``--seconds``: 20% chat turns, 45% searches, 25% new memories, 10% pins of their own
memories. During the run the per-user rate limit is raised out of the way
(MEMOPILOT_RATE_LIMIT_PER_MINUTE=1000000); any answer other than 2xx (or 409 to a pin of a memory
a chat turn has superseded meanwhile), and any transport error, is an error. It reports the
requests, errors, throughput and latency percentiles, overall and per operation.

Then it checks the rate limiter on a server started with MEMOPILOT_RATE_LIMIT_PER_MINUTE=60: one
key's burst gets 429 with a Retry-After header once its 60 are spent, while another key is still
served. Every request goes to loopback; every loop is bounded by the clock and the request count.
Exit status 0 when there were no errors and the limiter behaved.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from reliability_server import ServerProcess

OPERATIONS = (("chat", 0.20), ("search", 0.45), ("write", 0.25), ("pin", 0.10))
TOPICS = ["billing", "deploys", "editor", "database", "reports", "testing", "design", "travel"]
MAX_REQUESTS_PER_CLIENT = 100_000  # a hard bound besides the clock


def make_keys(db_url: str, users: list[str]) -> dict[str, str]:
    from memopilot import MemoPilot
    from memopilot.server.keys import ApiKeyStore

    with MemoPilot.open(db_url, llm=None) as mp:
        store = ApiKeyStore(mp.store)
        return {u: store.create(u, now=mp.clock.now(), name="load test") for u in users}


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(latencies: list[float]) -> dict[str, float]:
    return {
        "requests": len(latencies),
        "p50_ms": round(_percentile(latencies, 0.50) * 1000, 1),
        "p95_ms": round(_percentile(latencies, 0.95) * 1000, 1),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else 0.0,
    }


async def _client_loop(
    http: httpx.AsyncClient,
    key: str,
    user: str,
    deadline: float,
    rng: random.Random,
    latencies: dict[str, list[float]],
    errors: list[str],
    own: list[str],
) -> None:
    headers = {"Authorization": f"Bearer {key}"}
    names, weights = zip(*OPERATIONS, strict=True)
    for seq in range(MAX_REQUESTS_PER_CLIENT):
        if time.monotonic() >= deadline:
            return
        op = rng.choices(names, weights)[0]
        topic = rng.choice(TOPICS)
        if op == "pin" and not own:
            op = "write"
        started = time.perf_counter()
        try:
            if op == "chat":
                message = f"We decided to use tool {seq % 50} for {topic}. What did I say about {topic}?"
                response = await http.post(
                    "/api/chat", json={"message": message, "session_id": user}, headers=headers
                )
            elif op == "search":
                response = await http.get(
                    "/api/search", params={"q": f"{topic} decision", "k": 10}, headers=headers
                )
            elif op == "write":
                body = {
                    "content": f"Load note {seq} about {topic} for {user}",
                    "type": "task",
                    "tags": [topic],
                }
                response = await http.post("/api/memories", json=body, headers=headers)
            else:
                memory_id = rng.choice(own)
                state = rng.choice(("pinned", "active"))
                response = await http.patch(
                    f"/api/memories/{memory_id}", json={"state": state}, headers=headers
                )
        except httpx.HTTPError as exc:
            errors.append(f"{op}: {type(exc).__name__}: {exc}")
            continue
        elapsed = time.perf_counter() - started
        if op == "pin" and response.status_code == 409:
            # the chat traffic superseded it ("We decided to use tool 3 for billing" replaces
            # "... option 3 for billing"): refusing to pin it is the right answer
            latencies["pin_refused"].append(elapsed)
            if memory_id in own:
                own.remove(memory_id)
            continue
        if response.is_success:
            latencies[op].append(elapsed)
            if op == "write":
                own.append(response.json()["id"])
        else:
            errors.append(f"{op}: HTTP {response.status_code}: {response.text[:200]}")


async def _seed(base: str, keys: dict[str, str], per_user: int) -> dict[str, list[str]]:
    own: dict[str, list[str]] = {}
    async with httpx.AsyncClient(base_url=base, timeout=60.0) as http:
        for user, key in keys.items():
            headers = {"Authorization": f"Bearer {key}"}
            own[user] = []
            for i in range(per_user):
                topic = TOPICS[i % len(TOPICS)]
                body = {"content": f"We decided to use option {i} for {topic}", "type": "decision"}
                response = await http.post("/api/memories", json=body, headers=headers)
                response.raise_for_status()
                own[user].append(response.json()["id"])
    return own


async def _run_load(
    base: str, keys: dict[str, str], clients: int, seconds: float, seed: int | None
) -> dict[str, Any]:
    own = await _seed(base, keys, per_user=20)
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    users = list(keys)
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60.0, limits=limits) as http:
        started = time.monotonic()
        deadline = started + seconds
        tasks = [
            _client_loop(
                http,
                keys[users[c % len(users)]],
                users[c % len(users)],
                deadline,
                random.Random(rng.random()),
                latencies,
                errors,
                own[users[c % len(users)]],
            )
            for c in range(clients)
        ]
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - started
    return load_report(latencies, errors, elapsed)


def load_report(latencies: dict[str, list[float]], errors: list[str], elapsed: float) -> dict[str, Any]:
    """Requests, errors, throughput and latency percentiles, overall and per operation."""
    every = [v for values in latencies.values() for v in values]
    total = len(every) + len(errors)
    return {
        "requests": total,
        "errors": len(errors),
        "error_samples": errors[:10],
        "seconds": round(elapsed, 1),
        "throughput_rps": round(total / elapsed, 1),
        "latency": _summary(every),
        "by_operation": {op: _summary(values) for op, values in sorted(latencies.items())},
    }


def _check_rate_limit(db_url: str, keys: dict[str, str], log: Path | None) -> dict[str, Any]:
    """A burst from one key meets 429 + Retry-After after 60 requests; another key is still served."""
    first, second = list(keys.values())[:2]
    with ServerProcess(db_url, env={"MEMOPILOT_RATE_LIMIT_PER_MINUTE": "60"}, log_path=log) as server:
        server.start()
        with httpx.Client(base_url=server.url, timeout=30.0) as http:
            statuses, retry_after = [], None
            for _ in range(70):
                response = http.get(
                    "/api/memories", params={"limit": 1}, headers={"Authorization": f"Bearer {first}"}
                )
                statuses.append(response.status_code)
                if response.status_code == 429:
                    retry_after = response.headers.get("Retry-After")
                    break
            other = http.get(
                "/api/memories", params={"limit": 1}, headers={"Authorization": f"Bearer {second}"}
            )
    ok = (
        statuses[-1] == 429 and retry_after is not None and int(retry_after) >= 1 and other.status_code == 200
    )
    return {
        "ok": ok,
        "limit_per_minute": 60,
        "served_before_429": statuses.count(200),
        "retry_after_s": retry_after,
        "other_key_status": other.status_code,
    }


def run(
    db_url: str, *, clients: int, seconds: float, users: int, seed: int | None, log: Path | None
) -> dict[str, Any]:
    names = [f"load{u}" for u in range(users)]
    keys = make_keys(db_url, names)
    env = {"MEMOPILOT_RATE_LIMIT_PER_MINUTE": "1000000"}
    with ServerProcess(db_url, env=env, log_path=log) as server:
        server.start()
        report = asyncio.run(_run_load(server.url, keys, clients, seconds, seed))
    report["rate_limit"] = _check_rate_limit(db_url, keys, log)
    report.update(clients=clients, users=users, db=db_url.split("?")[0])
    report["ok"] = report["errors"] == 0 and report["rate_limit"]["ok"] and report["requests"] > 0
    return report


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--users", type=int, default=8, help="API keys (users) the clients share")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--server-log", type=Path, help="append the server's output to this file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.clients <= 256 or not 0 < args.seconds <= 600 or not 2 <= args.users <= 1000:
        parser.error("bounded runs only: 1-256 clients, at most 600 seconds, 2-1000 users")
    with tempfile.TemporaryDirectory() as scratch:
        url = args.db or f"sqlite:///{Path(scratch) / 'load.db'}"
        report = run(
            url,
            clients=args.clients,
            seconds=args.seconds,
            users=args.users,
            seed=args.seed,
            log=args.server_log,
        )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        lat = report["latency"]
        print(
            f"{report['clients']} clients, {report['seconds']} s: {report['requests']} requests, "
            f"{report['errors']} errors, {report['throughput_rps']} req/s, "
            f"p50 {lat['p50_ms']} ms, p95 {lat['p95_ms']} ms, p99 {lat['p99_ms']} ms"
        )
        for op, figures in report["by_operation"].items():
            print(f"  {op:7s} {figures}")
        print("rate limit:", report["rate_limit"])
        for sample in report["error_samples"]:
            print("  error:", sample)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
