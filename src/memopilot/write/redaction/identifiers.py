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

import functools
import hashlib
import importlib
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType

from stdnum import iban, luhn, numdb
from stdnum.br import cpf
from stdnum.es import dni, nie
from stdnum.exceptions import InvalidChecksum, InvalidLength, ValidationError
from stdnum.fi import hetu
from stdnum.in_ import aadhaar
from stdnum.it import codicefiscale
from stdnum.kr import rrn
from stdnum.pt import cc as pt_cc
from stdnum.se import personnummer
from stdnum.us import itin, ssn

from . import prefilter
from .keywords import KeywordIndex, Substrings, word_list
from .rules import P_CONTEXT, P_STRUCT, Span, _luhn, codes_after_cards, count_digits

__all__ = ["checked_identity_word", "detect", "opens_iban_shape", "passes_checksum"]


def _iban_group(budget: int) -> str:
    """One group of an IBAN in its shape, ``budget`` groups at most (this one too) left for the rest
    of the run of letters and digits it is in: the look-ahead asks what every match has, that run
    taken whole (a match cannot end inside one, and groups hold four characters at most), so it
    changes no match; without it a long run ("ssh-ed25519 AAAAC3Nz...", a hash) is tried in every
    split into groups, a millisecond and more."""
    return rf"(?:(?:[ -]|\r?\n)?(?=[A-Za-z0-9]{{1,{4 * budget}}}(?!\w))[A-Za-z0-9]{{1,4}})"


# Two letters, two check digits, then 11-30 letters and digits, in 3 to 8 groups of up to 4 or not
# (as "(?:group){3,8}", greedy: unrolled, so that each group knows how many may follow it).
_IBAN_SHAPE = (
    r"\b(?=[A-Za-z0-9]{4,36}(?!\w))[A-Za-z]{2}\d{2}"
    + "".join(_iban_group(budget) for budget in (8, 7, 6))
    + "".join(f"(?:{_iban_group(budget)}" for budget in (5, 4, 3, 2, 1))
    + ")?" * 5
    + r"\b"
)
# The shapes, searched only inside the windows where numbers are (one pass of each over a whole
# message would cost ~10 µs per 300 characters each).
_SHAPES = {
    "iban": _IBAN_SHAPE,  # (on two lines too; see above)
    # 13-19 digits in groups separated by one space, dash, dot or line break (plain runs: rules.py),
    # or in Amex's and Diners' groups of 4, 6 and 5 or 4, a line break between two of them
    "card": r"(?<![\d.])\d{4}(?:(?:(?:[ ./\-]|\r?\n)\d{2,4}){2,4}"
    r"|(?:[ ./\-]|\r?\n)\d{6}(?:[ ./\-]|\r?\n)\d{4,5})(?!\d)",
    "ssn": r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)|(?<!\d)\d{3} \d{2} \d{4}(?!\d)",
    "nino": r"\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
    "cpf": r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)",
    "dni": r"\b\d{8}-?[A-Za-z]\b",
    "nie": r"\b[XYZxyz]-?\d{7}-?[A-Za-z]\b",
    "codice": r"\b[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]\b",
    "hetu": r"\b\d{6}[-+A]\d{3}[0-9A-Ya-y]\b",
    "rrn": r"(?<![\d-])\d{6}-\d{7}(?![\d-])",
    "pnr": r"(?<![\d-])(?:\d{2})?\d{6}[-+]\d{4}(?![\d-])",
    "aadhaar": r"(?<!\d)(?<!\d )(?<!\d-)[2-9]\d{3} \d{4} \d{4}(?![ -]?\d)",
    # the United Arab Emirates' identity number: 784, the year of birth, seven digits, a Luhn digit
    "emirates": r"(?<![\d-])784-?\d{4}-?\d{7}-?\d(?![\d-])",
    # Portugal's Cartão de Cidadão: eight digits, a check digit, two letters and a digit
    "pt_cc": r"(?<![\w-])\d{8} ?\d ?[A-Z]{2}\d(?![\w-])",
}
_SHAPE_PATTERNS = {name: re.compile(pattern) for name, pattern in _SHAPES.items()}
# How every IBAN of _IBAN_SHAPE starts: a word's two letters and two check digits.
_IBAN_HEAD = re.compile(r"\b[A-Za-z]{2}\d{2}")
# What a window must hold for a shape to be worth looking for: (digits at least, letters needed).
_NEEDS = {
    "iban": (6, True), "card": (13, False), "ssn": (9, False), "nino": (6, True), "cpf": (11, False),
    "dni": (8, True), "nie": (7, True), "codice": (7, True), "hetu": (9, True), "rrn": (13, False),
    "pnr": (10, False), "aadhaar": (12, False), "emirates": (15, False), "pt_cc": (9, True),
}  # fmt: skip
_NAMED_KIND = {"iban": "iban", "card": "credit_card", "ssn": "us_ssn", "nino": "uk_nino"}
_VALID: dict[str, Callable[[str], bool]] = {
    "ssn": ssn.is_valid, "nino": lambda value: _issued_nino_prefix(value[:2]), "cpf": cpf.is_valid,
    "dni": dni.is_valid, "nie": nie.is_valid, "codice": codicefiscale.is_valid, "hetu": hetu.is_valid,
    "rrn": rrn.is_valid, "pnr": personnummer.is_valid, "aadhaar": aadhaar.is_valid,
    "emirates": lambda value: luhn.is_valid(value.replace("-", "")), "pt_cc": pt_cc.is_valid,
}  # fmt: skip
# A UK National Insurance number's prefix that HMRC issues (its manual, NIM39110): neither letter is
# D, F, I, Q, U or V, the second is not O, and BG, GB, KN, NK, NT, TN and ZZ are never used. "QQ
# 12 34 56 C" is the number HMRC's own forms print as an example.
_NINO_NEVER_ISSUED = frozenset(("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"))


def _issued_nino_prefix(prefix: str) -> bool:
    return (
        len(prefix) == 2
        and prefix.isalpha()
        and prefix[0] not in "DFIQUV"
        and prefix[1] not in "DFIQUVO"
        and prefix.upper() not in _NINO_NEVER_ISSUED
    )


