"""A digest of what redaction does to every text the project holds: a change meant to make
redaction faster (or tidier) without changing it must leave the digest as it was.

    python scripts/redaction_digest.py

Redacts every message of every redaction corpus (tune and check: only the digest is printed, no
text), the LoCoMo dev conversation in 300-character chunks (read from ../shared/data) and the
extraction sets' messages, and prints how many texts and the SHA-256 of their redacted texts and
findings (kind, start, end).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from measure_redaction import CHECKS, TUNES, conversation_messages, load  # noqa: E402

from memopilot.write.redaction import redact  # noqa: E402


def texts() -> list[str]:
    found: list[str] = []
    for folder in TUNES + CHECKS:
        for name in ("secret_messages.jsonl", "benign_messages.jsonl"):
            found += [m if isinstance(m, str) else m["message"] for m in load(folder, name)]
    found += conversation_messages(limit=10**6)
    for path in sorted((ROOT / "eval" / "extraction").glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            if isinstance(item, dict):
                found += [item[k] for k in ("message", "text") if isinstance(item.get(k), str)]
    return found


def main() -> None:
    digest = hashlib.sha256()
    all_texts = texts()
    for text in all_texts:
        result = redact(text)
        digest.update(result.text.encode())
        digest.update(repr([(f.kind, f.start, f.end) for f in result.findings]).encode())
    print(len(all_texts), digest.hexdigest())


if __name__ == "__main__":
    main()
