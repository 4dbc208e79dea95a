"""A result cache keyed by file contents, tool version and configuration (SQLite).

A cache written by another version, or one that cannot be read, is rebuilt, never trusted.
Entries remember which targets outside their folder a rule looked at; a hit is only a hit
while those still exist (or still do not).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from plugin_eval import __version__
from plugin_eval.document import SKILL_FILE
from plugin_eval.plugin import plugin_files
from plugin_eval.report.model import SummaryRow

FORMAT = "3"
DEFAULT_DIR = Path(".plugin-eval-cache")


def _names(folder: str, prefix: str, out: list[str]) -> None:
    """Every entry below ``folder`` (scandir's cached types: no extra system calls)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        rel = prefix + entry.name
        if entry.is_symlink():
            out.append("l:" + rel)
        elif entry.is_dir():
            out.append("d:" + rel)
            _names(entry.path, rel + "/", out)
        else:
            out.append("f:" + rel)


def digest_folder(
    folder: Path,
    kind: str,
    listed: Sequence[str] | None = None,
    contents: Mapping[str, bytes] | None = None,
    entry: str | None = None,
) -> str:
    """What a score depends on inside the folder: the files rules read and every name.

    ``listed`` is the folder's entries when a walk already has them (discovery does),
    ``contents`` the bytes of files already read (a worker has read SKILL.md to score it),
    and ``entry`` a marketplace entry that decides a plugin's manifest and skills.
    """
    names: list[str] = list(listed) if listed is not None else []
    if listed is None:
        _names(str(folder), "", names)
    h = hashlib.sha256(kind.encode())
    h.update("\0".join(names).encode("utf-8", "surrogateescape"))
    if kind == "skill":
        # A symlinked SKILL.md is named, never read (links are not followed).
        read = [SKILL_FILE] if f"f:{SKILL_FILE}" in names else []
    else:
        # Exactly the files the plugin parse reads (plugin_files decides for both).
        files = [n[2:] for n in names if n.startswith("f:")]
        read = list(plugin_files(files, json.loads(entry) if entry else None).read)
    for rel in read:
        h.update(b"\0c" + rel.encode("utf-8", "surrogateescape"))
        if contents is not None and rel in contents:
            h.update(contents[rel])
            continue
        try:
            with open(os.path.join(folder, rel), "rb") as fh:
                h.update(fh.read())
        except OSError as err:
            h.update(f"unreadable:{err.errno}".encode())
    return h.hexdigest()


def item_key(
    kind: str,
    rel: str,
    folder: Path,
    names: Sequence[str] | None = None,
    contents: Mapping[str, bytes] | None = None,
    entry: str | None = None,
) -> str:
    """The cache key of one item (the version and configuration key the whole cache file)."""
    digest = digest_folder(folder, kind, names, contents, entry)
    # A marketplace entry is part of the key: it decides the plugin's manifest and skills.
    named = f"{kind}\0{rel}\0{entry or ''}\0{digest}"
    return hashlib.sha256(named.encode("utf-8", "surrogateescape")).hexdigest()


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
                "checksum TEXT, row TEXT, outside TEXT, stamp TEXT)"
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (expected,))
            db.commit()
            return db
        except sqlite3.DatabaseError as err:
            self.rebuilt = f"unreadable ({err})"
            self.path.unlink(missing_ok=True)
            return self._open() if not self.path.exists() else sqlite3.connect(":memory:")

    def key(
        self,
        kind: str,
        rel: str,
        folder: Path,
        names: Sequence[str] | None = None,
        entry: str | None = None,
    ) -> str:
        return item_key(kind, rel, folder, names, entry=entry)

    def empty(self) -> bool:
        try:
            return self.db.execute("SELECT 1 FROM results LIMIT 1").fetchone() is None
        except sqlite3.DatabaseError:
            return True

    def get(self, key: str) -> Entry | None:
        try:
            found = self.db.execute(
                "SELECT payload, checksum, row, outside, stamp FROM results WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.DatabaseError:
            found = None
        if found is None:
            self.misses += 1
            return None
        try:
            row = SummaryRow.model_validate_json(found[2])
            outside = json.loads(found[3])
            intact = checksum(found[0]) == found[1]
        except (TypeError, ValueError):  # pydantic's ValidationError is a ValueError
            intact = False
        if not intact:  # a damaged entry is recomputed, never trusted
            self.misses += 1
            return None
        if any(os.path.lexists(path) != exists for path, exists in outside):
            self.misses += 1
            return None
        self.hits += 1
        return Entry(found[0], row, str(found[4]))

    def put(
        self,
        key: str,
        payload: bytes,
        row: SummaryRow,
        outside: list[list[object]],
        stamp: str,
    ) -> None:
        # A cache that cannot be written only costs speed.
        with contextlib.suppress(sqlite3.DatabaseError):
            self.db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key,
                    payload,
                    checksum(payload),
                    row.model_dump_json(),
                    json.dumps(outside),
                    stamp,
                ),
            )

    def close(self) -> None:
        with contextlib.suppress(sqlite3.DatabaseError):
            self.db.commit()
            self.db.close()
