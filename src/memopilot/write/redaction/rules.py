"""The project's own secret detectors (the first detector family of :mod:`memopilot.write.redaction`).

Each detector takes ``(text, lower)`` and yields spans ``(start, end, kind, priority)``; lower
priority numbers are more specific and win a merge.

Approach: hand-written, precompiled regular expressions in three families, each confirmed by
a small validator so that ordinary technical text survives.

* **Fixed formats**, where the shape is the evidence: AWS access key ids; GitHub, GitLab, Slack
  (tokens and webhook URLs), Stripe (keys and webhook secrets), Twilio, SendGrid, npm, PyPI,
  Hugging Face, Google API / OAuth, HashiCorp Vault and Telegram tokens; the project key in an
  Infura or Alchemy RPC URL; ``sk-`` API keys
  (OpenAI incl. ``sk-proj-``, Anthropic ``sk-ant-``, DashScope ``sk-`` + 32 hex); Alibaba
  ``LTAI`` ids; JWTs; PEM private key blocks (the whole block, also with the JSON-escaped
  ``\\n`` of a GCP service-account file); credit-card numbers (13-19 digits, plain or grouped,
  with a card network's prefix and length and a valid Luhn check digit).
* **Context**, where what stands before a value makes it a secret: URL passwords
  (``scheme://user:pass@host``: only the password goes, user and host stay); ``password=``,
  ``DB_PASSWORD:``, ``pwd:``, ``--password x``, ``mysql -px``, ``curl -u user:pass``, "my
  password is X", "the password for the db is X", "use X as the password", "login is
  admin/X", "pin is 1234"; ``Authorization: Bearer|Basic|token ...``; Azure ``AccountKey=`` /
  ``SharedAccessKey=`` / SAS ``sig=``; the AWS secret access key and Alibaba AccessKey secret
  next to their names, or anywhere in a message that also holds the matching key id; GCP
  ``private_key_id``. Validators reject what only stands where a secret would go:
  placeholders (``${DB_PASSWORD}``, ``<token>``, ``****``, ``your-api-key-here``), code
  (``password: str``, ``os.environ[...]``, ``getpass()``, ``settings.DB_PASSWORD``), paths
  (``pwd: /home/x``) and prose ("the password is too short").
* **Entropy**: a value of 16+ characters after a name containing key / token / secret /
  credential / passphrase / auth / salt / api_key (an assignment ``FOO_API_KEY=...``,
  ``"clientSecret": "..."``, ``?api_key=...``, or a phrase "the API key for X is ...", "my token
  ...") is a secret when it looks random: letters mixed with digits or both cases, Shannon
  entropy >= 3 bits per character, and under 75% of its letters in pronounceable chunks,
  which tells ``Zq8Lm2Np4Rt6Vx8B...`` from ``kv-payments-prod-eastus2`` or ``getUserById``.
  Names that are not secrets are skipped: public / primary / cache / idempotency / GPG key,
  ``key_id``, ``token_url``, ``KEY_VAULT_NAME``...

A JWT in a Bearer header is reported as ``jwt``, an ``sk-proj-`` key after ``password=`` as
``openai_api_key``: the most specific detector names a merged span.

Speed: detectors are gated by substring checks, patterns start with a literal so that ``re``
can skip ahead, and case-insensitive searches run case-sensitively over the lowercased text
(several times faster in ``re``); a typical 300-character message takes about 30 µs.

detect-secrets 1.5.0 was evaluated and not used. On this module's test corpora its 23 regex
plugins find 23% of the secrets (no Anthropic / DashScope / Alibaba / Bearer / phrase
passwords, OpenAI keys only in the old ``T3BlbkFJ`` form, Stripe live keys only) at about
145 µs per 300-character message; its entropy plugins, as run by ``scan_line``, flag almost
every ordinary sentence. It would also bring ``requests`` and ``pyyaml``. Some of its
patterns (AWS key id prefixes, GitLab prefixes, SendGrid, PyPI) informed the ones here.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import string
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from . import prefilter
from .keywords import Gates, Substrings

__all__ = [
    "DETECTORS",
    "P_CONTEXT",
    "P_ENTROPY",
    "P_FORMAT",
    "P_STRUCT",
    "TOKEN_PREFIXES",
    "Span",
    "companions",
    "fixed_format",
    "joined_word_passphrase",
    "plausible_password",
]


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

# (start, end, kind, priority): lower priority numbers are more specific and win a merge.
Span = tuple[int, int, str, int]

P_FORMAT = 10  # a vendor prefix / fixed shape
P_STRUCT = 20  # JWT, PEM block, card number
P_CONTEXT = 30  # named by its context: password, header, connection string
P_ENTROPY = 40  # random-looking value next to a keyword
P_PROSE = 45  # a value stated in prose or in a command's place (statements.py, commands.py)

_TRAILING_PUNCT = ".,;:!?)]}>'\"`’”"
# After a password, "!" and "?" are more likely part of it than the end of the sentence.
_PW_TRAILING = ".,;:)]}>'\"`’”"


def shannon(value: str) -> float:
    # (each character's count in the order of its first occurrence, as Counter(value).values() gives
    # them: the same sum, counted by str.count in C where a Counter updated a dict per character)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in map(value.count, dict.fromkeys(value)))


_DIGITS = frozenset(string.digits)
_UPPER = frozenset(string.ascii_uppercase)
_LOWER = frozenset(string.ascii_lowercase)


_WORD_CHUNK = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_THREE_LETTERS = re.compile(r"[A-Za-z]{3}")
_NO_VOWELS = str.maketrans("", "", "aeiouyAEIOUY")


def _wordiness(value: str) -> float:
    """Share of the letters that sit in pronounceable chunks (``payments``, ``User``, ``PROD``).

    Names, paths and camelCase identifiers score 0.8-1.0; random tokens mostly score below 0.5.
    """
    letters = sum(map(str.isalpha, value))
    if not letters:
        return 0.0
    if _THREE_LETTERS.search(value) is None:
        return 0.0  # a chunk is ASCII letters: none holds three without three in a row (a hash's hex)
    covered = 0
    for chunk in _WORD_CHUNK.findall(value):
        if len(chunk) >= 3 and 4 * (len(chunk) - len(chunk.translate(_NO_VOWELS))) >= len(chunk):
            covered += len(chunk)
    return covered / letters


def looks_random(value: str, min_len: int = 16) -> bool:
    """A random-looking token: long, mixed classes, >= 3 bits/char, not made of words."""
    if len(value) < min_len:
        return False
    has_digit = not _DIGITS.isdisjoint(value)
    has_upper = not _UPPER.isdisjoint(value)
    has_lower = not _LOWER.isdisjoint(value)
    if not (has_upper or has_lower) or not (has_digit or (has_upper and has_lower)):
        return False
    return _wordiness(value) < 0.75 and shannon(value) >= 3.0


def _mixed(value: str) -> bool:
    """Letters and digits both present (used to tell tokens from words)."""
    return not _DIGITS.isdisjoint(value) and not (_UPPER.isdisjoint(value) and _LOWER.isdisjoint(value))


def _both_cases(value: str) -> bool:
    return not (_UPPER.isdisjoint(value) or _LOWER.isdisjoint(value))


def _encoded_private_key(value: str) -> bool:
    head = value[:80]
    try:
        decoded = base64.b64decode(head[: len(head) // 4 * 4], validate=True)
    except binascii.Error:
        return False
    return b"PRIVATE KEY" in decoded.split(b"\n", 1)[0]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLACEHOLDER_WORDS = _words(
    """
    password passwd pass pwd pw secret secrets token key apikey api_key none null nil true false
    str string int integer bool boolean bytes char varchar text any unknown required optional
    undefined empty hidden redacted masked secretstr omitted hashed sha256 bcrypt argon2 changeit
    value values example dummy fake sample placeholder foo bar baz tbd todo n/a na env
    """
)
_ENV_REF = re.compile(
    r"\$\{[^}]*\}|\$\([^)]*\)|\$[A-Z_][A-Z0-9_]*|\$[a-z_][a-zA-Z_]*|%[A-Z_][A-Z0-9_]*%|%\(?\w*\)?[sd]"
)
_TEMPLATE = re.compile(r"<[^>]*>|\{\{.*\}\}|\{[^}]*\}|#\{[^}]*\}|\?|:[a-z_]\w*|[x*•.#_-]{3,}|…+", re.I)
_EXAMPLE_WORD = re.compile(
    r"(?:(?:your|my|the|some|an?)[-_ ]|example|dummy|fake|sample|test|placeholder|insert|enter|replace)"
    r"[-_ ]?[a-z_ -]*",
    re.I,
)


def is_placeholder(value: str) -> bool:
    """Env references, templates, masks and example words stand where a secret would go."""
    v = value.strip().strip("\"'`")
    if not v:
        return True
    low = v.lower()
    if low in _PLACEHOLDER_WORDS:
        return True
    if _ENV_REF.fullmatch(v) or _TEMPLATE.fullmatch(v) or v.startswith(("${", "{{", "%(", "<%")):
        return True  # also the opening of a template cut off by a space: "${{ secrets.X }}"
    if _MASK.fullmatch(v) or v.startswith(_FILE_REFERENCE) or _SECRET_VARIABLE.fullmatch(low):
        return True  # "guest:**@host", "password=./pg-password.txt", "PASSWORD :'new_password'"
    if _PLACEHOLDER_PHRASE.search(v):
        return True  # "xoxb-your-bot-token-here", "eyJ***truncated***"
    return bool(_EXAMPLE_WORD.fullmatch(v)) and not any(c.isdigit() for c in v)


_MASK = re.compile(r"[*•●xX]{2,}")
# Words of a template or a cut-off value: "your-signing-secret", "...-here", "***", "truncated".
_PLACEHOLDER_PHRASE = re.compile(
    r"(?i)(?:^|[-_ ])your[-_ ]|[-_]here$|\*{3}|…|truncated|redacted|changeme|replace[-_]?me"
)
# Where a secret is kept rather than the secret: a file (kubectl's --from-file, curl's @file).
_FILE_REFERENCE = ("./", "../", "@/", "@./", "~/", "/dev/", "/run/secrets/", "file:")
# "@" and a file's name: a lowercase name with an extension, or a path ("@secrets/pw.txt").
_AT_FILE = re.compile(r"@[a-z0-9_-]+(?:/[\w.-]+)*\.[a-z][a-z0-9]{0,4}|@[\w.-]+(?:/[\w.-]+)+")
# The name of a variable or a secret holding it ("pg_password", "new_password", "db_secret").
_SECRET_VARIABLE = re.compile(
    r"[a-z]+(?:_[a-z]+)*_(?:password|passwd|secret|token|key)|(?:password|secret)_[a-z_]+"
)


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _strip_trailing(text: str, start: int, end: int, chars: str = _TRAILING_PUNCT) -> int:
    """Drop sentence punctuation after an unquoted value; keep a closer whose opener is inside."""
    while end > start and text[end - 1] in chars:
        opener = _CLOSERS.get(text[end - 1])
        if opener is not None and opener in text[start : end - 1]:
            break
        end -= 1
    return end


# --------------------------------------------------------------------------------------------
# Fixed-format tokens
# --------------------------------------------------------------------------------------------

# Patterns start with their literal prefix (which lets the regex engine skip ahead fast); the
# character before a match is checked in Python so that a token never starts inside a word.
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ALNUM_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_E = r"(?![A-Za-z0-9_-])"


@dataclass(frozen=True, slots=True)
class _TokenRule:
    kind: str
    pattern: re.Pattern[str]
    hints: tuple[str, ...]  # case-sensitive substrings; the rule runs only if one occurs
    check: Callable[[str], bool] | None = None
    not_after: frozenset[str] = _WORD_CHARS
    least_digits: int = 0  # and only if the text holds that many digits (a hint found in most texts)
    # for an identifier that is a credential's half in one place only: what must stand right before it
    place: re.Pattern[str] | None = None


_TOKEN_RULES: tuple[_TokenRule, ...] = (
    _TokenRule(
        "aws_access_key",
        re.compile(r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"),
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        not_after=_ALNUM_CHARS,
    ),
    _TokenRule(
        "github_token",
        re.compile(r"gh[pousr]_[A-Za-z0-9]{36,251}" + _E),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    _TokenRule("github_token", re.compile(r"github_pat_[A-Za-z0-9_]{22,255}" + _E), ("github_pat_",)),
    # a GitHub token's first part, where a message gives it in pieces (a filter blocks it whole):
    # the prefix and 16 to 35 letters of both cases (a documented example repeats x or 0)
    _TokenRule(
        "github_token",
        re.compile(r"gh[pousr]_[A-Za-z0-9]{16,35}" + _E),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        lambda value: _both_cases(value[4:]),
    ),
    _TokenRule(
        "gitlab_token",
        re.compile(r"gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|oas|agent)-[A-Za-z0-9_-]{20,}" + _E),
        ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glcbt-", "glimt-", "gloas-", "glagent-"),
    ),
    _TokenRule("slack_token", re.compile(r"xox[abposre]-[A-Za-z0-9-]{10,}" + _E), ("xox",), _mixed),
    _TokenRule(
        "slack_webhook",
        # the whole URL: it is the credential (anyone holding it can post), not only its path
        re.compile(r"(?:https?://)?hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+"),
        ("hooks.slack.com",),
        not_after=frozenset(),
    ),
    _TokenRule(
        "teams_webhook",
        # a Microsoft Teams incoming webhook: the whole URL is the credential, as for Slack's
        re.compile(r"(?:https?://)?[\w-]+\.webhook\.office\.com/webhookb2/[^\s\"'<>`]+"),
        ("webhook.office.com",),
        not_after=frozenset(),
    ),
    _TokenRule(
        "webhook_url",
        # automation services' catch hooks, whose path is the credential as Slack's is (2026-12-06):
        # Zapier's (account number, then a hook key), Make's (32 characters), IFTTT's Maker key
        re.compile(
            r"(?:https?://)?(?:hooks\.zapier\.com/hooks/catch/\d+/[A-Za-z0-9]+/?"
            r"|hook\.(?:[a-z0-9]+\.)?make\.com/[a-z0-9]{24,}"
            r"|maker\.ifttt\.com/trigger/[\w-]+/(?:json/)?with/key/[A-Za-z0-9_-]{16,})"
        ),
        ("hooks.zapier.com", "make.com/", "maker.ifttt.com"),
        not_after=frozenset(),
    ),
    _TokenRule(
        "twitter_bearer_token",
        # an app-only bearer token: 20+ "A"s, then random characters, URL-encoded ("%3D") inside
        re.compile(r"A{20,}[A-Za-z0-9%]{30,}" + _E),
        ("AAAAAAAAAAAAAAAAAAAA",),
    ),
    _TokenRule(
        "stripe_key", re.compile(r"[sr]k_(?:live|test)_[0-9A-Za-z]{16,247}" + _E), ("k_live_", "k_test_")
    ),
    # Flutterwave's secret key ("FLWSECK-" or "FLWSECK_TEST-", 32 hex digits, "-X"; its public key,
    # "FLWPUBK-", is embedded in checkout pages) and its encryption key
    _TokenRule("flutterwave_secret_key", re.compile(r"FLWSECK(?:_TEST)?-[0-9a-f]{32}-X" + _E), ("FLWSECK",)),
    # an Atlassian API token: "ATATT3" and 150 characters or more (its "=" and checksum are taken
    # after it); gitleaks asks for exactly 186
    _TokenRule("atlassian_api_token", re.compile(r"ATATT3[A-Za-z0-9_-]{150,}" + _E), ("ATATT3",), _mixed),
    # a PEM private key in base64 (a Kubernetes secret's "tls.key", a CI variable): "-----BEGIN" is
    # "LS0tLS1CRUdJTi" in base64, and the decoded header names a private key
    _TokenRule(
        "private_key",
        re.compile(r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}" + _E),
        ("LS0tLS1CRUdJTi",),
        lambda value: _encoded_private_key(value),
    ),
    _TokenRule("stripe_webhook_secret", re.compile(r"whsec_[A-Za-z0-9]{24,}" + _E), ("whsec_",)),
    # WooCommerce's REST API keys: the consumer key ("ck_") and its secret ("cs_"), 40 hex digits
    # each, given together as curl's "-u ck_...:cs_..." or a client's two settings
    _TokenRule("woocommerce_api_key", re.compile(r"c[ks]_[0-9a-f]{40}" + _E), ("ck_", "cs_")),
    # a Tailscale key ("tskey-auth-", "tskey-api-", "tskey-client-"...): its id, a dash, the secret
    _TokenRule(
        "tailscale_key",
        re.compile(r"tskey-[a-z]{3,8}-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}" + _E),
        ("tskey-",),
        _mixed,
    ),
    # ClickUp's personal API token: "pk_", the user's number, 32 capitals and digits (a Stripe
    # publishable key, "pk_live_", is public: it has no number after "pk_")
    _TokenRule("clickup_token", re.compile(r"pk_\d{4,12}_[0-9A-Z]{32}" + _E), ("pk_",)),
    # Mapbox's secret and temporary tokens: "sk." or "tk." and a JWT-like body ({"u": user, "a": ...})
    # and its key (its public token, "pk.eyJ...", is embedded in every map's page)
    _TokenRule(
        "mapbox_token",
        re.compile(r"[st]k\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{16,}" + _E),
        ("sk.eyJ", "tk.eyJ"),
    ),
    _TokenRule(
        "firebase_server_key",
        # Firebase Cloud Messaging's legacy server key: its project's part, ":", then "APA91" and the
        # key (gitleaks has no rule; a detector of random tokens takes the part after the colon only)
        re.compile(r"AAAA[A-Za-z0-9_-]{7}:APA91[A-Za-z0-9_-]{100,}" + _E),
        (":APA91",),
    ),
    # A Twilio account SID names an account, as an AWS account id does: Twilio's console shows it,
    # and most of the corpora keep it in prose ("the account SID is AC..., the token is in the vault").
    # Written as a literal in code or config (TWILIO_ACCOUNT_SID=AC..., Client("AC...", ...)), it is
    # the user name of the API's basic auth, beside its password: the first corpus counts it so.
    _TokenRule(
        "twilio_account_sid",
        re.compile(r"AC[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
        ("AC",),
        _mixed,
        not_after=_ALNUM_CHARS,
        place=re.compile(r"""(?:=[ \t]*["'`]?|["'`]|(?:[A-Za-z]+_\w*|[a-z]+[A-Z]\w*)["']?[ \t]*:[ \t]*)$"""),
    ),
    _TokenRule(
        "twilio_api_key",
        re.compile(r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
        ("SK",),
        _mixed,
        not_after=_ALNUM_CHARS,
    ),
    _TokenRule(
        "sendgrid_api_key", re.compile(r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}" + _E), ("SG.",)
    ),
    _TokenRule("vault_token", re.compile(r"hv[sbr]\.[A-Za-z0-9_-]{24,}" + _E), ("hvs.", "hvb.", "hvr.")),
    _TokenRule("npm_token", re.compile(r"npm_[A-Za-z0-9]{36}" + _E), ("npm_",)),
    _TokenRule(
        "notion_token",
        re.compile(r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,50})" + _E),
        ("secret_", "ntn_"),
        _mixed,
    ),
    # a BitLocker recovery key: eight groups of six digits
    _TokenRule(
        "bitlocker_recovery_key",
        re.compile(r"[0-9]{6}(?:-[0-9]{6}){7}(?![0-9-])"),  # (ASCII digits, as count_digits counts)
        ("-",),
        not_after=_ALNUM_CHARS,
        least_digits=48,  # (its "-" is in most texts: the scan cost ~4 us on 300 characters)
    ),
    _TokenRule("pypi_token", re.compile(r"pypi-AgE[A-Za-z0-9_-]{50,}" + _E), ("pypi-AgE",)),
    # (a Hugging Face token is "hf_" and 34 letters, digits perhaps among them: gitleaks' rule reads
    # letters alone, which a random token of both cases needs no digit for)
    _TokenRule(
        "huggingface_token",
        re.compile(r"hf_[A-Za-z0-9]{30,}" + _E),
        ("hf_",),
        lambda token: _mixed(token) or looks_random(token[3:], 30),  # (letters of both cases, no words)
    ),
    _TokenRule("google_api_key", re.compile(r"AIza[0-9A-Za-z_-]{35}" + _E), ("AIza",)),
    # A Meta (Facebook, Instagram, WhatsApp Cloud API) access token: "EAA", a capital that says which
    # kind of app asked for it ("EAAB", "EAAG", "EAAJ" ...), and a hundred characters or more (gitleaks'
    # rule reads "EAAM" and "EAAC" alone)
    _TokenRule("meta_access_token", re.compile(r"EAA[A-Z][A-Za-z0-9]{90,}" + _E), ("EAA",), _mixed),
    _TokenRule("gcp_oauth_secret", re.compile(r"GOCSPX-[A-Za-z0-9_-]{20,}" + _E), ("GOCSPX-",)),
    _TokenRule(
        "alibaba_access_key",
        re.compile(r"LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])"),
        ("LTAI",),
        not_after=_ALNUM_CHARS,
    ),
    _TokenRule(
        "telegram_bot_token",
        re.compile(r"\d{8,10}:AA[A-Za-z0-9_-]{33}" + _E),
        (":AA",),
        not_after=frozenset("0123456789:"),
    ),
    # Keys whose shape names their vendor, said without the vendor's name (gitleaks' rules for
    # them need "mailchimp" or "contentful" next to the key): a Mailchimp key is 32 hex digits and
    # its data centre ("-us21"); a NuGet key "oy2" and 43 small letters and digits; a Contentful
    # personal access token "CFPAT-" and 43 characters; a Braintree access token names its
    # environment, merchant id and secret between "$" signs.
    _TokenRule(
        "mailchimp_api_key",
        re.compile(r"[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])"),
        ("-us",),
        _mixed,
        not_after=_ALNUM_CHARS,
    ),
    _TokenRule(
        "nuget_api_key", re.compile(r"oy2[a-z0-9]{43}(?![A-Za-z0-9])"), ("oy2",), _mixed, _ALNUM_CHARS
    ),
    _TokenRule("contentful_token", re.compile(r"CFPAT-[A-Za-z0-9_-]{43}" + _E), ("CFPAT-",)),
    # Heroku's API keys since 2024: "HRKU-" and about sixty characters (gitleaks' rule asks for
    # "HRKU-AA", which the keys Heroku prints do not all start with)
    _TokenRule("heroku_api_key", re.compile(r"HRKU-[A-Za-z0-9_-]{50,70}" + _E), ("HRKU-",), _mixed),
    # The project id in an Ethereum RPC endpoint's URL, which authenticates every call billed to the
    # project: Infura's "https://mainnet.infura.io/v3/<32 hex>" (also "/ws/v3/"), Alchemy's
    # "https://eth-mainnet.g.alchemy.com/v2/<32 characters>". Only the key goes; the host stays.
    _TokenRule(
        "infura_api_key",
        re.compile(r"(?:(?<=infura\.io/v3/)|(?<=infura\.io/ws/v3/))[0-9a-f]{32}(?![A-Za-z0-9])"),
        ("infura.io/",),
        not_after=frozenset(),
    ),
    _TokenRule(
        "alchemy_api_key",
        re.compile(r"(?:(?<=alchemy\.com/v2/)|(?<=alchemyapi\.io/v2/))[A-Za-z0-9_-]{32}" + _E),
        ("alchemy.com/v2/", "alchemyapi.io/v2/"),
        _mixed,
        not_after=frozenset(),
    ),
    # Asana's personal access tokens: a version digit, the user's (and app's) numeric ids, ":" and 32
    # hex digits ("2/1205.../1206...:9f3c..."); HubSpot's private app tokens: "pat-", a region, a UUID
    _TokenRule(
        "asana_token",
        re.compile(r"[0-2]/(?:\d{6,20}/)?\d{6,20}:[0-9a-f]{32}(?![A-Za-z0-9])"),
        ("/",),
        not_after=_ALNUM_CHARS,
        least_digits=24,
    ),
    _TokenRule(
        "hubspot_token",
        re.compile(r"pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" + _E),
        ("pat-",),
    ),
    _TokenRule(
        "braintree_token",  # (not "..._access_token": the placeholder would spell the token's start)
        re.compile(r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}(?![A-Za-z0-9])"),
        ("access_token$",),
    ),
)

_SK_KEY = re.compile(
    r"sk-(ant-(?:(?:api|admin)\d\d-)?|proj-|svcacct-|admin-|None-)?([A-Za-z0-9_-]{20,})" + _E
)
_HEX32 = re.compile(r"[0-9a-f]{32}")


def _starts_token(text: str, pos: int, not_after: frozenset[str] = _WORD_CHARS) -> bool:
    return pos == 0 or text[pos - 1] not in not_after


def _sk_keys(text: str, lower: str) -> Iterator[Span]:
    if "sk-" not in _GATES.present(lower):
        return
    for m in _SK_KEY.finditer(text):
        prefix, body = m.group(1) or "", m.group(2)
        if not _starts_token(text, m.start()) or not _mixed(body):
            continue
        if prefix.startswith("ant-"):
            kind = "anthropic_api_key"
        elif not prefix and _HEX32.fullmatch(body):
            kind = "dashscope_api_key"
        else:
            kind = "openai_api_key"
        yield m.start(), m.end(), kind, P_FORMAT


# One pass over the text finds which prefixes occur; only their rules run. A hint also runs the
# rules of the hints inside it ("ACCA" is found instead of "AC", so it runs the Twilio rule too).
_HINT_RULES: dict[str, tuple[_TokenRule, ...]] = {
    hint: tuple(r for r in _TOKEN_RULES if any(h in hint for h in r.hints))
    for hint in {h for r in _TOKEN_RULES for h in r.hints}
}
_HINT_RULE_INDEXES: dict[str, tuple[int, ...]] = {
    hint: tuple(index for index, r in enumerate(_TOKEN_RULES) if any(r is rule for rule in rules))
    for hint, rules in _HINT_RULES.items()
}
# The hints are found in the lowercased text, in the message's shared pass of every keyword automaton
# (keywords.py), then confirmed in the text as written, each by a `str` test: an automaton of their
# own over the text cost a pass of its own, 2-3 µs a message. (Every hint is ASCII: where the text
# holds one, the lowercased text holds it lowercased.)
_LOWER_HINTS = Substrings({hint.lower() for hint in _HINT_RULES})
_HINTS_OF_LOWER: dict[str, tuple[str, ...]] = {}
for _hint in sorted(_HINT_RULES):
    _HINTS_OF_LOWER[_hint.lower()] = (*_HINTS_OF_LOWER.get(_hint.lower(), ()), _hint)


def _hints_in(text: str, lower: str) -> set[str]:
    """The hints that occur in ``text`` (``lower``: its lowercased form)."""
    return {hint for low in _LOWER_HINTS.found(lower) for hint in _HINTS_OF_LOWER[low] if hint in text}


_PLACE_REACH = 40  # characters before a token that its rule's ``place`` reads


def _token_rules(text: str, lower: str) -> Iterator[Span]:
    hints = _hints_in(text, lower)
    if not hints:
        return
    digits = -1
    # (the rules of the hints found, in _TOKEN_RULES's order: a test of each of the 40-odd rules cost
    # more than the few hinted ones take)
    for index in sorted({index for hint in hints for index in _HINT_RULE_INDEXES[hint]}):
        rule = _TOKEN_RULES[index]
        if rule.least_digits:
            digits = count_digits(text) if digits < 0 else digits
            if digits < rule.least_digits:
                continue
        for m in rule.pattern.finditer(text):
            if (
                _starts_token(text, m.start(), rule.not_after)
                and (rule.check is None or rule.check(m.group()))
                and (rule.place is None or _in_place(rule.place, text, m.start()))
            ):
                yield m.start(), m.end(), rule.kind, P_FORMAT


def _in_place(place: re.Pattern[str], text: str, start: int) -> bool:
    return place.search(text, max(0, start - _PLACE_REACH), start) is not None


# The prefixes that open a vendor's token of a fixed format ("hf_", "glpat-", "hvs.", "sk-"): a
# key cut into pieces after one needs no digit to be found (pieces.py).
TOKEN_PREFIXES = (
    *sorted({h for r in _TOKEN_RULES for h in r.hints if len(h) >= 3 and h[-1] in "_-." and h[0].isalpha()}),
    "sk-",
)


def fixed_format(value: str) -> tuple[str, int] | None:
    """The kind and length of the vendor token of a fixed format that ``value`` starts with (None
    if none): pieces.py asks it of a key's pieces joined."""
    for detect in (_token_rules, _sk_keys):
        for start, end, kind, _ in detect(value, value.lower()):
            if start == 0:
                return kind, end
    return None


