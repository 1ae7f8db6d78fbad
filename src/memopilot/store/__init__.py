"""Storage backends behind one ``Store`` contract, chosen by database URL."""

from __future__ import annotations

import re

from ..errors import ConfigError
from .base import ChangeSet, ContextMemories, FactColumns, MemoryQuery, Store, Uses

__all__ = ["ChangeSet", "ContextMemories", "FactColumns", "MemoryQuery", "Store", "Uses", "open_store"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]+):")  # two letters at least: C:\ is a path


def open_store(url: str, *, create_folder: bool = False) -> Store:
    """Open (creating and migrating if needed) the store that ``url`` names.

    ``sqlite:///path/to/file.db`` or a bare file path selects the embedded SQLite store, whose
    folder must exist unless ``create_folder`` (the default data folder);
    ``postgresql://user:password@host:port/dbname`` (also ``postgres://``, ``postgresql+psycopg://``)
    selects PostgreSQL, which needs the ``postgres`` extra and the pgvector extension. Any other
    scheme, or a malformed ``sqlite:`` URL, is refused before anything is created.
    """
    scheme = _SCHEME.match(url)
    if scheme and not url.startswith(("sqlite:///", *_POSTGRES_SCHEMES)):
        name = scheme.group(1).lower()
        if name == "sqlite":
            raise ConfigError(f"bad SQLite URL {url!r}: use sqlite:///relative.db or sqlite:////absolute.db")
        raise ConfigError(
            f"unknown database URL scheme {name!r}: use sqlite:///path/to/file.db or "
            "postgresql://user:password@host:port/dbname"
        )
    if url.startswith(_POSTGRES_SCHEMES):
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

    return SQLiteStore(url, create_folder=create_folder)
