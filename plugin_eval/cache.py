"""A result cache keyed by file contents, tool version and build, and configuration (SQLite).

A cache written by another version, or another build of the same version (its code differs:
``code_digest``), is rebuilt, never trusted. An entry is found by the
item's listing (walk.list_folder, the listing scoring used) and remembers every file scoring
read (walk.read_file) with a digest of the bytes read, and which targets outside the folder a
rule looked at: a hit is only a hit while those files have the same bytes and those targets
still exist (or still do not).

The file survives a kill at any moment: it is in WAL mode with synchronous=NORMAL (a commit
is atomic against a crash of the process; power loss may only drop the last commits), and
results are committed in small batches. Runs may share it: readers never wait, and a writer
waits up to ``sqlite_files.BUSY_TIMEOUT`` seconds for another run's batch. Locked is not
damaged: a run that cannot get the lock goes on without the cache (or without saving to it)
and says so. Only a file that is not a database, or fails ``PRAGMA quick_check`` on
opening, is rebuilt. A cache folder that cannot be written is a ``PathUnusable`` error,
named with what to do.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from plugin_eval import __version__, sqlite_files
from plugin_eval.output_files import unusable
from plugin_eval.report.model import SummaryRow
from plugin_eval.report.neutral import json_text, model_json
from plugin_eval.walk import Listing, kind_of, unchanged

FORMAT = "5"
DEFAULT_DIR = Path(".plugin-eval-cache")
NAME = "cache.sqlite3"
BATCH = 64  # results per commit: another run waits milliseconds, a kill loses one batch
OTHERWISE = ", or --no-cache"
_RESULT_COLUMNS = (
    "key TEXT PRIMARY KEY, payload BLOB, checksum TEXT, row TEXT, outside TEXT, reads TEXT, "
    "stamp TEXT"
)


def item_key(
    kind: str, rel: str, listing: Listing, entry: str | None, folder: str | Path
) -> str | None:
    """The lookup key of one item: its kind, its id, its marketplace entry, its folder's
    absolute path (two trees scored from one place share the cache, and a link out of a
    folder, a folder's name, mean something else elsewhere) and its listing.

    An entry found under this key is only used while every file scoring read still has the
    bytes it had (see ``Cache.get``). A listing cut short is never cached: files past the cap
    could change unseen.
    """
    if not listing.complete:
        return None
    where = os.path.abspath(folder)
    h = hashlib.sha256(
        f"{kind}\0{rel}\0{entry or ''}\0{where}\0".encode("utf-8", "surrogateescape")
    )
    h.update(listing.key())
    return h.hexdigest()


def code_digest(package: Path) -> str:
    """A digest of the code under ``package``: every ``.py`` file and data file, by path and
    bytes. Two builds that carry the same version string (a checkout between releases, an
    edited install) differ here, so a cache one wrote is never trusted by the other."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(package.rglob("*")):
        if path.suffix not in (".py", ".json") or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(package).as_posix()
        h.update(f"{rel}\0".encode("utf-8", "surrogateescape"))  # names need not be UTF-8
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


@functools.cache
def installed_code() -> str:
    """``code_digest`` of this plugin-eval's own package, read once per process."""
    return code_digest(Path(__file__).resolve().parent)


def checksum(payload: str | bytes) -> str:
    data = payload if isinstance(payload, bytes) else payload.encode("utf-8", "surrogateescape")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


KEY_ENV = "PLUGIN_EVAL_CACHE_KEY"
KEY_BYTES = 32


@functools.cache
def sealing_key() -> bytes:
    """The secret every cache entry is sealed with, so that a cache someone else wrote (one
    committed into the tree being scored, say) is never trusted: ``PLUGIN_EVAL_CACHE_KEY``
    when set (CI keeps it as a secret), else a random key kept beside the model replies
    (``$PLUGIN_EVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/plugin-eval`` or
    ``~/.cache/plugin-eval``: ``cache-key``, mode 0600), made on first use. Where it cannot
    be kept, a key for this process alone: nothing is reused."""
    given = os.environ.get(KEY_ENV)
    if given:
        return hashlib.sha256(given.encode("utf-8", "surrogateescape")).digest()
    try:
        # Where the model replies are kept (montecarlo.settings.default_cache_path).
        base = os.environ.get("PLUGIN_EVAL_CACHE_DIR") or str(
            Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "plugin-eval"
        )
        path = Path(base) / "cache-key"
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(KEY_BYTES))
        key = path.read_bytes()
    except (OSError, RuntimeError):  # no home folder, a read-only one
        return os.urandom(KEY_BYTES)
    return key if len(key) == KEY_BYTES else os.urandom(KEY_BYTES)


def seal(*fields: bytes | str) -> str:
    """A keyed digest of an entry's fields (each length-prefixed: no two entries share one)."""
    h = hashlib.blake2b(key=sealing_key(), digest_size=16)
    for value in fields:
        data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


@dataclass(frozen=True, repr=False)
class Entry:
    payload: bytes  # the item's report JSON, zlib-compressed
    row: SummaryRow
    stamp: str