# A character the shape cannot do without (a CPF's dot, a HETU's or personnummer's sign ...).
_NEEDS_CHARS = {
    "cpf": frozenset("."), "hetu": frozenset("-+A"), "rrn": frozenset("-"), "pnr": frozenset("-+"),
    "nie": frozenset("XYZxyz"), "ssn": frozenset("- "), "aadhaar": frozenset(" "),
    # a NINO's last letter (technical text's windows are mostly lowercase hex); a card's groups'
    # separator (its plain runs are rules.py's)
    "nino": frozenset("ABCD"), "card": frozenset(" ./-\n"),
}  # fmt: skip
# The lengths of the runs of digits a shape is made of: each group names the lengths one run of it
# may have (an SSN's "123-45-6789" is runs of 3, 2 and 4). Each shape's pattern bounds those runs
# with non-digits, so an area without them is skipped without trying the pattern (a shape tried
# costs about a microsecond, and technical text has several number windows per message).
_RUNS: dict[str, tuple[frozenset[int], ...]] = {
    "card": (frozenset((4,)),), "ssn": (frozenset((3,)), frozenset((2,)), frozenset((4,))),
    "nino": (frozenset((2, 4, 6)),), "cpf": (frozenset((3,)), frozenset((2,))), "dni": (frozenset((8,)),),
    "nie": (frozenset((7,)),), "codice": (frozenset((2,)), frozenset((3,))),
    "hetu": (frozenset((6,)), frozenset((3, 4))), "rrn": (frozenset((6,)), frozenset((7,))),
    "pnr": (frozenset((6, 8)), frozenset((4,))), "aadhaar": (frozenset((4,)),),
    "pt_cc": (frozenset((8, 9)),),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Shape:
    """One shape of _SHAPES with what a number window must hold for it (the tables above)."""

    name: str
    pattern: re.Pattern[str]
    kind: str
    least_digits: int
    needs_letters: bool
    needs_chars: frozenset[str] | None
    runs: tuple[frozenset[int], ...]
    valid: Callable[[str], bool] | None  # (an IBAN's and a card's own checks are in _shaped)


_SHAPE_LIST = tuple(
    _Shape(
        name,
        _SHAPE_PATTERNS[name],
        _NAMED_KIND.get(name, "national_id"),
        *_NEEDS[name],
        _NEEDS_CHARS.get(name),
        _RUNS.get(name, ()),
        _VALID.get(name),
    )
    for name in _SHAPES
)
_MOST_DIGITS_NEEDED = max(least for least, _ in _NEEDS.values())


@functools.lru_cache(maxsize=4096)
def _shapes_for(digits: int, letters: bool, runs: frozenset[int]) -> tuple[_Shape, ...]:
    """The shapes a window of ``digits`` digits (``_MOST_DIGITS_NEEDED`` at most: more changes
    nothing), with letters or not, whose area holds runs of digits of the lengths ``runs``, can
    hold, in _SHAPES's order: most windows fit few. (Kept per window's description: the same few
    come back, and testing each of the shapes cost more than trying the ones that fit.)"""
    return tuple(
        shape
        for shape in _SHAPE_LIST
        if digits >= shape.least_digits
        and (letters or not shape.needs_letters)
        and not any(map(runs.isdisjoint, shape.runs))
    )


_DIGIT_RUN = re.compile(r"\d+")
_LETTER = re.compile(r"[A-Za-z]")
# Where an identifier can be: six digits or more, each within six characters of the next (the
# shapes are then looked for there, with a few characters more on each side for their letters).
_NUMBER_WINDOW = re.compile(r"\d(?:\D{0,6}+\d){5,}+")  # possessive: \D and \d never overlap
_WINDOW_DIGITS = 6
# Words that name an identity or account number, in the languages users write in (inflected
# forms are matched too: "Fødselsnummeret", "numaram").
# Words that name an identity document whose number is a code of letters and digits.
_LICENCE_WORDS = word_list("""
    driver license|driver's license|drivers license|driver licence|driving licence|driving license|
    licence number|license number|dl number|dl no|dl#|führerschein|führerscheinnummer|
    permis de conduire|carnet de conducir|licencia de conducir|patente di guida|carta de condução|
    rijbewijs|rijbewijsnummer|prawo jazdy
""")
_PASSPORT_NAMES = word_list("""
    passport|passport number|passport no|reisepass|reisepassnummer|passeport|pasaporte|passaporto|
    paszport|pasaport|paspor|паспорт|पासपोर्ट|paspoort|paspoortnummer|passaporte|загранпаспорт|여권번호|护照号|护照号码|旅券番号|パスポート番号|パスポート|護照號碼|護照
""")
# An identity card's number is a code like a passport's ("Ausweisnummer: PVYNFLVRJ6": nine
# characters and an ICAO 9303 check digit, letters and digits alike).
_ID_CARD_NAMES = word_list("""
    ausweisnummer|personalausweisnummer|ausweis-nr|ausweisnr|id card number|identity card number|
    numéro de carte d'identité|numéro de cni|número de documento|número del documento|número de soporte|
    numero carta d'identità|numer dowodu|numer dowodu osobistego|identiteitskaartnummer|documentnummer|
    nr dowodu|nr. dowodu|nr dowodu osobistego|seria i numer dowodu|seria i nr dowodu|číslo op|číslo občanky|
    номер паспорта|номер удостоверения|身分證號
""")
# US licences are named by their state ("California DL H1873381"): "DL" alone is a download too.
_US_STATES = word_list("""
    alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia|hawaii|
    idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|
    minnesota|mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey|new mexico|
    new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|
    south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington|west virginia|
    wisconsin|wyoming
""")
_LICENCE_WORDS += [f"{state} dl" for state in _US_STATES]
_DOCUMENT_KIND = (
    dict.fromkeys(_LICENCE_WORDS, "drivers_license")
    | dict.fromkeys(_PASSPORT_NAMES, "passport")
    | dict.fromkeys(_ID_CARD_NAMES, "national_id")
)
# "My Israeli ID is ...", "South African ID ...", "Belgian national number ...": a country's adjective
# before a plain word for an identity number names the format, and python-stdnum knows its checksum.
# The number must pass it (a plain "ID" names ticket and request numbers as often as anyone's).
_NATIONAL_FORMAT = {
    "israeli": "il.idnr", "south african": "za.idnr", "belgian": "be.nn", "chilean": "cl.rut",
    "estonian": "ee.ik", "turkish": "tr.tckimlik", "french": "fr.nir", "danish": "dk.cpr",
    "norwegian": "no.fodselsnummer", "polish": "pl.pesel", "dutch": "nl.bsn", "german": "de.idnr",
    "irish": "ie.pps", "canadian": "ca.sin", "australian": "au.tfn", "japanese": "jp.in_",
    "korean": "kr.rrn", "south korean": "kr.rrn", "chinese": "cn.ric", "indian": "in_.aadhaar",
    "brazilian": "br.cpf", "swedish": "se.personnummer", "finnish": "fi.hetu", "spanish": "es.dni",
    "italian": "it.codicefiscale", "portuguese": "pt.nif", "czech": "cz.rc", "romanian": "ro.cnp",
    "bulgarian": "bg.egn", "swiss": "ch.ssn", "greek": "gr.amka", "thai": "th.pin",
    "ukrainian": "ua.rntrc", "russian": "ru.inn", "indonesian": "id.nik", "croatian": "hr.oib",
    "icelandic": "is_.kennitala", "lithuanian": "lt.asmens", "mexican": "mx.curp", "argentine": "ar.cuit",
    "argentinian": "ar.cuit", "american": "us.ssn", "british": "gb.nhs",
}  # fmt: skip
_NATIONAL_NUMBER_NAMES = (
    "id",
    "id number",
    "national id",
    "identity number",
    "national number",
    "id card",
    "personal number",
    "id no",
    "identity card number",
    "national identity number",
)
_NATIONAL_WORDS = {
    f"{nationality} {name}": module
    for nationality, module in _NATIONAL_FORMAT.items()
    for name in _NATIONAL_NUMBER_NAMES
}
# A US routing number named in Spanish, French or Portuguese (a direct deposit explained).
_ROUTING_ABROAD = (
    "número de ruta",
    "numero de ruta",
    "número aba",
    "numéro de routage",
    "número de roteamento",
)
_ID_WORDS = KeywordIndex(
    word_list("""
    ssn|social security|social security number|social|soc sec|national id|national identity number|
    national insurance|national insurance number|ni number|nino|id number|identity number|id card|
    personal id|personal number|tax id|tax file number|tax number|tin|tfn|bsn|burgerservicenummer|
    pesel|cpf|dni|nie|nif|codice fiscale|steuer-id|steuerid|identifikationsnummer|
    steueridentifikationsnummer|personalausweis|nir|numéro de sécurité sociale|sécu|aadhaar|sin|
    social insurance number|personnummer|henkilötunnus|hetu|fødselsnummer|tc kimlik|kimlik|tckn|rrn|
    rijksregisternummer|ahv|avs|account number|routing number|bank account|sort code|kontonummer|
    acct|acct#|acc no|routing|rtg|aba|aba routing|checking account|savings account|account|
    card number|номер карты|acc|a/c|a/c no|account no|clabe|cbu|口座番号|conta corrente|c/c|numer konta|
    nr konta|número de cuenta|numéro de compte|rekeningnummer|nric|ppsn|hkid|身分證|身分證字號|身份證|
    身份證號碼|rut|registre national|numéro national|rijksregister|
    número de tarjeta|numéro de carte|kartennummer|nomor kartu|卡号|инн|снилс|рнокпп|іпн|cccd|nik|
    curp|rfc|cpr|cpr-nummer|αμκα|αφμ|cnp|pan|pan card|रक्षा|رقم الهوية|الهوية الوطنية|תעודת זהות|
    เลขบัตรประชาชน|nhs|nhs number|medicare|medicare number|health card|health insurance number|carte vitale|
    pps|pps number|isikukood|personal code|personalnummer|numéro fiscal|steuernummer|
    आधार|身份证|身份证号|身份证号码|マイナンバー|주민등록번호|
    itin|individual taxpayer identification number|nas|numéro d'assurance sociale|
    member id|member number|membership number|subscriber id|policy number|mrn|medical record number|
    medical record|patient id|patient number|health insurance id|rodné číslo|rodného čísla|rodne cislo|
    תעודת הזהות|ת.ז|ת"ז|계좌번호|계좌|账号|帳號|账户|帳戶|口座|普通|当座|số tài khoản|so tai khoan|
    nomor rekening|no rek|no. rek|rekening|číslo účtu|numer rachunku|hesap numarası|iban numarası|
    رقم الحساب|номер счета|номер счёта|पैन|पैन नंबर|पैन कार्ड|pan number|счёт|счет|мой счёт|мой счет|
    рахунок|номер рахунку|खाता|खाता संख्या|खाता नंबर|حساب|حسابي|רקם|מספר חשבון|חשבון|เลขที่บัญชี|บัญชี|
    hesap|hesap no|konto|kontonr|tilinumero|tili|λογαριασμός|αριθμός λογαριασμού|cuit|cuil|
    sozialversicherungsnummer|versicherungsnummer|sv-nummer|svnr|
    krankenversichertennummer|versichertennummer|krankenversicherungsnummer|kvnr|
    oib|egn|егн|emšo|emso|pib|nipt|idno|edrpou|єдрпоу|jmbg|јмбг|матичен број|
    cnpj|ein|employer identification number|utr|unique taxpayer reference|
    rtn|routing transit number|aba rtn|insee|numéro insee|個人番号|idnr|steuer-idnr|
    steuerliche id|steuerliche identifikationsnummer|steuerliche idnr|steuer-identifikationsnummer|tc|t.c.
    """)
    + list(_ROUTING_ABROAD)
    + list(_DOCUMENT_KIND)
    + list(_NATIONAL_WORDS),
    suffix_letters=6,
)
_PASSPORT_WORDS = frozenset(_DOCUMENT_KIND)  # their numbers are codes of letters and digits
# The number: digits with single separators, or (passports) a code of letters and digits.
_ID_NUMBER = re.compile(r"\d(?:[ ./\-]?\d){5,22}[Xx]?(?![A-Za-z0-9])")  # (X: a Chinese id's check)
# A code of letters and digits, perhaps dashed ("CJPFXTH57", "F641-376-50-769-8").
# (A Hong Kong identity card ends with its check digit in brackets: "A575994(6)".)
_PASSPORT_CODE = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9]){5,24}(?:\([0-9A]\))?(?![A-Za-z0-9])")
# A document number in groups: a state's letters and digits, then runs of digits ("DL26 20125368076",
# India's licences: "MH-12 2011 0062821").
_GROUPED_DOCUMENT = re.compile(r"[A-Z]{1,3}-?\d{2,4}(?:[ -]\d{4,}){1,2}(?![A-Za-z0-9])")
# A date in digits; or a day and a year ("before march 13 2027": a month name before them).
_DATE = re.compile(
    r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|(?:[0-2]?\d|3[01]),? (?:19|20)\d\d"
)
_ID_TOKEN = re.compile(r"[^\s\u3000-\u303f\uff00-\uffef]+|[\u3000-\u303f\uff00-\uffef]\S*")
_WORDS_BEFORE_NUMBER = 5
_WORDS_BEFORE_LABELLED = 9  # words read past before a colon and the number


