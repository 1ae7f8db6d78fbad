"""Date words of other languages read by the English date rules (write/date_words.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memopilot.write import dates
from memopilot.write.date_words import english_dates, readable_dates
from memopilot.write.editor import EditorContext
from memopilot.write.rule_editor import RuleEditor

# Tuesday 10 November 2026
NOW = datetime(2026, 11, 10, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "language", "english"),
    [
        ("Pagaré el seguro antes del 3 de marzo.", "es", "Pagaré el seguro before 3 march."),
        ("Je rends le mémoire jusqu'à jeudi.", "fr", "Je rends le mémoire until thursday."),
        ("Wir sind bis Sonntag in Wien.", "de", "Wir sind until sunday in Wien."),
        ("Der Antrag muss bis zum 4. Februar raus.", "de", "Der Antrag muss by 4 february raus."),
        ("Consegno il progetto entro martedì prossimo.", "it", "Consegno il progetto by next tuesday."),
        ("Pago a renda até dia 8 de dezembro.", "pt", "Pago a renda by dia 8 december."),
        ("Ik ben deze week in Gent.", "nl", "Ik ben this week in Gent."),
        ("Die Woche war lang.", "de", "Die Woche war lang."),  # "Die" and "Di": words, not Tuesday
        # "in <n> <units>" read with dateparser's own patterns, a number in words first
        ("Je rends le mémoire dans dix jours.", "fr", "Je rends le mémoire in 10 days."),
        ("Ik moet over twee weken verlengen.", "nl", "Ik moet in 2 weeks verlengen."),
        ("Consegno tra tre settimane.", "it", "Consegno in 3 weeks."),
        ("Tenemos dos hijos.", "es", "Tenemos dos hijos."),  # a number not before a unit of time stays
        # a weekday of next week, a day of the month said alone, a month in the genitive
        ("Entrego antes del viernes de la semana que viene.", "es", "Entrego before next week friday."),
        ("Preciso pagar até o dia 10.", "pt", "Preciso pagar by the 10th."),
        ("Muss bis Ende nächsten Monats fertig sein.", "de", "Muss by end of next month fertig sein."),
    ],
)
def test_date_words_are_read_in_english(text: str, language: str, english: str) -> None:
    assert english_dates(text, language) == english


def test_a_language_without_a_table_is_left_as_it_is() -> None:
    assert english_dates("Do pátku jsem v Brně.", "cs") == "Do pátku jsem v Brně."


@pytest.mark.parametrize(
    ("text", "english"),
    [
        # "next" before the weekday in Turkish, Polish and Hindi, after it in Portuguese and Spanish
        ("Gelecek salı dişçiye gidiyorum.", "next tuesday dişçiye gidiyorum."),
        ("W przyszły czwartek mam rozmowę o pracę.", "W next thursday mam rozmowę o pracę."),
        ("अगले सोमवार को मेरा इंटरव्यू है", "next monday को मेरा इंटरव्यू है"),
        ("Vou ao médico quinta-feira que vem.", "Vou ao médico next thursday."),
        ("Tengo el examen el lunes que viene.", "Tengo el examen el next monday."),
        # "शुक्र" (Friday, short) inside "शुक्रिया" (thanks) and "कल" (tomorrow or yesterday) stay
        ("शुक्रिया दोस्त, कल बात करते हैं", "शुक्रिया दोस्त, कल बात करते हैं"),
        # "me" is a word of Spanish too: the line is read as Spanish, its Friday found
        (
            "El viernes me mudo al piso nuevo de la calle Olmedilla.",
            "El friday me mudo al piso nuevo de la calle Olmedilla.",
        ),
        # "ce" and "questa" before a weekday or a week: this one
        ("Ce mercredi je suis chez ma sœur à Vernoux.", "this wednesday je suis chez ma sœur à Vernoux."),
        ("Questo venerdì porto il gatto dal veterinario.", "this friday porto il gatto dal veterinario."),
    ],
)
def test_next_weekday_in_more_languages(text: str, english: str) -> None:
    assert readable_dates(text) == english


def test_a_title_before_a_name_ends_no_sentence() -> None:
    from memopilot.write.sentences import split_sentences

    message = "Preciso mandar a proposta para a Sra. Bettencourt até segunda que vem."
    assert split_sentences(message) == [message]


def test_the_translated_date_is_the_day_the_english_would_name() -> None:
    found = dates.find_date(english_dates("antes del 20 de enero", "es"), NOW)
    assert found is not None and found.when.date().isoformat() == "2027-01-19"  # the day before


def _kept(message: str) -> list[tuple[str, str | None]]:
    out = RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output
    return [(m.type, m.expires_at.date().isoformat() if m.expires_at else None) for m in out.new_memories]


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Tengo que renovar el pasaporte antes del 20 de enero.", ("deadline", "2027-01-19")),
        ("Le loyer doit être payé avant le 5 décembre.", ("deadline", "2026-12-04")),
        ("Die Hausarbeit muss bis nächsten Freitag fertig sein.", ("deadline", "2026-11-20")),
        ("Bis Freitag bin ich auf Dienstreise in Hamburg.", ("temporary", "2026-11-13")),
        ("Sono a Torino fino a venerdì per lavoro.", ("temporary", "2026-11-13")),
        # "bis zum" is "until" unless something must be done by then; Swedish "till och med"
        ("Bis zum 30. November bin ich in Elternzeit, danach wieder im Büro.", ("temporary", "2026-11-30")),
        ("Jag är sjukskriven till och med 20 november.", ("temporary", "2026-11-20")),
        # said on Tuesday 10 November 2026
        ("Devo consegnare il preventivo entro giovedì della settimana prossima.", ("deadline", "2026-11-19")),
        ("Je dois rendre mon mémoire dans dix jours.", ("deadline", "2026-11-20")),
    ],
)
def test_a_deadline_or_an_end_in_another_language_has_its_day(message: str, kept: tuple[str, str]) -> None:
    assert _kept(message) == [kept]


def test_bis_zum_is_by_only_with_an_obligation() -> None:
    assert english_dates("Bis zum 30. November bin ich in Elternzeit.", "de").startswith("until 30 november")
    assert "by 31 july" in english_dates("Die Steuererklärung muss bis zum 31. Juli fertig sein.", "de")


@pytest.mark.parametrize(
    ("text", "language", "english"),
    [
        ("Voy a natación los martes y los jueves.", "es", "Voy a natación tuesdays y thursdays."),
        ("Corremos todos los domingos por la mañana.", "es", "Corremos sundays por la mañana."),
        ("Vado in palestra il lunedì e ogni venerdì.", "it", "Vado in palestra mondays e fridays."),
        ("Je fais du yoga le mercredi soir.", "fr", "Je fais du yoga wednesdays soir."),
        # one day, not a habit: a singular article, or a day of the month after the weekday
        ("Tengo el dentista el martes.", "es", "Tengo el dentista el tuesday."),
        ("Le mardi 14 mars je pars à Lyon.", "fr", "Le tuesday 14 march je pars à Lyon."),
        ("Ich gehe dienstags schwimmen.", "de", "Ich gehe tuesdays schwimmen."),
    ],
)
def test_a_weekday_said_as_a_habit_is_every_such_day(text: str, language: str, english: str) -> None:
    assert english_dates(text, language) == english


def test_a_new_routine_on_a_weekday_is_no_state_that_ends_then() -> None:
    """ "Ahora" beside "los martes" read as a state ending next Tuesday: the memory expired two
    days later and the lessons it changed came back."""
    message = "Cambio de planes: las clases de violín de Nora ahora son con Tomás, los martes por la tarde."
    (kept,) = _kept(message)
    assert kept[0] != "temporary" and kept[1] is None


def test_the_morning_is_not_tomorrow() -> None:
    assert english_dates("Mañana tengo el dentista.", "es") == "tomorrow tengo el dentista."
    assert english_dates("Esta mañana fui al médico, corro por la mañana.", "es") == (
        "Esta mañana fui al médico, corro por la mañana."
    )


# -- 2026-12-06 (twelfth session) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "english"),
    [
        # Chinese, Japanese and Korean weekday of next week, of this week, and "by" after the day
        ("我下周五要考驾照", "我 next friday 要考驾照"),
        ("这周三之前交报告", " by this wednesday 交报告"),
        ("来週の水曜日までに年賀状を書く", " by next wednesday 年賀状を書く"),
        ("다음 주 금요일까지 보고서를 내야 해요", " by next friday  보고서를 내야 해요"),
        ("明天我要去医院", " tomorrow 我要去医院"),
        ("3天后搬家", " in 3 days 搬家"),
        # a weekday said every week is a routine, not the next such day
        ("每周二上课", " every tuesday 上课"),
        ("毎週火曜日にジムに行く", " every tuesday にジムに行く"),
        # no weekday: 周末 (the weekend) and 生日 (a birthday) stay as they were
        ("周末去爬山", "周末去爬山"),
        ("我的生日快到了", "我的生日快到了"),
    ],
)
def test_cjk_date_words_are_read_in_english(text: str, english: str) -> None:
    assert readable_dates(text) == english


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # said on Tuesday 10 November 2026: next week's Friday is the 20th
        ("我下周五要考驾照，有点紧张。", ("deadline", "2026-11-20")),
        ("来週の水曜日までに年賀状を50枚書かないといけない。", ("deadline", "2026-11-18")),
    ],
)
def test_a_cjk_day_ahead_is_kept_with_its_day(message: str, kept: tuple[str, str]) -> None:
    out = RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output
    (memory,) = out.new_memories
    assert (memory.type, memory.expires_at.date().isoformat() if memory.expires_at else None) == kept
    assert kept[1] in memory.content  # read later, the memory still says which day was meant


def test_a_weekday_of_next_week_said_after_it() -> None:
    for text in ("due Friday of next week", "by Friday of the following week"):
        found = dates.find_date(text, NOW)
        assert found is not None and found.when.date().isoformat() == "2026-11-20"
    german = readable_dates("Meine Steuererklärung muss bis Freitag nächster Woche beim Finanzamt sein.")
    found = dates.find_date(german, NOW)
    assert found is not None and found.when.date().isoformat() == "2026-11-20"


def test_since_a_date_in_another_language_starts_a_change() -> None:
    """ "Da questa settimana viviamo a Verolago" (we live in Verolago from this week on) was kept
    as a temporary state ending on Sunday."""
    english = readable_dates("Da questa settimana viviamo a Verolago.")
    assert english.startswith("from this week")
    assert dates.temporary_expiry(english, NOW) is None
    kept = _kept("Da questa settimana viviamo a Verolago, ci siamo trasferiti per lavoro.")
    assert kept and all(memory_type != "temporary" and end is None for memory_type, end in kept)


def test_a_day_of_the_month_said_alone_in_another_language_is_due_then() -> None:
    """ "bis zum 15." (a German ordinal, the verb after it) and "antes del 20," name a day."""
    now = datetime(2026, 10, 7, 12, tzinfo=UTC)
    for text, day in (
        ("Ich muss den Antrag bis zum 15. einreichen, sonst verfällt er.", 15),
        ("Tengo que pagar la matrícula antes del 20, si no pierdo la plaza.", 20),
    ):
        found = dates.find_date(readable_dates(text), now)
        assert found is not None and found.when.date() == datetime(2026, 10, day).date(), text
    assert "the 15th" not in readable_dates("Ich bin bis 15 Uhr im Büro.")
