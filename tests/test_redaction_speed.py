"""The redactor's shortcuts for speed change no result: each skips work only where a necessary
condition of a finding is missing, and these tests hold those conditions to what they stand for."""

from __future__ import annotations

import random
import re
import string

import pytest
from stdnum import iban, numdb

from memopilot.write import redaction
from memopilot.write.redaction import commands, identifiers, rules, statements


def test_an_iban_length_is_the_one_python_stdnum_checks() -> None:
    # _iban asks for the country's length before the mod-97 check: it must be the length that
    # python-stdnum's structure check accepts, for every country of its registry
    registry = numdb.get("iban")
    countries = [a + b for a in string.ascii_uppercase for b in string.ascii_uppercase]
    known = [cc for cc in countries if registry.info(cc)[0][1]]
    assert len(known) > 60
    for country in known:
        structure = iban._struct_to_re(registry.info(country)[0][1].get("bban", "")).pattern
        assert re.fullmatch(r"\^(?:\[[^\]]+\]\{\d+\})*\$", structure), structure
        assert identifiers._iban_length(country) == 4 + sum(map(int, re.findall(r"\{(\d+)\}", structure)))
    assert identifiers._iban_length("QQ") == 0


def test_each_key_is_at_least_as_long_as_its_gate() -> None:
    # _crypto_keys skips a key's scan where no run without spaces is as long as the key
    for pattern, least in identifiers._KEY_LENGTHS.items():
        assert re._parser.parse(pattern.pattern).getwidth()[0] >= least, pattern.pattern
        assert least >= identifiers._SHORTEST_KEY


def test_shapes_for_a_window_keep_the_order_and_the_needs() -> None:
    every = identifiers._SHAPE_LIST
    assert [shape.name for shape in every] == list(identifiers._SHAPES)
    run_sets = [
        frozenset(),
        frozenset((4,)),
        frozenset((2, 3)),
        frozenset((6, 7, 8)),
        frozenset(range(1, 20)),
    ]
    for digits in range(identifiers._MOST_DIGITS_NEEDED + 1):
        for letters in (False, True):
            for runs in run_sets:
                wanted = [
                    s
                    for s in every
                    if digits >= s.least_digits
                    and (letters or not s.needs_letters)
                    and not any(runs.isdisjoint(lengths) for lengths in s.runs)
                ]
                assert list(identifiers._shapes_for(digits, letters, runs)) == wanted


def _place(hint: str, word: str) -> re.Pattern[str]:
    """The pattern of commands.py's place under ``hint`` that holds ``word``."""
    return next(pattern for h, pattern in commands._PLACES if h == hint and word in pattern.pattern)


