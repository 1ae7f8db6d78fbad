"""The package root's exports are the public API: changing them is a deliberate act."""

import memopilot


def test_exported_members() -> None:
    assert set(memopilot.__all__) == {
        "DEFAULT_PROJECT",
        "DEFAULT_USER",
        "APIError",
        "AsyncClient",
        "AuthenticationError",
        "Client",
        "RateLimitedError",
        "ServerError",
        "Clock",
        "ConfigError",
        "ConflictError",
        "ContentTooLongError",
        "ContextResult",
        "CorruptStoreError",
        "Embedder",
        "EmbedderError",
        "EmbedderMismatchError",
        "EventKind",
        "FixedClock",
        "ForgettingReport",
        "ImportReport",
        "InvalidInputError",
        "MemoPilot",
        "MemoPilotError",
        "Memory",
        "MemoryState",
        "MemoryType",
        "NotFoundError",
        "Page",
        "Privacy",
        "ReflectionReport",
        "SchemaTooNewError",
        "SearchResult",
        "Settings",
        "StoreError",
        "SystemClock",
        "TimelineEvent",
        "Trace",
        "TraceItem",
        "count_tokens",
        "make_embedder",
        "__version__",
    }
    for name in memopilot.__all__:
        assert hasattr(memopilot, name), name


def test_types_and_states_are_the_specs() -> None:
    assert [t.value for t in memopilot.MemoryType] == [
        "preference",
        "project",
        "decision",
        "mistake",
        "constraint",
        "deadline",
        "learning_goal",
        "task",
        "critical",
        "temporary",
        "outdated",
        "deleted_by_user",
        "fact",
        "episode",
    ]
    assert [s.value for s in memopilot.MemoryState] == [
        "active",
        "pinned",
        "archived",
        "expired",
        "superseded",
        "deleted",
    ]


def test_fact_is_a_type_every_interface_takes(mp) -> None:
    """SPEC section 1: `fact`, a stable fact about the user's life, stored and listed like any type."""
    from fastapi.testclient import TestClient

    from memopilot.server import create_app

    made = mp.add("My daughter is called Lina", type="fact", project_id=None)
    assert made.type.value == "fact" and made.importance == 0.6
    with TestClient(create_app(mp=mp)) as client:
        listed = client.get("/api/memories", params={"type": "fact"}).json()
        assert [m["content"] for m in listed["items"]] == ["My daughter is called Lina"]
        created = client.post("/api/memories", json={"content": "Our cat is Miso", "type": "fact"})
        assert created.status_code == 201 and created.json()["type"] == "fact"
