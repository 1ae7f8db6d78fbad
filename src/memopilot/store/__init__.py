"""Storage backends behind one ``Store`` contract, chosen by database URL."""

from __future__ import annotations

from ..errors import ConfigError
from .base import ChangeSet, ContextMemories, MemoryQuery, Store, Uses

__all__ = ["ChangeSet", "ContextMemories", "MemoryQuery", "Store", "Uses", "open_store"]


def open_store(url: str) -> Store:
    """Open (creating and migrating if needed) the store that ``url`` names.

    ``sqlite:///path/to/file.db`` or a bare file path selects the embedded SQLite store;
    ``postgresql://user:password@host:port/dbname`` (also ``postgres://``, ``postgresql+psycopg://``)
    selects PostgreSQL, which needs the ``postgres`` extra and the pgvector extension.
    """
    if url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        try:
            from .postgres import PostgresStore
        except ImportError as exc:
            if exc.name not in ("psycopg", "psycopg_pool"):
                raise
            raise ConfigError(
                "the PostgreSQL backend needs psycopg and psycopg-pool: pip install 'memopilot[postgres]'"
            ) from None
        return PostgresStore(url)
    from .sqlite import SQLiteStore

    return SQLiteStore(url)
