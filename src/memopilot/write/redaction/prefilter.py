"""One pass in C over a message for the detectors' cheap gates: RE2's multi-pattern set
(``google-re2``) says which of the conditions below can hold, and a detector skips a step whose
condition cannot. Each step still runs its own (Python ``re``) pattern where the condition may
hold, so the output is the same; only the scans that would find nothing are saved.

Every condition is NECESSARY for its step, written from the step's own pattern: that pattern, or a
wider one (look-arounds and ``\\b`` dropped, a possessive repeat made greedy, Python's Unicode
``\\d``/``\\s`` classes widened to every non-ASCII character, which RE2's ASCII classes would not
hold). A condition wider than its pattern only costs a scan; a narrower one would lose secrets.

Without ``re2`` (not installed, or a platform without a wheel) every condition "may hold" and the
detectors run as they would without this module.
"""

from __future__ import annotations

__all__ = ["ARROW_GAP", "IBAN_START", "NUMBER_WINDOW", "PIECES_TRIGGER", "may"]

_NON_ASCII = r"\x{80}-\x{10FFFF}"
_DIGIT = rf"[0-9{_NON_ASCII}]"  # wider than Python's \d (a Unicode decimal digit)
_NOT_DIGIT = r"[^0-9]"  # wider than Python's \D: ASCII digits are digits in both
_SPACE = r"\t\n\x0b\x0c\r\x1c-\x1f "  # Python's ASCII \s; its other spaces are non-ASCII
_NOT_SPACE = rf"[^{_SPACE}]"  # wider than Python's \S (every non-ASCII character)
# The characters Python's IGNORECASE matches for an ASCII letter beyond its two cases (every other
# letter: its two cases alone; found by trying every code point)
_FOLDS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
# learned.py's CJK characters (explicit ranges: the same in RE2)
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef\u3000-\u303f"


def _ignoring_case(words: str) -> str:
    """``words`` (ASCII) as Python's IGNORECASE finds them, each letter a class of its cases."""
    return "".join(f"[{c}{c.upper()}{_FOLDS.get(c, '')}]" if c.isalpha() else c for c in words)