# --------------------------------------------------------------------------------------------
# Structured: JWT, PEM private keys, GCP service-account fields, card numbers
# --------------------------------------------------------------------------------------------

# Possessive runs and a start check right after the literal keep long "eyJeyJ..." runs linear.
_JWT = re.compile(r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]*+")

# A JWT that a terminal or a mail client wrapped onto further lines: its lines joined hold one
# ("eyJhbGciOi...eyJzdWIiOiI1\nNjc4...In0.SflK\nxwRJ..."); each line after the second continues it
# only while the line before is as long as the second (a wrap at a fixed width).
_JWT_LINES = re.compile(r"eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_.-]{8,}+(?:\r?\n[A-Za-z0-9_.-]+)+")


_SHORTEST_SIGNATURE = 43  # characters of base64url of HMAC-SHA256's 32 bytes (ES256's 86, RS256's 342)


def _wrapped_jwts(text: str) -> Iterator[Span]:
    for m in _JWT_LINES.finditer(text):
        lines = m.group().replace("\r", "").split("\n")
        whole = _JWT.fullmatch(lines[0])
        if whole is not None and len(lines[0]) - lines[0].rfind(".") - 1 >= _SHORTEST_SIGNATURE:
            continue  # a whole token on its line (the line after is the message's: "...\nthanks")
        taken = lines[:2]
        for line in lines[2:]:
            if len(taken[-1]) != len(lines[1]):
                break
            taken.append(line)
        jwt = _JWT.match("".join(taken))
        if jwt is None or jwt.end() <= len(lines[0]) or not _starts_token(text, m.start()):
            continue
        end, left = m.start(), jwt.end()  # the joined match's end, found in the text
        while left:
            if text[end] not in "\r\n":
                left -= 1
            end += 1
        yield m.start(), end, "jwt", P_STRUCT


