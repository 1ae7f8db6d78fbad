"""API keys: random bearer tokens that map to a user, stored only as SHA-256 hashes.

Keys are 256-bit random tokens, so an unsalted SHA-256 is enough to make a stolen
database useless for logging in, and a lookup compares digests in constant time.
They live in the store's metadata (``api_keys``), so every backend and every server
process sharing a database sees the same keys.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from ..errors import InvalidInputError
from ..store import Store

__all__ = ["ApiKeyStore", "KeyInfo"]

_META_KEY = "api_keys"
_PREFIX = "mp_"


@dataclass(frozen=True, slots=True)
class KeyInfo:
    key_id: str  # the first characters of the hash: safe to show and log
    user_id: str
    created_at: str
    name: str


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class ApiKeyStore:
    def __init__(self, store: Store) -> None:
        self._store = store

    def _load(self) -> dict[str, dict[str, str]]:
        raw = self._store.get_meta(_META_KEY)
        return json.loads(raw) if raw else {}

    def any(self) -> bool:
        return bool(self._load())

    def create(self, user_id: str, *, now: datetime, name: str = "") -> str:
        """Make a key for ``user_id`` and return it; only its hash is stored."""
        if not user_id or not user_id.strip() or len(user_id) > 200:
            raise InvalidInputError("a key needs a user id of 1 to 200 characters")
        key = _PREFIX + secrets.token_urlsafe(32)
        keys = self._load()
        keys[_digest(key)] = {"user_id": user_id, "created_at": now.isoformat(), "name": name}
        self._store.set_meta(_META_KEY, json.dumps(keys))
        return key

    def user_for(self, key: str) -> str | None:
        """The user a presented key belongs to, or None. Compares every digest in constant time."""
        presented = _digest(key)
        found: str | None = None
        for digest, info in self._load().items():
            if hmac.compare_digest(digest, presented):
                found = info["user_id"]
        return found

    def list(self) -> list[KeyInfo]:
        return [
            KeyInfo(digest[:12], info["user_id"], info["created_at"], info.get("name", ""))
            for digest, info in sorted(self._load().items(), key=lambda kv: kv[1]["created_at"])
        ]

    def revoke_user(self, user_id: str) -> int:
        """Revoke every key of ``user_id``; returns how many there were."""
        keys = self._load()
        kept = {d: info for d, info in keys.items() if info["user_id"] != user_id}
        if len(kept) != len(keys):
            self._store.set_meta(_META_KEY, json.dumps(kept))
        return len(keys) - len(kept)

    def revoke(self, key_id: str) -> bool:
        keys = self._load()
        matches = [d for d in keys if d.startswith(key_id)] if len(key_id) >= 8 else []
        if len(matches) != 1:
            return False
        del keys[matches[0]]
        self._store.set_meta(_META_KEY, json.dumps(keys))
        return True
