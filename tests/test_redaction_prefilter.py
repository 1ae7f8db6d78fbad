"""The redactor's one-pass prefilter (write/redaction/prefilter.py): each condition is necessary for
its step (wherever the step's own pattern matches, the condition holds), and redact() gives the same
output with RE2 and without it (the fallback when google-re2 cannot be imported)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from memopilot.write import redaction
from memopilot.write.redaction import commands, identifiers, learned, pieces, prefilter, rules, statements

DATA = Path(__file__).parent / "data"

# condition -> (the step's own pattern, whether it is searched in the lowercased text)
PAIRS = {
    prefilter.APP_PASSWORD_GROUPS: (statements._APP_PASSWORD_GROUPS, False),
    prefilter.ONE_CHAR_TOKENS: (statements._ONE_CHAR_TOKENS, False),
    prefilter.DOTTED_CHARS: (statements._DOTTED_CHARS, False),
    prefilter.BASE32_TAIL: (statements._BASE32_TAIL, True),
    prefilter.PRODUCT_KEY_TAIL: (statements._PRODUCT_KEY_TAIL, False),
    prefilter.HEX_CODE_TAIL: (statements._HEX_CODE_TAIL, False),
    prefilter.ARROW_GAP: (statements._ARROW_GAP, False),
    prefilter.QUESTION_LABEL: (statements._QUESTION_LABEL, False),
    prefilter.IBAN_START: (identifiers._IBAN_START, False),
    prefilter.NUMBER_WINDOW: (identifiers._NUMBER_WINDOW, False),
    prefilter.PIECES_TRIGGER: (pieces._TRIGGER, False),
    prefilter.CARD: (rules._CARD, False),
    prefilter.SPACED_DIGITS: (rules._SPACED_DIGITS, False),
    prefilter.EIGHT_DIGITS: (identifiers._EIGHT_DIGITS, False),
    prefilter.SORT_CODE_MIDDLE: (identifiers._SORT_CODE_MIDDLE, False),
    prefilter.NOSTR_SECRET: (identifiers._NOSTR_SECRET, False),
    prefilter.WIF: (identifiers._WIF, False),
    prefilter.PRIVATE_KEY_WORDS: (identifiers._PRIVATE_KEY_WORDS, False),
    prefilter.QUOTED_AFTER_LINK: (commands._QUOTED_AFTER_LINK, False),
    prefilter.CJK: (learned._CJK_RUN, False),
    prefilter.SPEAKER: (statements._SPEAKER, False),
    prefilter.LINES_UNDER_LABEL: (pieces._LINES_UNDER_LABEL, False),
    prefilter.PW_FLAG: (rules._PW_FLAG, True),
    prefilter.KEY_ID_ASSIGNED: (rules._KEY_ID_ASSIGNED, False),
    prefilter.CRYPT_HASH: (commands._CRYPT_HASH, False),
    **{condition: (identifiers._SHAPE_PATTERNS[name], False) for name, condition in prefilter.SHAPES.items()},
}

# Texts each pattern matches, some in other scripts' digits and case folds (RE2's \d and (?i) differ)
POSITIVES = [
    "app password: abcd efgh ijkl mnop",
    "it is g h p _ h E 3 N",
    "r.o.c.k.y.1.9.x",
    "setup key jbsw y3dp ehpk 3pxp",
    "VK7JG-NPHTM-C97JM-9MPGT-3V66T",
    "codes 1a2b3-4c5d6 9f8e7-a1b2c",
    "home → Pa55word!\nwork -> hunter2x",
    "Q: first pet? A: rex",
    "IBAN DE89 3704 0044 0532 0130 00",
    "call ٠١٢٣٤٥٦٧٨٩ now",
    "key 4fA9 kd82 Xc7Q",
    "card 4111 1111 1111 1111 or 4111-1111-1111-1111 or 378282246310005",
    " 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    "first 8: 49296949, last 8: 9053 6567",
    "sort code 12-34-56",
    "nsec1" + "q" * 58,
    "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
    "my PRIVATE-KEY and wallet key, prİvate key, Private KEY",
    'national_id = "123456789"',
    "密码是 abc",
    "Ｑ：x",
    "[10:02] priya: anyone?\n<tom>\tigloo",
    "keys:\n  AbCdEf123456\n  GhIjKl789012\n",
    "mysql --db-PASSWORD=x",
    "ssn 123-45-6789, 123 45 6789; NINO AB 12 34 56 C; CPF 123.456.789-09; DNI 12345678Z",
    "NIE X1234567L; codice RSSMRA85T10A562S; hetu 131052-308T; RRN 800101-1234567",
    "pnr 19811228-9874; aadhaar 2345 6789 0123; EID 784-1990-1234567-1; CC 12345678 9 ZZ1",
    'AWS_KEY_ID="AKIA1234567890AB"',
    "$6$salt$" + "a" * 22 + " $2b$12$" + "b" * 53 + " $argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$" + "h" * 16,
]

ALPHABET = "aAbBcCdDeEfFqQkKsSiI0123456789٣۴ \t\n-_.:=/\"'`→–—ſıİK密ｑ"


def _lower(text: str) -> str:
    lower = text.lower()
    return lower if len(lower) == len(text) else text.translate(redaction._ASCII_LOWER)


def _samples() -> list[str]:
    rng = random.Random(28)
    fuzz = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(5, 80))) for _ in range(3000)]
    return POSITIVES + fuzz + _messages(DATA / "secret_messages.jsonl")


def _messages(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line)["message"] for line in fh if line.strip()]


@pytest.mark.skipif(prefilter._SET is None, reason="google-re2 is not installed")
def test_every_condition_holds_where_its_steps_pattern_matches() -> None:
    hits = dict.fromkeys(PAIRS, 0)
    for text in _samples():
        for condition, (pattern, in_lower) in PAIRS.items():
            if pattern.search(_lower(text) if in_lower else text):
                hits[condition] += 1
                assert prefilter.may(condition, text), (prefilter._NAMES[condition], text)
    assert all(hits.values()), hits  # (each pattern met at least once: the test tried them all)
    assert len(PAIRS) == len(prefilter._NAMES)


def test_redact_is_the_same_without_re2(monkeypatch: pytest.MonkeyPatch) -> None:
    tune = DATA / "redaction_tune"
    texts = (
        POSITIVES
        + (_messages(tune / "secret_messages.jsonl") + _messages(tune / "benign_messages.jsonl"))[::3]
    )
    with_set = [(r.text, r.findings) for r in map(redaction.redact, texts)]
    monkeypatch.setattr(prefilter, "_SET", None)
    monkeypatch.setattr(prefilter, "_last", ("", frozenset()))
    assert all(prefilter.may(condition, "text") for condition in PAIRS)
    without = [(r.text, r.findings) for r in map(redaction.redact, texts)]
    assert with_set == without


@pytest.mark.skipif(prefilter._SET is None, reason="google-re2 is not installed")
def test_the_sets_hold_every_condition_once_and_answer_as_one_set() -> None:
    # the conditions are split in a few RE2 sets (smaller DFAs): together they hold each condition of
    # the set once, and find what one set of all of them finds
    import re2

    held = [i for _, part in prefilter._SET for i in part]
    assert sorted(held) == sorted(prefilter._IN_SET) and len(held) == len(set(held))
    whole = re2.Set.SearchSet(re2.Options())
    for i in prefilter._IN_SET:
        whole.Add(prefilter._CONDITIONS[prefilter._NAMES[i]])
    whole.Compile()
    for text in _samples():
        one = prefilter._LEFT_OUT.union(map(prefilter._IN_SET.__getitem__, whole.Match(text) or ()))
        assert prefilter._hits(text) == one, text
