"""The FastAPI application factory: identity, limits, error mapping, the web app.

``create_app`` builds one :class:`~memopilot.engine.MemoPilot` from settings (or takes
one) and mounts the REST routes and the static web app. Identity: with no API keys in
the store the server is in single-user local mode (``user_id`` may be passed); once
any key exists every request needs ``Authorization: Bearer <key>`` and is scoped to
that key's user.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..engine import MemoPilot
from ..errors import (
    ConflictError,
    ContentTooLongError,
    EmbedderError,
    InvalidInputError,
    MemoPilotError,
    NotFoundError,
    StoreError,
)
from ..settings import Settings
from .keys import ApiKeyStore

__all__ = ["Identity", "IdentityDep", "create_app"]

log = logging.getLogger("memopilot.server")
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
    if not keys.any():
        identity = Identity(request.query_params.get("user_id") or "local", local=True)
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


def create_app(settings: Settings | None = None, *, mp: MemoPilot | None = None) -> FastAPI:
    """The REST API and web app over one MemoPilot (built from ``settings`` unless given)."""
    owned = mp is None
    engine = mp or MemoPilot.open(settings=settings or Settings.load())

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
    app.state.limiter = RateLimiter(engine.settings.rate_limit_per_minute)
    _install_error_handlers(app)
    _install_body_limit(app, engine.settings.max_request_bytes)

    from .routes import router

    app.include_router(router)
    _mount_web(app)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(MemoPilotError)
    async def domain_error(_: Request, exc: MemoPilotError) -> JSONResponse:
        status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 400)
        if status >= 500:
            log.error("service error: %s", exc)
        return JSONResponse({"detail": str(exc)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:]) or err['loc'][0]}: {err['msg']}"
            for err in exc.errors()
        )
        return JSONResponse({"detail": problems or "invalid request"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return JSONResponse({"detail": "internal error"}, status_code=500)


def _install_body_limit(app: FastAPI, limit: int) -> None:
    @app.middleware("http")
    async def body_limit(request: Request, call_next):  # type: ignore[no-untyped-def]
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            return JSONResponse({"detail": f"request body over {limit} bytes"}, status_code=413)
        return await call_next(request)


def _mount_web(app: FastAPI) -> None:
    if not (WEB_DIR / "index.html").exists():
        return
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return FileResponse(WEB_DIR / "index.html")