# Patterns rewritten to start with a character class (which `re` skips to in C) and to look behind
# only there, beside the patterns they replaced: the same matches, at the same places.
REWRITTEN = [
    (
        statements._UUID_OR_HEX,
        r"(?<![\w-])(?:0x)?(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        r"|[0-9a-f]{32,128}|[0-9A-F]{32,128}|[A-Z2-7]{16,64})(?![\w-])",
        ["0x", *"0123456789abcdefABCDEFGXYZ234567x- _g"],
    ),
    (
        statements._PRODUCT_KEY,
        r"(?<![\w-])[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){4,}(?![\w-])",
        ["AB12", "-AB12", "-Z9X8Y", "-A1B2C3", "-", " ", " ", "_", "é", "-ab12"],
    ),
    (
        statements._SHORT_PRODUCT_KEY,
        r"(?<![\w-])[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){2,3}(?![\w-])",
        ["AB12", "-AB12", "-Z9X8Y", "-A1B2C3", "-", " ", " ", "_", "é", "-ab12"],
    ),
    (statements._QUESTION_LABEL, r"(?<!\w)Q\s?[:：.]", list("Qq :：.a1 \né_")),
    (
        identifiers._IBAN_START,
        r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?=[ -]?[A-Z0-9]{4})",
        list("ABDE0123456789 -a"),
    ),
    (
        identifiers._WIF,
        r"(?<![1-9A-Za-z])[5KL][1-9A-HJ-NP-Za-km-z]{50,51}(?![1-9A-Za-z])",
        list("5KL123456789ABHJkmz0OIl "),
    ),
    (
        rules._CARD_DIGIT_BY_DIGIT,
        r"(?<![\w.,-])(?<![0-9] )[0-9](?: [0-9]){12,18}(?![\w]| [0-9])",
        [*"0123456789", " ", " ", " ", "-", ".", ",", "a", "é", "٣"],
    ),
    (
        identifiers._NOSTR_SECRET,
        r"(?<![0-9a-z])nsec1[02-9ac-hj-np-z]{58}(?![0-9a-z])",
        ["nsec1" + "023acz" * 9 + "0234", "nsec1", "0", "b", " ", " ", "q"],
    ),
    (
        _place("\n", "ithub_pat_"),
        r"\b((?:ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abposr]-|sk-(?:proj-|ant-)?|sk_live_|rk_live_|AKIA"
        r"|AIza|hf_|npm_|pypi-|shp[a-z]{2}_)[A-Za-z0-9_\-]{6,}\r?\n[A-Za-z0-9_\-]{6,})",
        [
            *("ghp_", "gho_", "github_pat_", "glpat-", "xoxb-", "sk-", "sk-proj-", "sk_live_", "rk_live_"),
            *("AKIA", "AIza", "hf_", "npm_", "pypi-", "shpat_", "Q9x", "\n", " ", "_", "-", "é", "a"),
        ],
    ),
    (
        _place("env", "etenv"),
        r"(?i)(?:environ\.get|getenv|env\.get|env)\(\s*['\"]\w*(?:secret|key|token|pass\w*|pwd)\w*['\"]\s*,\s*"
        r"['\"]([^'\"\n]{8,128})['\"]",
        [
            "environ.get",
            "GETENV",
            "getenv",
            "Env.get",
            "env",
            "(",
            "'",
            '"',
            "SECRET_KEY",
            ", ",
            "abcdefghij",
            " ",
            "G",
        ],
    ),
    (
        redaction._TRACE_HEADER_CUES,
        r"(?i)trace|x-b3-|span-?id|cf-ray|request-?id|correlation-?id|x-amz-cf-id",
        [
            *(
                "trace",
                "TRACE",
                "x-b3-",
                "X-B3-",
                "span",
                "span-id",
                "ſpanid",
                "cf-ray",
                "CF-Ray",
                "request-id",
            ),
            *("requestid", "correlation-id", "x-amz-cf-id", "X-Amz-Cf-Id", "a", "_", "é", " ", "-", "K", "İ"),
        ],
    ),
    (
        redaction._MAIL_SIGNATURE_HEADER,
        r"(?i)\b(?:dkim-signature|arc-message-signature|arc-seal):",
        [
            *(
                "dkim-signature:",
                "DKIM-Signature:",
                "arc-seal:",
                "ARC-Message-Signature:",
                "arc-seal",
                "a",
                "d",
            ),
            *("_", "é", " ", "x", "-", "1", ":"),
        ],
    ),
    (
        _place("@", "qlplus"),
        r"(?:\bsqlplus\s+|jdbc:oracle:\w+:)[\w$#.-]+/([^\s@/'\"]{4,128})@",
        ["sqlplus", " ", "scott", "/", "Tiger12", "@", "jdbc:oracle:thin:", "x", "é", "_"],
    ),
]


@pytest.mark.parametrize(("new", "old", "pieces"), REWRITTEN)
def test_a_rewritten_pattern_matches_as_the_old_one(
    new: re.Pattern[str], old: str, pieces: list[str]
) -> None:
    old_pattern = re.compile(old)
    rng = random.Random(7)
    for _ in range(3000):
        # pieces repeated, so that the long shapes (64 hex digits, 51 of base58) occur too
        text = "".join(rng.choice(pieces) * rng.choice((1, 1, 2, 5, 16)) for _ in range(rng.randint(0, 40)))
        assert [m.span() for m in new.finditer(text)] == [m.span() for m in old_pattern.finditer(text)]
        at = rng.randint(0, len(text))
        assert bool(new.match(text, at)) == bool(old_pattern.match(text, at))


