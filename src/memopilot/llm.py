"""The ``LLM`` port: one chat-completions call over the OpenAI-compatible HTTP protocol.

DashScope's compatible mode (Qwen, the default provider), OpenAI, Ollama and vLLM all
speak it. Cross-cutting work lives in :meth:`ChatClient.complete`: timeouts, bounded
retries on 429 and 5xx (honouring ``Retry-After``), and turning every failure into one
:class:`~memopilot.errors.LLMError` so that callers can fall back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from .errors import LLMError
from .settings import Settings

__all__ = ["ChatClient", "make_chat_client"]

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_MAX_RETRY_AFTER_SECONDS = 10.0


class ChatClient:
    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None,
        timeout: float = 30.0,
        max_retries: int = 2,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)
        self._max_retries = max_retries
        self._sleep = sleep

    def close(self) -> None:
        self._http.close()

    def complete(
        self, messages: list[dict[str, str]], *, json_mode: bool = False, temperature: float = 0.0
    ) -> str:
        """The assistant's reply text. Raises LLMError after the retries are spent."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        for attempt in range(self._max_retries + 1):
            response = self._post(body)
            if response.status_code in _RETRY_STATUSES and attempt < self._max_retries:
                self._sleep(_retry_delay(response, attempt))
                continue
            return _reply_text(response)
        raise LLMError("unreachable")  # the loop always returns or raises

    def _post(self, body: dict[str, Any]) -> httpx.Response:
        try:
            return self._http.post("/chat/completions", json=body)
        except httpx.TimeoutException:
            raise LLMError(f"the chat model at {self.base_url} timed out") from None
        except httpx.HTTPError as exc:
            raise LLMError(
                f"the chat model at {self.base_url} is unreachable ({type(exc).__name__})"
            ) from None


def _retry_delay(response: httpx.Response, attempt: int) -> float:
    header = response.headers.get("Retry-After", "")
    try:
        return min(_MAX_RETRY_AFTER_SECONDS, max(0.0, float(header)))
    except ValueError:
        return min(_MAX_RETRY_AFTER_SECONDS, 0.5 * 2**attempt)


def _reply_text(response: httpx.Response) -> str:
    if response.status_code >= 400:
        raise LLMError(f"the chat model answered HTTP {response.status_code}: {response.text[:200]}")
    try:
        content = response.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise LLMError("the chat model's reply is not a chat completion") from None
    if not isinstance(content, str):
        raise LLMError("the chat model's reply has no text")
    return content


def make_chat_client(settings: Settings) -> ChatClient | None:
    """The configured chat model, or None when no LLM is configured (no base URL and no key)."""
    if not settings.llm_configured:
        return None
    return ChatClient(
        base_url=settings.resolved_llm_base_url,
        model=settings.llm_model,
        api_key=settings.llm_api_key,
        timeout=settings.llm_timeout_seconds,
        max_retries=settings.llm_max_retries,
    )