# A whole PEM block (real newlines or JSON-escaped "\n"), up to its END line; a block cut short
# goes up to where its base64 body ends. Either way the body must hold base64, so that naming
# the header in a sentence is no secret.
_PEM_BEGIN = re.compile(r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----")
_PEM_BODY = re.compile(r"(?:(?:\\[nr]|\s)+[A-Za-z0-9+/=]{16,}+)+")
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/=]{16,}")
_PEM_MAX = 20_000
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d+:[\s\S]*?Private-MAC: [0-9a-f]+")
_GCP_KEY_ID = re.compile(r"\"private_key_id\"\s*:\s*\"([0-9a-f]{40})\"")


def _structured(text: str, lower: str) -> Iterator[Span]:
    gates = _GATES.present(lower)
    if "eyj" in gates:
        for m in _JWT.finditer(text):
            if _starts_token(text, m.start()):
                yield m.start(), m.end(), "jwt", P_STRUCT
        if "\n" in text:
            yield from _wrapped_jwts(text)
    if "private key" in gates:
        pos = 0
        while (m := _PEM_BEGIN.search(text, pos)) is not None:
            footer = f"-----END {m.group(1)}-----"
            stop = text.find(footer, m.end(), m.end() + _PEM_MAX)
            if stop >= 0:
                end = stop + len(footer) if _BASE64_RUN.search(text, m.end(), stop) else -1
            else:
                body = _PEM_BODY.match(text, m.end())
                end = body.end() if body is not None else -1
            if end > 0:
                yield m.start(), end, "private_key", P_STRUCT
            pos = max(end, m.end())
    if "putty-user-key-file" in gates:
        for m in _PUTTY.finditer(text):
            yield m.start(), m.end(), "private_key", P_STRUCT
    if "private_key_id" in gates:
        for m in _GCP_KEY_ID.finditer(text):
            yield m.start(1), m.end(1), "gcp_private_key_id", P_CONTEXT


