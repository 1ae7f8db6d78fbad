"""Keys written in pieces: a token cut by spaces, dashes or a line break so that a scanner misses
it ("sk_l ive_ 511C HMPf ...", "NRAK--937RH-0NSC0-...", "pplx -rBw WOMO 7EKe ...", a key a chat
app wrapped onto an indented line). People do this on purpose, in any language ("remove the
spaces", "mit Leerzeichen", "去掉空格"); rather than read those words, the pieces are joined and
the result is judged as one token.

* Groups of one length (three or more of 3-8 characters, as a key is cut every four or five
  characters), perhaps after a prefix and before a shorter last group, that join into 20 or more
  random letters and digits. Letters of both cases: a generated key, whatever its vendor. One case
  (hex, or capitals and digits): ids and hashes are grouped so too, so the message must speak of
  a key, a token or a secret (in any of the languages statements.py knows), and not of a hash or
  a fingerprint just before.
* A vendor's token of a fixed format (an AWS key id, "ghp_", "sk-proj-") once its spaces are
  taken out, however it was cut (after its prefix it needs no digit: "hf_" and letters alone).
* Groups of any lengths, none a word, that join into a key of both cases and digits, where the
  message speaks of a key or a token.
* Hex cut anywhere (dashes at random, a line wrapped) that joins into a key's length, 32, 40 or
  64 digits, where a key is named just before on its line (or on the line before).
* Short lines of one token each right under a label ("PagerDuty:"), that join into a key.

Digits alone (a card, an account, an IBAN's groups) are left to the detectors that check them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from . import prefilter
from .keywords import Substrings
from .rules import P_STRUCT, TOKEN_PREFIXES, UUID, Span, count_digits, fixed_format, looks_random
from .statements import PUBLIC_HASH_BEFORE, key_talk

__all__ = ["detect"]

# What lies between two pieces: one or two spaces, one or two dashes (with a space on either
# side), or a line break and the next line's indentation.
_GAP = r"(?:[ \t]{0,2}-{1,2}[ \t]{0,2}|[ \t]{1,2}|[ \t]*\r?\n[ \t]*)"
_CHARS = r"[A-Za-z0-9_.$+/=]"
# Where the detector runs at all: two neighbouring groups with a digit on each side of the gap and
# letters on one side at least ("h81Iy 0yn9P", "937RH-0NSC0", "I3 UU6L"; not "10 20"). A pattern
# that starts with a character class is skipped through in C.
_NEAR_GAP = r"(?:[ \t-]{1,3}|[ \t]*\n[ \t]*)"
_TRIGGER = re.compile(rf"\d[A-Za-z]{{1,8}}{_NEAR_GAP}[A-Za-z]{{0,8}}\d|\d{_NEAR_GAP}[A-Za-z]{{1,8}}\d")
# Or a vendor's prefix, and a gap within a few characters: a token of letters alone ("hf_" and 34
# letters of both cases) cut into pieces has no digit to trigger on. Looked for where one of the
# prefixes occurs (the message's shared pass of the keyword automata).
_PREFIX_HINTS = Substrings(prefix.lower() for prefix in TOKEN_PREFIXES)
_PREFIXES = frozenset(TOKEN_PREFIXES)
_AFTER_PREFIX = re.compile(rf"[A-Za-z0-9_]{{0,12}}{_NEAR_GAP}[A-Za-z0-9]")
_RUN = re.compile(rf"(?<![\w.$+/=-]){_CHARS}+(?:{_GAP}{_CHARS}+)+", re.ASCII)
# The groups of a run: cut at its spaces, or at its dashes when it has no space.
_SPACED_GROUP = re.compile(r"\S+")
_DASHED_GROUP = re.compile(r"[^-]+")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_HEX_GROUP = re.compile(r"[0-9a-f]+|[0-9A-F]+")

_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}")
_LEAST = 20  # letters and digits once joined: a short code is the other detectors' to judge
_GROUP_LENGTHS = range(3, 9)
_LEAST_LETTERS = 4
_LEAST_GROUPS = 3
_LEAST_UNEVEN_GROUPS = 4  # groups of different lengths: one more, as a sentence's tokens may differ so
_SHORTEST_FIXED = 20  # (an AWS key id; every other fixed format is longer)
_MOST_GROUPS = 24  # groups joined at most into one fixed-format token
_HEX_KEY_LENGTHS = frozenset((32, 40, 64))
_CUE_WINDOW = 80  # characters before a value, on its line, read for its name


def detect(text: str, lower: str) -> Iterator[Span]:
    # (the digits' trigger needs two; most chat holds none, and its scan costs a tenth of a message's)
    digits = count_digits(text) >= 2
    prefixed = _PREFIX_HINTS.search(lower)
    if digits or prefixed:
        yield from _runs(text, lower, digits=digits, prefixed=prefixed)
    if "\n" in text and (":\n" in text or ":\r\n" in text):  # ("\n" alone is found in C at once)
        yield from _lines_under_label(text)


def _runs(text: str, lower: str, *, digits: bool, prefixed: bool) -> Iterator[Span]:
    """Each run of groups around a trigger, judged once (for its first trigger)."""
    hits = list(_TRIGGER.finditer(text)) if digits and prefilter.may(prefilter.PIECES_TRIGGER, text) else []
    if prefixed:
        hits.extend(_prefix_triggers(text, lower))
        hits.sort(key=lambda hit: hit.start())
    done = 0  # where the last run read ended
    for hit in hits:
        if hit.start() < done:
            continue
        run = _run_around(text, hit.start())
        if run is None:
            continue
        done = run.end()
        yield from _judge_run(text, lower, run)


def _prefix_triggers(text: str, lower: str) -> Iterator[re.Match[str]]:
    """Where a vendor's prefix (in its own case) has a gap within a few characters after it."""
    for start, end in _PREFIX_HINTS.spans(lower):
        if text[start:end] in _PREFIXES:
            hit = _AFTER_PREFIX.match(text, end)
            if hit is not None:
                yield hit


