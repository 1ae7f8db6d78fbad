"""Date words of other languages in English, so that the English date rules read them.

The rules of :mod:`.dates` read English ("by Friday", "until the end of July", "this week"). A
statement in Spanish, French, German, Italian, Portuguese, Dutch, Swedish, Turkish, Polish or Hindi
("Tengo que renovar el pasaporte antes del 20 de enero", "Die Steuererklärung muss bis Ende Juli
beim Finanzamt sein") named no date to them, so its deadline was stored without a due date or not
typed a deadline at all.

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

from ..read.tokens import mostly_cjk
from .cjk_date_words import cjk_english_dates
from .language import language_of

__all__ = ["LANGUAGES", "english_dates", "readable_dates"]

LANGUAGES = ("es", "fr", "de", "it", "pt", "nl", "sv", "tr", "pl", "hi")
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
           "el próximo": "next", "la próxima": "next", "este": "this", "esta": "this",
           "la semana que viene": "next week", "semana que viene": "next week", "que viene": "next"},
    "fr": {"jusqu'au": "until", "jusqu'à": "until", "avant le": "before", "avant": "before",
           "d'ici le": "by", "d'ici": "by", "au plus tard le": "by", "fin": "end of", "prochain": "next",
           "prochaine": "next", "ce": "this", "cette": "this"},
    "de": {"bis zum": "until", "bis spätestens": "by", "spätestens am": "by", "bis": "until",
           "vor dem": "before", "ende": "end of", "nächsten": "next", "nächste": "next",
           "nächster": "next", "kommender": "next", "der nächsten woche": "of next week", "kommenden": "next",
           "monats": "month",
           "diese": "this"},
    "it": {"entro il": "by", "entro": "by", "fino al": "until", "fino a": "until", "prima del": "before",
           "prima di": "before", "fine": "end of", "prossimo": "next", "prossima": "next",
           "questo": "this", "questa": "this"},
    "pt": {"até ao": "by", "até o": "by", "até à": "by", "até": "by", "antes do": "before",
           "antes de": "before", "fim de": "end of", "final de": "end of", "próximo": "next",
           "próxima": "next", "a semana que vem": "next week", "semana que vem": "next week",
           "que vem": "next"},
    "sv": {"till och med": "until", "t.o.m.": "until", "fram till": "until", "senast": "by",
           "innan": "before", "före": "before", "nästa": "next", "denna": "this",
           "i slutet av": "by the end of"},
    # ("gelecek cuma", "w przyszły piątek", "अगले शुक्रवार": next Friday)
    "tr": {"gelecek": "next", "önümüzdeki": "next", "bu": "this"},
    "pl": {"przyszły": "next", "przyszłą": "next", "przyszłym": "next", "przyszłej": "next",
           "następny": "next", "następną": "next", "następnym": "next", "w ten": "this", "w tę": "this"},
    "hi": {"अगले": "next", "अगला": "next", "अगली": "next", "इस": "this"},
    "nl": {"uiterlijk": "by", "voor": "before", "tot en met": "until", "tot": "until", "eind": "end of",
           "einde": "end of", "volgende": "next", "deze": "this"},
}  # fmt: skip
_MIN_NAME = 4  # shorter names are abbreviations, left out
# Phrases holding a date word that say no date: "por la mañana" is in the morning, not tomorrow.
# Matched before the date word inside them (the longest phrase first) and left as they are.
# Hindi "कल" is tomorrow and yesterday both, told apart by the verb only.
_NOT_DATES = {"es": ("la mañana", "esta mañana"), "hi": ("कल",)}
_NO_DATE = "<no date>"  # their entry in a language's table: the phrase stays as it was written


def readable_dates(text: str) -> str:
    """``text`` with its date words in English when it is written in one of :data:`LANGUAGES`
    ("antes del 20 de enero" -> "before 20 january"), or in Chinese, Japanese or Korean
    (:mod:`.cjk_date_words`); otherwise ``text`` itself."""
    if mostly_cjk(text):
        return cjk_english_dates(text)
    # ("me" and "at" are Spanish, French or Italian words too: "El viernes me mudo al piso nuevo"
    # was read as English, and its Friday missed)
    language = language_of(text, strictly=True)
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
    english = _counted_spans(text, language)  # "dans dix jours": "in 10 days"
    english = pattern.sub(lambda m: _in_english(m.group(), table), english)
    if language in _HABITUAL:  # "los martes por la tarde": every Tuesday, "tuesdays"
        english = _HABITUAL[language].sub(r"\1s", english)
    english = _DAY_OF_MONTH.sub(r"\1 \2", english)  # "20 de january", "20. july": "20 july"
    english = _DAY_ALONE.sub(r"the \1th", english)  # "até o dia 10": "by the 10th"
    # "bis zum 15. abgeben": "by the 15th, abgeben" (the English rules take a word after "the 15th"
    # for a noun, "the 2nd time"; here it is the verb, which these languages put last)
    english = _BARE_DAY.sub(lambda m: f"{m[1]} the {m[2]}th{',' if m[3] else ''}", english)
    english = _WEEKDAY_OF_NEXT_WEEK.sub(r"next week \1", english)  # "viernes de la semana que viene"
    english = _NEXT_AFTER.sub(r"next \1", english)  # "friday next" (venerdì prossimo): "next friday"
    return _FROM_DATE.sub("from ", english)  # "da questa settimana viviamo a ...": from this week on


def _counted_spans(text: str, language: str) -> str:
    """``text`` with its "in <n> <units>" phrases in English ("over twee weken": "in 2 weeks"),
    read with dateparser's own patterns for them; a number said in words is read first."""
    for spoken, digits in _number_words(language):
        text = spoken.sub(digits, text)
    for said, english in _span_patterns(language):
        text = said.sub(english, text)
    return text