# name -> (RE2 pattern over the message's text, the step and pattern it is necessary for)
_CONDITIONS: dict[str, str] = {
    # statements._app_passwords: _APP_PASSWORD_GROUPS itself (ASCII classes: the same in RE2)
    "app_password_groups": r" [a-z]{4} [a-z]{4} [a-z]{4}",
    # statements._obfuscated, spaced out: _ONE_CHAR_TOKENS (four one-character tokens; what
    # _TWO_ONE_CHAR_TOKENS looks for first is inside it) without its look-arounds, \S widened
    "one_char_tokens": rf"{_NOT_SPACE}[ -]{_NOT_SPACE}[ -]{_NOT_SPACE}[ -]{_NOT_SPACE}",
    # statements._obfuscated, dotted out: _DOTTED_CHARS ([^\s.] widened)
    "dotted_chars": rf"\.[^{_SPACE}.]\.[^{_SPACE}.]\.[^{_SPACE}.]\.",
    # statements._obfuscated, base32 groups: _BASE32_TAIL, searched in the lowercased text: a
    # character of ``text`` lowercases to [a-z2-7] only if it is an ASCII letter, a digit 2-7 or
    # non-ASCII (the Kelvin sign lowercases to "k")
    "base32_tail": rf"(?: [A-Za-z2-7{_NON_ASCII}]{{4}}){{3}}",
    # statements._dashed_keys: _PRODUCT_KEY_TAIL itself (ASCII)
    "product_key_tail": r"-[A-Z0-9]{4,6}-[A-Z0-9]{4,6}-[A-Z0-9]{4,6}-[A-Z0-9]{4,6}",
    # statements._dashed_keys: _HEX_CODE_TAIL without its look-ahead
    "hex_code_tail": r"-[0-9a-f]{5}",
    # statements._arrow_list: _ARROW_GAP itself
    "arrow_gap": r"[ \t](?:→|->|–|—|-)[ \t]",
    # statements._security_answers: _QUESTION_LABEL without its look-behind (\s widened)
    "question_label": rf"Q[{_SPACE}{_NON_ASCII}]?[:：.]",
    # identifiers: _IBAN_START without its look-arounds (\d widened)
    "iban_start": rf"[A-Z][A-Z]{_DIGIT}{{2}}",
    # identifiers._shaped: _NUMBER_WINDOW (six digits, each within six characters of the next),
    # greedy where it is possessive (a possessive match is a greedy one)
    "number_window": rf"{_DIGIT}(?:{_NOT_DIGIT}{{0,6}}{_DIGIT}){{5}}",
    # pieces._runs, by digits: _TRIGGER with \d widened
    "pieces_trigger": (
        rf"{_DIGIT}[A-Za-z]{{1,8}}(?:[ \t-]{{1,3}}|[ \t]*\n[ \t]*)[A-Za-z]{{0,8}}{_DIGIT}"
        rf"|{_DIGIT}(?:[ \t-]{{1,3}}|[ \t]*\n[ \t]*)[A-Za-z]{{1,8}}{_DIGIT}"
    ),
    # rules.card_numbers: _CARD without its look-ahead, each "\1" or "\2" any of its group's choices
    "card": (
        r"[0-9]{4}(?:(?:[ -]| {2})[0-9]{4}(?:[ -]| {2})[0-9]{4}(?:[ -]| {2})[0-9]{4}"
        r"|[ -][0-9]{6}[ -][0-9]{4}|[0-9]{9})"
    ),
    # rules._cards_digit_by_digit: _SPACED_DIGITS itself
    "spaced_digits": " [0-9]" * 12,
    # identifiers._card_halves: _EIGHT_DIGITS (re.ASCII) without its look-arounds
    "eight_digits": r"[0-9]{4}[ -]?[0-9]{4}",
    # identifiers._uk_bank_details: _SORT_CODE_MIDDLE (\d widened)
    "sort_code_middle": rf"-{_DIGIT}{_DIGIT}-",
    # identifiers._crypto_keys: _NOSTR_SECRET, _WIF and _PRIVATE_KEY_WORDS without look-arounds
    "nostr_secret": r"nsec1[02-9ac-hj-np-z]{58}",
    "wif": r"[5KL][1-9A-HJ-NP-Za-km-z]{50}",
    "private_key_words": "|".join(
        _ignoring_case(w) for w in ("private[ _-]?key", "priv[ _-]?key", "wallet key")
    ),
    # commands._identity_keys: _QUOTED_AFTER_LINK itself (its negated class is the same in RE2)
    "quoted_after_link": r"[=:][ \t]*[\"'`][^\"'`\n]{6,40}[\"'`]",
    # learned: a run of _CJK_RUN's characters (one is enough)
    "cjk": rf"[{_CJK}]",
    # statements._chat_answers: _SPEAKER itself, one space or tab after it ("^" is a line's start
    # in both; its classes are ASCII or negated)
    "speaker": (
        r"(?m)^(?:\[[^\]\n]{1,20}\][ \t]*)?"
        r"(?:<[^>\n]{1,24}>|[A-Za-z][A-Za-z.'-]{0,20}(?: [A-Z][A-Za-z.'-]{0,20})?:)[ \t]"
    ),
    # pieces._lines_under_label: _LINES_UNDER_LABEL's label and first two lines (the first ends in
    # a line break: a second follows it), the second's first six characters
    "lines_under_label": (r":[ \t]*\r?\n[ \t]*[A-Za-z0-9+/=_.-]{6,19}[ \t]*\r?\n[ \t]*[A-Za-z0-9+/=_.-]{6}"),
    # rules._passwords: _PW_FLAG, searched in the lowercased text: a dash right before "pass" (only
    # "P", "A", "S" lowercase to "p", "a", "s")
    "pw_flag": r"-[pP][aA][sS][sS]",
    # rules._key_ids: _KEY_ID_ASSIGNED's name's end (case-sensitive: the same in RE2)
    "key_id_assigned": r"_(?:KEY|key|SECRET|secret|TOKEN|token)_(?:ID|id)",
    # commands: _CRYPT_HASH's scheme between its first two "$"
    "crypt_hash": r"\$(?:apr1|1|5|6|2[abxy]?|y|argon2(?:id|i|d))\$",
}
# identifiers._shaped: each shape of identifiers._SHAPES (but the IBAN's, which hashes hold) without
# its look-arounds and "\b", \d widened; a shape that cannot match in the message is not tried in
# any of its number windows.
_D = _DIGIT
_SHAPES = {
    "card": (
        rf"{_D}{{4}}(?:(?:(?:[ ./\-]|\r?\n){_D}{{2,4}}){{2,4}}"
        rf"|(?:[ ./\-]|\r?\n){_D}{{6}}(?:[ ./\-]|\r?\n){_D}{{4,5}})"
    ),
    "ssn": rf"{_D}{{3}}-{_D}{{2}}-{_D}{{4}}|{_D}{{3}} {_D}{{2}} {_D}{{4}}",
    "nino": rf"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?{_D}{{2}} ?{_D}{{2}} ?{_D}{{2}} ?[A-D]",
    "cpf": rf"{_D}{{3}}\.{_D}{{3}}\.{_D}{{3}}-{_D}{{2}}",
    "dni": rf"{_D}{{8}}-?[A-Za-z]",
    "nie": rf"[XYZxyz]-?{_D}{{7}}-?[A-Za-z]",
    "codice": rf"[A-Za-z]{{6}}{_D}{{2}}[A-Za-z]{_D}{{2}}[A-Za-z]{_D}{{3}}[A-Za-z]",
    "hetu": rf"{_D}{{6}}[-+A]{_D}{{3}}[0-9A-Ya-y]",
    "rrn": rf"{_D}{{6}}-{_D}{{7}}",
    "pnr": rf"{_D}{{6}}[-+]{_D}{{4}}",  # ((?:\d{2})? before it: its six digits are in every match)
    "aadhaar": rf"[2-9]{_D}{{3}} {_D}{{4}} {_D}{{4}}",
    "emirates": rf"784-?{_D}{{4}}-?{_D}{{7}}-?{_D}",
    "pt_cc": rf"{_D}{{8}} ?{_D} ?[A-Z]{{2}}{_D}",
}
_CONDITIONS.update({f"shape_{name}": pattern for name, pattern in _SHAPES.items()})
_NAMES = tuple(_CONDITIONS)
(
    APP_PASSWORD_GROUPS,
    ONE_CHAR_TOKENS,
    DOTTED_CHARS,
    BASE32_TAIL,
    PRODUCT_KEY_TAIL,
    HEX_CODE_TAIL,
    ARROW_GAP,
    QUESTION_LABEL,
    IBAN_START,
    NUMBER_WINDOW,
    PIECES_TRIGGER,
    CARD,
    SPACED_DIGITS,
    EIGHT_DIGITS,
    SORT_CODE_MIDDLE,
    NOSTR_SECRET,
    WIF,
    PRIVATE_KEY_WORDS,
    QUOTED_AFTER_LINK,
    CJK,
    SPEAKER,
    LINES_UNDER_LABEL,
    PW_FLAG,
    KEY_ID_ASSIGNED,
    CRYPT_HASH,
    *_SHAPE_CONDITIONS,
) = range(len(_NAMES))
SHAPES = dict(zip(_SHAPES, _SHAPE_CONDITIONS, strict=True))  # a shape's name -> its condition
_ALL = frozenset(range(len(_NAMES)))
# Conditions left out of the set, as if they always held: their counted runs (50 and 58 key
# characters, six digits with gaps) beside the others' made the set's DFA meet new states in most
# messages (~200 us a message in a fresh process, 10-25 us after thousands, as its cache filled and
# was thrown away; ~3 us for the best of repeated runs of one text). Their steps have their own
# cheap gates: a token as long as the key, six digits in the message.
_LEFT_OUT = frozenset((NUMBER_WINDOW, WIF, NOSTR_SECRET))
_IN_SET = tuple(i for i in range(len(_NAMES)) if i not in _LEFT_OUT)


