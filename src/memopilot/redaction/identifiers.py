"""Bank and identity numbers: IBANs, card numbers in any grouping, and national identifiers.

Checksums come from python-stdnum (a maintained library of 200+ number formats), so that a
number is taken only when it is one: an IBAN must pass its mod-97 check, a card number Luhn and
a card network's prefix, a Brazilian CPF, Spanish DNI/NIE, Italian codice fiscale, Finnish HETU,
Swedish personnummer, Korean RRN, Indian Aadhaar or US SSN its own rules. Written in their usual
formats (with their separators or letters) these are distinctive enough to take anywhere; a bare
run of digits is taken only after a word that names an identity number ("SSN", "BSN", "PESEL",
"passport", "身份证号" ...), since any 9 to 11 digits pass one of the checksums by chance.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from stdnum import iban, luhn
from stdnum.br import cpf
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.in_ import aadhaar
from stdnum.it import codicefiscale
from stdnum.kr import rrn
from stdnum.se import personnummer
from stdnum.us import ssn

from .keywords import KeywordIndex
from .rules import P_CONTEXT, P_STRUCT, Span

__all__ = ["detect"]

# Every shape, one named group each, in one expression: it runs only inside the windows where
# numbers are (one pass of ~10 µs per 300 characters each would cost ten times that).
_SHAPES = {
    # two letters, two check digits, then 11-30 letters and digits, in groups of up to 4 or not
    "iban": r"\b[A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]{1,4}){3,8}\b",
    # 13-19 digits in groups separated by one space, dash, dot or line break (plain runs: rules.py)
    "card": r"(?<![\d.])\d{4}(?:(?:[ .\-]|\r?\n)\d{2,4}){2,4}(?!\d)",
    "ssn": r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)|(?<!\d)\d{3} \d{2} \d{4}(?!\d)",
    "nino": r"\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
    "cpf": r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)",
    "dni": r"\b\d{8}-?[A-Za-z]\b",
    "nie": r"\b[XYZxyz]-?\d{7}-?[A-Za-z]\b",
    "codice": r"\b[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]\b",
    "hetu": r"\b\d{6}[-+A]\d{3}[0-9A-Ya-y]\b",
    "rrn": r"(?<![\d-])\d{6}-\d{7}(?![\d-])",
    "pnr": r"(?<![\d-])(?:\d{2})?\d{6}[-+]\d{4}(?![\d-])",
    "aadhaar": r"(?<!\d)[2-9]\d{3} \d{4} \d{4}(?!\d)",
}
_SHAPE = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _SHAPES.items()))
_NAMED_KIND = {"iban": "iban", "card": "credit_card", "ssn": "us_ssn", "nino": "uk_nino"}
_VALID: dict[str, Callable[[str], bool]] = {
    "ssn": ssn.is_valid, "nino": lambda _: True, "cpf": cpf.is_valid, "dni": dni.is_valid,
    "nie": nie.is_valid, "codice": codicefiscale.is_valid, "hetu": hetu.is_valid, "rrn": rrn.is_valid,
    "pnr": personnummer.is_valid, "aadhaar": aadhaar.is_valid,
}  # fmt: skip
# Where an identifier can be: six digits or more, each within six characters of the next (the
# shapes are then looked for there, with a few characters more on each side for their letters).
_NUMBER_WINDOW = re.compile(r"\d(?:\D{0,6}\d){5,}")
# Words that name an identity or account number, in the languages users write in.
_ID_WORDS = KeywordIndex([
    "ssn", "social security", "social security number", "social security no", "national id",
    "national identity number", "national insurance", "national insurance number", "id number",
    "identity number", "id card", "personal id", "personal number", "tax id", "tax file number",
    "tax number", "tin", "tfn", "passport", "passport number", "passport no", "bsn",
    "burgerservicenummer", "pesel", "cpf", "dni", "nie", "nif", "codice fiscale", "steuer-id",
    "steuerid", "steueridentifikationsnummer", "personalausweis", "personalausweisnummer", "reisepass",
    "reisepassnummer", "nir", "numéro de sécurité sociale", "sécu", "passeport", "pasaporte",
    "passaporto", "aadhaar", "sin", "social insurance number", "personnummer", "henkilötunnus",
    "hetu", "fødselsnummer", "tc kimlik", "kimlik", "kimlik numarası", "rrn", "rijksregisternummer",
    "ahv", "ahv-nr", "avs", "account number", "routing number", "bank account", "sort code",
    "kontonummer", "身份证", "身份证号", "身份证号码", "マイナンバー", "주민등록번호", "여권번호", "护照号",
    "护照号码",
])  # fmt: skip
# What may stand between the word and the number ("is", ":", "是", "number", "no."), then the
# number: digits with single separators, or a passport-like code of letters and digits.
_ID_VALUE = re.compile(
    r"[\s:=#'\"(：]{0,3}(?:(?:is|are|es|est|ist|è|é|to|jest|je|är|er|on|no\.?|number|nummer|numéro"
    r"|número|numero|是|为|は|는)[\s:=#'\"：]{0,3})?"
    r"(\d(?:[ ./\-]?\d){5,22}|[A-Za-z]{1,3}\d[A-Za-z0-9]{4,14})(?![A-Za-z0-9])"
)
_DROP_DIGITS = str.maketrans("", "", "0123456789")


def _iban(candidate: str) -> int:
    """The length of the valid IBAN ``candidate`` starts with (a trailing word may have joined
    its last group), or 0."""
    while len(candidate) >= 15:
        if iban.is_valid(candidate):
            return len(candidate)
        candidate = candidate.rpartition(" ")[0]
    return 0


def _card(candidate: str) -> bool:
    digits = re.sub(r"\D", "", candidate)
    return 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn.is_valid(digits)


def _shaped(text: str) -> Iterator[Span]:
    for window in _NUMBER_WINDOW.finditer(text):
        for m in _SHAPE.finditer(text, max(0, window.start() - 8), min(len(text), window.end() + 3)):
            shape, value = m.lastgroup or "", m.group()
            kind = _NAMED_KIND.get(shape, "national_id")
            if shape == "iban":
                length = _iban(value)
                if length:
                    yield m.start(), m.start() + length, kind, P_STRUCT
            elif (shape == "card" and _card(value)) or (shape in _VALID and _VALID[shape](value)):
                yield m.start(), m.end(), kind, P_STRUCT


def _named(text: str, lower: str) -> Iterator[Span]:
    """A number of six or more digits right after a word that names an identity number."""
    for _, word_end, _ in _ID_WORDS.find(lower):
        value = _ID_VALUE.match(text, word_end)
        if value is None:
            continue
        start, end = value.span(1)
        if _digits(text[start:end]) >= 6:
            yield start, end, "national_id", P_CONTEXT


def _digits(text: str) -> int:
    return len(text) - len(text.translate(_DROP_DIGITS))


def detect(text: str, lower: str) -> Iterator[Span]:
    if _digits(text) < 6:  # every identifier here holds six digits at least
        return
    yield from _shaped(text)
    yield from _named(text, lower)