@functools.cache
def _span_patterns(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    from dateparser.languages.loader import LocaleDataLoader

    info = LocaleDataLoader().get_locale(language).info
    found: list[tuple[str, str]] = []
    for key, patterns in info.get("relative-type-regex", {}).items():
        unit = re.fullmatch(r"in \\1 (day|week|month|year)", key)
        if unit:
            found += [(p, rf"in \1 {unit.group(1)}s") for p in patterns]
    found.sort(key=lambda pair: -len(pair[0]))  # "dans 3 jours" before "dans 3 j"
    return tuple((re.compile(rf"(?<!\w){p}(?!\w)", re.IGNORECASE), e) for p, e in found)


@functools.cache
def _number_words(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Numbers said in words before a unit of time ("zwei Wochen", "dieci giorni"): dateparser's
    own words where it keeps them (French, German), else the short table below."""
    from dateparser.languages.loader import LocaleDataLoader

    info = LocaleDataLoader().get_locale(language).info
    words = {spoken: str(n) for spoken, n in _NUMBERS.get(language, {}).items()}
    for entry in info.get("simplifications", []):
        for spoken, digits in entry.items():
            if re.fullmatch(r"[^\W\d_]+", spoken) and digits.isdigit() and int(digits) > 1:
                words.setdefault(spoken.lower(), digits)
    names = [name for key in ("day", "week", "month", "year") for name in info.get(key, [])]
    units = "|".join(re.escape(name.lower()) for name in names if len(name) > 2)
    return tuple(
        (re.compile(rf"(?<!\w){re.escape(spoken)}(?=\s+(?:{units})(?!\w))", re.IGNORECASE), digits)
        for spoken, digits in words.items()
    )


# Two to twelve, where dateparser keeps no number words (French and German come from its data).
_NUMBERS = {
    language: dict(zip(words.split(), range(first, first + len(words.split())), strict=True))
    for language, first, words in (
        ("es", 2, "dos tres cuatro cinco seis siete ocho nueve diez once doce"),
        ("it", 2, "due tre quattro cinque sei sette otto nove dieci undici dodici"),
        ("pt", 3, "três quatro cinco seis sete oito nove dez onze doze"),
        ("nl", 2, "twee drie vier vijf zes zeven acht negen tien elf twaalf"),
        ("sv", 3, "tre fyra fem sex sju åtta nio tio elva tolv"),
    )
}
_NUMBERS["pt"] |= {"dois": 2, "duas": 2}


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
# "since" or "from" before a date ("da questa settimana", "seit diesem monat", "a partir de hoy"): when
# a change began, which the English rules read in "from this week", not the end of a state
_FROM_DATE = re.compile(
    r"\b(?:da|dalla|dal|desde|depuis|à partir d[e']|a partir d[eo]|seit|ab|sinds|vanaf|sedan|från och med)"
    rf"\s*(?=(?:this|next|today|tomorrow|{_WEEKDAY_NAMES}|{'|'.join(_MONTHS)})\b)",
    re.IGNORECASE,
)
# "el viernes de la semana que viene", "giovedì della settimana prossima": Friday of next week,
# which the English rules read as "next week friday"
_WEEKDAY_OF_NEXT_WEEK = re.compile(
    rf"\b({_WEEKDAY_NAMES})\s+(?:de\s+la|de|della|di|da|der|van\s+de)\s+next\s+week\b"
)
# "até o dia 10", "hasta el día 5": a day of this month (or the next), said without the month
_DAY_ALONE = re.compile(r"\b(?:o\s+|el\s+)?d[ií]a\s+(\d{1,2})\b(?!\s*(?:de\s+)?[^\W\d_]{3,}\b(?<!\bde))")


# A day of the month said alone after a connector: "bis zum 15." (a German ordinal), "avant le 15,"
# (not "bis 15 Uhr", a time, nor "antes de 15 días", a count)
_BARE_DAY = re.compile(r"\b(by|before|until)\s+(\d{1,2})(?:(\.)(?!\d)|(?=\s*(?:[,;!?]|$)))")


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
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<!{_LETTER})(?:{alternatives})(?!{_LETTER})", re.IGNORECASE)


# A letter of a word, Devanagari's vowel signs too (not \w to Python: "शुक्र", Friday, would be
# read in "शुक्रिया", thank you)
_LETTER = r"[\w\u0900-\u097f]"
