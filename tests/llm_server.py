"""A chat-completions server on loopback with scripted replies, for testing the LLM path for real.

It speaks ``POST /v1/chat/completions`` as OpenAI-compatible servers do (DashScope
compatible mode, Ollama, vLLM). Each request takes the next scripted reply; with the
script empty it answers a default. Every request body is recorded, so tests can check
the exact prompt that reached the model.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = None  # the assistant message text
    status: int = 200
    delay: float = 0.0  # seconds before answering (timeouts)
    headers: dict[str, str] = field(default_factory=dict)
    raw: str | None = None  # a raw body instead of a chat completion


class ScriptedLLM:
    def __init__(self, default: str = "OK.") -> None:
        self.script: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.default = default
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                reply = server.script.popleft() if server.script else Reply(server.default)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.raw is not None:
                    payload = reply.raw
                elif reply.status >= 400:
                    payload = json.dumps({"error": {"message": "scripted failure", "code": reply.status}})
                else:
                    payload = json.dumps(_completion(body.get("model", "?"), reply.content or ""))
                data = payload.encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def push(self, *replies: Reply | str) -> None:
        for reply in replies:
            self.script.append(Reply(reply) if isinstance(reply, str) else reply)

    def __enter__(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
