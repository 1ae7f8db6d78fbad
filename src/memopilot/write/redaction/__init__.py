"""Secret redaction (SPEC section 5, step 1): secrets never reach an editor, log, trace or database.

:func:`redact` replaces every secret it finds in a text with a typed placeholder such as
``[REDACTED:aws_access_key]`` and reports each one as a :class:`Finding` (kind and span in the
*original* text). :func:`looks_secret` says whether :func:`redact` would find anything; the
engine uses it to drop editor output that is still secret-like (SPEC section 5, step 3).

The detectors, each a function ``(text, lower) -> spans``:

* :mod:`.rules`: the project's own patterns (fixed formats, context such as ``password=``,
  random-looking values next to a key name) with validators that keep technical text intact;
* :mod:`.providers`: the gitleaks rule set (vendored data, MIT) for provider tokens;
* :mod:`.identifiers`: IBANs and national identifiers, confirmed by python-stdnum's checksums;
* :mod:`.statements`: passwords and codes stated in prose in many languages, spaced or spelled
  out, password-shaped tokens, and seed phrases (the BIP-39 word list of the ``mnemonic`` package);
* :mod:`.commands`: passwords where commands, SQL and config files keep them;
* :mod:`.pieces`: keys cut into pieces by spaces, dashes or a line break, judged joined;
* :mod:`.learned`: a logistic model over each token and the words around it, trained on the tune
  corpora (``scripts/train_redaction_model.py``): the last net, for secrets stated in ways the
  detectors above were never written for.

Overlapping findings are merged and take the kind of the most specific detector. Placeholders are
built from ``[``, ``]``, ``:`` and a lowercase kind, which no detector takes as a value, and
findings that touch an existing placeholder are ignored, so ``redact(redact(x).text)`` finds
nothing new.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules import Span

__all__ = ["PLACEHOLDER", "Finding", "Redaction", "looks_secret", "redact", "redact_values"]


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
PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


@dataclass(frozen=True, slots=True)
class _Detectors:
    rules: ModuleType  # the project's own patterns, run first
    begin_message: Callable[[str], None]  # every keyword automaton's pass over the message, at once
    wider: tuple[Callable[[str, str], Iterator[Span]], ...]
    yielding: frozenset[int]  # priorities of wider findings that give way to an overlapping own one


@functools.cache
def _detectors() -> _Detectors:
    """The detectors, compiled on the first text scanned: hundreds of patterns and the gitleaks
    rules cost about 0.1 s, which a command that stores nothing (a search) never pays."""
    from . import commands, identifiers, keywords, learned, pieces, providers, rules, statements

    return _Detectors(
        rules=rules,
        begin_message=keywords.begin_message,
        wider=(
            providers.detect,
            identifiers.detect,
            statements.detect,
            commands.detect,
            pieces.detect,
            learned.detect,
        ),
        yielding=frozenset({providers.PRIORITY, rules.P_PROSE, learned.PRIORITY}),
    )


def _placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _own_spans_first(spans: list[Span], own_count: int, yielding: frozenset[int]) -> list[Span]:
    """Drop gitleaks and prose findings that overlap one of rules.py's (the first ``own_count``):
    those are tuned to take the secret alone (a webhook's token, not its host; a password, not the
    user name before it). Identifiers stay and merge: an IBAN holds a card-like run of digits."""
    if own_count == len(spans):
        return spans
    own, wider = spans[:own_count], spans[own_count:]
    return own + [
        w for w in wider if w[3] not in yielding or not any(w[0] < o[1] and o[0] < w[1] for o in own)
    ]


def _scan(text: str) -> list[Finding]:
    # Detectors read hints and keywords from `lower` at the same offsets as in `text`.
    lower = text.lower()
    if len(lower) != len(text):  # e.g. "İ" lowercases to two code points
        lower = text.translate(_ASCII_LOWER)
    detectors = _detectors()
    detectors.begin_message(lower)
    spans: list[Span] = []
    for detect in detectors.rules.DETECTORS:
        spans.extend(detect(text, lower))
    spans.extend(list(detectors.rules.companions(text, spans)))
    own_count = len(spans)
    for detect in detectors.wider:
        spans.extend(detect(text, lower))
    spans = _own_spans_first(spans, own_count, detectors.yielding)
    if not spans:
        return []
    if "[REDACTED:" in text:
        taken = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
        spans = [sp for sp in spans if not any(sp[0] < pe and ps < sp[1] for ps, pe in taken)]
        if not spans:
            return []
    if "-----BEGIN" in text:  # a public key or a certificate is public, whatever its lines look like
        spans = [sp for sp in spans if not detectors.rules.inside_public_pem(text, sp[0])]
        if not spans:
            return []
    spans.extend(_same_shape_numbers(text, spans))
    spans.extend(_repeated_values(text, spans))
    spans.sort(key=lambda sp: (sp[0], -sp[1]))
    merged: list[Span] = []
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
    kept = [
        (start, end, kind)
        for start, end, kind, _ in merged
        if not _documentation_example(text[start:end])
        and not _documented_test_value(text, start, end)
        and not _public_by_format(text, start, end)
    ]
    if len(kept) < len(merged) and _only_test_cards(text, merged, kept):
        # a documented test card's expiry and code ("any future date, CVC 737") are the documentation's
        kept = [sp for sp in kept if sp[2] not in _CARD_DETAILS]
    findings: list[Finding] = []
    for start, end, kind in kept:
        end = _wrapped_end(text, start, end)
        if findings and start < findings[-1].end:
            # a line the finding before ran on into ("it wrapped": each line was found alone)
            last = findings[-1]
            findings[-1] = Finding(last.kind, last.start, max(last.end, end))
        else:
            findings.append(Finding(kind, start, end))
    return findings


_CARD_DETAILS = frozenset(("card_expiry", "card_security_code"))


def _only_test_cards(text: str, merged: list[Span], kept: list[tuple[int, int, str]]) -> bool:
    """Whether the message's cards were all documented test cards (and so none is kept)."""
    if any(kind == "credit_card" for _, _, kind in kept):
        return False
    return any(kind == "credit_card" and _documented_test_value(text, s, e) for s, e, kind, _ in merged)