@pytest.mark.parametrize("text", [" " * 60, "\n\t " * 30, ""])
def test_blank_text_of_any_length_comes_back_unchanged(text: str) -> None:
    """The gate before the long-key scans measures the longest run without spaces: a blank text
    has none (it raised ValueError from an empty max())."""
    from memopilot.write.redaction import redact

    assert redact(text).text == text


def test_keyword_spans_are_what_the_alternation_finds() -> None:
    # rules._entropy reads its anchors from Substrings.spans (the shared keyword pass) instead of
    # scanning with the alternation of the same words: the same spans, at the same places
    from memopilot.write.redaction import keywords, rules

    words = rules._KEYWORD_WORDS.split("|")
    assert not any(a != b and b.startswith(a) for a in words for b in words)  # (what spans assumes)
    alternation = re.compile(rules._KEYWORD_WORDS)
    rng = random.Random(15)
    pieces = [*words, "sess", "ion", "id", "cred", "s", "pa", "t", " ", "_", "-", "x", "é"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        keywords.begin_message(text)  # (served from the shared pass, and alone for another text)
        assert list(rules._ANY_KEYWORD.spans(text)) == [m.span() for m in alternation.finditer(text)]
        assert list(rules._ANY_KEYWORD.spans(text + " ")) == [m.span() for m in alternation.finditer(text)]


def test_an_ascii_message_gets_the_same_keyword_matches() -> None:
    # the shared pass runs an automaton of the ASCII words alone over an ASCII text
    from memopilot.write.redaction import keywords

    index = keywords.KeywordIndex(["password", "pass", "pin", "contraseña", "密码", "code"])
    for text in ("my password: x", "pin code 1234 pass", "contraseña es x, password y", "密码是 pass"):
        lower = text.lower()
        alone = list(index.find(lower))  # (before the message's pass: the automaton runs alone)
        keywords.begin_message(lower)
        assert list(index.find(lower)) == alone


def test_tokens_around_a_scored_token_are_the_texts_own() -> None:
    # the learned net reads a few scored tokens' context among the tokens around each (from a
    # position after a character no token holds) instead of tokenising the whole text
    from memopilot.write.redaction import learned

    rng = random.Random(11)
    pieces = ["ab", "Q7x", "9", ".", ",", "?", " ", " ", "\n", "=", ":", "(", "-", "_", "密码", "é"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 80)))
        every = learned.candidate_tokens(text)
        starts = {start for start, _ in every}
        for at in range(len(text)):
            around = learned._tokens_around(text, at)
            if at not in starts:
                assert around is None
                continue
            assert around is not None
            tokens, index = around
            whole = every.index(tokens[index])
            assert tokens == every[whole - index : whole - index + len(tokens)]
            assert index >= learned._CONTEXT_WORDS or index == whole
            assert whole + 1 == len(every) or tokens[-1] == every[whole + 1]


def test_readers_skipped_without_their_words_find_nothing() -> None:
    # statements.detect skips the list, arrow-list and table readers where no word of a password's
    # or a code's name occurs (and the table reader where no cell separator is): they find nothing
    # there
    from memopilot.write.redaction import keywords

    rng = random.Random(5)
    pieces = ["host", "user", "admin", "site", "Gmail", "x9Kq!27pLm", "Blue7#door", "me@x.org", "pass"]
    pieces += ["login", "code", ":", " → ", " / ", "/", " | ", ",", "\n", "\n- ", " ", "1. ", "wifi", "token"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        lower = text.lower()
        keywords.begin_message(lower)
        if not statements._NAMES.occurs(lower):
            assert not list(statements._credential_list(text, lower))
            assert not list(statements._arrow_list(text, lower))
            assert not list(statements._password_columns(text, lower))
        if not any(separator in text for separator in statements._CELL_SEPARATORS):
            assert not list(statements._password_columns(text, lower))


def _top_level_alternatives(pattern: str) -> list[str]:
    parts, depth, current, escaped = [], 0, "", False
    for ch in pattern:
        if escaped:
            current, escaped = current + ch, False
            continue
        if ch == "\\":
            current, escaped = current + ch, True
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current]


