"""The ``memopilot`` command line: a thin shell that builds the library object from settings.

Every command that reads or writes memories takes ``--user`` and ``--project``; ``--json``
prints machine-readable output. A user mistake prints one ``error:`` line and exits 1.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from .domain import DEFAULT_PROJECT, DEFAULT_USER, Memory
from .errors import InvalidInputError, MemoPilotError

if TYPE_CHECKING:  # the engine and settings load on the first command that needs them, not for --help
    from .engine.facade import MemoPilot
    from .results import ContextResult, SearchResult
    from .settings import Settings

__all__ = ["app", "main"]

try:  # typer >= 0.24 carries its own copy of click
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # older typer uses click itself
    from click.exceptions import NoArgsIsHelpError, UsageError  # type: ignore[no-redef]


class _CommandLine(TyperGroup):
    """The root command: a usage mistake (unknown option or command, missing argument) gets the same
    one ``error:`` line and exit code 1 as a data mistake, followed by the usage hint."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except NoArgsIsHelpError as exc:  # bare `memopilot` or `memopilot keys`: the help, not an error
            sys.stdout.write(exc.format_message() + "\n")
            code = 0
        except UsageError as exc:
            sys.stderr.write(f"error: {_one_line(exc.format_message())}\n")
            if exc.ctx is not None:
                sys.stderr.write(f"Try '{exc.ctx.command_path} --help' for help.\n")
            code = 1
        except typer.Abort:
            sys.stderr.write("aborted\n")
            code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="memopilot",
    cls=_CommandLine,
    help="MemoPilot: governed long-term memory for LLM assistants.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help text: typer's rich help imports a Markdown renderer, a quarter of `--help`'s time
    rich_markup_mode=None,
    context_settings={"max_content_width": 120},  # wide terminals show each command's summary whole
)
console = Console()
err_console = Console(stderr=True)
T = TypeVar("T")


class _State:
    db: str | None = None


def _take_db(value: str | None) -> str | None:
    if value is not None:
        _State.db = value
    return value


UserOpt = Annotated[str, typer.Option("--user", help="user id")]
ProjectOpt = Annotated[str, typer.Option("--project", help="project id ('' for user-wide only)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print machine-readable JSON")]
_DB_HELP = "database URL (overrides MEMOPILOT_DATABASE_URL)"
# Accepted after the command as well as before it (`memopilot chat "..." --db URL`); the value lands
# in _State through the callback, so command bodies never pass it around.
DbOpt = Annotated[str | None, typer.Option("--db", help=_DB_HELP, callback=_take_db, expose_value=False)]


@app.callback()
def _main(db: Annotated[str | None, typer.Option("--db", help=_DB_HELP)] = None) -> None:
    _State.db = db  # reset per invocation: tests run many in one process


def _settings(**overrides: Any) -> Settings:
    from .settings import Settings

    return Settings.load(**overrides)


@contextmanager
def _engine(*, allow_model_change: bool = False) -> Iterator[MemoPilot]:
    from .engine.facade import MemoPilot

    settings = _settings(database_url=_State.db)
    mp = MemoPilot.open(settings=settings, allow_model_change=allow_model_change)
    try:
        yield mp
    finally:
        mp.close()


# Characters that act on a terminal instead of showing: C0 (but tab and line feed), DEL, C1 (ESC and
# CSI sequences among them), bidi controls and zero-width characters.
_TERMINAL_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]"
)


def _one_line(text: str) -> str:
    return _escape_controls(" ".join(text.split()))


def _escape_controls(text: str) -> str:
    return _TERMINAL_CONTROLS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _shown(text: str) -> Text:
    """Stored text for the terminal: never read as rich markup, control characters shown escaped."""
    return Text(_escape_controls(text))


