#!/usr/bin/env python3
"""Measure MemoPilot's secret redaction on a corpus: secrets removed, benign messages altered, speed.

A corpus is a folder holding ``secret_messages.jsonl`` (``{"message", "secrets": [...], "kinds"}``)
and ``benign_messages.jsonl`` (``{"message"}``). Two sorts are kept:

* tune corpora (``tests/data`` and ``tests/data/redaction_tune*``): their misses were read and the
  detectors fitted to them, and the learned net (``learned.py``) is trained on them.
  ``redaction_tune4``-``12`` were written as held-out check corpora by helpers who had not seen the
  detectors, measured unseen, then tuned or trained on (their READMEs say so);
* the check corpus ``tests/data/redaction_check10``: written by a helper that saw neither the
  detectors nor any other corpus, and only ever measured; its misses are never printed here.

A secret counts as removed when no 8-character run of its value remains in the redacted text, with
spaces, dashes and line breaks taken out of both and placeholders out of the text (a value shorter
than 8 such characters must not remain whole). A benign message counts as altered when redaction
changes it at all. Speed: median and p95 microseconds per :func:`memopilot.write.redaction.redact`
call over typical 300-character messages (benign sentences joined up to 300 characters), without
and with one secret, and over 300-character chunks of real conversation (LoCoMo dev turns, read
from ../shared/data).

Run from the repository root::

    python scripts/measure_redaction.py [--corpus tests/data/redaction_tune6] [--repeat 20] [--show-misses]
        [--without-model] [--profile] [--ab REV]

With no ``--corpus``, every corpus is measured (misses are never shown then). ``--show-misses`` is
for a tune corpus only: the check corpus must not be tuned on.

``--ab REV`` compares the redaction package of a git revision (``HEAD``, a commit) with the working
tree's in one process: their speed on the typical messages (of ``--corpus``, or of every corpus),
interleaved message by message, in thread CPU time: single runs of messages neither side has
redacted before (see ``unseen_single_us``), then the best of five runs of each message; then whether
their outputs are the same on every message of every corpus (a sha256 of each side's).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from memopilot.write.redaction import learned, redact

ROOT = Path(__file__).resolve().parents[1]
TUNE = ROOT / "tests" / "data"
TUNES = [TUNE, *sorted(TUNE.glob("redaction_tune*"))]
CHECKS = [TUNE / f"redaction_check{n}" for n in (10, 11, 13, *range(15, 64, 2))]
_SEPARATORS = re.compile(r"[\s\-‐‑–—]+")
_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


def load(folder: Path, name: str) -> list[dict]:
    with (folder / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def survives(secret: str, redacted: str) -> bool:
    """Whether any 8-character run of ``secret`` (separators taken out) remains in ``redacted``."""
    # (a placeholder is the redactor's own text: "[REDACTED:rubygems_api_token]" holds no run of a
    # "rubygems_..." token, though its kind's name begins as the token does)
    value, text = _SEPARATORS.sub("", secret), _SEPARATORS.sub("", _PLACEHOLDER.sub("[]", redacted))
    if len(value) <= 8:
        return value in text
    return any(value[i : i + 8] in text for i in range(len(value) - 7))


def score(folder: Path) -> dict:
    """Removal rate, benign alteration rate and the misses of one corpus."""
    secret_rows, benign_rows = load(folder, "secret_messages.jsonl"), load(folder, "benign_messages.jsonl")
    leaks, total, per_kind = [], 0, Counter()
    for row in secret_rows:
        red = redact(row["message"])
        for secret, kind in zip(row["secrets"], row.get("kinds") or [""] * len(row["secrets"]), strict=False):
            total += 1
            if survives(secret, red.text):
                leaks.append((kind, secret, row["message"]))
                per_kind[kind] += 1
    altered = [(row["message"], redact(row["message"]).text) for row in benign_rows]
    altered = [(m, r) for m, r in altered if m != r]
    return {
        "secrets": total,
        "removed": total - len(leaks),
        "removed_rate": (total - len(leaks)) / total,
        "benign": len(benign_rows),
        "altered": len(altered),
        "altered_rate": len(altered) / len(benign_rows),
        "leaks": leaks,
        "leaks_by_kind": per_kind,
        "false_positives": altered,
        "benign_messages": [r["message"] for r in benign_rows],
        "secret_messages": [r["message"] for r in secret_rows],
    }


def time_us(messages: list[str], repeat: int) -> list[float]:
    """Per-message time in µs: the best of ``repeat`` runs of each message (noise is one-sided)."""
    return [_best_redact_us(msg, repeat, time.perf_counter_ns) for msg in messages]


def unseen_single_us(messages: list[str]) -> list[float]:
    """Per-message time in µs of one run each over messages this process has not redacted before
    (every second one), after one run over the others: the best of repeated runs of the same text
    finds the caches warm for it (CPU caches, RE2's DFA states of the prefilter, the learned net's
    token scores), which a new message does not; this is nearer what a message met once costs."""
    for msg in messages[::2]:
        redact(msg)
    times = []
    for msg in messages[1::2]:
        t0 = time.perf_counter_ns()
        redact(msg)
        times.append((time.perf_counter_ns() - t0) / 1000)
    return times


def _best_redact_us(text: str, repeat: int, clock: Callable[[], int]) -> float:
    """The best of ``repeat`` runs of :func:`redact` over ``text``, in µs of ``clock``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        redact(text)
        best = min(best, clock() - t0)
    return best / 1000


