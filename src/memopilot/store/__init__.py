"""Storage backends behind one ``Store`` contract, chosen by database URL."""

from __future__ import annotations

from ..errors import ConfigError
from .base import ChangeSet, MemoryQuery, Store, UserVectors

__all__ = ["ChangeSet", "MemoryQuery", "Store", "UserVectors", "open_store"]


def open_store(url: str) -> Store:
    """Open (creating and migrating if needed) the store that ``url`` names.

    ``sqlite:///path/to/file.db`` or a bare file path selects the embedded SQLite store.
    """
    if url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        raise ConfigError("the PostgreSQL backend is not available in this version; use sqlite:///path.db")
    from .sqlite import SQLiteStore

    return SQLiteStore(url)
