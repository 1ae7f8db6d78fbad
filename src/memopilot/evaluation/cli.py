"""``memopilot eval``: the scenario suite and the LoCoMo retrieval benchmark from the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..errors import InvalidInputError, MemoPilotError

if TYPE_CHECKING:
    from ..llm import ChatClient
    from ..settings import Settings

__all__ = ["eval_app"]

eval_app = typer.Typer(
    help="Evaluate the memory layer: scenario suites and the LoCoMo retrieval benchmark.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help, as the main command's
)
console = Console()
T = TypeVar("T")
Tick = Callable[[int, int], None]  # progress: (done, total)
progress_console = Console(stderr=True)


def _fail(exc: Exception) -> typer.Exit:
    typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
    return typer.Exit(1)


def _names(value: str, allowed: tuple[str, ...], what: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    unknown = [n for n in names if n not in allowed]
    if unknown or not names:
        raise InvalidInputError(
            f"unknown {what} {', '.join(unknown) or '(none)'}; choose from {', '.join(allowed)}"
        )
    return names


def _budgets(value: str) -> list[int]:
    try:
        budgets = [int(b) for b in value.split(",") if b.strip()]
    except ValueError:
        raise InvalidInputError(
            f"--budget takes comma-separated token counts such as 1000,2500, got {value!r}"
        ) from None
    if not budgets or min(budgets) < 1:
        raise InvalidInputError("--budget must be at least 1")
    return budgets


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    progress_console.print(f"wrote {path}")


def _load_settings() -> Settings:
    from ..settings import Settings  # loads with the first command, not for --help

    return Settings.load()


def _chat_client(settings: Settings) -> ChatClient | None:
    from ..llm import make_chat_client  # the HTTP client loads only for a run, not for --help

    return make_chat_client(settings)


def _tracked(label: str, total: int | None, llm: ChatClient | None, work: Callable[[Tick], T]) -> T:
    """Run ``work`` under a progress bar (it reports ``(done, total)``), then close the LLM client."""
    try:
        with _progress(label) as bar:
            task = bar.add_task("run", total=total)
            return work(lambda done, total: bar.update(task, completed=done, total=total))
    finally:
        if llm is not None:
            llm.close()


def _progress(label: str) -> Progress:
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=progress_console,
        transient=True,
    )


@eval_app.command("scenarios")
def scenarios_cmd(
    file: Annotated[
        Path | None, typer.Option("--file", help="scenario file (default: the suite shipped with MemoPilot)")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the results as JSON to this file")
    ] = None,
    strategies: Annotated[
        str,
        typer.Option(
            "--strategies", help="comma-separated: memory,no_memory,raw_history,full_history,history_summary"
        ),
    ] = "memory,no_memory,raw_history,full_history,history_summary",
    budget: Annotated[
        int | None, typer.Option("--budget", help="token budget (default: the context budget)")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="draw the comparison to this PNG")] = None,
    answer: Annotated[
        bool | None,
        typer.Option("--answer/--no-answer", help="answer with the LLM (default: when one is configured)"),
    ] = None,
    contexts: Annotated[bool, typer.Option("--contexts", help="include each context in the JSON")] = False,
) -> None:
    """Run a scenario suite under every strategy and compare them."""
    from .report import plot_scenarios, scenario_category_table, scenario_table
    from .scenarios import load_scenarios
    from .strategies import STRATEGIES, run_scenarios

    try:
        chosen = _names(strategies, STRATEGIES, "strategy")
        settings = _load_settings()
        suite = load_scenarios(file)
        llm = _chat_client(settings)
        if answer and llm is None:
            raise InvalidInputError(
                "--answer needs an LLM: set MEMOPILOT_LLM_BASE_URL (and the model and key)"
            )
        run = _tracked(
            "scenarios",
            len(suite),
            llm,
            lambda tick: run_scenarios(
                suite,
                strategies=chosen,
                settings=settings,
                llm=llm,
                answer=answer,
                budget=budget,
                progress=tick,
                keep_context=contexts,
            ),
        )
        summary = run.summary(with_context=contexts)
        console.print(scenario_table(summary, f"{len(suite)} scenarios from {file or 'the built-in suite'}"))
        console.print(scenario_category_table(summary))
        if json_out is not None:
            _write_json(json_out, summary)
        if plot is not None:
            progress_console.print(f"plotted {plot_scenarios(summary, plot)}")
    except MemoPilotError as exc:
        raise _fail(exc) from None
    except ValueError as exc:
        raise _fail(exc) from None


@eval_app.command("extraction")
def extraction_cmd(
    file: Annotated[Path, typer.Option("--file", help="an extraction test file (SPEC Contracts)")],
    locomo: Annotated[
        Path | None, typer.Option("--locomo", help="the LoCoMo file that items with 'locomo' refer to")
    ] = None,
    split: Annotated[
        str | None, typer.Option("--split", help="only the items of this split (e.g. tune or check)")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the results as JSON to this file")
    ] = None,
) -> None:
    """Score the write path on labelled messages: precision, recall, false criticals, silence."""
    from .extraction import load_items, run_extraction
    from .report import extraction_table

    try:
        items = load_items(file, locomo)
        if split is not None:
            items = [i for i in items if i.split == split]
            if not items:
                raise InvalidInputError(f"no item of {file} is in split {split!r}")
        settings = _load_settings()
        llm = _chat_client(settings)
        run = _tracked(
            "messages",
            len(items),
            llm,
            lambda tick: run_extraction(items, settings=settings, llm=llm, progress=tick),
        )
        summary = run.summary()
        console.print(extraction_table(summary, f"{file.name}" + (f" ({split})" if split else "")))
        if json_out is not None:
            _write_json(json_out, summary)
    except MemoPilotError as exc:
        raise _fail(exc) from None


@eval_app.command("locomo")
def locomo_cmd(
    data: Annotated[Path, typer.Option("--data", help="a LoCoMo-format JSON file")],
    budget: Annotated[str, typer.Option("--budget", help="token budget(s), comma-separated")] = "2500",
    mode: Annotated[str, typer.Option("--mode", help="episodes | both")] = "episodes",
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the results as JSON to this file")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="draw the comparison to this PNG")] = None,
    systems: Annotated[
        str | None,
        typer.Option(
            "--systems",
            help="comma-separated subset of memopilot,bm25,dense,hybrid_rrf,recent; an item ending in "
            ".json or .jsonl is a file of another system's per-question rows, compared with the rest",
        ),
    ] = None,
    rows_out: Annotated[
        Path | None, typer.Option("--rows", help="write every per-question row here (JSON Lines)")
    ] = None,
    answer: Annotated[bool, typer.Option("--answer", help="answer each question with the LLM (F1)")] = False,
    judge: Annotated[
        bool, typer.Option("--judge", help="grade the answers with an LLM judge (J score)")
    ] = False,
) -> None:
    """LoCoMo retrieval benchmark: evidence recall of MemoPilot and baselines under a token budget."""
    from .answering import LocomoAnswerer
    from .locomo import BASELINES, MEMOPILOT, MODES, run_locomo
    from .locomo_data import load_locomo
    from .paired import read_rows, write_rows
    from .report import locomo_table, plot_locomo

    try:
        if mode not in MODES:
            raise InvalidInputError(f"--mode must be one of {', '.join(MODES)}")
        budgets = _budgets(budget)
        items = [x.strip() for x in (systems or "").split(",") if x.strip()]
        files = [x for x in items if x.endswith((".json", ".jsonl"))]  # other systems' rows
        named = ",".join(x for x in items if x not in files)
        external = [row for file in files for row in read_rows(Path(file))]
        wanted = _names(named, (MEMOPILOT, *BASELINES), "system") if named else None
        settings = _load_settings()
        conversations = load_locomo(data)
        llm = _chat_client(settings)
        if (answer or judge) and llm is None:
            raise InvalidInputError(
                "--answer and --judge need an LLM: set MEMOPILOT_LLM_BASE_URL (model, key)"
            )
        answerer = LocomoAnswerer(llm, judge=judge) if (answer or judge) and llm is not None else None
        run = _tracked(
            "questions",
            None,
            llm,
            lambda tick: run_locomo(
                conversations,
                budgets=budgets,
                mode=mode,
                settings=settings,
                llm=llm if mode != "episodes" else None,
                answerer=answerer,
                systems=wanted,
                progress=tick,
            ),
        )
        run.external = external
        summary = run.summary()
        if rows_out is not None:
            write_rows(rows_out, run.rows())
        per_budget = summary["budgets"] if "budgets" in summary else {str(budgets[0]): summary}
        for key, result in per_budget.items():
            console.print(locomo_table(result, key))
        errors = f"; {answerer.errors} LLM errors" if answerer is not None and answerer.errors else ""
        progress_console.print(
            f"{len(conversations)} conversations, {run.memories} memories stored "
            f"in {run.ingest_seconds:.1f} s{errors}"
        )
        if json_out is not None:
            _write_json(json_out, summary)
        if plot is not None:
            progress_console.print(f"plotted {plot_locomo(summary, plot)}")
    except MemoPilotError as exc:
        raise _fail(exc) from None
    except ValueError as exc:
        raise _fail(exc) from None
