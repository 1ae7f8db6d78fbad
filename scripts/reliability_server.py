"""A ``memopilot serve`` process on loopback for the crash and load scripts (issue 8).

Only loopback addresses are ever used: the server binds 127.0.0.1 and the scripts talk to it there.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``python -m memopilot --db URL serve`` on a free loopback port, started and killed on demand."""

    def __init__(
        self, db_url: str, *, env: dict[str, str] | None = None, log_path: Path | None = None
    ) -> None:
        self.db_url = db_url
        self.env = {**os.environ, **(env or {})}
        self.log_path = log_path
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> float:
        """Start it and wait until /health answers; returns the seconds that took."""
        self.port = free_port()
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "memopilot", "--db", self.db_url, "serve", "--port", str(self.port)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            cwd=ROOT,
        )
        self.starts += 1
        deadline = started + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode} while starting")
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return time.monotonic() - started
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer /health within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or an OOM kill."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        """A clean shutdown (SIGTERM), killing it if it does not go."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