# The set is split in a few: a DFA's states are those of its patterns together, and a message met
# once meets new ones (one set of 35 conditions: ~16-23 µs a new message after thousands, ~50 within
# redact() as the other steps evict its states from the caches; four of ~9: ~9 µs in all). Each set
# holds every fourth condition.
_SETS = 4


def _compile():  # (a tuple of (re2.Set, the conditions it holds), or None without re2)
    try:
        import re2
    except ImportError:
        return None
    options = re2.Options()
    options.max_mem = 64 << 20  # (the default 8 MB DFA budget is enough; room for longer messages)
    sets = []
    for part in range(_SETS):
        held = _IN_SET[part::_SETS]
        patterns = re2.Set.SearchSet(options)
        for i in held:
            patterns.Add(_CONDITIONS[_NAMES[i]])
        patterns.Compile()
        sets.append((patterns, held))
    return tuple(sets)


_SET = _compile()
_last: tuple[str, frozenset[int]] = ("", frozenset())


def _hits(text: str) -> frozenset[int]:
    global _last
    if _SET is None:
        return _ALL
    found = set(_LEFT_OUT)
    for patterns, held in _SET:
        found.update(map(held.__getitem__, patterns.Match(text) or ()))
    frozen = frozenset(found)
    _last = (text, frozen)
    return frozen


def present(text: str) -> frozenset[int]:
    """The conditions that can hold in ``text`` (all of them without re2)."""
    last = _last
    return last[1] if last[0] is text else _hits(text)


def may(condition: int, text: str) -> bool:
    """Whether ``condition`` can hold in ``text`` (one set scan per message, kept for its text)."""
    return condition in present(text)
