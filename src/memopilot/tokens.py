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

__all__ = ["count_tokens"]

_PIECES = re.compile(r"\w+|[^\w\s]", re.UNICODE)


@functools.lru_cache(maxsize=65_536)  # memory lines repeat across reads
def count_tokens(text: str) -> int:
    """Approximate number of model tokens in ``text`` (0 for the empty string)."""
    if not text:
        return 0
    by_chars = len(text) / 4.0
    by_pieces = float(len(_PIECES.findall(text)))
    return max(1, math.ceil(max(by_chars, by_pieces)))
