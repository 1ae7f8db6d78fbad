#!/usr/bin/env python3
"""Time ``remember`` back to back on an existing store's largest user (an A/B of the write path).

    python -m memopilot.bench.runner --url sqlite:////tmp/w.db --size 100000 --pending
    python scripts/time_writes.py /tmp/w.db [--seed 901] [--writes 110]

The bench's own write figure is 100 writes right after a bulk ingest; this one reopens the store
(as a server would), warms it with ten writes, and times the rest, so two versions of the code can
be compared on the same rows. Each run adds its writes to the store.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from memopilot.bench.synthetic import generate_memories
from memopilot.engine.facade import MemoPilot
from memopilot.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("db", help="a SQLite file made by the bench")
    parser.add_argument("--seed", type=int, default=901)
    parser.add_argument("--writes", type=int, default=110)
    args = parser.parse_args()
    with sqlite3.connect(args.db) as conn:
        user = conn.execute(
            "SELECT user_id FROM memories GROUP BY user_id ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()[0]
    messages = [m.content for m in generate_memories(args.writes, seed=args.seed, now=datetime.now(UTC))]
    settings = Settings.load(database_url=f"sqlite:///{args.db}")
    with MemoPilot.open(settings=settings, llm=None, background_vectors=False) as mp:
        mp.build_context("warm up", user_id=user, project_id="project-0")
        for message in messages[:10]:
            mp.remember(message, user_id=user, project_id="project-0")
        times = []
        for message in messages[10:]:
            started = time.perf_counter()
            mp.remember(message, user_id=user, project_id="project-0")
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p50, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
    print(f"{len(times)} writes: p50 {p50:.2f} ms, p95 {p95:.2f} ms")


if __name__ == "__main__":
    main()
