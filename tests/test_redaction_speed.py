"""The redactor's shortcuts for speed change no result: each skips work only where a necessary
condition of a finding is missing, and these tests hold those conditions to what they stand for."""

from __future__ import annotations

import re
import string

from stdnum import iban, numdb

from memopilot.write.redaction import identifiers


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
    for digits in range(identifiers._MOST_DIGITS_NEEDED + 1):
        for letters in (False, True):
            wanted = [s for s in every if digits >= s.least_digits and (letters or not s.needs_letters)]
            assert list(identifiers._shapes_for(digits, letters)) == wanted