@pytest.mark.parametrize("pattern", [statements._SECRET_CUE, statements._KEY_TALK])
def test_every_secret_cue_starts_with_one_of_its_words(pattern: re.Pattern[str]) -> None:
    # _secret_cue and key_talk search only texts that hold one of these words: each alternative of
    # the pattern starts with one (after a look-behind or a word boundary)
    words = [w.replace(".", "\\.") for w in statements._SECRET_CUE_WORDS]
    if pattern is statements._KEY_TALK:
        words.append("key")
    for alternative in _top_level_alternatives(pattern.pattern):
        bare = re.sub(r"^(?:\(\?<![^)]*\)|\\b)+", "", alternative)
        assert any(bare.startswith(word) for word in words), alternative


def test_secret_cue_searches_are_the_patterns() -> None:
    rng = random.Random(9)
    pieces = ["api", "key", "token", "sess", "ion", "clé", "privée", " ", "-", "/", ".", "x", "auth", "or"]
    pieces += ["2fa", "secret", "토큰", "비밀 키", "schlüssel", "keys", "credentials", "master", "_"]
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        assert statements._secret_cue(text) == bool(statements._SECRET_CUE.search(text))
        assert statements.key_talk(text) == bool(statements._KEY_TALK.search(text))


def test_gates_say_what_substring_tests_said() -> None:
    # rules.py's detectors ask keywords.Gates (the message's shared pass, once) whether "pw", "sk-",
    # "://" ... occur, where they tested `word in lower`: the same answer, for the message and for
    # another text, message after message
    from memopilot.write.redaction import keywords, rules

    words = sorted(rules._GATES.words)
    assert words and all(word == word.lower() for word in words)
    rng = random.Random(24)
    pieces = [*words, "p", "w", "s", "k", "-", ":", "/", " ", "x", "é", "Pw", "SK-", "EyJ"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        lower = text.lower()
        if rng.random() < 0.7:
            keywords.begin_message(lower)
        assert rules._GATES.present(lower) == {word for word in words if word in lower}


def test_unevenly_spaced_keys_are_found_past_their_prefilter(monkeypatch: pytest.MonkeyPatch) -> None:
    # pieces._unevenly_spaced_key reads a run's groups one by one only where _PIECES_IN_A_ROW finds
    # four pieces in a row: the same keys as reading every run
    from memopilot.write.redaction import keywords, pieces

    rng = random.Random(50)
    parts = ["Zk8w", "Qm3", "Rt7vNp", "key", "token", "the", "Word", "ab", "x9", "HK", "a_b", ":", ",", "-"]
    parts += [" ", " ", " ", " ", "  ", "\n", "\t", "7", "Ü", "q"]
    texts = ["token " + "".join(rng.choice(parts) for _ in range(rng.randint(4, 24))) for _ in range(3000)]

    def found(text: str) -> list[rules.Span]:
        lower = text.lower()
        keywords.begin_message(lower)
        return list(pieces.detect(text, lower))

    with_prefilter = [found(text) for text in texts]
    monkeypatch.setattr(pieces, "_PIECES_IN_A_ROW", re.compile(""))
    assert [found(text) for text in texts] == with_prefilter


def test_the_aws_secret_s_value_is_found_from_secret_s_first_letter() -> None:
    # rules._AWS_SECRET_NAMED starts at "secret" (skipped to in C) where the old pattern started
    # at an optional "aws_" tried at every position: the values (group 1) are the same
    from memopilot.write.redaction import rules

    old = re.compile(
        r"(?i)(?:aws)?[_ .-]?secret[_ .-]?(?:access[_ .-]?)?key(?:[_ .-]?id)?[\"']?[ \t]*"
        r"(?:[:=]|=>|\bis\b)?[ \t]*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
    )
    value = "wJalrXUtnFEMIK7MDENGbPxRfiCYzq8Lp3Ab9Tx2"
    pieces = [
        "aws",
        "AWS",
        "_",
        " ",
        "-",
        ".",
        "secret",
        "SECRET",
        "ſecret",
        "Secret",
        "access",
        "key",
        "KEY",
    ]
    pieces += ["_id", '"', "'", "=", ":", "=>", " is ", value, value[:20], "/", "+", "x", "é"]
    rng = random.Random(27)
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))
        assert [m.span(1) for m in rules._AWS_SECRET_NAMED.finditer(text)] == [
            m.span(1) for m in old.finditer(text)
        ], text


