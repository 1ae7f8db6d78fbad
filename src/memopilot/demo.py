"""``memopilot demo``: a short guided tour of the engine on a scratch database."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .clock import FixedClock, SystemClock
from .engine.facade import MemoPilot
from .settings import Settings

__all__ = ["run_demo"]

_SEED = [
    ("Never commit API keys or passwords to the repository", "critical", None),
    ("I prefer tabs over spaces for indentation in Python", "preference", None),
    ("We decided to use PostgreSQL 16 for the billing service", "decision", None),
    ("The billing service must stay PCI compliant: no card numbers in logs", "constraint", None),
    ("Ship the invoice export feature", "deadline", 5),
    ("For today only, answer in short bullet points", "temporary", 1),
    ("I am learning Rust, explain ownership with examples", "learning_goal", None),
    ("Last time the migration script dropped the audit table by mistake", "mistake", None),
]


def run_demo(console: Console, *, keep: bool = False, db: str | None = None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="memopilot-demo-"))
    url = db or f"sqlite:///{folder / 'demo.db'}"
    clock = FixedClock(SystemClock().now())
    with MemoPilot.open(url, settings=Settings.load(database_url=url), clock=clock) as mp:
        console.rule("1. Add typed memories")
        ids = {}
        for content, kind, expires_in_days in _SEED:
            expires = clock.now() + timedelta(days=expires_in_days) if expires_in_days else None
            ids[kind] = mp.add(content, type=kind, expires_at=expires).id
            console.print(f"  [cyan]{kind:>13}[/cyan]  {content}")

        _ask(console, mp, "Which database should the billing service use, and what must I avoid?")

        console.rule("2. A decision changes: the old one is superseded, not deleted")
        new = mp.add("We switched the billing service to CockroachDB", type="decision")
        mp.supersede(ids["decision"], new.id, reason="the team changed its mind")
        _ask(console, mp, "Which database does the billing service use?")

        console.rule("3. A week passes: temporary notes and deadlines expire")
        clock.advance(days=7)
        report = mp.run_forgetting()
        console.print(f"  expired {len(report.expired)} memories; nothing was deleted")
        history = mp.history(ids["temporary"])
        console.print("  history of the temporary note: " + ", ".join(e.kind.value for e in history))

        console.rule("4. Reflect: consolidation summaries")
        mp.add("I prefer dark mode in every editor", type="preference")
        mp.add("I prefer concise answers with code first", type="preference")
        result = mp.reflect()
        console.print(f"  summaries created: {[s['type'] for s in result.summaries_created]}")
        console.print(f"  a second reflect changes nothing: {not mp.reflect().changed}")
    if keep or db:
        console.print(f"\nDatabase: {url}")
    console.print("\nNext: memopilot --help, or read the README's tour.")


def _ask(console: Console, mp: MemoPilot, question: str) -> None:
    result = mp.build_context(question, budget_tokens=200)
    trace = result.trace
    console.print(f"\n[bold]Q:[/bold] {question}")
    console.print(result.text, markup=False, highlight=False)
    table = Table(
        title=f"trace: {trace.used_tokens}/{trace.budget_tokens} tokens, {trace.latency_ms['total']:.1f} ms"
    )
    for column in ("in", "score", "memory", "reason"):
        table.add_column(column, overflow="fold")
    memories = mp.store.get_many((i.memory_id for i in trace.included + trace.skipped), user_id=trace.user_id)
    for item in trace.included + trace.skipped:
        table.add_row(
            "yes" if item.included else "no",
            f"{item.score:.2f}",
            memories[item.memory_id].content[:50],
            item.reason,
        )
    console.print(table)
