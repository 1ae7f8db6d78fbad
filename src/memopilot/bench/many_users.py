"""``memopilot bench --users N --per-user M``: many users in one process, under a capped index cache.

Two fresh processes, so that the serving one's memory is its own:

1. *ingest*: N users of M synthetic memories (and a few users of 1,000 for cold-read figures) are
   written in batches of about 5,000 memories a transaction.
2. *serve*: an engine with ``MEMOPILOT_INDEX_CACHE_MB`` set to the cap reads ``build_context`` for
   users drawn by a Zipf law (exponent 1.1 over the users ranked in a random order: most traffic on
   a few users, a long tail of cold ones). Each read is *warm* when its user's index was held before
   it, *cold* when the read loaded it. RSS is sampled as the reads go; the base is the RSS after
   start-up and the embedder's load, *ready* the RSS after one read of a user with no memories (what
   any process loads once). Then each 1,000-memory user is read once, cold, for first-read figures.

Figures are printed and written to JSON, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .runner import _percentile, cpu_gauge_ms
from .synthetic import generate_memories, generate_questions

__all__ = ["run_many_users", "zipf_users"]

_TRANSACTION = 5000  # memories per ingest transaction
_LARGE_USERS = 50  # users of 1,000 memories read once each, cold
_LARGE_SIZE = 1000


def zipf_users(count: int, reads: int, *, exponent: float = 1.1, seed: int = 7) -> list[int]:
    """``reads`` user numbers in [0, count): rank r (1-based) is drawn with weight 1/r**exponent,
    and ranks map to users through a random permutation (the hot users are not the first made)."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, count + 1, dtype=np.float64) ** exponent
    ranks = rng.choice(count, size=reads, p=weights / weights.sum())
    return rng.permutation(count)[ranks].tolist()


def user_name(number: int) -> str:
    return f"tenant-{number:06d}"