def _project(value: str) -> str | None:
    return value or None


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _parse_time(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInputError(
            f"{name} must be an ISO date or datetime such as 2027-01-15, got {value!r}"
        ) from None


def _memory_table(memories: list[Memory], title: str) -> Table:
    table = Table(title=title, show_lines=False)
    for column in ("id", "type", "state", "project", "importance", "content"):
        table.add_column(column, overflow="fold")
    for m in memories:
        table.add_row(
            m.id[:12],
            m.type.value,
            m.state.value,
            m.project_id or "(user-wide)",
            f"{m.importance:.2f}",
            _shown(m.content),
        )
    return table


def _show_memory(memory: Memory, as_json: bool, verb: str) -> None:
    if as_json:
        _print_json(memory.to_dict())
    else:
        console.print(f"{verb} [bold]{memory.id}[/bold] ({memory.type.value}, {memory.state.value})")


def run(fn: Callable[[], T]) -> T:
    """Run a command body, turning MemoPilot errors into one clear line and exit code 1."""
    try:
        return fn()
    except MemoPilotError as exc:
        sys.stderr.write(f"error: {_one_line(str(exc))}\n")
        raise typer.Exit(1) from None


@app.command()
def add(
    text: Annotated[str, typer.Argument(help="the memory, stored verbatim")],
    type: Annotated[
        str | None, typer.Option("--type", help="memory type (default: the rule classifier's, else episode)")
    ] = None,
    tags: Annotated[str, typer.Option("--tags", help="comma-separated tags")] = "",
    importance: Annotated[float | None, typer.Option("--importance", help="0..1")] = None,
    pinned: Annotated[bool, typer.Option("--pin", help="pin it")] = False,
    expires: Annotated[str | None, typer.Option("--expires", help="ISO date/time it expires")] = None,
    occurred: Annotated[str | None, typer.Option("--occurred", help="ISO date/time it happened")] = None,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Store exactly one memory verbatim."""

    def body() -> None:
        with _engine() as mp:
            memory = mp.add(
                text,
                user_id=user,
                project_id=_project(project),
                type=type,
                tags=[t for t in tags.split(",") if t.strip()],
                importance=importance,
                state="pinned" if pinned else "active",
                expires_at=_parse_time(expires, "--expires"),
                occurred_at=_parse_time(occurred, "--occurred"),
            )
            _show_memory(memory, as_json, "added")

    run(body)


@app.command()
def chat(
    message: Annotated[str, typer.Argument(help="the user's message")],
    session: Annotated[str | None, typer.Option("--session", help="conversation session id")] = None,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Run one chat turn: recall, answer (LLM or offline), remember."""

    def body() -> None:
        with _engine() as mp:
            result = mp.chat(message, user_id=user, project_id=_project(project), session_id=session)
            if as_json:
                _print_json(result.to_dict())
                return
            console.print(_shown(result.answer), highlight=False)
            actions = result.outcome
            console.print(
                f"\n[dim]trace {result.trace_id} · answered by {result.answered_by} · created "
                f"{len(actions.created)}, updated {len(actions.updated)}, "
                f"superseded {len(actions.superseded)}, redacted {actions.redacted}[/dim]"
            )
            if actions.fallback_reason:
                console.print(Text(_escape_controls(actions.fallback_reason), style="yellow"))

    run(body)


@app.command()
def search(
    query: str,
    k: Annotated[int, typer.Option("-k", "--limit", help="number of results")] = 10,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Find the best-scoring memories for a query."""

    def body() -> None:
        with _engine() as mp:
            results = mp.search(query, user_id=user, project_id=_project(project), k=k)
            if as_json:
                _print_json({"results": [r.to_dict() for r in results]})
            else:
                console.print(_results_table(results))

    run(body)


def _results_table(results: list[SearchResult]) -> Table:
    table = Table(title="search results")
    for column in ("score", "sim", "id", "type", "state", "content"):
        table.add_column(column, overflow="fold")
    for r in results:
        table.add_row(
            f"{r.score:.3f}",
            f"{r.similarity:.2f}",
            r.memory.id[:12],
            r.memory.type.value,
            r.memory.state.value,
            _shown(r.memory.content),
        )
    return table


@app.command()
def context(
    question: str,
    budget: Annotated[int | None, typer.Option("--budget", help="token budget for memories")] = None,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Build the memory context for a question and show its trace."""

    def body() -> None:
        with _engine() as mp:
            result = mp.build_context(
                question, user_id=user, project_id=_project(project), budget_tokens=budget
            )
            if as_json:
                _print_json(result.to_dict())
            else:
                _print_context(mp, result)

    run(body)


def _print_context(mp: MemoPilot, result: ContextResult) -> None:
    trace = result.trace
    console.print(_shown(result.text or "(no memories in context)"), highlight=False)
    console.print()
    table = Table(
        title=f"trace {trace.id}: {trace.used_tokens}/{trace.budget_tokens} tokens, "
        f"{trace.candidates_considered} candidates, {trace.latency_ms.get('total', 0):.1f} ms"
    )
    for column in ("in", "score", "tokens", "type", "memory", "reason"):
        table.add_column(column, overflow="fold")
    memories = mp.store.get_many((i.memory_id for i in trace.included + trace.skipped), user_id=trace.user_id)
    for item in trace.included + trace.skipped:
        memory = memories.get(item.memory_id)
        preview = memory.content[:60] if memory else item.memory_id
        table.add_row(
            "yes" if item.included else "no",
            f"{item.score:.3f}",
            str(item.tokens),
            item.type,
            _shown(preview),
            _shown(item.reason),
        )
    console.print(table)


def _memory_command(action: str, verb: str) -> Callable[..., None]:
    def command(
        memory_id: str,
        user: UserOpt = DEFAULT_USER,
        project: ProjectOpt = DEFAULT_PROJECT,
        as_json: JsonOpt = False,
        db: DbOpt = None,
    ) -> None:
        def body() -> None:
            with _engine() as mp:
                _show_memory(getattr(mp, action)(memory_id, user_id=user), as_json, verb)

        run(body)

    command.__doc__ = f"{action.capitalize()} a memory by id."
    return command


app.command("pin")(_memory_command("pin", "pinned"))
app.command("unpin")(_memory_command("unpin", "unpinned"))
app.command("archive")(_memory_command("archive", "archived"))
app.command("restore")(_memory_command("restore", "restored"))


@app.command("forget")
def forget_cmd(
    memory_id: str,
    cascade: Annotated[
        bool, typer.Option("--cascade", help="also forget its source episode and what came only from that")
    ] = False,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Forget a memory: erase its content, tags and vector, keeping a content-free tombstone.

    What was derived only from it is forgotten with it (listed as also_forgotten)."""

    def body() -> None:
        with _engine() as mp:
            tombstone, others = mp.forget_report(memory_id, user_id=user, cascade=cascade)
            if as_json:
                _print_json({**tombstone.to_dict(), "also_forgotten": others})
                return
            _show_memory(tombstone, False, "forgot")
            if others:
                console.print(f"also forgot {len(others)}: {', '.join(others)}")

    run(body)


@app.command("list")
def list_memories(
    type: Annotated[str | None, typer.Option("--type", help="comma-separated types")] = None,
    state: Annotated[str | None, typer.Option("--state", help="comma-separated states")] = None,
    q: Annotated[str | None, typer.Option("--q", help="text filter")] = None,
    limit: Annotated[int, typer.Option("--limit")] = 50,
    offset: Annotated[int, typer.Option("--offset")] = 0,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """List memories of a project (and user-wide ones), newest first."""

    def body() -> None:
        with _engine() as mp:
            page = mp.list(
                user_id=user,
                project_id=_project(project),
                q=q,
                limit=limit,
                offset=offset,
                types=type.split(",") if type else None,
                states=state.split(",") if state else None,
            )
            if as_json:
                _print_json(page.to_dict())
            else:
                console.print(_memory_table(page.items, f"{page.total} memories"))

    run(body)


@app.command()
def history(
    memory_id: str,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Show the timeline events of one memory, oldest first."""

    def body() -> None:
        with _engine() as mp:
            events = mp.history(memory_id, user_id=user)
            _print_events([e.to_dict() for e in events], as_json, f"history of {memory_id}")

    run(body)


@app.command()
def timeline(
    kind: Annotated[str | None, typer.Option("--kind", help="comma-separated event kinds")] = None,
    limit: Annotated[int, typer.Option("--limit")] = 50,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Show recent timeline events, newest first."""

    def body() -> None:
        with _engine() as mp:
            events = mp.timeline(
                user_id=user,
                project_id=_project(project),
                limit=limit,
                kinds=kind.split(",") if kind else None,
            )
            _print_events([e.to_dict() for e in events], as_json, "timeline")

    run(body)


def _print_events(events: list[dict[str, Any]], as_json: bool, title: str) -> None:
    if as_json:
        _print_json({"events": events})
        return
    table = Table(title=title)
    for column in ("at", "kind", "memory", "actor", "reason"):
        table.add_column(column, overflow="fold")
    for e in events:
        table.add_row(
            e["at"][:19], e["kind"], (e["memory_id"] or "")[:12], _shown(e["actor"]), _shown(e["reason"])
        )
    console.print(table)


@app.command()
def reflect(
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    user_wide: Annotated[
        bool, typer.Option("--user-wide/--project-only", help="also the user-wide memories the project sees")
    ] = True,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Consolidate: merge near-duplicates, promote well-used memories, keep type summaries."""

    def body() -> None:
        with _engine() as mp:
            report = mp.reflect(user_id=user, project_id=_project(project), include_user_wide=user_wide)
            if as_json:
                _print_json(report.to_dict())
            else:
                console.print(
                    f"merged {len(report.merged)} group(s), promoted {len(report.promoted)}, summaries: "
                    f"{len(report.summaries_created)} created, {len(report.summaries_refreshed)} refreshed, "
                    f"{len(report.summaries_retired)} retired"
                )

    run(body)


@app.command("forget-sweep")
def forget_sweep(
    user: Annotated[str | None, typer.Option("--user", help="one user (default: everyone)")] = None,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Expire and archive what is due now (SPEC section 6). Never deletes."""

    def body() -> None:
        with _engine() as mp:
            report = mp.run_forgetting(user_id=user)
            if as_json:
                _print_json(report.to_dict())
            else:
                console.print(f"expired {len(report.expired)}, archived {len(report.archived)}")

    run(body)


@app.command("export")
def export_cmd(
    output: Annotated[Path | None, typer.Option("--output", "-o", help="file (default: stdout)")] = None,
    user: UserOpt = DEFAULT_USER,
    project: ProjectOpt = DEFAULT_PROJECT,
    db: DbOpt = None,
) -> None:
    """Export all of a user's memories and events as JSON."""

    def body() -> None:
        with _engine() as mp:
            document = mp.export(user)
        text = json.dumps(document, indent=2, ensure_ascii=False)
        if output is None:
            sys.stdout.write(text + "\n")
        else:
            output.write_text(text, encoding="utf-8")
            err_console.print(_shown(f"exported {len(document['memories'])} memories to {output}"))

    run(body)


@app.command("import")
def import_cmd(
    file: Annotated[Path, typer.Argument(help="a file written by memopilot export")],
    user: Annotated[
        str | None, typer.Option("--user", help="import into this user (default: the file's)")
    ] = None,
    project: ProjectOpt = DEFAULT_PROJECT,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Import memories from an export file."""

    def body() -> None:
        try:
            document = json.loads(file.read_text(encoding="utf-8"))
        except RecursionError:
            raise InvalidInputError(f"cannot read {file}: JSON nested too deeply") from None
        except (OSError, ValueError) as exc:
            raise InvalidInputError(f"cannot read {file}: {exc}") from None
        with _engine() as mp:
            report = mp.import_(document, user_id=user)
        if as_json:
            _print_json(report.to_dict())
            return
        console.print(
            f"imported {report.imported}, skipped {report.skipped} already present, "
            f"rejected {len(report.rejected)}",
            highlight=False,
        )
        for rejected in report.rejected:
            console.print(
                f"  rejected {rejected['kind']} {rejected['index']}: {rejected['reason']}",
                markup=False,
                highlight=False,
            )

    run(body)


@app.command("delete-user")
def delete_user_cmd(
    user: Annotated[str, typer.Option("--user", help="the user whose content is erased")],
    yes: Annotated[bool, typer.Option("--yes", help="do not ask for confirmation")] = False,
    revoke_keys: Annotated[bool, typer.Option("--revoke-keys", help="also revoke the user's keys")] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Erase all content of a user: memories become content-free tombstones; turns and questions go."""
    from .server.keys import ApiKeyStore

    def body() -> None:
        if not yes:
            if not sys.stdin.isatty():
                raise InvalidInputError(f"refusing to erase user {user!r} without confirmation: pass --yes")
            typer.confirm(f"Erase every memory, message and question of user {user!r}?", abort=True)
        with _engine() as mp:
            report = mp.delete_user(user, actor="admin")
            report["keys_revoked"] = ApiKeyStore(mp.store).revoke_user(user) if revoke_keys else 0
        if as_json:
            _print_json(report)
        else:
            console.print(
                f"erased user {user!r}: {report['memories_forgotten']} memories forgotten "
                f"({report['tombstones']} tombstones), {report['messages_erased']} messages erased, "
                f"{report['keys_revoked']} keys revoked",
                highlight=False,
            )

    run(body)


@app.command()
def reembed(as_json: JsonOpt = False, db: DbOpt = None) -> None:
    """Re-embed every memory with the configured embedder (after changing MEMOPILOT_EMBEDDER)."""

    def body() -> None:
        with _engine(allow_model_change=True) as mp:
            count = mp.reembed()
            model = mp.embedder.model_id
        if as_json:
            _print_json({"reembedded": count, "model": model})
        else:
            console.print(f"re-embedded {count} memories with {model}")

    run(body)


@app.command("migrate")
def migrate_cmd(
    source: Annotated[str, typer.Option("--from", help="database URL to copy from")],
    target: Annotated[str, typer.Option("--to", help="URL of an empty database to copy into")],
    as_json: JsonOpt = False,
) -> None:
    """Copy every memory, vector, event, trace and turn into another database and verify the counts."""

    def body() -> None:
        from .store.migrate import migrate_store

        counts = migrate_store(source, target)
        if as_json:
            _print_json({"copied": counts, "verified": True})
        else:
            copied = ", ".join(f"{n} {kind}" for kind, n in counts.items())
            console.print(f"copied {copied}; counts verified")

    run(body)


@app.command("redact-existing")
def redact_existing(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="count what would change, write nothing")
    ] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Scrub stored text written by earlier versions with the current secret detectors.

    Covers memories, tags, events, chat turns and trace questions, once."""

    def body() -> None:
        with _engine() as mp:
            changed = mp.redact_existing(dry_run=dry_run)
        if as_json:
            _print_json({"changed": changed, "dry_run": dry_run})
            return
        counts = ", ".join(f"{n} {kind}" for kind, n in changed.items())
        console.print(f"{'would change' if dry_run else 'changed'}: {counts}", highlight=False)

    run(body)


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="interface to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port")] = 8000,
    db: DbOpt = None,
) -> None:
    """Start the REST API and the web app."""
    import uvicorn

    from .server import create_app

    def build() -> Any:
        settings = _settings(database_url=_State.db)
        app = create_app(settings)
        local = app.state.auth_mode == "local"
        if local and host not in ("127.0.0.1", "localhost", "::1"):
            app.state.mp.close()
            raise InvalidInputError(
                f"the server runs in single-user local mode (no API keys, or MEMOPILOT_AUTH=local) and "
                f"binds only to 127.0.0.1, not {host}; create a key first: memopilot keys create --user USER"
            )
        if local:
            mode = "single-user local mode (bound to loopback)"
        elif app.state.keys.any():
            mode = "API keys required"
        else:
            mode = "API keys required; none exists yet, so every request is refused until one is created"
        console.print(_shown(f"MemoPilot {settings.resolved_database_url} · {mode}"), highlight=False)
        console.print(f"Serving on http://{host}:{port}  (web app at /, API docs at /docs)", highlight=False)
        return app

    app_instance = run(build)
    uvicorn.run(app_instance, host=host, port=port, log_level="warning")


@app.command("mcp")
def mcp_command(
    user: UserOpt = DEFAULT_USER, project: ProjectOpt = DEFAULT_PROJECT, db: DbOpt = None
) -> None:
    """Run the MCP server over stdio: remember, recall, search, forget, pin, unpin, list_memories, history."""
    from .engine.facade import MemoPilot
    from .mcp_server import build_mcp_server

    def build() -> Any:
        settings = _settings(database_url=_State.db)
        return MemoPilot.open(settings=settings)

    mp = run(build)
    try:
        build_mcp_server(mp, user_id=user, project_id=_project(project)).run("stdio")
    finally:
        mp.close()


@app.command()
def bench(
    sizes: Annotated[
        str | None,
        typer.Option(
            "--sizes", help="comma-separated store sizes (default 1000,10000,100000 unless --users)"
        ),
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help="sqlite or postgres (postgres uses --db)")
    ] = "sqlite",
    output: Annotated[Path | None, typer.Option("--json", help="write the results as JSON here")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a latency growth plot (PNG)")] = None,
    peer: Annotated[bool, typer.Option("--peer/--no-peer", help="also measure mem0 (needs [bench])")] = True,
    background_rows: Annotated[int, typer.Option("--background-rows", help="rows of other users")] = 0,
    queries: Annotated[int, typer.Option("--queries", help="timed reads per size")] = 200,
    repeat: Annotated[
        int, typer.Option("--repeat", help="runs per size; each figure is the median over them")
    ] = 1,
    peer_queries: Annotated[
        int, typer.Option("--peer-queries", help="timed peer searches per size (mem0 takes seconds at 100k)")
    ] = 50,
    users: Annotated[
        int, typer.Option("--users", help="many-users run: this many users in one process (0: none)")
    ] = 0,
    per_user: Annotated[int, typer.Option("--per-user", help="memories of each user (with --users)")] = 100,
    cache_mb: Annotated[
        float, typer.Option("--cache-mb", help="the index cache cap of the many-users run")
    ] = 256,
    reads: Annotated[
        int, typer.Option("--reads", help="Zipf-distributed reads of the many-users run")
    ] = 20_000,
    db: DbOpt = None,
) -> None:
    """Benchmark the read and write paths at several store sizes (figures are printed, not asserted).

    With --users, also many users in one process under a capped index cache (Zipf-distributed reads,
    warm and cold latencies, RSS over time)."""
    from .bench.report import plot_growth, plot_rss, print_many_users, print_table
    from .bench.runner import machine_info, median_of_runs, run_sizes

    def body() -> None:
        chosen = sizes if sizes is not None else ("" if users else "1000,10000,100000")
        try:
            size_list = [int(s) for s in chosen.split(",") if s.strip()]
        except ValueError:
            raise InvalidInputError(f"--sizes must be comma-separated integers, got {chosen!r}") from None
        if users < 0 or per_user < 1 or reads < 1 or cache_mb < 0:
            raise InvalidInputError("--users, --per-user, --reads and --cache-mb must be positive")
        if not size_list and not users:
            raise InvalidInputError("nothing to measure: give --sizes or --users")
        if backend not in ("sqlite", "postgres"):
            raise InvalidInputError("--backend must be sqlite or postgres")
        url = None
        if backend == "postgres":
            url = _State.db or _settings().database_url
            if not url or not url.startswith("postgres"):
                raise InvalidInputError("--backend postgres needs --db postgresql://... (a scratch database)")
        if repeat < 1:
            raise InvalidInputError("--repeat must be at least 1")
        runs = [
            run_sizes(size_list, backend_url=url, background_rows=background_rows, queries=queries)
            for _ in range(repeat)
        ]
        results: dict[str, Any] = {"machine": machine_info(), "backend": backend}
        if size_list:
            results["sizes"] = median_of_runs(runs)
            if repeat > 1:
                results["runs"] = runs
            if peer:
                from .bench.peer import run_peer

                results["peer"] = run_peer(size_list, queries=peer_queries)
            print_table(console, results)
        if users:
            from .bench.many_users import run_many_users

            results["many_users"] = run_many_users(
                users, per_user, backend_url=url, cache_mb=cache_mb, reads=reads
            )
            print_many_users(console, results["many_users"])
        if output:
            output.write_text(json.dumps(results, indent=2), encoding="utf-8")
        if plot and size_list:
            plot_growth(results, str(plot))
        if plot and users:
            plot_rss(results["many_users"], str(plot.with_name(f"{plot.stem}-rss{plot.suffix}")))

    run(body)


keys_app = typer.Typer(
    help="Manage API keys (stored hashed; each maps to one user).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(keys_app, name="keys")

from .evaluation.cli import eval_app  # noqa: E402  (the eval sub-app, issue 5)

app.add_typer(eval_app, name="eval")


@keys_app.command("create")
def keys_create(
    user: Annotated[str, typer.Option("--user", help="the user this key acts as")],
    name: Annotated[str, typer.Option("--name", help="a label to recognise it by")] = "",
    db: DbOpt = None,
) -> None:
    """Create a key; it is printed once, alone on the last line, and only its hash is stored."""
    from .server.keys import ApiKeyStore

    def body() -> None:
        with _engine() as mp:
            key = ApiKeyStore(mp.store).create(user, now=mp.clock.now(), name=name)
        err_console.print(f"created an API key for user {user!r}; store it now, it is not shown again:")
        err_console.print(
            "a server already running in local mode keeps that mode: the key takes effect at its next start"
        )
        sys.stdout.write(key + "\n")

    run(body)


@keys_app.command("list")
def keys_list(as_json: JsonOpt = False, db: DbOpt = None) -> None:
    """List keys by id (a hash prefix), user and creation time."""
    from .server.keys import ApiKeyStore

    def body() -> None:
        with _engine() as mp:
            keys = ApiKeyStore(mp.store).list()
        if as_json:
            _print_json([dataclasses.asdict(k) for k in keys])
            return
        for k in keys:
            console.print(_shown(f"{k.key_id}  {k.user_id}  {k.created_at}  {k.name}"), highlight=False)

    run(body)


@keys_app.command("revoke")
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="the id shown by keys list")], db: DbOpt = None
) -> None:
    """Revoke a key by its id."""
    from .server.keys import ApiKeyStore

    def body() -> None:
        with _engine() as mp:
            keys = ApiKeyStore(mp.store)
            if not keys.revoke(key_id):
                raise InvalidInputError(f"no single key matches id {key_id!r}")
            last = not keys.any()
        console.print(_shown(f"revoked {key_id}"))
        if last:
            err_console.print(
                "that was the last key: running keyed servers refuse every request until a key exists; "
                "a server started now runs in local mode (loopback only) unless MEMOPILOT_AUTH=keys"
            )

    run(body)


@app.command()
def demo(
    keep: Annotated[bool, typer.Option("--keep", help="keep the demo database and print its path")] = False,
    db: DbOpt = None,
) -> None:
    """A two-minute tour on a scratch database: add, context with trace, pin, supersede, expire, reflect."""
    from .demo import run_demo

    run(lambda: run_demo(console, keep=keep, db=_State.db))


def main() -> None:
    app()