# The reach of a run around its trigger: a key cut into pieces is 200 characters at most, and a
# sentence's words around it are not read further (a run of prose can be the whole message).
_BEFORE, _AFTER = 160, 320


def _run_around(text: str, at: int) -> re.Match[str] | None:
    """The run of groups that holds position ``at``, read within reach of it."""
    for run in _RUN.finditer(text, max(0, at - _BEFORE), at + _AFTER):
        if run.start() <= at < run.end():
            return run
        if run.start() > at:
            break
    return None


def _judge_run(text: str, lower: str, run: re.Match[str]) -> Iterator[Span]:
    value = run.group()
    group = _SPACED_GROUP if any(c.isspace() for c in value) else _DASHED_GROUP
    groups = [(run.start() + m.start(), run.start() + m.end()) for m in group.finditer(value)]
    if len(groups) < 2 or (group is _DASHED_GROUP and UUID.search(value)):
        return  # (a UUID's groups are an id's: statements.py judges it by its name)
    # (both may hold: the groups go on after a fixed format's shortest length; the merge of the
    # spans takes them all, named by the longer)
    fixed = _fixed_format_key(text, groups)
    if fixed is not None:
        yield fixed[0], fixed[1], fixed[2], P_STRUCT
    span = _grouped_key(text, lower, groups) or _cut_hex_key(text, lower, groups)
    if span is None and group is _SPACED_GROUP:
        span = _unevenly_spaced_key(text, lower, groups)
    if span is not None:
        yield span[0], span[1], "api_key", P_STRUCT


def _grouped_key(text: str, lower: str, groups: list[tuple[int, int]]) -> tuple[int, int] | None:
    for first, last in _equal_runs(groups):
        if sum(c.isalpha() for c in text[groups[first][0] : groups[last - 1][1]]) < _LEAST_LETTERS:
            continue  # digits in groups: a card, an account, an order number
        while first < last and _word(text, groups[first]):
            first += 1  # a word of the sentence before the key ("token abcde 4Fx9k ...")
        while last > first and _word(text, groups[last - 1]):
            last -= 1  # or after it ("... 4Fx9k Time based")
        if first == last:
            continue
        if first and _prefix(text, groups[first - 1]):
            first -= 1  # the key's prefix ("NRAK-", "pul-1af5")
        if last < len(groups) and _rest(text, groups[last], groups[last - 1]):
            last += 1
        start, end = groups[first][0], groups[last - 1][1]
        joined = _NOT_ALNUM.sub("", text[start:end])
        if not _random(joined, least_digits=2) or _iban_shaped(text, groups[first:last]):
            continue  # (an IBAN's groups are identifiers.py's to check)
        if _both_cases(joined):
            return start, end
        # (_random(joined, least_digits=4): random with two digits, as above, and four of them)
        if _digits_at_least(joined, 4) and key_talk(lower) and not _hash_named(lower, start):
            return start, end
    return None


