"""Printing and plotting ``memopilot bench`` results."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

__all__ = ["plot_growth", "plot_rss", "print_many_users", "print_table"]

_COLUMNS = (
    "read_p50_ms",
    "read_p95_ms",
    "read_p99_ms",
    "write_p50_ms",
    "write_p95_ms",
    "write_settled_p50_ms",
    "ingest_per_s",
    "completed_per_s",
    "disk_mb",
    "peak_rss_mb",
)


def print_table(console: Console, results: dict[str, Any]) -> None:
    table = Table(title="MemoPilot benchmark (one user; times in ms)")
    table.add_column("memories", justify="right")
    for column in _COLUMNS:
        table.add_column(column, justify="right")
    peer = results.get("peer", {}).get("sizes", {})
    if peer:
        table.add_column("peer search p50/p95", justify="right")
    for size, row in results["sizes"].items():
        cells = [f"{int(size):,}", *(_cell(row.get(c)) for c in _COLUMNS)]
        if peer:
            other = peer.get(size)
            cells.append(f"{other['search_p50_ms']:.1f} / {other['search_p95_ms']:.1f}" if other else "-")
        table.add_row(*cells)
    Console(width=max(console.width, 150)).print(table)  # ten numeric columns need the room


_MANY_USERS_ROWS = (
    ("rows (users x memories, + 50 users of 1,000)", "rows"),
    ("reads per second", "reads_per_s"),
    ("read p50 / p95 / p99 ms", ("read_p50_ms", "read_p95_ms", "read_p99_ms")),
    ("warm reads: count, p50 / p95 / p99 ms", ("warm_reads", "warm_p50_ms", "warm_p95_ms", "warm_p99_ms")),
    ("cold reads: count, p50 / p95 / p99 ms", ("cold_reads", "cold_p50_ms", "cold_p95_ms", "cold_p99_ms")),
    (
        "first read of a 1,000-memory user p50 / p95 ms",
        ("cold_1000_first_read_p50_ms", "cold_1000_first_read_p95_ms"),
    ),
    ("RSS MB: base, ready, highest during the reads", ("base_rss_mb", "ready_rss_mb", "max_rss_mb")),
    ("cache MB: cap, held at the end", ("cache_cap_mb", "cache_held_mb")),
    ("cache: users held, loads, evictions", ("cache_users", "cache_loads", "cache_evictions")),
    ("CPU gauge ms (about 2 on a fast core)", "cpu_gauge_ms"),
)


def print_many_users(console: Console, figures: dict[str, Any]) -> None:
    table = Table(title=f"{figures['users']:,} users x {figures['per_user']} memories, Zipf 1.1 reads")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for label, keys in _MANY_USERS_ROWS:
        names = keys if isinstance(keys, tuple) else (keys,)
        table.add_row(label, " / ".join(_cell(figures.get(k)) for k in names))
    console.print(table)


def plot_rss(figures: dict[str, Any], path: str) -> None:
    """The serving process's RSS as the reads go, against the cap plus the base."""
    plt = _pyplot()
    reads, rss = zip(*figures["rss_mb_over_reads"], strict=True)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(reads, rss, label="RSS")
    ax.axhline(figures["base_rss_mb"], linestyle=":", color="gray", label="base (start-up and embedder)")
    ax.axhline(figures["ready_rss_mb"], linestyle="-.", color="gray", label="ready (after one read)")
    capped = figures["ready_rss_mb"] + figures["cache_cap_mb"]
    ax.axhline(capped, linestyle="--", color="red", label="ready + cache cap")
    ax.set_xlabel("reads (users drawn by a Zipf law, exponent 1.1)")
    ax.set_ylabel("resident memory (MB)")
    ax.set_title(
        f"{figures['users']:,} users x {figures['per_user']} memories, cache {figures['cache_cap_mb']:g} MB"
    )
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise RuntimeError("--plot needs matplotlib: pip install 'memopilot[bench]'") from exc
    return plt


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:,.1f}" if isinstance(value, float) else str(value)


def plot_growth(results: dict[str, Any], path: str) -> None:
    """Latency against store size (log scale), MemoPilot and the peer."""
    plt = _pyplot()
    sizes = [int(s) for s in results["sizes"]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (("read_p50_ms", "MemoPilot read p50"), ("read_p95_ms", "MemoPilot read p95")):
        ax.plot(sizes, [results["sizes"][str(s)][key] for s in sizes], marker="o", label=label)
    peer = results.get("peer", {})
    for key in ("search_p50_ms", "search_p95_ms"):
        points = [(s, peer["sizes"][str(s)][key]) for s in sizes if str(s) in peer.get("sizes", {})]
        if points:
            ax.plot(
                *zip(*points, strict=True), marker="s", linestyle="--", label=f"{peer['name']} {key[7:10]}"
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories of the asking user")
    ax.set_ylabel("latency (ms)")
    ax.set_title("Read latency against store size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