def test_security_questions_are_the_alternation_s_matches() -> None:
    # statements._security_questions tries _SECURITY_QUESTION only where one of its heads occurs:
    # the same matches as its scan, from the same start
    from memopilot.write.redaction import keywords, statements

    pattern = statements._SECURITY_QUESTION
    pieces = [
        *(
            "mother's maiden name",
            "mothers maiden name",
            "maiden name",
            "name of your first pet",
            "my first car",
        ),
        *("your first school's name", "first boss", "street i grew up on", "favourite book", "favorite city"),
        *("dad's middle name", "mum's middle name", "city you were born in", "childhood best friend's name"),
        *("high school mascot", "school mascot", "security answers", "secret question", "pregunta secreta"),
        *("question secrète", "geheimfrage", "güvenlik sorusu", "nome da solteira", "девичья фамилия"),
        *(
            "контрольный вопрос",
            "秘密の質問",
            "보안 질문",
            "erste haustier",
            "primeiro animal",
            "answer to 'the x'",
        ),
        *('answer "Mochi', "name of ", "your ", "my ", "first ", "mom", "moth", "erst", "school", "high "),
        *(" ", " ", "'", "s", "x", ".", "\n", "é", "a"),
    ]
    rng = random.Random(31)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        start = rng.randint(0, len(text))
        keywords.begin_message(text)  # (the heads from the shared pass, and alone for another text)
        for lower in (text, text + " "):
            found = [m.span() for m in statements._security_questions(lower, start)]
            assert found == [m.span() for m in pattern.finditer(lower, start)], lower


def test_a_hint_s_rule_indexes_are_its_rules_in_order() -> None:
    # rules._token_rules runs the rules of the hints found by their indexes in _TOKEN_RULES
    for hint, hinted in rules._HINT_RULES.items():
        assert [rules._TOKEN_RULES[i] for i in rules._HINT_RULE_INDEXES[hint]] == list(hinted)
        assert list(rules._HINT_RULE_INDEXES[hint]) == sorted(rules._HINT_RULE_INDEXES[hint])


def test_a_lazy_prefixed_provider_rule_finds_its_own_matches() -> None:
    # providers._Rule.matches searches the rest of a semi-generic rule's pattern (its service's
    # name first) and the rule's own pattern from fifty characters before: its finditer's matches
    from memopilot.write.redaction import providers

    _, by_keyword, _ = providers._rule_set()
    lazy = {
        r.id: r for rs in by_keyword.values() for r in rs if r.source.startswith(providers._LAZY_NAME_PREFIX)
    }
    assert len(lazy) > 50
    pieces = [
        "jira",
        "JIRA",
        "Atlassian",
        "confluence",
        "ATATT3",
        "twilio",
        "sentry",
        "discord",
        "lob",
        "okta",
    ]
    pieces += [
        "_",
        "-",
        ".",
        " ",
        "=",
        ":",
        "'",
        '"',
        "\n",
        "a1b2c3d4e5f6a7b8c9d0e1f2",
        "0123456789abcdef" * 3,
    ]
    pieces += ["x" * 30, "token", "key", "secret", "api"]
    rng = random.Random(19)
    for rule in lazy.values():
        for _ in range(60):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
            found = [(m.span(), m.regs) for m in rule.matches(text)]
            assert found == [(m.span(), m.regs) for m in rule.pattern.finditer(text)], (rule.id, text)


def test_a_card_s_luhn_and_an_iban_s_length_are_stdnum_s() -> None:
    # identifiers checks a card's ASCII digits and measures an ASCII IBAN's compact length in place
    from stdnum import luhn

    rng = random.Random(28)
    for _ in range(20000):
        digits = "".join(rng.choice(string.digits) for _ in range(rng.randint(1, 20)))
        assert rules._luhn(digits) == luhn.is_valid(digits), digits
        value = "".join(rng.choice("DE0 1-2.9X\t`") for _ in range(rng.randint(0, 40)))
        assert len(value.translate(identifiers._IBAN_SEPARATORS).strip()) == len(iban.compact(value)), value
    for value in ("4111 1111 1111 1111", "5500-0000-0000-0004", "4111 1111 1111 1112", "3530 1113 3330 0000"):
        assert identifiers._card(value) == (
            13 <= len(re.sub(r"\D", "", value)) <= 19
            and re.sub(r"\D", "", value)[0] in "23456"
            and luhn.is_valid(re.sub(r"\D", "", value))
        )


