"""Typed Python clients for the MemoPilot REST API: :class:`Client` (sync) and :class:`AsyncClient`.

    from memopilot import Client
    with Client("http://127.0.0.1:8000", api_key="mp_...") as mp:
        mp.add("I prefer tabs over spaces", type="preference")
        print(mp.context("How do I indent?").context)

Both clients share one description of every call (method, path, parameters, result
type); only the transport differs, so the two can never drift apart. HTTP errors
become exceptions (``APIError`` and subclasses that also match the library's own
``NotFoundError``, ``ConflictError`` and ``InvalidInputError``); 429 answers are
retried after their ``Retry-After`` a bounded number of times.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import TypeAdapter

from .api_models import ChatReply, ContextReply, EventsOut, ForgottenOut, MemoryOut, MemoryPage, SearchHit
from .errors import ConflictError, InvalidInputError, MemoPilotError, NotFoundError

__all__ = [
    "APIError",
    "AsyncClient",
    "AuthenticationError",
    "Client",
    "RateLimitedError",
    "ServerError",
]

T = TypeVar("T")
_MAX_RETRY_AFTER = 30.0


class APIError(MemoPilotError):
    """The server answered with an error status."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"HTTP {status}: {detail}")
        self.status = status
        self.detail = detail


class AuthenticationError(APIError):
    """401: no key, or a key the server does not know."""


class RateLimitedError(APIError):
    """429 after every retry."""


class ServerError(APIError):
    """5xx: the server failed."""


class _NotFound(APIError, NotFoundError):
    pass


class _Conflict(APIError, ConflictError):
    pass


class _Invalid(APIError, InvalidInputError):
    pass


def _error_for(status: int, detail: str) -> APIError:
    kinds: dict[int, type[APIError]] = {
        401: AuthenticationError,
        404: _NotFound,
        409: _Conflict,
        413: _Invalid,
        422: _Invalid,
        400: _Invalid,
        429: RateLimitedError,
    }
    return kinds.get(status, ServerError if status >= 500 else APIError)(status, detail)


@dataclass(frozen=True, slots=True)
class _Call(Generic[T]):
    method: str
    path: str
    parse: Callable[[Any], T]
    params: dict[str, Any] = field(default_factory=dict)
    json: Any = None


def _model(kind: Any) -> Callable[[Any], Any]:
    adapter = TypeAdapter(kind)
    return adapter.validate_python


def _raw(data: Any) -> Any:
    return data


def _clean(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if v is not None}


