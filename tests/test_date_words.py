"""Date words of other languages read by the English date rules (write/date_words.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memopilot.write import dates
from memopilot.write.date_words import english_dates
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
    assert english_dates("Do piątku jestem w Krakowie.", "pl") == "Do piątku jestem w Krakowie."


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
