"""Date expressions for deadlines and temporary notes (memopilot.write.dates), against a fixed `now`."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from memopilot.write.dates import (
    FOR_NOW_DAYS,
    SESSION_HOURS,
    deadline_from,
    find_date,
    range_end,
    temporary_expiry,
)

# Wednesday, 4 March 2026, noon UTC.
NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
FRIDAY_NOW = datetime(2026, 3, 6, 9, 30, tzinfo=UTC)
SATURDAY_NOW = datetime(2026, 3, 7, 10, 0, tzinfo=UTC)


def eod(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 23, 59, 59, tzinfo=UTC)


DEADLINES = [
    # the cases named in the brief
    ("by Friday", eod(2026, 3, 6)),
    ("due 2027-01-15", eod(2027, 1, 15)),
    ("next week", eod(2026, 3, 13)),  # the Friday of next week
    ("tomorrow", eod(2026, 3, 5)),
    ("in 3 days", eod(2026, 3, 7)),
    ("by the end of the month", eod(2026, 3, 31)),
    ("before March 3rd", eod(2027, 3, 2)),  # March 3 has passed this year; "before" = the day before
    ("on Jan 5", eod(2027, 1, 5)),
    ("EOD", eod(2026, 3, 4)),
    ("end of week", eod(2026, 3, 6)),
    # weekdays
    ("The report is due Wednesday", eod(2026, 3, 11)),  # today is Wednesday: the next one after today
    ("by Monday", eod(2026, 3, 9)),
    ("next Friday", eod(2026, 3, 13)),  # the Friday of the following calendar week
    ("this Friday", eod(2026, 3, 6)),
    ("Friday next week", eod(2026, 3, 13)),
    ("next week on Tuesday", eod(2026, 3, 10)),
    ("by wed", eod(2026, 3, 11)),
    ("before Friday", eod(2026, 3, 5)),
    # times
    ("by Friday 5pm", datetime(2026, 3, 6, 17, 0, tzinfo=UTC)),
    ("by 5pm", datetime(2026, 3, 4, 17, 0, tzinfo=UTC)),
    ("by 9am", datetime(2026, 3, 5, 9, 0, tzinfo=UTC)),  # 9am today has passed: tomorrow
    ("tomorrow at 14:30", datetime(2026, 3, 5, 14, 30, tzinfo=UTC)),
    ("by tomorrow morning", datetime(2026, 3, 5, 9, 0, tzinfo=UTC)),
    ("by midnight", eod(2026, 3, 4)),
    ("Jan 5, 2027 at 3pm", datetime(2027, 1, 5, 15, 0, tzinfo=UTC)),
    ("in 2 hours", datetime(2026, 3, 4, 14, 0, tzinfo=UTC)),
    ("within 30 minutes", datetime(2026, 3, 4, 12, 30, tzinfo=UTC)),
    ("2026-03-10T15:00:00+02:00", datetime(2026, 3, 10, 13, 0, tzinfo=UTC)),
    ("2026-03-10T15:00Z", datetime(2026, 3, 10, 15, 0, tzinfo=UTC)),
    # calendar dates (dateparser on the matched phrase)
    ("ships on March 20", eod(2026, 3, 20)),
    ("the 5th of April", eod(2026, 4, 5)),
    ("due 15/01/2027", eod(2027, 1, 15)),
    ("January 5th, 2028", eod(2028, 1, 5)),
    ("Feb 29", eod(2028, 2, 29)),  # the next Feb 29 that exists
    ("on March 4", eod(2026, 3, 4)),  # today's date: today, not next year
    # relative periods
    ("in two weeks", eod(2026, 3, 18)),
    ("in a month", eod(2026, 4, 4)),
    ("3 days from now", eod(2026, 3, 7)),
    ("the day after tomorrow", eod(2026, 3, 6)),
    ("end of next month", eod(2026, 4, 30)),
    ("before the end of the month", eod(2026, 3, 31)),
    ("end of the quarter", eod(2026, 3, 31)),
    ("end of the year", eod(2026, 12, 31)),
    ("next month", eod(2026, 4, 30)),
    ("this week", eod(2026, 3, 6)),
    ("by the weekend", eod(2026, 3, 6)),
    ("looking after my sister's cat over the weekend", eod(2026, 3, 8)),  # a stay: to its Sunday
    ("the flat is ours all weekend", eod(2026, 3, 8)),
    ("by March", eod(2026, 3, 31)),
    ("before April", eod(2026, 3, 31)),
    ("in May", eod(2026, 5, 31)),
    ("end of June", eod(2026, 6, 30)),
    ("the deposit can wait until mid-July", eod(2026, 7, 15)),
    ("by the middle of February", eod(2027, 2, 15)),  # February has passed: next year's
    ("by the 15th", eod(2026, 3, 15)),
    # the day of the month, not the weekday's next date (Thursday 5 March), whatever follows it
    ("MOT booked for Thursday the 19th 👍", eod(2026, 3, 19)),
    ("by EOD Friday", eod(2026, 3, 6)),
    ("tonight", eod(2026, 3, 4)),
]


@pytest.mark.parametrize(("text", "expected"), DEADLINES)
def test_deadline_from(text: str, expected: datetime) -> None:
    got = deadline_from(text, NOW)
    assert got == expected
    assert got is not None and got.utcoffset() == timedelta(0)


NOT_DATES = [
    "",
    "   ",
    "I like cats",
    "we may ship soon",
    "march on, soldier",
    "This is the 2nd time it broke",
    "We never deploy on Fridays",  # recurring, not one day
    "every Friday we have a retro",
    "last Friday was fun",  # past
    "yesterday",
    "3 days ago",
    "Python 3.11 and version 1.2.3",
    "the ratio is 3/4",
    "by the way, thanks",
    "in may we trust",  # lower-case "may" after "in" reads as the verb
    "🙂🙂",
    "sat down with the team",
    "random words: alpha beta gamma",
    "10:30",  # a bare time with no cue in passing
]


@pytest.mark.parametrize("text", NOT_DATES)
def test_no_date_gives_none(text: str) -> None:
    assert deadline_from(text, NOW) is None


def test_weekday_said_on_that_weekday() -> None:
    assert deadline_from("by Friday", FRIDAY_NOW) == eod(2026, 3, 13)  # the next one after today
    assert deadline_from("this Friday", FRIDAY_NOW) == eod(2026, 3, 6)  # this week's: today
    assert deadline_from("next Friday", FRIDAY_NOW) == eod(2026, 3, 13)
    assert deadline_from("by Thursday", FRIDAY_NOW) == eod(2026, 3, 12)


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Monday 30 November 2026 to Sunday 6 December 2026: the week of the issue's example.
WEEK = [datetime(2026, 11, 30 + i, 10, 0, tzinfo=UTC) if i < 1 else datetime(2026, 12, i, 10, 0, tzinfo=UTC)
        for i in range(7)]  # fmt: skip


@pytest.mark.parametrize("said_on", range(7), ids=WEEKDAYS)
@pytest.mark.parametrize("named", range(7), ids=WEEKDAYS)
def test_every_weekday_pair(said_on: int, named: int) -> None:
    """next X: X in the following calendar week; this X: this week's, or the next one once passed;
    a bare X: its next occurrence after today (weeks run Monday to Sunday)."""
    now = WEEK[said_on]
    monday = now.date() - timedelta(days=said_on)
    name = WEEKDAYS[named]
    following = monday + timedelta(weeks=1, days=named)
    after_today = now.date() + timedelta(days=(named - said_on) % 7 or 7)
    this_week = monday + timedelta(days=named) if named >= said_on else after_today
    for phrase, day in ((f"next {name}", following), (f"this {name}", this_week), (f"by {name}", after_today),
                        (f"next {name[:3]}", following), (f"on {name[:3]}", after_today)):  # fmt: skip
        assert deadline_from(phrase, now) == eod(day.year, day.month, day.day), (phrase, now)


def test_the_issue_example() -> None:
    thursday = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)
    assert deadline_from("The report is due next Friday", thursday) == eod(2026, 12, 11)
    assert deadline_from("next Monday", thursday) == eod(2026, 12, 7)
    assert deadline_from("this Friday", thursday) == eod(2026, 12, 4)
    assert deadline_from("this Tuesday", thursday) == eod(2026, 12, 8)
    assert deadline_from("by Thursday", thursday) == eod(2026, 12, 10)


def test_end_of_week_on_a_weekend_is_sunday() -> None:
    assert deadline_from("end of week", SATURDAY_NOW) == eod(2026, 3, 8)
    assert deadline_from("next week", SATURDAY_NOW) == eod(2026, 3, 13)


def test_month_rollover_and_leap_years() -> None:
    jan31 = datetime(2026, 1, 31, 8, 0, tzinfo=UTC)
    assert deadline_from("in a month", jan31) == eod(2026, 2, 28)
    assert deadline_from("end of next month", jan31) == eod(2026, 2, 28)
    dec = datetime(2026, 12, 20, 8, 0, tzinfo=UTC)
    assert deadline_from("next month", dec) == eod(2027, 1, 31)
    assert deadline_from("by March", dec) == eod(2027, 3, 31)
    assert deadline_from("on Jan 5", dec) == eod(2027, 1, 5)


def test_now_in_another_zone_or_naive_is_read_as_utc() -> None:
    plus_two = NOW.astimezone(timezone(timedelta(hours=2)))
    assert deadline_from("tomorrow", plus_two) == eod(2026, 3, 5)
    naive = NOW.replace(tzinfo=None)
    assert deadline_from("tomorrow", naive) == eod(2026, 3, 5)


def test_results_depend_on_now_only() -> None:
    later = datetime(2031, 6, 10, 12, 0, tzinfo=UTC)  # a Tuesday
    assert deadline_from("tomorrow", later) == eod(2031, 6, 11)
    assert deadline_from("by Friday", later) == eod(2031, 6, 13)
    assert deadline_from("on Jan 5", later) == eod(2032, 1, 5)
    for _ in range(3):
        assert deadline_from("ships on March 20", NOW) == eod(2026, 3, 20)


def test_find_date_reports_the_phrase() -> None:
    found = find_date("We ship the beta by Friday, promise", NOW)
    assert found is not None
    assert found.phrase == "Friday"
    assert not found.exact
    assert found.when == eod(2026, 3, 6)
    exact = find_date("in 2 hours", NOW)
    assert exact is not None and exact.exact


TEMPORARY = [
    ("today only", eod(2026, 3, 4)),
    ("Use the staging DB for today", eod(2026, 3, 4)),
    ("just today I'm on mobile", eod(2026, 3, 4)),
    ("this week", eod(2026, 3, 8)),  # a note for "this week" lasts until Sunday night
    ("for the rest of the week", eod(2026, 3, 8)),
    ("this month", eod(2026, 3, 31)),
    ("for now", NOW + timedelta(days=FOR_NOW_DAYS)),
    ("temporarily", NOW + timedelta(days=FOR_NOW_DAYS)),
    ("for the time being", NOW + timedelta(days=FOR_NOW_DAYS)),
    ("until Monday", eod(2026, 3, 9)),
    ("till tomorrow", eod(2026, 3, 5)),
    ("until 5pm", datetime(2026, 3, 4, 17, 0, tzinfo=UTC)),
    ("until March 20", eod(2026, 3, 20)),
    ("for now, until Friday", eod(2026, 3, 6)),  # the explicit day wins over the default
    ("for the next 2 hours", NOW + timedelta(hours=2)),
    ("for an hour", NOW + timedelta(hours=1)),
    ("for 3 days", NOW + timedelta(days=3)),
    ("for a week", NOW + timedelta(days=7)),
    ("staying at my sister's for about ten days", NOW + timedelta(days=10)),
    ("for this session", NOW + timedelta(hours=SESSION_HOURS)),
    ("tomorrow only", eod(2026, 3, 5)),
    ("I'm in Berlin on Friday", eod(2026, 3, 6)),  # any named day, when nothing else says
    ("until further notice", NOW + timedelta(days=FOR_NOW_DAYS)),
]


@pytest.mark.parametrize(("text", "expected"), TEMPORARY)
def test_temporary_expiry(text: str, expected: datetime) -> None:
    got = temporary_expiry(text, NOW)
    assert got == expected
    assert got is not None and got.tzinfo is not None and got.utcoffset() == timedelta(0)


def test_a_stated_end_only() -> None:
    """any_date=False: an end said as one, or a day within two; not any day the text names."""
    assert temporary_expiry("I'm in Berlin until Friday", NOW, any_date=False) == eod(2026, 3, 6)
    assert temporary_expiry("off sick tomorrow", NOW, any_date=False) == eod(2026, 3, 5)
    assert temporary_expiry("book club meets the second Sunday", NOW, any_date=False) is None
    assert temporary_expiry("the migration finished on Monday", NOW, any_date=False) is None


def test_a_day_of_the_month_said_alone() -> None:
    """ "The 30th" after a cue is that day of this month (or the next, once it has passed); it is
    more precise than a weekday or a period beside it; a floor or a rank is no date."""
    assert find_date("moving day is the 30th, we're going to Birch Road", NOW).when == eod(2026, 3, 30)
    assert find_date("dentist moved to the 2nd", NOW).when == eod(2026, 4, 2)
    assert find_date("tax return filed by the 15th, can't slip this year", NOW).when == eod(2026, 3, 15)
    assert find_date("the school play is Thursday the 19th at 6pm", NOW).when == datetime(
        2026, 3, 19, 18, 0, tzinfo=UTC
    )
    # the clause may go on after the day ("until the 20th while the kitchen is redone")
    assert find_date("in Galway until the 20th while the kitchen is redone", NOW).when == eod(2026, 3, 20)
    assert find_date("we're in Lisbon until the 12th — then Porto", NOW).when == eod(2026, 3, 12)
    assert find_date("on crutches until the 28th (sprained ankle)", NOW).when == eod(2026, 3, 28)
    # (twenty-sixth session) or say it is so this time, or again
    assert find_date("the council tax is due on the 22nd this time", NOW).when == eod(2026, 3, 22)
    assert find_date("bins go out on the 9th again", NOW).when == eod(2026, 3, 9)
    assert find_date("it was my 3rd time there", NOW) is None
    assert find_date("our office is on the 3rd floor", NOW) is None
    assert find_date("she is the 2nd in line", NOW) is None
    # (twenty-ninth session) a weekday said with the day picks the month where they agree
    assert find_date("the reunion is Saturday the 23rd, 40 of us", NOW).when == eod(2026, 5, 23)
    # a condition may follow the day
    form = "the form must go in by the 20th if we want it back in time"
    assert find_date(form, NOW).when == eod(2026, 3, 20)
    assert find_date("the deposit is due on the 18th though they might wait", NOW).when == eod(2026, 3, 18)


@pytest.mark.parametrize(
    "text",
    [
        "the cleaner is 120 a month and wants it by the 3rd",
        "gym fees go out on the 12th every month",
        "I pay the allotment society monthly, always by the 25th",
    ],
)
def test_a_day_of_the_month_beside_a_monthly_amount_is_every_month(text: str) -> None:
    """A day said beside a monthly amount or habit falls every month: no due date (read as one,
    the payment expired with its first day and left every context after it)."""
    assert find_date(text, NOW) is None


def test_a_month_said_as_a_distance_is_no_monthly_day() -> None:
    text = "the tax return is due the 28th, so about a month away"
    assert find_date(text, NOW).when == eod(2026, 3, 28)


@pytest.mark.parametrize(
    "text",
    [
        "the club has moved the group run to Thursday mornings, starting this month",
        "Starting today, the gym opens at 6.",
        "As of tomorrow I work from the Leeds office.",
        "from this week on the bins go out on Tuesdays",
        "the gym fee went up to €42.50 this month, annoying",
        "I switched to decaf this week",
        "our rent rose to £1,310 this month",
    ],
)
def test_when_a_change_starts_is_no_end(text: str) -> None:
    """ "Starting this month" says when a change begins, and "went up to ... this month" when it
    happened: the new state does not end with the month."""
    assert temporary_expiry(text, NOW, any_date=False) is None


def test_how_long_a_later_event_lasts_is_no_end_from_now() -> None:
    text = "We're hiring a narrowboat on the canal for a week in August."
    assert temporary_expiry(text, NOW) == eod(2026, 8, 31)  # (the month it names, not a week from now)
    assert temporary_expiry("I'm in Lisbon for a week.", NOW) == NOW + timedelta(days=7)


def test_how_long_a_state_has_held_is_no_end() -> None:
    """A perfect tense before the duration tells how long it has held so far: read as an end,
    "I've been vegetarian for 5 years" expired in five years."""
    for text in (
        "I've been vegetarian for 5 years",
        "the dog has been limping for two days",
        "My wrist's been aching for 3 weeks",
        "We have had the allotment for six years now",
    ):
        assert temporary_expiry(text, NOW, any_date=False) is None, text
    assert temporary_expiry("I'm off dairy for 3 weeks", NOW) == NOW + timedelta(days=21)
    assert temporary_expiry("I've been told to rest for 2 weeks", NOW) == NOW + timedelta(days=14)


def test_a_guessed_end_is_left_out_when_asked() -> None:
    assert temporary_expiry("no running on tarmac for now", NOW) == NOW + timedelta(days=FOR_NOW_DAYS)
    assert temporary_expiry("no running on tarmac for now", NOW, guess=False) is None


def test_a_stated_end_beside_a_start_still_counts() -> None:
    assert temporary_expiry(
        "Starting today I'm in Berlin for the rest of the week", NOW, any_date=False
    ) == eod(2026, 3, 8)


def test_a_state_for_this_month_still_ends_with_it() -> None:
    assert temporary_expiry("I'm off sugar this month", NOW, any_date=False) == eod(2026, 3, 31)
    assert temporary_expiry("staying at my sister's up to the 20th", NOW, any_date=False) == eod(2026, 3, 20)


@pytest.mark.parametrize("text", ["", "I prefer tabs", "we use Postgres", "🙂", "for sure", "for real"])
def test_temporary_expiry_none(text: str) -> None:
    assert temporary_expiry(text, NOW) is None


def test_odd_input_never_raises() -> None:
    for text in ["x" * 5000, "by " * 2000, "2026-13-45", "31/02/2027", "\x00\x01", "Friday" * 500, None, 42]:
        deadline_from(text, NOW)  # type: ignore[arg-type]
        temporary_expiry(text, NOW)  # type: ignore[arg-type]
    assert deadline_from("2026-13-45", NOW) is None
    assert deadline_from("31/02/2027", NOW) is None


def test_fast_after_warm_up() -> None:
    texts = [text for text, _ in DEADLINES]
    for text in texts:
        deadline_from(text, NOW)
    start = time.perf_counter()
    for _ in range(5):
        for text in texts:
            deadline_from(text, NOW)
    per_call_ms = (time.perf_counter() - start) * 1000 / (5 * len(texts))
    assert per_call_ms < 5.0


def test_dateparser_is_imported_lazily() -> None:
    code = (
        "import sys, datetime as d; import memopilot.write.dates as m; "
        "assert 'dateparser' not in sys.modules, 'imported eagerly'; "
        "now = d.datetime(2026, 3, 4, tzinfo=d.UTC); m.deadline_from('by Friday', now); "
        "assert 'dateparser' not in sys.modules, 'weekdays need no dateparser'; "
        "m.deadline_from('on March 20', now); assert 'dateparser' in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_deadlines_context_line_shows_its_due_date(tmp_path) -> None:
    from memopilot import FixedClock, MemoPilot

    thursday = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)
    with MemoPilot.open(f"sqlite:///{tmp_path / 'd.db'}", clock=FixedClock(thursday), llm=None) as mp:
        mp.remember("The quarterly report is due next Friday.")
        text = mp.build_context("When is the quarterly report due?").text
    assert "[deadline, due 2026-12-11]" in text, text


def test_a_cjk_statement_names_a_date_in_its_own_language() -> None:
    """The rules read English dates; a Chinese, Japanese or Korean statement's date is found by
    dateparser in that language (the statement's shape: a learned deadline needs a date)."""
    from memopilot.write.dates import names_cjk_date

    now = datetime(2026, 12, 3, 12, tzinfo=UTC)
    for dated in (
        "提醒我明天给房东打电话。",
        "下周五之前要交报告。",
        "明日までにレポートを出す。",
        "내일 보고서를 내야 해요.",
    ):
        assert names_cjk_date(dated, now), dated
    for undated in ("我妈妈住在成都。", "我家有一只柯基。", "東京で寿司を食べました。"):
        assert not names_cjk_date(undated, now), undated


def test_a_span_of_dates_ends_on_its_second_date() -> None:
    now = datetime(2026, 3, 1, 12, tzinfo=UTC)
    assert range_end("offline from the 3rd to the 10th, camping", now).date() == date(2026, 3, 10)
    assert range_end("flights for Dec 20 - Jan 4", now).date() == date(2027, 1, 4)
    assert temporary_expiry("in Lyon from Monday to Friday", now).date() == date(2026, 3, 6)
    assert range_end("I work 9 to 5", now) is None
    assert range_end("the score was 3 - 2", now) is None


def test_days_of_every_week_are_no_span_that_ends() -> None:
    """ "a day-clinic job, 8 to 4, Monday to Friday" is the job's week, not a state until Friday."""
    now = datetime(2026, 3, 2, 12, tzinfo=UTC)
    job = "I took a day-clinic job at the Westerly Foot Clinic, 8 to 4, Monday to Friday."
    assert range_end(job, now) is None
    assert temporary_expiry(job, now, any_date=False) is None
    assert range_end("I'm in Berlin Monday to Wednesday", now).date() == date(2026, 3, 4)


def test_a_stay_of_a_stated_length_ends_after_it() -> None:
    now = datetime(2026, 3, 2, 12, tzinfo=UTC)
    assert temporary_expiry("I'm staying at my aunt's in Corrie for four nights", now) == now + timedelta(
        days=4
    )
    assert temporary_expiry("I'm in Sorvik for a two-week work trip", now) == now + timedelta(weeks=2)
    assert temporary_expiry("we're at my mum's for a 3-day visit", now) == now + timedelta(days=3)
    assert temporary_expiry("I'm in Lisbon for a two-week holiday in May", now, any_date=False) is None


def test_a_day_of_the_month_after_its_now() -> None:
    """ "Launch slipped again, it's now the 17th": the day of this month (or the next) it names."""
    found = find_date("Launch slipped again, it's now the 17th.", NOW)
    assert found is not None and found.when.date() == date(2026, 3, 17)
    assert find_date("It's the 3rd time this happened.", NOW) is None


def test_a_day_of_the_month_said_with_its_month_or_as_a_start() -> None:
    """ "the 1st of next month", "moved to the 18th this month", "starting the 10th", "on the 5th
    instead": one day each (said on Wednesday 4 March 2026)."""
    for text, day in (
        ("Rent goes up from the 1st of next month.", date(2026, 4, 1)),
        ("Choir got moved to the 18th this month.", date(2026, 3, 18)),
        ("Bins go fortnightly, starting the 10th.", date(2026, 3, 10)),
        ("We now fly on the 5th instead.", date(2026, 3, 5)),
        ("The exam is in exactly 6 weeks.", date(2026, 4, 15)),
    ):
        found = find_date(text, NOW)
        assert found is not None and found.when.date() == day, text


def test_the_day_after_tomorrow_needs_no_article() -> None:
    now = datetime(2026, 5, 20, 12, tzinfo=UTC)  # a Wednesday
    found = find_date("day after tomorrow I take the van in for its service", now)
    assert found is not None and found.when.date() == date(2026, 5, 22)