def _iban(candidate: str) -> int:
    """The length of the valid IBAN ``candidate`` starts with (a trailing word may have joined
    its last group), or 0.

    Valid: its country's length and its mod-97 check digits. A country's own check inside the
    account part (Spain's, Norway's, Belgium's) is not asked for: a number that passes mod-97 in
    an IBAN's shape is an account number, and one with a slip in its national digits is still the
    user's (2026-12-05: 3 of 27 IBANs in redaction_check14 failed only that check)."""
    candidate = candidate.replace("\r\n", " ").replace("\n", " ")  # (same length: "\r\n" is never inside)
    length = _iban_length(candidate[:2].upper())

    def valid(start: str) -> bool:
        # (a valid IBAN has its country's length: the mod-97 check, the costly part, is asked only then;
        # an ASCII start's compact length is counted in place, as stdnum's compact() would give it)
        if start.isascii():
            if len(start.translate(_IBAN_SEPARATORS).strip()) != length:
                return False
        elif len(iban.compact(start)) != length:
            return False
        return iban.is_valid(start, check_country=False)

    return _longest_start(candidate, valid)


_IBAN_SEPARATORS = str.maketrans("", "", " -.")  # what stdnum's iban.compact() takes out


def _longest_start(candidate: str, accept: Callable[[str], bool]) -> int:
    """The length of the longest start of ``candidate``, cut at a space or a dash, of 15
    characters at least that ``accept`` takes, or 0."""
    while len(candidate) >= 15:
        if accept(candidate):
            return len(candidate)
        candidate = candidate[: max(candidate.rfind(" "), candidate.rfind("-"), 0)]
    return 0


# Where an IBAN starts: its country code in capitals and two check digits, then a group. Its
# letters may keep the digits further apart than a number window allows ("RO73 BRDE RON2 ...").
# (Written to start with the capital, which `re` skips to in C, and to look behind only there: a
# look-behind first is tried at every position. The same holds for the keys' patterns below.)
_IBAN_START = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Z]\d{2}(?=[ -]?[A-Z0-9]{4})")


def _ibans_from(
    text: str, starts: Iterator[int], length_of: Callable[[str], int], priority: int
) -> Iterator[Span]:
    """IBANs in their shape at ``starts``, as long as ``length_of`` measures them (0: none)."""
    iban_shape = _SHAPE_PATTERNS["iban"]
    for start in starts:
        m = iban_shape.match(text, start)
        length = length_of(m.group()) if m else 0
        if length:
            yield m.start(), m.start() + length, "iban", priority


def _lettered_ibans(text: str, starts: list[int]) -> Iterator[Span]:
    """The valid IBANs at ``starts`` (where _IBAN_START matches)."""
    yield from _ibans_from(text, iter(starts), _iban, P_STRUCT)


# An IBAN under its name whose check digits fail (a slip in copying it, or a made-up one): still the
# user's account when it has its country's length ("new IBAN IE31 2185 8686 6108 8184 64").
_IBAN_LABEL = re.compile(r"(?i)\biban\b[^\w\n]{0,4}(?:(?:(?:is|es|est|ist|é|è|new|nuevo|neue)\b|:)\s*){0,2}")
_IBAN_FIELD = re.compile(r"(\d+)!?[nac]")
_IBANS = numdb.get("iban")


@functools.cache
def _iban_length(country: str) -> int:
    """The length of a country's IBANs (from python-stdnum's registry, as its check reads it), or 0
    for a code that names no country of the registry."""
    info = _IBANS.info(country)[0][1]
    if not info:
        return 0
    return 4 + sum(int(n) for n in _IBAN_FIELD.findall(info.get("bban", "")))


def _iban_of_its_length(candidate: str) -> int:
    """The length of the start of ``candidate`` that has its country's IBAN length, or 0."""
    length = _iban_length(candidate[:2].upper())
    if not length:
        return 0
    return _longest_start(candidate, lambda start: len(iban.compact(start)) == length)


