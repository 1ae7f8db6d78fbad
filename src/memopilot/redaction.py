"""Secret redaction (SPEC section 5, step 1): secrets never reach an editor, log, trace or database.

:func:`redact` replaces every secret it finds in a message with a typed placeholder such as
``[REDACTED:aws_access_key]`` and reports each one as a :class:`Finding` (kind and span in the
*original* text). :func:`looks_secret` says whether :func:`redact` would find anything; the
engine uses it to drop editor output that is still secret-like (SPEC section 5, step 3).

Approach: hand-written, precompiled regular expressions in three families, each confirmed by
a small validator so that ordinary technical text survives.

* **Fixed formats** whose shape is the evidence: AWS access key ids, GitHub / GitLab / Slack /
  Stripe / Twilio / SendGrid / npm / PyPI / Hugging Face / Google tokens, ``sk-`` API keys
  (OpenAI, Anthropic, DashScope), Alibaba ``LTAI`` ids, JWTs, PEM private key blocks (the whole
  block, also with JSON-escaped ``\\n`` as in a GCP service-account file) and credit-card
  numbers (13-19 digits, card-network prefix and length, Luhn check).
* **Context**: a value is a secret because of what stands before it. Passwords in URLs
  (``scheme://user:pass@host``: only the password goes, the host stays), ``password=`` /
  ``pwd:`` / ``--password`` / ``curl -u user:pass`` / "my password is X" / "the password for
  the db is X", ``Authorization: Bearer|Basic ...`` headers, Azure ``AccountKey=``, the AWS
  secret access key and Alibaba AccessKey secret next to their names (or in a message that
  also holds the matching key id), and GCP ``private_key_id``. Validators reject what is
  plainly not a value: placeholders (``${DB_PASSWORD}``, ``<token>``, ``****``), code
  (``password: str``, ``os.environ[...]``, ``getpass()``), and prose ("the password is too
  short").
* **Entropy**: a string of 16+ characters next to a word such as key / token / secret /
  credential / api_key (as an assignment ``FOO_API_KEY=...`` or a phrase "my token is ...")
  is a secret when it looks random: Shannon entropy >= 3 bits per character, letters mixed
  with digits (or both cases), and short runs of one character class, which tells a random
  token from ``kv-payments-prod-eastus2`` or ``getUserSettingsById``. Names that are not
  secrets (public / primary / cache / idempotency key, ``key_id``, ``token_url``...) are
  excluded.

Overlapping findings are merged and take the kind of the most specific detector (a JWT inside
a Bearer header is reported as ``jwt``). Placeholders are built from ``[``, ``]``, ``:`` and a
lowercase kind name, which no detector accepts as a value, and findings that touch an
existing placeholder are ignored: ``redact(redact(x).text)`` finds nothing new.

detect-secrets was evaluated and not used: its plugins yield secret *values* (not spans) through
a file-scanning API with per-line settings lookups and hashing, it would add ``requests`` and
``pyyaml``, several of its patterns are narrower than needed here (OpenAI keys only in the old
``T3BlbkFJ`` form, no Anthropic / DashScope / Alibaba / Bearer / URL-less passwords, Stripe
live keys only) and its keyword plugin is tuned for source files, not chat. A few of its
regexes (AWS key id prefixes, GitLab prefixes, SendGrid, PyPI) informed the ones below.
Cost: a plain 300-character message takes a few tens of microseconds; every detector is
gated by a cheap lowercase substring check before its regex runs.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["PLACEHOLDER_RE", "Finding", "Redaction", "looks_secret", "placeholder", "redact"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret: its kind (e.g. ``"aws_access_key"``) and its span in the original text."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Redaction:
    """The redacted text and what was taken out of it (findings sorted by position)."""

    text: str
    findings: list[Finding]

    @property
    def count(self) -> int:
        return len(self.findings)


# A placeholder; its kind is lowercase letters, digits and underscores.
PLACEHOLDER_RE = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


def placeholder(kind: str) -> str:
    """The text that stands in for a secret of this kind."""
    return f"[REDACTED:{kind}]"


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

# (start, end, kind, priority): lower priority numbers are more specific and win a merge.
_Span = tuple[int, int, str, int]

_P_FORMAT = 10  # a vendor prefix / fixed shape
_P_STRUCT = 20  # JWT, PEM block, card number
_P_CONTEXT = 30  # named by its context: password, header, connection string
_P_ENTROPY = 40  # random-looking value next to a keyword

_TRAILING_PUNCT = ".,;:!?)]}>'\"`’”"


def _shannon(value: str) -> float:
    n = len(value)
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _class_of(ch: str) -> int:
    if ch.isdigit():
        return 1
    if ch.isupper():
        return 2
    if ch.islower():
        return 3
    return 0


def _looks_random(value: str, min_len: int = 16) -> bool:
    """A random-looking token: long, high entropy, mixed classes, short runs of one class."""
    if len(value) < min_len:
        return False
    has_digit = has_upper = has_lower = False
    runs = 0
    prev = -1
    alnum = 0
    for ch in value:
        cls = _class_of(ch)
        if cls == 0:
            prev = -1
            continue
        alnum += 1
        if cls == 1:
            has_digit = True
        elif cls == 2:
            has_upper = True
        else:
            has_lower = True
        if cls != prev:
            runs += 1
            prev = cls
    if not (has_upper or has_lower):
        return False
    if not (has_digit or (has_upper and has_lower)):
        return False
    if runs == 0 or alnum / runs > 3.5:
        return False
    return _shannon(value) >= 3.0


def _mixed(value: str) -> bool:
    """Letters and digits both present (used to tell tokens from words)."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