class _Calls:
    """Every API call, described once. ``_run`` executes (sync) or schedules (async) it."""

    def _run(self, call: _Call[Any]) -> Any:  # pragma: no cover - provided by the transports
        raise NotImplementedError

    # memories
    def add(
        self,
        content: str,
        *,
        type: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        project_id: str | None = "default",
        state: str = "active",
    ) -> Any:
        body = _clean(
            {"content": content, "type": type, "tags": tags, "importance": importance, "state": state}
        )
        body["project_id"] = project_id
        return self._run(_Call("POST", "/api/memories", _model(MemoryOut), json=body))

    def get(self, memory_id: str) -> Any:
        return self._run(_Call("GET", f"/api/memories/{memory_id}", _model(MemoryOut)))

    def list(
        self,
        *,
        type: str | None = None,
        state: str | None = None,
        project_id: str | None = None,
        q: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> Any:
        params = _clean(
            {"type": type, "state": state, "project_id": project_id, "q": q, "limit": limit, "offset": offset}
        )
        return self._run(_Call("GET", "/api/memories", _model(MemoryPage), params=params))

    def update(
        self,
        memory_id: str,
        *,
        content: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        state: str | None = None,
    ) -> Any:
        body = _clean({"content": content, "tags": tags, "importance": importance, "state": state})
        return self._run(_Call("PATCH", f"/api/memories/{memory_id}", _model(MemoryOut), json=body))

    def pin(self, memory_id: str) -> Any:
        return self.update(memory_id, state="pinned")

    def unpin(self, memory_id: str) -> Any:
        return self.update(memory_id, state="active")

    def archive(self, memory_id: str) -> Any:
        return self.update(memory_id, state="archived")

    def restore(self, memory_id: str) -> Any:
        return self.update(memory_id, state="active")

    def forget(self, memory_id: str, *, cascade: bool = False) -> Any:
        """The user's Forget: the server erases the content and answers with the tombstone
        (``also_forgotten``: what went with it; ``cascade`` adds the source episode)."""
        path = f"/api/memories/{memory_id}" + ("?cascade=true" if cascade else "")
        return self._run(_Call("DELETE", path, _model(ForgottenOut)))

    def history(self, memory_id: str) -> Any:
        return self._run(_Call("GET", f"/api/memories/{memory_id}/history", _model(EventsOut)))

    def timeline(self, *, project_id: str | None = None, kind: str | None = None, limit: int = 100) -> Any:
        params = _clean({"project_id": project_id, "kind": kind, "limit": limit})
        return self._run(_Call("GET", "/api/timeline", _model(EventsOut), params=params))

    # reading and chatting
    def search(self, query: str, *, project_id: str | None = None, k: int = 10) -> Any:
        params = _clean({"q": query, "project_id": project_id, "k": k})
        return self._run(
            _Call("GET", "/api/search", lambda d: _model(list[SearchHit])(d["results"]), params=params)
        )

    def context(self, query: str, *, project_id: str | None = None, budget_tokens: int | None = None) -> Any:
        body = _clean({"query": query, "project_id": project_id, "budget_tokens": budget_tokens})
        return self._run(_Call("POST", "/api/context", _model(ContextReply), json=body))

    def chat(self, message: str, *, project_id: str | None = None, session_id: str | None = None) -> Any:
        body = _clean({"message": message, "project_id": project_id, "session_id": session_id})
        return self._run(_Call("POST", "/api/chat", _model(ChatReply), json=body))

    def trace(self, trace_id: str) -> Any:
        return self._run(_Call("GET", f"/api/traces/{trace_id}", _raw))

    def session_turns(self, session_id: str, *, limit: int = 100) -> Any:
        path = f"/api/sessions/{quote(session_id, safe='')}/turns"
        return self._run(_Call("GET", path, _raw, params={"limit": limit}))

    # maintenance and views
    def reflect(self, *, project_id: str | None = None, include_user_wide: bool = True) -> Any:
        body = _clean({"project_id": project_id, "include_user_wide": include_user_wide})
        return self._run(_Call("POST", "/api/reflect", _raw, json=body))

    def run_forgetting(self) -> Any:
        return self._run(_Call("POST", "/api/forgetting/run", _raw))

    def graph(self, *, project_id: str | None = None) -> Any:
        return self._run(_Call("GET", "/api/graph", _raw, params=_clean({"project_id": project_id})))

    def analytics(self, *, project_id: str | None = None) -> Any:
        return self._run(_Call("GET", "/api/analytics", _raw, params=_clean({"project_id": project_id})))

    def export(self) -> Any:
        return self._run(_Call("GET", "/api/export", _raw))

    def import_(self, document: dict[str, Any]) -> Any:
        return self._run(_Call("POST", "/api/import", _raw, json=document))

    def health(self) -> Any:
        return self._run(_Call("GET", "/health", _raw))


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _retry_after(response: httpx.Response) -> float:
    try:
        return min(_MAX_RETRY_AFTER, max(0.0, float(response.headers.get("Retry-After", "1"))))
    except ValueError:
        return 1.0


def _result(call: _Call[T], response: httpx.Response) -> T:
    if response.status_code >= 400:
        try:
            detail = str(response.json().get("detail", response.text))
        except ValueError:
            detail = response.text[:300]
        raise _error_for(response.status_code, detail)
    return call.parse(response.json())


class Client(_Calls):
    """Synchronous client. ``max_retries`` bounds the retries of 429 answers."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url, headers=_headers(api_key), timeout=timeout, transport=transport
        )
        self._max_retries = max_retries

    def _run(self, call: _Call[T]) -> T:
        for attempt in range(self._max_retries + 1):
            response = self._http.request(call.method, call.path, params=call.params, json=call.json)
            if response.status_code == 429 and attempt < self._max_retries:
                time.sleep(_retry_after(response))
                continue
            return _result(call, response)
        raise AssertionError("unreachable")

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient(_Calls):
    """Asynchronous client: the same methods as :class:`Client`, each awaitable."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000",
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=_headers(api_key), timeout=timeout, transport=transport
        )
        self._max_retries = max_retries

    def _run(self, call: _Call[T]) -> Awaitable[T]:
        return self._send(call)

    async def _send(self, call: _Call[T]) -> T:
        for attempt in range(self._max_retries + 1):
            response = await self._http.request(call.method, call.path, params=call.params, json=call.json)
            if response.status_code == 429 and attempt < self._max_retries:
                await asyncio.sleep(_retry_after(response))
                continue
            return _result(call, response)
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
