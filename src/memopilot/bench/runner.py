"""``memopilot bench``: read/write latency, ingest rate, disk and memory at several store sizes.

Each size runs in a fresh Python process (``python -m memopilot.bench.runner``), so peak
RSS and caches belong to that size alone. The read path is ``build_context`` end to end
(query embedding, sweep, candidates, scoring, packing, trace); the write path is
``remember`` with the rule editor (redaction, editor, dedup, contradictions, embedding,
persist, events). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .synthetic import generate_memories, generate_questions

__all__ = ["cpu_gauge_ms", "machine_info", "measure_size", "median_of_runs", "run_sizes"]

_BATCH = 2000
_WRITE_MESSAGES = (
    "We decided to use {tool} for the {component}.",
    "I prefer {tool} over {tool2} for new services.",
    "The {deliverable} is due next Friday.",
    "Never deploy the {component} without a canary.",
)


def machine_info() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
    }


def cpu_gauge_ms() -> float:
    """Milliseconds for one run of a fixed pure-Python workload (about 2 ms on a fast core).

    Shared machines change speed with their neighbours from one second to the next. The bench
    samples this between reads and reports the median, so that runs can be compared fairly.
    """
    started = time.perf_counter()
    sum(i * i for i in range(50_000))
    return (time.perf_counter() - started) * 1000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


def _ingest(mp: Any, user_id: str, count: int, seed: int, now: datetime) -> float:
    """Bulk-load ``count`` memories for ``user_id`` through ``add_many``; returns memories per second."""
    started = time.perf_counter()
    batch: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
    pending = 0
    for memory in generate_memories(count, seed=seed, now=now):
        batch[memory.project_id].append(
            {"content": memory.content, "type": memory.type, "occurred_at": memory.created_at}
        )
        pending += 1
        if pending >= _BATCH:
            _flush(mp, user_id, batch)
            pending = 0
    _flush(mp, user_id, batch)
    return count / max(1e-9, time.perf_counter() - started)


def _flush(mp: Any, user_id: str, batch: dict[str | None, list[dict[str, Any]]]) -> None:
    for project_id, items in batch.items():
        if items:
            mp.add_many(items, user_id=user_id, project_id=project_id)
    batch.clear()


def measure_size(
    url: str,
    size: int,
    *,
    seed: int = 7,
    queries: int = 200,
    writes: int = 100,
    background_rows: int = 0,
    complete: bool = True,
) -> dict[str, Any]:
    """Build a store of ``size`` memories for one user (plus background users) and measure it.
    ``complete=False`` leaves vectors pending (a model that completes them later): a read costs the
    same either way (the index holds the same width), so a quick latency run skips e5's hour."""
    from ..engine.facade import MemoPilot
    from ..settings import Settings

    now = datetime.now(UTC)
    # a user of its own per measurement: sizes and repeated runs never share rows, even in one
    # scratch PostgreSQL database
    run = uuid.uuid4().hex[:8]
    user_id = f"bench-user-{size}-{run}"
    settings = Settings.load(database_url=url)
    with MemoPilot.open(settings=settings, llm=None, background_vectors=complete) as mp:
        ingest_rate = _ingest(mp, user_id, size, seed, now)
        for i in range(0, background_rows, 100_000):
            count = min(100_000, background_rows - i)
            _ingest(mp, f"background-{run}-{i // 100_000}", count, seed + 1 + i, now)
        # reads are measured on whole vectors: a model that completes them later (blend) does that
        # here, on this thread, and the rate is reported beside the ingest's
        started = time.perf_counter()
        completed = mp.complete_vectors() if complete else 0
        if not complete:
            mp.vectors.close()
        complete_rate = completed / max(1e-9, time.perf_counter() - started) if completed else None
        questions = generate_questions(queries + 10, seed=seed)
        for question, project in questions[:10]:  # warm-up: caches, vector index load
            mp.build_context(question, user_id=user_id, project_id=project)
        reads, gauges = [], []
        for number, (question, project) in enumerate(questions[10:]):
            if number % 10 == 0:
                gauges.append(cpu_gauge_ms())
            started = time.perf_counter()
            mp.build_context(question, user_id=user_id, project_id=project)
            reads.append((time.perf_counter() - started) * 1000)
        write_times, settled_times = [], []
        mp.write_path  # noqa: B018  (imports the editor now, as a server does at start-up)
        messages = [m.content for m in generate_memories(writes, seed=seed + 99, now=now)]
        for message in messages:
            started = time.perf_counter()
            mp.remember(message, user_id=user_id, project_id="project-0")
            write_times.append((time.perf_counter() - started) * 1000)
            # A user's next message comes after the assistant's reply: the learned judgement a
            # write left to the background lands first. Timed apart, from the write's start.
            mp.settle(user_id)
            settled_times.append((time.perf_counter() - started) * 1000)
    return {
        "read_p50_ms": _percentile(reads, 0.50),
        "read_p95_ms": _percentile(reads, 0.95),
        "read_p99_ms": _percentile(reads, 0.99),
        "read_mean_ms": round(statistics.fmean(reads), 3),
        "write_p50_ms": _percentile(write_times, 0.50),
        "write_p95_ms": _percentile(write_times, 0.95),
        "write_settled_p50_ms": _percentile(settled_times, 0.50),
        "write_settled_p95_ms": _percentile(settled_times, 0.95),
        "ingest_per_s": round(ingest_rate, 1),
        "completed_per_s": None if complete_rate is None else round(complete_rate, 1),
        "disk_mb": _disk_mb(url),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cpu_gauge_ms": round(statistics.median(gauges), 3),
    }


