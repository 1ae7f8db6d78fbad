"""`memopilot serve` and `memopilot keys` as real processes on loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(*args: str, db: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memopilot", "--db", db, *args],
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def test_serve_local_mode_then_keys(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'served.db'}"
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "memopilot", "--db", db, "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        assert httpx.get(f"{base}/health").json()["mode"] == "local"
        created = httpx.post(f"{base}/api/memories", json={"content": "I prefer tabs", "type": "preference"})
        assert created.status_code == 201

        made = _cli("keys", "create", "--user", "alice", db=db)
        assert made.returncode == 0, made.stderr
        key = made.stdout.strip().splitlines()[-1]
        assert key.startswith("mp_") and len(key) > 40
        assert httpx.get(f"{base}/api/memories").status_code == 401
        mine = httpx.get(f"{base}/api/memories", headers={"Authorization": f"Bearer {key}"})
        assert mine.status_code == 200 and mine.json()["total"] == 0  # alice sees nothing of "local"
        assert key.encode() not in (tmp_path / "served.db").read_bytes()  # stored hashed
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert f"http://127.0.0.1:{port}" in output and "local mode" in output


def test_local_mode_refuses_a_public_interface(tmp_path: Path) -> None:
    result = _cli(
        "serve", "--host", "0.0.0.0", "--port", str(_free_port()), db=f"sqlite:///{tmp_path / 'x.db'}"
    )
    assert result.returncode == 1
    assert "memopilot keys create" in result.stderr and "Traceback" not in result.stderr
