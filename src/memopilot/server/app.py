"""The FastAPI application factory: identity, limits, error mapping, the web app.

``create_app`` builds one :class:`~memopilot.engine.facade.MemoPilot` from settings (or takes
one) and mounts the REST routes and the static web app. Identity: the authentication mode
is decided once, when the app is built (``MEMOPILOT_AUTH``, else ``keys`` if any API key
exists then, else ``local``), and never changes while the process runs. In local mode the
server is single-user (``user_id`` may be passed); in keys mode every request but
``/health`` needs ``Authorization: Bearer <key>`` and is scoped to that key's user, and
with no valid key (all revoked, say) it answers 401: it never falls back to local mode.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..engine.facade import MemoPilot
from ..errors import (
    ConflictError,
    ContentTooLongError,
    EmbedderError,
    InvalidInputError,
    MemoPilotError,
    NotFoundError,
    StoreError,
)
from ..read.index import tune_gc_for_serving
from ..settings import Settings
from ..write.redaction import redact
from .keys import ApiKeyStore

__all__ = ["Identity", "IdentityDep", "auth_mode", "create_app"]

log = logging.getLogger("memopilot.server")
_MAX_BUCKETS = 10_000  # rate-limit buckets kept before full ones are dropped
_MAX_EVAL_REPORTS = 100  # users whose latest evaluation report is kept (each is ~100 KB)
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
_STATUS = [  # most specific first
    (ContentTooLongError, 413),
    (InvalidInputError, 422),
    (NotFoundError, 404),
    (ConflictError, 409),
    (EmbedderError, 503),
    (StoreError, 503),
]


class ApiError(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers or {}


@dataclass(frozen=True, slots=True)
class Identity:
    user_id: str
    local: bool  # single-user local mode: a user_id in the request is honoured

    def resolve(self, requested: str | None) -> str:
        return requested if self.local and requested else self.user_id


class LatestByUser:
    """The latest value per user, for at most ``capacity`` users (the least recently set go first)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._values: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, user_id: str, value: Any) -> None:
        with self._lock:
            self._values[user_id] = value
            self._values.move_to_end(user_id)
            while len(self._values) > self._capacity:
                self._values.popitem(last=False)

    def get(self, user_id: str) -> Any:
        with self._lock:
            return self._values.get(user_id)


class RateLimiter:
    """A token bucket per identity: ``per_minute`` requests, refilled continuously."""

    def __init__(self, per_minute: int) -> None:
        self._rate = per_minute / 60.0
        self._capacity = float(per_minute)
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, who: str) -> float:
        """0 when allowed, else the seconds to wait."""
        if self._rate <= 0:
            return 0.0
        now = time.monotonic()
        with self._lock:
            if len(self._buckets) > _MAX_BUCKETS:  # forget buckets that have refilled: they start full
                full = self._capacity / self._rate
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}
            tokens, last = self._buckets.get(who, (self._capacity, now))
            tokens = min(self._capacity, tokens + (now - last) * self._rate)
            if tokens < 1.0:
                self._buckets[who] = (tokens, now)
                return (1.0 - tokens) / self._rate
            self._buckets[who] = (tokens - 1.0, now)
            return 0.0


def _identity(request: Request) -> Identity:
    state = request.app.state
    keys: ApiKeyStore = state.keys
    header = request.headers.get("authorization", "")
    if any("\x00" in v for v in (*request.query_params.values(), *request.path_params.values())):
        raise ApiError(422, "the request URL holds a NUL character")
    if state.auth_mode == "local":
        requested = request.query_params.get("user_id") or "local"
        if not requested.strip() or len(requested) > 200:
            raise ApiError(422, "user_id must be a non-empty string of at most 200 characters")
        identity = Identity(requested, local=True)
    else:
        scheme, _, token = header.partition(" ")
        user = keys.user_for(token.strip()) if scheme.lower() == "bearer" and token.strip() else None
        if user is None:
            raise ApiError(
                401,
                "a valid API key is required: Authorization: Bearer <key>",
                {"WWW-Authenticate": "Bearer"},
            )
        identity = Identity(user, local=False)
    wait = state.limiter.check(identity.user_id)
    if wait > 0:
        raise ApiError(429, "too many requests; slow down", {"Retry-After": str(max(1, round(wait)))})
    return identity