_CARD = re.compile(
    r"[0-9]{4}(?:([ -]|  )[0-9]{4}\1[0-9]{4}\1[0-9]{4}(?:\1[0-9]{1,3})?"  # 4-4-4-4(-3), or 2 spaces
    r"|([ -])[0-9]{6}\2[0-9]{4,5}"  # Amex 4-6-5, Diners 4-6-4
    r"|[0-9]{9,15})"  # 13-19 digits in one run
    # not "1234...,50" (an amount), but a CSV field; a letter after it only in ASCII: Japanese and
    # Chinese write the next word on ("カード番号は5344...です"), which `\w` would take as one word
    r"(?![A-Za-z0-9_/-]|\.[0-9]|,[0-9]{1,2}(?![0-9/]))"
)
# "=" that ends its line: an .env file's empty value ("SMTP_PASSWORD=\n"), not a link to the next line.
_EMPTY_ASSIGNMENT = re.compile(r"s?[\"']?[ \t]*=[ \t]*\r?\n\s*$")
# A number named as a product's or a device's own ("serial 4944622225212", "IMEI 35...", "EAN
# 5901234123457"): a Luhn check digit is what those numbers carry too.
_DEVICE_NUMBER_BEFORE = re.compile(
    r"(?i)\b(?:serial|s/n|sn|imei|meid|iccid|isbn|ean|upc|gtin|barcode|bar code|tracking|part)"
    r"(?:[ \t]*(?:number|no\.?|nr\.?|#))?[ \t]*[:#=]?[ \t]*$"
)
_NOT_BEFORE_CARD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+./-")
# A card read out one digit at a time ("4 5 3 9 ..."), as a voice assistant's transcript or a
# cautious typist writes it: 13-19 single digits, one space between each.
# (The look-behinds follow the first digit, "(?<![\w.,-])" there read as "(?<![\w.,-][0-9])": a
# pattern that starts with a look-behind tries it at every position, one that starts with a digit
# is skipped to in C, six times less on technical text.)
_CARD_DIGIT_BY_DIGIT = re.compile(r"[0-9](?<![\w.,-][0-9])(?<![0-9] [0-9])(?: [0-9]){12,18}(?![\w]| [0-9])")


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
    if p4 == 9792 or p2 in (60, 81, 82) or 2200 <= p4 <= 2204:
        return 16 <= n <= 19  # Troy, RuPay, Mir
    return False


def count_digits(text: str) -> int:
    """How many ASCII digits ``text`` holds: deleted from its UTF-8 bytes in one C call, several
    times faster than ``str.translate`` with a table (a dictionary lookup per character). The last
    text's count is kept: the detectors ask it of the same message half a dozen times."""
    global _LAST_COUNTED
    last = _LAST_COUNTED
    if last[0] is text:
        return last[1]
    raw = text.encode("utf-8", "surrogatepass")
    count = len(raw) - len(raw.translate(None, b"0123456789"))
    _LAST_COUNTED = (text, count)  # (one tuple, read and replaced whole: thread-safe)
    return count


_LAST_COUNTED: tuple[str, int] = ("", 0)


def card_numbers(text: str, lower: str) -> Iterator[Span]:
    """Card numbers as one run of digits or in their networks' groups, Luhn-valid."""
    if count_digits(text) < 13:
        return  # a card number has 13 digits at least
    for m in _CARD.finditer(text) if prefilter.may(prefilter.CARD, text) else ():
        if not _starts_token(text, m.start(), _NOT_BEFORE_CARD):
            continue
        digits = m.group().replace(" ", "").replace("-", "")
        if 13 <= len(digits) <= 19 and _card_network(digits) and _luhn(digits):
            if _DEVICE_NUMBER_BEFORE.search(text, max(0, m.start() - 24), m.start()):
                continue
            # (payment providers' test numbers, 4242 4242 4242 4242, are found too: users give them
            # as their cards; only a message that calls one a test or an example keeps it, see
            # _documented_test_value in __init__.py)
            yield m.start(), m.end(), "credit_card", P_STRUCT
    yield from _cards_digit_by_digit(text)


# Twelve spaced digits, which every such card holds, written out: a pattern that starts with a
# literal space is skipped through in C (0.7 µs on 300 characters), where the card's own tries its
# look-behinds at every digit (3 µs; and a group repeated, "(?: [0-9]){12}", 5 µs).
_SPACED_DIGITS = re.compile(" [0-9]" * 12)


def _cards_digit_by_digit(text: str) -> Iterator[Span]:
    if not prefilter.may(prefilter.SPACED_DIGITS, text) or _SPACED_DIGITS.search(text) is None:
        return
    for m in _CARD_DIGIT_BY_DIGIT.finditer(text):
        digits = m.group().replace(" ", "")
        if _card_network(digits) and _luhn(digits):
            yield m.start(), m.end(), "credit_card", P_STRUCT


# --------------------------------------------------------------------------------------------
# Context: URLs, passwords, auth headers, cloud connection strings
# --------------------------------------------------------------------------------------------

# scheme://user:password@host; the user may be an e-mail address (smtp://me@example.com:pw@smtp...),
# and the password may hold an "@" that was not percent-encoded (redis://:C0b@lt@cache:6379): the
# host follows the last "@" before the path.
_URL_CRED = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/?#@\"'<>]*(?:@[^\s:/?#@\"'<>]+)?"
    r":([^\s@/\"'<>]+(?:@[^\s@/?#\"'<>]+)*)@(?=[^\s@/])"
)


def _url_passwords(text: str, lower: str) -> Iterator[Span]:
    if "://" not in _GATES.present(lower) or "@" not in text:
        return
    for m in _URL_CRED.finditer(text):
        if m.group(1).split("?")[0].isdigit():
            continue  # a port before a query that holds an address ("host:8080?to=a@b.org")
        if not is_placeholder(m.group(1)):
            yield m.start(1), m.end(1), "url_password", P_CONTEXT


