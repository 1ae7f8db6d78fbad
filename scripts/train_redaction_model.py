#!/usr/bin/env python3
"""Train the redactor's learned last net (src/memopilot/write/redaction/learned.py).

    pip install -e ".[train]"
    python scripts/train_redaction_model.py [--locomo ../shared/data/locomo_dev.json]

Data: the tune corpora only (``tests/data`` and ``tests/data/redaction_tune*``; the check corpora
are never read), each message's tokens labelled secret when they overlap a listed secret; and, as
text holding no secret, the benign messages of those corpora, real conversation (LoCoMo dev turns),
the extraction sets' messages and statements, the Chinese sets' sentences and the look-alikes of
tests/test_redaction_families.py.

Model: logistic regression (scikit-learn, L2) over the string features of
``learned.token_features``. The threshold is chosen by leave-one-corpus-out runs: for each tune
corpus, a model trained without it redacts it together with the hand-written detectors (which
*were* tuned on it, so only the model's increment is measured fairly); the lowest threshold whose
pooled share of benign messages the model alone alters stays within ``--altered`` is taken.
The weights go to src/memopilot/write/redaction/data/token_model.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from measure_redaction import TUNES, load, survives  # noqa: E402

from memopilot.write.redaction import learned, redact  # noqa: E402

C = 0.5
THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97]
CUE_FLOOR = 1.0
FLOOR_LOSS = 0.02  # the share of kept training tokens the own-features floor may give up
FLOOR_MARGIN = 0.25
MIN_WEIGHT = 0.05  # smaller weights change no decision on the tune corpora and double the file
SHOW = 0.0  # a threshold whose held-out benign messages altered by the model are printed

Corpus = tuple[str, list[dict], list[str]]  # name, secret messages, benign messages
Features = tuple[list[str], list[str]]  # a token's own features, its context's


def corpora() -> list[Corpus]:
    return [
        (
            folder.name,
            load(folder, "secret_messages.jsonl"),
            [m["message"] for m in load(folder, "benign_messages.jsonl")],
        )
        for folder in TUNES
    ]


def plain_texts(locomo: Path) -> list[str]:
    """Text holding no secret: real conversation, the extraction sets, the Chinese sets."""
    texts: list[str] = []
    if locomo.exists():
        for sample in json.loads(locomo.read_text(encoding="utf-8")):
            conversation = sample["conversation"]
            for key, turns in conversation.items():
                if key.startswith("session_") and isinstance(turns, list):
                    texts.extend(t["text"] for t in turns)
    extraction = ROOT / "eval" / "extraction"
    for name in ("train_sentences.json", "train_sentences_assistant.json", "train_sentences_more.json"):
        texts.extend(e["text"] for e in json.loads((extraction / name).read_text(encoding="utf-8")))
    for name in ("messages.json",):
        texts.extend(e["message"] for e in json.loads((extraction / name).read_text(encoding="utf-8")))
    texts.extend(
        e["text"] for e in json.loads((ROOT / "eval/cjk_calibration/sentences.json").read_text("utf-8"))
    )
    chinese = json.loads((ROOT / "eval/chinese/memories_questions.json").read_text(encoding="utf-8"))
    texts.extend(m["text"] for m in chinese["memories"])
    texts.extend(look_alikes())
    return texts


def look_alikes() -> list[str]:
    """The hand-written look-alikes of tests/test_redaction_families.py (network names, order
    numbers, versions): labelled text like the rest, and what the tests pin as left alone."""
    path = ROOT / "tests" / "test_redaction_families.py"
    spec = importlib.util.spec_from_file_location("redaction_families", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return list(module.LOOK_ALIKES)


def secret_spans(message: str, secrets: list[str]) -> list[tuple[int, int]]:
    spans = []
    for secret in secrets:
        at = message.find(secret)
        while at >= 0:
            spans.append((at, at + len(secret)))
            at = message.find(secret, at + 1)
    return spans


def examples(message: str, spans: list[tuple[int, int]]) -> tuple[list[Features], list[int]]:
    """Each token's features (its own, then its context's) and label: secret when at least half of
    it lies inside a listed secret."""
    tokens = learned.candidate_tokens(message)
    feats, labels = [], []
    for index, (start, end) in enumerate(tokens):
        if end - start < 4:
            continue
        inside = sum(max(0, min(end, b) - max(start, a)) for a, b in spans)
        own, classes = learned.own_features(message[start:end])
        feats.append((own, learned.context_features(message, tokens, index, classes)))
        labels.append(int(inside * 2 >= end - start))
    return feats, labels


def dataset(secret: list[dict], benign: list[str]) -> tuple[list[Features], list[int]]:
    feats: list[Features] = []
    labels: list[int] = []
    for entry in secret:
        f, y = examples(entry["message"], secret_spans(entry["message"], entry["secrets"]))
        feats += f
        labels += y
    for message in benign:
        f, y = examples(message, [])
        feats += f
        labels += y
    return feats, labels


def train(feats: list[Features], labels: list[int], threshold: float = 0.5) -> learned.TokenModel:
    """The model fitted on ``feats`` (see :func:`with_threshold` for its ``own_floor``)."""
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([dict.fromkeys(own + context, 1.0) for own, context in feats])
    model = LogisticRegression(C=C, max_iter=3000, solver="lbfgs").fit(x, np.asarray(labels))
    names = vectorizer.get_feature_names_out()
    weights = {
        str(n): round(float(w), 4) for n, w in zip(names, model.coef_[0], strict=True) if abs(w) >= MIN_WEIGHT
    }
    data = {
        "weights": weights,
        "bias": float(model.intercept_[0]),
        "threshold": threshold,
        "cue_floor": CUE_FLOOR,
    }
    return with_threshold(learned.TokenModel.from_json(data), threshold, feats)


def with_threshold(model: learned.TokenModel, threshold: float, feats: list[Features]) -> learned.TokenModel:
    """``model`` keeping tokens at ``threshold``, with its ``own_floor``: the score of a token's own
    features under which the whole model keeps only :data:`FLOOR_LOSS` of the training tokens it
    keeps (most tokens stop there, before their context is read)."""
    keep = math.log(threshold / (1 - threshold))
    kept = [model.score(own) for own, context in feats if model.score(own + context) >= keep]
    floor = float(np.quantile(kept, FLOOR_LOSS)) - FLOOR_MARGIN if kept else -math.inf
    return learned.TokenModel(model.weights, model.bias, threshold, model.cues, floor)


def rules_only(text: str) -> list[tuple[int, int]]:
    return [(f.start, f.end) for f in redact(text).findings]


def apply(text: str, spans: list[tuple[int, int]]) -> str:
    out, pos = [], 0
    for start, end in sorted(spans):
        if start < pos:
            start = pos
        if end <= start:
            continue
        out.append(text[pos:start] + "[REDACTED:x]")
        pos = end
    return "".join(out) + text[pos:]


def evaluate(
    model: learned.TokenModel, corpus: Corpus, threshold: float, feats: list[Features]
) -> tuple[int, int, int, int, int, int]:
    """(secrets, removed by rules alone, by the model alone, by both, benign, benign altered by
    the model)."""
    _, secret, benign = corpus
    model = with_threshold(model, threshold, feats)
    total = base = alone = both = 0
    for entry in secret:
        message = entry["message"]
        rule_spans = rules_only(message)
        model_spans = list(model.spans(message))
        for value in entry["secrets"]:
            total += 1
            base += not survives(value, apply(message, rule_spans))
            alone += not survives(value, apply(message, model_spans))
            both += not survives(value, apply(message, rule_spans + model_spans))
    altered = [message for message in benign if any(True for _ in model.spans(message))]
    if SHOW and threshold == SHOW:
        for message in altered:
            print("    altered:", [message[a:b] for a, b in model.spans(message)], message[:120])
    return total, base, alone, both, len(benign), len(altered)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", default=str(ROOT.parent / "shared" / "data" / "locomo_dev.json"))
    parser.add_argument("--altered", type=float, default=0.005, help="benign share the model alone may alter")
    parser.add_argument("--out", default=str(learned.MODEL_PATH))
    parser.add_argument(
        "--show", type=float, default=0.0, help="print what the model alters at this threshold"
    )
    args = parser.parse_args()
    global SHOW
    SHOW = args.show
    learned._model = lambda: None  # the hand-written detectors alone, while the model is trained
    all_corpora = corpora()
    plain = plain_texts(Path(args.locomo))
    plain_feats, plain_labels = dataset([], plain)
    parts = {name: dataset(secret, benign) for name, secret, benign in all_corpora}
    totals = {t: np.zeros(6, dtype=int) for t in THRESHOLDS}
    per_corpus: dict[tuple[float, str], tuple[int, ...]] = {}
    for corpus in all_corpora:
        feats, labels = list(plain_feats), list(plain_labels)
        for name, (f, y) in parts.items():
            if name != corpus[0]:
                feats += f
                labels += y
        model = train(feats, labels)
        for threshold in THRESHOLDS:
            figures = evaluate(model, corpus, threshold, feats)
            totals[threshold] += figures
            per_corpus[threshold, corpus[0]] = figures
    chosen = THRESHOLDS[-1]
    for threshold in THRESHOLDS:
        total, base, alone, both, benign, altered = totals[threshold]
        print(
            f"threshold {threshold:.2f}: removed {base / total:.3f} -> {both / total:.3f} "
            f"(model alone {alone / total:.3f}), "
            f"benign altered by the model {altered}/{benign} = {altered / benign:.3%}"
        )
    for threshold in THRESHOLDS:
        total, base, alone, both, benign, altered = totals[threshold]
        if altered / benign <= args.altered:
            chosen = threshold
            break
    for (threshold, name), (total, base, alone, both, benign, altered) in per_corpus.items():
        if threshold == chosen:
            print(
                f"  {name} held out: removed {base}/{total} -> {both}/{total}, model alone {alone}; "
                f"benign altered by the model {altered}/{benign}"
            )
    feats, labels = list(plain_feats), list(plain_labels)
    for f, y in parts.values():
        feats += f
        labels += y
    model = train(feats, labels, chosen)
    data = {
        "weights": model.weights,
        "bias": model.bias,
        "threshold": chosen,
        "own_floor": round(model.own_floor, 4),
        "cue_floor": CUE_FLOOR,
        "trained_on": [name for name, _, _ in all_corpora]
        + ["LoCoMo dev turns", "eval/extraction", "eval/chinese"],
        "positives": int(sum(labels)),
        "tokens": len(labels),
    }
    Path(args.out).write_text(
        json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8"
    )
    print(f"threshold {chosen}; {len(model.weights)} weights; wrote {args.out}")


if __name__ == "__main__":
    main()