# A number in the shape of one already found in the message is another of its kind: a list of
# identity numbers, accounts or cards ("PESEL córki: 19261424001, mój: 87110227439").
_NUMBER_TOKEN = re.compile(r"(?<![\w./-])[0-9A-Z][0-9A-Z./ -]{4,40}[0-9A-Z](?![\w/-])")
_SHAPE = str.maketrans("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "9" * 10 + "A" * 26)
_LISTED_MIN_DIGITS = 6
_SAME_SHAPE_PRIORITY = 50  # after every detector's own: a listed number merges into what it sits in


def _same_shape_numbers(text: str, spans: list[Span]) -> list[Span]:
    shapes: dict[str, str] = {}
    for start, end, kind, _ in spans:
        value = text[start:end]
        if _NUMBER_TOKEN.fullmatch(value) and sum(c.isdigit() for c in value) >= _LISTED_MIN_DIGITS:
            shapes[value.translate(_SHAPE)] = kind
    if not shapes:
        return []
    found: list[Span] = []
    for m in _NUMBER_TOKEN.finditer(text):
        parts = [(m.start(), m.end())]
        if " / " in m.group() or " - " in m.group():  # a list: "2823 6894 09 / 1164 7937 51"
            parts = [(m.start() + p.start(), m.start() + p.end()) for p in _LIST_ITEM.finditer(m.group())]
        for start, end in parts:
            kind = shapes.get(text[start:end].translate(_SHAPE))
            if kind is not None and not any(start < sp[1] and sp[0] < end for sp in spans):
                found.append((start, end, kind, _SAME_SHAPE_PRIORITY))
    return found


_LIST_ITEM = re.compile(r"[^ /-](?:(?! [/-] ).)*")


# A secret said twice in one message is taken out twice ("Hunter. That's the password. Just Hunter,
# capital H"): each further occurrence of a found value, as a whole word, of six characters or more.
_REPEAT_MIN_CHARS = 6


def _repeated_values(text: str, spans: list[Span]) -> list[Span]:
    found: list[Span] = []
    for start, end, kind, priority in spans:
        value = text[start:end]
        if len(value) < _REPEAT_MIN_CHARS or "\n" in value:
            continue
        found.extend(_whole_occurrences(text, value, kind, spans))
        if priority >= _SAME_SHAPE_PRIORITY:
            continue  # the learned net's guess (learned.PRIORITY, 50): a wrong one is not spread
        # The same secret in base64 or decoded from it: `echo TWF0... | base64 -d` prints the
        # password a Kubernetes secret holds; `echo -n X | base64` prints X encoded.
        for other in _base64_forms(value):
            found.extend(_whole_occurrences(text, other, kind, spans))
    return found


def _whole_occurrences(text: str, value: str, kind: str, spans: list[Span]) -> Iterator[Span]:
    """Each occurrence of ``value`` in ``text`` as a whole word, outside the spans found."""
    at = text.find(value)
    while at >= 0:
        stop = at + len(value)
        whole = not (at and text[at - 1].isalnum()) and not (stop < len(text) and text[stop].isalnum())
        if whole and not any(at < sp[1] and sp[0] < stop for sp in spans):
            yield at, stop, kind, _SAME_SHAPE_PRIORITY
        at = text.find(value, stop)


_BASE64_VALUE = re.compile(r"[A-Za-z0-9+/]{8,}={0,2}")


def _base64_forms(value: str) -> list[str]:
    """The value's base64 (unpadded: either form is then found), and, when the value is base64
    of printable text of six characters or more, that text."""
    forms = [base64.b64encode(value.encode("utf-8")).decode("ascii").rstrip("=")]
    if _BASE64_VALUE.fullmatch(value):
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
        except (binascii.Error, ValueError):  # (UnicodeDecodeError is a ValueError)
            decoded = ""
        if len(decoded) >= _REPEAT_MIN_CHARS and decoded.isprintable() and decoded.strip() == decoded:
            forms.append(decoded)
    return forms


# A placeholder the reader fills in: "YOUR_API_KEY", "0xYOUR_PRIVATE_KEY", "<your-token>",
# "MY_SECRET_HERE", and in other languages ("tu_clave_aqui", "votre_cle_ici", "dein_token_hier").
_PLACEHOLDER_NAME = re.compile(
    r"(?:0x)?(?:YOUR|MY)_[A-Z0-9_]+|<[A-Za-z][\w -]*>|[A-Z_]+_HERE"
    r"|(?i:(?:tu|su|votre|ton|dein|deine|ihr|seu|sua|il_tuo|la_tua)_[a-z_]+|[a-z_]+_(?:here|aqu[ií]|ici|hier|qui))"
    # a provider's prefix and a word that asks for the value ("sk-ant-api03-REPLACE_ME", "ghp_CHANGEME")
    r"|[A-Za-z0-9]{2,8}[_-](?:[A-Za-z0-9]{1,8}[_-]){0,2}(?i:replace_?me|change_?me|fill_?me(?:_?in)?|todo|placeholder)"
)

_ASSIGNED_PLACEHOLDER = re.compile(r"[A-Za-z_]\w*=(\S+)")


# A masked value that shows only its last (or first) few characters, as CLIs and dashboards print a
# key ("****************9fLk" in `aws configure list`, "sk-...••••••••3xQa"); after a provider's
# prefix, four stars are mask enough ("ghp_****rG4G" in a log): the prefix and the last four are
# all that is shown.
_MASKED = re.compile(
    r"[*•●]{6,}[A-Za-z0-9]{0,4}|[A-Za-z0-9_-]{0,8}[*•●]{6,}[A-Za-z0-9]{0,4}"
    r"|[A-Za-z0-9]{1,6}[_-][*•●]{4,}[A-Za-z0-9]{0,4}"
    # a value elided with an ellipsis after its prefix, its last few characters at most kept
    # ("sk-ant-api03-…AA", "ghp_...x9Q2"): documentation's or a dashboard's, not the value
    r"|[A-Za-z0-9]{2,8}[_-](?:[A-Za-z0-9]{1,8}[_-]){0,2}(?:…|\.{3})[A-Za-z0-9]{0,4}"
)

# A regular expression for a token's shape, as scanners document them ("ghp_[A-Za-z0-9]{36}"): a
# character class of ranges, then a count.
_TOKEN_PATTERN = re.compile(r"\[(?:\^?[\w\\]-[\w\\]|[^\]\s])+\](?:\{\d+(?:,\d*)?\}|[+*])")


def _documentation_example(value: str) -> bool:
    """A documented example rather than a secret: ``x``, ``*`` or ``0`` repeated after its prefix
    (``ghp_xxxxxxxx...``, ``X-API-Key: 00000000...``), AWS's documented keys (``AKIAIOSFODNN7EXAMPLE``,
    ``wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY``: a generated key never spells EXAMPLE), or a
    placeholder's name (``YOUR_API_KEY``)."""
    tail = value[-16:]
    if len(value) >= 12 and value.endswith(("EXAMPLE", "EXAMPLEKEY")):
        return True
    if _PLACEHOLDER_NAME.fullmatch(value) or _MASKED.fullmatch(value) or _TOKEN_PATTERN.search(value):
        return True
    assigned = _ASSIGNED_PLACEHOLDER.fullmatch(value)  # "API_KEY=tu_clave_aqui", taken whole
    if assigned is not None and _PLACEHOLDER_NAME.fullmatch(assigned.group(1)):
        return True
    if len(value) >= 16 and tail.count("0") == 16:
        return True  # zeros to its end: a number no generator gives (a test card keeps a digit)
    return len(value) >= 12 and max(tail.count(c) for c in "xX*") >= 13


# Values that documentation publishes for testing, which no one holds: Stripe's test cards and the
# IBANs of ISO 13616's and Wikipedia's examples. Users also paste one as their own ("my visa is
# 4242-4242-4242-4242"), and a test corpus then counts it as a card; said as a test or an example
# ("Stripe's test card ...", "the example IBAN from the spec"), it is the documented value.
_DOCUMENTED_TEST_VALUES = frozenset(
    (
        *("4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222"),
        *("5200828282828210", "5105105105105100", "378282246310005", "371449635398431"),
        *("6011111111111117", "6011000990139424", "3056930009020004", "36227206271667"),
        *("3566002020360505", "6200000000000005", "4000000000000002", "4000000000009995"),
        # Stripe's cards for 3-D Secure and declines; the cards of Braintree, PayPal, Adyen and
        # Authorize.net's sandboxes (Visa, Mastercard, Amex, Discover, JCB, Diners)
        *("4000002500003155", "4000002760003184", "4000000000003220", "4000000000009987"),
        *("4000000000009979", "4000000000000069", "4000000000000127", "4000000000000119"),
        # (not Visa's 4111 1111 1111 1111 nor JCB's 3530 1113 3330 0000: people type them for their
        # own card, and the first tune corpus counts them as cards even beside "test")
        *("4012888888881881", "4222222222222", "4007000000027", "4012888818888"),
        *("378734493671000", "6011000000000012", "5424000000000015"),
        *("30569309025904", "38520000023237", "5555341244441115", "4111111145551142"),
        *("370000000000002", "2222400070000005", "4988438843884305"),
        *("GB82WEST12345698765432", "GB29NWBK60161331926819", "DE89370400440532013000"),
        # the example IBANs of other countries' banks and Wikipedia's pages (Spain, France)
        *("ES9121000418450200051332", "FR1420041010050500013M02606"),
        # the Bitcoin wiki's example of a private key in wallet import format
        "5HUECGU8RMJXEXXIPUD5BDKU4MKFQEZYD4DZ1JVHTVQVBTLVYTJ",
        # Stripe's key in every curl example of its API reference; Google Authenticator's sample
        # TOTP secret, and RFC 4226/6238's ("12345678901234567890" in base32)
        *("SKTEST4EC39HQLYJWDARJTT1ZDP7DC", "JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"),
    )
)
_TEST_CUE = re.compile(
    r"(?i)\b(?:test(?:s|ing)?|sandbox|examples?|samples?|docs?|documentation|spec|specification|tutorials?"
    r"|dummy|fake|wiki|ejemplo|exemple|beispiel|esempio|exemplo|voorbeeld|przykład)\b"
)
_NOT_ALNUM = re.compile(r"[^0-9A-Za-z]")


def _documented_test_value(text: str, start: int, end: int) -> bool:
    """A documented test value (see above), in a message that speaks of tests or examples."""
    if end - start > 52:  # (a WIF key's 51 characters)
        return False
    value = _NOT_ALNUM.sub("", text[start:end]).upper()
    return value in _DOCUMENTED_TEST_VALUES and _TEST_CUE.search(text) is not None


# Values whose format makes them public, whichever detector took them:
# * an SSH public key's blob (base64 of a 4-byte length and the key's type: "AAAAC3NzaC1lZDI1NTE5..."
#   is "ssh-ed25519"), which authorized_keys files and GitHub show (a private key's body starts
#   otherwise: "b3BlbnNzaC1rZXktdjE" is "openssh-key-v1");
# * a digest of published content after its algorithm's prefix: a Go module's hash in go.sum
#   ("h1:" and base64 of SHA-256), a subresource-integrity or npm "integrity" value ("sha512-...");
# * a chess position in Forsyth-Edwards notation: eight ranks of pieces and empty squares.
_SSH_PUBLIC_BLOB = ("AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh", "AAAAG3NrLW", "AAAAInNrLW")
# * an SSH key's algorithm name, which opens each line of authorized_keys and known_hosts
#   ("ecdsa-sha2-nistp256 AAAAE2Vj...", "sk-ssh-ed25519@openssh.com"): a standard's name (RFC 4253,
#   RFC 5656, OpenSSH's PROTOCOL.u2f), which its digits make look random;
# * a hashed host of known_hosts (HashKnownHosts: "|1|", a salt and the host's HMAC-SHA1, 20 bytes
#   each in base64, then the host's key): it names a host without showing it, and the file is public;
_HASHED_KNOWN_HOST = re.compile(
    r"\|1\|[A-Za-z0-9+/]{27}=\|[A-Za-z0-9+/]{27}=(?=[ \t]+(?:sk-)?(?:ssh-|ecdsa-))"
)
_SSH_KEY_TYPE = re.compile(
    r"(?:sk-)?(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp(?:256|384|521))"
    r"(?:@openssh\.com)?(?:-cert-v01@openssh\.com)?"
)
_DIGEST_PREFIX = re.compile(r"(?:\bh1:|\bsha(?:256|384|512)-)$")
_DIGEST = re.compile(r"[A-Za-z0-9+/]{43,86}={0,2}")
_PREFIXED_DIGEST = re.compile(r"(?:h1:|sha(?:256|384|512)-)[A-Za-z0-9+/]{43,86}={0,2}")  # (taken with it)
# * a resource's name inside an AWS ARN ("arn:aws:secretsmanager:...:secret:prod/db-Xk29Qa": the
#   secret's name and its random suffix, which IAM policies quote);
# * a distributed trace's ids in their headers (X-Amzn-Trace-Id, W3C traceparent, B3, Jaeger's).
_ARN = re.compile(r"(?<![\w-])arn:aws[\w-]*:[\w-]+:[\w-]*:\d{0,12}:\S*$")
# (and a response's request ids: Cloudflare's cf-ray, a CDN's or a gateway's "x-request-id", which
# support asks for and every error page prints)
# (Each cue found from its first letter, in either case, which `re` skips to in C: the alternation
# under IGNORECASE was tried at every position, 16 µs on a message.)
_TRACE_HEADER_CUES = re.compile(
    r"[tTxXsSſcCrR](?i:(?<=t)race|(?<=x)-b3-|(?<=s)pan-?id|(?<=c)f-ray|(?<=r)equest-?id|(?<=c)orrelation-?id"
    r"|(?<=x)-amz-cf-id)"
)
_TRACE_HEADER = re.compile(
    r"(?i)\b(?:x-amzn-trace-id|traceparent|tracestate|x-b3-[a-z]+|b3|uber-trace-id|x-cloud-trace-context"
    r"|trace-?id|span-?id|parent-?id|cf-ray|x-(?:amz-|amzn-)?request-?id|x-correlation-?id|x-amz-cf-id)"
    r"[\"']?[ \t]*[:=][ \t]*[\"']?[\w;=.,/+-]*$"
)
# * a JSON Web Key's public members (RFC 7518: an RSA key's "n" and "e", an EC or OKP key's "x"
#   and "y"), in a message that holds a key's "kty": every JWKS endpoint publishes them (its
#   private members, "d", "p", "q", "dp", "dq", "qi", and a symmetric key's "k", are secrets);
_JWK_PUBLIC_MEMBER = re.compile(r"[\"'](?:n|e|x|y)[\"'][ \t]*:[ \t]*[\"']$")
_FEN_BOARD = re.compile(r"[pnbrqkPNBRQK1-8]{1,8}(?:/[pnbrqkPNBRQK1-8]{1,8}){7}")
_FEN_SQUARES = str.maketrans("pnbrqkPNBRQK", "111111111111")
# * a Stripe publishable key ("pk_live_..."), which Stripe.js pages embed (its secret is "sk_live_");
# * Java's default toString of an object, its class and identity hash ("com.acme.Order@1b6d3586");
_PUBLISHABLE_KEY = re.compile(r"pk_(?:live|test)_[0-9A-Za-z]{16,}")
_JAVA_OBJECT = re.compile(r"(?:[a-z_][\w]*\.)+[A-Z][\w$]*@[0-9a-f]{1,8}")
# * a BIP-32 extended public key ("xpub...", "ypub", "zpub", "tpub": Base58Check), which a
#   watch-only wallet is given and block explorers show (its private twin is "xprv...");
_EXTENDED_PUBLIC_KEY = re.compile(r"[xyzt]pub[1-9A-HJ-NP-Za-km-z]{100,108}")
# * S3's extended request id, which AWS support asks for beside the request id ("x-amz-id-2:",
#   "HostId" in an error's XML);
# * a browser's or a client's User-Agent, product names and versions ("AppleWebKit/537.36"), which
#   every request it makes sends;
# * a CAPTCHA's site key (reCAPTCHA's "6L...", Turnstile's, hCaptcha's), which the page that shows
#   the widget embeds (its secret key is named so: "secret", "secret_key");
# * an HTTP entity tag ("ETag: W/\"...\"", "If-None-Match"): a version of a public resource, which
#   every response and cache shows;
_ETAG_BEFORE = re.compile(r"(?i)\b(?:etag|if-none-match|if-match)[\"']?[ \t]*[:=][ \t]*(?:W/)?[\"']?$")
# * a CI cache's key as its log prints it ("Cache restored from key: node-cache-Linux-x64-npm-<hash>",
#   "Cache saved with key: ..."): the name of a cache, made of the OS and the lockfile's hash;
_CACHE_KEY_BEFORE = re.compile(
    r"(?i)\bcache (?:restored from|saved with|hit for|saved successfully with|found for)"
    r"(?: restore)?[- ]key:[ \t]*$"
    # a cache's log line, the key of what it looked up ("cache miss key=order:6f1c...")
    r"|\bcache[ _-](?:hit|miss|set|get|put|write|read|stored|evicted|expired)\b[ \t]+key[=:][ \t]*$"
)
# (a key of a session's or a token's record is that secret: "cache hit key=session:...")
_SECRET_NAMESPACE = re.compile(r"(?i)[\w-]*(?:sess|token|auth|secret|pass|cred|otp|nonce|csrf)")
_SITE_KEY_BEFORE = re.compile(r"(?i)(?:data-sitekey|\bsite[-_ ]?key)[\"']?[ \t]*[:=]?[ \t]*[\"']?$")
# * an IPFS content id: the multihash of published content (CIDv0, base58 of SHA-256's 0x12 0x20
#   and 32 bytes, "Qm..."; CIDv1 in base32, "bafy..." or "bafk...", the same multihash after its
#   version and content type), which a gateway's address shows to anyone;
_CID_V0 = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}")
_CID_V1 = re.compile(r"baf[ky][a-z2-7]{55}")
_USER_AGENT_BEFORE = re.compile(r"(?i)\buser[ _-]?agent[\"']?[ \t]*[:=]")
_S3_HOST_ID_BEFORE = re.compile(r"(?i)(?:x-amz-id-2|\bhost[ _-]?id)[\"'>]?[ \t]*[:=]?[ \t]*[\"']?$")
# * an OpenPGP key's fingerprint as gpg prints it: ten groups of four hex digits (two spaces in the
#   middle), which key servers and release pages publish. Two spaces elsewhere, or digits alone (40
#   hex digits without a letter: one in a hundred million), are a 2FA site's backup codes printed in
#   pairs ("5031 7748  2290 6615  ..."), which are secrets;
_OPENPGP_FINGERPRINT = re.compile(
    r"(?<![0-9A-Fa-f])(?=[0-9 ]{0,48}[A-F])[0-9A-F]{4}(?: [0-9A-F]{4}){4} {1,2}[0-9A-F]{4}(?: [0-9A-F]{4}){4}"
    r"(?![0-9A-Fa-f])"
)
# * a mail signature's tags (DKIM-Signature's and ARC's "b=" and "bh="): base64 with folding
#   whitespace, which every delivered message carries in its headers.
_MAIL_SIGNATURE_HEADER = re.compile(  # (from its first letter, as above: "\b" first was tried everywhere)
    r"[dDaA](?<!\w[dDaA])(?i:(?<=d)kim-signature|(?<=a)rc-message-signature|(?<=a)rc-seal):"
)
_MAIL_SIGNATURE_TAG = re.compile(r"(?<![\w-])bh?=[A-Za-z0-9+/\s]*={0,2}")
# * a line of a checksum listing as sha256sum, sha1sum and md5sum print it (a release's SHA256SUMS):
#   the file's digest at the line's start, two spaces (or " *", binary mode) and the file's name;
_CHECKSUM_LINE = re.compile(
    r"(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128})(?= [ *][^\s/]*[\w.-]+$)", re.M
)
# * an age encryption recipient ("age1" and 58 characters of bech32): the public half, which a
#   .sops.yaml lists (its secret is written "AGE-SECRET-KEY-1...").
_AGE_RECIPIENT = re.compile(r"age1[02-9ac-hj-np-z]{58}")


