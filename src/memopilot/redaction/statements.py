"""Secrets that people state in words: passwords and codes in many languages and phrasings, values
spaced out, dashed or spelled out, seed phrases, and passwords in SQL rows and command flags.

A statement is a *name* ("password", "contraseña", "Passwort", "mot de passe", "密码", "暗証番号",
"alarm code", "wifi key" ...), then within a few words a *link* ("is", "to", "=", ":", "es", "ist",
"est", "lautet", "是", "は" ...), then the *value*. The value is taken when it is quoted, or looks
like a password rather than a word (two kinds of character among lower case, upper case, digits
and symbols, or 16 characters or more), so that "my password is too short" and "Mein Passwort ist
abgelaufen" stay as they are. A value of short groups ("X 7 k 9 q 2", "4821 7730 1192") is taken
whole, and digits spelled out in English words ("seven four one nine") count as a value.

Seed phrases are runs of twelve or more words of the BIP-39 list (the ``mnemonic`` package's word
list), whatever separates them (spaces, commas, numbering, line breaks): ordinary sentences do not
run twelve words without one of the small words the list leaves out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .keywords import KeywordIndex
from .rules import P_CONTEXT, P_STRUCT, Span, plausible_password

__all__ = ["detect"]

# Names of a password or code, by language (lowercase). Multi-word names first where they overlap.
_NAMES = [
    # English
    "password", "passwort", "passwd", "passcode", "passphrase", "pass phrase", "pin code", "pin",
    "alarm code", "door code", "gate code", "safe code", "lock code", "garage code", "access code",
    "entry code", "keypad code", "combination", "wifi key", "wi-fi key", "wifi password",
    "network key", "wpa key", "recovery key", "recovery code", "recovery codes", "backup code",
    "backup codes", "seed phrase", "recovery phrase", "mnemonic", "secret answer", "security answer",
    # Spanish, Portuguese, Italian, French, Catalan, Romanian
    "contraseña", "contrasena", "clave", "código", "codigo", "senha", "palavra-passe", "codice",
    "parola d'ordine", "mot de passe", "mdp", "code d'accès", "code", "clé wifi", "cle wifi",
    "contrasenya", "parola", "parolă",
    # German, Dutch, Nordic
    "kennwort", "zugangscode", "wlan-schlüssel", "wlan-passwort", "wlan schlüssel", "pin-code",
    "wachtwoord", "toegangscode", "lösenord", "losenord", "passord", "adgangskode", "kodeord",
    "salasana", "tunnussana", "lykilorð",
    # Central and Eastern Europe, Greek, Turkish
    "hasło", "haslo", "heslo", "jelszó", "jelszo", "lozinka", "geslo", "slaptažodis", "parole",
    "пароль", "парола", "код", "κωδικός", "κωδικος", "συνθηματικό", "şifre", "sifre", "şifrem",
    # Middle East and South Asia
    "סיסמה", "סיסמא", "كلمة المرور", "كلمة السر", "الرقم السري", "رمز عبور", "पासवर्ड",
    # East and South-East Asia
    "密码", "密碼", "口令", "暗证", "パスワード", "暗証番号", "비밀번호", "비번", "암호", "패스워드",
    "mật khẩu", "mat khau", "kata sandi", "kata laluan", "รหัสผ่าน",
]  # fmt: skip
# Short names that are ordinary words elsewhere ("pass the salt"): only with ":" or "=" after them.
_TIGHT_NAMES = ["pass", "pw", "pwd", "psw", "pword", "kod", "kód", "mdp", "pass:"]
# Links between a name and its value, by language: words (followed by a space, a quote or the
# end), symbols, and the particles of Chinese, Japanese and Korean (written straight on).
_WORD_LINKS = (
    "is now|is|was|are|to|as|now|equals|reads|becomes|es|era|será|est|était|sera|ist|lautet|war|è|é|"
    "foi|är|var|er|on|oli|jest|to|je|это|е|είναι|dır|dir|olarak|ini|adalah|là|ni|wynosi|zní|je to"
)
_LINK = re.compile(
    rf"(?:\s*(?:(?:{_WORD_LINKS})(?=[\s\"'`«„“「『(]|$)|=>|->|→|[=:：–—-]|'s|’s|是|为|為|は|が|を|는|은|이|가))+"
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u3000-\u303f\uff00-\uffef]")
_QUOTES = {'"': '"', "'": "'", "`": "`", "«": "»", "„": "“", "“": "”", "「": "」", "『": "』", "‘": "’"}
_TRAILING = ".,;:!?)]}>'\"`’”»」』。，、；：！？"
_NUMBER_WORDS = frozenset(
    [
        "zero",
        "oh",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "hundred",
    ]
)
_SMALL_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "for",
        "of",
        "to",
        "at",
        "in",
        "on",
        "and",
        "or",
        "with",
        "from",
        "by",
        "new",
        "old",
        "guest",
        "home",
        "work",
        "office",
        "main",
        "wifi",
        "wi-fi",
        "router",
        "network",
        "account",
        "app",
        "bank",
        "phone",
        "laptop",
        "door",
        "gate",
        "alarm",
        "safe",
        "garage",
        "front",
        "back",
        "de",
        "la",
        "el",
        "los",
        "las",
        "del",
        "du",
        "des",
        "le",
        "les",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "het",
        "een",
        "van",
        "voor",
        "para",
        "por",
        "pour",
        "für",
        "fur",
        "zum",
        "zur",
        "per",
        "di",
        "da",
        "do",
        "dos",
        "das",
        "il",
        "lo",
        "gli",
        "mi",
        "mio",
        "mia",
        "ma",
        "mon",
        "mes",
        "meu",
        "minha",
        "mein",
        "meine",
        "mijn",
        "mitt",
        "min",
        "mój",
        "moja",
        "mój",
        "moje",
        "мой",
        "моя",
        "от",
        "для",
    ]
)
_NAMES_INDEX = KeywordIndex(_NAMES)
# Words after a name that make it the name of something else ("password manager", "code review").
_NOT_A_VALUE_AFTER = re.compile(
    r"\s*(?:manager|managers|policy|policies|reset|resets|requirements?|rules?|field|fields|hash|hashes"
    r"|hashing|length|strength|expiry|expired|change|changes|vault|generator|protected|protection|prompt"
    r"|review|reviews|base|block|blocks|quality|style|editor|snippet|smell|coverage|path|paths|page"
    r"|screen|form|box|input|dialog|hint|hints|recovery|update|updates|entry|sharing|leak|leaks)\b"
)
_TIGHT_RE = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in _TIGHT_NAMES) + r")\s*[:=]")
# "Tr0ub4dor&3 is my password": the value before the name.
_VALUE_FIRST = re.compile(
    r"(?<!\S)(\S{6,64})\s+(?:is|was|=)\s+(?:my|the|our|his|her|their)\s+(?:new\s+|current\s+|old\s+)?"
    r"(?:password|passcode|passphrase|pin|code)\b",
    re.IGNORECASE,
)
# INSERT INTO t (col, password, ...) VALUES ('x', 'secret', ...)
_SQL_INSERT = re.compile(
    r"insert\s+into\s+[\w.\"`\[\]]+\s*\(([^)]{1,400})\)\s*values\s*\(([^)]{1,1000})\)", re.IGNORECASE
)
_SQL_LITERAL = re.compile(r"'((?:[^']|'')*)'|\"((?:[^\"]|\"\")*)\"|([^,\s][^,]*)")
_SECRET_COLUMN = re.compile(r"pass|pwd|secret|token|api_?key|pin\b|passphrase", re.IGNORECASE)
# -p VALUE after a command that takes a password that way (docker/podman/helm login, sshpass ...).
_CLI_PASSWORD = re.compile(
    r"\b(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?: registry)?)\s+login|sshpass|redis-cli"
    r"|mysqladmin|mysqldump)\b[^\n|;&]{0,120}?\s(?:-p|--password|-a|--pass)(?:[ =]+)(\S+)"
)


@functools.cache
def _seed_words() -> frozenset[str]:
    from mnemonic import Mnemonic

    return frozenset(Mnemonic("english").wordlist)


def _kinds(value: str) -> int:
    return (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )


def _looks_like_password(value: str, quoted: bool) -> bool:
    if not plausible_password(value, quoted, "") or (not quoted and value[0] in "/~.@:"):
        return False  # code, a path or a placeholder
    if (
        len(value) < 4
        or value.startswith(("<", "${", "{{", "%", "[REDACTED"))
        or set(value) <= set("*x.X#-_")
    ):
        return False
    if quoted:
        return True
    if value.isalpha():  # a word, unless it is long (a passphrase run together)
        return len(value) >= 16
    return (_kinds(value) >= 2 and len(value) >= 6) or (value.isdigit() and len(value) >= 4)


def _value_at(text: str, pos: int) -> tuple[int, int, bool] | None:
    """The value starting at ``pos`` (after white space): (start, end, quoted)."""
    n = len(text)
    while pos < n and text[pos] in " \t":
        pos += 1
    if pos >= n:
        return None
    close = _QUOTES.get(text[pos])
    if close is not None:
        end = text.find(close, pos + 1)
        if end > pos + 1 and "\n" not in text[pos + 1 : end]:
            return pos + 1, end, True
    end = pos
    while end < n and not text[end].isspace() and not _CJK.match(text, end):
        end += 1
    while end > pos and text[end - 1] in _TRAILING:
        end -= 1
    if end <= pos:
        return None
    return pos, _extend_groups(text, pos, end), False


def _extend_groups(text: str, start: int, end: int) -> int:
    """A value spaced out or written in short groups ("X 7 k 9", "4821 7730"): take the run."""
    if end - start > 4:
        return end
    groups, pos = [text[start:end]], end
    for m in re.finditer(r"[ \t]+(\S{1,4})(?=\s|$|[.,;])", text[end:]):
        if (
            m.start() != pos - end
            or m.group(1).lower() in _SMALL_WORDS
            or (m.group(1).isalpha() and len(m.group(1)) > 2)
        ):
            break
        groups.append(m.group(1))
        pos = end + m.end()
    return pos if len(groups) >= 3 and sum(len(g) for g in groups) >= 6 else end


def _spelled_digits(text: str, pos: int) -> int:
    """End of a run of at least four English number words starting at ``pos``, else 0."""
    count, end = 0, 0
    for m in re.finditer(r"[\s,-]*([A-Za-z]+)", text[pos:]):
        if m.start() != 0 and count and m.start() != (end - pos):
            break
        if m.group(1).lower() not in _NUMBER_WORDS:
            break
        count += 1
        end = pos + m.end()
    return end if count >= 4 else 0


def _named_values(text: str, lower: str) -> Iterator[Span]:
    for _, name_end, _ in _NAMES_INDEX.find(lower):
        if _NOT_A_VALUE_AFTER.match(lower, name_end) or lower.startswith("==", name_end):
            continue
        link = _LINK.match(lower, name_end) or _link_after_fillers(lower, name_end)
        if link is None:  # no link: a value after a space that cannot be a word ("Passwort Xy7#kq!2m")
            found = _value_at(text, name_end) if text[name_end : name_end + 1] in (" ", "\t") else None
            if found is not None and _kinds(text[found[0] : found[1]]) >= 3 and found[1] - found[0] >= 8:
                yield found[0], found[1], "password", P_CONTEXT
            continue
        if "==" in link.group() or "!=" in lower[link.start() - 1 : link.end()]:
            continue  # a comparison in code
        start = link.end() + len(text[link.end() :]) - len(text[link.end() :].lstrip())
        spelled = _spelled_digits(text, start)
        if spelled:
            yield start, spelled, "password", P_CONTEXT
            continue
        found = _value_at(text, link.end())
        if found is not None and _looks_like_password(text[found[0] : found[1]], found[2]):
            yield found[0], found[1], "password", P_CONTEXT
    for m in _TIGHT_RE.finditer(lower):
        found = _value_at(text, m.end())
        if found is not None and _looks_like_password(text[found[0] : found[1]], found[2]):
            yield found[0], found[1], "password", P_CONTEXT


def _link_after_fillers(lower: str, pos: int) -> re.Match[str] | None:
    """A link after up to four small words ("for the guest network is", "del wifi es", "für das WLAN ist")."""
    for _ in range(4):
        word = re.compile(r"\s+([\w'-]+)").match(lower, pos)
        if word is None or (word.group(1) not in _SMALL_WORDS and not word.group(1).isalpha()):
            return None
        pos = word.end()
        link = _LINK.match(lower, pos)
        if link is not None and link.end() > pos:
            return link
    return None


_LETTER_WORD = re.compile(r"[a-z]+")


def _seed_phrases(text: str, lower: str) -> Iterator[Span]:
    """Runs of 12+ BIP-39 words; what stands between them (numbers, commas, lines) does not matter."""
    words = _seed_words()
    found = _LETTER_WORD.findall(lower)
    if len(words.intersection(found)) < 11:  # a phrase of 12 words has 11 different ones at least
        return
    run = best = 0
    for word in found:
        run = run + 1 if word in words else 0
        best = max(best, run)
    if best < 12:
        return
    run_start = None
    count = 0
    for m in _LETTER_WORD.finditer(lower):
        if m.group() in words:
            run_start = m.start() if count == 0 else run_start
            count, run_end = count + 1, m.end()
            continue
        if count >= 12:
            yield run_start, run_end, "seed_phrase", P_STRUCT
        count = 0
    if count >= 12:
        yield run_start, run_end, "seed_phrase", P_STRUCT


def _sql_rows(text: str) -> Iterator[Span]:
    for m in _SQL_INSERT.finditer(text):
        columns = [c.strip(' "`[]').lower() for c in m.group(1).split(",")]
        values = list(_SQL_LITERAL.finditer(m.group(2)))
        for column, value in zip(columns, values, strict=False):
            if _SECRET_COLUMN.search(column):
                group = next(g for g in (1, 2, 3) if value.group(g) is not None)
                start = m.start(2) + value.start(group)
                end = m.start(2) + value.end(group)
                if end - start >= 4 and not text[start:end].startswith(("$", ":", "?", "%s")):
                    yield start, end, "password", P_CONTEXT


def detect(text: str, lower: str) -> Iterator[Span]:
    yield from _named_values(text, lower)
    if "pass" in lower or "pin" in lower or "code" in lower:
        for m in _VALUE_FIRST.finditer(text):
            if _looks_like_password(m.group(1).strip(_TRAILING), False):
                yield m.start(1), m.end(1), "password", P_CONTEXT
    if "insert" in lower:
        yield from _sql_rows(text)
    if " -p" in lower or "--pass" in lower or " -a" in lower:
        for m in _CLI_PASSWORD.finditer(text):
            if _looks_like_password(m.group(1), False) or len(m.group(1)) >= 6:
                yield m.start(1), m.end(1), "password", P_CONTEXT
    yield from _seed_phrases(text, lower)