_PLACEHOLDER_WORDS = frozenset(
    """
    password passwd pass pwd pw secret secrets token key apikey api_key none null nil true false
    str string int integer bool boolean bytes char varchar text any unknown required optional
    undefined empty hidden redacted masked secretstr omitted hashed sha256 bcrypt argon2 changeit
    value values example dummy fake sample placeholder foo bar baz tbd todo n/a na env
    """.split()
)
_ENV_REF = re.compile(
    r"\$\{[^}]*\}|\$\([^)]*\)|\$[A-Z_][A-Z0-9_]*|\$[a-z_][a-zA-Z_]*|%[A-Z_][A-Z0-9_]*%|%\(?\w*\)?[sd]"
)
_TEMPLATE = re.compile(r"<[^>]*>|\{\{.*\}\}|\{[^}]*\}|#\{[^}]*\}|\?|:[a-z_]\w*|[x*•.#_-]{3,}|…+", re.I)
_EXAMPLE_WORD = re.compile(
    r"(?:your|my|the|some|an?|example|dummy|fake|sample|test|placeholder|insert|enter|replace)"
    r"[-_ ]?[a-z_ -]*",
    re.I,
)


def _is_placeholder(value: str) -> bool:
    """Env references, templates, masks and example words stand where a secret would go."""
    v = value.strip().strip("\"'`")
    if not v:
        return True
    low = v.lower()
    if low in _PLACEHOLDER_WORDS:
        return True
    if _ENV_REF.fullmatch(v) or _TEMPLATE.fullmatch(v):
        return True
    return bool(_EXAMPLE_WORD.fullmatch(v)) and not any(c.isdigit() for c in v)