# * a public key in base64 DER (X.509's SubjectPublicKeyInfo: a DKIM record's "p=", a JWT issuer's
#   PEM body pasted alone): a sequence that opens with the key's algorithm, RSA, EC or EdDSA (a
#   private key's PKCS#1 or PKCS#8 DER opens with its version number, an encrypted one with PBES2);
_PUBLIC_KEY_ALGORITHMS = (
    bytes.fromhex("06092a864886f70d010101"),  # rsaEncryption
    bytes.fromhex("06072a8648ce3d0201"),  # id-ecPublicKey
    *(bytes.fromhex(f"06032b65{n:02x}") for n in (0x6E, 0x6F, 0x70, 0x71)),  # X25519, X448, Ed25519, Ed448
)
# * a sentence in base64 ("echo UXVhcnRlcmx5... | base64 -d"): words with spaces, a capital first and
#   a full stop last, which no password generator gives.
# (Or five words and more without the stop: "Lorem ipsum dolor sit amet".)
# (In any language that UTF-8 writes: "Olá, tudo bem? Segue o relatório." in a mail's base64 body.)
# (Or an opening "¡" or "¿" and its closing mark: "¡Feliz cumpleaños, Marta!"; or four words and a
# year or a number: "Feliz Navidad y próspero 2027".)
_BASE64_SENTENCE = re.compile(
    r"[A-Z][^\W\d_]*(?:[ ,;:'?!¿¡-]+[^\W_]+){3,}[.!?]|[A-Z][^\W\d_]+(?: [^\W\d_]+){4,}"
    r"|¡[A-Z][^\W\d_]*(?:[ ,;:'-]+[^\W_]+){2,}!|¿[A-Z][^\W\d_]*(?:[ ,;:'-]+[^\W_]+){2,}\?"
    r"|[A-Z][^\W\d_]+(?: [^\W\d_]+){3,} \d{1,4}"
)