def _iban_shaped_runs(text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Where the text holds a run in an IBAN's shape and of its country's length, its check digits
    right or not: what its digits are is the IBAN checks' to say (``_lettered_ibans``,
    ``_labelled_ibans``). One that fails them is a mistyped account number, never a card whose
    sixteen digits pass Luhn by chance ("IBAN DE02 4911 8625 2760 1895 55 ist ungültig"). ``starts``:
    where _IBAN_START matches."""
    return [(start, start + length) for start in starts if (length := _iban_shape_length(text, start))]


def _iban_shape_length(text: str, start: int) -> int:
    """The length of the run in an IBAN's shape and of its country's length at ``start`` (0: none)."""
    run = _SHAPE_PATTERNS["iban"].match(text, start)
    return _iban_of_its_length(run.group()) if run else 0


def _no_cards_inside(spans: list[Span], runs: list[tuple[int, int]]) -> list[Span]:
    """``spans`` less the cards that lie inside one of ``runs`` (IBAN-shaped runs)."""
    if not runs:
        return spans
    return [
        span
        for span in spans
        if span[2] != "credit_card" or not any(start <= span[0] and span[1] <= end for start, end in runs)
    ]


def opens_iban_shape(text: str, start: int) -> bool:
    """Whether an IBAN-shaped run of its country's length starts at ``start`` (its country code and
    check digits: a token the learned net would read alone)."""
    return _IBAN_START.match(text, start) is not None and _iban_shape_length(text, start) > 0


def _labelled_ibans(text: str) -> Iterator[Span]:
    labels = (m.end() for m in _IBAN_LABEL.finditer(text))
    for span in _ibans_from(text, labels, _iban_of_its_length, P_CONTEXT):
        if not _not_an_account(text, span):
            yield span


# A labelled IBAN is taken at its length alone (a slip in a user's own number still leaks it), but
# not a form's placeholder ("DE00 0000 0000 ..."), nor one the message says fails its check ("the
# bank says IBAN ... is invalid"), when its check digits do fail: no account has that number.
_SAID_INVALID = re.compile(
    r"(?i)\b(?:invalid|not valid|ungültig|nicht gültig|inválid[oa]|no es válid[oa]|invalide|non valid[oa]"
    r"|ongeldig|checksum|prüfziffer|beispiel|example|ejemplo|exemple|esempio|voorbeeld|placeholder|dummy"
    # a slip said so: "doesn't validate", "the check digits are off", "wrong format", "only 10 digits"
    r"|(?:doesn't|does not|won't|didn't|did not) validate|fails? (?:the )?(?:check|validation)"
    r"|check digits? (?:are|is) (?:off|wrong)|mistyped|wrong|falsch|fehlerhaft|erróneo|erroné"
    r"|only \d+ digits|nur \d+ (?:ziffern|stellen))"
)


def _not_an_account(text: str, span: Span) -> bool:
    value = text[span[0] : span[1]]
    if iban.is_valid(value, check_country=False):
        return False
    digits = "".join(c for c in value[4:] if c.isdigit())
    return len(set(digits)) <= 1 or _SAID_INVALID.search(text) is not None


def _card(candidate: str) -> bool:
    digits = _NOT_DIGIT.sub("", candidate)
    if not (13 <= len(digits) <= 19 and digits[0] in "23456"):
        return False
    # (ASCII digits, nearly always: the Luhn sum in place, where stdnum's checks and conversions cost
    # a few microseconds a number; another script's digits go to stdnum, which refuses them)
    return _luhn(digits) if digits.isascii() else luhn.is_valid(digits)


_NOT_DIGIT = re.compile(r"\D")


def _shapes_possible(text: str) -> frozenset[str]:
    """The shapes that can match somewhere in ``text``: their prefilter conditions and two of each
    window's own tests below (an IBAN's head, the Emirates' 784), asked of the whole message once (a
    window's area is a part of it), so that a message where none can, half of the typical ones,
    skips its windows (~18 µs on 300 characters). (The characters a shape needs are left to the
    windows: spaces, dashes and dots are in most messages, and each test read all of it.)"""
    names = _shapes_present(prefilter.present(text))
    if "iban" in names and not _IBAN_HEAD.search(text):
        names -= _IBAN_ALONE
    if "emirates" in names and "784" not in text:
        names -= _EMIRATES_ALONE
    return names


_IBAN_ALONE = frozenset(("iban",))
_EMIRATES_ALONE = frozenset(("emirates",))


@functools.lru_cache(maxsize=1024)
def _shapes_present(present: frozenset[int]) -> frozenset[str]:
    """The names of the shapes whose prefilter condition is among ``present`` (or that have none:
    the IBAN's), kept per set of conditions: few sets come back."""
    return frozenset(
        shape.name
        for shape in _SHAPE_LIST
        if shape.name not in prefilter.SHAPES or prefilter.SHAPES[shape.name] in present
    )


def _shaped(text: str) -> Iterator[Span]:
    # (the prefilter's NUMBER_WINDOW condition is left out of its set, so it always may hold: the
    # caller's count of six digits is this step's gate)
    possible = _shapes_possible(text)
    if not possible:
        return
    for window in _NUMBER_WINDOW.finditer(text):
        start, end = max(0, window.start() - 8), min(len(text), window.end() + 3)
        digits = _digits(window.group())
        # letters that can belong to an identifier: inside the window or right before it
        letters = _LETTER.search(text, max(0, window.start() - 2), window.end() + 1) is not None
        if digits < 9 and not letters:
            continue  # a date, a time, an amount: every shape of nine digits or fewer needs letters
        area = text[start:end]
        runs = frozenset(map(len, _DIGIT_RUN.findall(area)))
        for shape in _shapes_for(min(digits, _MOST_DIGITS_NEEDED), letters, runs):
            if shape.name not in possible:
                continue  # (no match of it anywhere in the message)
            if shape.needs_chars is not None and shape.needs_chars.isdisjoint(area):
                continue
            if shape.name == "emirates" and "784" not in area:
                continue
            if shape.name == "iban" and not _IBAN_HEAD.search(text, start, end):
                continue  # (the whole shape costs a few times more to fail: hashes are tried often)
            yield from _shape_matches(text, shape, start, end)


def _shape_matches(text: str, shape: _Shape, start: int, end: int) -> Iterator[Span]:
    for m in shape.pattern.finditer(text, start, end):
        value = m.group()
        if shape.name == "iban":
            length = _iban(value)
            if length:
                yield m.start(), m.start() + length, shape.kind, P_STRUCT
        elif (shape.name == "card" and _card(value)) or (
            shape.valid is not None and shape.valid(value) and not _public_number(text, m.start())
        ):
            yield m.start(), m.end(), shape.kind, P_STRUCT


# Numbers named as a parcel's, an order's or a booking's: a checksum of 10 possible digits passes
# by chance once in ten ("FedEx says tracking 7790 3412 8856" is not an Aadhaar).
_PUBLIC_NUMBER_BEFORE = re.compile(
    r"(?i)(?:tracking|track|parcel|shipment|order|invoice|booking|confirmation|reference|ref|ticket|"
    r"case|rma|po|serial|imei|isbn|phone|tel|fax|mobile)\b[\w\s#:.-]{0,12}$"
)


# A label that ends in a reference's, an order's or an invoice's word, right before the number (a
# compound's last part names it: "Kontoauszug-Referenz", "Konto-Bestellnummer").
_REFERENCE_LABEL = re.compile(
    r"(?i)(?:referenz|reference|référence|referencia|riferimento|referência|referentie|referens"
    r"|referanse|bestellnummer|rechnungsnummer|sendungsnummer|order number|invoice number)"
    r"(?:[ \t]*(?:no\.?|nr\.?|number|#))?[ \t]*[:#][ \t]*$"
)


def _public_number(text: str, start: int) -> bool:
    return _PUBLIC_NUMBER_BEFORE.search(text, max(0, start - 32), start) is not None


def _named(text: str, lower: str) -> Iterator[Span]:
    """A number right after a word that names an identity number (a few words may stand between:
    "Meine Steuer-ID lautet ...", "BSN-nummer van mijn zoon: ..."), or just before it when it
    passes the word's checksum ("3273805003545656 - that's my NIK")."""
    for word_start, word_end, word in _ID_WORDS.find(lower):
        if word == "ein" and text[word_start:word_end] != "EIN":
            continue  # German's "ein" (a, one); the employer number is written in capitals
        if word in ("tc", "t.c.") and not text.startswith(("TC", "T.C."), word_start):
            continue  # (in capitals: the Turkish Republic's; "tc" is other things in lowercase)
        if word == "idnr" and lower.endswith(("ust-", "ust.", "ust ", "umsatzsteuer-"), 0, word_start):
            continue  # a company's VAT number ("USt-IdNr. DE..."), printed on its invoices
        if word in _NEEDS_BANK and not _BANK_CONTEXT.search(lower):
            continue  # "account 123456789012" is an AWS account or a customer number, unless at a bank
        if word in _NEEDS_HEALTH and not _HEALTH_CONTEXT.search(lower):
            continue  # a gym's membership number, a car's insurance policy: a health plan's are identities
        if word in _TAX_WORDS and _COMPANY_BEFORE.search(lower, max(0, word_start - 40), word_start + 48):
            continue  # a company's tax number, printed on its invoices and its imprint
        before = _number_before(text, word_start, word)
        if before is not None:
            yield before
        owned = _OWNER_BEFORE.search(lower, max(0, word_start - 12), word_start) is not None
        found = _number_after(text, word_end, word, owned=owned)
        if found is not None and word in _NINO_WORDS and _unissued_prefix_before(text, found[0]):
            continue  # "the sample NINO is QQ 98 76 54 B": a prefix never issued, an example's
        if found is not None and _REFERENCE_LABEL.search(text, max(0, found[0] - 24), found[0]):
            continue  # "Kontoauszug-Referenz: ...": the label's last word says what the number is
        if found is not None:
            yield found
            if word in _ROUTING_WORDS and _checksum_module(word).is_valid(text[found[0] : found[1]]):
                yield from _account_beside(text, word_start, found)


# The words that name a UK National Insurance number, whose digits follow its two-letter prefix.
_NINO_WORDS = frozenset(("nino", "ni number", "national insurance", "national insurance number"))
_NINO_PREFIX_BEFORE = re.compile(r"(?<![A-Za-z])([A-Za-z]{2}) ?$")


def _unissued_prefix_before(text: str, start: int) -> bool:
    """Whether the digits at ``start`` follow a NINO prefix that HMRC never issues."""
    prefix = _NINO_PREFIX_BEFORE.search(text, max(0, start - 3), start)
    return prefix is not None and not _issued_nino_prefix(prefix.group(1).upper())


# The speaker's own number ("my SSN is ...", "我的身份证号是..."), given right after its name, is theirs
# even when its check digit has a slip (the booking site then says it is wrong), as a form's is.
_OWNER_BEFORE = re.compile(
    r"(?:\b(?:my|mi|meu|minha|mon|ma|mein|meine|meinen|mijn|mio|mia|min|mitt|mit|mój|moja|moje|мой|моя|мій)"
    r"\s+(?:own\s+)?|我的|私の|僕の|나의 ?|내 ?|제 ?)$"
)
_OWNED_WITHIN = 2  # tokens between the name and the number: "my SSN is ...", "mi DNI es ..."


def _number_after(text: str, word_end: int, word: str, *, owned: bool = False) -> Span | None:
    labelled = False  # the token before ended with a colon
    for position, token in enumerate(_ID_TOKEN.finditer(text, word_end, min(len(text), word_end + 120))):
        has_digit = any(c.isdigit() for c in token.group())
        if position > _WORDS_BEFORE_NUMBER and not labelled:
            # past a few words, a number only right after a colon ("TFN for the form at work: ...")
            if has_digit or position >= _WORDS_BEFORE_LABELLED:
                return None
            labelled = token.group().endswith((":", "："))
            continue
        found = _number_at(text, token.start(), token.end(), word, owned=owned and position < _OWNED_WITHIN)
        if found is None and has_digit and _FORM_NAME.fullmatch(token.group()):
            labelled = token.group().endswith((":", "："))
            continue  # "SIN for the T4: ...", "SSN on the W-2: ...": the form it goes on, then the number
        if found is None and has_digit and _FORM_NAME_SPACED.match(text, token.start()):
            continue  # French spacing, "... pour la déclaration T4 : ...": the colon is the next token
        if found is not None or has_digit or position >= _WORDS_BEFORE_LABELLED:
            return found
        labelled = token.group().endswith((":", "："))
    return None


# A tax form's or a document's short name, a letter or two and a number ("T4", "W-2", "P60",
# "1099-NEC" is digits first: not one), said as a label between an identity's name and its number.
_FORM_NAME = re.compile(r"[A-Z]{1,3}-?\d{1,4}[:：]")
_FORM_NAME_SPACED = re.compile(r"[A-Z]{1,3}-?\d{1,4}[ \u00a0\u202f][:：](?!\S)")


# A number that ends shortly before an identity word, with no digit between ("ok here it is:
# 3273805003545656\nthat's my NIK"): the word's checksum must pass, in full (any 9 to 11 digits pass
# some checksum by chance, so a word without one, or a bank's routing check, takes none before it).
_NUMBER_BEFORE = re.compile(r"(?<![\w.-])(\d(?:[ ./\-]?\d){5,22})(?![\w])\D{0,48}$")
_ROUTING_WORDS = frozenset(
    (
        "routing",
        "routing number",
        "aba",
        "aba routing",
        "rtn",
        "routing transit number",
        "aba rtn",
        *_ROUTING_ABROAD,
    )
)
_REACH_BEFORE = 72
_LEAST_DIGITS_BEFORE = 6


def _number_before(text: str, word_start: int, word: str) -> Span | None:
    if word not in _CHECKSUM_OF or word in _ROUTING_WORDS:
        return None
    reach = max(0, word_start - _REACH_BEFORE)
    if count_digits(text[reach:word_start]) < _LEAST_DIGITS_BEFORE:
        return None  # (most words have no number before them: the search is skipped)
    m = _NUMBER_BEFORE.search(text, reach, word_start)
    if m is None or _public_number(text, m.start(1)) or not _checksum_module(word).is_valid(m.group(1)):
        return None
    return m.start(1), m.end(1), "national_id", P_CONTEXT


# The account a routing number is given with, on either side of it ("my paycheck goes to
# 105909581028 (routing 014335499)", "routing 011000015 acct 4021887731"): a run of 6-17 digits.
_ACCOUNT_NUMBER = re.compile(r"(?<![\d.,/-])\d{6,17}(?![\d/-]|[.,]\d)")
_ACCOUNT_REACH = 48


def _account_beside(text: str, word_start: int, routing: Span) -> Iterator[Span]:
    for m in _ACCOUNT_NUMBER.finditer(text, max(0, word_start - _ACCOUNT_REACH), routing[1] + _ACCOUNT_REACH):
        if m.start() != routing[0] and not _public_number(text, m.start()):
            yield m.start(), m.end(), "bank_account", P_CONTEXT


def _number_at(text: str, start: int, end: int, word: str, *, owned: bool = False) -> Span | None:
    """The identity number (or document code) the token at ``start:end`` holds, for ``word``."""
    at = start
    while at < end and not (text[at].isdigit() or (text[at].isascii() and text[at].isalpha())):
        at += 1  # "：E42692959", "#019", "是330106..."
    number = _ID_NUMBER.match(text, at)
    if number and _digits(number.group()) >= 6 and not _DATE.fullmatch(number.group()):
        if word in _CARD_WORDS and _failed_card_number(number.group()):
            return None  # "card number 5322 ... is invalid": a mistyped card, and no identity number
        if word in _SSN_WORDS and _unissued_ssn(number.group()) and not owned:
            return None  # "SSN validation: 000-12-3456 must be rejected": a number never issued
        if (
            not _passes_its_checksum(word, number.group())
            and not _form_field(text, number, word)
            and not (owned and word not in _CHECKSUM_REQUIRED)
        ):
            return None  # "CPF 967.773.386-80 é inválido": the word names a number that fails
        if (
            word in _CHECKSUM_OF
            and not owned
            and _SAID_INVALID.search(text)
            and not _checksum_module(word).is_valid(number.group())
            and not _form_field(text, number, word)
        ):
            return None  # "wrong BSN in row 4: 12345678 (only 8 digits)": of another length, said wrong
        return number.start(), number.end(), "national_id", P_CONTEXT
    code = _PASSPORT_CODE.match(text, at)
    if word in _PASSPORT_WORDS:
        code = _GROUPED_DOCUMENT.match(text, at) or code
    if code and _id_code(code.group(), word in _PASSPORT_WORDS):
        if word in _CHECKSUM_REQUIRED and not _checksum_module(word).is_valid(code.group()):
            return None  # a word that names other things too: its number must pass
        if _wrong_check_character(word, code.group()) and not owned and not _form_field(text, code, word):
            return None  # "el DNI 47382915K sale como incorrecto": its letter is not the number's
        return code.start(), code.end(), _DOCUMENT_KIND.get(word, "national_id"), P_CONTEXT
    return None


# A US Social Security number's area, group and serial are never 000, 666 or 9xx, 00 and 0000 (and
# a few numbers printed in ads are void): python-stdnum knows both. A 9xx number is an ITIN then.
_SSN_WORDS = frozenset(("ssn", "social security", "social security number", "soc sec"))
_SSN_SHAPE = re.compile(r"\d{3}([- ]?)\d{2}\1\d{4}")


def _unissued_ssn(number: str) -> bool:
    if _SSN_SHAPE.fullmatch(number) is None:
        return False
    digits = number.replace("-", "").replace(" ", "")
    return not ssn.is_valid(digits) and not itin.is_valid(digits)


# Words that name a payment card's number: a number of a card's length under one that fails the Luhn
# check is a card mistyped (the shop said so), not an identity number, and no card either.
_CARD_WORDS = frozenset(
    word_list("card number|номер карты|número de tarjeta|numéro de carte|kartennummer|nomor kartu|卡号")
)
_CARD_LENGTHS = range(13, 20)


def _failed_card_number(number: str) -> bool:
    digits = "".join(c for c in number if c.isdigit())
    return len(digits) in _CARD_LENGTHS and not luhn.is_valid(digits)


# Identity words whose code of digits and letters ends in a check character python-stdnum computes
# (Spain's DNI, NIE and NIF, Italy's codice fiscale, Mexico's CURP): a code in the format whose
# check character is wrong is no one's number ("el DNI 47382915K ... la letra no corresponde"),
# unless the speaker gives it as their own or a form files it (see _number_at).
_CHECK_CHARACTER_OF = {
    "dni": "es.nif", "nie": "es.nif", "nif": "es.nif", "codice fiscale": "it.codicefiscale",
    "curp": "mx.curp",
}  # fmt: skip


def _wrong_check_character(word: str, code: str) -> bool:
    name = _CHECK_CHARACTER_OF.get(word)
    if name is None:
        return False
    try:
        importlib.import_module(f"stdnum.{name}").validate(code)
    except InvalidChecksum:
        return True
    except ValidationError:
        return False  # another format (a passport's number under "DNI"): not for this check to judge
    return False


# Identity words whose number has a checksum python-stdnum knows (module under stdnum).
_CHECKSUM_OF = {
    "cpf": "br.cpf", "pesel": "pl.pesel", "bsn": "nl.bsn", "burgerservicenummer": "nl.bsn",
    "tc kimlik": "tr.tckimlik", "kimlik": "tr.tckimlik", "tckn": "tr.tckimlik",
    "tc": "tr.tckimlik", "t.c.": "tr.tckimlik", "steuerliche id": "de.idnr",
    "steuerliche identifikationsnummer": "de.idnr", "steuerliche idnr": "de.idnr",
    "steuer-identifikationsnummer": "de.idnr",
    "aadhaar": "in_.aadhaar", "आधार": "in_.aadhaar",
    "sin": "ca.sin", "social insurance number": "ca.sin", "nhs": "gb.nhs", "nhs number": "gb.nhs",
    "personnummer": "se.personnummer", "hetu": "fi.hetu", "henkilötunnus": "fi.hetu",
    "fødselsnummer": "no.fodselsnummer", "rrn": "kr.rrn", "주민등록번호": "kr.rrn", "cnp": "ro.cnp",
    "cpr": "dk.cpr", "cpr-nummer": "dk.cpr", "αμκα": "gr.amka", "curp": "mx.curp", "nik": "id.nik",
    "инн": "ru.inn", "steueridentifikationsnummer": "de.idnr", "identifikationsnummer": "de.idnr",
    "routing": "us.rtn", "routing number": "us.rtn", "aba": "us.rtn", "aba routing": "us.rtn",
    "steuer-id": "de.idnr", "steuerid": "de.idnr", "rijksregisternummer": "be.nn", "ahv": "ch.ssn",
    "avs": "ch.ssn", "身份证": "cn.ric", "身份证号": "cn.ric", "身份证号码": "cn.ric",
    "תעודת זהות": "il.idnr", "itin": "us.itin", "tfn": "au.tfn", "tax file number": "au.tfn",
    "nas": "ca.sin", "numéro d'assurance sociale": "ca.sin", "rut": "cl.rut", "身份證": "cn.ric",
    "registre national": "be.nn", "numéro national": "be.nn", "rijksregister": "be.nn",
    "เลขบัตรประชาชน": "th.pin", "рнокпп": "ua.rntrc", "rodné číslo": "cz.rc", "rodného čísla": "cz.rc",
    "rodne cislo": "cz.rc", "תעודת הזהות": "il.idnr", "ת.ז": "il.idnr", 'ת"ז': "il.idnr",
    "cuit": "ar.cuit", "cuil": "ar.cuit",
    # local abbreviations of identity and tax numbers (Croatia, Bulgaria, Slovenia, Serbia, Albania,
    # Moldova, Ukraine): short words that name other things too, so their checksum must pass
    "oib": "hr.oib", "egn": "bg.egn", "егн": "bg.egn", "emšo": "si.emso", "emso": "si.emso",
    "pib": "rs.pib", "nipt": "al.nipt", "idno": "md.idno", "edrpou": "ua.edrpou", "єдрпоу": "ua.edrpou",
    "jmbg": "si.emso", "јмбг": "si.emso", "матичен број": "si.emso",  # (JMBG: EMŠO's format)
    # a Brazilian company's CNPJ, a US employer's EIN, a UK taxpayer's UTR (2026-12-06: "EIN" is a
    # German article too; it is read only in capitals, and its number must pass)
    "cnpj": "br.cnpj", "ein": "us.ein", "employer identification number": "us.ein", "utr": "gb.utr",
    "unique taxpayer reference": "gb.utr",
    # a US routing number under its abbreviation, "RTN" (routing transit number)
    "rtn": "us.rtn", "routing transit number": "us.rtn", "aba rtn": "us.rtn",
    # the same said in Spanish, French or Portuguese (a US account's direct deposit, explained)
    **dict.fromkeys(_ROUTING_ABROAD, "us.rtn"),
    # France's social security number under the institute that issues it ("N° INSEE"), which names
    # its codes of places and firms too; Japan's individual number (マイナンバー) by its legal name
    "insee": "fr.nir", "numéro insee": "fr.nir", "個人番号": "jp.in_",
    # Germany's tax identification number under its official abbreviation ("IdNr.", "Steuer-IdNr.")
    "idnr": "de.idnr", "steuer-idnr": "de.idnr",
} | _NATIONAL_WORDS  # fmt: skip


# Words that name other things too ("the NAS is on 192.168.1.42": a network drive): their number
# must pass the checksum, whatever its length.
_CHECKSUM_REQUIRED = frozenset(
    (
        *("nas", "oib", "egn", "emso", "pib", "nipt", "idno", "edrpou", "jmbg", "ein", "rtn", "idnr"),
        *("tc", "t.c."),  # (Turkish: the Republic's initials, "TC 1...", as people give the number)
        *("insee", "numéro insee", *_NATIONAL_WORDS),
    )
)
_BANK_CONTEXT = Substrings(
    word_list("""
    routing|transit|sort code|iban|bank|deposit|wire|swift|checking|savings|ifsc|bsb|transfer|refund|
    銀行|振込|은행|송금|银行|銀行|转账
    """)
)
# Numbers of a plan or a membership: a person's identity where a health plan is spoken of (a member
# number on an insurance card), a club's, a shop's or a car insurer's number elsewhere. ("Member ID"
# is a health plan's word: it stays an identity wherever it stands.)
_NEEDS_HEALTH = frozenset(("member number", "membership number", "subscriber id", "policy number"))
_HEALTH_CONTEXT = Substrings(
    word_list("""
    health|medical|patient|dental|clinic|hospital|doctor|pharmacy|medicare|medicaid|hmo|ppo|
    aetna|cigna|humana|kaiser|blue cross|bcbs|anthem|aok|barmer|techniker|insurance card|
    krankenkasse|krankenversicherung|santé|mutuelle|salud|sanitari|saúde|zorgverzeker|
    医療|保険証|의료|医保|медицин|полис омс
    """)
)
# Tax numbers, which a company's are too: public when the company is said to hold it ("die
# Steuernummer der Firma", "our company's tax number", "the GmbH's tax ID").
_TAX_WORDS = frozenset(("tax id", "tax number", "steuernummer", "numéro fiscal", "nif", "tin"))
_COMPANY_BEFORE = re.compile(
    r"(?i)\b(?:company|company's|firma|der firma|unternehmens?|gmbh|ltd|llc|inc|corp|société|empresa|"
    r"azienda|bedrijf|impressum|imprint|vendor|supplier|lieferant)\b"
)

# Words that name other numbers too, unless a bank is spoken of ("普通" is "ordinary" in Japanese,
# and the kind of a bank account before its number: "普通 2750922").
_NEEDS_BANK = frozenset(("account", "acc", "a/c", "a/c no", "account no", "普通", "当座", "口座", "계좌"))


def _id_code(code: str, passport: bool) -> bool:
    """A code of letters and digits after an identity word: a passport's ("L87834324"), an Indian
    PAN ("GYTPV8665C"), a Mexican CURP. Letters must be few enough not to make it a word."""
    digits = _digits(code)
    if len(code.replace("-", "")) == digits:
        return False  # digits alone (with dashes: a date) are _ID_NUMBER's, checked there
    if sum(c in "xX*•" for c in code) >= 4:
        return False  # a masked number: "XXXX-XXXX-XXXX-9921"
    if passport:  # a German passport may hold one digit among capitals: "CJFMG2WPT"
        return digits >= 2 or (digits == 1 and code.isupper() and 8 <= len(code) <= 10)
    letters = len(code) - digits
    # one letter before or after six digits or more (Taiwan's "F285366158", Ireland's "5435670R")
    return 8 <= len(code) <= 20 and digits >= 3 and (letters >= 2 or (letters == 1 and digits >= 6))


# A field of a form or a record: the name, a colon, and the number filling the rest of its line or
# of its clause ("身份证号码：…，请帮我订票": the number, then what to do with it).
_FIELD_BEFORE = re.compile(r"[:：][ \t]*$")
_FIELD_AFTER = re.compile(r"[ \t]*(?:\r?\n|$|[,;.，；。、](?!\d))")


def _form_field(text: str, number: re.Match[str], word: str) -> bool:
    """A number filed under its name ("Aadhaar: 6979 8887 6767" on a patient's intake form) is the
    person's even when its check digit has a slip, as an IBAN's national digits may (``_iban``).
    Words that name other things too must still see their checksum pass."""
    return (
        word not in _CHECKSUM_REQUIRED
        and _FIELD_BEFORE.search(text, max(0, number.start() - 8), number.start()) is not None
        and _FIELD_AFTER.match(text, number.end()) is not None
    )


def _checksum_module(word: str) -> ModuleType:
    return importlib.import_module(f"stdnum.{_CHECKSUM_OF[word]}")


def checked_identity_word(name: str) -> str | None:
    """The identity word in ``name`` (lowercased: a table column's) whose checksum python-stdnum
    knows ("steuer-id", "pesel", "sin"), or None."""
    return next((word for _, _, word in _ID_WORDS.find(name) if word in _CHECKSUM_OF), None)


def passes_checksum(word: str, number: str) -> bool:
    """Whether ``number`` passes the checksum of the identity ``word`` names (a word of
    :func:`checked_identity_word`)."""
    return bool(_checksum_module(word).is_valid(number))


def _passes_its_checksum(word: str, number: str) -> bool:
    """Whether ``number`` is valid for the identity ``word`` names (True when no checksum is known,
    or the number has another length than the word's: it may be some other number of the person)."""
    if word not in _CHECKSUM_OF:
        return True
    module = _checksum_module(word)
    if word in _CHECKSUM_REQUIRED:
        return bool(module.is_valid(number))
    try:
        module.validate(number)
    except InvalidLength:
        return True
    except ValidationError:
        return False
    return True


def _digits(text: str) -> int:
    return count_digits(text)


# A card sent in two halves ("first 8 digits are 49296949 and the last 8 are 90536567"): two runs
# of eight digits that make a card number together, in the order written; not groups of a longer
# number written with dashes ("ISBN 978-2-6189-6927-6": one in ten such pairs passes Luhn).
# (The look-behinds follow the first digit: a pattern that starts with one is skipped to in C.)
# Nor digits inside a hex id ("dea9c43a-6068-4486-bbc8-1d1c28374115": a UUID's groups), which
# a Latin letter, a digit or a dash touches.
_EIGHT_DIGITS = re.compile(r"\d(?<![\w-]\d)(?<!\d[.,]\d)\d{3}[ -]?\d{4}(?![\w-]|[.,]\d)", re.ASCII)


def _card_halves(text: str) -> Iterator[Span]:
    runs = list(_EIGHT_DIGITS.finditer(text)) if prefilter.may(prefilter.EIGHT_DIGITS, text) else []
    for first, second in itertools.pairwise(runs):
        if _card(re.sub(r"\D", "", first.group() + second.group())):
            yield first.start(), first.end(), "credit_card", P_STRUCT
            yield second.start(), second.end(), "credit_card", P_STRUCT


# A card's verification code under its name (CVV, CVC, CID, "security code" ...): three or four
# digits, with a few characters (": ", " is ", "#") between.
_CARD_CODE_NAMES = KeywordIndex(
    word_list("""
    cvv|cvv2|cvc|cvc2|cvn|cav2|csc|cid|security code|sec code|card code|card verification code|
    card verification value|código de seguridad|codigo de seguridad|código cvv|cryptogramme|
    cryptogramme visuel|code on the back|number on the back|digits on the back|kartenprüfnummer|
    prüfnummer|prüfziffer|codice di sicurezza|código de segurança|
    安全码|セキュリティコード|보안코드
    """)
)
_CARD_CODE = re.compile(r"[^\w\n]{0,3}(?:(?:is|es|est|ist|é|è)\s+)?(\d{3,4})(?![\d/])")


def _card_codes(text: str, lower: str, cards: list[Span], digits: int) -> Iterator[Span]:
    for _, name_end, name in _CARD_CODE_NAMES.find(lower):
        if name == "cid" and digits < 13:
            continue  # "CID" names other things too; with a card in the message it is Amex's code
        m = _CARD_CODE.match(text, name_end)
        if m:
            yield m.start(1), m.end(1), "card_security_code", P_CONTEXT
    yield from codes_after_cards(text, cards)  # the cards in groups found here (rules.py: its own)


# The MICR line printed at the bottom of a cheque: ⑆routing⑆ account⑈ cheque number.
_MICR = re.compile(r"⑆\s*(\d{9})\s*⑆|(\d{4,17})\s*⑈")


def _cheque_line(text: str) -> Iterator[Span]:
    for m in _MICR.finditer(text):
        group = 1 if m.group(1) else 2
        yield m.start(group), m.end(group), "bank_account", P_STRUCT


# An ACH entry detail record (NACHA's file format, record type "6"): the transaction code (22-39 for
# a checking or savings account, 41-56 for a general ledger or loan), the receiving bank's routing
# number (eight digits and its ABA check digit), the account number (up to 17 characters), then the
# amount (ten digits). The file lays the fields side by side in fixed columns; a message may space
# them. Found where the message says ACH or NACHA.
_ACH_ENTRY = re.compile(
    r"(?m)(?:^|(?<=[\s:]))6[ \t]?(?:2[2-46-9]|3[2-46-9]|4[1-9]|5[1-6])[ \t]?(\d{9})[ \t]?"
    r"([0-9A-Za-z-]{4,17})[ \t]*\d{10}(?!\d)"
)
_ACH_WORD = re.compile(r"\b(?:ach|nacha)\b")


def _ach_entries(text: str) -> Iterator[Span]:
    for m in _ACH_ENTRY.finditer(text):
        if _checksum_module("routing").is_valid(m.group(1)):
            yield m.start(1), m.end(1), "bank_account", P_STRUCT
            yield m.start(2), m.end(2), "bank_account", P_STRUCT


# UK bank details as people pass them on: a sort code (two digits, dash, two, dash, two) and an
# eight-digit account number beside it, in either order, perhaps named ("Tariq Haddad / 36-15-30 /
# 34909776", "sort code 66-24-26, account number 13228938"). A sort code alone names a bank's
# branch ("40-47-84 is HSBC"), and a date has its shape; beside eight digits it is an account's.
# (Found from its middle, "-dd-": a pattern that starts with a literal is scanned for in C; one
# that starts with a digit is tried at every position, ~13 µs a message.)
_SORT_CODE_MIDDLE = re.compile(r"-\d\d-")
_SORT_CODE = re.compile(r"(?<![\d-])\d\d-\d\d-\d\d(?![\d-])")
_ACCOUNT_NAME = r"(?:(?i:account|acct|acc|a/c)(?:[ \t]*(?i:number|no\.?|nr\.?|#))?[ \t]*[:#]?[ \t]*)?"
_SORT_CODE_NAME = r"(?:(?i:sort[ \t-]?code)[ \t]*:?[ \t]*)?"
_UK_ACCOUNT_AFTER = re.compile(rf"[ \t]*[/,;|]?[ \t]*{_ACCOUNT_NAME}(\d{{8}})(?![\d-])")
_UK_ACCOUNT_BEFORE = re.compile(rf"(?<![\d-])(\d{{8}})[ \t]*[/,;|]?[ \t]*{_SORT_CODE_NAME}$")


def _uk_bank_details(text: str) -> Iterator[Span]:
    for middle in _SORT_CODE_MIDDLE.finditer(text) if prefilter.may(prefilter.SORT_CODE_MIDDLE, text) else ():
        code = _SORT_CODE.match(text, middle.start() - 2) if middle.start() >= 2 else None
        if code is None:
            continue
        account = _UK_ACCOUNT_AFTER.match(text, code.end()) or _UK_ACCOUNT_BEFORE.search(
            text, max(0, code.start() - 32), code.start()
        )
        if account is not None:
            yield code.start(), code.end(), "bank_account", P_STRUCT
            yield account.start(1), account.end(1), "bank_account", P_STRUCT


# A bank branch's code under its name, the way each country's payee details name it: Australia's
# BSB (six digits, "062-000"), Canada's transit (five digits) and institution (three) numbers, India's
# IFSC (four letters, a zero, six letters or digits). Alone it names a branch, public like a sort
# code; beside an account number (either side, a few words apart) it is half of the account's
# details, and both go ("BSB 633-000 acc 71220398", "transit 00142, institution 003, account 5120934").
# Canada's two numbers are also written as one, the way a void cheque's MICR line and a payroll form
# join them: "transit/institution 51587-004" (or "institution/transit").
_BRANCH_HINTS = Substrings(("bsb", "transit", "institution", "ifsc"))
_BRANCH_LABEL = r"(?:[ \t]*(?:number|no\.?|nr\.?|code|#))?[ \t]*[:#=]?[ \t]*"
_BRANCH_CODE = re.compile(
    rf"\bbsb{_BRANCH_LABEL}(\d{{3}}[ -]?\d{{3}})(?![\d-])"
    rf"|\btransit{_BRANCH_LABEL}(\d{{5}})(?![\d-])"
    rf"|\binstitution{_BRANCH_LABEL}(\d{{3}})(?![\d-])"
    rf"|\bifsc{_BRANCH_LABEL}([a-z]{{4}}0[a-z0-9]{{6}})(?![a-z0-9])"
    rf"|\btransit[ \t]*[/&-][ \t]*institution{_BRANCH_LABEL}(\d{{5}}[ -]?\d{{3}})(?![\d-])"
    rf"|\binstitution[ \t]*[/&-][ \t]*transit{_BRANCH_LABEL}(\d{{3}}[ -]?\d{{5}})(?![\d-])"
)


def _branch_codes(text: str, lower: str) -> Iterator[Span]:
    for m in _BRANCH_CODE.finditer(lower):
        group = m.lastindex or 0
        code = (m.start(group), m.end(group), "bank_account", P_CONTEXT)
        # "transit" and "institution" are ordinary words too: their account must be named one
        named = group in (2, 3, 5, 6)
        accounts = [
            a
            for a in _account_beside(text, m.start(), code)
            if not (a[0] < code[1] and code[0] < a[1])
            and not _BRANCH_CODE_BEFORE.search(lower, max(0, a[0] - 24), a[0])
            and (not named or _ACCOUNT_WORD_BEFORE.search(lower, max(0, a[0] - 24), a[0]))
        ]
        if accounts:
            yield code
            yield from accounts


# (a transit number beside an institution number is no account: "transit 08511, institution 001")
_BRANCH_CODE_BEFORE = re.compile(r"(?:bsb|transit|institution|ifsc)\b[^\d\n]{0,16}$")
_ACCOUNT_WORD_BEFORE = re.compile(r"(?:account|acct|acc|a/c|compte)\b[^\d\n]{0,12}$")


# A Japan Post Bank (ゆうちょ銀行) account: its symbol (記号, five digits) and number (番号, up to
# eight), labelled apart ("記号 14480 番号 88326201") or together ("記号番号 14480-88326201").
_JAPAN_POST_ACCOUNT = re.compile(
    r"記号[\s:：]*(\d{5})[\s,、]*番号[\s:：]*(\d{6,8})(?!\d)|記号番号[\s:：]*(\d{5})[\s\-ー−‐]?(\d{6,8})(?!\d)"
)


def _japan_post_accounts(text: str) -> Iterator[Span]:
    for m in _JAPAN_POST_ACCOUNT.finditer(text):
        first = 1 if m.group(1) else 3
        yield m.start(first), m.end(first), "bank_account", P_STRUCT
        yield m.start(first + 1), m.end(first + 1), "bank_account", P_STRUCT


# The second line of a passport's (or a visa's) machine-readable zone (ICAO 9303, TD3 and TD2):
# the document number and its check digit, nationality, birth date and expiry each with theirs.
_MRZ_LINE = re.compile(r"(?<![A-Z0-9<])([A-Z0-9<]{9})(\d)[A-Z<]{3}(\d{6})(\d)[MFX<](\d{6})(\d)")
_MRZ_WEIGHTS = (7, 3, 1)


def _mrz_check(field: str) -> str:
    """ICAO 9303's check digit: digits at face value, A-Z as 10-35, "<" as 0, weighted 7, 3, 1."""
    total = 0
    for i, ch in enumerate(field):
        value = 0 if ch == "<" else int(ch) if ch.isdigit() else ord(ch) - 55
        total += value * _MRZ_WEIGHTS[i % 3]
    return str(total % 10)


# An identity card's zone (TD1: three lines of 30): the first line holds the document number after
# the document's type and issuing state, the second the birth date, sex and expiry, each checked.
_MRZ_TD1_NUMBER = re.compile(r"(?<![A-Z0-9<])[ACI][A-Z<][A-Z<]{3}([A-Z0-9<]{9})(\d)")
_MRZ_TD1_DATES = re.compile(r"(?<![A-Z0-9<])(\d{6})(\d)[MFX<](\d{6})(\d)[A-Z<]{3}")


# The rest of a checked data line (the optional data, a personal number in some countries, and the
# check digits), and the line above it when that is the zone's first line: a passport's (TD3) or a
# visa's holder line ("P<D<<FISCHER<<ANNA<<<<..."). The zone is one record: the holder's name goes
# with the number, and the zone's filler, "<<<<", is left nowhere to tell where it stood.
_MRZ_REST = re.compile(r"[A-Z0-9<]*")
_MRZ_FIRST_LINE = re.compile(r"[PV][A-Z<][A-Z<]{3}(?=[A-Z<]*<<)[A-Z<]{8,50}[ \t]*\r?\n[ \t]*$")


def _whole_zone(text: str, start: int, end: int) -> Span:
    rest = _MRZ_REST.match(text, end)
    end = rest.end() if rest else end
    first = _MRZ_FIRST_LINE.search(text, max(0, start - 64), start)
    if first is not None and (first.start() == 0 or text[first.start() - 1] in " \t\n`"):
        start = first.start()
    return start, end, "passport", P_STRUCT


# Utopia, the state ICAO 9303 invented for its specimen documents ("P<UTOERIKSSON<<ANNA<MARIA"),
# in a message that says so: parsers' tests and documentation quote the specimen. (Generated test
# data uses Utopia too, for a holder's passport: the state alone does not tell.)
_SPECIMEN_STATE = "UTO"
_SPECIMEN_CUE = re.compile(r"(?i)specimen|\bsample\b|\bexample\b|\b9303\b")


def _specimen(text: str, state_at: int) -> bool:
    return text.startswith(_SPECIMEN_STATE, state_at) and _SPECIMEN_CUE.search(text) is not None


def _machine_readable_zone(text: str) -> Iterator[Span]:
    for m in _MRZ_LINE.finditer(text):
        number, born, expires = m.group(1), m.group(3), m.group(5)
        if (
            not _specimen(text, m.end(2))
            and _mrz_check(number) == m.group(2)
            and _mrz_check(born) == m.group(4)
            and _mrz_check(expires) == m.group(6)
        ):  # the number and what identifies its holder with it: nationality, birth date, expiry
            yield _whole_zone(text, m.start(1), m.end(6))
            # the document number alone too, so that the message's other mentions of it go as well
            # ("(document number should be KT467PNWF)")
            yield m.start(1), m.start(1) + len(number.rstrip("<")), "passport", P_STRUCT
    for m in _MRZ_TD1_NUMBER.finditer(text):
        if _specimen(text, m.start() + 2):
            continue
        if _mrz_check(m.group(1)) == m.group(2) and any(c.isdigit() for c in m.group(1)):
            yield m.start(1), m.end(2), "national_id", P_STRUCT
    for m in _MRZ_TD1_DATES.finditer(text):
        if _mrz_check(m.group(1)) == m.group(2) and _mrz_check(m.group(3)) == m.group(4):
            yield m.start(1), m.end(4), "national_id", P_STRUCT


# A hex dump (xxd, hexdump -C, od -x): an offset, then bytes in groups of two or four hex digits.
# Its digits are bytes: groups that pass Luhn by chance are no card, eight in a row no card's half.
_HEX_DUMP_LINE = re.compile(r"(?m)^[0-9a-fA-F]{6,8}:?(?: {1,2}[0-9a-fA-F]{2,4}){4,}")


def detect(text: str, lower: str) -> Iterator[Span]:
    found = _detect(text, lower)
    if "0000" not in text:  # (every dump's first offset)
        yield from found
        return
    dumps = [(m.start(), m.end()) for m in _HEX_DUMP_LINE.finditer(text)]
    yield from (span for span in found if not any(s <= span[0] < e for s, e in dumps))


def _detect(text: str, lower: str) -> Iterator[Span]:
    if "⑆" in text or "⑈" in text:
        yield from _cheque_line(text)
    if "ach" in lower and _ACH_WORD.search(lower):
        yield from _ach_entries(text)
    if "<<" in text:
        yield from _machine_readable_zone(text)
    if "記号" in text:
        yield from _japan_post_accounts(text)
    longest = max(map(len, text.split()), default=0) if len(text) >= _SHORTEST_KEY else 0
    if longest >= _SHORTEST_KEY:
        yield from _crypto_keys(text, longest)
    digits = _digits(text)
    if digits < 1:  # every identifier here holds a digit at least (most hold six)
        return
    iban_starts = (  # (one scan for both uses)
        [m.start() for m in _IBAN_START.finditer(text)] if prefilter.may(prefilter.IBAN_START, text) else []
    )
    ibans = _iban_shaped_runs(text, iban_starts)
    # (every shape's number window holds six digits: ASCII ones, as ``digits`` counts, in ASCII text)
    windows = digits >= _WINDOW_DIGITS or not text.isascii()
    shaped = _no_cards_inside(list(_shaped(text)), ibans) if windows else []
    yield from shaped
    if digits >= 14 and "-" in text:
        yield from _uk_bank_details(text)
    if digits >= 9 and _BRANCH_HINTS.search(lower):
        yield from _branch_codes(text, lower)
    yield from _lettered_ibans(text, iban_starts)
    if "iban" in lower:
        yield from _labelled_ibans(text)
    if digits >= 16:
        yield from _no_cards_inside(list(_card_halves(text)), ibans)
    yield from _named(text, lower)
    cards = [span for span in shaped if span[2] == "credit_card"]
    yield from _card_codes(text, lower, cards, digits)


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
# A Bitcoin private key in wallet import format: 51-52 base58 characters from 5, K or L.
_WIF = re.compile(r"[5KL](?<![1-9A-Za-z][5KL])[1-9A-HJ-NP-Za-km-z]{50,51}(?![1-9A-Za-z])")


def base58_bytes(value: str) -> bytes:
    """The bytes that base58 ``value`` (all of its characters base58's) stands for."""
    number = 0
    for ch in value:
        number = number * 58 + _BASE58.index(ch)
    leading_zeros = len(value) - len(value.lstrip("1"))
    return b"\0" * leading_zeros + number.to_bytes((number.bit_length() + 7) // 8, "big")


def base58_of_32_bytes(value: str) -> bool:
    """Whether ``value`` is base58 of 32 bytes, as a Solana account's address (an ed25519 public
    key) is written: 32-44 characters, no checksum to confirm it."""
    return 32 <= len(value) <= 44 and all(ch in _BASE58 for ch in value) and len(base58_bytes(value)) == 32


def base58check(value: str) -> bool:
    """Whether ``value`` is base58 with a valid 4-byte double-SHA-256 checksum at its end."""
    if not all(ch in _BASE58 for ch in value):
        return False
    raw = base58_bytes(value)
    body, check = raw[:-4], raw[-4:]
    return hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check


# A BIP-32 extended private key (xprv, tprv, yprv, zprv: Base58Check), and a 64-byte secret key in
# base58 (how Solana wallets export a keypair; a public key is 32 bytes, 43-44 characters).
_EXTENDED_KEY = re.compile(r"(?<![1-9A-Za-z])[xtyzuv]prv[1-9A-HJ-NP-Za-km-z]{100,108}(?![1-9A-Za-z])")
_BASE58_SECRET = re.compile(r"(?<![1-9A-Za-z])[1-9A-HJ-NP-Za-km-z]{86,88}(?![1-9A-Za-z])")


# A Nostr secret key (NIP-19: "nsec1" and 58 bech32 characters); an Ethereum-style private key
# (64 hex digits, "0x" or not) where the message speaks of a private key: 64 hex digits alone are
# more often a hash.
_NOSTR_SECRET = re.compile(r"nsec1(?<![0-9a-z]nsec1)[02-9ac-hj-np-z]{58}(?![0-9a-z])")
_HEX_KEY = re.compile(r"(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])")
_PRIVATE_KEY_WORDS = re.compile(r"(?i)private[ _-]?key|priv[ _-]?key|wallet key")


# The fewest characters each key above takes: none holds a space, so a message whose longest run
# without one (``longest``) is shorter holds none of them, and its scan is skipped.
_SHORTEST_KEY = 51  # a WIF key; a hex key 64, a Nostr key 63, base58 of 64 bytes 86, an xprv 104
_KEY_LENGTHS = {_WIF: 51, _HEX_KEY: 64, _NOSTR_SECRET: 63, _BASE58_SECRET: 86, _EXTENDED_KEY: 104}


def _crypto_keys(text: str, longest: int) -> Iterator[Span]:
    # (NOSTR_SECRET and WIF are left out of the prefilter's set, as NUMBER_WINDOW: their gate is the
    # longest token's length)
    if longest >= _KEY_LENGTHS[_NOSTR_SECRET]:
        for m in _NOSTR_SECRET.finditer(text):
            yield m.start(), m.end(), "private_key", P_STRUCT
    if (
        longest >= _KEY_LENGTHS[_HEX_KEY]
        and prefilter.may(prefilter.PRIVATE_KEY_WORDS, text)
        and _PRIVATE_KEY_WORDS.search(text)
    ):
        for m in _HEX_KEY.finditer(text):
            yield m.start(), m.end(), "private_key", P_STRUCT
    for m in _WIF.finditer(text):
        if base58check(m.group()):
            yield m.start(), m.end(), "bitcoin_private_key", P_STRUCT
    if longest >= _KEY_LENGTHS[_EXTENDED_KEY]:
        for m in _EXTENDED_KEY.finditer(text):
            if base58check(m.group()):
                yield m.start(), m.end(), "extended_private_key", P_STRUCT
    if longest < _KEY_LENGTHS[_BASE58_SECRET]:
        return
    for m in _BASE58_SECRET.finditer(text):
        value = m.group()
        if any(c.isdigit() for c in value) and len(base58_bytes(value)) == 64:
            yield m.start(), m.end(), "private_key", P_STRUCT