def _strip_trailing(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in _TRAILING_PUNCT:
        end -= 1
    return end


# --------------------------------------------------------------------------------------------
# Fixed-format tokens
# --------------------------------------------------------------------------------------------

_B = r"(?<![A-Za-z0-9_-])"  # a token starts here (not inside a longer word)
_E = r"(?![A-Za-z0-9_-])"


@dataclass(frozen=True, slots=True)
class _TokenRule:
    kind: str
    pattern: re.Pattern[str]
    hints: tuple[str, ...]
    check: Callable[[str], bool] | None = None


_TOKEN_RULES: tuple[_TokenRule, ...] = (
    _TokenRule(
        "aws_access_key",
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"),
        ("akia", "asia", "abia", "acca", "a3t"),
    ),
    _TokenRule("github_token", re.compile(_B + r"gh[pousr]_[A-Za-z0-9]{36,251}" + _E), ("gh",)),
    _TokenRule("github_token", re.compile(_B + r"github_pat_[A-Za-z0-9_]{22,255}" + _E), ("github_pat_",)),
    _TokenRule(
        "gitlab_token",
        re.compile(_B + r"gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|oas|agent)-[A-Za-z0-9_-]{20,}" + _E),
        ("gl",),
    ),
    _TokenRule("slack_token", re.compile(_B + r"xox[abposre]-[A-Za-z0-9-]{10,}" + _E), ("xox",), _mixed),
    _TokenRule(
        "slack_webhook",
        re.compile(r"(?<=hooks\.slack\.com/services/)T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+"),
        ("hooks.slack.com",),
    ),
    _TokenRule(
        "stripe_key", re.compile(_B + r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,247}" + _E), ("_live_", "_test_")
    ),
    _TokenRule("stripe_webhook_secret", re.compile(_B + r"whsec_[A-Za-z0-9]{24,}" + _E), ("whsec_",)),
    _TokenRule(
        "twilio_account_sid", re.compile(r"(?<![A-Za-z0-9])AC[0-9a-fA-F]{32}(?![A-Za-z0-9])"), ("ac",), _mixed
    ),
    _TokenRule(
        "twilio_api_key", re.compile(r"(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"), ("sk",), _mixed
    ),
    _TokenRule(
        "sendgrid_api_key", re.compile(_B + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}" + _E), ("sg.",)
    ),
    _TokenRule("npm_token", re.compile(_B + r"npm_[A-Za-z0-9]{36}" + _E), ("npm_",)),
    _TokenRule("pypi_token", re.compile(_B + r"pypi-AgE[A-Za-z0-9_-]{50,}" + _E), ("pypi-",)),
    _TokenRule("huggingface_token", re.compile(_B + r"hf_[A-Za-z0-9]{30,}" + _E), ("hf_",), _mixed),
    _TokenRule("google_api_key", re.compile(_B + r"AIza[0-9A-Za-z_-]{35}" + _E), ("aiza",)),
    _TokenRule("gcp_oauth_secret", re.compile(_B + r"GOCSPX-[A-Za-z0-9_-]{20,}" + _E), ("gocspx-",)),
    _TokenRule(
        "alibaba_access_key", re.compile(r"(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])"), ("ltai",)
    ),
    _TokenRule(
        "telegram_bot_token", re.compile(r"(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{33}" + _E), (":aa",)
    ),
)

_SK_KEY = re.compile(
    _B + r"sk-(ant-(?:(?:api|admin)\d\d-)?|proj-|svcacct-|admin-|None-)?([A-Za-z0-9_-]{20,})" + _E
)
_HEX32 = re.compile(r"[0-9a-f]{32}")


def _sk_keys(text: str, lower: str) -> Iterator[_Span]:
    if "sk-" not in lower:
        return
    for m in _SK_KEY.finditer(text):
        prefix, body = m.group(1) or "", m.group(2)
        if not _mixed(body):
            continue
        if prefix.startswith("ant-"):
            kind = "anthropic_api_key"
        elif not prefix and _HEX32.fullmatch(body):
            kind = "dashscope_api_key"
        else:
            kind = "openai_api_key"
        yield m.start(), m.end(), kind, _P_FORMAT


def _token_rules(text: str, lower: str) -> Iterator[_Span]:
    for rule in _TOKEN_RULES:
        if not any(h in lower for h in rule.hints):
            continue
        for m in rule.pattern.finditer(text):
            if rule.check is None or rule.check(m.group()):
                yield m.start(), m.end(), rule.kind, _P_FORMAT


# --------------------------------------------------------------------------------------------
# Structured: JWT, PEM private keys, GCP service-account fields, card numbers
# --------------------------------------------------------------------------------------------

_JWT = re.compile(_B + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")

# A whole PEM block (real newlines or JSON-escaped "\n"); a block cut short goes up to where its
# base64 body ends.
_PEM = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----"
    r"(?:[\s\S]{0,20000}?-----END \1-----|(?:\\[nr]|[A-Za-z0-9+/=:,\s-])*)"
)
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d+:[\s\S]*?Private-MAC: [0-9a-f]+")
_GCP_KEY_ID = re.compile(r"\"private_key_id\"\s*:\s*\"([0-9a-f]{40})\"")


def _structured(text: str, lower: str) -> Iterator[_Span]:
    if "eyj" in lower:
        for m in _JWT.finditer(text):
            yield m.start(), m.end(), "jwt", _P_STRUCT
    if "private key" in lower:
        for m in _PEM.finditer(text):
            end = m.end()
            while end > m.start() and text[end - 1] in " \t\r\n\\,":
                end -= 1
            if text[end - 2 : end] == "\\n" or text[end - 2 : end] == "\\r":
                end -= 2
            yield m.start(), end, "private_key", _P_STRUCT
    if "putty-user-key-file" in lower:
        for m in _PUTTY.finditer(text):
            yield m.start(), m.end(), "private_key", _P_STRUCT
    if "private_key_id" in lower:
        for m in _GCP_KEY_ID.finditer(text):
            yield m.start(1), m.end(1), "gcp_private_key_id", _P_CONTEXT


_CARD = re.compile(
    r"(?<![\w+./-])(?<!\d[.,] )"
    r"(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?"  # 4-4-4-4(-3)
    r"|\d{4}([ -])\d{6}\2\d{4,5}"  # Amex 4-6-5, Diners 4-6-4
    r"|\d{13,19})"
    r"(?![\w/-]|[.,]\d)"
)


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_network(digits: str) -> bool:
    """The number's prefix belongs to a card network that issues numbers of its length."""
    n = len(digits)
    p2, p4, p6 = int(digits[:2]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4":
        return n in (13, 16, 19)  # Visa
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:
        return n == 16  # Mastercard
    if p2 in (34, 37):
        return n == 15  # Amex
    if p2 in (36, 38, 39) or 300 <= p4 // 10 <= 305 or p4 == 3095:
        return 14 <= n <= 19  # Diners
    if 3528 <= p4 <= 3589:
        return 16 <= n <= 19  # JCB
    if p4 == 6011 or 644 <= p4 // 10 <= 649 or p2 == 65 or 622126 <= p6 <= 622925:
        return 16 <= n <= 19  # Discover
    if p2 == 62:
        return 16 <= n <= 19  # UnionPay
    if p2 in (50, 56, 57, 58, 63, 67):
        return 13 <= n <= 19  # Maestro
    return False


def _cards(text: str, lower: str) -> Iterator[_Span]:
    for m in _CARD.finditer(text):
        digits = m.group().replace(" ", "").replace("-", "")
        if 13 <= len(digits) <= 19 and _card_network(digits) and _luhn(digits):
            yield m.start(), m.end(), "credit_card", _P_STRUCT


# --------------------------------------------------------------------------------------------
# Context: URLs, passwords, auth headers, cloud connection strings
# --------------------------------------------------------------------------------------------

_URL_CRED = re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/?#@\"'<>]*:([^\s@/?#\"'<>]+)@(?=[^\s@/])")


def _url_passwords(text: str, lower: str) -> Iterator[_Span]:
    if "://" not in text or "@" not in text:
        return
    for m in _URL_CRED.finditer(text):
        if not _is_placeholder(m.group(1)):
            yield m.start(1), m.end(1), "url_password", _P_CONTEXT


_PW_WORD = r"(?:password|passwd|passphrase|passcode|pswd|pwd|pw)"
_PW_ASSIGN = re.compile(
    r"(?i)(?<![A-Za-z0-9])((?:[A-Za-z0-9]+[_.-])*(?:pg|mysql_)?(?:" + _PW_WORD + r"|(?<=[_.-])pass))"
    r"(?![A-Za-z0-9])[\"']?[ \t]*(?::=|=>|=(?!=)|:(?!:))[ \t]*"
    r"(?:\"([^\"\n]{1,200})\"|'([^'\n]{1,200})'|`([^`\n]{1,200})`|([^\s\"'`,;]{1,200}))"
)
_PW_FLAG = re.compile(r"(?i)(?<!\S)--?(?:password|passwd|pass|db-password)(?:=|[ \t]+)([\"']?)([^\s\"']+)\1")
_PW_MYSQL = re.compile(r"(?i)\bmysql(?:dump|admin|sh)?\b[^\n]*?(?<=\s)-p([\"']?)([^\s\"']{3,})\1(?=\s|$)")
_PW_USER_FLAG = re.compile(r"(?<!\S)(?:-u|--user)[ \t]+([\"']?)[^\s:\"']+:([^\s\"']+)\1")
_PW_PHRASE = re.compile(
    r"(?i)\b" + _PW_WORD + r"s?\b"
    r"(?:\s+(?:for|of|to|on|at|in)(?:\s+(?!is\b|was\b)[\w.@/-]{1,40}){1,4}?)?"
    r"\s*,?\s*(?:\bis\s+now\b|\bis\b|\bwas\b|\bare\b|\bchanged\s+to\b|\bset\s+to\b|\bbecame\b|:|=)\s*"
    r"(?:[\"'`“‘]([^\"'`”’\n]{1,200})[\"'`”’]|([^\s\"'`“”]{1,200}))"
)
_PW_USE_AS = re.compile(
    r"(?i)\buse\s+(?:[\"'`“]([^\"'`”\n]{1,200})[\"'`”]|(\S{1,200}))\s+as\s+(?:the\s+|my\s+|a\s+|our\s+)?"
    r"(?:[\w-]+\s+)?" + _PW_WORD + r"\b"
)

# Words that follow "password is" / "password:" in prose, not as a value.
_PROSE_WORDS = frozenset(
    """
    a an the at in on of to for by with and or but not no is are was be been being must should
    can cannot can't will would may might needs need has have had do does did min max minimum maximum
    least most only also just still now already never always too very so same different wrong
    incorrect invalid valid expired required optional correct weak strong short long secure insecure
    hashed stored saved set changed reset rotated empty blank missing ok okay fine visible hidden
    encrypted plaintext plain mine yours new old compromised leaked locked unlocked ignored case
    case-sensitive sensitive mandatory enforced checked validated sent shown masked generated random
    managed handled kept in-memory there here what which that this it its something anything nothing
    same-as see via from into using used protected rejected accepted supported unchanged updated
    """.split()
)
_CODE_PREFIX = re.compile(
    r"(?i)(?:os\.|env\b|process\.|self\.|this\.|config\b|settings\b|request\b|req\.|params\b|args\b|"
    r"form\b|kwargs\b|options\b|opts\b|getpass|input\b|secrets\.|vault\b|data\[|cfg\b)"
)
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_VAR_NAME = re.compile(r"[a-z_][a-z0-9_]*(?:pass|pwd|secret|key|token)[a-z0-9_]*|[a-z]+[A-Z]\w*(?:Password|Pwd)")


def _plausible_password(value: str, quoted: bool, rest: str, keyword: str = "") -> bool:
    """``value`` was written where a password goes; is it one (and not code, prose, a path)?"""
    v = value.strip()
    if len(v) < 3 or _is_placeholder(v):
        return False
    low = v.lower()
    if quoted:
        return True
    if v[0] in "{[(!&*|>" or "(" in v or "[" in v:
        return False
    if _CODE_PREFIX.match(v) or _DOTTED_NAME.fullmatch(v) or _VAR_NAME.fullmatch(v):
        return False
    if keyword.lower().endswith(("pwd", "pw")) and v[0] in "/~.":
        return False  # `pwd: /home/user` is a working directory
    if low in _PROSE_WORDS:
        return False
    if v.isalpha() and v.islower():
        # A plain word followed by more words is prose ("password: must be 12 chars long").
        nxt = rest.lstrip(" \t")
        if nxt and nxt[0].isalpha() and not nxt.lower().startswith(("and ", "but ", "so ")):
            return False
        return len(v) >= 4
    return True


def _passwords(text: str, lower: str) -> Iterator[_Span]:
    if "pass" in lower or "pw" in lower or "pswd" in lower:
        for m in _PW_ASSIGN.finditer(text):
            for g in (2, 3, 4, 5):
                if m.group(g) is not None:
                    s, e = m.start(g), m.end(g)
                    if g == 5:
                        e = _strip_trailing(text, s, e)
                    if e > s and _plausible_password(text[s:e], g != 5, text[e : e + 40], m.group(1)):
                        yield s, e, "password", _P_CONTEXT
                    break
        for m in _PW_PHRASE.finditer(text):
            g = 1 if m.group(1) is not None else 2
            s, e = m.start(g), m.end(g)
            if g == 2:
                e = _strip_trailing(text, s, e)
            if e > s and _plausible_password(text[s:e], g == 1, text[e : e + 40], m.group()):
                yield s, e, "password", _P_CONTEXT
        for m in _PW_FLAG.finditer(text):
            if _plausible_password(m.group(2), bool(m.group(1)), ""):
                yield m.start(2), m.end(2), "password", _P_CONTEXT
        for m in _PW_USE_AS.finditer(text):
            g = 1 if m.group(1) is not None else 2
            if _plausible_password(m.group(g), g == 1, ""):
                yield m.start(g), m.end(g), "password", _P_CONTEXT
    if "mysql" in lower:
        for m in _PW_MYSQL.finditer(text):
            if not _is_placeholder(m.group(2)):
                yield m.start(2), m.end(2), "password", _P_CONTEXT
    if "-u" in text:
        for m in _PW_USER_FLAG.finditer(text):
            if not _is_placeholder(m.group(2)):
                yield m.start(2), m.end(2), "password", _P_CONTEXT


_AUTH_HEADER = re.compile(
    r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?[ \t]*"
    r"(?:(bearer|basic|token|digest|apikey|api-key|sso-key|ssws)[ \t]+)?([^\s\"',;]{8,})"
)
_BEARER = re.compile(r"\b[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)")
_BASIC = re.compile(r"\bBasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")


def _decodes_to_userpass(value: str) -> bool:
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return ":" in decoded and decoded.isprintable()


def _auth_headers(text: str, lower: str) -> Iterator[_Span]:
    if "authorization" in lower:
        for m in _AUTH_HEADER.finditer(text):
            scheme = (m.group(1) or "").lower()
            s, e = m.start(2), m.end(2)
            value = text[s:e]
            if _is_placeholder(value) or value.lower().startswith(("your", "<", "$")):
                continue
            if not scheme and not (_mixed(value) and len(value) >= 12):
                continue
            yield s, e, "basic_auth" if scheme == "basic" else "bearer_token", _P_CONTEXT
    if "bearer" in lower:
        for m in _BEARER.finditer(text):
            if _looks_random(m.group(1)) or (_mixed(m.group(1)) and "." in m.group(1)):
                yield m.start(1), m.end(1), "bearer_token", _P_CONTEXT
    if "basic" in lower:
        for m in _BASIC.finditer(text):
            if _decodes_to_userpass(m.group(1)):
                yield m.start(1), m.end(1), "basic_auth", _P_CONTEXT


_AZURE_KEY = re.compile(r"(?i)\b(AccountKey|SharedAccessKey)[ \t]*=[ \t]*([A-Za-z0-9+/]{20,}={0,2})")
_AZURE_SIG = re.compile(r"[?&]sig=([A-Za-z0-9%+/=]{20,})")
_AWS_SECRET_NAMED = re.compile(
    r"(?i)(?:aws)?[_ .-]?secret[_ .-]?(?:access[_ .-]?)?key(?:[_ .-]?id)?[\"']?[ \t]*"
    r"(?:[:=]|=>|\bis\b)?[ \t]*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
_BASE64_40 = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_ALI_SECRET_NAMED = re.compile(
    r"(?i)access[_ .-]?key[_ .-]?secret[\"']?[ \t]*(?:[:=]|=>|\bis\b)?[ \t]*[\"']?"
    r"([A-Za-z0-9]{30})(?![A-Za-z0-9])"
)
_ALNUM_30 = re.compile(r"(?<![A-Za-z0-9/+=_-])[A-Za-z0-9]{30}(?![A-Za-z0-9/+=_-])")


def _both_cases_and_digit(value: str) -> bool:
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and _mixed(value)


def _cloud(text: str, lower: str) -> Iterator[_Span]:
    if "accountkey" in lower or "sharedaccesskey" in lower:
        for m in _AZURE_KEY.finditer(text):
            kind = "azure_storage_key" if m.group(1).lower() == "accountkey" else "azure_shared_access_key"
            yield m.start(2), m.end(2), kind, _P_CONTEXT
    if "sig=" in lower:
        for m in _AZURE_SIG.finditer(text):
            yield m.start(1), m.end(1), "azure_sas_signature", _P_CONTEXT
    if "secret" in lower:
        for m in _AWS_SECRET_NAMED.finditer(text):
            if _both_cases_and_digit(m.group(1)) or "/" in m.group(1) or "+" in m.group(1):
                yield m.start(1), m.end(1), "aws_secret_key", _P_CONTEXT
        for m in _ALI_SECRET_NAMED.finditer(text):
            if _mixed(m.group(1)):
                yield m.start(1), m.end(1), "alibaba_secret_key", _P_CONTEXT


def _companions(text: str, spans: list[_Span]) -> Iterator[_Span]:
    """A key id's secret half, when it sits in the same message under any name or none."""
    kinds = {s[2] for s in spans}
    if "aws_access_key" in kinds:
        for m in _BASE64_40.finditer(text):
            v = m.group()
            if _both_cases_and_digit(v) or (("/" in v or "+" in v) and _looks_random(v)):
                yield m.start(), m.end(), "aws_secret_key", _P_CONTEXT
    if "alibaba_access_key" in kinds:
        for m in _ALNUM_30.finditer(text):
            if _both_cases_and_digit(m.group()):
                yield m.start(), m.end(), "alibaba_secret_key", _P_CONTEXT


# --------------------------------------------------------------------------------------------
# Entropy next to a keyword
# --------------------------------------------------------------------------------------------

_SECRET_PARTS = frozenset(
    "key keys apikey token tokens secret secrets credential credentials creds passphrase auth "
    "signature sig salt pat bearer accesstoken authtoken".split()
)
# Parts of a name that make it something other than a secret value.
_NOT_SECRET_PARTS = frozenset(
    """
    public publishable primary foreign cache partition sort idempotency routing composite unique
    hash object dedup dedupe lookup map dict row index gpg pgp ssh license fingerprint
    """.split()
)
_NAME_SUFFIXES = frozenset(
    """
    id ids name names path file url uri endpoint type arn ref length len size count limit limits
    version alias region format prefix expiry expires ttl header field column env var location
    dir kind mode usage budget window max min index
    """.split()
)
_NAME_SPLIT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

_ASSIGN = re.compile(
    r"(?i)(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]{0,60}?)[\"']?[ \t]*(?:=>|:=|=|:)[ \t]*[\"'`]?"
    r"([A-Za-z0-9+/_.~=-]{16,512})"
)
_KEYWORD_PHRASE = re.compile(
    r"(?i)\b((?:api[ _-]?|access[ _-]?|secret[ _-]?|private[ _-]?|signing[ _-]?)?"
    r"(?:key|token|secret|credential|passphrase|pat)s?)\b"
    r"(?:\s+(?:for|of|to|on|in)(?:\s+(?!is\b|was\b)[\w.@/-]{1,40}){1,4}?)?"
    r"\s*,?\s*(?:(?:\bis\s+now\b|\bis\b|\bwas\b|\bare\b|:|=|=>|->)\s*)?[\"'`“]?"
    r"([A-Za-z0-9+/_.~=-]{16,512})"
)
_KEYWORD_HINTS = ("key", "token", "secret", "credential", "creds", "passphrase", "auth", "sig", "salt", "pat")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _name_parts(name: str) -> list[str]:
    return [p.lower() for p in _NAME_SPLIT.findall(name)]


def _secret_name(name: str) -> bool:
    parts = _name_parts(name)
    if not parts or not any(p in _SECRET_PARTS for p in parts):
        return False
    if any(p in _NOT_SECRET_PARTS for p in parts):
        return False
    return parts[-1] not in _NAME_SUFFIXES


def _entropy_value(text: str, s: int, e: int) -> int:
    """Trim a candidate value's trailing punctuation; return its new end, or -1 to drop it."""
    while e > s and text[e - 1] in ".,-_~":
        e -= 1
    value = text[s:e]
    if not _looks_random(value) or _is_placeholder(value):
        return -1
    return e


def _previous_word(text: str, pos: int) -> str:
    words = re.findall(r"[A-Za-z0-9-]+", text[max(0, pos - 24) : pos])
    return words[-1].lower() if words else ""


def _entropy(text: str, lower: str) -> Iterator[_Span]:
    if not any(h in lower for h in _KEYWORD_HINTS):
        return
    for m in _ASSIGN.finditer(text):
        if not _secret_name(m.group(1)):
            continue
        e = _entropy_value(text, m.start(2), m.end(2))
        if e > 0:
            yield m.start(2), e, "secret", _P_ENTROPY
    for m in _KEYWORD_PHRASE.finditer(text):
        if _previous_word(text, m.start(1)) in _NOT_SECRET_PARTS or not _secret_name(m.group(1)):
            continue
        value = m.group(2)
        operator = m.group()[len(m.group(1)) : m.start(2) - m.start()].strip(" \t\"'`“")
        if _UUID.fullmatch(value) and not operator:
            continue  # "the key 550e8400-..." names a record, not a secret
        e = _entropy_value(text, m.start(2), m.end(2))
        if e > 0:
            yield m.start(2), e, "secret", _P_ENTROPY


# --------------------------------------------------------------------------------------------
# Scan, merge, replace
# --------------------------------------------------------------------------------------------

_DETECTORS: tuple[Callable[[str, str], Iterator[_Span]], ...] = (
    _token_rules,
    _sk_keys,
    _structured,
    _cards,
    _url_passwords,
    _passwords,
    _auth_headers,
    _cloud,
    _entropy,
)


def _scan(text: str) -> list[Finding]:
    lower = text.lower()
    spans: list[_Span] = []
    for detect in _DETECTORS:
        spans.extend(detect(text, lower))
    spans.extend(list(_companions(text, spans)))
    if not spans:
        return []
    if "[REDACTED:" in text:
        taken = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(text)]
        spans = [sp for sp in spans if not any(sp[0] < pe and ps < sp[1] for ps, pe in taken)]
        if not spans:
            return []
    spans.sort(key=lambda sp: (sp[0], -sp[1]))
    merged: list[_Span] = []
    for span in spans:
        if merged and span[0] < merged[-1][1]:
            cur = merged[-1]
            start, end = cur[0], max(cur[1], span[1])
            # The most specific detector names the merged span; on a tie, the longer span does.
            better = span[3] < cur[3] or (span[3] == cur[3] and span[1] - span[0] > cur[1] - cur[0])
            kind, prio = (span[2], span[3]) if better else (cur[2], cur[3])
            merged[-1] = (start, end, kind, prio)
        else:
            merged.append(span)
    return [Finding(kind, start, end) for start, end, kind, _ in merged]


def redact(text: str) -> Redaction:
    """Replace every secret in ``text`` with ``[REDACTED:<kind>]``; spans refer to ``text``."""
    if not text:
        return Redaction(text, [])
    findings = _scan(text)
    if not findings:
        return Redaction(text, [])
    parts: list[str] = []
    pos = 0
    for f in findings:
        parts.append(text[pos : f.start])
        parts.append(placeholder(f.kind))
        pos = f.end
    parts.append(text[pos:])
    return Redaction("".join(parts), findings)


def looks_secret(text: str) -> bool:
    """True when :func:`redact` would find anything in ``text``."""
    return bool(text) and bool(_scan(text))