def typical_messages(benign: list[str], size: int = 300) -> list[str]:
    """Benign sentences joined (with spaces) into chunks of about ``size`` characters."""
    chunks, cur = [], ""
    for msg in benign:
        cur = f"{cur} {msg}".strip()
        if len(cur) >= size:
            chunks.append(cur[:size])
            cur = ""
    return chunks


def conversation_messages(size: int = 300, limit: int = 200) -> list[str]:
    """Real chat: LoCoMo turns (../shared/data/locomo_dev.json, read in place) joined into chunks of
    about ``size`` characters; empty when the file is not beside the repository."""
    path = ROOT.parent / "shared" / "data" / "locomo_dev.json"
    if not path.exists():
        return []
    turns = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        sessions = sorted(k for k in conversation if k.startswith("session_") and not k.endswith("date_time"))
        for key in sessions:
            turns += [t["text"] for t in conversation[key] if isinstance(t, dict) and t.get("text")]
    return typical_messages(turns, size)[:limit]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, folder: Path, repeat: int, show_misses: bool) -> None:
    result = score(folder)
    print(f"{name} corpus ({folder.relative_to(ROOT)}):")
    print(
        f"  secrets removed: {result['removed']}/{result['secrets']} = {result['removed_rate']:.1%}; "
        f"benign messages altered: {result['altered']}/{result['benign']} = {result['altered_rate']:.1%}"
    )
    if show_misses:
        for kind, secret, message in result["leaks"]:
            print(f"  LEAK [{kind}] {secret!r} in {message[:120]!r}")
        for message, redacted in result["false_positives"]:
            print(f"  ALTERED {message[:100]!r}\n       -> {redacted[:100]!r}")
    typical = typical_messages(result["benign_messages"])
    redact(typical[0])  # warm up
    t_unseen = unseen_single_us(typical[1:])
    t_typ = time_us(typical, repeat)
    with_secret = [m[:250] + " key AKIAIOSFODNN7EXAMPLE " + m[250:275] for m in typical]
    t_sec = time_us(with_secret, repeat)
    print(
        f"  speed, {len(typical)} typical 300-char messages: median {statistics.median(t_typ):.1f} µs, "
        f"p95 {pct(t_typ, 0.95):.1f} µs; with one AWS key inside: median {statistics.median(t_sec):.1f} µs"
    )
    if t_unseen:
        print(
            f"  speed, {len(t_unseen)} of them each run once, unseen before (see unseen_single_us): "
            f"median {statistics.median(t_unseen):.1f} µs, p95 {pct(t_unseen, 0.95):.1f} µs"
        )


