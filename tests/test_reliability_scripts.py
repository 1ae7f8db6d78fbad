"""The CI profiles of the crash-safety and load scripts (the full profiles are in RELIABILITY.md).

Each runs the real script as a program against the test's database (every backend): the server is
a real ``memopilot serve`` process on loopback, killed with SIGKILL by the crash script.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from .reliability_helpers import SCRIPTS


def _script(name: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / name), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.stdout.strip(), done.stderr
    report = json.loads(done.stdout)
    print(f"\n{name}: {json.dumps(report)}")
    assert done.returncode == (0 if report["ok"] else 1), done.stderr
    return report


def test_crash_safety_short_profile(db_url: str) -> None:
    report = _script(
        "crash_test.py",
        "--db",
        db_url,
        "--kills",
        "3",
        "--max-run",
        "1.2",
        "--min-writes",
        "20",
        "--seed",
        "7",
    )
    assert report["problems"] == [] and report["http_errors"] == []
    assert report["database"]["ok"], report["database"]
    # each of the three runs waits for 20 acknowledged writes before its kill
    assert report["acknowledged_writes"] >= 60 and report["acknowledged_memories"] > 0
    assert report["verified_memories"] == report["acknowledged_memories"]
    assert report["verified_chat_traces"] == report["acknowledged_chats"]
    assert report["ok"]


def test_load_short_profile(db_url: str) -> None:
    report = _script(
        "load_test.py", "--db", db_url, "--clients", "4", "--seconds", "4", "--users", "2", "--seed", "7"
    )
    assert report["errors"] == 0, report["error_samples"]
    assert report["requests"] > 50 and report["latency"]["p95_ms"] > 0
    assert (
        {"chat", "search", "write", "pin"}
        <= set(report["by_operation"])
        <= {"chat", "search", "write", "pin", "pin_refused"}
    )
    limited = report["rate_limit"]
    assert limited["ok"] and limited["other_key_status"] == 200 and int(limited["retry_after_s"]) >= 1
    assert report["ok"]


def test_scale_out_short_profile(db_url: str) -> None:
    """Two servers on one database, requests spread at random: no errors, and a change made through
    one is served by the other within a second (the full profile is in RELIABILITY.md)."""
    report = _script("scale_out.py", "--db", db_url, "--servers", "2", "--clients", "4", "--seconds", "4")
    assert report["errors"] == 0, report["error_samples"]
    assert report["requests"] > 50 and len(report["rss_mb"]) == 2 and min(report["rss_mb"]) > 0
    propagation = report["propagation"]
    assert propagation["new_memory_seen_ms_max"] < 1000 and propagation["forget_gone_ms_max"] < 1000
    assert report["ok"]
