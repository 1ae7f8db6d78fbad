"""Fit the linear maps that carry multilingual-e5-small vectors into the static model's space.

    pip install -e ".[multilingual]"
    python scripts/fit_e5_projection.py [--locomo ../shared/data/locomo_dev.json] [--centres-only]

``MEMOPILOT_EMBEDDER=static+e5`` embeds text written mostly in Chinese, Japanese or Korean with
multilingual-e5-small (the bundled static model, distilled from an English encoder, sees such
text as characters with little meaning) and maps the e5 vector into the static model's space, so
that every memory of a store keeps one width and one scale whatever its language. The maps are
two ridge regressions with a bias (one for e5's ``passage:`` vectors, one for its ``query:``
vectors) from e5 vectors to the static model's vectors of the same English sentences: e5 is
trained so that a sentence and its translation embed alike, so a Chinese sentence lands near the
static vector of its English meaning.

Sentences: the labelled training statements in eval/extraction/train_sentences*.json (the
extraction check halves are not read), 1,500 synthetic memories of the bench generator, and with
--locomo the turns of the two LoCoMo dev conversations. Nothing Chinese is used: the Chinese set
(eval/chinese) is the held-out check. Deterministic: the same inputs give the same file.
Writes src/memopilot/models/e5-to-static/maps.npz (float16) and prints the held-out fit.

Then the centres: the sentences of eval/cjk_calibration/sentences.json (Chinese, Japanese and
Korean statements and questions written for this by a helper who saw neither the Chinese set nor
the code) are mapped, and each language's mean mapped vector is kept, for passages and for
queries. The embedder takes ``centre_share`` of it out of every mapped vector of that language;
the share is the one that puts the median cosine between the calibration set's Chinese questions
and statements (unrelated, mostly) where the static model puts the median cosine of the English
sentences' pairs (bisection).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from memopilot.bench.synthetic import generate_memories  # noqa: E402
from memopilot.embedding import MultilingualE5Embedder, StaticEmbedder  # noqa: E402
from memopilot.evaluation.locomo_data import load_locomo  # noqa: E402
from memopilot.read.tokens import CJK_LANGUAGES  # noqa: E402

OUT = ROOT / "src" / "memopilot" / "models" / "e5-to-static" / "maps.npz"
CALIBRATION = ROOT / "eval" / "cjk_calibration" / "sentences.json"
RIDGE = 0.1
SEED = 20261204


def sentences(locomo: Path | None) -> list[str]:
    texts: list[str] = []
    for path in sorted((ROOT / "eval" / "extraction").glob("train_sentences*.json")):
        texts += [entry["text"] for entry in json.loads(path.read_text(encoding="utf-8"))]
    made = datetime(2026, 1, 1, tzinfo=UTC)
    texts += [m.content for m in generate_memories(1500, seed=3, now=made)]
    if locomo is not None:
        for conversation in load_locomo(locomo):
            texts += [t.content for t in conversation.turns] + [t.said for t in conversation.turns]
    return list(dict.fromkeys(t for t in texts if t.strip()))


def ridge(inputs: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """The (dim + 1, target dim) map, bias last, minimising squared error + RIDGE * |map|^2."""
    with_bias = np.hstack([inputs, np.ones((len(inputs), 1), dtype=inputs.dtype)]).astype(np.float64)
    gram = with_bias.T @ with_bias + RIDGE * np.eye(with_bias.shape[1])
    return np.linalg.solve(gram, with_bias.T @ targets.astype(np.float64))


def held_out_cosine(inputs: np.ndarray, targets: np.ndarray) -> float:
    """Mean cosine between mapped and static vectors on a fifth of the sentences left out."""
    order = np.random.default_rng(SEED).permutation(len(inputs))
    cut = len(order) * 4 // 5
    fit, held = order[:cut], order[cut:]
    mapped = np.hstack([inputs[held], np.ones((len(held), 1))]) @ ridge(inputs[fit], targets[fit])
    mapped /= np.linalg.norm(mapped, axis=1, keepdims=True)
    return float(np.mean(np.sum(mapped * targets[held], axis=1)))


def unit(matrix: np.ndarray) -> np.ndarray:
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def mapped(vectors: np.ndarray, linear: np.ndarray) -> np.ndarray:
    return unit(np.hstack([unit(vectors), np.ones((len(vectors), 1))]) @ linear.astype(np.float64))


def median_pair_cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The median cosine of every pair of a row of ``a`` with a row of ``b`` (the same row left out)."""
    cosines = unit(a) @ unit(b).T
    if a is b:
        cosines = cosines[~np.eye(len(a), dtype=bool)]
    return float(np.median(cosines))


def centres(
    maps: dict[str, np.ndarray], e5: MultilingualE5Embedder, *, target: float
) -> dict[str, np.ndarray]:
    """Each CJK language's mean mapped vector (passages and queries) and the share to take out."""
    entries = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    out: dict[str, np.ndarray] = {}
    vectors: dict[tuple[str, str], np.ndarray] = {}
    for kind in ("passage", "query"):
        rows = []
        for language in CJK_LANGUAGES:
            texts = [e["text"] for e in entries if e["language"] == language]
            embedded = e5.embed(texts) if kind == "passage" else e5.embed_queries(texts)
            vectors[kind, language] = mapped(embedded, maps[kind])
            rows.append(vectors[kind, language].mean(axis=0))
        out[f"{kind}_centres"] = np.asarray(rows, dtype=np.float16)
    chinese = [e for e in entries if e["language"] == "zh"]
    asked = np.asarray([e["kind"] == "question" for e in chinese])
    questions, statements = vectors["query", "zh"][asked], vectors["passage", "zh"][~asked]
    low, high = 0.0, 1.0
    for _ in range(30):  # the median falls as the share grows
        share = (low + high) / 2
        q = questions - share * out["query_centres"][0].astype(np.float64)
        p = statements - share * out["passage_centres"][0].astype(np.float64)
        low, high = (share, high) if median_pair_cosine(q, p) > target else (low, share)
    print(f"centres: share {share:.3f} puts the Chinese median cosine at the static model's {target:.3f}")
    out["centre_share"] = np.asarray(share, dtype=np.float16)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", type=Path, default=None)
    parser.add_argument(
        "--centres-only", action="store_true", help="keep the maps in the file, fit only the centres"
    )
    args = parser.parse_args()
    texts = sentences(args.locomo)
    static = StaticEmbedder().embed(texts)
    e5 = MultilingualE5Embedder()
    if args.centres_only:
        with np.load(OUT) as kept:
            maps = {name: kept[name] for name in ("passage", "query")}
    else:
        passages, queries = e5.embed(texts), e5.embed_queries(texts)
        for name, inputs in (("passage", passages), ("query", queries)):
            print(f"{name}: {len(texts)} sentences, held-out cosine to the static vectors "
                  f"{held_out_cosine(inputs, static):.3f}")  # fmt: skip
        maps = {
            "passage": ridge(passages, static).astype(np.float16),
            "query": ridge(queries, static).astype(np.float16),
        }
    english = static[np.random.default_rng(SEED).permutation(len(static))[:2000]]
    maps.update(centres(maps, e5, target=median_pair_cosine(english, english)))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **maps)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
