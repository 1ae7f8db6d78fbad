"""`memopilot serve` and `memopilot keys` as real processes on loopback."""

from __future__ import annotations

import json
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


def _start_server(db: str, port: int) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "memopilot", "--db", db, "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    for _ in range(150):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.2)
    return server


def _stop(server: subprocess.Popen) -> str:
    server.terminate()
    return server.communicate(timeout=30)[0]


def test_serve_local_mode_then_keys_at_the_next_start(tmp_path: Path) -> None:
    """The mode is fixed when the server starts (SPEC Contracts): a key created while a local-mode
    server runs takes effect at its next start, and the CLI says so."""
    db = f"sqlite:///{tmp_path / 'served.db'}"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start_server(db, port)
    try:
        assert httpx.get(f"{base}/health").json()["mode"] == "local"
        created = httpx.post(f"{base}/api/memories", json={"content": "I prefer tabs", "type": "preference"})
        assert created.status_code == 201

        made = _cli("keys", "create", "--user", "alice", db=db)
        assert made.returncode == 0, made.stderr
        assert "next start" in made.stderr
        key = made.stdout.strip().splitlines()[-1]
        assert key.startswith("mp_") and len(key) > 40
        assert httpx.get(f"{base}/health").json()["mode"] == "local"
        assert key.encode() not in (tmp_path / "served.db").read_bytes()  # stored hashed
    finally:
        output = _stop(server)
    assert f"http://127.0.0.1:{port}" in output and "local mode" in output

    server = _start_server(db, port)
    try:
        assert httpx.get(f"{base}/health").json()["mode"] == "keys"
        assert httpx.get(f"{base}/api/memories").status_code == 401
        mine = httpx.get(f"{base}/api/memories", headers={"Authorization": f"Bearer {key}"})
        assert mine.status_code == 200 and mine.json()["total"] == 0  # alice sees nothing of "local"
        key_id = json.loads(_cli("keys", "list", "--json", db=db).stdout)[0]["key_id"]
        revoked = _cli("keys", "revoke", key_id, db=db)
        assert revoked.returncode == 0 and "last key" in revoked.stderr
        assert (
            httpx.get(f"{base}/api/memories", headers={"Authorization": f"Bearer {key}"}).status_code == 401
        )
        assert httpx.get(f"{base}/api/memories").status_code == 401
    finally:
        _stop(server)


def test_local_mode_refuses_a_public_interface(tmp_path: Path) -> None:
    result = _cli(
        "serve", "--host", "0.0.0.0", "--port", str(_free_port()), db=f"sqlite:///{tmp_path / 'x.db'}"
    )
    assert result.returncode == 1
    assert "memopilot keys create" in result.stderr and "Traceback" not in result.stderr