# The password patterns run over the lowercased text (same offsets; a case-insensitive `re` scan
# is several times slower) and start with a literal so that the scan can skip ahead; word
# boundaries before that literal are checked in Python. Values are sliced from the original text.
_PW_WORD = r"(?:password|passwd|passphrase|passcode|pswd|pwd|pw)"
_PW_ASSIGN = re.compile(
    r"(password|passwd|passphrase|passcode|pswd|pwd|pw|pass)(?![a-z0-9])"
    r"[\"']?[ \t]*(?::=|=>|\?\?=|\|\|=|\?=|=(?!=)|:(?!:))[ \t]*"  # ("??=" ...: see _AFTER_ASSIGN)
    r"(?:\"([^\"\n]{1,200})\"|'([^'\n]{1,200})'|`([^`\n]{1,200})`|([^\s\"'`,;]{1,200}))"
)
_PW_FLAG = re.compile(r"--?(?:[a-z]+-)*(?:password|passwd|pass)(?:=|[ \t]+)([\"']?)([^\s\"']+)\1")
_PW_MYSQL = re.compile(r"(?i)\bmysql(?:dump|admin|sh)?\b[^\n]*?(?<=\s)-p([\"']?)([^\s\"']{3,})\1(?=\s|$)")
# (redis-cli's password is its -a: its -p is the port, which comes first as often)
_PW_CLI_FLAG = re.compile(
    r"(?i)\b(?:redis-cli\b[^\n]*?(?<=\s)-a|sshpass\b[^\n]*?(?<=\s)-p)[ \t]+([\"']?)([^\s\"']{3,})\1(?=\s|$)"
)
_PW_USER_FLAG = re.compile(r"(?<!\S)(?:-u|--user)[ \t]+([\"']?)[^\s:\"']+:([^\s\"']+)\1")
_PW_PHRASE = re.compile(
    r"(" + _PW_WORD + r")s?\b"
    r"(?:\s+(?:for|of|to|on|at|in)(?:\s+(?!is\b|was\b)[\w.@/-]{1,40}){1,4}?)?"
    r"\s*,?\s*(?:(?:it|which)\s+)?"
    r"(?:\bis\s+now\b|\bis\b|\bwas\b|\bare\b|\bchanged\s+to\b|\bset\s+to\b|\bbecame\b|:|=)\s*"
    # a Google app password is four groups of four letters: "abcd efgh ijkl mnop"
    r"(?:[\"'`“‘]([^\"'`”’\n]{1,200})[\"'`”’]|([a-z]{4}(?: [a-z]{4}){3})(?![a-z])|([^\s\"'`“”]{1,200}))"
)
_PW_USE_AS = re.compile(
    r"use\s+(?:[\"'`“]([^\"'`”\n]{1,200})[\"'`”]|(\S{1,200}))\s+as\s+(?:the\s+|my\s+|a\s+|our\s+)?"
    r"(?:[\w-]+\s+)?" + _PW_WORD + r"\b"
)
# A name that is the last cell of a table's or a CSV's header ("name,url,username,password",
# "| site | pass"): its values are in the column under it (statements.py reads them).
_CELL_BEFORE = re.compile(r"[,;|\t] *$")


def _header_cell(lower: str, name_start: int) -> bool:
    return _CELL_BEFORE.search(lower, lower.rfind("\n", 0, name_start) + 1, name_start) is not None


# "with password Tr1cky#Pass": no operator, so the value must look like a password on its own.
_PW_BARE = re.compile(_PW_WORD + r"\s+([^\s\"'`]{6,64})")
_CREDS_PAIR = re.compile(
    r"(?:creds|credentials|login)\b[^\n]{0,20}?(?:\bis\b|\bare\b|:|=)[ \t]*"
    r"[\"'`]?([^\s:/@\"'`]{1,64})([:/])([^\s@/\"'`]{1,128})"
)
# A moment as logs print it (ISO 8601, or a clock's time alone): "07:45", "2026-01-03T07:45:11.116Z".
_MOMENT = re.compile(r"(?:\d{4}-\d\d-\d\d[Tt ])?\d{1,2}:\d\d(?::\d\d(?:[.,]\d+)?)?(?:[Zz]|[+-]\d\d:?\d\d)?")
_PIN = re.compile(r"(?:pin|passcode)(?:\s+code)?\s*(?:\bis\b|:|=)\s*([0-9]{4,8})(?![0-9]|[.,:/-][0-9])")
# Words that make a "PIN code" India's postal code: "the PIN code for the area is 560001".
_POSTAL_CONTEXT = re.compile(
    r"\b(?:area|address|post office|locality|district|city|delivery|courier|shipping|gpo|parcel)\b"
    r"|पता|पार्सल|डाक"  # address, parcel, post in Hindi
)


def postal_pin_code(lower: str) -> bool:
    return _POSTAL_CONTEXT.search(lower) is not None


# Separators said as words after a value, twice at least (statements.py's _READ_OUT, in English).
_READ_OUT_AFTER = re.compile(
    r"(?i)(?:[ \t]+(?:dash|hyphen|space|underscore|dot|period|slash)[ \t]+[^\W_]+){2,}"
)
# A terminal's prompt for a password, which echoes nothing ("Enter password:\nERROR 1045 ...").
_PROMPT_BEFORE = re.compile(r"\b(?:enter|type|re-?enter|retype)(?:\s+(?:the|your|a|new))?\s+$")
_HASH_NAMES = _words("argon2 argon2id argon2i bcrypt scrypt pbkdf2 sha1 sha256 sha512 md5 ntlm")

# Words that follow "password is" / "password:" in prose, not as a value.
PROSE_WORDS = _words(
    """
    a an the at in on of to for by with and or but not no is are was be been being must should
    can cannot can't will would may might needs need has have had do does did min max minimum maximum
    least most only also just still now already never always too very so same different wrong right
    incorrect invalid valid expired required optional correct weak strong short long secure insecure
    hashed stored saved set changed reset rotated empty blank missing ok okay fine visible hidden
    encrypted plaintext plain mine yours new old compromised leaked locked unlocked ignored case
    case-sensitive sensitive mandatory enforced checked validated sent shown masked generated random
    managed handled kept in-memory there here what which that this it its something anything nothing
    same-as see via from into using used protected rejected accepted supported unchanged updated
    literally simply actually basically really exactly yes
    """
)
_CODE_PREFIX = re.compile(
    r"(?i)(?:os\.|env\b|process\.|self\.|this\.|config\b|settings\b|request\b|req\.|params\b|args\b|"
    r"form\b|kwargs\b|options\b|opts\b|getpass|input\b|secrets\.|vault\b|data\[|cfg\b)"
)
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# Three or more lowercase words joined by dots and ending in a number ("kettle.mossy.lagoon47"): a
# generated passphrase's shape (Bitwarden's and 1Password's word generators join with a separator
# and add a number), not code, whose dotted names seldom run to three words and a two-digit tail.
_DOTTED_PASSPHRASE = re.compile(r"[a-z]{3,}(?:\.[a-z]{3,}){2,}\d{2,4}")
# Three to eight small words joined by one separator, with no number ("willow.meadow.rocket",
# "violet-ember-glacier", "kiwi_meadow_ember"): how word generators print a passphrase (2026-12-06).
# Code joins names so too ("user.profile.password", "read-only-mode", "app.config.default"), but
# with words of its own; a word that names a secret, a setting, a place in code or a host's domain
# makes the value a name, and so does a word of prose ("see-the-wiki").
# The same with a number after the last word, joined by the separator ("heron-quill-maple-38").
_JOINED_WORDS = re.compile(r"[a-z]{3,12}([._-])[a-z]{3,12}(?:\1[a-z]{3,12}){1,6}(?:\1\d{1,4})?")
_JOINED_NUMBER = re.compile(r"[._-]\d+$")
# Two words or more joined by dots or underscores, mixed, and a letter with three digits last
# ("otter.harbor_e975", "rhubarb.zinnia.j317"): a generator's words and its random tail. Code's
# names end so seldom, and its words are found below ("video.codec_h264" holds none of them, but
# says itself only beside a password's name).
_TAILED_WORDS = re.compile(r"[a-z]{3,12}(?:[._][a-z]{3,12}){1,5}[._][a-z]\d{3}")
_TAIL = re.compile(r"[._][a-z]\d{3}$")
# Four words or more joined by one separator, a number on one of them ("lantern.otter4.maple.quill"):
# Bitwarden's generator with "include number" puts its digit after one word so (a module's path,
# "python3.logging.handlers", has fewer words).
_WORD_WITH_NUMBER = re.compile(r"[a-z]{3,12}\d{0,2}([._-])[a-z]{3,12}\d{0,2}(?:\1[a-z]{3,12}\d{0,2}){2,6}")
_DIGIT_RUN = re.compile(r"\d+")
# Three words or more joined by one separator and a digit or two on the last ("gravel.onion.kettle7",
# "saddle-pickle-juniper9"): 1Password's and Bitwarden's generators with a number, put at the end
# (joined by underscores, the words name a place as often: "stored in keychain_group_v2").
_DIGIT_TAILED_WORDS = re.compile(r"[a-z]{3,12}([.-])[a-z]{3,12}(?:\1[a-z]{3,12}){1,5}\d{1,2}")
_JOINED_SEPARATORS = re.compile(r"[._-]")
_CODE_WORDS = _words(
    """
    password passwd pass pwd pswd secret secrets token tokens key keys auth creds credential
    credentials env environ config conf cfg configs settings setting self this db database user users
    username name names value values data get set form request req response res args arg params param
    options opts app apps vault store default defaults local prod production dev develop development
    staging stage test tests testing hash hashed field fields input output new old current only read
    write mode none null true false type types string str int bool file files path dir main master
    admin root login account service services server client api http https www com net org edu gov
    internal corp lan json yaml yml xml txt php html spec metadata template helm chart release kube
    cluster namespace private public encrypted plain text example sample dummy changeme var vars ctx
    props state module resource item items inputs result
    """
)
_VOWEL = re.compile(r"[aeiouy]")


def joined_word_passphrase(value: str) -> bool:
    """Words joined by one separator the way a passphrase generator joins them (see above)."""
    if _JOINED_WORDS.fullmatch(value) is not None:
        words = _JOINED_SEPARATORS.split(_JOINED_NUMBER.sub("", value))
    elif _TAILED_WORDS.fullmatch(value) is not None:
        words = _JOINED_SEPARATORS.split(_TAIL.sub("", value))
    elif _WORD_WITH_NUMBER.fullmatch(value) is not None and len(_DIGIT_RUN.findall(value)) == 1:
        words = _JOINED_SEPARATORS.split(_DIGIT_RUN.sub("", value))
    elif _DIGIT_TAILED_WORDS.fullmatch(value) is not None:
        words = _JOINED_SEPARATORS.split(value.rstrip("0123456789"))
    else:
        return False
    return all(w not in _CODE_WORDS and w not in PROSE_WORDS and _VOWEL.search(w) for w in words)