def _unevenly_spaced_key(text: str, lower: str, groups: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Groups of any lengths, none a word, that join into a generated key (letters of both cases
    and digits): spaces put in at random so that a filter misses the key ("Zk8w Qm3 Rt7vNp ..."),
    in a message that speaks of a key or a token (ids and hashes are not written so)."""
    if len(groups) < _LEAST_UNEVEN_GROUPS or not _PIECES_IN_A_ROW.search(text, groups[0][0], groups[-1][1]):
        return None  # (most runs of prose: skipped before their groups are read one by one)
    first = 0
    for i in range(len(groups) + 1):
        if (
            i < len(groups)
            and _key_piece(text, groups[i])
            and (i == first or _one_line(text, groups[i - 1 : i + 1]))
        ):
            continue
        if i - first >= _LEAST_UNEVEN_GROUPS:
            start, end = groups[first][0], groups[i - 1][1]
            joined = _NOT_ALNUM.sub("", text[start:end])
            if (
                _both_cases(joined)
                and _random(joined, least_digits=2)
                and key_talk(lower)
                and not _hash_named(lower, start)
            ):
                return start, end
        first = i + 1
    return None


# Four groups in a row of letters and digits with a capital or a digit in each: what a run must hold
# for _unevenly_spaced_key to find a key in it (words of prose are small letters).
_PIECES_IN_A_ROW = re.compile(
    r"(?<![A-Za-z0-9])(?:(?=[a-z]*[A-Z0-9])[A-Za-z0-9]{2,}[ \t]{1,2}){3}(?=[a-z]*[A-Z0-9])[A-Za-z0-9]{2,}"
    r"(?![A-Za-z0-9])"
)


def _key_piece(text: str, group: tuple[int, int]) -> bool:
    """Letters and digits alone (a log's fields hold "=", ".", "-"), two at least, not a word."""
    piece = text[group[0] : group[1]]
    return len(piece) >= 2 and piece.isascii() and piece.isalnum() and not _word(text, group)


def _one_line(text: str, pair: list[tuple[int, int]]) -> bool:
    """Whether two neighbouring groups are on one line."""
    return "\n" not in text[pair[0][1] : pair[1][0]]


def _iban_shaped(text: str, groups: list[tuple[int, int]]) -> bool:
    """Whether the groups, or all but the first (its label, "IBAN"), are an IBAN's."""
    return any(
        _IBAN_SHAPE.fullmatch(_NOT_ALNUM.sub("", text[groups[skip][0] : groups[-1][1]]).upper())
        for skip in range(min(2, len(groups)))
    )


def _prefix(text: str, group: tuple[int, int]) -> bool:
    return group[1] - group[0] >= 3 and not _word(text, group)


def _rest(text: str, group: tuple[int, int], before: tuple[int, int]) -> bool:
    """The key's last group: shorter than the others, and not a word of the sentence after it."""
    return group[1] - group[0] < before[1] - before[0] and not _word(text, group)


def _equal_runs(groups: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """(first, last + 1) of each run of three or more groups of one length in 3-8."""
    first = 0
    for i in range(1, len(groups) + 1):
        length = groups[first][1] - groups[first][0]
        if i < len(groups) and groups[i][1] - groups[i][0] == length:
            continue
        if i - first >= _LEAST_GROUPS and length in _GROUP_LENGTHS:
            yield first, i
        first = i


def _fixed_format_key(text: str, groups: list[tuple[int, int]]) -> tuple[int, int, str] | None:
    """Groups that spell a vendor's token of a fixed format (rules.py's) once the spaces between
    them are taken out ("AKIAYBGO 5B2XVHI3 UU6L"): read from the first group of each chain of
    groups that are not words, the token ending where a group ends."""
    first = 0
    while first < len(groups) - 1:
        if _word(text, groups[first]):
            first += 1
            continue
        last = first + 1  # (the chain's end)
        while last < len(groups) and last - first < _MOST_GROUPS and not _word(text, groups[last]):
            last += 1
        found = _fixed_format_in(text, groups[first:last])
        if found is not None:
            return found
        first = last
    return None


def _fixed_format_in(text: str, chain: list[tuple[int, int]]) -> tuple[int, int, str] | None:
    if len(chain) < 2 or chain[-1][1] - chain[0][0] < _SHORTEST_FIXED:
        return None
    joined = "".join(text[s:e] for s, e in chain)
    found = fixed_format(joined)
    if found is None:
        return None
    kind, length = found
    ends = list(itertools.accumulate(e - s for s, e in chain))
    if ends[0] >= _SHORTEST_FIXED and fixed_format(joined[: ends[0]]) is not None:
        return None  # a whole token already (rules.py finds it): what follows is not its rest
    if length in ends[1:]:  # more than the first group, and up to a group's end
        return chain[0][0], chain[ends.index(length)][1], kind
    return None


def _cut_hex_key(text: str, lower: str, groups: list[tuple[int, int]]) -> tuple[int, int] | None:
    first = 0
    for i in range(len(groups) + 1):
        if i < len(groups) and _HEX_GROUP.fullmatch(text, *groups[i]):
            continue
        if i - first >= 2:
            start, end = groups[first][0], groups[i - 1][1]
            joined = _NOT_ALNUM.sub("", text[start:end])
            if (
                len(joined) in _HEX_KEY_LENGTHS
                and _HEX_GROUP.fullmatch(joined)
                and not UUID.fullmatch(text, start, end)
                and _key_named(text, lower, start)
            ):
                return start, end
        first = i + 1
    return None


# A value wrapped onto short lines of its own right under its label ("PagerDuty:\nu+gRJwAeKG\n
# 1gBIpHNypn"): lines of one token each, too short alone to be judged a key (a longer first line is
# found alone and its continuation taken with it, see _wrapped_end in __init__.py).
_LINES_UNDER_LABEL = re.compile(r":[ \t]*\r?\n((?:[ \t]*[A-Za-z0-9+/=_.-]{6,19}[ \t]*(?:\r?\n|$)){2,6})")
_LEAST_WRAPPED = 16
_CLASSES = str.maketrans(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "9" * 10 + "A" * 26 + "a" * 26
)


def _lines_under_label(text: str) -> Iterator[Span]:
    for m in _LINES_UNDER_LABEL.finditer(text) if prefilter.may(prefilter.LINES_UNDER_LABEL, text) else ():
        value = m.group(1).rstrip()
        lines = value.split()
        joined = "".join(lines)
        if len({line.translate(_CLASSES) for line in lines}) == 1:
            continue  # items of one format, a list of ids ("AB12cd34EF", "GH56ij78KL"), not one key's lines
        if _both_cases(joined) and any(c.isdigit() for c in joined) and looks_random(joined, _LEAST_WRAPPED):
            start = m.start(1) + len(value) - len(value.lstrip())
            yield start, m.start(1) + len(value), "secret", P_STRUCT


def _word(text: str, group: tuple[int, int]) -> bool:
    piece = text[group[0] : group[1]]
    return piece.isalpha() and (piece.islower() or piece.istitle())


def _both_cases(value: str) -> bool:
    return any(c.islower() for c in value) and any(c.isupper() for c in value)


def _random(value: str, least_digits: int) -> bool:
    letters = sum(c.isalpha() for c in value)
    return (
        len(value) >= _LEAST
        and letters >= _LEAST_LETTERS
        and len(value) - letters >= least_digits
        and looks_random(value, _LEAST)
    )


def _digits_at_least(value: str, least: int) -> bool:
    """Whether ``value`` holds ``least`` characters other than letters (``_random``'s count)."""
    return len(value) - sum(c.isalpha() for c in value) >= least


def _hash_named(lower: str, start: int) -> bool:
    return PUBLIC_HASH_BEFORE.search(lower, max(0, start - _CUE_WINDOW), start) is not None


def _key_named(text: str, lower: str, start: int) -> bool:
    """A key's name just before ``start`` on its line, or on the line before when the value
    stands alone on its own ("token:\\n    3c22..."); not a hash's or a fingerprint's."""
    line_start = text.rfind("\n", 0, start) + 1
    before = lower[max(line_start, start - _CUE_WINDOW) : start]
    if line_start and not before.strip():
        before = lower[max(text.rfind("\n", 0, line_start - 1) + 1, start - _CUE_WINDOW) : start]
    return key_talk(before) and PUBLIC_HASH_BEFORE.search(before) is None
