"""Memory text as quoted data for a model: what every piece of stored text that goes back to a
model passes (the context, the offline reply replayed as history, the LLM editor's input).

A memory becomes one JSON string literal, so quotes and line breaks cannot close the quotation or
start a line of their own. On top of JSON's own escaping, characters that change how text looks
or is read without showing themselves are escaped as ``\\uXXXX`` (still valid JSON, and visible):

* line breaks JSON leaves alone (U+0085, U+2028, U+2029) and the other C1 controls (U+0080-009F);
* bidi controls (U+061C, U+200E-200F, U+202A-202E, U+2066-2069), which can make text read
  differently from how it is stored;
* zero-width and invisible format characters (U+200B-200D, U+2060-2064, U+FEFF).

Chat-template tokens (``<|im_start|>``, ``<|eot_id|>``, ``[INST]``, ``<<SYS>>``, ``<s>``,
``<start_of_turn>`` ...) are broken by escaping their first character (``\\u003c|im_start|>``),
so a tokenizer never reads them as the special tokens that end a message or open a new role.
"""

from __future__ import annotations

import functools
import json
import re

__all__ = ["neutralise_json", "quote", "was_neutralised"]

_ESCAPED = [0x061C, 0x0085, 0x2028, 0x2029, 0xFEFF]
_ESCAPED += [*range(0x80, 0xA0), *range(0x200B, 0x2010), *range(0x202A, 0x202F)]
_ESCAPED += [*range(0x2060, 0x2065), *range(0x2066, 0x206A)]
_ESCAPES = {code: f"\\u{code:04x}" for code in _ESCAPED}
_NEEDS_ESCAPE = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(set(_ESCAPED))) + "]")
# Special tokens of the common chat templates (ChatML/Qwen, Llama 2 and 3, Gemma, Mistral, Phi).
_TEMPLATE_TOKEN = re.compile(
    r"<\|[A-Za-z0-9_\-]{1,40}\|>|\[/?(?:INST|SYS|AVAILABLE_TOOLS|TOOL_RESULTS)\]|<</?SYS>>"
    r"|</?s>|<(?:start|end)_of_turn>|<\|?(?:endoftext|im_start|im_end|eot_id)\|?>",
    re.IGNORECASE,
)
# One encoder for every string: json.dumps with a non-default option builds a new encoder per call.
_ENCODE_STRING = json.JSONEncoder(ensure_ascii=False).encode


def _break_token(match: re.Match[str]) -> str:
    token = match.group(0)
    return f"\\u{ord(token[0]):04x}{token[1:]}"


def neutralise_json(text: str) -> str:
    """JSON text with the characters and tokens above escaped (inside its strings, where they are)."""
    if _NEEDS_ESCAPE.search(text):
        text = text.translate(_ESCAPES)
    if "<" in text or "[" in text:
        text = _TEMPLATE_TOKEN.sub(_break_token, text)
    return text


def quote(content: str) -> str:
    """``content`` as one JSON string literal, neutralised for a model."""
    return neutralise_json(_ENCODE_STRING(content))


@functools.lru_cache(maxsize=16_384)
def was_neutralised(content: str) -> bool:
    """Whether :func:`quote` escaped more of ``content`` than JSON itself would (for the trace)."""
    return bool(_NEEDS_ESCAPE.search(content) or _TEMPLATE_TOKEN.search(content))
