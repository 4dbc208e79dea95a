"""A result cache keyed by file contents, tool version and configuration (SQLite).

A cache written by another version, or one that cannot be read, is rebuilt, never trusted.
An entry is found by the item's listing (walk.list_folder, the listing scoring used) and
remembers every file scoring read (walk.read_file) with a digest of the bytes read, and which
targets outside the folder a rule looked at: a hit is only a hit while those files have the
same bytes and those targets still exist (or still do not).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from plugin_eval import __version__
from plugin_eval.report.model import SummaryRow
from plugin_eval.walk import Listing, unchanged

FORMAT = "4"
DEFAULT_DIR = Path(".plugin-eval-cache")


def item_key(kind: str, rel: str, listing: Listing, entry: str | None = None) -> str | None:
    """The lookup key of one item: its kind, its id, its marketplace entry and its listing.

    An entry found under this key is only used while every file scoring read still has the
    bytes it had (see ``Cache.get``). A listing cut short is never cached: files past the cap
    could change unseen.
    """
    if not listing.complete:
        return None
    h = hashlib.sha256(f"{kind}\0{rel}\0{entry or ''}\0".encode("utf-8", "surrogateescape"))
    h.update(listing.key())
    return h.hexdigest()


def checksum(payload: str | bytes) -> str:
    data = payload if isinstance(payload, bytes) else payload.encode("utf-8", "surrogateescape")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True)
class Entry:
    payload: bytes  # the item's report JSON, zlib-compressed
    row: SummaryRow
    stamp: str


class Cache:
    """One SQLite file; only the main process reads and writes it."""

    def __init__(self, folder: Path, fingerprint: str) -> None:
        self.path = folder / "cache.sqlite3"
        self.fingerprint = fingerprint
        self.hits = 0
        self.misses = 0
        self.rebuilt: str | None = None
        folder.mkdir(parents=True, exist_ok=True)
        ignore = folder / ".gitignore"
        if not ignore.exists():
            # Like ruff's cache: the folder keeps itself out of `git status`.
            with contextlib.suppress(OSError):
                ignore.write_text("# Created by plugin-eval: the cache ignores itself.\n*\n")
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path)
            # A cache needs no durability: a damaged file is detected and rebuilt, so never
            # wait for the disk (an fsync here would also flush every report file just written).
            db.execute("PRAGMA synchronous = OFF")
            db.execute("PRAGMA journal_mode = MEMORY")
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
            expected = f"{FORMAT}:{__version__}:{self.fingerprint}"
            if row is not None and row[0] != expected:
                self.rebuilt = "written by another version or configuration"
                db.execute("DROP TABLE IF EXISTS results")
            db.execute(
                "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, payload BLOB, "
                "checksum TEXT, row TEXT, outside TEXT, reads TEXT, stamp TEXT)"
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (expected,))
            db.commit()
            return db
        except sqlite3.DatabaseError as err:
            self.rebuilt = f"unreadable ({err})"
            self.path.unlink(missing_ok=True)
            return self._open() if not self.path.exists() else sqlite3.connect(":memory:")

    def empty(self) -> bool:
        try:
            return self.db.execute("SELECT 1 FROM results LIMIT 1").fetchone() is None
        except sqlite3.DatabaseError:
            return True

    def get(self, key: str, folder: Path) -> Entry | None:
        try:
            found = self.db.execute(
                "SELECT payload, checksum, row, outside, reads, stamp FROM results WHERE key = ?",
                (key,),
            ).fetchone()
        except sqlite3.DatabaseError:
            found = None
        if found is None:
            self.misses += 1
            return None
        try:
            row = SummaryRow.model_validate_json(found[2])
            outside = json.loads(found[3])
            reads = json.loads(found[4])
            intact = checksum(found[0]) == found[1]
        except (TypeError, ValueError):  # pydantic's ValidationError is a ValueError
            intact = False
        if not intact:  # a damaged entry is recomputed, never trusted
            self.misses += 1
            return None
        if any(os.path.lexists(path) != exists for path, exists in outside) or not unchanged(
            folder, reads
        ):
            self.misses += 1
            return None
        self.hits += 1
        return Entry(found[0], row, str(found[5]))

    def put(
        self,
        key: str,
        payload: bytes,
        row: SummaryRow,
        outside: list[list[object]],
        reads: list[list[object]],
        stamp: str,
    ) -> None:
        # A cache that cannot be written only costs speed.
        with contextlib.suppress(sqlite3.DatabaseError):
            self.db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    payload,
                    checksum(payload),
                    row.model_dump_json(),
                    json.dumps(outside),
                    json.dumps(reads),
                    stamp,
                ),
            )

    def close(self) -> None:
        with contextlib.suppress(sqlite3.DatabaseError):
            self.db.commit()
            self.db.close()