# A variable holding the password (`new_password`, `db_pwd`, `userPassword`), not the password.
_VAR_NAME = re.compile(
    r"[a-z][a-z0-9]*_[a-z0-9_]*(?:pass|pwd|secret|key|token)[a-z0-9_]*"
    r"|[a-z0-9]*(?:pass|pwd|secret|key|token)[a-z0-9]*_[a-z0-9_]*"
    r"|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*(?:Password|Passwd|Pwd|Pass|Secret|Token|Key)"
)


# The algorithm that starts an SSH public key's line (authorized_keys, known_hosts, a .pub file).
_SSH_KEY_TYPE = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
    r"(?:-cert-v01@openssh\.com)?"
)


def plausible_password(value: str, quoted: bool, rest: str, keyword: str = "") -> bool:
    """``value`` was written where a password goes; is it one (and not code, prose, a path)?"""
    v = value.strip()
    if len(v) < 3 or is_placeholder(v):
        return False
    low = v.lower()
    if quoted:
        return True
    if _AT_FILE.fullmatch(v):
        return False  # "db_password=@db_password.txt": curl's, vault's, httpie's "read it from a file"
    if v[0] in "{[(!&*|>" or "(" in v or "[" in v:
        return False
    if _READ_OUT_AFTER.match(rest):
        return False  # "Cactus dash thunder dash 5317": read out, statements.py takes it whole
    if v[0] == "<" and ">" in rest.partition("\n")[0]:
        return False  # "<paste token here>": a placeholder of several words, cut at its first space
    if _CODE_PREFIX.match(v) or _VAR_NAME.fullmatch(v):
        return False
    cased_with_digit = not (_UPPER.isdisjoint(v) or _LOWER.isdisjoint(v) or _DIGITS.isdisjoint(v))
    if (
        _DOTTED_NAME.fullmatch(v)
        and not cased_with_digit
        and not _DOTTED_PASSPHRASE.fullmatch(v)
        and not joined_word_passphrase(v)
        and not looks_random(v.replace(".", ""))
    ):
        return False  # `settings.DB_PASSWORD` is code; `Willow.Glacier.5492`, `kQzTwuPxLm.VbRtYe` passwords
    if keyword.lower() == "pass" and not (_mixed(v) or not v.isalnum()):
        return False  # "pass: 12" in a test report
    if keyword.lower().endswith(("pwd", "pw")) and v[0] in "/~.":
        return False  # `pwd: /home/user` is a working directory
    if low in PROSE_WORDS or low.rstrip("?!") in _PLACEHOLDER_WORDS:
        return False  # (also "manage_password = true?": a setting asked about)
    if _SSH_KEY_TYPE.fullmatch(v):
        return False  # "asks for a password:\nssh-ed25519 AAAA...": a public key's line follows
    if v.isalpha() and v.islower():
        # A plain word followed by more words is prose ("password: must be 12 chars long").
        nxt = rest.lstrip(" \t")
        if nxt and nxt[0].isalpha() and not nxt.lower().startswith(("and ", "but ", "so ")):
            return False
        return len(v) >= 4
    return True


def _word_start(lower: str, pos: int) -> bool:
    return pos == 0 or not lower[pos - 1].isalnum()


def _password_value(
    text: str, m: re.Match[str], certain: tuple[int, ...], bare: int
) -> tuple[int, int, bool]:
    """The span of the value group that matched and whether it is certain (quoted or of a fixed
    shape); a bare value loses its trailing punctuation."""
    for g in (*certain, bare):
        if m.group(g) is not None:
            s, e = m.start(g), m.end(g)
            if g == bare:
                e = _strip_trailing(text, s, e, _PW_TRAILING)
            return s, e, g != bare
    return 0, 0, False


# A strength meter's reading right after the name ("password: score 3/4", "passphrase - entropy 71 bits").
METER_READING = re.compile(r"[ \t]*[:=-]?[ \t]*(?:score|rating|entropy|guesses)\b[ \t:=]*~?\d")


def _passwords(text: str, lower: str) -> Iterator[Span]:
    gates = _GATES.present(lower)
    if "pass" in gates or "pw" in gates or "pswd" in gates:
        for m in _PW_ASSIGN.finditer(lower):
            keyword = m.group(1)
            if keyword in ("pwd", "pw", "pass") and not _word_start(lower, m.start()):
                continue  # "bypass", "compass"; but DB_PASSWORD, PGPASSWORD, userPassword are fine
            if METER_READING.match(lower, m.end(1)):
                continue  # a strength meter's reading (see below)
            s, e, quoted = _password_value(text, m, (2, 3, 4), 5)
            if e > s and plausible_password(text[s:e], quoted, text[e : e + 40], keyword):
                yield s, e, "password", P_CONTEXT
        for m in _PW_PHRASE.finditer(lower):
            if not _word_start(lower, m.start()):
                continue
            s, e, quoted = _password_value(text, m, (2, 3), 4)
            if not quoted and text.startswith(":", e):
                continue  # "pg_password:\n  file: ./secrets/pg": the next key, not a value
            if METER_READING.match(lower, m.end(1)):
                continue  # "new password: score 4/4": a strength meter's reading (zxcvbn's score, bits)
            if _EMPTY_ASSIGNMENT.match(lower, m.end(1), s):
                continue  # "DB_PASSWORD=\nREDIS_PASSWORD=": an empty value, then the next line
            if "\n" in text[m.end(1) : s] and _PROMPT_BEFORE.search(lower, max(0, m.start() - 16), m.start()):
                continue  # "Enter password:" then the program's output: a prompt echoes nothing
            if lower.startswith("s", m.end(1)) and text[s:e].isalpha() and text[s:e].islower():
                continue  # "37 of my passwords are reused": passwords described, not given
            if e > s and plausible_password(text[s:e], quoted, text[e : e + 40], m.group(1)):
                yield s, e, "password", P_CONTEXT
        for m in _PW_FLAG.finditer(lower) if prefilter.may(prefilter.PW_FLAG, text) else ():
            if m.start() == 0 or lower[m.start() - 1].isspace():
                value = text[m.start(2) : m.end(2)]
                if plausible_password(value, bool(m.group(1)), ""):
                    yield m.start(2), m.end(2), "password", P_CONTEXT
        for m in _PW_BARE.finditer(lower):
            if not _word_start(lower, m.start()):
                continue
            if "\n" in lower[m.start() : m.start(1)] and _header_cell(lower, m.start()):
                continue  # "name,url,username,password" then a row: the column's, not the next line
            s, e = m.start(1), _strip_trailing(text, m.start(1), m.end(1), _PW_TRAILING)
            value = text[s:e]
            if (
                len(value) >= 6
                and not _UPPER.isdisjoint(value)
                and not _LOWER.isdisjoint(value)
                and not _DIGITS.isdisjoint(value)
                and re.sub(r"[^a-z0-9]", "", value.lower()) not in _HASH_NAMES
                and plausible_password(value, False, "")
            ):
                yield s, e, "password", P_CONTEXT
        if "use" in gates:
            for m in _PW_USE_AS.finditer(lower):
                if _word_start(lower, m.start()):
                    s, e, quoted = _password_value(text, m, (1,), 2)
                    if plausible_password(text[s:e], quoted, ""):
                        yield s, e, "password", P_CONTEXT
    if "cred" in gates or "login" in gates:
        for m in _CREDS_PAIR.finditer(lower):
            if not _word_start(lower, m.start()):
                continue
            s, e = m.start(3), _strip_trailing(text, m.start(3), m.end(3), _PW_TRAILING)
            value = text[s:e]
            if m.group(2) == "/" and not (m.group(1).isalnum() and _mixed(value) and len(value) >= 6):
                continue  # "admin/Welcome2026!" is a pair; "~/.aws" and "auth/callback" are paths
            if m.group(2) == ":" and _MOMENT.fullmatch(text, m.start(1), e):
                continue  # "last_login=2026-01-03T07:45:11Z": a moment, its hours and minutes
            if e > s and not value.isdigit() and plausible_password(value, False, ""):
                yield s, e, "password", P_CONTEXT
    if "pin" in gates or "passcode" in gates:
        for m in _PIN.finditer(lower):
            if " code" in m.group() and postal_pin_code(lower):
                continue  # India's PIN code is its postcode
            if _word_start(lower, m.start()):
                yield m.start(1), m.end(1), "password", P_CONTEXT
    if "mysql" in gates:
        for m in _PW_MYSQL.finditer(text):
            if not is_placeholder(m.group(2)):
                yield m.start(2), m.end(2), "password", P_CONTEXT
    if "redis-cli" in gates or "sshpass" in gates:
        for m in _PW_CLI_FLAG.finditer(text):
            if not is_placeholder(m.group(2)):
                yield m.start(2), m.end(2), "password", P_CONTEXT
    if "-u" in gates:
        for m in _PW_USER_FLAG.finditer(text):
            if not is_placeholder(m.group(2)):
                yield m.start(2), m.end(2), "password", P_CONTEXT


