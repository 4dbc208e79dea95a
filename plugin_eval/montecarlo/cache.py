"""The response cache (SQLite): a second identical run asks the backend nothing.

The key is a SHA-256 of the backend, model, base URL (without credentials) and every
parameter of the call, including its sample number, so repeats of one prompt stay
separate draws. API keys are never part of a key or a row. Failed calls are not cached.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import asdict
from pathlib import Path

from plugin_eval.montecarlo.backends.base import Call, Reply

FORMAT = "1"


def cache_key(backend: str, model: str, base_url: str | None, call: Call) -> str:
    payload = {
        "format": FORMAT,
        "backend": backend,
        "model": model,
        "base_url": base_url,
        **call.key_fields(),
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, timeout=10)
        try:
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, reply TEXT NOT NULL)"
            )
            self._db.commit()
        except sqlite3.DatabaseError:
            # Not a database we can use (corrupt, another format): start a new one.
            self._db.close()
            path.unlink()
            self._db = sqlite3.connect(path, timeout=10)
            self._db.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
            self._db.commit()

    def get(self, key: str) -> Reply | None:
        row = self._db.execute("SELECT reply FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            return Reply(**data)
        except (ValueError, TypeError):
            return None

    def put(self, key: str, reply: Reply) -> None:
        data = asdict(reply)
        self._db.execute(
            "INSERT OR REPLACE INTO responses (key, reply) VALUES (?, ?)",
            (key, json.dumps(data, sort_keys=True, ensure_ascii=False)),
        )
        self._db.commit()

    def close(self) -> None:
        self._db.close()
