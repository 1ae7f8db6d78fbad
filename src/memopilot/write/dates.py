"""Date expressions for deadlines and temporary notes, relative to an injected ``now``.

Two entry points, both pure functions of ``(text, now)`` (no wall clock, deterministic):

* :func:`deadline_from` -- "by Friday", "due 2027-01-15", "in 3 days", "EOD", "end of the month" ...
* :func:`temporary_expiry` -- "today only", "this week", "for now", "until Monday", "for the next 2 hours" ...

How it works: our own regular expressions find a date *phrase* in the text. Relative phrases
(weekdays, "tomorrow", "in 3 days", "end of the month", ...) are resolved by our own rules, which
are exact and cheap; calendar dates written with a month name or as ``15/01/2027`` are handed to
the ``dateparser`` library, but only the matched phrase, never the whole text, so ordinary words
never turn into dates. ``dateparser`` is imported lazily, on the first calendar date.

Conventions (all times are UTC; the user's own time zone is not known here):

* A deadline means the *end* of the named day, 23:59:59, unless a time is given ("by 5pm").
* Weekdays, as people mean them (weeks run Monday to Sunday): "next <weekday>" is that day in the
  following calendar week (said on Thursday 3 December 2026, "next Friday" is 11 December and
  "next Monday" 7 December); "this <weekday>" is the one in the current week, or the next one if
  it has passed; a bare weekday ("by Friday", "on Tue", "the coming Friday") is its next
  occurrence after today (said on a Friday, "by Friday" is a week later).
* "before <day>" means the end of the day before it ("before March 3rd" -> March 2, 23:59:59).
* Deadlines at the end of a week ("end of week", "EOW", "this week", "next week") mean that week's
  Friday, the end of the working week, so a reminder errs early; on a Saturday or Sunday it is
  that Sunday. A temporary note for "this week" instead lasts until Sunday 23:59:59.
* A calendar date without a year is the next such date on or after today.
* Explicit past references ("yesterday", "last Friday", "3 days ago") give ``None``: they are not
  deadlines, and a note already expired would be useless.
* ``15/01/2027`` style dates need a four-digit year; ambiguous ones (``03/04/2027``) are read
  month first, as ``dateparser`` does for English.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from ..read.tokens import cjk_language, has_cjk

__all__ = [
    "DateMatch", "deadline_from", "find_date", "names_cjk_date", "spans_a_period", "starts_then",
    "states_a_while", "temporary_expiry",
]  # fmt: skip

# "for now" / "temporarily": a provisional note should outlive the current stretch of work but not
# turn into a permanent fact nobody revisits. A week covers the usual "for now" (this sprint, this
# trip, until the fix lands) and the note then expires instead of silently going stale.
FOR_NOW_DAYS = 7
# "for this session": the engine does not know when a session ends; half a day covers a working
# session without the note surviving into tomorrow's.
SESSION_HOURS = 12

_END_OF_DAY = time(23, 59, 59)

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "couple": 2,
    "a couple": 2,
    "a couple of": 2,
    "couple of": 2,
    "few": 3,
    "a few": 3,
}

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_SEASONS = r"(?:spring|summer|autumn|fall|winter)"
_WEEKDAY_FULL = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_WEEKDAY_ABBR = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?"
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"
_NUM = r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty" + (
    r"|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)"
)
# (a stay counts nights: "at my brother's for five nights")
_UNIT = r"(?P<unit>min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|nights?|weeks?|fortnights?|months?|years?)"
_F = re.IGNORECASE


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _F)


_ISO = _rx(
    r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"
    r"(?:[T ](?P<H>\d{2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?(?:\.\d+)?(?P<tz>Z|[+-]\d{2}:?\d{2})?)?(?![\d])"
)
# ("in exactly 6 weeks", "in just two days": the same offset)
_OFFSET = _rx(
    rf"\b(?:in|within)\s+(?:the\s+next\s+|the\s+coming\s+)?(?:exactly\s+|just\s+|only\s+)?"
    rf"(?P<n>{_NUM})\s+{_UNIT}\b"
)
_FROM_NOW = _rx(rf"\b(?P<n>{_NUM})\s+{_UNIT}\s+from\s+(?:now|today)\b")
_NUMERIC = _rx(rf"(?<![\d/.])(?:[012]?\d|3[01])[/.](?:[012]?\d|3[01])[/.]{_YEAR}(?![\d/.])")
_MONTH_DAY = _rx(
    rf"\b(?P<mon>{_MONTH})\s+(?:the\s+)?(?P<day>{_DAY})(?![\d:])(?!\s*(?:am|pm|a\.m|p\.m)\b)"
    rf"(?:,?\s+(?P<year>{_YEAR}))?\b"
)
_DAY_MONTH = _rx(rf"\b(?:the\s+)?(?P<day>{_DAY})\s+(?:of\s+)?(?P<mon>{_MONTH})(?:,?\s+(?P<year>{_YEAR}))?\b")
_END_OF = _rx(
    r"\b(?:(?:the\s+)?end\s+of\s+(?:the\s+)?(?P<which>this\s+|next\s+|the\s+)?(?P<period>week|month|year|"
    r"quarter)|(?P<abbr>eow|eom|eoy|eoq))\b"
)
_END_OF_MONTH_NAME = _rx(rf"\b(?:the\s+)?end\s+of\s+(?P<mon>{_MONTH})(?:\s+(?P<year>{_YEAR}))?\b")
# "mid-July", "the middle of July": its 15th
_MID_MONTH = _rx(rf"\b(?:mid-?\s?|(?:the\s+)?middle\s+of\s+)(?P<mon>{_MONTH})(?:\s+(?P<year>{_YEAR}))?\b")
_WEEKDAY = _rx(
    rf"\b(?:(?P<mod>next|this|coming|the\s+coming|last|past|previous|"
    rf"(?:every|each)(?:\s+(?:other|second|third|fourth|2nd|3rd|4th))?)\s+)?(?P<wd>{_WEEKDAY_FULL})(?!s\b)"
    r"(?!\s+(?:mornings|afternoons|evenings|nights)\b)"  # "Thursday mornings": every Thursday
    r"(?:,?\s+(?:of\s+)?(?:the\s+)?(?P<wk>next|this|following|coming)\s+week)?"  # "Friday of next week"
)
_WEEKDAY_AFTER_WEEK = _rx(rf"\b(?P<wk>next|this)\s+week(?:\s+on)?,?\s+(?P<wd>{_WEEKDAY_FULL})(?!s\b)")
_WEEKDAY_ABBR_CUED = _rx(
    rf"\b(?:by|on|until|till|before|due|(?P<mod>next|this))\s+(?P<wd>{_WEEKDAY_ABBR})(?![a-z'’])(?!\.\w)"
)
_NAMED_DAY = _rx(r"\b(?P<word>(?:the\s+)?day\s+after\s+tomorrow|tomorrow|tmrw|tmr|today|tonight|yesterday)\b")
_PERIOD = _rx(
    r"\b(?P<mod>next|this|the\s+coming|coming|last|past|previous|every|each)\s+(?P<period>week|month|year|"
    r"weekend)\b|\b(?P<weekend>(?:(?P<through>over|all)\s+)?(?:the\s+)?weekend)\b"
)
_MONTH_ONLY = _rx(
    rf"\b(?:in|by|until|till|before|during|due|for)\s+(?:early\s+|mid\s+|late\s+)?(?P<mon>{_MONTH})"
    rf"(?:\s+(?P<year>{_YEAR}))?\b(?!\s+\d)"
)
# "by the 15th", "moving day is the 30th", "it's now the 17th", "Thursday the 14th", "until the
# 28th (sprained ankle)", "Thursday the 18th 👍", "starting the 10th", "we leave on the 5th
# instead", "moved to the 18th this month", "has to go in by the 20th if we want it back", but not
# "the 2nd time" or "the 3rd floor": a cue before, nothing noun-like after (a conjunction may be).
_ORDINAL_DAY = _rx(
    r"(?:\b(?:on|by|until|till|before|due|from|is|now|to|starting|beginning"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|'s)"
    r"\s+the\s+(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b"
    r"(?=\s*(?:$|[^\w\s]|(?:at|by|and|or|so|but|to|for|while|when|because|since|then|unless|after|if"
    r"|though|although|otherwise|once|latest"
    r"|instead|now|again|too|this\s+(?:month|time)|next\s+month|as\s+usual)\b))"
)
# "the 1st of next month", "by the 15th of this month": a day of the month named by its period
_DAY_OF_PERIOD = _rx(
    r"\bthe\s+(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\s+of\s+(?P<which>next|this|the\s+coming)\s+month\b"
)
_EOD = _rx(
    r"\b(?:eod|cob|(?:the\s+)?end\s+of\s+(?:the\s+)?(?:business\s+|work(?:ing)?\s+)?day|"
    r"close\s+of\s+business)\b"
)
_TIME = _rx(
    r"\b(?P<h>1[0-2]|0?[1-9])(?::(?P<m>[0-5]\d))?\s*(?P<ampm>a\.?m\.?|p\.?m\.?)(?![a-z])"
    r"|(?<![\d:.-])(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?![\d:])"
    r"|\b(?P<word>noon|midday|midnight|tonight|(?:in\s+the\s+|tomorrow\s+|this\s+)?morning)\b"
)
_TIME_CUE = _rx(r"\b(?:by|at|before|until|till|due|no\s+later\s+than)\s*$")
_BEFORE = _rx(r"\b(?:before|no\s+later\s+than\s+the\s+day\s+before)\s+(?:the\s+)?$")


@dataclass(frozen=True, slots=True)
class DateMatch:
    """A date phrase found in a text, resolved to a UTC moment."""

    when: datetime
    start: int
    end: int
    phrase: str
    exact: bool  # True when a time was given (or implied, as in "in 2 hours")
    before: bool = False  # "before Saturday": due the day before the day the phrase names

    @property
    def named_day(self) -> date:
        """The day the phrase itself names (Saturday, for "before Saturday")."""
        return self.when.date() + timedelta(days=1) if self.before else self.when.date()


def deadline_from(text: str, now: datetime) -> datetime | None:
    """When the deadline named in ``text`` falls due (UTC), or None when no date is named."""
    found = find_date(text, now)
    return found.when if found else None


def find_date(text: str, now: datetime) -> DateMatch | None:
    """The first date phrase of ``text`` (by rule priority), resolved against ``now``; or None."""
    if not isinstance(text, str) or not text.strip():
        return None
    now = _utc(now)
    text = text[:5000]
    day = _find_day(text, now)
    clock = _find_time(text)
    if day is None:
        eod = _EOD.search(text)
        if eod:
            return DateMatch(_at(now.date(), _END_OF_DAY), eod.start(), eod.end(), eod.group(), False)
        if clock is None:
            return None
        (hh, mm), c_start, c_end = clock
        if not _TIME_CUE.search(text[:c_start]) and not text[c_start:c_end].lower().startswith("tonight"):
            return None  # a bare "10:30" or "3pm" in passing is not a deadline
        when = _at(now.date(), time(hh, mm, 59 if (hh, mm) == (23, 59) else 0))
        if when < now:
            when += timedelta(days=1)
        return DateMatch(when, c_start, c_end, text[c_start:c_end], True)
    value, start, end, shiftable = day
    if isinstance(value, datetime):
        return DateMatch(value, start, end, text[start:end], True)
    assert isinstance(value, date)
    before = shiftable and _BEFORE.search(text[:start]) is not None
    if clock is not None:
        (hh, mm), c_start, c_end = clock
        when = _at(value, time(hh, mm, 59 if (hh, mm) == (23, 59) else 0))
        return DateMatch(when, min(start, c_start), max(end, c_end), text[start:end], True)
    if before:
        value -= timedelta(days=1)
    return DateMatch(_at(value, _END_OF_DAY), start, end, text[start:end], False, before)


def range_end(text: str, now: datetime) -> datetime | None:
    """The last day of a span of dates the text states ("from the 3rd to the 10th", "Dec 20 -
    Jan 4"), or None when its first date is not followed by "to" or a dash and a second date."""
    first = find_date(text, now)
    if first is None:
        return None
    to = _RANGE_TO.match(text, first.end)
    if to is None:
        return None
    for rest in (text[to.end() :], "until " + text[to.end() :]):  # (a bare "the 10th" needs a word)
        second = find_date(rest, now)
        if second is not None and second.start == 0:
            return None if _weekly_hours(text, first, second) else second.when
    return None


# "a day-clinic job, 8 to 4, Monday to Friday", "the pool is open 7-9 Tuesday to Saturday": days of
# every week (a job's or a place's hours), not a span that ends; "I'm in Berlin Monday to
# Wednesday" still ends on Wednesday.
_BARE_WEEKDAY = _rx(rf"^(?:{_WEEKDAY_FULL})$")
_HOURS_WORDS = _rx(
    r"\b(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*(?:to|-|–)\s*\d{1,2}(?::\d{2})?\s*(?:am|pm)?|"
    r"jobs?|work|works|working|shifts?|rota|hours|opens?|classes|lessons|school|office)\b"
)


def stay_span(text: str) -> re.Match[str] | None:
    """A stay here now of a stated length (:data:`STAY_SPAN`), not one planned for later."""
    stay = STAY_SPAN.search(text)
    if stay is None or _LATER_PLAN.search(text) or _EVENT_LATER.search(text, stay.end()):
        return None
    return stay


def _weekly_hours(text: str, first: DateMatch, second: DateMatch) -> bool:
    bare_days = all(_BARE_WEEKDAY.match(found.phrase.strip()) for found in (first, second))
    return bare_days and _HOURS_WORDS.search(text) is not None


_STATED_SOON = timedelta(days=2)
_CLOCK_TIME = _rx(r"(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|h)?\W*")


def temporary_expiry(
    text: str, now: datetime, *, any_date: bool = True, guess: bool = True
) -> datetime | None:
    """When a temporary note stated in ``text`` stops holding (UTC), or None when nothing says.

    ``any_date=False``: only an end the text states as one ("until Friday", "for two weeks",
    "this week", "today") or a date within two days ("sick tomorrow"), not any date it names
    ("second Sunday afternoons", "finished on Friday"), for a text nothing else marks as
    temporary. ``guess=False``: None where the only end is a guess ("for now": a week)."""
    if not isinstance(text, str) or not text.strip():
        return None
    now = _utc(now)
    text = text[:5000]
    today = now.date()
    duration = _TEMP_DURATION.search(text)
    if duration and (
        _EVENT_LATER.match(text, duration.end()) or _later_period_before(text, duration.start(), today)
    ):
        # "a narrowboat for a week in August", "this summer we're renting a camper van for two
        # weeks": how long a later event lasts, not a state that holds from now
        duration = None
    if duration and duration.group("n2") and _lasted_so_far(text, duration.start()):
        duration = None  # "I've been vegetarian for 5 years": how long it has held, not its end
    if duration:
        count = duration.group("n") or duration.group("n2") or "1"
        return now + _delta(_number(count), duration.group("unit"), now)
    span = STATE_SPAN.search(text) or stay_span(text)
    if span and not _EVENT_LATER.match(text, span.end()):
        return now + _delta(_number(span.group("n")), span.group("unit"), now)
    span_end = range_end(text, now)
    if span_end is not None:
        return span_end
    until = _UNTIL.search(text)
    if until and not _UNTIL_OPEN.match(text, until.end()):
        found = find_date(text[until.start() :], now)
        # ("went up to £1,140 this month": an amount, then when it rose)
        if found is not None and not _starts_at(text, until.start() + found.start):
            return found.when
    if _bounds(_TEMP_TODAY, text):
        return _at(today, _END_OF_DAY)
    if _bounds(_TEMP_TOMORROW, text):
        return _at(today + timedelta(days=1), _END_OF_DAY)
    if _TEMP_SESSION.search(text):
        return now + timedelta(hours=SESSION_HOURS)
    if _bounds(_TEMP_WEEK, text):
        return _at(today + timedelta(days=6 - today.weekday()), _END_OF_DAY)
    if _bounds(_TEMP_MONTH, text):
        return _at(_month_end(today.year, today.month), _END_OF_DAY)
    found = find_date(text, now)
    # ("from this week on that's my slot": when a change begins, not when a state ends)
    # (a time of day alone is when something happens, not when a state ends: "it actually lands
    # at 11:15pm" corrects a flight)
    soon = found is not None and found.when <= now + _STATED_SOON and not _CLOCK_TIME.fullmatch(found.phrase)
    if found is not None and not _starts_at(text, found.start) and (any_date or soon):
        return found.when
    if guess and _TEMP_FOR_NOW.search(text):
        return now + timedelta(days=FOR_NOW_DAYS)
    return None


# "Starting this month", "as of today", "from this week on": when a change begins, not when a
# state ends.
_STARTS_AT = _rx(r"\b(?:starting|starts|started|from|as\s+of|beginning|begins|effective|since)\s+$")


# "Rent went up to £1,290 this month", "I switched to decaf this week": when a change happened, after
# its verb in the same clause (a number's comma or point does not end it), not how long a state lasts.
_CHANGED_IN = _rx(
    r"\b(?:went\s+(?:up|down)|gone\s+(?:up|down)|rose|risen|increased|decreased|dropped|fell|jumped|doubled|"
    r"halved|changed|switched|moved|raised|bumped|upped)\b(?:[^,.;:!?]|(?<=\d)[,.](?=\d)){0,40}$"
)


def states_a_while(text: str, *, days: bool = False) -> bool:
    """Whether ``text`` says how long something lasts from now ("for the next five days", "for
    6 weeks"), not only when ("this week"). ``days``: a day or longer (not "for 10 minutes")."""
    found = _TEMP_DURATION.search(text)
    if found is None or not days:
        return found is not None
    return not found["unit"].lower().startswith(("min", "h"))


def spans_a_period(text: str) -> bool:
    """Whether ``text`` says a state lasts through the week or weekend it is said in
    ("dog-sitting over the weekend", "on call all week"), which ends with it."""
    return _THROUGH_PERIOD.search(text) is not None


def while_stated_at(text: str) -> int | None:
    """Where ``text`` says how long something lasts (:func:`states_a_while`), if it does."""
    found = _TEMP_DURATION.search(text)
    return None if found is None else found.start()


def starts_then(text: str, found: DateMatch) -> bool:
    """Whether the day ``found`` in ``text`` is when something begins ("Rent goes up from the 1st
    of next month", "bin collection every other Tuesday, starting the 10th"): a lasting change
    that starts then, not an event of that day."""
    # (the cue is before the phrase, or its first word: "starting the 10th" is one phrase)
    first_word = found.phrase.split(" ", 1)[0]
    return _start_cue_before(text, found.start) or _STARTS_AT.match(first_word + " ") is not None


def _start_cue_before(text: str, position: int) -> bool:
    """Whether "from", "starting", "as of" ... ends ``text`` just before ``position``."""
    return _STARTS_AT.search(text, max(0, position - 16), position) is not None


def _starts_at(text: str, position: int) -> bool:
    return (
        _start_cue_before(text, position)
        or _CHANGED_IN.search(text, max(0, position - 60), position) is not None
    )


# A perfect tense before a duration in the same clause: "the cat has been hiding for three days",
# "I've had a cough for 10 days", "she's been in hospital for a week" tell how long a state has
# held so far, not when it ends (read as ends, "I've been vegetarian for 5 years" expired in five
# years, and a message telling such a state beside a move was taken for a passing state, so the
# move replaced nothing). Not a state one was told or given to keep ("I've been told to rest for
# two weeks").
_PERFECT = _rx(
    r"\b(?:(?:has|have|had|'ve|’ve)\s+(?:(?:not|never|only|just|really|basically|now|already)\s+)?"
    r"(?:been|had|lived|worked|known|used|kept|owned|felt|slept|\w+ed)|(?:'s|’s)\s+been)\b"
    r"(?!\s+(?:told|asked|advised|prescribed|ordered|given|put|signed|booked)\b)[^,.;:!?]{0,60}$"
)


def _lasted_so_far(text: str, position: int) -> bool:
    return _PERFECT.search(text, max(0, position - 100), position) is not None


def _bounds(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` names, somewhere in ``text``, the time a state lasts (not when it starts)."""
    return any(not _starts_at(text, m.start()) for m in pattern.finditer(text))


_EVENT_LATER = _rx(
    rf"\s+(?:in\s+(?:{_MONTH}|(?:the\s+)?{_SEASONS})"
    rf"|(?:next|this\s+coming)\s+(?:week|month|year|{_SEASONS})|from\s+the)\b"
)
# A later period named before a duration: "next month ...", "this summer ...", "in August ..."
_PERIOD_BEFORE = _rx(
    rf"\b(?:(?:next|this\s+coming|the\s+coming)\s+(?:week|month|year|{_SEASONS})"
    rf"|this\s+(?P<season>{_SEASONS})|in\s+(?:the\s+)?(?P<in_season>{_SEASONS})"
    rf"|in\s+(?P<month>{_MONTH}))\b"
)
_SEASON_MONTHS = {
    "spring": (3, 4, 5),
    "summer": (6, 7, 8),
    "autumn": (9, 10, 11),
    "fall": (9, 10, 11),
    "winter": (12, 1, 2),
}


def _later_period_before(text: str, position: int, today: date) -> bool:
    """Whether ``text`` names a period still ahead of ``today`` before ``position`` (a season or
    a month other than the current one, or "next week")."""
    for m in _PERIOD_BEFORE.finditer(text, 0, position):
        season = m["season"] or m["in_season"]
        if season is not None:
            if today.month not in _SEASON_MONTHS[season.lower()]:
                return True
        elif m["month"] is not None:
            if _month_number(m["month"]) != today.month:
                return True
        else:
            return True
    return False


_TEMP_DURATION = _rx(
    rf"\b(?:for|during)\s+(?:the\s+)?(?:about\s+|around\s+|roughly\s+|approximately\s+|some\s+)?"
    rf"(?:(?:next|coming)\s+(?:(?P<n>{_NUM})\s+)?|(?P<n2>{_NUM})\s+){_UNIT}\b"
    r"(?!\s+(?:ago|later))"
)
# A state named by how long it lasts, going on now: "doing a 7-day sugar detox", "I'm on a
# two-week course", "started a 30-day yoga challenge" (a course booked for later is an event).
STATE_SPAN = _rx(
    r"\b(?:doing|on|started|starting|begun|began|halfway\s+through|in\s+the\s+middle\s+of)\s+"
    rf"(?:a|an|my|the|this)\s+(?P<n>{_NUM})[- ](?P<unit>days?|weeks?|months?)\b"
)
# Here now for a stay of a stated length: "I'm in Sorvik for a two-week work trip", "we're at my
# mum's for a 3-day visit" (not a stay booked for later: "a two-week trip in May", "going to book").
STAY_SPAN = _rx(
    r"^(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:currently|now|still)\s+)?(?:in|at|staying|visiting|"
    r"away|over|here|back)\b[^.!?;]*?\bfor\s+(?:a|an|my|our|the|this)\s+"
    rf"(?P<n>{_NUM})[- ](?P<unit>days?|weeks?|months?)\b"
)
_LATER_PLAN = _rx(r"\b(?:next|coming|book|booking|booked|plan|planning|will|going\s+to)\b")
_UNTIL = _rx(r"\b(?:until|till|til|through|thru|up\s+to)\b")
# A span of dates ("from the 3rd to the 10th", "Dec 20 - Jan 4"): the state holds until its end.
_RANGE_TO = _rx(r"\s*(?:to|-|–|—)\s+(?=\S)")
_UNTIL_OPEN = _rx(r"\s+(?:further\s+notice|i\s+say\s+otherwise|told\s+otherwise|then)\b")
_TEMP_TODAY = _rx(
    r"\b(?:today\s+only|only\s+(?:for\s+)?today|just\s+(?:for\s+)?today|for\s+today|"
    r"for\s+the\s+(?:rest\s+of\s+the\s+)?day|tonight|this\s+(?:morning|afternoon|evening))\b"
)
_TEMP_TOMORROW = _rx(
    r"\b(?:tomorrow\s+only|only\s+(?:for\s+)?tomorrow|just\s+(?:for\s+)?tomorrow|for\s+tomorrow)\b"
)
_TEMP_SESSION = _rx(r"\b(?:this|the\s+current|for\s+the)\s+(?:session|conversation|chat)\b")
# A state through the week or weekend it is said in ("dog-sitting over the weekend", "all week");
# not "during the week" or "throughout the week", which say when, every week ("I work in IT
# support during the week")
_THROUGH_PERIOD = _rx(r"\b(?:over\s+(?:the|this)\s+weekend|all\s+(?:this\s+)?week(?:end)?)\b")
_TEMP_WEEK = _rx(
    rf"\b(?:this\s+week(?:end)?|for\s+the\s+(?:rest\s+of\s+the\s+)?week)\b|{_THROUGH_PERIOD.pattern}"
)
_TEMP_MONTH = _rx(r"\b(?:this\s+month|for\s+the\s+(?:rest\s+of\s+the\s+)?month)\b")
_TEMP_FOR_NOW = _rx(
    r"\b(?:for\s+now|temporar(?:y|ily)|for\s+the\s+time\s+being|for\s+the\s+moment|at\s+the\s+moment"
    r"|in\s+the\s+meantime|short[-\s]term|until\s+further\s+notice)\b"
)


# -- finding the day --------------------------------------------------------------------------


def _find_day(text: str, now: datetime) -> tuple[date | datetime, int, int, bool] | None:
    """The first rule (in priority order) that names a future day: (date or exact datetime, span, shiftable).

    Past references ("last Friday", "yesterday") and recurring ones ("every Friday") resolve to None
    and are skipped.
    """
    today = now.date()
    for rule in _DAY_RULES:
        for match in rule.pattern.finditer(text):
            value = rule.resolve(match, now, today)
            if value is not None:
                return value, match.start(), match.end(), rule.shiftable
    return None


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    resolve: Any  # (match, now, today) -> date | datetime | None (None: not a future date after all)
    shiftable: bool = False  # names one day, so "before <it>" means the day before


def _iso(m: re.Match[str], now: datetime, today: date) -> Any:
    try:
        d = date(int(m["y"]), int(m["m"]), int(m["d"]))
    except ValueError:
        return None
    if m["H"] is None:
        return d
    try:
        value = datetime(d.year, d.month, d.day, int(m["H"]), int(m["M"]), int(m["S"] or 0))
    except ValueError:
        return d
    tz = m["tz"]
    if tz and tz.upper() != "Z":
        sign = 1 if tz[0] == "+" else -1
        digits = tz[1:].replace(":", "")
        value -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return value.replace(tzinfo=UTC)


def _offset(m: re.Match[str], now: datetime, today: date) -> Any:
    n = _number(m["n"])
    unit = m["unit"].lower()
    if unit.startswith(("min", "h")):
        return now + _delta(n, unit, now)
    return (now + _delta(n, unit, now)).date()


def _calendar(m: re.Match[str], now: datetime, today: date) -> Any:
    phrase = m.group()
    has_year = re.search(_YEAR, phrase) is not None
    # A leap year stands in for a missing one, so "Feb 29" parses; only month and day are kept then.
    parsed = _parse_calendar(phrase if has_year else f"{phrase} 2028")
    if parsed is None:
        return None
    if has_year:
        return parsed
    return _next_month_day(today, parsed.month, parsed.day)


def _end_of(m: re.Match[str], now: datetime, today: date) -> Any:
    abbr = (m["abbr"] or "").lower()
    period = {"eow": "week", "eom": "month", "eoy": "year", "eoq": "quarter"}.get(abbr) or m["period"].lower()
    nxt = (m["which"] or "").strip().lower() == "next"
    if period == "week":
        return _week_deadline(today + timedelta(weeks=1) if nxt else today, today)
    if period == "month":
        year, month = (
            (today.year + today.month // 12, today.month % 12 + 1) if nxt else (today.year, today.month)
        )
        return _month_end(year, month)
    if period == "quarter":
        q_end = ((today.month - 1) // 3) * 3 + 3 + (3 if nxt else 0)
        return _month_end(today.year + (q_end - 1) // 12, (q_end - 1) % 12 + 1)
    return date(today.year + (1 if nxt else 0), 12, 31)


def _mid_month(m: re.Match[str], now: datetime, today: date) -> Any:
    month = _month_number(m["mon"])
    if m["year"]:
        return date(int(m["year"]), month, 15)
    year = today.year if (month, 15) >= (today.month, today.day) else today.year + 1
    return date(year, month, 15)


def _end_of_month_name(m: re.Match[str], now: datetime, today: date) -> Any:
    month = _month_number(m["mon"])
    if m["year"]:
        return _month_end(int(m["year"]), month)
    year = today.year if month >= today.month else today.year + 1
    return _month_end(year, month)


def _weekday(m: re.Match[str], now: datetime, today: date) -> Any:
    mod = " ".join((m.groupdict().get("mod") or "").lower().split())
    if mod.split(" ")[0] in {"last", "past", "previous", "every", "each"}:  # "every other Friday" too
        return None
    target = _WEEKDAYS[m["wd"].lower()[:3]]
    week = (m.groupdict().get("wk") or "").lower()
    if week in {"next", "following", "coming"}:
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1)
        return monday + timedelta(days=target)
    if week == "this":
        monday = today - timedelta(days=today.weekday())
        return monday + timedelta(days=target)
    if mod == "next":  # that day of the following calendar week
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1)
        return monday + timedelta(days=target)
    if mod == "this" and target >= today.weekday():  # this week's, while it has not passed
        return today + timedelta(days=target - today.weekday())
    return today + timedelta(days=(target - today.weekday()) % 7 or 7)  # the next one after today


def _named_day(m: re.Match[str], now: datetime, today: date) -> Any:
    word = " ".join(m["word"].lower().split())
    if word == "yesterday":
        return None
    if word in {"today", "tonight"}:
        return today
    if word in {"tomorrow", "tmrw", "tmr"}:
        return today + timedelta(days=1)
    return today + timedelta(days=2)


def _period(m: re.Match[str], now: datetime, today: date) -> Any:
    if m["weekend"] and m["through"]:
        # "dog-sitting over the weekend", "all weekend": a state that lasts to its Sunday
        return today + timedelta(days=6 - today.weekday())
    if m["weekend"]:
        # "by the weekend": before it starts, i.e. Friday (the working week's end).
        return _week_deadline(today, today)
    mod = " ".join(m["mod"].lower().split())
    period = m["period"].lower()
    if mod in {"last", "past", "previous", "every", "each"}:
        return None
    nxt = mod in {"next", "the coming", "coming"}
    if period == "weekend":
        sunday = today + timedelta(days=6 - today.weekday())
        return sunday + timedelta(weeks=1) if mod == "next" else sunday
    if period == "week":
        return _week_deadline(today + timedelta(weeks=1) if nxt else today, today)
    if period == "month":
        year, month = (
            (today.year + today.month // 12, today.month % 12 + 1) if nxt else (today.year, today.month)
        )
        return _month_end(year, month)
    return date(today.year + (1 if nxt else 0), 12, 31)


def _month_only(m: re.Match[str], now: datetime, today: date) -> Any:
    month = _month_number(m["mon"])
    # "in may"/"for may" too often reads "we may ...": only accept "May" with a capital there.
    if month == 5 and m.group().lower().split()[0] in {"in", "for"} and not m["year"] and m["mon"][0] != "M":
        return None
    year = int(m["year"]) if m["year"] else (today.year if month >= today.month else today.year + 1)
    if m.group().lower().startswith("before"):
        return date(year, month, 1) - timedelta(days=1)
    return _month_end(year, month)


def _day_of_period(m: re.Match[str], now: datetime, today: date) -> Any:
    year, month = today.year, today.month
    if m["which"].lower() != "this":
        year, month = (year + month // 12, month % 12 + 1)
    day = int(m["day"])
    return date(year, month, day) if day <= calendar.monthrange(year, month)[1] else None


# A monthly amount or habit in the same sentence: "the childminder's fee is 950 a month and she
# wants it by the 1st" names a day of every month, not one due date (read as one, the fee
# expired with the first payday and took the sentence out of every context after it).
_MONTHLY = _rx(
    r"\b(?:per|each|every)\s+(?:calendar\s+)?month\b|\bmonthly\b"
    # "950 a month", "40 quid a month", "twice a month"; not "a month away"
    r"|(?:\d\s*(?:k|quid|pounds?|euros?|dollars?|bucks)?|\bonce|\btwice|\btimes)\s+a\s+month\b"
)


def _ordinal_day(m: re.Match[str], now: datetime, today: date) -> Any:
    if _MONTHLY.search(_sentence_around(m.string, m.start())):
        return None
    day = int(m["day"])
    days = list(_days_of_month_from(today, day))
    # "Saturday the 21st": the first 21st that is a Saturday (said in January, not the Wednesday)
    weekday = _WEEKDAYS.get(m.group().lower()[:3])
    named = [d for d in days if d.weekday() == weekday] if weekday is not None else []
    return (named or days or [None])[0]


def _days_of_month_from(today: date, day: int) -> Iterator[date]:
    """That day of each month, from today on, for a year."""
    year, month = today.year, today.month
    for _ in range(13):
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            yield date(year, month, day)
        year, month = (year + month // 12, month % 12 + 1)


def _sentence_around(text: str, position: int) -> str:
    start = max(text.rfind(end, 0, position) for end in ".!?\n") + 1
    ends = [found for end in ".!?\n" if (found := text.find(end, position)) >= 0]
    return text[start : min(ends, default=len(text))]


_DAY_RULES: tuple[_Rule, ...] = (
    _Rule(_ISO, _iso, shiftable=True),
    _Rule(_OFFSET, _offset),
    _Rule(_FROM_NOW, _offset),
    _Rule(_NUMERIC, _calendar, shiftable=True),
    _Rule(_END_OF_MONTH_NAME, _end_of_month_name),
    _Rule(_MID_MONTH, _mid_month),
    _Rule(_MONTH_DAY, _calendar, shiftable=True),
    _Rule(_DAY_MONTH, _calendar, shiftable=True),
    # a day of the month said alone is more precise than a weekday or a period beside it ("Thursday
    # the 14th", "by the 15th, can't slip this year")
    _Rule(_DAY_OF_PERIOD, _day_of_period, shiftable=True),
    _Rule(_ORDINAL_DAY, _ordinal_day, shiftable=True),
    _Rule(_END_OF, _end_of),
    _Rule(_WEEKDAY_AFTER_WEEK, _weekday, shiftable=True),
    _Rule(_WEEKDAY, _weekday, shiftable=True),
    _Rule(_WEEKDAY_ABBR_CUED, _weekday, shiftable=True),
    _Rule(_NAMED_DAY, _named_day, shiftable=True),
    _Rule(_PERIOD, _period),
    _Rule(_MONTH_ONLY, _month_only),
)


# -- finding the time of day ------------------------------------------------------------------


def _find_time(text: str) -> tuple[tuple[int, int], int, int] | None:
    for m in _TIME.finditer(text):
        if m["h"]:
            hour = int(m["h"]) % 12 + (12 if m["ampm"].lower().startswith("p") else 0)
            return (hour, int(m["m"] or 0)), m.start(), m.end()
        if m["h24"]:
            # Skip clock-like numbers that are really ratios or versions ("3:2", "1:1").
            return (int(m["h24"]), int(m["m24"])), m.start(), m.end()
        word = m["word"].lower()
        if word in {"noon", "midday"}:
            return (12, 0), m.start(), m.end()
        if word in {"midnight", "tonight"}:
            return (23, 59), m.start(), m.end()
        return (9, 0), m.start(), m.end()  # "tomorrow morning": the start of the working day
    return None


_REPEATS_BEFORE = re.compile(r"(?:每|毎|매)\s*$")  # "every" right before the date: a schedule


def names_cjk_date(text: str, now: datetime) -> bool:
    """Whether a Chinese, Japanese or Korean statement names a day ahead ("明天", "下周五",
    "十月"): dateparser's search in that language (the rules above read English only). Used for the
    statement's shape (a learned deadline needs a date to come); the date itself is not read. A
    day in the past ("去年夏天") or one that repeats ("每周二") does not count."""
    language = cjk_language(text)
    base = _utc(now).replace(tzinfo=None)
    try:
        from dateparser.search import search_dates

        found = search_dates(
            text,
            languages=[language],
            settings={
                "RELATIVE_BASE": base,
                "PREFER_DATES_FROM": "future",
                "RETURN_AS_TIMEZONE_AWARE": False,
            },
        )
    except Exception:  # dateparser raises assorted errors on odd input: treat as "no date"
        return False
    return any(
        base.date() < when.date() <= base.date() + timedelta(days=732)  # (it misreads some numbers)
        and has_cjk(phrase)  # a bare number ("iPhone 15", "A2047") is no date
        and not _REPEATS_BEFORE.search(text[: max(0, text.find(phrase))])
        for phrase, when in found or ()
    )


# -- helpers ----------------------------------------------------------------------------------

_PARSER: Any = None


def _parse_calendar(phrase: str) -> date | None:
    """A calendar date via ``dateparser`` (imported on first use; fixed settings, so deterministic)."""
    global _PARSER
    if _PARSER is None:
        from dateparser.date import DateDataParser

        _PARSER = DateDataParser(
            languages=["en"],
            settings={
                "RELATIVE_BASE": datetime(2000, 1, 1),
                "PARSERS": ["absolute-time"],
                "REQUIRE_PARTS": ["day", "month", "year"],
                "RETURN_AS_TIMEZONE_AWARE": False,
            },
        )
    cleaned = re.sub(r"\bthe\b|,", " ", phrase, flags=_F)
    try:
        result = _PARSER.get_date_data(" ".join(cleaned.split()))
    except Exception:  # dateparser raises assorted errors on odd input: treat as "no date"
        return None
    return result.date_obj.date() if result and result.date_obj else None


def _utc(now: datetime) -> datetime:
    if now.tzinfo is None:
        return now.replace(tzinfo=UTC)
    return now.astimezone(UTC)


def _at(day: date, clock: time) -> datetime:
    return datetime.combine(day, clock, tzinfo=UTC)


def _number(word: str) -> int:
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _NUMBERS.get(word, 1)


def _delta(n: int, unit: str, now: datetime) -> timedelta:
    unit = unit.lower()
    if unit.startswith("min"):
        return timedelta(minutes=n)
    if unit.startswith("h"):
        return timedelta(hours=n)
    if unit.startswith(("d", "n")):
        return timedelta(days=n)
    if unit.startswith("w"):
        return timedelta(weeks=n)
    if unit.startswith("f"):
        return timedelta(weeks=2 * n)
    months = n * (12 if unit.startswith("y") else 1)
    total = now.month - 1 + months
    year, month = now.year + total // 12, total % 12 + 1
    day = min(now.day, calendar.monthrange(year, month)[1])
    return now.replace(year=year, month=month, day=day) - now


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _month_number(name: str) -> int:
    return _MONTHS[name.lower()[:3]]


def _next_month_day(today: date, month: int, day: int) -> date | None:
    for year in range(today.year, today.year + 9):
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            return date(year, month, day)
    return None


def _week_deadline(day_in_week: date, today: date) -> date:
    """The Friday of ``day_in_week``'s week; that Sunday when the Friday is already behind ``today``."""
    friday = day_in_week + timedelta(days=4 - day_in_week.weekday())
    if friday >= today:
        return friday
    return day_in_week + timedelta(days=6 - day_in_week.weekday())
