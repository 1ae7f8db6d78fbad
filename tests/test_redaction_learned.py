"""The redactor's learned last net (write/redaction/learned.py): what it adds to the hand-written
detectors, what it leaves alone, and that the shipped model was trained on tune corpora only."""

from __future__ import annotations

import json
import math

import pytest

from memopilot.write.redaction import learned, redact

# Secrets the hand-written detectors let through (each asserted below) and the model takes out:
# the old password beside a new one in Russian. (A secret in two halves, "half 1: ...", was the
# other until 2026-12-06, when statements.py learnt pieces named as such: see TUNE24_SECRETS.)
MISSED_BY_THE_DETECTORS = [
    ("Пароль от Сбербанка теперь Rybka#Don55, прежний Samovar1990! уже не подходит.", ["Samovar1990!"]),
]


@pytest.fixture
def without_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "_model", lambda: None)


@pytest.mark.parametrize(("message", "secrets"), MISSED_BY_THE_DETECTORS)
def test_the_model_takes_out_what_the_detectors_miss(message: str, secrets: list[str]) -> None:
    redacted = redact(message)
    for secret in secrets:
        assert secret not in redacted.text
    assert "likely_secret" in {f.kind for f in redacted.findings}


@pytest.mark.parametrize(("message", "secrets"), MISSED_BY_THE_DETECTORS)
def test_the_detectors_alone_miss_them(without_the_model: None, message: str, secrets: list[str]) -> None:
    # what makes the test above a test of the model
    text = redact(message).text
    assert any(secret in text for secret in secrets)


def test_plain_conversation_and_technical_text_are_left_alone() -> None:
    plain = [
        "We finally adopted a beagle named Pepper, she's two and loves the park on Sundays.",
        "The meeting moved to 14:30 in room B2; bring the Q3 numbers and the v2.4.1 release notes.",
        "Order #A1-77812 shipped via UPS 1Z999AA10123456784, should land Thursday.",
        "I run Ubuntu 24.04 with Python 3.11.7 and Node 20.11.0 on a ThinkPad X1 Carbon Gen 11.",
        "My grandmother's recipe uses 250g flour, 2 eggs and a pinch of salt.",
    ]
    for message in plain:
        assert redact(message).text == message


def test_the_shipped_model_was_trained_on_tune_corpora_only() -> None:
    data = json.loads(learned.MODEL_PATH.read_text(encoding="utf-8"))
    assert data["trained_on"], "the model names its training data"
    assert not [name for name in data["trained_on"] if "check" in name]
    assert 0.5 <= data["threshold"] < 1.0
    # mostly tokens of text that holds no secret (the tune corpora are secret-heavy; conversation is not)
    assert data["positives"] > 1000 and data["tokens"] > data["positives"] * 8


def test_the_own_features_floor_changes_no_decision() -> None:
    # the floor lets most tokens stop after their own features; it must never drop a kept one
    model = learned._model()
    assert model is not None and math.isfinite(model.own_floor)
    unfloored = learned.TokenModel(model.weights, model.bias, model.threshold, model.cues)
    for message, _ in MISSED_BY_THE_DETECTORS:
        assert list(model.spans(message)) == list(unfloored.spans(message))


def test_word_by_word_scores_equal_the_features_training_reads() -> None:
    model = learned._model()
    assert model is not None
    message = "mot de passe du NAS : Citron!Vert42 (pas le même que le wifi)"
    tokens = learned.candidate_tokens(message)
    for index, (start, end) in enumerate(tokens):
        own, classes = learned.own_features(message[start:end])
        fast = model.score(own) + model._context_score(message, tokens, index, classes)
        assert fast == pytest.approx(model.score(learned.token_features(message, tokens, index)))


def test_tokens_leave_closing_punctuation_out() -> None:
    message = "key: Abc123xyz. Next, the pin=9931? done"
    assert [message[a:b] for a, b in learned.candidate_tokens(message)] == [
        "key", "Abc123xyz", "Next", "the", "pin", "9931", "done",
    ]  # fmt: skip
