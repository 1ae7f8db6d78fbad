#!/usr/bin/env python3
"""Judge a change to the rule editor's learned judgement on the tune halves alone, item by item.

    python scripts/cv_statement_classifier.py [--folds 5] [--locomo ../shared/data/locomo_dev.json]

The tune items of eval/extraction/messages.json and locomo.json are split into folds (by a hash
of their id). For each fold, the classifier is trained as scripts/train_statement_classifier.py
trains it (the helper-written statements plus the *other* folds' tune items), the real write path
runs the fold's items with it, and the items are scored as ``memopilot eval extraction`` scores
them. The pooled figures say how the change does on tune items it was not fitted to: the check
halves stay unread, so they still measure what the change does on text nobody tuned on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import train_statement_classifier as training  # noqa: E402

from memopilot.embedding import MultilingualE5Embedder, StaticEmbedder  # noqa: E402
from memopilot.evaluation.extraction import ExtractionRun, load_items, run_extraction  # noqa: E402
from memopilot.write import rule_editor, statement_classifier  # noqa: E402
from memopilot.write.statement_classifier import StatementClassifier  # noqa: E402


def fold_of(item_id: str, folds: int) -> int:
    return int(hashlib.sha256(item_id.encode()).hexdigest(), 16) % folds


class E5Cache:
    """multilingual-e5-small's passage vectors, computed once per text across folds."""

    def __init__(self) -> None:
        self._model = MultilingualE5Embedder()
        self._vectors: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        for start in range(0, len(missing), 64):
            chunk = missing[start : start + 64]
            for text, vector in zip(chunk, self._model.embed(chunk), strict=True):
                self._vectors[text] = vector
        return np.vstack([self._vectors[t] for t in texts])


def show_errors(runs: dict[str, ExtractionRun]) -> None:
    """What each tune item stored that no expectation matched, and what it missed."""
    for run in runs.values():
        for result in run.results:
            matched = {memory_id for _, memory_id in result.matched}
            wrong = [m for m in result.stored if m.id not in matched]
            missed = [e for i, e in enumerate(result.item.expect) if i not in {i for i, _ in result.matched}]
            if wrong or missed:
                print(f"{result.item.id}: {result.item.message[:140]!r}")
                for memory in wrong:
                    print(f"   stored {memory.type.value}: {memory.content[:100]!r}")
                for expectation in missed:
                    print(f"   missed {expectation.types}: {expectation.all}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", default=str(ROOT.parent / "shared" / "data" / "locomo_dev.json"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--json", help="write the pooled summary here")
    parser.add_argument("--show", action="store_true", help="print each tune item's unmatched memories")
    parser.add_argument("--target", type=float, help="the keep model's statement precision target")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a rule_editor constant to try"
    )
    args = parser.parse_args()
    for assignment in args.set:
        name, value = assignment.split("=", 1)
        module = statement_classifier if hasattr(statement_classifier, name) else rule_editor
        setattr(module, name, type(getattr(module, name))(value))
    if args.target:
        training.TARGET_PRECISION = args.target
    extraction = training.EXTRACTION
    files = {
        "messages": load_items(extraction / "messages.json"),
        "locomo": load_items(extraction / "locomo.json", args.locomo),
        "messages_tune2": load_items(extraction / "messages_tune2.json"),
        "messages_tune3": load_items(extraction / "messages_tune3.json"),
    }
    tune = {name: [i for i in items if i.split == "tune"] for name, items in files.items()}
    embedder, e5 = StaticEmbedder(), E5Cache()
    runs = {name: ExtractionRun() for name in tune}
    classifiers: list[StatementClassifier] = []
    original = rule_editor.default_classifier
    with tempfile.TemporaryDirectory() as tmp:
        for fold in range(args.folds):
            fitted_on = [i for items in tune.values() for i in items if fold_of(i.id, args.folds) != fold]
            path = Path(tmp) / f"fold{fold}.npz"
            weights, meta = training.build_weights(training.training_examples(fitted_on), embedder, e5)
            np.savez_compressed(path, **weights, meta=np.asarray(json.dumps(meta)))
            classifier = StatementClassifier(path)
            classifiers.append(classifier)
            rule_editor.default_classifier = lambda c=classifier: c  # type: ignore[assignment]
            try:
                for name, items in tune.items():
                    held_out = [i for i in items if fold_of(i.id, args.folds) == fold]
                    runs[name].results.extend(run_extraction(held_out).results)
            finally:
                rule_editor.default_classifier = original
            print(f"fold {fold + 1}/{args.folds} done", file=sys.stderr)
    if args.show:
        show_errors(runs)
    summary = {name: run.summary()["overall"] for name, run in runs.items()}
    for name, overall in summary.items():
        print(
            f"{name} (tune, {args.folds}-fold): precision {overall['precision']:.3f} recall "
            f"{overall['recall']:.3f} stored_when_none_expected {overall['stored_when_none_expected']:.3f} "
            f"false_critical {overall['false_critical']} "
            f"({overall['stored']} stored, {overall['expected']} expected)"
        )
    e5_calls, judged = sum(c.e5_calls for c in classifiers), sum(c.judged for c in classifiers)
    print(f"statements judged with e5's vector: {e5_calls} of {judged}")
    if args.json:
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        Path(args.json).write_text(json.dumps({"at": stamp, "folds": args.folds, **summary}, indent=2))


if __name__ == "__main__":
    main()