def _rss_mb() -> float:
    """The resident set size now (not the peak): Linux's /proc/self/statm."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def ingest(url: str, users: int, per_user: int, *, seed: int = 7) -> dict[str, Any]:
    """Write the users (and the 1,000-memory ones); returns rows and seconds."""
    from .. import transitions
    from ..engine.facade import MemoPilot
    from ..settings import Settings
    from ..store import ChangeSet

    now = datetime.now(UTC)
    started = time.perf_counter()
    plan = [(user_name(n), per_user) for n in range(users)]
    plan += [(f"large-{n:03d}", _LARGE_SIZE) for n in range(_LARGE_USERS)]
    rows = 0
    # background_vectors=False: a model that completes its vectors later (the default, blend) keeps
    # them pending here; completing a million with e5 would take hours, and the reads measured
    # below cost the same with or without e5's part (the index holds the same width either way)
    with MemoPilot.open(settings=Settings.load(database_url=url), llm=None, background_vectors=False) as mp:
        mp.vectors.close()  # nor at close
        pending: list[Any] = []

        def flush() -> None:
            vectors = mp.embed_texts([m.content for m in pending])
            changes = ChangeSet()
            for memory, vector in zip(pending, vectors, strict=True):
                changes.vectors[memory.id] = vector
                changes.add(*transitions.create(memory, reason="bench", actor="bench", at=now))
            mp.mark_pending(changes)
            mp.store.commit(changes)
            pending.clear()

        for number, (user_id, size) in enumerate(plan):
            for synthetic in generate_memories(size, seed=seed + number, now=now):
                pending.append(
                    mp.new_memory(
                        synthetic.content,
                        user_id=user_id,
                        project_id=synthetic.project_id,
                        type=synthetic.type,
                        occurred_at=synthetic.created_at,
                    )
                )
            rows += size
            if len(pending) >= _TRANSACTION:
                flush()
        if pending:
            flush()
    return {"rows": rows, "ingest_s": round(time.perf_counter() - started, 1)}


def serve(url: str, users: int, *, cache_mb: float, reads: int, seed: int = 7) -> dict[str, Any]:
    """Zipf-distributed reads under the cap, then cold first reads of the 1,000-memory users."""
    from ..engine.facade import MemoPilot
    from ..read.index import tune_gc_for_serving
    from ..settings import Settings

    settings = Settings.load(database_url=url, index_cache_mb=cache_mb)
    with MemoPilot.open(settings=settings, llm=None, background_vectors=False) as mp:
        mp.vectors.close()  # the vectors stay as ingest left them (see ingest)
        mp.embed_texts(["warm the embedder up"])
        base = _rss_mb()
        # one read of a user with no memories: what every process loads once (the secret detectors,
        # word caches, SQLite's page cache), so that what grows after it is the users' indexes
        mp.build_context("warm the read path up", user_id="no-such-tenant")
        tune_gc_for_serving()  # as `memopilot serve` does once it has warmed up
        ready = _rss_mb()
        questions = generate_questions(reads, seed=seed)
        warm: list[float] = []
        cold: list[float] = []
        rss: list[tuple[int, float]] = [(0, ready)]
        gauges: list[float] = []
        every = max(1, reads // 100)
        started = time.perf_counter()
        for done, (number, (question, project)) in enumerate(
            zip(zipf_users(users, reads, seed=seed), questions, strict=True), start=1
        ):
            user_id = user_name(number)
            held = mp.index.holds(user_id)
            began = time.perf_counter()
            mp.build_context(question, user_id=user_id, project_id=project)
            (warm if held else cold).append((time.perf_counter() - began) * 1000)
            if done % every == 0:
                rss.append((done, _rss_mb()))
                gauges.append(cpu_gauge_ms())
        elapsed = time.perf_counter() - started
        first_reads = []
        for n, (question, project) in enumerate(generate_questions(_LARGE_USERS, seed=seed + 1)):
            began = time.perf_counter()
            mp.build_context(question, user_id=f"large-{n:03d}", project_id=project)
            first_reads.append((time.perf_counter() - began) * 1000)
        stats = mp.index.stats()
    every_read = warm + cold
    return {
        "reads": reads,
        "reads_per_s": round(reads / elapsed, 1),
        "read_p50_ms": _percentile(every_read, 0.50),
        "read_p95_ms": _percentile(every_read, 0.95),
        "read_p99_ms": _percentile(every_read, 0.99),
        "warm_reads": len(warm),
        "warm_p50_ms": _percentile(warm, 0.50) if warm else None,
        "warm_p95_ms": _percentile(warm, 0.95) if warm else None,
        "warm_p99_ms": _percentile(warm, 0.99) if warm else None,
        "cold_reads": len(cold),
        "cold_p50_ms": _percentile(cold, 0.50) if cold else None,
        "cold_p95_ms": _percentile(cold, 0.95) if cold else None,
        "cold_p99_ms": _percentile(cold, 0.99) if cold else None,
        "cold_1000_first_read_p50_ms": _percentile(first_reads, 0.50),
        "cold_1000_first_read_p95_ms": _percentile(first_reads, 0.95),
        "base_rss_mb": base,
        "ready_rss_mb": ready,
        "final_rss_mb": _rss_mb(),
        "max_rss_mb": max(r for _, r in rss),
        "rss_mb_over_reads": rss,
        "cache_cap_mb": cache_mb,
        "cache_held_mb": round(stats.held_bytes / 2**20, 1),
        "cache_users": stats.users,
        "cache_loads": stats.loads,
        "cache_evictions": stats.evictions,
        "cpu_gauge_ms": round(statistics.median(gauges), 3) if gauges else None,
    }


def run_many_users(
    users: int,
    per_user: int,
    *,
    backend_url: str | None = None,
    cache_mb: float = 256,
    reads: int = 20_000,
    seed: int = 7,
) -> dict[str, Any]:
    """Ingest, then serve, each in a fresh process (SQLite in a scratch folder unless a URL)."""
    with tempfile.TemporaryDirectory(prefix="memopilot-many-users-") as folder:
        url = backend_url or f"sqlite:///{Path(folder) / 'tenants.db'}"
        common = ["--url", url, "--users", str(users), "--seed", str(seed)]
        written = _phase(["ingest", *common, "--per-user", str(per_user)])
        served = _phase(["serve", *common, "--cache-mb", str(cache_mb), "--reads", str(reads)])
    return {"users": users, "per_user": per_user, **written, **served}


def _phase(args: list[str]) -> dict[str, Any]:
    command = [sys.executable, "-m", "memopilot.bench.many_users", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"many-users bench ({args[0]}) failed: {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _main() -> None:
    parser = argparse.ArgumentParser(description="one phase of memopilot bench --users")
    parser.add_argument("phase", choices=("ingest", "serve"))
    parser.add_argument("--url", required=True)
    parser.add_argument("--users", type=int, required=True)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--cache-mb", type=float, default=256)
    parser.add_argument("--reads", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.phase == "ingest":
        figures = ingest(args.url, args.users, args.per_user, seed=args.seed)
    else:
        figures = serve(args.url, args.users, cache_mb=args.cache_mb, reads=args.reads, seed=args.seed)
    print(json.dumps(figures))


if __name__ == "__main__":
    _main()
