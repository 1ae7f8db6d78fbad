"""The memopilot command line: JSON shapes of the Contracts, clear one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memopilot.cli import app


@pytest.fixture
def cli(db_url: str):
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(app, ["--db", db_url, *args])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


def _json(result) -> object:
    return json.loads(result.stdout)


def test_add_search_context_json_shapes(cli) -> None:
    added = _json(
        cli("add", "I prefer tabs over spaces", "--type", "preference", "--tags", "style,python", "--json")
    )
    assert added["type"] == "preference" and added["tags"] == ["style", "python"]
    assert added["user_id"] == "local" and added["project_id"] == "default"
    episode = _json(cli("add", "We chatted about the weather", "--json"))
    assert episode["type"] == "episode"

    results = _json(cli("search", "tabs", "--json"))["results"]
    assert results[0]["memory"]["id"] == added["id"]
    assert isinstance(results[0]["score"], float) and "semantic" in results[0]["components"]

    context = _json(cli("context", "How do I indent?", "--json"))
    assert "I prefer tabs over spaces" in context["context"]
    assert context["trace"]["included"][0]["memory_id"] == added["id"]


def test_user_and_project_options_scope_everything(cli) -> None:
    cli("add", "Alice uses Emacs", "--type", "preference", "--user", "alice", "--project", "p1")
    assert _json(cli("search", "Emacs", "--user", "bob", "--json"))["results"] == []
    assert _json(cli("search", "Emacs", "--user", "alice", "--project", "p2", "--json"))["results"] == []
    assert len(_json(cli("search", "Emacs", "--user", "alice", "--project", "p1", "--json"))["results"]) == 1


def test_lifecycle_commands(cli, tmp_path: Path) -> None:
    m = _json(cli("add", "Deploy on Tuesdays", "--type", "decision", "--json"))
    assert _json(cli("pin", m["id"], "--json"))["state"] == "pinned"
    assert _json(cli("archive", m["id"], "--json"))["state"] == "archived"
    assert _json(cli("restore", m["id"], "--json"))["state"] == "active"
    events = _json(cli("history", m["id"], "--json"))["events"]
    assert [e["kind"] for e in events] == ["created", "pinned", "archived", "restored"]
    assert _json(cli("timeline", "--kind", "pinned", "--json"))["events"][0]["memory_id"] == m["id"]
    tomb = _json(cli("forget", m["id"], "--json"))
    assert (tomb["state"], tomb["content"]) == ("deleted", "")
    assert _json(cli("forget-sweep", "--json")) == {"expired": [], "archived": []}
    assert _json(cli("reflect", "--json"))["changed"] is False

    out = tmp_path / "export.json"
    cli("export", "--output", str(out))
    assert json.loads(out.read_text())["memories"][0]["id"] == m["id"]
    imported = _json(cli("import", str(out), "--user", "copy", "--json"))
    assert imported["imported"] == 1
    again = _json(cli("import", str(out), "--user", "copy", "--json"))  # ids remap the same way
    assert (again["imported"], again["skipped"]) == (0, 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "x", "--type", "wish"], "unknown memory type 'wish'"),
        (["add", "x", "--importance", "3"], "importance must be between 0 and 1"),
        (["add", "   "], "content is empty"),
        (["pin", "no-such-id"], "no memory 'no-such-id'"),
        (["add", "x", "--expires", "someday"], "--expires must be an ISO date"),
        (["search", ""], "the question is empty"),
    ],
)
def test_user_mistakes_give_one_line_and_exit_1(cli, args: list[str], message: str) -> None:
    result = cli(*args, ok=False)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_db_option_is_taken_after_the_command_too(db_url: str) -> None:
    runner = CliRunner()
    added = runner.invoke(app, ["add", "I prefer tea", "--type", "preference", "--db", db_url, "--json"])
    assert added.exit_code == 0, added.output
    found = runner.invoke(app, ["search", "tea", "--json", "--db", db_url])
    assert [r["memory"]["id"] for r in _json(found)["results"]] == [_json(added)["id"]]
    assert "--db" in runner.invoke(app, ["serve", "--help"]).stdout


@pytest.mark.parametrize(
    ("args", "message", "hint"),
    [
        (["chat", "hi", "--bogus"], "No such option: --bogus", "memopilot chat --help"),
        (["bogus"], "No such command 'bogus'", "memopilot --help"),
        (["search"], "Missing argument", "memopilot search --help"),
        (["keys", "create"], "Missing option '--user'", "memopilot keys create --help"),
    ],
)
def test_usage_mistakes_get_an_error_line_exit_1_and_hint(args: list[str], message: str, hint: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "memopilot", *args], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1
    first, second = proc.stderr.strip().splitlines()
    assert first.startswith("error: ") and message in first
    assert second.startswith("Try '") and second.endswith(f"{hint}' for help.")


def test_bare_command_prints_help_and_succeeds() -> None:
    result = CliRunner().invoke(app, [])
    assert result.exit_code == 0
    assert "Pin a memory by id." in result.stdout and "Pinned a memory" not in result.stdout


def test_real_entry_point_reports_corrupt_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"garbage" * 200)
    proc = subprocess.run(
        [sys.executable, "-m", "memopilot", "--db", f"sqlite:///{bad}", "search", "x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr
    assert bad.read_bytes() == b"garbage" * 200


def test_demo_runs(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "memopilot", "demo"], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "a second reflect changes nothing: True" in proc.stdout


def test_chat_command_json_contract(cli) -> None:
    first = _json(cli("chat", "We decided to use PostgreSQL for billing.", "--session", "s1", "--json"))
    assert set(first) == {"answer", "trace_id", "trace", "actions"}
    assert first["actions"]["created"][0]["type"] == "decision"
    assert first["answer"].startswith("No language model is configured")
    second = _json(cli("chat", "Actually, we switched from PostgreSQL to CockroachDB for billing.", "--json"))
    assert second["actions"]["superseded"][0]["id"] == first["actions"]["created"][0]["id"]
    assert second["trace"]["turn"]["editor"] == "rules"


def test_add_without_type_uses_the_rule_classifier(cli) -> None:
    assert _json(cli("add", "We decided to use Terraform.", "--json"))["type"] == "decision"
    assert _json(cli("add", "Lunch was nice today, the soup was warm", "--json"))["type"] == "episode"
