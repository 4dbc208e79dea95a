"""The response cache (SQLite): a second identical run asks the backend nothing.

The key is a SHA-256 of the backend, model, base URL (without credentials) and every
parameter of the call, including its sample number, so repeats of one prompt stay
separate draws. API keys are never part of a key or a row: replies reach the cache
already redacted (``backends.redaction``). Failed calls are not cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from dataclasses import asdict
from pathlib import Path

from plugin_eval import sqlite_files
from plugin_eval.montecarlo.backends.base import Call, Reply
from plugin_eval.report.neutral import json_text

# 2: replies are stored redacted; a format-1 row may hold a key a server echoed, so none is read.
FORMAT = "2"


def cache_key(backend: str, model: str, base_url: str | None, call: Call) -> str:
    payload = {
        "format": FORMAT,
        "backend": backend,
        "model": model,
        "base_url": base_url,
        **call.key_fields(),
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    # A skill named after a folder whose name is not UTF-8 brings lone surrogates into the
    # prompt: kept as they are, so the key never fails and no two texts share one.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class ResponseCache:
    """One SQLite file, shared by every run on the machine.

    As the report cache (sqlite_files): WAL with synchronous=NORMAL (a kill never damages
    it), a writer waits up to ``BUSY_TIMEOUT`` seconds for another run, and locked is not
    damaged. A cache that cannot be used costs only money: the run goes on without it and ``notes`` says so.
    Only a file that is not a database, or fails ``PRAGMA quick_check``, is rebuilt.
    """

    def __init__(self, path: Path, timeout: float | None = None) -> None:
        self.path = path
        self.timeout = sqlite_files.BUSY_TIMEOUT if timeout is None else timeout
        self.notes: list[str] = []
        self._db: sqlite3.Connection | None = None
        linked = sqlite_files.not_followed(path)
        if linked is not None:
            self.notes.append(
                f"response cache {linked} is a symlink or not a regular file: never followed; "
                "replies are not cached (remove it, or set PLUGIN_EVAL_CACHE_DIR to a real "
                "folder)"
            )
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
        except (OSError, sqlite3.DatabaseError) as err:
            if not sqlite_files.is_damaged(err):
                self._without(err)
                return
            self.notes.append(f"response cache {path} was damaged ({err}): rebuilt")
            try:
                sqlite_files.remove(path)
                self._db = self._connect()
            except (OSError, sqlite3.DatabaseError) as again:
                self._without(again)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite_files.connect(self.path, self.timeout)
        try:
            db.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, reply TEXT NOT NULL)"
            )
            return db
        except BaseException:
            db.close()
            raise

    def _without(self, err: Exception) -> None:
        """Go on without the cache, and say why."""
        why = (
            f"still locked by another run after {self.timeout:g} s"
            if sqlite_files.is_busy(err)
            else (err.strerror if isinstance(err, OSError) and err.strerror else str(err))
        )
        self.notes.append(
            f"response cache {self.path} could not be used ({why}): replies from here on are "
            "not cached; set PLUGIN_EVAL_CACHE_DIR to a folder plugin-eval can write, or pass "
            "--no-cache"
        )
        self.close()

    def get(self, key: str) -> Reply | None:
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT reply FROM responses WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError:
            return None  # unreadable is a miss
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            return Reply(**data)
        except (ValueError, TypeError):
            return None

    def put(self, key: str, reply: Reply) -> None:
        if self._db is None:
            return
        data = asdict(reply)
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, reply) VALUES (?, ?)",
                # A reply may hold a lone surrogate (half an emoji cut at max_tokens), which
                # SQLite cannot encode: json_text writes it as a \u escape, the same data.
                (key, json_text(json.dumps(data, sort_keys=True, ensure_ascii=False))),
            )
        except sqlite3.DatabaseError as err:
            self._without(err)

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.DatabaseError):
                self._db.close()
            self._db = None
