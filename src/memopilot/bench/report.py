"""Printing and plotting ``memopilot bench`` results."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

__all__ = ["plot_growth", "print_table"]

_COLUMNS = (
    "read_p50_ms",
    "read_p95_ms",
    "read_p99_ms",
    "write_p50_ms",
    "write_p95_ms",
    "ingest_per_s",
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
    Console(width=max(console.width, 150)).print(table)  # nine numeric columns need the room


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:,.1f}" if isinstance(value, float) else str(value)


def plot_growth(results: dict[str, Any], path: str) -> None:
    """Latency against store size (log scale), MemoPilot and the peer."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise RuntimeError("--plot needs matplotlib: pip install 'memopilot[bench]'") from exc
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
