#!/usr/bin/env python3
"""Measure MemoPilot's secret redaction on the test corpora: recall, false positives, speed.

* recall: share of the secret substrings of ``tests/data/secret_messages.jsonl`` that no longer
  appear in the redacted text (plus how many messages report every expected kind);
* false-positive rate: share of ``tests/data/benign_messages.jsonl`` messages with any finding;
* findings per kind over the secret corpus;
* speed: median and p95 microseconds per :func:`memopilot.redaction.redact` call over every
  corpus message, and for typical 300-character messages (benign sentences joined up to 300
  characters, with and without one secret).

Run from the repository root::

    python scripts/measure_redaction.py [--repeat 20] [--show-misses]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from memopilot.redaction import redact

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def load(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def time_us(messages: list[str], repeat: int) -> list[float]:
    """Per-message time in µs: the best of ``repeat`` runs of each message (noise is one-sided)."""
    out = []
    for msg in messages:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            redact(msg)
            best = min(best, time.perf_counter_ns() - t0)
        out.append(best / 1000)
    return out


def typical_messages(benign: list[str], size: int = 300) -> list[str]:
    """Benign sentences joined (with spaces) into chunks of about ``size`` characters."""
    chunks, cur = [], ""
    for msg in benign:
        cur = f"{cur} {msg}".strip()
        if len(cur) >= size:
            chunks.append(cur[:size])
            cur = ""
    return chunks


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=20, help="timing runs per message (best is kept)")
    ap.add_argument("--show-misses", action="store_true", help="print leaked secrets and false positives")
    args = ap.parse_args()

    secret_rows = load("secret_messages.jsonl")
    benign_rows = load("benign_messages.jsonl")
    n_secrets = sum(len(r["secrets"]) for r in secret_rows)
    print(
        f"corpus: {len(secret_rows)} secret messages ({n_secrets} secrets), "
        f"{len(benign_rows)} benign messages"
    )

    removed = total = kinds_ok = 0
    per_kind: Counter[str] = Counter()
    for row in secret_rows:
        red = redact(row["message"])
        reported = {f.kind for f in red.findings}
        per_kind.update(f.kind for f in red.findings)
        kinds_ok += set(row["kinds"]) <= reported
        for secret in row["secrets"]:
            total += 1
            if secret in red.text:
                if args.show_misses:
                    print(f"  LEAK {secret!r} in {row['message'][:100]!r}")
            else:
                removed += 1
    print(
        f"recall: {removed}/{total} secrets removed = {removed / total:.1%}; "
        f"expected kinds all reported in {kinds_ok}/{len(secret_rows)} messages"
    )

    flagged = []
    for row in benign_rows:
        red = redact(row["message"])
        if red.findings:
            flagged.append(
                (row["message"], [(f.kind, row["message"][f.start : f.end]) for f in red.findings])
            )
    print(
        f"false positives: {len(flagged)}/{len(benign_rows)} benign messages = "
        f"{len(flagged) / len(benign_rows):.2%}"
    )
    if args.show_misses:
        for msg, found in flagged:
            print(f"  FP {found} in {msg[:100]!r}")

    print("findings per kind (secret corpus):")
    for kind, n in sorted(per_kind.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {kind:26s} {n}")

    all_msgs = [r["message"] for r in secret_rows] + [r["message"] for r in benign_rows]
    redact(all_msgs[0])  # warm up
    t_all = time_us(all_msgs, args.repeat)
    typical = typical_messages([r["message"] for r in benign_rows])
    t_typ = time_us(typical, args.repeat)
    with_secret = [m[:250] + " key AKIAIOSFODNN7EXAMPLE " + m[250:275] for m in typical]
    t_sec = time_us(with_secret, args.repeat)
    mean_len = statistics.mean(len(m) for m in all_msgs)
    print(
        f"speed, all {len(all_msgs)} corpus messages (mean {mean_len:.0f} chars): "
        f"median {statistics.median(t_all):.1f} µs, p95 {pct(t_all, 0.95):.1f} µs"
    )
    print(
        f"speed, {len(typical)} typical 300-char messages: "
        f"median {statistics.median(t_typ):.1f} µs, p95 {pct(t_typ, 0.95):.1f} µs"
    )
    print(
        f"speed, the same with one AWS key inside: "
        f"median {statistics.median(t_sec):.1f} µs, p95 {pct(t_sec, 0.95):.1f} µs"
    )


if __name__ == "__main__":
    main()