def profile(folders: list[Path], repeat: int) -> None:
    """Per-detector time on the typical messages of ``folders``: each detector timed where it runs
    in :func:`redact`'s order (the message's shared keyword pass first), the best of ``repeat`` runs
    of the whole sequence, in thread CPU time. Medians over the messages; a detector's time alone
    (run several times over, its own data warm in the caches) is lower by a third."""
    from memopilot.write import redaction

    detectors = redaction._detectors()
    steps: list[tuple[str, object]] = [("keyword pass", None)]
    steps += [(f"rules.{f.__name__}", f) for f in detectors.rules.DETECTORS]
    steps += [(f.__module__.rsplit(".", 1)[-1], f) for f in detectors.wider]
    messages = [
        m
        for folder in folders
        for m in typical_messages([r["message"] for r in load(folder, "benign_messages.jsonl")])
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in steps}
    totals = []
    for text in messages:
        lower = text.lower()
        best = dict.fromkeys(times, float("inf"))
        for _ in range(repeat):
            for name, detect in steps:
                t0 = time.thread_time_ns()
                if detect is None:
                    detectors.begin_message(lower)
                else:
                    list(detect(text, lower))  # type: ignore[operator]
                best[name] = min(best[name], time.thread_time_ns() - t0)
        totals.append(_best_redact_us(text, repeat, time.thread_time_ns))
        for name, ns in best.items():
            times[name].append(ns / 1000)
    print(f"per-detector time over {len(messages)} typical 300-char messages (median, mean µs):")
    for name, values in sorted(times.items(), key=lambda item: -statistics.median(item[1])):
        print(f"  {name:24s} {statistics.median(values):7.1f} {statistics.mean(values):7.1f}")
    print(f"  {'redact() whole':24s} {statistics.median(totals):7.1f} {statistics.mean(totals):7.1f}")


def _package_at(rev: str) -> Callable[[str], object]:
    """The ``redact`` of the redaction package as it is at git revision ``rev``, imported from a
    copy under another name (its modules import each other relatively)."""
    import importlib
    import subprocess
    import sys
    import tarfile
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="redaction_ab_"))
    archive = folder / "package.tar"
    with archive.open("wb") as fh:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "src/memopilot/write/redaction"], stdout=fh, check=True
        )
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    (folder / "src" / "memopilot" / "write" / "redaction").rename(folder / "redaction_ab")
    sys.path.insert(0, str(folder))
    return importlib.import_module("redaction_ab").redact


def _corpus_messages(folders: list[Path]) -> list[str]:
    return [
        row["message"]
        for folder in folders
        for name in ("secret_messages.jsonl", "benign_messages.jsonl")
        for row in load(folder, name)
    ]


