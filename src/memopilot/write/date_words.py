"""Date words of other languages in English, so that the English date rules read them.

The rules of :mod:`.dates` read English ("by Friday", "until the end of July", "this week"). A
statement in Spanish, French, German, Italian, Portuguese, Dutch or Swedish ("Tengo que renovar el
pasaporte antes del 20 de enero", "Die Steuererklärung muss bis Ende Juli beim Finanzamt sein")
named no date to them, so its deadline was stored without a due date or not typed a deadline at all.

:func:`english_dates` rewrites only the words that say when: month and weekday names and "today",
"tomorrow", "this week", "next month" come from dateparser's own locale data (the library the
date rules already use, which keeps those names for 200 languages); the words that tie a date to
a deadline or an end ("hasta", "avant", "bis", "entro", "até", "uiterlijk") are this module's short
table, as dateparser has none. Every other word stays as it was, so the rules' cues and filler
words are still what they were. Abbreviations ("jan", "mo", "di") are left out: in a sentence they
are more often words ("Die", "mo") than dates.
"""

from __future__ import annotations

import functools
import re

from .language import language_of

__all__ = ["LANGUAGES", "english_dates", "readable_dates"]

LANGUAGES = ("es", "fr", "de", "it", "pt", "nl", "sv")
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# dateparser's relative phrases ("0 week ago": "diese woche") as the English the rules read
_RELATIVE = {
    "0 day ago": "today", "in 1 day": "tomorrow", "0 week ago": "this week", "in 1 week": "next week",
    "0 month ago": "this month", "in 1 month": "next month", "0 year ago": "this year",
    "in 1 year": "next year",
}  # fmt: skip
# The words that tie a date to a deadline or an end, which dateparser does not translate.
_CONNECTORS = {
    "es": {"hasta el": "until", "hasta": "until", "antes del": "before", "antes de": "before",
           "para el": "by", "a más tardar el": "by", "a finales de": "by the end of", "fin de": "end of",
           "el próximo": "next", "la próxima": "next", "este": "this", "esta": "this"},
    "fr": {"jusqu'au": "until", "jusqu'à": "until", "avant le": "before", "avant": "before",
           "d'ici le": "by", "d'ici": "by", "au plus tard le": "by", "fin": "end of", "prochain": "next",
           "prochaine": "next"},
    "de": {"bis zum": "until", "bis spätestens": "by", "spätestens am": "by", "bis": "until",
           "vor dem": "before", "ende": "end of", "nächsten": "next", "nächste": "next", "kommenden": "next",
           "diese": "this"},
    "it": {"entro il": "by", "entro": "by", "fino al": "until", "fino a": "until", "prima del": "before",
           "prima di": "before", "fine": "end of", "prossimo": "next", "prossima": "next"},
    "pt": {"até ao": "by", "até o": "by", "até à": "by", "até": "by", "antes do": "before",
           "antes de": "before", "fim de": "end of", "final de": "end of", "próximo": "next",
           "próxima": "next"},
    "sv": {"till och med": "until", "t.o.m.": "until", "fram till": "until", "senast": "by",
           "innan": "before", "före": "before", "nästa": "next", "denna": "this",
           "i slutet av": "by the end of"},
    "nl": {"uiterlijk": "by", "voor": "before", "tot en met": "until", "tot": "until", "eind": "end of",
           "einde": "end of", "volgende": "next", "deze": "this"},
}  # fmt: skip
_MIN_NAME = 4  # shorter names are abbreviations, left out
# Phrases holding a date word that say no date: "por la mañana" is in the morning, not tomorrow.
# Matched before the date word inside them (the longest phrase first) and left as they are.
_NOT_DATES = {"es": ("la mañana", "esta mañana")}
_NO_DATE = "<no date>"  # their entry in a language's table: the phrase stays as it was written


def readable_dates(text: str) -> str:
    """``text`` with its date words in English when it is written in one of :data:`LANGUAGES`
    ("antes del 20 de enero" -> "before 20 january"); otherwise ``text`` itself."""
    language = language_of(text)
    return text if language == "en" else english_dates(text, language)


def english_dates(text: str, language: str) -> str:
    """``text`` with the date words of ``language`` (one of :data:`LANGUAGES`) in English; the
    text unchanged for any other language."""
    pattern = _pattern(language)
    if pattern is None:
        return text
    table = _table(language)
    if language == "de" and _OBLIGATION_DE.search(text):
        # "muss bis Freitag fertig sein": due by Friday; "bis Freitag in Hamburg": until Friday
        table = table | {"bis": "by", "bis zum": "by"}
    english = pattern.sub(lambda m: _in_english(m.group(), table), text)
    if language in _HABITUAL:  # "los martes por la tarde": every Tuesday, "tuesdays"
        english = _HABITUAL[language].sub(r"\1s", english)
    english = _DAY_OF_MONTH.sub(r"\1 \2", english)  # "20 de january", "20. july": "20 july"
    return _NEXT_AFTER.sub(r"next \1", english)  # "friday next" (venerdì prossimo): "next friday"


# A weekday said as a habit is every such day, not the next one: "los martes" (plural), "il
# martedì" and "le mardi" with no day of the month after them ("le mardi 14 mars" is one day).
# Read as "tuesdays", which the English rules take as a routine rather than a state ending then.
_WEEKDAY_NAMES = "|".join(_WEEKDAYS)
_HABITUAL = {
    language: re.compile(rf"\b(?:{article})\s+({_WEEKDAY_NAMES})s?\b(?!\s*\d)", re.IGNORECASE)
    for language, article in {"es": r"(?:todos\s+)?los", "it": r"il|ogni", "fr": r"le|tous\s+les"}.items()
}


def _in_english(words: str, table: dict[str, str]) -> str:
    english = table[words.lower()]
    return words if english == _NO_DATE else english


_OBLIGATION_DE = re.compile(
    r"\b(?:muss|musst|müssen|müsst|soll|sollte|sollen|fällig|abgeben|einreichen)\b", re.IGNORECASE
)
_MONTH_NAMES = "|".join(_MONTHS)
_DAY_OF_MONTH = re.compile(rf"\b(\d{{1,2}})(?:\.|º|er)?\s+(?:de\s+)?({_MONTH_NAMES})\b")
_NEXT_AFTER = re.compile(rf"\b({'|'.join(_WEEKDAYS)}|week|month|year)\s+next\b")


@functools.cache
def _table(language: str) -> dict[str, str]:
    from dateparser.languages.loader import LocaleDataLoader

    info = LocaleDataLoader().get_locale(language).info
    table: dict[str, str] = {}
    for english in (*_MONTHS, *_WEEKDAYS):
        for name in info.get(english, []):
            if len(name) >= _MIN_NAME:
                table[name.lower()] = english
                if english in _WEEKDAYS and not name.endswith("s"):
                    # "los domingos", "les mardis", "dienstags": on every such day
                    table.setdefault(f"{name.lower()}s", f"{english}s")
    for key, english in _RELATIVE.items():
        for phrase in info.get("relative-type", {}).get(key, []):
            table[phrase.lower()] = english
    table.update(_CONNECTORS.get(language, {}))
    table.update((phrase, _NO_DATE) for phrase in _NOT_DATES.get(language, ()))
    return table


@functools.cache
def _pattern(language: str) -> re.Pattern[str] | None:
    if language not in LANGUAGES:
        return None
    words = sorted(_table(language), key=len, reverse=True)  # the longest phrase first
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.IGNORECASE)
