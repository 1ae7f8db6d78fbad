"""A loopback server speaking OpenAI's ``POST /v1/embeddings`` with MemoPilot's own embedder.

Used to give a peer system (mem0) exactly the same vectors as MemoPilot in benchmarks,
and by tests of the OpenAI-compatible embedder. Binds to 127.0.0.1 only.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..embedding import Embedder

__all__ = ["EmbeddingServer"]


class EmbeddingServer:
    def __init__(self, embedder: Embedder, *, scale: float = 1.0) -> None:
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                if body.get("model") == "broken":
                    self._reply(500, {"error": {"message": "model crashed"}})
                    return
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                vectors = embedder.embed(texts) * scale
                data = [
                    {"object": "embedding", "index": i, "embedding": v.tolist()}
                    for i, v in enumerate(vectors)
                ]
                self._reply(200, {"object": "list", "data": data[::-1], "model": body.get("model")})

            def _reply(self, status: int, payload: dict[str, Any]) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> EmbeddingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