def _disk_mb(url: str) -> float | None:
    if not url.startswith("sqlite:///"):
        return None
    path = Path(url.removeprefix("sqlite:///"))
    return round(sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20, 2)


def run_sizes(
    sizes: list[int],
    *,
    backend_url: str | None = None,
    background_rows: int = 0,
    queries: int = 200,
    writes: int = 100,
    seed: int = 7,
) -> dict[str, dict[str, Any]]:
    """Measure each size in its own process; returns {"<size>": figures}."""
    results: dict[str, dict[str, Any]] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="memopilot-bench-") as folder:
            url = backend_url or f"sqlite:///{Path(folder) / 'bench.db'}"
            command = [
                sys.executable,
                "-m",
                "memopilot.bench.runner",
                "--url",
                url,
                "--size",
                str(size),
                "--queries",
                str(queries),
                "--writes",
                str(writes),
                "--seed",
                str(seed),
                "--background-rows",
                str(background_rows),
            ]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"benchmark of size {size} failed: {done.stderr.strip()[-800:]}")
            results[str(size)] = json.loads(done.stdout.strip().splitlines()[-1])
    return results


def median_of_runs(runs: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Per size and figure, the median over repeated runs (this machine varies run to run)."""
    out: dict[str, dict[str, Any]] = {}
    for size in runs[0]:
        figures = [run[size] for run in runs]
        out[size] = {name: _median_figure([f.get(name) for f in figures]) for name in figures[0]}
    return out


def _median_figure(values: list[Any]) -> Any:
    """The median of the runs that measured a figure. A figure some runs could not measure (no
    vector left to complete when the background worker finished first) is the median of the others;
    a figure that is not a number (a URL, a machine name) is the first run's."""
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if numbers:
        return round(statistics.median(numbers), 3)
    return values[0]


def _main() -> None:
    parser = argparse.ArgumentParser(description="measure one store size (used by memopilot bench)")
    parser.add_argument("--url", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--writes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--background-rows", type=int, default=0)
    parser.add_argument("--pending", action="store_true", help="leave vectors pending (quick latency runs)")
    args = parser.parse_args()
    figures = measure_size(
        args.url,
        args.size,
        seed=args.seed,
        queries=args.queries,
        writes=args.writes,
        background_rows=args.background_rows,
        complete=not args.pending,
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    _main()