def ab(rev: str, folders: list[Path]) -> None:
    """Compare the package at ``rev`` (A) with the working tree's (B): see the module docstring."""
    import hashlib

    old = _package_at(rev)
    new = redact
    messages = [
        m
        for folder in folders
        for m in typical_messages([r["message"] for r in load(folder, "benign_messages.jsonl")])
    ]
    clock = time.thread_time_ns
    unseen: tuple[list[float], list[float]] = ([], [])
    for i, text in enumerate(messages[1::2]):  # (these have not been redacted by either side yet)
        order = ((0, old), (1, new)) if i % 2 else ((1, new), (0, old))
        for side, run in order:
            t0 = clock()
            run(text)
            unseen[side].append((clock() - t0) / 1000)
    best: tuple[list[float], list[float]] = ([], [])
    for i, text in enumerate(messages):
        order = ((0, old), (1, new)) if i % 2 else ((1, new), (0, old))
        for side, run in order:
            best[side].append(min(_one_run_us(run, text, clock) for _ in range(5)))
    for name, (a, b) in (("best of 5", best), ("single runs, unseen", unseen)):
        ratios = [y / x for x, y in zip(a, b, strict=True) if x > 0]
        print(
            f"{name}, {len(a)} typical messages: "
            f"{rev} median {statistics.median(a):.1f} mean {statistics.mean(a):.1f} µs; "
            f"working tree median {statistics.median(b):.1f} mean {statistics.mean(b):.1f} µs; "
            f"per-message ratio median {statistics.median(ratios):.3f}"
        )
    # (after the speed: its single runs are of messages neither side has met, nor their tokens)
    sides = [hashlib.sha256(), hashlib.sha256()]
    every = _corpus_messages([TUNE, *sorted(TUNE.glob("redaction_*"))])  # (the look-alike corpora too)
    differing = 0
    for text in every:
        a, b = repr(old(text)), repr(new(text))
        sides[0].update(a.encode())
        sides[1].update(b.encode())
        differing += a != b
    print(
        f"outputs over {len(every)} corpus messages: {differing} differ; "
        f"sha256 {rev} {sides[0].hexdigest()[:12]}, working tree {sides[1].hexdigest()[:12]}"
    )


def _one_run_us(run: Callable[[str], object], text: str, clock: Callable[[], int]) -> float:
    t0 = clock()
    run(text)
    return (clock() - t0) / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, help="a corpus folder (default: the tune and the check corpus)")
    ap.add_argument("--repeat", type=int, default=20, help="timing runs per message (best is kept)")
    ap.add_argument("--show-misses", action="store_true", help="print leaks and altered benign messages")
    ap.add_argument(
        "--without-model", action="store_true", help="the hand-written detectors alone (no learned net)"
    )
    ap.add_argument(
        "--profile", action="store_true", help="time each detector on the typical messages (no scores)"
    )
    ap.add_argument(
        "--ab",
        metavar="REV",
        help="compare the package at a git revision with the working tree's (no scores)",
    )
    args = ap.parse_args()
    if args.without_model:
        learned._model = lambda: None  # what the learned net adds is the difference of two runs
    if args.ab:
        ab(args.ab, [args.corpus.resolve()] if args.corpus else TUNES + CHECKS)
        return
    if args.profile:
        profile([args.corpus.resolve()] if args.corpus else TUNES + CHECKS, min(args.repeat, 5))
        return
    if args.corpus:
        folder = args.corpus.resolve()
        if args.show_misses and folder in CHECKS:
            ap.error("the check corpus is only measured: its misses are not shown (see the module docstring)")
        report("given", folder, args.repeat, args.show_misses)
        return
    for tune in TUNES:
        report("tune", tune, args.repeat, show_misses=False)
    for check in CHECKS:
        report("check", check, args.repeat, show_misses=False)
    pooled = [
        m
        for folder in TUNES + CHECKS
        for m in typical_messages([r["message"] for r in load(folder, "benign_messages.jsonl")])
    ]
    t_pooled_unseen = unseen_single_us(pooled)
    t_pooled = time_us(pooled, args.repeat)
    print(
        f"speed, all {len(pooled)} typical 300-char messages of every corpus: "
        f"median {statistics.median(t_pooled):.1f} µs, p95 {pct(t_pooled, 0.95):.1f} µs; "
        f"each run once, unseen before: median {statistics.median(t_pooled_unseen):.1f} µs"
    )
    chat = conversation_messages()
    if chat:
        redact(chat[0])
        t_chat = time_us(chat, args.repeat)
        print(
            f"speed, {len(chat)} 300-char chunks of real conversation (LoCoMo dev): "
            f"median {statistics.median(t_chat):.1f} µs, p95 {pct(t_chat, 0.95):.1f} µs"
        )


if __name__ == "__main__":
    main()