def test_a_token_profile_answers_as_the_calls_it_keeps() -> None:
    # _value_after reads a token's own answers from its kept profile: each is what the call it
    # stands for returns on that token (words, links, masked values, symbols, other scripts)
    rng = random.Random(29)
    alphabet = string.ascii_letters + string.digits + ".,;:!?)]}>(['\"`=*—–→-_#@/ éßあ密"
    tokens = [
        "is",
        "Is:",
        "was.",
        "password:",
        "->",
        ":",
        "=",
        "****",
        "'***'",
        "ERESOLVE",
        "E404",
        "x",
        "it's",
    ]
    tokens += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14))) for _ in range(3000)]
    for raw in tokens:
        profile = statements._token_profile(raw)
        start, end = statements._core(raw, 0, len(raw))
        value = raw[start:end]
        alnum = start < end and statements._ALNUM.search(raw, start, end) is not None
        assert (profile.core_start, profile.core_end, profile.value, profile.alnum) == (
            start,
            end,
            value,
            alnum,
        )
        assert profile.inert == statements._inert_word(raw)
        assert profile.inert_word == raw.rstrip(".,;!?)").lower()
        assert profile.masked == (statements._MASKED_VALUE.fullmatch(raw) is not None)
        assert profile.link == (raw.strip() in statements._LINKS)
        assert profile.lower_link == (raw.lower() in statements._LINKS)
        assert profile.ends_in_link == raw.rstrip().endswith((":", "：", "="))
        assert profile.word == value.lower()
        if alnum:
            assert profile.error_name == (statements._ERROR_NAME.fullmatch(value) is not None)
            plain = statements._is_plain_word(value) and not statements._random_letters(value)
            assert profile.plain == plain
            # _spelled_start asks the text only where the profile says the token may open a run
            assert (
                not statements._spelled_start(raw + " one two three four five", 0, value)
                or profile.spelled_first
            )


def test_a_value_before_its_name_is_looked_for_only_past_its_link_or_article() -> None:
    # _value_before searches _VALUE_FIRST and _VALUE_ASKED only where the cheap scans of their link
    # (between spaces) and article find one: each pattern's match holds it
    rng = random.Random(30)
    words = ["is", "IS", "iſ", "ıs", "was", "=", "ist", "était", "my", "the", "a", "AN", "an", "be", "would"]
    words += ["Tr0ub4dor&3", "kettle.mossy.lagoon47", "make", "could", "good", "new", "ʙ", "\u00a0", "\t"]
    texts = [
        "Tr0ub4dor&3 is my password",
        "Is kettle.mossy.lagoon47 a good password",
        "Fjord!22xq ıs THE new password",
    ]
    texts += [" ".join(rng.choice(words) for _ in range(rng.randint(2, 9))) for _ in range(20000)]
    found = {"first": 0, "asked": 0}
    for text in texts:
        if statements._VALUE_FIRST.search(text + " "):
            found["first"] += 1
            assert statements._VALUE_FIRST_LINK.search(text + " "), text
        if statements._VALUE_ASKED.search(text + " "):
            found["asked"] += 1
            assert statements._VALUE_ASKED_ARTICLE.search(text + " "), text
    assert all(found.values()), found


def test_a_message_with_fewer_than_six_ascii_digits_has_no_number_window() -> None:
    # identifiers._detect skips the shapes' number windows in an ASCII message with fewer than six
    # digits (the prefilter's set leaves that condition out): every window holds six digits
    rng = random.Random(31)
    alphabet = "0123456789 -./:abcXYZ\n"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        if rules.count_digits(text) < identifiers._WINDOW_DIGITS:
            assert identifiers._NUMBER_WINDOW.search(text) is None, text
    assert identifiers._NUMBER_WINDOW.search(
        "٠١٢٣٤٥"
    )  # (another script's digits: not counted, so not skipped)


