"""The one function that counts tokens, used by the context budget, traces and evaluation.

MemoPilot works with any chat model, so it cannot know the model's tokenizer. The
count is an approximation of BPE tokenizers (GPT/Qwen family) that never undercounts
ordinary text by much: the larger of ``chars / 4`` (the usual rule of thumb for
English prose, which catches long and rare words that split into several tokens) and
the number of word and punctuation pieces (each common word or symbol is at least one
token). Both halves are
cheap, deterministic and monotone in the text, so the budget is never exceeded by
the packer's own accounting.

Chinese, Japanese and Korean are written without spaces, so a "word" piece there would be a
whole clause: each CJK character is a piece of its own instead. Tokenizers of the GPT and Qwen
families spend about one token per one to two Chinese characters, so one per character never
undercounts by much; text without CJK characters counts exactly as before.
"""

from __future__ import annotations

import functools
import math
import re

__all__ = [
    "CJK_LANGUAGES",
    "cjk_language",
    "count_tokens",
    "has_cjk",
    "mostly_cjk",
    "token_pieces",
    "tokens_from",
]

# Hiragana, Katakana, the CJK ideograph blocks and their extensions, Hangul syllables.
CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003134f"
_PIECES = re.compile(f"[{CJK_CHARS}]|[^\\W{CJK_CHARS}]+|[^\\w\\s]", re.UNICODE)
_CJK = re.compile(f"[{CJK_CHARS}]")
CJK_LANGUAGES = ("zh", "ja", "ko")
_KANA = re.compile("[\u3040-\u30ff]")
_HANGUL = re.compile("[\uac00-\ud7af]")


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds any Chinese, Japanese or Korean character."""
    return _CJK.search(text) is not None


def cjk_language(text: str) -> str:
    """Which of :data:`CJK_LANGUAGES` a CJK text is written in, by its script (Hangul: Korean,
    kana: Japanese, else Chinese)."""
    if _HANGUL.search(text):
        return "ko"
    return "ja" if _KANA.search(text) else "zh"


def mostly_cjk(text: str) -> bool:
    """Whether at least 30% of the letters of ``text`` are Chinese, Japanese or Korean (a Chinese
    sentence that names an English product still is; an English one quoting a Chinese word is not)."""
    letters = sum(ch.isalpha() for ch in text)
    return bool(letters) and len(_CJK.findall(text)) >= 0.3 * letters


@functools.lru_cache(maxsize=65_536)  # memory lines repeat across reads
def count_tokens(text: str) -> int:
    """Approximate number of model tokens in ``text`` (0 for the empty string)."""
    return tokens_from(len(text), token_pieces(text))


def token_pieces(text: str) -> int:
    """The word and punctuation pieces of ``text``. Pieces never contain whitespace, so the pieces
    of texts joined by whitespace are the sum of each text's pieces."""
    return len(_PIECES.findall(text))


def tokens_from(chars: int, pieces: int) -> int:
    """:func:`count_tokens` of a text with ``chars`` characters and ``pieces`` pieces (0 chars: 0)."""
    if chars <= 0:
        return 0
    return max(1, math.ceil(max(chars / 4.0, float(pieces))))
