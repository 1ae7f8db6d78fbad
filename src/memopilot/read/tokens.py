"""The one function that counts tokens, used by the context budget, traces and evaluation.

MemoPilot works with any chat model, so it cannot know the model's tokenizer. The
count is an approximation of BPE tokenizers (GPT/Qwen family) that never undercounts
ordinary text by much: the larger of ``chars / 4`` (the usual rule of thumb for
English prose, which catches long and rare words that split into several tokens) and
the number of word and punctuation pieces (each common word or symbol is at least one
token). Both halves are
cheap, deterministic and monotone in the text, so the budget is never exceeded by
the packer's own accounting.
"""

from __future__ import annotations

import functools
import math
import re

__all__ = ["count_tokens", "token_pieces", "tokens_from"]

_PIECES = re.compile(r"\w+|[^\w\s]", re.UNICODE)


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