class Cache:
    """One SQLite file; only the main process of a run reads and writes it.

    ``notes`` says what the run should tell the user: a rebuilt cache, a cache another run
    holds, results that could not be saved.
    """

    def __init__(self, folder: Path, fingerprint: str, timeout: float | None = None) -> None:
        self.path = folder / NAME
        self.fingerprint = fingerprint
        self.timeout = sqlite_files.BUSY_TIMEOUT if timeout is None else timeout
        self.hits = 0
        self.misses = 0
        self.notes: list[str] = []
        self._batch: list[tuple[object, ...]] = []
        self.db: sqlite3.Connection | None = None
        # A cache committed into the tree being scored may be a symlink to anything: never
        # written through, opened or removed. The run goes on without it, as when it is busy.
        linked = sqlite_files.not_followed(self.path, ".gitignore")
        if linked is not None:
            self.notes.append(
                f"cache {linked} is a symlink or not a regular file: never followed; this run "
                "went on without the cache (remove it, or pass --cache-dir a real folder)"
            )
            return
        if folder.exists() and not folder.is_dir():
            raise unusable("--cache-dir", folder, "it is a file, not a folder", OTHERWISE)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise unusable("--cache-dir", folder, err, OTHERWISE) from None
        ignore = folder / ".gitignore"
        if not ignore.exists():
            # Like ruff's cache: the folder keeps itself out of `git status`.
            with contextlib.suppress(OSError):
                ignore.write_text("# Created by plugin-eval: the cache ignores itself.\n*\n")
        self.db = self._open()

    def _open(self) -> sqlite3.Connection | None:
        try:
            return self._connect()
        except sqlite3.DatabaseError as err:
            if not sqlite_files.is_damaged(err):
                self._unavailable(err)
                return None
            reason = str(err)
        # Damaged, not busy: the file and its journals are removed and made again.
        self.notes.append(f"cache {self.path} was damaged ({reason}): rebuilt")
        try:
            sqlite_files.remove(self.path)
        except OSError as err:
            raise unusable("--cache-dir", self.path.parent, err, OTHERWISE) from None
        try:
            return self._connect()
        except sqlite3.DatabaseError as err:
            self._unavailable(err)
            return None

    def _unavailable(self, err: Exception) -> None:
        """Busy: the run goes on without the cache, and says so. Anything else is an error."""
        if sqlite_files.is_busy(err):
            self.notes.append(
                f"cache {self.path} is in use by another run (still locked after "
                f"{self.timeout:g} s): this run went on without it"
            )
            return
        raise unusable("--cache-dir", self.path.parent, str(err), OTHERWISE) from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite_files.connect(self.path, self.timeout)
        try:
            expected = f"{FORMAT}:{__version__}:{installed_code()}:{self.fingerprint}"
            if self._version(db) != expected:
                db.execute("BEGIN IMMEDIATE")
                found = self._version(db)  # again, under the lock: another run may have won
                if found != expected:
                    if found is not None:
                        self.notes.append(
                            f"cache {self.path} was written by another version, build or "
                            "configuration: rebuilt"
                        )
                    db.execute("DROP TABLE IF EXISTS results")
                    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
                    db.execute(f"CREATE TABLE results ({_RESULT_COLUMNS})")
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (expected,))
                db.execute("COMMIT")
            return db
        except BaseException:
            db.close()  # an open transaction is rolled back
            raise

    @staticmethod
    def _version(db: sqlite3.Connection) -> str | None:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"meta", "results"} <= tables:
            return None
        row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return str(row[0]) if row is not None else None

    def empty(self) -> bool:
        if self.db is None:
            return True
        try:
            return self.db.execute("SELECT 1 FROM results LIMIT 1").fetchone() is None
        except sqlite3.DatabaseError:
            return True

    def get(self, key: str, folder: Path) -> Entry | None:
        found = None
        with contextlib.suppress(sqlite3.DatabaseError):  # unreadable is a miss
            if self.db is not None:
                found = self.db.execute(
                    "SELECT payload, checksum, row, outside, reads, stamp FROM results WHERE key = ?",
                    (key,),
                ).fetchone()
        if found is None:
            self.misses += 1
            return None
        payload, sealed, row_text, outside_text, reads_text, stamp = found
        try:
            # Sealed by this user's key over every column: one written by anyone else, or
            # changed since, is recomputed, never trusted.
            intact = hmac.compare_digest(
                seal(key, payload, row_text, outside_text, reads_text, stamp), str(sealed)
            )
            if intact:
                row = SummaryRow.model_validate(json.loads(row_text))
                outside = json.loads(outside_text)
                # What is at each outside path (a file, a folder, a symlink, nothing), not only
                # whether something is: a file that became a symlink changes a finding too.
                current = not any(
                    kind_of(Path(path)) != kind for path, kind in outside
                ) and unchanged(folder, json.loads(reads_text))
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError):
            intact = False  # pydantic's ValidationError is a ValueError
        if not intact or not current:
            self.misses += 1
            return None
        self.hits += 1
        return Entry(payload, row, stamp)

    def put(
        self,
        key: str,
        payload: bytes,
        row: SummaryRow,
        outside: list[list[object]],
        reads: list[list[object]],
        stamp: str,
    ) -> None:
        """Save one result; results are committed in batches of ``BATCH``."""
        if self.db is None:
            return
        kinds = [[path, kind_of(Path(str(path)))] for path in sorted({str(p) for p, _ in outside})]
        columns = (json_text(model_json(row)), json.dumps(kinds), json.dumps(reads), stamp)
        self._batch.append((key, payload, seal(key, payload, *columns), *columns))
        if len(self._batch) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        batch, self._batch = self._batch, []
        if self.db is None or not batch:
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)", batch
            )
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as err:
            # A cache that cannot be written only costs speed: say so once and save no more.
            with contextlib.suppress(sqlite3.DatabaseError):
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
            why = (
                f"still locked by another run after {self.timeout:g} s"
                if sqlite_files.is_busy(err)
                else str(err)
            )
            self.notes.append(
                f"cache {self.path}: results could not be saved ({why}); the rest of this "
                "run's results are not cached"
            )
            self._close()

    def close(self) -> None:
        self._flush()
        self._close()

    def _close(self) -> None:
        if self.db is not None:
            with contextlib.suppress(sqlite3.DatabaseError):
                self.db.close()
            self.db = None