def test_the_learned_net_s_own_score_is_its_features_score() -> None:
    # _own_score_of reads a token's own weights from small tables: the same sum, bit for bit, as the
    # model's score of own_features (tokens of every class, length and case)
    from memopilot.write.redaction import learned

    model = learned._model()
    assert model is not None
    rng = random.Random(30)
    alphabets = [string.ascii_lowercase, string.ascii_uppercase, string.digits, "-_.@!#$%&*+/~^?:", "äßéøΩж"]
    tokens = ["OAuth2", "GitHub", "v1.2", "Password1!", "abcd", "ABCD", "Zürich", "ghp_x", "sk-live"]
    for _ in range(6000):
        pool = "".join(rng.sample(alphabets, rng.randint(1, 3)))
        tokens.append("".join(rng.choice(pool) for _ in range(rng.randint(4, 70))))
    for token in tokens:
        own, classes = learned.own_features(token)
        assert model._own_score_of(token) == (model.score(own), classes), token


def test_shapes_possible_in_a_message_hold_every_shape_found_in_its_windows() -> None:
    # _shaped skips a window's shape that _shapes_possible leaves out: each shape's own matches
    # must lie where the message-wide tests let it be tried
    rng = random.Random(31)
    pieces = ["DE89 3704 0044 0532 0130 00", "4111 1111 1111 1111", "078-05-1120", "QQ 12 34 56 C",
              "111.444.777-35", "12345678Z", "X1234567L", "RSSMRA85T10A562S", "131052-308T",
              "900101-1234567", "19900101-1234", "2345 6789 0123", "784-1990-1234567-1", "12345678 9 ZZ1",
              "order 2026-01-02 12:00", "a3f9c2e17b", "v1.2.3-45"]  # fmt: skip
    for _ in range(2000):
        text = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 4)))
        possible = identifiers._shapes_possible(text)
        for shape in identifiers._SHAPE_LIST:
            if shape.pattern.search(text) and shape.name not in possible:
                raise AssertionError((shape.name, text))


def test_shannon_and_wordiness_are_the_counter_and_chunk_forms() -> None:
    # rules.shannon counts with str.count in first-occurrence order, and _wordiness returns 0 where
    # no three letters stand in a row: both the same as the plain forms, bit for bit
    import math
    from collections import Counter

    def plain_shannon(value: str) -> float:
        n = len(value)
        return -sum(c / n * math.log2(c / n) for c in Counter(value).values())

    def plain_wordiness(value: str) -> float:
        letters = sum(map(str.isalpha, value))
        if not letters:
            return 0.0
        covered = sum(
            len(chunk)
            for chunk in rules._WORD_CHUNK.findall(value)
            if len(chunk) >= 3 and 4 * (len(chunk) - len(chunk.translate(rules._NO_VOWELS))) >= len(chunk)
        )
        return covered / letters

    rng = random.Random(32)
    pools = [
        string.hexdigits,
        string.ascii_letters + string.digits,
        string.printable,
        "aeiouAEIOU1-_",
        "äßжé9x",
    ]
    for _ in range(20000):
        pool = rng.choice(pools)
        value = "".join(rng.choice(pool) for _ in range(rng.randint(1, 90)))
        assert rules.shannon(value) == plain_shannon(value), value
        assert rules._wordiness(value) == plain_wordiness(value), value


def test_a_secret_cue_is_tried_only_where_one_of_its_words_starts() -> None:
    # _matches_at_a_word stands for the cue patterns' search: every match starts with a hint word
    rng = random.Random(33)
    words = [*statements._SECRET_CUE_WORDS, "key", "keys", "credentials", "privater schlüssel", "api-key"]
    filler = ["the", "my", "/", "-", "x", "apis", "monkey", "keyboard", "pass", "sessions", ".", " ", "\n"]
    for _ in range(20000):
        text = "".join(
            rng.choice(words if rng.random() < 0.2 else filler) + rng.choice(["", " ", "_"]) for _ in range(8)
        )
        assert statements._secret_cue(text) == (statements._SECRET_CUE.search(text) is not None), text
        expected = statements._KEY_TALK.search(text) is not None
        assert (
            statements._matches_at_a_word(statements._KEY_TALK, statements._KEY_TALK_HINTS, text) == expected
        )
