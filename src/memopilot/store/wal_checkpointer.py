"""Moves SQLite's WAL checkpoints off the commit path.

In WAL mode a commit appends pages to the write-ahead log; a *checkpoint* copies them back
into the database file and syncs it. By default the connection that commits runs the
checkpoint itself whenever the log passes 1,000 pages, so one read in a few dozen (each read
stores its trace and counts its uses) paid several milliseconds of file copying and fsync.
Here a background thread with its own connection runs passive checkpoints shortly after
commits instead; passive checkpoints never block readers or writers. The committing
connection keeps a much larger automatic threshold only as a backstop, in case this thread
cannot keep up.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading

__all__ = ["BACKSTOP_PAGES", "WalCheckpointer"]

BACKSTOP_PAGES = 20_000  # ~80 MB of log before a committing connection checkpoints itself


class WalCheckpointer:
    def __init__(self, path: str, *, interval_s: float = 0.2) -> None:
        self._path = path
        self._interval = interval_s
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def committed(self) -> None:
        """Note a commit: a checkpoint will follow within the interval."""
        self._dirty.set()
        if self._thread is None:
            with self._lock:
                if self._thread is None and not self._stop.is_set():
                    self._thread = threading.Thread(
                        target=self._run, name="memopilot-wal-checkpoint", daemon=True
                    )
                    self._thread.start()

    def stop(self) -> None:
        """Run a last checkpoint and end the thread."""
        self._stop.set()
        self._dirty.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            while True:
                self._dirty.wait()
                if not self._stop.is_set():
                    self._stop.wait(self._interval)  # let a burst of commits finish first
                self._dirty.clear()
                with contextlib.suppress(sqlite3.Error):  # busy or closed: the next round retries
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if self._stop.is_set():
                    return
        finally:
            conn.close()
