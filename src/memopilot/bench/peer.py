"""The peer in ``memopilot bench``: mem0 (``mem0ai``, local mode, ``infer=False``) on the same data.

mem0 runs with its default local vector store (Qdrant, in-process) and its OpenAI
embedder pointed at a loopback server that serves MemoPilot's own static embeddings,
so both systems search the same vectors; each mem0 search therefore includes one
HTTP round trip on loopback to embed the query (mem0's normal path with a remote
embedder). mem0's ``add`` with ``infer=False`` inserts one memory at a time (about
30 per second here), so the store is filled directly through its vector store with
the payload fields ``add`` writes. Install with ``pip install 'memopilot[bench]'``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from .synthetic import generate_memories, generate_questions

__all__ = ["PEER_NAME", "measure_peer", "run_peer"]

PEER_NAME = "mem0 2.x (local Qdrant, infer=False)"
_INSERT_BATCH = 1000


def measure_peer(size: int, *, seed: int = 7, queries: int = 200) -> dict[str, Any]:
    os.environ.setdefault("MEM0_TELEMETRY", "False")
    from ..embedding import StaticEmbedder
    from .embedding_server import EmbeddingServer

    embedder = StaticEmbedder()
    with tempfile.TemporaryDirectory(prefix="mem0-bench-") as folder, EmbeddingServer(embedder) as server:
        os.environ["MEM0_DIR"] = folder
        from mem0 import Memory

        memory = Memory.from_config(_config(folder, server.base_url, embedder.dim))
        now = datetime.now(UTC)
        items = list(generate_memories(size, seed=seed, now=now))
        for start in range(0, len(items), _INSERT_BATCH):
            chunk = items[start : start + _INSERT_BATCH]
            vectors = embedder.embed([m.content for m in chunk])
            payloads = [_payload(m.content, m.created_at) for m in chunk]
            memory.vector_store.insert(
                vectors=vectors.tolist(), payloads=payloads, ids=[str(uuid.uuid4()) for _ in chunk]
            )
        questions = [q for q, _ in generate_questions(queries + 10, seed=seed)]
        for question in questions[:10]:
            memory.search(question, filters={"user_id": "bench-user"}, top_k=10)
        timings = []
        for question in questions[10:]:
            started = time.perf_counter()
            memory.search(question, filters={"user_id": "bench-user"}, top_k=10)
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    return {
        "search_p50_ms": round(timings[len(timings) // 2], 3),
        "search_p95_ms": round(timings[int(0.95 * len(timings))], 3),
    }


def _payload(content: str, created_at: datetime) -> dict[str, Any]:
    """The fields mem0's ``add(..., infer=False)`` stores with each memory."""
    return {
        "data": content,
        "user_id": "bench-user",
        "hash": hashlib.md5(content.encode()).hexdigest(),
        "created_at": created_at.isoformat(),
        "role": "user",
    }


def _config(folder: str, embeddings_url: str, dim: int) -> dict[str, Any]:
    return {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "bench",
                "embedding_model_dims": dim,
                "path": os.path.join(folder, "qdrant"),
                "on_disk": False,
            },
        },
        "embedder": {
            "provider": "openai",
            "config": {
                "model": "memopilot-static",
                "embedding_dims": dim,
                "openai_base_url": embeddings_url,
                "api_key": "local",
            },
        },
        "llm": {
            "provider": "openai",
            "config": {"model": "unused", "api_key": "local", "openai_base_url": "http://127.0.0.1:9/v1"},
        },
        "history_db_path": os.path.join(folder, "history.db"),
    }


def run_peer(sizes: list[int], *, seed: int = 7, queries: int = 200) -> dict[str, Any]:
    """Each size in its own process, like MemoPilot's own runs."""
    results: dict[str, Any] = {}
    for size in sizes:
        done = subprocess.run(
            [sys.executable, "-m", "memopilot.bench.peer", str(size), str(seed), str(queries)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"peer run of size {size} failed: {done.stderr.strip()[-800:]}")
        results[str(size)] = json.loads(done.stdout.strip().splitlines()[-1])
    return {"name": PEER_NAME, "sizes": results}


if __name__ == "__main__":
    size_arg, seed_arg, queries_arg = (int(a) for a in sys.argv[1:4])
    print(json.dumps(measure_peer(size_arg, seed=seed_arg, queries=queries_arg)))