def _public_key_der(value: str) -> bool:
    head = value[:64]
    if not value.startswith("M") or not _BASE64_VALUE.fullmatch(head):
        return False
    try:
        der = base64.b64decode(head[: len(head) // 4 * 4], validate=True)
    except binascii.Error:
        return False
    at = _DER_CONTENT_START.get(der[1:2], 0) if der[:1] == b"\x30" else 0
    return bool(at) and der[at : at + 1] == b"\x30" and der[at + 2 :].startswith(_PUBLIC_KEY_ALGORITHMS)


# Where a DER sequence's content starts, by the first byte of its length (short form, or 1-2 bytes).
_DER_CONTENT_START = {bytes([n]): 2 for n in range(0x80)} | {b"\x81": 3, b"\x82": 4}


def _base64_sentence(value: str) -> bool:
    if len(value) < 24 or not _BASE64_VALUE.fullmatch(value):
        return False
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return _BASE64_SENTENCE.fullmatch(decoded) is not None


# * a bank's business identifier code (ISO 9362, BIC or SWIFT code: checked by python-stdnum) in a
#   message that names one: every invoice and bank's page prints it.
_BIC_TALK = re.compile(r"(?i)\b(?:bic|swift)\b")
# * a creditor reference (ISO 11649: "RF", two check digits, up to 21 letters and digits, printed
#   in groups of four on an invoice for the payer to quote; checked by python-stdnum).
_CREDITOR_REFERENCE = re.compile(r"(?<![\w-])RF\d\d(?: ?[0-9A-Z]{1,4}){1,6}(?![\w-])")


def _base58check(value: str) -> bool:
    from .identifiers import base58check

    return base58check(value)


@functools.cache
def _bic_valid() -> Callable[[str], bool]:
    from stdnum import bic

    return bic.is_valid


@functools.cache
def _creditor_reference_valid() -> Callable[[str], bool]:
    from stdnum import iso11649

    return iso11649.is_valid


def _in_creditor_reference(text: str, start: int, end: int) -> bool:
    return any(
        m.start() <= start and end <= m.end() and _creditor_reference_valid()(m.group())
        for m in _CREDITOR_REFERENCE.finditer(text, max(0, start - 30), end + 30)
    )


# A value shown masked in part: a group of stars between its separators ("xoxb-****-****-9Qz1",
# "sk-****-a1b2", "user:***@host"), as a dashboard or an export prints a token it keeps.
_MASKED_GROUP = re.compile(r"(?:^|(?<=[-_.:/@]))\*{3,}(?:[-_.:/@]|$)")


# The visible start of a value whose next groups are stars ("IBAN: NL91 **** **** **12 34"): a
# masked value's first group, shown to say which one it is.
_MASKED_NEXT = re.compile(r"[ -]\*{3,}(?:[ -]|$)")
_MASKED_HEAD_MOST = 8


def _public_by_format(text: str, start: int, end: int) -> bool:
    if "***" in text and (
        _MASKED_GROUP.search(text[start:end])
        or (end - start <= _MASKED_HEAD_MOST and _MASKED_NEXT.match(text, end))
    ):
        return True
    if "  " in text and _in_hexdump_text(text, start, end):
        return True
    if text.startswith(_SSH_PUBLIC_BLOB, start) or _SSH_KEY_TYPE.fullmatch(text, start, end):
        return True
    if end - start in (8, 11) and _BIC_TALK.search(text) and _bic_valid()(text[start:end]):
        return True
    if "RF" in text and _in_creditor_reference(text, start, end):
        return True
    if end - start >= 24 and (_public_key_der(text[start:end]) or _base64_sentence(text[start:end])):
        return True
    if "arn:" in text and (_ARN.search(text, max(0, start - 200), start) or _ARN.fullmatch(text, start, end)):
        return True  # (a resource inside an ARN, or the whole ARN taken)
    if _TRACE_HEADER_CUES.search(text) and _TRACE_HEADER.search(text, max(0, start - 120), start):
        return True
    if _DIGEST_PREFIX.search(text, max(0, start - 7), start) and _DIGEST.fullmatch(text, start, end):
        return True
    if _PREFIXED_DIGEST.fullmatch(text, start, end) and (start == 0 or not text[start - 1].isalnum()):
        return True
    if "kty" in text and _JWK_PUBLIC_MEMBER.search(text, max(0, start - 8), start):
        return True
    if _PUBLISHABLE_KEY.fullmatch(text, start, end) or _JAVA_OBJECT.fullmatch(text, start, end):
        return True
    if _EXTENDED_PUBLIC_KEY.fullmatch(text, start, end) and _base58check(text[start:end]):
        return True
    if _S3_HOST_ID_BEFORE.search(text, max(0, start - 16), start):
        return True
    if _ETAG_BEFORE.search(text, max(0, start - 24), start):
        return True
    if "|1|" in text and _inside(_HASHED_KNOWN_HOST, text, start, end, 64):
        return True
    if "ache" in text and _CACHE_KEY_BEFORE.search(text, max(0, start - 48), start):
        return not _SECRET_NAMESPACE.match(text, start)
    if "ite" in text and _SITE_KEY_BEFORE.search(text, max(0, start - 24), start):
        return True
    if text[start : start + 1] in ("Q", "b") and _content_id(text, start, end):
        return True
    if "gent" in text and _in_user_agent(text, start):
        return True
    if _inside(_OPENPGP_FINGERPRINT, text, start, end, 60) or _in_mail_signature(text, start, end):
        return True
    if (start == 0 or text[start - 1] == "\n") and _checksum_line(text, start, end):
        return True
    if "age1" in text and _inside(_AGE_RECIPIENT, text, start, end, 62):
        return True
    board = _FEN_BOARD.fullmatch(text, start, end)
    return board is not None and all(
        sum(map(int, rank.translate(_FEN_SQUARES))) == 8 for rank in board.group().split("/")
    )


# A hex dump's line (hexdump -C, xxd, od): its offset, up to sixteen bytes in hex, then the same
# bytes as text, each unprintable one a dot ("00000010  f8 23 d1 6f ...  |.#.o%.. .R...rHQ|").
_HEXDUMP_BYTES = re.compile(
    r"[0-9a-fA-F]{4,16}:?((?:[ \t]{1,2}[0-9a-fA-F]{2}(?:[0-9a-fA-F]{2})?){1,16})[ \t]"
)


def _in_hexdump_text(text: str, start: int, end: int) -> bool:
    """Whether ``start:end`` lies in a hex dump's text column: the bytes of its line shown as text
    (a character for each printable byte, a dot for the others), which says nothing the hex does
    not."""
    line_start = text.rfind("\n", 0, start) + 1
    dumped = _HEXDUMP_BYTES.match(text, line_start)
    if dumped is None or dumped.end() > start:
        return False
    raw = bytes.fromhex("".join(dumped.group(1).split()))[:16]
    shown = "".join(chr(b) if 32 <= b < 127 else "." for b in raw)
    column = text.find(shown, dumped.end(1))
    line_end = text.find("\n", line_start)
    if column < 0 or (line_end >= 0 and column > line_end):
        return False
    return column - 1 <= start and end <= column + len(shown) + 1  # (its bars, "|...|", too)


def _content_id(text: str, start: int, end: int) -> bool:
    if _CID_V0.fullmatch(text, start, end):
        from .identifiers import base58_bytes

        return base58_bytes(text[start:end]).startswith(b"\x12\x20")
    if _CID_V1.fullmatch(text, start, end):
        body = text[start + 1 : end].upper()
        try:
            raw = base64.b32decode(body + "=" * (-len(body) % 8))
        except binascii.Error:
            return False
        return raw[:1] == b"\x01" and raw[1:2] in (b"\x55", b"\x70", b"\x71") and raw[2:4] == b"\x12\x20"
    return False


def _checksum_line(text: str, start: int, end: int) -> bool:
    listed = _CHECKSUM_LINE.match(text, start)
    return listed is not None and listed.end() == end


def _in_user_agent(text: str, start: int) -> bool:
    """Whether ``start`` is inside a User-Agent's value: after its name on the same line, with no
    quote between but the one that opens the value (the next header of a dict is not)."""
    name = _USER_AGENT_BEFORE.search(text, text.rfind("\n", 0, start) + 1, start)
    if name is None:
        return False
    between = text[name.end() : start].lstrip(" \t")
    return "'" not in between[1:] and '"' not in between[1:]


def _inside(pattern: re.Pattern[str], text: str, start: int, end: int, reach: int) -> bool:
    """Whether a match of ``pattern`` starting at most ``reach`` characters before ``start`` holds
    ``start:end`` (a detector may take one piece of it)."""
    return any(
        m.start() <= start and end <= m.end()
        for m in pattern.finditer(text, max(0, start - reach), end + reach)
    )


def _in_mail_signature(text: str, start: int, end: int) -> bool:
    header = _MAIL_SIGNATURE_HEADER.search(text, 0, start)
    if header is None:
        return False
    return any(m.start() < start and end <= m.end() for m in _MAIL_SIGNATURE_TAG.finditer(text, header.end()))


# A message that says its value was cut onto the next line ("it wrapped, it's one line").
_SAID_WRAPPED = re.compile(
    r"(?i)\bwrap(?:ped|s)?\b|one line|single line|same line|line ?break|no newline|umbruch|eine zeile"
)
# A line that is one random-looking token: the rest of a key that a terminal or chat app wrapped
# (never an assignment such as the next line of an .env file: "=" only as base64 padding).
_CONTINUATION = re.compile(r"\r?\n([A-Za-z0-9+/_\-]{8,}={0,2})(?=\r?\n|$)")


# A long token's checksum after "=": Atlassian's API tokens end in "=" and eight hex digits.
_CHECKSUM_SUFFIX = re.compile(r"=[0-9A-F]{8}(?![\w=])")
_CHECKSUMMED_LEAST = 40


def _wrapped_end(text: str, start: int, end: int) -> int:
    """Where a long token found at ``start:end`` really ends, when it runs on into the next line
    or its checksum follows it."""
    if end - start >= _CHECKSUMMED_LEAST and text.startswith("=", end):
        suffix = _CHECKSUM_SUFFIX.match(text, end)
        return suffix.end() if suffix else end
    if not text.startswith(("\n", "\r\n"), end):
        return end
    if end - start < 20 and (end - start < 6 or _SAID_WRAPPED.search(text) is None):
        return end  # a short value runs on only where the message says it wrapped
    more = _CONTINUATION.match(text, end)
    if more is None:
        return end
    rest = more.group(1)
    if not _random_piece(rest):
        return end
    # A token wrapped at a fixed width runs on while each line is as long as the first one taken
    # (a cookie or a key that a mail client cut every 76 characters); the last line is shorter.
    width, end = len(rest), more.end()
    while len(rest) == width >= _WRAP_WIDTH_LEAST:
        more = _WRAPPED_LINE.match(text, end)
        if more is None or len(more.group(1)) > width or not _random_piece(more.group(1)):
            break
        rest, end = more.group(1), more.end()
    return end


_WRAP_WIDTH_LEAST = 40
# (the last may be short, and end in a checksum after "=", as an Atlassian token's "=1A2B3C4D")
_WRAPPED_LINE = re.compile(r"\r?\n([A-Za-z0-9+/_\-]+(?:=[0-9A-F]{8}|={0,2}))(?=\r?\n|$)")


def _random_piece(rest: str) -> bool:
    return (any(c.isdigit() for c in rest) and any(c.isupper() for c in rest)) or (
        _detectors().rules.looks_random(rest, 12)  # "mxdcEhtLWpiJQYSwEY": letters of both cases
    )


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
        parts.append(_placeholder(f.kind))
        pos = f.end
    parts.append(text[pos:])
    return Redaction("".join(parts), findings)


def looks_secret(text: str) -> bool:
    """True when :func:`redact` would find anything in ``text``."""
    return bool(text) and bool(_scan(text))


def redact_values(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings, numbers) with every string redacted: event
    details and other structured data that is stored pass the same detectors as text."""
    if isinstance(value, str):
        return redact(value).text
    if isinstance(value, dict):
        return {redact_values(k): redact_values(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_values(v) for v in value]
    return value
