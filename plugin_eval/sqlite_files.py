"""The SQLite files plugin-eval keeps (the result cache, the Monte Carlo reply cache): opened
the one way that survives a killed run, checked when opened, and their errors sorted into
busy (another run holds the file: wait, or go on without it) and damaged (rebuild it).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from plugin_eval.walk import kind_of

BUSY_TIMEOUT = 10.0  # seconds to wait for another run's write to end
_BUSY = frozenset({5, 6})  # SQLITE_BUSY, SQLITE_LOCKED
_DAMAGED = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB
_SIDE_FILES = ("", "-wal", "-shm", "-journal")


class Damaged(sqlite3.DatabaseError):
    """The file is a database that fails its integrity check."""


def code(err: BaseException) -> int:
    """SQLite's primary result code (SQLITE_BUSY_SNAPSHOT is SQLITE_BUSY); 0 for anything
    that is not an SQLite error."""
    return int(getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF


def is_busy(err: BaseException) -> bool:
    return code(err) in _BUSY


def is_damaged(err: BaseException) -> bool:
    """A file to rebuild: not a database, corrupt, or failing quick_check."""
    return isinstance(err, Damaged) or code(err) in _DAMAGED


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    """The database at ``path`` in autocommit mode (every transaction explicit and short),
    WAL with synchronous=NORMAL (a kill loses at most the last commit, never the file), and
    checked with ``PRAGMA quick_check``: Damaged when it fails."""
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            first = str(check[0] if check else "no answer").splitlines()[:1]
            raise Damaged(f"quick_check: {''.join(first)}")
        return db
    except BaseException:
        db.close()
        raise


def not_followed(path: Path, *others: str) -> Path | None:
    """The first of: the database's folder when it is a symlink, the database at ``path``, its
    journals and ``others`` (names in the folder) when one is a symlink or not a regular file.
    A cache folder may be committed into a tree being scored: such a file is never opened,
    written through or removed."""
    folder = path.parent
    kind = kind_of(folder)
    if kind == "link":
        return folder
    if kind != "dir":
        return None
    for name in (*(f"{path.name}{suffix}" for suffix in _SIDE_FILES), *others):
        if kind_of(folder / name) in ("link", "other"):
            return folder / name
    return None


def remove(path: Path) -> None:
    """The database and its journals, so that it can be made again."""
    for suffix in _SIDE_FILES:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
