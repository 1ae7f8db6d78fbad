"""How long the command line takes to start: `memopilot --help` and a `search` on a small store.

    python scripts/measure_cli_startup.py [--runs 7]

Each command runs as a fresh process (what a user waits for); the median and the slowest of
``--runs`` are printed. The store is a scratch SQLite file with 50 memories.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-m", "memopilot"]


def timed(args: list[str], env: dict[str, str], runs: int) -> list[float]:
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([*CLI, *args], env=env, check=True, capture_output=True)
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "MEMOPILOT_DATABASE_URL": f"sqlite:///{Path(tmp) / 'cli.db'}"}
        for i in range(50):
            subprocess.run(
                [*CLI, "add", f"Note {i}: we use tool {i} for task {i}"],
                env=env,
                check=True,
                capture_output=True,
            )
        for label, command in (("--help", ["--help"]), ("search", ["search", "which tool for task 7"])):
            seconds = timed(command, env, args.runs)
            print(
                f"memopilot {label:8} median {statistics.median(seconds):.3f} s, slowest {max(seconds):.3f} s"
            )


if __name__ == "__main__":
    main()
