"""Chinese, Japanese and Korean date words in English, so that the English date rules read them.

A statement in these languages named no day to the rules of :mod:`.dates`: "我下周五要考驾照"
(my driving test is next Friday) was kept without the day it meant, and read a week later "next
Friday" named another. dateparser, which reads the other languages' date words
(:mod:`.date_words`), reads "明天" but not a weekday of next week ("下周五" came back as next
Monday, "来週の水曜日" as nothing). The words are a closed set: the seven weekdays, the week they
fall in, the days around today and "in <n> days/weeks", so this module rewrites them itself:
"下周五" -> " next friday ", "来週の水曜日までに" -> " by next wednesday ", "3天后" -> " in 3 days ".
Every other character stays as it was written.
"""

from __future__ import annotations

import re

__all__ = ["cjk_english_dates"]

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# The weekday's character in each script: 一...日 after 周/星期 (Chinese), 月...日 before 曜日
# (Japanese), 월...일 before 요일 (Korean).
_CHINESE_DAY = dict(zip("一二三四五六", _WEEKDAYS, strict=False)) | {"日": "sunday", "天": "sunday"}
_JAPANESE_DAY = dict(zip("月火水木金土日", _WEEKDAYS, strict=True))
_KOREAN_DAY = dict(zip("월화수목금토일", _WEEKDAYS, strict=True))

_WEEK_ZH = r"(?:个|個)?(?:星期|礼拜|禮拜|周|週)"
_NEXT = r"(?P<next>下|来週の?|다음\s*주\s*)"
_THIS = r"(?P<this>这|這|本|今週の?|이번\s*주\s*)"
# "每周二", "毎週火曜日", "매주 화요일": every Tuesday, a routine
_EVERY = r"(?P<every>(?:每|毎)(?:个|個)?(?:星期|礼拜|禮拜|周|週)?|매\s*주?\s*)"
_WEEKDAY = re.compile(
    rf"(?:{_NEXT}|{_THIS}|{_EVERY})?"
    rf"(?:(?<=[下这這本]){_WEEK_ZH}|(?:星期|礼拜|禮拜|周|週)(?=[一二三四五六日天]))?"
    r"(?:(?P<zh>[一二三四五六日天])(?<=[期拜周週].)|(?P<ja>[月火水木金土日])曜日?|(?P<ko>[월화수목금토일])요일)"
    r"(?P<by>までに|まで|之前|以前|前|까지)?"
)
_NAMED_DAY = re.compile(
    r"(?P<day>明天|明日|내일|后天|後天|明後日|모레|今天|今日|오늘)(?P<by>までに|まで|之前|以前|까지)?"
)
_NAMED_ENGLISH = {
    "明天": "tomorrow", "明日": "tomorrow", "내일": "tomorrow", "后天": "the day after tomorrow",
    "後天": "the day after tomorrow", "明後日": "the day after tomorrow", "모레": "the day after tomorrow",
    "今天": "today", "今日": "today", "오늘": "today",
}  # fmt: skip
_COUNTED = re.compile(r"(?P<n>\d{1,3})\s*(?P<unit>天|日|일|周|週間|주)\s*(?:后|後|以后|以後|후)")
_UNIT = {"天": "days", "日": "days", "일": "days", "周": "weeks", "週間": "weeks", "주": "weeks"}


def cjk_english_dates(text: str) -> str:
    """``text`` with its weekday, named-day and "in <n> days" words in English (see the module)."""
    text = _WEEKDAY.sub(_weekday, text)
    text = _NAMED_DAY.sub(lambda m: _phrase(_NAMED_ENGLISH[m["day"]], m["by"]), text)
    return _COUNTED.sub(lambda m: f" in {m['n']} {_UNIT[m['unit']]} ", text)


def _weekday(m: re.Match[str]) -> str:
    name = _CHINESE_DAY.get(m["zh"] or "") or _JAPANESE_DAY.get(m["ja"] or "") or _KOREAN_DAY[m["ko"]]
    week = "next " if m["next"] else "this " if m["this"] else "every " if m["every"] else ""
    return _phrase(week + name, m["by"])


def _phrase(english: str, by: str | None) -> str:
    """The English phrase, spaced from the characters around it; "by" before it when the date
    was said as a limit ("までに", "之前", "까지")."""
    return f" by {english} " if by else f" {english} "
