"""End-to-end tests of the web app in real headless Chromium against the real server.

Each test starts the FastAPI app with uvicorn on a free loopback port over a fresh SQLite
file and drives Debian's ``chromium`` through Playwright (``executable_path``; Playwright's
own browser download is never used). The tests skip, saying why, only when no Chromium
binary exists (``.ci/run`` installs the ``chromium`` package when it is missing).

Screenshots of every tab, at a laptop and a phone width, go to
``$MEMOPILOT_TEST_ARTIFACTS/web`` (default ``<repo>/test-artifacts/web``, git-ignored).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from memopilot import MemoPilot, Settings

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
)
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed")

REPO = Path(__file__).resolve().parents[1]
# Read at import: the suite's autouse fixture clears MEMOPILOT_* variables for each test.
ARTIFACTS = Path(os.environ.get("MEMOPILOT_TEST_ARTIFACTS") or REPO / "test-artifacts") / "web"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LAPTOP = {"width": 1366, "height": 850}
PHONE = {"width": 390, "height": 844}
TABS = ["chat", "memories", "timeline", "graph", "analytics", "evaluation"]
# What each tab shows once its data has loaded.
TAB_READY = {
    "chat": "#trace-panel .trace, #trace-panel .empty",
    "memories": "#memory-list > li",
    "timeline": "#timeline-list > li",
    "graph": "#graph-svg .node, #graph-details .empty",
    "analytics": ".kpis",
    "evaluation": "#eval-body .card, #eval-body .callout",
}
TIMEOUT_MS = 15_000


def _chromium() -> str | None:
    for candidate in (
        os.environ.get("MEMOPILOT_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        shutil.which("google-chrome"),
    ):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


CHROMIUM = _chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium browser found (apt-get install -y chromium, or set MEMOPILOT_CHROMIUM)",
)


# --- the server ----------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    def __init__(self, url: str, mp: MemoPilot) -> None:
        self.url = url
        self.mp = mp
        self.http = httpx.Client(base_url=url, timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        response = self.http.post(path, json=body)
        assert response.status_code < 300, response.text
        return response.json()

    def get(self, path: str, **params: Any) -> Any:
        response = self.http.get(path, params=params)
        assert response.status_code < 300, response.text
        return response.json()

    def add(self, content: str, type: str, **extra: Any) -> dict[str, Any]:
        return self.post("/api/memories", {"content": content, "type": type, **extra})


@pytest.fixture
def server(tmp_path: Path, embedder: Any, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """A live server; parametrize it indirectly with "keys" for a keyed one (MEMOPILOT_AUTH)."""
    from memopilot.server import create_app

    auth = getattr(request, "param", None)
    settings = Settings.load(database_url=f"sqlite:///{tmp_path / 'web.db'}", auth=auth)
    mp = MemoPilot.open(settings=settings, embedder=embedder, llm=None)
    app = create_app(settings, mp=mp)
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=uv.run, name="memopilot-web-e2e", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        assert thread.is_alive(), "the server thread stopped during start-up"
        assert time.monotonic() < deadline, "the server did not start within 30 s"
        time.sleep(0.05)
    live = LiveServer(f"http://127.0.0.1:{port}", mp)
    try:
        yield live
    finally:
        live.http.close()
        uv.should_exit = True
        thread.join(timeout=15)
        mp.close()


# --- the browser ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Console:
    """Console errors and uncaught page errors, with the ones a test expects allowed."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def attach(self, page: Any) -> None:
        def on_console(msg: Any) -> None:
            if msg.type == "error":
                self.messages.append(f"console error: {msg.text} @ {msg.location.get('url', '')}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.messages.append(f"page error: {exc}"))

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [m for m in self.messages if not any(p.search(m) for p in self.allowed)]


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def page(browser: Any, console: Console) -> Iterator[Any]:
    context = browser.new_context(viewport=LAPTOP, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    console.attach(pg)
    try:
        yield pg
    finally:
        context.close()
    assert console.unexpected() == [], "console errors:\n" + "\n".join(console.unexpected())


# Overlaps of chart labels, cut select text and sideways-scrolling tables in one panel, as a list.
_PHONE_LAYOUT_PROBLEMS = """(panel) => {
  const root = document.querySelector(panel);
  const problems = [];
  for (const svg of root.querySelectorAll("svg.chart")) {
    const boxes = [...svg.querySelectorAll("text.axis-strong")]
      .map((t) => [t.textContent, t.getBoundingClientRect()]);
    boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
        problems.push(`chart labels overlap: ${a} / ${b}`);
      }
    }));
  }
  const ctx = document.createElement("canvas").getContext("2d");
  for (const select of root.querySelectorAll("select")) {
    if (!select.offsetParent) continue;
    const cs = getComputedStyle(select);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 18;
    for (const option of select.options) {
      if (ctx.measureText(option.text).width > room) {
        problems.push(`select #${select.id} cuts "${option.text}"`);
      }
    }
  }
  for (const wrap of root.querySelectorAll(".table-wrap")) {
    const excess = wrap.scrollWidth - wrap.clientWidth;
    if (excess > 1) problems.push(`a table scrolls sideways by ${excess}px`);
  }
  return problems;
}"""


def assert_phone_layout(page: Any, panel: str) -> None:
    problems = page.evaluate(_PHONE_LAYOUT_PROBLEMS, panel)
    assert problems == [], "\n".join(problems)


def open_tab(page: Any, name: str) -> None:
    page.click(f"#tab-{name}")
    sync_api.expect(page.locator(f"#panel-{name}")).to_be_visible()
    page.wait_for_selector(f"#panel-{name} :is({TAB_READY[name]})", state="attached")


def send_chat(page: Any, text: str) -> Any:
    """Send a message and wait for the trace of that answer (with live memory text)."""
    before = page.locator(".msg-assistant:not(.msg-pending)").count()
    page.fill("#chat-input", text)
    page.click("#chat-send")
    sync_api.expect(page.locator(".msg-assistant:not(.msg-pending)")).to_have_count(before + 1)
    page.wait_for_selector("#trace-panel[data-ready] .trace")
    trace_id = page.get_attribute("#trace-panel .trace", "data-trace-id")
    page.wait_for_selector(f'#trace-panel[data-ready="{trace_id}"]')
    return page.locator("#trace-panel .trace")


def memory_card(page: Any, text: str, type: str | None = None) -> Any:
    cards = page.locator("#memory-list .memory").filter(has_text=text)
    return cards if type is None else cards.and_(page.locator(f'#memory-list .memory[data-type="{type}"]'))


# --- the tests -----------------------------------------------------------------------------------
def test_chat_message_shows_the_new_memory_and_the_trace(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    page.goto(server.url)
    open_tab(page, "chat")
    trace = send_chat(page, "I prefer tabs over spaces for indentation.")
    expect(page.locator(".msg-user").last).to_contain_text("I prefer tabs over spaces")
    created = trace.locator(".turn-created .turn-memory")
    expect(created).to_have_count(1)
    expect(created).to_contain_text("I prefer tabs over spaces")
    expect(created.locator(".badge-type")).to_have_text("preference")
    expect(page.locator(".msg-assistant .bubble-meta").last).to_contain_text("1 created")

    trace = send_chat(page, "How should I indent this Python file?")
    expect(trace.locator(".trace-query")).to_contain_text("How should I indent this Python file?")
    expect(trace.locator(".budget .meter")).to_be_visible()
    expect(trace.locator(".budget .budget-numbers")).to_contain_text("/ 2,500 tokens")
    expect(trace.locator(".latency")).to_contain_text("retrieval")
    first = trace.locator(".included-list > .titem").first
    expect(first).to_contain_text("I prefer tabs over spaces")
    expect(first.locator(".titem-reason")).not_to_be_empty()
    for component in ("semantic", "importance", "recency", "confidence", "usage", "project_match"):
        expect(first.locator(f'.comp-row[data-component="{component}"] .comp-fill')).to_have_count(1)
    # The panel says what the turn changed: a question stores nothing.
    expect(trace.locator(".turn")).to_contain_text("stored nothing new")

    open_tab(page, "memories")
    card = memory_card(page, "I prefer tabs over spaces", type="preference")
    expect(card).to_have_count(1)
    # the message itself is kept too, verbatim, as an episode
    expect(memory_card(page, "I prefer tabs over spaces", type="episode")).to_have_count(1)
    expect(card.locator(".badge-type")).to_have_text("preference")
    expect(card.locator(".badge-state")).to_have_text("active")


def test_pinned_memory_comes_first_in_the_next_trace(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    server.add("The staging server is called kestrel and runs Debian.", "project")
    server.add("Deploys to the staging server need a green CI run.", "constraint")
    tea = server.add("I like green tea in the afternoon.", "preference")
    page.goto(server.url)
    trace = send_chat(page, "What is the staging server called?")
    first = trace.locator(".included-list > .titem").first
    expect(first).not_to_have_attribute("data-memory-id", tea["id"])

    open_tab(page, "memories")
    card = memory_card(page, "green tea")
    card.locator('button[data-action="pin"]').click()
    expect(card.locator(".badge-state")).to_have_text("pinned")
    expect(card.locator('button[data-action="unpin"]')).to_be_visible()
    assert server.get(f"/api/memories/{tea['id']}")["state"] == "pinned"

    open_tab(page, "chat")
    trace = send_chat(page, "What is the staging server called?")
    first = trace.locator(".included-list > .titem").first
    expect(first).to_have_attribute("data-memory-id", tea["id"])
    expect(first.locator(".rank")).to_have_text("#1")
    expect(first.locator(".badge-state")).to_have_text("pinned")
    expect(first).to_contain_text("I like green tea in the afternoon.")
    expect(first.locator('.comp-row[data-component="critical_bonus"] .comp-value')).to_have_text("1.00")


def test_forget_removes_a_memory_from_the_list_and_the_context(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    secret = server.add("The project codename is bluefinch.", "project")
    server.add("The project ships every second Tuesday.", "project")
    page.goto(server.url)
    trace = send_chat(page, "What is the project codename?")
    expect(trace.locator(".included-list")).to_contain_text("bluefinch")
    # Without a model the reply lists the memories it would have used.
    expect(page.locator("#messages .msg-assistant").last).to_contain_text("bluefinch")

    open_tab(page, "memories")
    card = memory_card(page, "bluefinch")
    card.locator('button[data-action="forget"]').click()
    dialog = page.locator("dialog.modal[open]")
    expect(dialog).to_contain_text("Forget this memory?")
    expect(dialog.locator(".quote")).to_have_text("The project codename is bluefinch.")
    dialog.get_by_role("button", name="Cancel").click()
    expect(card).to_have_count(1)  # cancelling keeps it

    card.locator('button[data-action="forget"]').click()
    page.locator("dialog.modal[open]").get_by_role("button", name="Forget").click()
    expect(card).to_have_count(0)
    expect(page.locator("#memory-list")).not_to_contain_text("bluefinch")
    # Every state, tombstones included: the text is gone, the tombstone says so.
    page.select_option("#mem-state", "")
    tombstone = page.locator(f'#memory-list .memory[data-memory-id="{secret["id"]}"]')
    expect(tombstone.locator(".badge-state")).to_have_text("deleted")
    expect(tombstone).to_contain_text("(content erased)")
    expect(page.locator("#memory-list")).not_to_contain_text("bluefinch")
    assert server.get(f"/api/memories/{secret['id']}")["state"] == "deleted"

    open_tab(page, "chat")
    # The page's transcript drops the forgotten text too.
    expect(page.locator("#messages")).not_to_contain_text("bluefinch")
    trace = send_chat(page, "What is the project codename?")
    expect(trace).not_to_contain_text("bluefinch")
    expect(trace.locator(f'.titem[data-memory-id="{secret["id"]}"]')).to_have_count(0)
    expect(page.locator("#messages")).not_to_contain_text("bluefinch")
    context = server.post("/api/context", {"query": "What is the project codename?"})
    assert "bluefinch" not in context["context"]


def test_forget_can_take_the_message_a_memory_came_from(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    page.goto(server.url)
    send_chat(page, "My dog is called Biscuit.")
    open_tab(page, "memories")
    typed = memory_card(page, "Biscuit", type="fact")
    expect(typed).to_have_count(1)
    expect(memory_card(page, "Biscuit", type="episode")).to_have_count(1)
    typed.locator('button[data-action="forget"]').click()
    dialog = page.locator("dialog.modal[open]")
    dialog.get_by_label("Also forget the message it came from").check()
    dialog.get_by_role("button", name="Forget").click()
    expect(page.locator("#memory-list")).not_to_contain_text("Biscuit")  # the episode went with it
    items = server.get("/api/memories?state=deleted")["items"]
    assert sorted(m["type"] for m in items) == ["episode", "fact"]
    assert all(m["content"] == "" for m in items)


def test_chat_transcript_survives_a_reload_and_forget_leaves_no_text(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    page.goto(server.url)
    trace = send_chat(page, "My dog is called Biscuit.")
    expect(trace.locator(".turn-created")).to_contain_text("My dog is called Biscuit.")
    send_chat(page, "What is my dog called?")

    page.reload()  # the transcript comes back from the stored turns of the tab's session
    users, answers = page.locator("#messages .msg-user"), page.locator("#messages .msg-assistant")
    expect(users).to_have_text([re.compile("My dog is called Biscuit"), re.compile("What is my dog called")])
    expect(answers).to_have_count(2)
    expect(page.locator("#trace-panel .trace-query")).to_contain_text("What is my dog called?")
    answers.first.get_by_role("button", name="Show trace").click()
    expect(page.locator("#trace-panel .trace-query")).to_contain_text("My dog is called Biscuit.")
    expect(page.locator("#trace-panel .turn-created")).to_contain_text("Biscuit")

    open_tab(page, "memories")
    memory_card(page, "Biscuit", type="fact").locator('button[data-action="forget"]').click()
    dialog = page.locator("dialog.modal[open]")
    dialog.get_by_label("Also forget the message it came from").check()
    dialog.get_by_role("button", name="Forget").click()
    expect(page.locator("#memory-list")).not_to_contain_text("Biscuit")

    open_tab(page, "chat")  # no view shows the content, and erased parts say so
    expect(page.locator("#messages")).not_to_contain_text("Biscuit")
    expect(users.first).to_contain_text("(erased")
    expect(page.locator("#trace-panel .trace")).not_to_contain_text("Biscuit")
    answers.first.get_by_role("button", name="Show trace").click()
    expect(page.locator("#trace-panel .trace-query")).to_contain_text("(erased")
    expect(page.locator("#trace-panel .turn-created")).to_contain_text("(content erased)")
    expect(page.locator("#trace-panel .trace")).not_to_contain_text("Biscuit")
    page.reload()
    expect(users.first).to_contain_text("(erased")
    expect(page.locator("body")).not_to_contain_text("Biscuit")


def test_graph_panel_follows_memories_added_after_it_opened(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    page.goto(server.url)
    open_tab(page, "graph")
    expect(page.locator("#graph-details")).to_contain_text("No memories in this project yet")
    server.add("I prefer dark mode in every editor.", "preference")
    server.add("Never deploy on Fridays.", "critical")
    open_tab(page, "memories")
    open_tab(page, "graph")
    expect(page.locator("#graph-svg .node-circle")).to_have_count(2)
    expect(page.locator("#graph-details")).not_to_contain_text("No memories in this project yet")
    expect(page.locator("#graph-details")).to_contain_text("Click a node")


def test_small_store_analytics_and_reflect_over_user_wide_preferences(server: LiveServer, page: Any) -> None:
    """Chat keeps preferences user-wide; Reflect in the app reaches them. Savings show only when real."""
    expect = sync_api.expect
    page.goto(server.url)
    for text in (
        "I prefer dark mode in every editor.",
        "I prefer short commit messages.",
        "I prefer pytest.",
    ):
        send_chat(page, text)
    preferences = server.get("/api/memories", type="preference")["items"]
    assert len(preferences) == 3 and all(m["project_id"] is None for m in preferences)
    open_tab(page, "analytics")
    expect(page.locator('.kpi[data-kpi="savings"] .kpi-value')).to_have_text("–")
    expect(page.locator("#savings-note")).to_contain_text("No savings yet")
    page.click("#reflect-btn")
    created = page.locator("#reflect-out .r-created li")
    expect(created).to_have_count(1)
    expect(created).to_contain_text("Summary")
    expect(page.locator('.kpi[data-kpi="summaries"] .kpi-value')).to_have_text("1")


def test_add_memory_with_only_spaces_says_why_nothing_was_saved(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    page.goto(server.url)
    open_tab(page, "memories")
    page.get_by_role("button", name="Add memory").click()
    page.fill("#add-content", "   ")
    page.get_by_role("button", name="Save memory").click()
    expect(page.locator("#add-error")).to_be_visible()
    expect(page.locator("#add-error")).to_contain_text("empty")
    expect(page.locator("#add-content")).to_have_attribute("aria-invalid", "true")
    assert server.get("/api/memories")["total"] == 0
    page.fill("#add-content", "Never deploy on Fridays.")
    expect(page.locator("#add-error")).to_be_hidden()
    page.get_by_role("button", name="Save memory").click()
    expect(memory_card(page, "Never deploy on Fridays.")).to_have_count(1)


def test_reflect_shows_a_summary_star_in_the_graph(server: LiveServer, page: Any) -> None:
    expect = sync_api.expect
    sources = [
        server.add("I prefer dark mode in every editor.", "preference"),
        server.add("I prefer short commit messages.", "preference"),
        server.add("I prefer pytest over unittest.", "preference"),
    ]
    page.goto(server.url)
    open_tab(page, "graph")
    expect(page.locator("#graph-svg .node-circle")).to_have_count(3)
    expect(page.locator("#graph-svg .node-star")).to_have_count(0)

    open_tab(page, "analytics")
    page.click("#reflect-btn")
    created = page.locator("#reflect-out .r-created li")
    expect(created).to_have_count(1)
    expect(created).to_contain_text("Summary")
    expect(page.locator('.kpi[data-kpi="summaries"] .kpi-value')).to_have_text("1")
    page.click("#reflect-btn")  # nothing new: reflect changes nothing
    expect(page.locator("#reflect-out")).to_contain_text("changed nothing")

    open_tab(page, "graph")
    star = page.locator("#graph-svg .node-star")
    expect(star).to_have_count(1)
    expect(star.locator("polygon")).to_have_attribute("fill", "#f5b301")
    expect(page.locator('#graph-svg .edge[data-kind="summarizes"]')).to_have_count(3)
    star.locator("polygon").click()
    details = page.locator("#graph-details")
    expect(details).to_contain_text("Consolidation summary")
    expect(details).to_contain_text("Summarises 3 memories")
    for memory in sources:
        expect(details).to_contain_text(memory["content"][:20])
    # Keyboard: a focused circle node opens its details with Enter.
    page.locator("#graph-svg .node-circle").first.focus()
    page.keyboard.press("Enter")
    expect(details.locator("h3")).to_have_text("Memory")


def test_evaluation_tab_handles_no_report_errors_and_a_report(
    server: LiveServer, page: Any, console: Console
) -> None:
    expect = sync_api.expect
    console.allow(r"status of 500 .*/api/eval/run$")
    page.goto(server.url)
    open_tab(page, "evaluation")
    expect(page.locator("#eval-body")).to_contain_text("No evaluation has run yet")

    # A failing run is reported in the page, not thrown.
    page.route(
        "**/api/eval/run",
        lambda route: route.fulfill(status=500, json={"detail": "the scenario suite crashed"}),
    )
    page.click("#eval-run")
    expect(page.locator("#eval-body .callout-error")).to_contain_text("the scenario suite crashed")
    expect(page.locator("#eval-run")).to_be_enabled()

    def metrics(recall: float, avoid: float | None, tokens: float, p50: float, p95: float) -> dict[str, Any]:
        return {
            "context_recall": recall,
            "outdated_avoidance": avoid,
            "avg_context_tokens": tokens,
            "latency_p50_ms": p50,
            "latency_p95_ms": p95,
            "n": 2,
        }

    # The shape of memopilot.evaluation's scenario summary.
    report = {
        "strategies": {
            "memory": metrics(0.92, 0.97, 312.5, 11.2, 24.0),
            "no_memory": metrics(0.0, 1.0, 0, 0.1, 0.2),
            "raw_history": metrics(0.81, 0.42, 2890, 1.4, 2.9),
            "full_history": metrics(0.97, 0.38, 9120, 0.9, 1.8),
            "history_summary": metrics(0.64, 0.71, 410, 2.2, 4.1),
        },
        "by_category": {
            "preference": {
                "memory": metrics(1.0, None, 40, 1, 2),
                "no_memory": metrics(0.0, None, 0, 0, 0),
                "raw_history": metrics(0.9, None, 80, 1, 1),
            }
        },
        "scenarios": [
            {
                "id": "pref-tabs",
                "category": "preference",
                "strategy": name,
                "context_recall": recall,
                "forbidden_in_context": forbidden,
                "context_tokens": 10,
                "latency_ms": 1.0,
                "missing": [],
            }
            for name, recall, forbidden in (
                ("memory", 1.0, []),
                ("no_memory", 0.0, []),
                ("raw_history", 1.0, ["spaces"]),
            )
        ],
        "history_summary": "extractive",
    }
    page.unroute("**/api/eval/run")
    page.route("**/api/eval/run", lambda route: route.fulfill(status=200, json=report))
    page.click("#eval-run")
    table = page.locator("#eval-table")
    expect(table.locator("tbody tr")).to_have_count(5)
    expect(table.locator('tr[data-strategy="memory"]')).to_contain_text("92.0%")
    expect(table.locator('tr[data-strategy="memory"]')).to_contain_text("11 ms")
    expect(table.locator('tr[data-strategy="raw_history"]')).to_contain_text("42.0%")
    expect(page.locator("#eval-body svg.chart")).to_have_count(2)  # quality, latency
    expect(page.locator("#eval-body .bars .bar-row")).to_have_count(5)  # context tokens
    categories = page.locator("#eval-categories")
    expect(categories.locator("tbody tr")).to_have_text(
        [re.compile(r"preference \(2\)\s*100\.0%\s*0\.0%\s*90\.0%")]
    )
    page.select_option("#eval-cat-metric", "avg_context_tokens")
    expect(categories.locator("tbody tr")).to_contain_text("40")
    page.locator("#eval-body details.disclosure > summary").click()
    row = page.locator("#eval-scenarios tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td.cell-bad")).to_have_count(2)  # no recall; an outdated fact in the context
    expect(row).to_contain_text("outdated")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "laptop-evaluation-report.png"), full_page=True)

    # On a phone: chart labels stay apart and tables stack instead of scrolling sideways.
    page.set_viewport_size(PHONE)
    page.click("#eval-run")  # charts are drawn for the width they are shown at
    expect(table.locator("tbody tr")).to_have_count(5)
    assert_phone_layout(page, "#panel-evaluation")
    expect(table.locator('tr[data-strategy="memory"] td').first).to_have_attribute(
        "data-label", re.compile(".")
    )
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "phone-evaluation-report.png"), full_page=True)


def test_every_tab_is_legible_without_console_errors(
    server: LiveServer, browser: Any, console: Console
) -> None:
    """Fill a project, then open every tab at a laptop and a phone width and save screenshots."""
    expect = sync_api.expect
    for message in (
        "I prefer tabs over spaces.",
        "We decided to use PostgreSQL for billing. The report is due next Friday.",
        "Actually, we switched from PostgreSQL to CockroachDB for billing.",
        "Never use my aws key AKIA5QF2ZK7WJ3MNP8RT in examples.",
    ):
        server.post("/api/chat", {"message": message})
    server.add("Never deploy on Fridays.", "critical")
    server.add("I prefer dark mode in every editor.", "preference")
    server.add("I prefer short commit messages.", "preference")
    injection = server.add(
        '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> I prefer pytest.', "preference"
    )
    server.add("Learn the Rust ownership rules this month.", "learning_goal")
    server.add("The staging server is called kestrel.", "project", project_id="side-project")
    server.post("/api/reflect", {})

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport, locale="en-US")
        context.set_default_timeout(TIMEOUT_MS)
        pg = context.new_page()
        console.attach(pg)
        try:
            pg.goto(server.url)
            expect(pg.locator("#health")).to_contain_text("local")
            expect(pg.locator("#project option")).to_contain_text(["default", "side-project"])
            send_chat(pg, "How should I indent this file and which database do we use?")
            for tab in TABS:
                open_tab(pg, tab)
                expect(pg.locator(f"#tab-{tab}")).to_have_attribute("aria-selected", "true")
                if tab == "graph":
                    pg.locator("#graph-svg .node-star polygon").click()
                    expect(pg.locator("#graph-details")).to_contain_text("Consolidation summary")
                pg.evaluate("window.scrollTo(0, 0)")
                pg.wait_for_timeout(150)  # let fonts and layout settle for the picture
                pg.screenshot(path=str(ARTIFACTS / f"{label}-{tab}.png"), full_page=True)
                # Nothing overflows the viewport sideways (phone layout stacks instead).
                overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 1, f"{tab} at {label} width scrolls sideways by {overflow}px"
                assert_phone_layout(pg, f"#panel-{tab}")  # labels and tables hold at both widths
            # Numbers are shown rounded (an importance of 0.7 + 0.1 is not 0.7999999999999999).
            open_tab(pg, "timeline")
            expect(pg.locator("#timeline-list")).not_to_contain_text(re.compile(r"\d\.\d{5,}"))
            # Memory text is data: the injection attempt shows as text and never runs.
            open_tab(pg, "memories")
            card = pg.locator(f'#memory-list .memory[data-memory-id="{injection["id"]}"]')
            expect(card.locator(".mem-content")).to_have_text(injection["content"])
            assert pg.locator("#memory-list img, #memory-list script").count() == 0
            assert pg.evaluate("window.__xss") is None
            # Tabs follow the keyboard (ARIA tabs pattern).
            pg.focus("#tab-memories")
            pg.keyboard.press("ArrowRight")
            expect(pg.locator("#tab-timeline")).to_have_attribute("aria-selected", "true")
            expect(pg.locator("#tab-timeline")).to_be_focused()
            # The project switcher scopes the views.
            pg.select_option("#project", "side-project")
            open_tab(pg, "memories")
            expect(memory_card(pg, "kestrel")).to_have_count(1)
            expect(pg.locator("#memory-list")).not_to_contain_text("Never deploy on Fridays")
            pg.select_option("#project", "default")
        finally:
            context.close()
    assert console.unexpected() == [], "console errors:\n" + "\n".join(console.unexpected())
    for label in ("laptop", "phone"):
        for tab in TABS:
            assert (ARTIFACTS / f"{label}-{tab}.png").stat().st_size > 10_000


@pytest.mark.parametrize("server", ["keys"], indirect=True)
def test_api_key_from_settings_is_sent_as_bearer(server: LiveServer, page: Any, console: Console) -> None:
    """With API keys the app asks for one, keeps it in localStorage and sends it as a Bearer token."""
    from datetime import UTC, datetime

    from memopilot.server.keys import ApiKeyStore

    expect = sync_api.expect
    console.allow(r"status of 401 ")
    key = ApiKeyStore(server.mp.store).create("local", now=datetime.now(UTC), name="e2e")
    response = server.http.post(
        "/api/memories",
        json={"content": "I prefer tabs over spaces.", "type": "preference"},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.text
    page.goto(f"{server.url}/#memories")
    expect(page.locator("#health")).to_contain_text("API keys")
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#memory-list .callout-error")).to_contain_text("API key")

    page.locator("#banner").get_by_role("button", name="Open settings").click()
    page.fill("#settings-key", key)
    page.locator("#settings").get_by_role("button", name="Save").click()
    expect(page.locator("#banner")).to_be_hidden()
    expect(memory_card(page, "I prefer tabs over spaces.")).to_have_count(1)
    assert page.evaluate("localStorage.getItem('memopilot.apiKey')") == key
    page.reload()  # the key survives a reload
    expect(memory_card(page, "I prefer tabs over spaces.")).to_have_count(1)
    expect(page.locator("#banner")).to_be_hidden()
