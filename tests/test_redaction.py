"""Secret redaction: recall on the secret corpus, false positives on the benign corpus, invariants."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memopilot.write.redaction import Finding, Redaction, looks_secret, redact

DATA = Path(__file__).parent / "data"


def _load(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


SECRET_ROWS = _load("secret_messages.jsonl")
BENIGN_ROWS = _load("benign_messages.jsonl")
ALL_MESSAGES = [r["message"] for r in SECRET_ROWS] + [r["message"] for r in BENIGN_ROWS]
PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


def test_corpora_are_large_and_cover_every_kind() -> None:
    assert len(SECRET_ROWS) >= 110 and len(BENIGN_ROWS) >= 220
    kinds = [k for r in SECRET_ROWS for k in r["kinds"]]
    for kind in (
        "aws_access_key", "aws_secret_key", "gcp_private_key_id", "private_key", "azure_storage_key",
        "alibaba_access_key", "openai_api_key", "anthropic_api_key", "dashscope_api_key", "github_token",
        "gitlab_token", "slack_token", "stripe_key", "twilio_account_sid", "sendgrid_api_key", "npm_token",
        "pypi_token", "jwt", "bearer_token", "basic_auth", "url_password", "password", "credit_card",
        "secret",
    ):  # fmt: skip
        assert kinds.count(kind) >= 1, kind
    for row in SECRET_ROWS:
        assert row["secrets"] and all(s in row["message"] for s in row["secrets"]), row


@pytest.mark.parametrize("row", SECRET_ROWS, ids=lambda r: r["message"][:40])
def test_every_secret_is_removed_and_its_kind_reported(row: dict) -> None:
    red = redact(row["message"])
    for secret in row["secrets"]:
        assert secret not in red.text
    reported = {f.kind for f in red.findings}
    assert set(row["kinds"]) <= reported, (row["kinds"], reported)
    # Every reported span lies in the original text and the placeholders name the findings' kinds.
    assert [m.group()[10:-1] for m in PLACEHOLDER.finditer(red.text)] == [f.kind for f in red.findings]


@pytest.mark.parametrize("row", SECRET_ROWS, ids=lambda r: r["message"][:40])
def test_non_secret_words_survive(row: dict) -> None:
    rest = row["message"]
    for secret in sorted(row["secrets"], key=len, reverse=True):
        rest = rest.replace(secret, " ")
    red = redact(row["message"]).text
    missing = [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w not in red]
    assert not missing, missing


def test_false_positive_rate_on_benign_messages_is_under_two_percent(capsys: pytest.CaptureFixture) -> None:
    flagged = [
        (r["message"], [(f.kind, r["message"][f.start : f.end]) for f in redact(r["message"]).findings])
        for r in BENIGN_ROWS
    ]
    flagged = [(m, found) for m, found in flagged if found]
    rate = len(flagged) / len(BENIGN_ROWS)
    with capsys.disabled():
        print(f"\nredaction false positives: {len(flagged)}/{len(BENIGN_ROWS)} benign messages = {rate:.2%}")
        for message, found in flagged:
            print(f"  {found} in {message[:80]!r}")
    assert rate < 0.02


@pytest.mark.parametrize("message", ALL_MESSAGES, ids=lambda m: m[:40])
def test_redaction_is_idempotent_and_looks_secret_agrees(message: str) -> None:
    first = redact(message)
    second = redact(first.text)
    assert second.findings == [] and second.text == first.text
    assert looks_secret(message) is bool(first.findings)
    assert looks_secret(first.text) is False


@pytest.mark.parametrize("message", ALL_MESSAGES, ids=lambda m: m[:40])
def test_findings_are_sorted_disjoint_spans_of_the_original(message: str) -> None:
    red = redact(message)
    rebuilt, pos = [], 0
    for f in red.findings:
        assert pos <= f.start < f.end <= len(message)
        rebuilt += [message[pos : f.start], f"[REDACTED:{f.kind}]"]
        pos = f.end
    rebuilt.append(message[pos:])
    assert "".join(rebuilt) == red.text
    assert red.count == len(red.findings)


def test_preference_survives_next_to_a_key() -> None:
    red = redact("I prefer tabs, and my key is AKIA5QF2ZK7WJ3MNP8RT")
    assert red.text == "I prefer tabs, and my key is [REDACTED:aws_access_key]"
    assert red.findings == [Finding("aws_access_key", 29, 49)] and red.count == 1


def test_url_password_keeps_user_and_host() -> None:
    red = redact("DATABASE_URL=postgres://app:Xk9mQ2vL7@db.internal.acme.io:5432/orders")
    assert red.text == "DATABASE_URL=postgres://app:[REDACTED:url_password]@db.internal.acme.io:5432/orders"


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com:8443/path?q=a@b",
        "postgres://user:password@localhost:5432/db",
        "postgres://app@localhost/orders",
        "redis://:${REDIS_PASSWORD}@cache:6379/0",
        "git@github.com:acme/repo.git",
    ],
)
def test_urls_without_a_real_password_are_kept(url: str) -> None:
    assert redact(f"the URL is {url} today").findings == []


def test_luhn_and_card_networks() -> None:
    assert redact(
        "card 4111 1111 1111 1111 exp 12/28"
    ).text == "card [REDACTED:credit_card] exp 12/28".replace(
        "12/28", "[REDACTED:card_expiry]"
    )  # a card's expiry goes with it
    assert redact("card 4111 1111 1111 1112 exp 12/28").findings == []  # fails the Luhn check
    assert redact("order 4111111111111112 shipped").findings == []
    # Luhn-valid but no card network issues 15-digit numbers starting with 35 (an IMEI).
    assert redact("IMEI 356938035643809").findings == []
    assert redact("Amex 3782 822463 10005").findings[0].kind == "credit_card"
    assert redact("Troy kart 9792 8269 6538 2238").findings[0].kind == "credit_card"


def test_a_cards_record_goes_with_it_but_not_an_amount() -> None:
    csv = "cardholder,number,exp,cvv\nAisha Bello,6011395219867296,09/29,718"
    card, expiry, code = "[REDACTED:credit_card]", "[REDACTED:card_expiry]", "[REDACTED:card_security_code]"
    assert redact(csv).text.endswith(f"{card},{expiry},{code}")
    turkish = redact("kart 9792 8269 6538 2238, son kullanma 10/27, güvenlik kodu 118").text
    assert turkish == f"kart {card}, son kullanma {expiry}, güvenlik kodu {code}"
    charged = redact("card 4111111111111111 was charged $1,250 for 2 items").text
    assert charged == "card [REDACTED:credit_card] was charged $1,250 for 2 items"
    assert redact("card 4111111111111111 costs 250 EUR").text == "card [REDACTED:credit_card] costs 250 EUR"


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f2a9c1e7b4d8a06f5e2c9b1d3a7e8f4c6b2a190 fixed it",
        "user 550e8400-e29b-41d4-a716-446655440000 logged in",
        "colours #1E3A8A and #f59e0b",
        "numpy 2.1.3, Python 3.11.9, v2.14.0-rc.3",
        "see /var/log/memopilot/app.log and C:\\Users\\dana\\AppData",
        "https://docs.python.org/3/library/re.html",
        "pull ghcr.io/acme/api@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAAXNSR0IArs4c6QAAAARnQU1B",
        "server 10.0.4.12, 2001:db8::ff00:42:8329, on 2026-03-05 at 14:30",
        "the password field must be at least 12 characters",
        "rotate the API key monthly",
        "the tokenizer splits on whitespace",
        "add a primary key on (tenant_id, order_id)",
        "password: str = Field(min_length=12)",
        "Authorization: Bearer <token>",
        "OPENAI_API_KEY=your-api-key-here",
        # Values next to key/token words that are names, public or record keys, not secrets.
        "KMS key: alias/memopilot-payments-prod-2026 encrypts the backups",
        "The deploy key is memopilot-staging-v2-eu-west-1",
        "The server's public key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        "Idempotency-Key: 8e03978e-40d5-43e8-bc93-6894a57f9324 was reused",
        "cache key: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "signing_key_id: 8b2f61c7a9e04d3fa1b2c3d4",
        "GPG key 3AA5C34371567BD2 signs our releases",
        "look up the item with key 550e8400-e29b-41d4-a716-446655440000 in DynamoDB",
        "Login failed: the password is incorrect.",
        "",
    ],
)
def test_ordinary_technical_text_survives(text: str) -> None:
    red = redact(text)
    assert red.findings == [] and red.text == text
    assert looks_secret(text) is False


def test_overlapping_findings_merge_into_the_most_specific_kind() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmUxMjM0NTY3"
    red = redact(f"Authorization: Bearer {jwt}")
    assert red.text == "Authorization: Bearer [REDACTED:jwt]"
    key = "sk-proj-" + "Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3"
    assert [f.kind for f in redact(f"password={key}").findings] == ["openai_api_key"]


def test_pem_block_goes_whole() -> None:
    body = "MIIEowIBAAKCAQEA1x2y3z4\nQWERTYUIOPasdfghjkl0987654321==\n"
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}-----END RSA PRIVATE KEY-----"
    red = redact(f"my key:\n{block}\nthanks")
    assert red.text == "my key:\n[REDACTED:private_key]\nthanks"


def test_password_phrases() -> None:
    assert redact("my password is hunter2").text == "my password is [REDACTED:password]"
    assert (
        redact("the password for the db is Zebra-77.").text
        == "the password for the db is [REDACTED:password]."
    )
    assert redact("pwd: Blue-Ocean-19").text == "pwd: [REDACTED:password]"
    assert redact("the password is too short").findings == []
    assert redact("pwd: /home/dana/project").findings == []


def test_offsets_hold_when_lowercasing_changes_length() -> None:
    text = "İstanbul office: AKIA5QF2ZK7WJ3MNP8RT and token=Zq8Lm2Np4Rt6Vx8Bz0Cd2Fg4Hj6Kl8Mn"
    red = redact(text)
    assert red.text == "İstanbul office: [REDACTED:aws_access_key] and token=[REDACTED:secret]"


def test_redaction_is_a_frozen_value() -> None:
    red = redact("nothing here")
    assert red == Redaction("nothing here", [])
    with pytest.raises(AttributeError):
        red.text = "x"  # type: ignore[misc]


def test_aws_documentation_keys_are_left_alone() -> None:
    """AWS's own documented example keys are public text; a generated key never spells EXAMPLE."""
    text = "the docs use AKIAIOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    assert redact(text).text == text
    assert redact("my key is AKIA5QF2ZK7WJ3MNP8RT").text == "my key is [REDACTED:aws_access_key]"
