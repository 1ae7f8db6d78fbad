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