IdentityDep = Annotated[Identity, Depends(_identity)]


def auth_mode(settings: Settings, keys: ApiKeyStore) -> str:
    """The authentication mode a server starting now runs in for its whole life (SPEC Contracts)."""
    if settings.auth is not None:
        return settings.auth
    return "keys" if keys.any() else "local"


def create_app(settings: Settings | None = None, *, mp: MemoPilot | None = None) -> FastAPI:
    """The REST API and web app over one MemoPilot (built from ``settings`` unless given).

    The authentication mode is fixed here, once: revoking every key later leaves a keyed
    server answering 401, and keys created while a local-mode server runs count from its
    next start.
    """
    owned = mp is None
    engine = mp or MemoPilot.open(settings=settings or Settings.load())
    _warm_up(engine)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        if owned:
            engine.close()

    app = FastAPI(
        title="MemoPilot",
        version=__version__,
        lifespan=lifespan,
        description="Governed long-term memory for LLM assistants.",
    )
    app.state.mp = engine
    app.state.keys = ApiKeyStore(engine.store)
    app.state.auth_mode = auth_mode(engine.settings, app.state.keys)
    app.state.limiter = RateLimiter(engine.settings.rate_limit_per_minute)
    app.state.eval_reports = LatestByUser(_MAX_EVAL_REPORTS)
    _install_error_handlers(app)
    _install_body_limit(app, engine.settings.max_request_bytes)

    from .routes import router

    app.include_router(router)
    _mount_web(app)
    return app


def _warm_up(engine: MemoPilot) -> None:
    """Load now what the library loads on first use (the write path, the secret detectors): a
    server pays it once at start-up, not in its first request's latency."""
    engine.write_path  # noqa: B018  (a cached property: building it imports the editor)
    redact("warm up the detectors")
    tune_gc_for_serving()  # start-up objects frozen, full GC passes rarer (read/index.py)


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"detail": _clean(exc.detail)}, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(MemoPilotError)
    async def domain_error(_: Request, exc: MemoPilotError) -> JSONResponse:
        status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 400)
        detail = _clean(str(exc))
        if status >= 500:
            log.error("service error: %s", detail)
        return JSONResponse({"detail": detail}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:]) or err['loc'][0]}: {err['msg']}"
            for err in exc.errors()
        )
        return JSONResponse({"detail": _clean(problems) or "invalid request"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"detail": _clean(str(exc.detail))}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error: %s: %s", type(exc).__name__, _clean(str(exc)), exc_info=exc)
        return JSONResponse({"detail": "internal error"}, status_code=500)


def _clean(detail: str) -> str:
    """Error text may quote what the caller sent: never echo a secret back (or into the logs)."""
    return redact(detail).text


class _BodyLimit:
    """Answer 413 to request bodies over ``limit`` bytes, announced by Content-Length or streamed.

    A body sent without Content-Length (chunked) is read up to the limit before the app sees
    it, so a client cannot stream past the limit by leaving the header out.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                await self._refuse(scope, receive, send)
            else:
                await self.app(scope, receive, send)
            return
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await self._refuse(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse({"detail": f"request body over {self.limit} bytes"}, status_code=413)
        await response(scope, receive, send)


def _install_body_limit(app: FastAPI, limit: int) -> None:
    app.add_middleware(_BodyLimit, limit=limit)


def _mount_web(app: FastAPI) -> None:
    if not (WEB_DIR / "index.html").exists():
        return
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return FileResponse(WEB_DIR / "index.html")
