"""The REST routes: thin translations between HTTP and the MemoPilot facade.

Every route takes the caller's :class:`Identity`; the engine's ownership checks make
another user's memory id answer 404, never its content.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request

from .. import __version__
from ..api_models import (
    ChatReply,
    ChatRequest,
    ContextReply,
    ContextRequest,
    ErrorOut,
    EvalRunRequest,
    EventsOut,
    ForgettingOut,
    ForgottenOut,
    HealthOut,
    ImportOut,
    ItemsOut,
    MemoryCreate,
    MemoryOut,
    MemoryPage,
    MemoryUpdate,
    ReflectionOut,
    ReflectRequest,
    SearchOut,
    SessionTurnsOut,
    UserDeletionOut,
)
from ..domain import EventKind, MemoryState, MemoryType
from ..engine.facade import DEFAULT_PROJECT, MemoPilot
from ..engine.portability import ExportDocument
from ..errors import InvalidInputError
from .app import IdentityDep
from .keys import ApiKeyStore

__all__ = ["router"]

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": meaning}
    for status, meaning in (
        (400, "the body is not valid JSON"),
        (401, "no valid API key"),
        (404, "no such object for this user"),
        (409, "clashes with the stored state"),
        (413, "request body, memory content, message or question over its limit"),
        (422, "invalid input"),
        (503, "the store or the embedder is unavailable"),
    )
}
_ERRORS[429] = {
    "model": ErrorOut,
    "description": "rate limit of this user exceeded",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
}
router = APIRouter(responses=_ERRORS)
ProjectQuery = Annotated[str | None, Query(max_length=200, description="project id")]


def _names_filter(enum: type[StrEnum], what: str) -> Any:
    """A comma-separated list of ``enum`` values as a query parameter, documented as such."""
    names = "|".join(e.value for e in enum)
    return Query(
        description=f"comma-separated {what}: {', '.join(e.value for e in enum)}",
        pattern=f"^({names})(,({names}))*$",
    )


TypeFilter = Annotated[str | None, _names_filter(MemoryType, "memory types")]
StateFilter = Annotated[str | None, _names_filter(MemoryState, "states")]
KindFilter = Annotated[str | None, _names_filter(EventKind, "event kinds")]
Limit = Annotated[int, Query(ge=1, le=1000)]
Offset = Annotated[int, Query(ge=0, le=10_000_000)]


def _mp(request: Request) -> MemoPilot:
    return request.app.state.mp


def _split(value: str | None) -> list[str] | None:
    return [v for v in (s.strip() for s in value.split(",")) if v] if value else None


@router.get("/health", response_model=HealthOut, tags=["meta"])
def health(request: Request) -> dict[str, Any]:
    mp = _mp(request)
    mode = request.app.state.auth_mode
    return {"status": "ok", "version": __version__, "mode": mode, "llm": mp.llm is not None}


@router.post("/api/chat", response_model=ChatReply, tags=["chat"])
def chat(request: Request, body: ChatRequest, who: IdentityDep) -> dict[str, Any]:
    result = _mp(request).chat(
        body.message,
        user_id=who.resolve(body.user_id),
        project_id=body.project_id or DEFAULT_PROJECT,
        session_id=body.session_id,
    )
    return result.to_dict()


@router.post("/api/context", response_model=ContextReply, tags=["read"])
def context(request: Request, body: ContextRequest, who: IdentityDep) -> dict[str, Any]:
    result = _mp(request).build_context(
        body.query,
        user_id=who.resolve(body.user_id),
        project_id=body.project_id or DEFAULT_PROJECT,
        budget_tokens=body.budget_tokens,
    )
    return result.to_dict()


@router.get("/api/search", response_model=SearchOut, tags=["read"])
def search(
    request: Request,
    who: IdentityDep,
    q: Annotated[str, Query(min_length=1)],
    project_id: ProjectQuery = None,
    k: Annotated[int, Query(ge=1, le=100)] = 10,
) -> dict[str, Any]:
    results = _mp(request).search(q, user_id=who.user_id, project_id=project_id or DEFAULT_PROJECT, k=k)
    return {"results": [r.to_dict() for r in results]}


@router.get("/api/projects", response_model=ItemsOut, tags=["memories"])
def projects(request: Request, who: IdentityDep) -> dict[str, Any]:
    found = _mp(request).store.project_ids(who.user_id)
    return {"items": sorted({DEFAULT_PROJECT, *found})}


@router.get("/api/memories", response_model=MemoryPage, tags=["memories"])
def list_memories(
    request: Request,
    who: IdentityDep,
    type: TypeFilter = None,
    state: StateFilter = None,
    project_id: ProjectQuery = None,
    q: Annotated[str | None, Query(max_length=500)] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> dict[str, Any]:
    page = _mp(request).list(
        user_id=who.user_id,
        project_id=project_id,
        types=_split(type),
        states=_split(state),
        q=q,
        limit=limit,
        offset=offset,
    )
    return page.to_dict()


@router.post("/api/memories", status_code=201, response_model=MemoryOut, tags=["memories"])
def create_memory(request: Request, body: MemoryCreate, who: IdentityDep) -> dict[str, Any]:
    memory = _mp(request).add(
        body.content,
        user_id=who.resolve(body.user_id),
        project_id=body.project_id,
        type=body.type,
        tags=body.tags,
        importance=body.importance,
        confidence=0.8 if body.confidence is None else body.confidence,
        privacy=body.privacy,
        state=body.state,
        expires_at=body.expires_at,
        occurred_at=body.occurred_at,
    )
    return memory.to_dict()


@router.get("/api/memories/{memory_id}", response_model=MemoryOut, tags=["memories"])
def get_memory(request: Request, memory_id: str, who: IdentityDep) -> dict[str, Any]:
    return _mp(request).get(memory_id, user_id=who.user_id).to_dict()


@router.patch("/api/memories/{memory_id}", response_model=MemoryOut, tags=["memories"])
def patch_memory(request: Request, memory_id: str, body: MemoryUpdate, who: IdentityDep) -> dict[str, Any]:
    mp = _mp(request)
    fields = body.model_dump(exclude_unset=True)
    if not fields:
        raise InvalidInputError("nothing to change: give content, tags, importance or state")
    memory = mp.get(memory_id, user_id=who.user_id)
    if any(k in fields for k in ("content", "tags", "importance")):
        memory = mp.update(
            memory_id,
            user_id=who.user_id,
            content=fields.get("content"),
            tags=fields.get("tags"),
            importance=fields.get("importance"),
        )
    if fields.get("state") is not None:
        memory = mp.set_state(memory_id, fields["state"], user_id=who.user_id)
    return memory.to_dict()


@router.delete("/api/memories/{memory_id}", response_model=ForgottenOut, tags=["memories"])
def forget_memory(
    request: Request,
    memory_id: str,
    who: IdentityDep,
    cascade: Annotated[
        bool, Query(description="also forget the memory's source episode and what came only from it")
    ] = False,
) -> dict[str, Any]:
    """The user's Forget: content, tags and vector erased; a content-free tombstone stays.

    What was derived only from the memory goes with it; ``also_forgotten`` lists those ids."""
    tombstone, others = _mp(request).forget_report(memory_id, user_id=who.user_id, cascade=cascade)
    return {**tombstone.to_dict(), "also_forgotten": others}


@router.get("/api/memories/{memory_id}/history", response_model=EventsOut, tags=["memories"])
def memory_history(request: Request, memory_id: str, who: IdentityDep) -> dict[str, Any]:
    return {"events": [e.to_dict() for e in _mp(request).history(memory_id, user_id=who.user_id)]}


@router.get("/api/timeline", response_model=EventsOut, tags=["memories"])
def timeline(
    request: Request,
    who: IdentityDep,
    project_id: ProjectQuery = None,
    kind: KindFilter = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> dict[str, Any]:
    events = _mp(request).timeline(
        user_id=who.user_id, project_id=project_id, kinds=_split(kind), limit=limit, offset=offset
    )
    return {"events": [e.to_dict() for e in events]}


@router.get("/api/traces", response_model=ItemsOut, tags=["traces"])
def list_traces(request: Request, who: IdentityDep, limit: Annotated[int, Query(ge=1, le=200)] = 20) -> dict:
    return {"items": _mp(request).traces(user_id=who.user_id, limit=limit)}


@router.get("/api/traces/{trace_id}", tags=["traces"])
def get_trace(request: Request, trace_id: str, who: IdentityDep) -> dict[str, Any]:
    mp = _mp(request)
    trace = mp.get_trace(trace_id, user_id=who.user_id)
    items = trace["included"] + trace["skipped"]
    memories = mp.store.get_many((i["memory_id"] for i in items), user_id=who.user_id)
    for item in items:  # live text: a forgotten memory shows as null
        memory = memories.get(item["memory_id"])
        visible = memory is not None and memory.content
        item["content"] = memory.content if visible else None
    return trace


@router.get("/api/sessions/{session_id}/turns", response_model=SessionTurnsOut, tags=["chat"])
def session_turns(
    request: Request,
    session_id: Annotated[str, Path(max_length=200)],
    who: IdentityDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    """The last messages of a chat session, oldest first, with their traces' ids (the web app
    restores its transcript from these after a reload)."""
    turns = _mp(request).session_turns(session_id, user_id=who.user_id, limit=limit)
    return {"session_id": session_id, "items": turns}


@router.post("/api/reflect", response_model=ReflectionOut, tags=["maintenance"])
def reflect(
    request: Request, who: IdentityDep, body: Annotated[ReflectRequest | None, Body()] = None
) -> dict:
    body = body or ReflectRequest()
    report = _mp(request).reflect(
        user_id=who.resolve(body.user_id),
        project_id=body.project_id or DEFAULT_PROJECT,
        include_user_wide=body.include_user_wide,
    )
    return report.to_dict()


@router.post("/api/forgetting/run", response_model=ForgettingOut, tags=["maintenance"])
def run_forgetting(request: Request, who: IdentityDep) -> dict[str, Any]:
    return _mp(request).run_forgetting(user_id=who.user_id).to_dict()


@router.get("/api/graph", tags=["views"])
def graph(
    request: Request,
    who: IdentityDep,
    project_id: ProjectQuery = None,
    limit: Annotated[int, Query(ge=1, le=2000)] = 300,
) -> dict[str, Any]:
    return _mp(request).graph(user_id=who.user_id, project_id=project_id, limit=limit)


@router.get("/api/analytics", tags=["views"])
def analytics(request: Request, who: IdentityDep, project_id: ProjectQuery = None) -> dict[str, Any]:
    return _mp(request).analytics(user_id=who.user_id, project_id=project_id)


@router.get("/api/export", tags=["portability"])
def export(request: Request, who: IdentityDep) -> dict[str, Any]:
    return _mp(request).export(who.user_id)


@router.post("/api/import", response_model=ImportOut, tags=["portability"])
def import_(request: Request, who: IdentityDep, document: ExportDocument) -> dict[str, Any]:
    """Import a document written by ``GET /api/export`` into the calling user.

    Each record passes the same checks as ``POST /api/memories``; refused ones are listed in
    ``rejected`` by index, and the others are imported.
    """
    data = {
        **document.model_dump(exclude={"memories", "events"}),
        "memories": document.memories,
        "events": document.events,
    }  # fmt: skip  (the records as sent: plan_import checks each)
    return _mp(request).import_(data, user_id=who.user_id).to_dict()


@router.delete("/api/users/me", response_model=UserDeletionOut, tags=["users"])
def delete_me(
    request: Request,
    who: IdentityDep,
    revoke_keys: Annotated[bool, Query(description="also revoke every API key of this user")] = False,
) -> dict[str, Any]:
    """Erase all content of the calling user: every memory becomes a content-free tombstone.

    The user's logged chat turns and the questions of their traces are erased too. API keys
    stay valid unless ``revoke_keys=true``: a wiped user can keep using the service.
    """
    report = _mp(request).delete_user(who.user_id)
    report["keys_revoked"] = ApiKeyStore(_mp(request).store).revoke_user(who.user_id) if revoke_keys else 0
    return report


@router.post("/api/eval/run", tags=["evaluation"])
def eval_run(
    request: Request, who: IdentityDep, body: Annotated[EvalRunRequest | None, Body()] = None
) -> dict[str, Any]:
    """Run the built-in scenario suite (on a scratch store, never on user data) and keep its report."""
    from ..evaluation.scenarios import load_scenarios
    from ..evaluation.strategies import STRATEGIES, run_scenarios

    mp = _mp(request)
    strategies = (body.strategies if body else None) or list(STRATEGIES)
    try:
        run = run_scenarios(
            load_scenarios(), strategies=strategies, settings=mp.settings, embedder=mp.embedder, llm=mp.llm
        )
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None
    report = run.summary()
    request.app.state.eval_reports.put(who.user_id, report)
    return report


@router.get("/api/eval/report", tags=["evaluation"])
def eval_report(request: Request, who: IdentityDep) -> dict[str, Any]:
    """The last report this user's ``POST /api/eval/run`` made (each user sees only their own).

    Before a first run: an empty report with ``"ran": false`` (not an error: nothing is wrong)."""
    report = request.app.state.eval_reports.get(who.user_id)
    if report is None:
        return {"ran": False, "strategies": {}, "by_category": {}, "scenarios": []}
    return report
