"""`memopilot bench` runs end to end on a small profile (figures are printed, never asserted)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from typer.testing import CliRunner

from memopilot.bench.synthetic import WEIGHTS, generate_memories, generate_questions
from memopilot.cli import app

from .conftest import T0


def test_synthetic_data_is_deterministic_and_varied() -> None:
    first = list(generate_memories(500, seed=3, now=T0))
    assert first == list(generate_memories(500, seed=3, now=T0))
    assert {m.type for m in first} == set(WEIGHTS)
    assert len({m.project_id for m in first}) >= 8 and any(m.project_id is None for m in first)
    assert min(m.created_at for m in first) < T0.replace(month=1) and max(len(m.content) for m in first) > 150
    assert "{" not in " ".join(m.content for m in first)  # every template placeholder filled
    assert len(generate_questions(20, seed=3)) == 20


def test_bench_command_small_profile(tmp_path: Path) -> None:
    out, plot = tmp_path / "bench.json", tmp_path / "bench.png"
    with_peer = importlib.util.find_spec("mem0") is not None
    args = ["bench", "--sizes", "300", "--queries", "20", "--peer-queries", "10", "--json", str(out)]
    args += ["--plot", str(plot)] if importlib.util.find_spec("matplotlib") else []
    args += [] if with_peer else ["--no-peer"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    figures = data["sizes"]["300"]
    for key in (
        "read_p50_ms",
        "read_p95_ms",
        "read_p99_ms",
        "write_p50_ms",
        "write_p95_ms",
        "ingest_per_s",
        "disk_mb",
        "peak_rss_mb",
    ):
        assert figures[key] > 0, key
    assert figures["read_p50_ms"] <= figures["read_p95_ms"] <= figures["read_p99_ms"]
    assert data["machine"]["cpus"] >= 1
    if with_peer:
        assert data["peer"]["sizes"]["300"]["search_p50_ms"] > 0
    if plot.exists():
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_rejects_bad_sizes() -> None:
    result = CliRunner().invoke(app, ["bench", "--sizes", "ten", "--no-peer"])
    assert result.exit_code == 1 and "--sizes must be comma-separated integers" in result.stderr
