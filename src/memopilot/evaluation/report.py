"""Showing evaluation results: rich tables on the console and matplotlib comparison charts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table

from ..errors import InvalidInputError

__all__ = ["extraction_table", "locomo_table", "plot_locomo", "plot_scenarios", "scenario_table"]


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def scenario_table(summary: dict[str, Any], title: str = "scenario suite") -> Table:
    rows = summary["strategies"]
    columns = [
        "context_recall",
        "outdated_avoidance",
        "avg_context_tokens",
        "latency_p50_ms",
        "latency_p95_ms",
    ]
    if any("accuracy" in m for m in rows.values()):
        columns.insert(0, "accuracy")
    table = Table(title=title)
    table.add_column("strategy")
    for c in columns:
        table.add_column(c, justify="right")
    for name, metrics in rows.items():
        table.add_row(name, *(_fmt(metrics.get(c)) for c in columns))
    return table


def scenario_category_table(summary: dict[str, Any], metric: str = "context_recall") -> Table:
    strategies = list(summary["strategies"])
    table = Table(title=f"{metric} by category")
    table.add_column("category")
    for s in strategies:
        table.add_column(s, justify="right")
    for category, per in summary["by_category"].items():
        table.add_row(
            f"{category} ({per[strategies[0]]['n']})", *(_fmt(per[s].get(metric)) for s in strategies)
        )
    return table


def extraction_table(summary: dict[str, Any], title: str) -> Table:
    """Per stored type and overall: what was stored, expected, precise and recalled."""
    overall = summary["overall"]
    table = Table(
        title=f"extraction: {title}, {overall['items']} items; false_critical "
        f"{overall['false_critical']}, stored_when_none_expected {_fmt(overall['stored_when_none_expected'])}"
    )
    for column in ("type", "stored", "expected", "precision", "recall"):
        table.add_column(column, justify="left" if column == "type" else "right")
    for name, row in summary["per_type"].items():
        table.add_row(name, *(_fmt(row[c]) for c in ("stored", "expected", "precision", "recall")))
    table.add_row(
        "overall", *(_fmt(overall[c]) for c in ("stored", "expected", "precision", "recall")), style="bold"
    )
    return table


def locomo_table(result: dict[str, Any], budget: str) -> Table:
    columns = ["evidence_recall", "all_evidence_rate", "avg_context_tokens", "p50_ms", "p95_ms"]
    systems = result["systems"]
    for extra in ("answer_words_shown", "answer_f1", "j_score"):
        if any(extra in m for m in systems.values()):
            columns.append(extra)
    table = Table(
        title=f"LoCoMo, budget {budget} tokens, {result['questions']} questions, mode {result['mode']}"
    )
    leads = result.get("leads", {})
    table.add_column("system")
    for c in columns:
        table.add_column(c, justify="right")
    if leads:
        table.add_column("memopilot lead (95% CI)", justify="right")
    for name, metrics in systems.items():
        cells = [_fmt(metrics.get(c)) for c in columns]
        if leads:
            cells.append(_lead(leads.get(name)))
        table.add_row(name, *cells)
    return table


def _lead(lead: dict[str, Any] | None) -> str:
    """``+0.117 (+0.082..+0.153)``: the paired bootstrap of evaluation/paired.py."""
    if not lead or lead.get("lead") is None:
        return "-"
    low, high = lead["ci95"]
    return f"{lead['lead']:+.3f} ({low:+.3f}..{high:+.3f})"


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the install
        raise InvalidInputError("--plot needs matplotlib: pip install 'memopilot[eval]'") from None
    return plt


def plot_scenarios(summary: dict[str, Any], out: str | Path) -> Path:
    plt = _pyplot()
    strategies = list(summary["strategies"])
    metrics = ["context_recall", "outdated_avoidance"]
    if any("accuracy" in m for m in summary["strategies"].values()):
        metrics.append("accuracy")
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(metrics)
    for i, metric in enumerate(metrics):
        values = [summary["strategies"][s].get(metric) or 0.0 for s in strategies]
        left.bar([x + i * width for x in range(len(strategies))], values, width, label=metric)
    left.set_xticks(
        [x + width * (len(metrics) - 1) / 2 for x in range(len(strategies))], strategies, rotation=20
    )
    left.set_ylim(0, 1.05)
    left.set_title("scenario suite: quality (higher is better)")
    left.legend()
    tokens = [summary["strategies"][s]["avg_context_tokens"] for s in strategies]
    right.bar(strategies, tokens, color="gray")
    right.set_title("average context tokens")
    right.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    return _save(fig, plt, out)


def plot_locomo(summary: dict[str, Any], out: str | Path) -> Path:
    plt = _pyplot()
    per_budget = summary["budgets"] if "budgets" in summary else {str(summary["budget"]): summary}
    budgets = list(per_budget)
    systems = [s for s in next(iter(per_budget.values()))["systems"] if s != "full_history"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(budgets)
    for i, budget in enumerate(budgets):
        values = [per_budget[budget]["systems"][s]["evidence_recall"] for s in systems]
        left.bar([x + i * width for x in range(len(systems))], values, width, label=f"{budget} tokens")
        tokens = [per_budget[budget]["systems"][s]["avg_context_tokens"] for s in systems]
        right.bar([x + i * width for x in range(len(systems))], tokens, width, label=f"{budget} tokens")
    for axis in (left, right):
        axis.set_xticks(
            [x + width * (len(budgets) - 1) / 2 for x in range(len(systems))], systems, rotation=20
        )
        axis.legend()
    left.set_ylim(0, 1.0)
    left.set_title("LoCoMo evidence recall")
    full = next(iter(per_budget.values()))["systems"]["full_history"]["avg_context_tokens"]
    right.set_title(f"average context tokens (full history: {full:.0f})")
    fig.tight_layout()
    return _save(fig, plt, out)


def _save(fig: Any, plt: Any, out: str | Path) -> Path:
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