_AUTH_HEADER = re.compile(
    r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?[ \t]*"
    r"(?:(bearer|basic|token|digest|apikey|api-key|sso-key|ssws)[ \t]+)?"
    r"([A-Za-z0-9._~+/-]{8,}=*)(?![^\s\"',;])"
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


def _auth_headers(text: str, lower: str) -> Iterator[Span]:
    gates = _GATES.present(lower)
    if "authorization" in gates:
        for m in _AUTH_HEADER.finditer(text):
            scheme = (m.group(1) or "").lower()
            s, e = m.start(2), m.end(2)
            value = text[s:e]
            if is_placeholder(value) or value.lower().startswith(("your", "<", "$")):
                continue
            if not scheme and not (_mixed(value) and len(value) >= 12):
                continue
            yield s, e, "basic_auth" if scheme == "basic" else "bearer_token", P_CONTEXT
    if "bearer" in gates:
        for m in _BEARER.finditer(text):
            if looks_random(m.group(1)) or (_mixed(m.group(1)) and "." in m.group(1)):
                yield m.start(1), m.end(1), "bearer_token", P_CONTEXT
    if "basic" in gates:
        for m in _BASIC.finditer(text):
            if _decodes_to_userpass(m.group(1)):
                yield m.start(1), m.end(1), "basic_auth", P_CONTEXT


_AZURE_KEY = re.compile(r"(?i)\b(AccountKey|SharedAccessKey)[ \t]*=[ \t]*([A-Za-z0-9+/]{20,}={0,2})")
_AZURE_SIG = re.compile(r"[?&]sig=([A-Za-z0-9%+/=]{20,})")
# (Found from "secret"'s first letter, which `re` skips to in C: the name's optional "aws_" before
# it, first in the pattern, was tried at every position, 13 µs on a message that holds "secret";
# the value, group 1, is the same wherever the match starts. "ſ" is an "s" to IGNORECASE.)
_AWS_SECRET_NAMED = re.compile(
    r"[sSſ](?i:ecret[_ .-]?(?:access[_ .-]?)?key(?:[_ .-]?id)?[\"']?[ \t]*"
    r"(?:[:=]|=>|\bis\b)?[ \t]*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=]))"
)
_BASE64_40 = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_ALI_SECRET_NAMED = re.compile(
    r"(?i)access[_ .-]?key[_ .-]?secret[\"']?[ \t]*(?:[:=]|=>|\bis\b)?[ \t]*[\"']?"
    r"([A-Za-z0-9]{30})(?![A-Za-z0-9])"
)
_ALNUM_30 = re.compile(r"(?<![A-Za-z0-9/+=_-])[A-Za-z0-9]{30}(?![A-Za-z0-9/+=_-])")


def _both_cases_and_digit(value: str) -> bool:
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and _mixed(value)


def _cloud(text: str, lower: str) -> Iterator[Span]:
    gates = _GATES.present(lower)
    if "accountkey" in gates or "sharedaccesskey" in gates:
        for m in _AZURE_KEY.finditer(text):
            kind = "azure_storage_key" if m.group(1).lower() == "accountkey" else "azure_shared_access_key"
            yield m.start(2), m.end(2), kind, P_CONTEXT
    if "sig=" in gates:
        for m in _AZURE_SIG.finditer(text):
            yield m.start(1), m.end(1), "azure_sas_signature", P_CONTEXT
    if "secret" in gates:
        for m in _AWS_SECRET_NAMED.finditer(text):
            if _both_cases_and_digit(m.group(1)) or "/" in m.group(1) or "+" in m.group(1):
                yield m.start(1), m.end(1), "aws_secret_key", P_CONTEXT
        for m in _ALI_SECRET_NAMED.finditer(text):
            if _mixed(m.group(1)):
                yield m.start(1), m.end(1), "alibaba_secret_key", P_CONTEXT


# What follows a card number in the same record: its expiry (MM/YY or MM/YYYY) and its security
# code, a lone run of three or four digits (after a label in any language, after the expiry, or as
# the next field of a CSV row or JSON object). The card itself was found by its network and Luhn
# check, so a number beside it is very likely its code; amounts are told by their currency or unit.
_CARD_RECORD = 120  # characters after the card read for its expiry and code
_CARD_EXPIRY = re.compile(r"(?<![\d/.-])(?:0[1-9]|1[0-2])\s?/\s?(?:20)?\d{2}(?![\d/.-])")
_CARD_CODE = re.compile(r"(?<![\d/.$€£¥:-])\d{3,4}(?![\d/.,:]\d|[\d/%])")
_AMOUNT_AFTER = re.compile(
    r"\s*(?:[$€£¥%]|usd|eur|gbp|dollars?|euros?|pounds?|quid|bucks|x\b|times|items?|pcs|km|kg|mb|gb|ms)",
    re.IGNORECASE,
)
_YEAR_LIKE = re.compile(r"(?:19|20)\d\d")
_THOUSANDS_BEFORE = re.compile(r"(?<![\d/])\d{1,3},$")


def codes_after_cards(text: str, cards: Iterable[Span]) -> Iterator[Span]:
    """The expiry and security code written after each card, up to the next card or line."""
    cards = sorted(cards)
    for i, card in enumerate(cards):
        stop = min(len(text), card[1] + _CARD_RECORD)
        if i + 1 < len(cards):
            stop = min(stop, cards[i + 1][0])
        window_end = text.find("\n", card[1], stop)
        window_end = stop if window_end < 0 else window_end
        for m in _CARD_EXPIRY.finditer(text, card[1], window_end):
            yield m.start(), m.end(), "card_expiry", P_CONTEXT
        for m in _CARD_CODE.finditer(text, card[1], window_end):
            if _YEAR_LIKE.fullmatch(m.group()) or _AMOUNT_AFTER.match(text, m.end()):
                continue
            if _THOUSANDS_BEFORE.search(text, max(0, m.start() - 6), m.start()):
                continue  # "1,234": the rest of a number
            yield m.start(), m.end(), "card_security_code", P_CONTEXT
            break


def companions(text: str, spans: list[Span]) -> Iterator[Span]:
    """A key id's secret half, or a card's security code, when it sits in the same message."""
    kinds = {s[2] for s in spans}
    if "credit_card" in kinds:
        yield from codes_after_cards(text, [s for s in spans if s[2] == "credit_card"])
    if "aws_access_key" in kinds:
        for m in _BASE64_40.finditer(text):
            v = m.group()
            if _both_cases_and_digit(v) or (("/" in v or "+" in v) and looks_random(v)):
                yield m.start(), m.end(), "aws_secret_key", P_CONTEXT
    if "alibaba_access_key" in kinds:
        for m in _ALNUM_30.finditer(text):
            if _both_cases_and_digit(m.group()):
                yield m.start(), m.end(), "alibaba_secret_key", P_CONTEXT


# --------------------------------------------------------------------------------------------
# Entropy next to a keyword
# --------------------------------------------------------------------------------------------

_SECRET_PARTS = _words(
    "key keys apikey appid token tokens secret secrets credential credentials creds passphrase auth "
    "salt pat bearer accesstoken authtoken sessionid sessid jsessionid phpsessid"
)
# Parts of a name that make it something other than a secret value.
_NOT_SECRET_PARTS = _words(
    """
    public publishable primary foreign cache partition sort idempotency routing composite unique
    hash object dedup dedupe lookup map dict row index gpg pgp ssh fingerprint
    """
)
_NAME_SUFFIXES = _words(
    """
    id ids name names path file url uri endpoint type arn ref length len size count limit limits
    version alias region format prefix expiry expires ttl header field column env var location
    dir kind mode usage budget window max min index
    """
)
_NAME_SPLIT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

# Anchor: a keyword somewhere inside a name (``key``, ``API_KEY``, ``clientSecret``, ``x-api-key``),
# in the lowercased text. Its occurrences come from the message's shared keyword pass (see
# keywords.py), as an alternation of the words would find them (no word is a prefix of another):
# the alternation's own scan cost 5-7 µs on 300 characters.
_KEYWORD_WORDS = "key|token|secret|credential|creds|passphrase|auth|salt|pat|bearer|appid|sessid|sessionid"
_ANY_KEYWORD = Substrings(_KEYWORD_WORDS.split("|"))
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
# After the name: an assignment (`=`, `:`, `=>`) or a phrase ("for the weather API is"), or nothing.
# (The phrase's words are whole: "set KEY to <40 characters>" is the value, not a word of it.)
_AFTER_NAME = re.compile(
    r"(?i)[\"']?(?:\s+(?:for|of|to|on|in)(?:\s+(?!is\b|was\b)[\w.@/-]{1,40}(?![\w.@/-])){1,4}?)?"
    r"[ \t]*,?[ \t]*(?:(\bis\s+now\b|\bis\b|\bwas\b|\bare\b|=>|:=|->|=|:)\s*)?[\"'`“]?"
    r"([A-Za-z0-9+/_.~=-]{16,4096})"
)
# An assignment takes any non-space value (Django keys hold symbols); a query string ends at `&x=`.
# The name may be a map's key in brackets: `os.environ["X_TOKEN"] = "..."`, `cfg['api_key'] = ...`.
# (Values run to 4096 characters: a 1Password service-account token is base64 JSON of ~800.)
# (Also a compound assignment that sets a value only when none is set: JavaScript's and PHP's "??=",
# Ruby's "||=", a Makefile's "?=".)
_AFTER_ASSIGN = re.compile(
    r"[\"']?\]?[ \t]*(?:=>|:=|\?\?=|\|\|=|\?=|=|:)[ \t]*[\"'`]?([^\s\"'`,;<>]{16,4096})"
)
# A value shorter than 16 after a name ending in "secret": letters of both cases and digits only.
_SHORT_SECRET = re.compile(r"[\"']?[ \t]*(?:=>|:=|=|:)[ \t]*[\"'`]?([A-Za-z0-9]{8,15})(?![\w-])")


def _kinds_of_alnum(value: str) -> int:
    return any(c.islower() for c in value) + any(c.isupper() for c in value) + any(c.isdigit() for c in value)


_NEXT_PARAM = re.compile(r"&[A-Za-z_][\w.-]*=")
_LOG_FIELD = re.compile(r"[a-z_][a-z0-9_.]*=")
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _name_parts(name: str) -> list[str]:
    return [p.lower() for p in _NAME_SPLIT.findall(name)]


# A name part that runs a word into "token" or "secret" is one too: Django's "csrftoken" cookie,
# "bottoken", "appsecret" (camelCase and snake_case names are split into their words already).
_SECRET_ENDINGS = ("token", "secret")


def _secret_name(name: str) -> bool:
    parts = _name_parts(name)
    if not parts or not any(p in _SECRET_PARTS or p.endswith(_SECRET_ENDINGS) for p in parts):
        return False
    if any(p in _NOT_SECRET_PARTS for p in parts):
        return False
    return parts[-1] not in _NAME_SUFFIXES


# A path that ends in a file's name and extension (a key's random part has no ".ext" after a "/").
_FILE_PATH = re.compile(r"(?:[\w.-]+/)+[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}")


def _entropy_value(text: str, s: int, e: int) -> int:
    """Trim a candidate value's trailing punctuation; return its new end, or -1 to drop it."""
    while e > s and text[e - 1] in ".,-_~":
        e -= 1
    value = text[s:e]
    if not looks_random(value) or is_placeholder(value):
        return -1
    if value.startswith("eyJ") and "." not in value:
        return -1  # one base64 JSON object: a pagination cursor or state blob, not a key
    if value.startswith(("pk.", "pk_")):
        return -1  # a publishable key (Mapbox, Stripe): public by design
    if _FILE_PATH.fullmatch(value):
        return -1  # "S3 key uploads/2026-05-16/a1b2c3.jpg": an object's name, a path to a file
    return e


def _previous_word(text: str, pos: int) -> str:
    words = re.findall(r"[A-Za-z0-9-]+", text[max(0, pos - 24) : pos])
    return words[-1].lower() if words else ""


# An app's or a client's secret named in prose, with no operator: a short run of letters and digits
# (Dropbox's app secrets are 15 lowercase letters and digits).
_SAID_SHORT_SECRET = re.compile(r"[ \t]+([A-Za-z0-9]{10,15})(?![\w-])")
_CLIENT_WORDS = frozenset(("app", "client", "consumer", "api", "oauth", "application"))


def _code_like(value: str) -> bool:
    """Letters and three digits at least, not a word with a number after it ("version2024")."""
    digits = sum(c.isdigit() for c in value)
    return digits >= 3 and digits < len(value) - 3 and not re.fullmatch(r"[A-Za-z]+\d+", value)


def _entropy(text: str, lower: str) -> Iterator[Span]:
    if not _ANY_KEYWORD.search(lower):
        return
    n = len(text)
    done_until = -1
    for start, end in _ANY_KEYWORD.spans(lower):  # (what `_KEYWORD.finditer(lower)` finds)
        if start < done_until:
            continue  # same name as the previous keyword ("secret_key")
        while start > 0 and text[start - 1] in _NAME_CHARS:
            start -= 1
        while end < n and text[end] in _NAME_CHARS:
            end += 1
        done_until = end
        while end > start and text[end - 1] in ".-":
            end -= 1
        assign = _AFTER_ASSIGN.match(text, end)
        if assign is None and lower.endswith("secret", start, end):
            short = _SHORT_SECRET.match(text, end)  # "X-Naver-Client-Secret: g2BkXpVubb"
            if short is not None and _kinds_of_alnum(short.group(1)) == 3 and _secret_name(text[start:end]):
                yield short.start(1), short.end(1), "secret", P_ENTROPY
                continue
            said = _SAID_SHORT_SECRET.match(text, end)  # "(app key ..., app secret jasenex4us64pag)"
            if (
                said is not None
                and _previous_word(text, start) in _CLIENT_WORDS
                and _code_like(said.group(1))
            ):
                yield said.start(1), said.end(1), "secret", P_ENTROPY
                continue
        m = assign or _AFTER_NAME.match(text, end)
        if m is None or not _secret_name(text[start:end]) or _previous_word(text, start) in _NOT_SECRET_PARTS:
            continue
        vs, ve = m.span(1 if assign is not None else 2)
        if assign is None and m.group(1) is None:
            if vs == end:
                continue  # no operator and no space: part of a path such as ".../cryptoKeys/x"
            if UUID.fullmatch(text[vs:ve]):
                continue  # "the key 550e8400-..." names a record, not a secret
            if _LOG_FIELD.match(text, vs, ve):
                continue  # "auth-service request_id=7572...": a log line's next field, not a value
        nxt = _NEXT_PARAM.search(text, vs, ve)
        if nxt is not None:
            ve = nxt.start()
        e = _entropy_value(text, vs, ve)
        if e > 0:
            yield vs, e, "secret", P_ENTROPY


# --------------------------------------------------------------------------------------------
# Session cookies
# --------------------------------------------------------------------------------------------

# A cookie that holds a login: its name says session or login in the frameworks' own words
# (laravel_session, connect.sid, PHPSESSID, wordpress_logged_in_<hash>, .AspNetCore.Identity.
# Application, Google's __Secure-1PSID / SAPISID, remember_user_token), then "=" and its value. The
# value is the login, whatever its shape: base64 JSON (Laravel's "eyJpdiI6..."), URL-encoded fields
# (WordPress's "admin%7C1790388882%7C..."), a data-protection blob ("CfDJ8...").
_COOKIE_HINTS = Substrings(("session", "sess", "sid", "logged_in", "aspnetcore", "remember_", "identity"))
_SESSION_COOKIE = re.compile(
    r"(?<![\w.%-])([\w.%-]*(?:session|sess|sid|logged_in|aspnetcore|remember_|identity)[\w.%-]*)"
    r"=[\"']?([A-Za-z0-9%._~+/=:|!*-]{20,4096})"
)
_COOKIE_NOT_A_VALUE = re.compile(r"[a-z_]+|[A-Z_]+|[\d.:-]+")  # a word, a constant, a number or a date


# The same cookie set in code, its name and value as a call's two arguments (requests'
# `cookies.set(".AspNetCore.Cookies", "CfDJ8...")`, PHP's setcookie, Express's res.cookie); and a
# servlet container's session id in its log ("Session [21E9...] expired": 32 hex digits or more).
_SESSION_COOKIE_ARGS = re.compile(
    r"(?<![\w.%-])([\w.%-]*(?:session|sess|sid|logged_in|aspnetcore|remember_|identity|cookies)[\w.%-]*)"
    r"[\"']\s*,\s*[\"']([A-Za-z0-9%._~+/=:|!*-]{20,4096})[\"']"
)
_ARGUMENT_PAIRS = ('", "', "', '", '","', "','", "', \"", "\", '")
_SESSION_ID = re.compile(r"session(?:[ _-]?id)?[ \t]*[\[(:=#]?[ \t]*[\"']?([0-9a-f]{32,64})(?![\w-])")


def _session_cookies(text: str, lower: str) -> Iterator[Span]:
    if not _COOKIE_HINTS.search(lower):
        return
    gates = _GATES.present(lower)
    if "session" in gates:
        for m in _SESSION_ID.finditer(lower):
            if m.start() == 0 or not lower[m.start() - 1].isalnum():
                yield m.start(1), m.end(1), "session_cookie", P_CONTEXT
    if not gates.isdisjoint(_ARGUMENT_PAIRS):
        for m in _SESSION_COOKIE_ARGS.finditer(lower):
            start, end = m.span(2)
            value = text[start:end]
            if looks_random(value, 20) and not is_placeholder(value):
                yield start, end, "session_cookie", P_CONTEXT
    if "=" not in text:
        return
    for m in _SESSION_COOKIE.finditer(lower):
        start, end = m.span(2)
        end = _strip_trailing(text, start, end)
        value = text[start:end]
        if len(value) < 20 or _COOKIE_NOT_A_VALUE.fullmatch(value) or is_placeholder(value):
            continue
        if looks_random(value, 20) or (value.startswith("eyJ") and len(value) >= 40):
            yield start, end, "session_cookie", P_CONTEXT


# A key's id beside its key under the same name and "_ID" ("B2_APPLICATION_KEY_ID" above
# "B2_APPLICATION_KEY", "SPACES_KEY_ID" and "SPACES_KEY"): the two halves of one credential, the way
# AWS's access key id goes with its secret key, so both go. The key must look random; the id must
# hold a digit and be twelve characters or more (not a region or a bucket's name).
_KEY_ID_ASSIGNED = re.compile(
    r"\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_(?:KEY|key|SECRET|secret|TOKEN|token))_(?:ID|id)"
    r"[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z0-9]{12,64})(?![A-Za-z0-9])"
)
_ASSIGNED_VALUE = r"[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"']{16,})"


def _key_ids(text: str, lower: str) -> Iterator[Span]:
    if "_id" not in _GATES.present(lower):
        return
    for m in _KEY_ID_ASSIGNED.finditer(text) if prefilter.may(prefilter.KEY_ID_ASSIGNED, text) else ():
        if not any(c.isdigit() for c in m.group(2)):
            continue
        key = re.search(r"\b" + re.escape(m.group(1)) + _ASSIGNED_VALUE, text)
        if key is not None and looks_random(key.group(1)):
            yield m.start(2), m.end(2), "key_id", P_CONTEXT


# The substrings whose absence lets a detector above skip its work, read from the message's shared
# pass once (keywords.Gates: "pw" in a text of 300 characters cost 0.5 µs). Lowercase: a test of the
# original text's "eyJ" or "sk-" asks the lowercased text first, and its patterns read the case.
_GATES = Gates(
    (
        *("sk-", "eyj", "private key", "putty-user-key-file", "private_key_id", "://"),
        *("pass", "pw", "pswd", "use", "cred", "login", "pin", "passcode", "mysql", "redis-cli", "sshpass"),
        "-u",
        *("authorization", "bearer", "basic", "accountkey", "sharedaccesskey", "sig=", "secret", "session"),
        *_ARGUMENT_PAIRS,
        "_id",
    )
)


DETECTORS: tuple[Callable[[str, str], Iterator[Span]], ...] = (
    _token_rules,
    _sk_keys,
    _structured,
    card_numbers,
    _url_passwords,
    _passwords,
    _auth_headers,
    _cloud,
    _entropy,
    _session_cookies,
    _key_ids,
)


def inside_public_pem(text: str, start: int) -> bool:
    """Whether ``start`` lies inside a PEM block of public material (a public key, a certificate, an
    OpenPGP signature or the message it signs)."""
    begin = text.rfind("-----BEGIN", 0, start + 10)  # (its BEGIN line is inside a block too)
    if begin < 0 or text.find("-----END", begin, start) >= 0:
        return False
    header = text[begin : text.find("-----", begin + 10) + 5]
    return "PUBLIC" in header or "CERTIFICATE" in header or "SIGNATURE" in header or "SIGNED" in header
