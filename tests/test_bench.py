"""`memopilot bench` runs end to end on a small profile (figures are printed, never asserted)."""

from __future__ import annotations

import importlib.util
import json
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memopilot.bench.runner import median_of_runs
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
        "cpu_gauge_ms",
    ):
        assert figures[key] > 0, key
    assert figures["read_p50_ms"] <= figures["read_p95_ms"] <= figures["read_p99_ms"]
    # a write's learned judgement lands after the call returns: the settled time includes it
    assert figures["write_settled_p50_ms"] >= figures["write_p50_ms"]
    assert data["machine"]["cpus"] >= 1
    if with_peer:
        assert data["peer"]["sizes"]["300"]["search_p50_ms"] > 0
    if plot.exists():
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_rejects_bad_sizes() -> None:
    result = CliRunner().invoke(app, ["bench", "--sizes", "ten", "--no-peer"])
    assert result.exit_code == 1 and "--sizes must be comma-separated integers" in result.stderr


def test_bench_repeat_reports_the_median_of_its_runs(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    args = ["bench", "--sizes", "200", "--queries", "10", "--repeat", "3", "--no-peer", "--json", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert len(data["runs"]) == 3
    for key, value in data["sizes"]["200"].items():
        measured = [run["200"][key] for run in data["runs"] if isinstance(run["200"][key], int | float)]
        if measured:
            assert value == pytest.approx(statistics.median(measured)), key


def test_median_of_runs_skips_runs_that_could_not_measure_a_figure() -> None:
    # the background worker may complete every vector before the bench asks: that run has no rate
    runs = [
        {"1": {"rate": None, "url": "a"}},
        {"1": {"rate": 30.0, "url": "a"}},
        {"1": {"rate": 10.0, "url": "a"}},
    ]
    assert median_of_runs(runs) == {"1": {"rate": 20.0, "url": "a"}}
    assert median_of_runs([{"1": {"rate": None}}, {"1": {"rate": None}}]) == {"1": {"rate": None}}


def test_median_of_runs_takes_each_figure_separately() -> None:
    runs = [{"1": {"a": 1.0, "b": 30.0}}, {"1": {"a": 3.0, "b": 10.0}}, {"1": {"a": 2.0, "b": 20.0}}]
    assert median_of_runs(runs) == {"1": {"a": 2.0, "b": 20.0}}


def test_many_users_short_profile(tmp_path: Path) -> None:
    """The CI profile of `memopilot bench --users` (the full run is in BENCHMARKS.md)."""
    out, plot = tmp_path / "many.json", tmp_path / "many.png"
    args = ["bench", "--users", "120", "--per-user", "20", "--reads", "300", "--cache-mb", "0.5"]
    args += ["--json", str(out)] + (["--plot", str(plot)] if importlib.util.find_spec("matplotlib") else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert "sizes" not in data  # --users alone runs only the many-users bench
    figures = data["many_users"]
    assert figures["rows"] == 120 * 20 + 50 * 1000
    assert figures["warm_reads"] + figures["cold_reads"] == 300
    assert figures["cold_reads"] > 0 and figures["cache_evictions"] > 0  # the cap was reached
    assert figures["cache_held_mb"] <= figures["cache_cap_mb"] == 0.5
    assert 0 < figures["base_rss_mb"] <= figures["ready_rss_mb"] <= figures["max_rss_mb"]
    assert figures["read_p50_ms"] <= figures["read_p95_ms"] <= figures["read_p99_ms"]
    assert figures["cold_1000_first_read_p50_ms"] > 0
    assert len(figures["rss_mb_over_reads"]) >= 100
    if importlib.util.find_spec("matplotlib"):
        assert (tmp_path / "many-rss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_zipf_draws_favour_few_users_in_a_random_order() -> None:
    from collections import Counter

    from memopilot.bench.many_users import zipf_users

    draws = zipf_users(1000, 20_000, seed=3)
    assert draws == zipf_users(1000, 20_000, seed=3) and min(draws) >= 0 and max(draws) < 1000
    counts = Counter(draws).most_common()
    top_share = sum(n for _, n in counts[:10]) / len(draws)
    assert 0.3 < top_share < 0.6  # exponent 1.1 over 1,000 ranks: the top ten take about 45%
    assert len(counts) > 500  # and a long tail is read at least once
    assert counts[0][0] != 0 or counts[1][0] != 1  # ranks are not the users' numbers
