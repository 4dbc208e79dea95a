"""The one walk over a folder, and the one way scoring reads a file.

What a skill or plugin contains (its listing), what the result cache hashes, and what a
search finds all come from :func:`folders`, with one skip policy, one symlink policy (listed,
never followed), one treatment of unreadable folders and one cap. Every file whose bytes
scoring uses is read through :func:`read_file`, which records it while :func:`recording` is
active, so a cached result is checked against exactly the bytes it was computed from.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from plugin_eval import budgets

# Folders no listing or search enters: version control, dependencies, caches, virtual
# environments and plugin-eval's own cache. (A search's `exclude` setting replaces this list
# for the search; inside a skill or plugin it always holds.)
TOOL_FOLDERS = (
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    ".plugin-eval-cache",
)
_TOOL_FOLDERS = frozenset(TOOL_FOLDERS)
# A folder holding one of these is a virtual environment or a plugin-eval report folder.
VENV_MARKER = "pyvenv.cfg"
REPORT_MARKER = ".plugin-eval-index.json"

_NAME = attrgetter("name")
# Decides whether to enter a subfolder: (its path from the root, its name) -> a reason to skip.
Prune = Callable[[str, str], "str | None"]


def tool_folder(rel: str, name: str) -> str | None:
    """The skip policy inside a skill or plugin: tool folders only (hidden ones are content)."""
    return "a version-control, dependency or cache folder" if name in _TOOL_FOLDERS else None


@dataclass
class Folder:
    """One folder of a walk. ``dirs`` are the subfolders still to be entered: a caller may
    remove names from it to prune them (the protocol of ``os.walk``)."""

    rel: str  # "" for the root
    path: str
    files: list[str]  # regular files
    links: list[str]  # symlinks, to anything: listed, never followed
    others: list[str]  # FIFOs, sockets, devices: listed, never opened
    dirs: list[str]

    def child(self, name: str) -> str:
        return f"{self.rel}/{name}" if self.rel else name


@dataclass
class Walk:
    """A top-down walk in name order; what it passed over is kept with the reason."""

    root: Path
    prune: Prune = tool_folder
    skipped: list[tuple[str, str]] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)

    def __iter__(self) -> Iterator[Folder]:
        stack = [("", str(self.root))]
        while stack:
            rel, path = stack.pop()
            try:
                with os.scandir(path) as it:
                    entries = sorted(it, key=_NAME)
            except OSError as err:
                self.unreadable.append((rel or ".", err.strerror or str(err)))
                continue
            if rel:  # the root is walked whatever it holds
                names = {e.name for e in entries}
                if VENV_MARKER in names:
                    self.skipped.append((rel, "a virtual environment"))
                    continue
                if REPORT_MARKER in names:
                    self.skipped.append((rel, "a plugin-eval report folder"))
                    continue
            here = _sorted_out(rel, path, entries)
            yield here
            # Pruned after the caller has seen the folder (a .gitignore in it may decide).
            enter = []
            for name in here.dirs:
                reason = self.prune(here.child(name), name)
                if reason is None:
                    enter.append(name)
                else:
                    self.skipped.append((here.child(name), reason))
            here.dirs = enter
            stack.extend((here.child(name), os.path.join(path, name)) for name in reversed(enter))


def _sorted_out(rel: str, path: str, entries: list[os.DirEntry[str]]) -> Folder:
    here = Folder(rel, path, [], [], [], [])
    for entry in entries:
        # scandir's cached types: no system call per entry on Linux and macOS.
        if entry.is_symlink():
            here.links.append(entry.name)
        elif entry.is_dir(follow_symlinks=False):
            here.dirs.append(entry.name)
        elif entry.is_file(follow_symlinks=False):
            here.files.append(entry.name)
        else:
            here.others.append(entry.name)
    return here


def list_one(path: Path) -> Folder:
    """One folder's entries by kind, in name order, not recursive; empty when the folder is
    missing or cannot be listed."""
    try:
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        entries = []
    return _sorted_out("", str(path), entries)


def kind_of(path: Path) -> str | None:
    """'file' (regular), 'dir', 'link' or 'other' for what is at ``path`` (a final symlink
    is not followed); None when nothing is."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def kind_within(folder: Path, rel: str) -> str | None:
    """``kind_of`` for ``rel`` under ``folder``, where no folder on the way may be a symlink
    either: 'link' when one is (``folder/skills`` linked elsewhere holds nothing of the
    folder's own), None when one is missing or not a folder."""
    here = folder
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    for part in parts[:-1]:
        here = here / part
        kind = kind_of(here)
        if kind != "dir":
            return "link" if kind == "link" else None
    return kind_of(here / parts[-1]) if parts else kind_of(folder)


@dataclass(frozen=True, repr=False)
class Listing:
    """Everything inside a skill or plugin folder, as POSIX paths relative to it."""

    files: tuple[str, ...]  # regular files
    symlinks: tuple[str, ...]
    truncated: bool = False
    # Subfolders that could not be listed (their files are missing from ``files``).
    unreadable: tuple[str, ...] = ()
    # Not regular files (FIFOs, sockets, devices): never opened.
    others: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.truncated and not self.unreadable

    def has_dir(self, name: str) -> bool:
        prefix = name.rstrip("/") + "/"
        return any(f.startswith(prefix) for f in self.files)

    def under(self, name: str) -> tuple[str, ...]:
        prefix = name.rstrip("/") + "/"
        return tuple(f for f in self.files if f.startswith(prefix))

    def key(self) -> bytes:
        """Every entry, typed, in one canonical byte string (what the cache hashes)."""
        entries = [
            *(f"f:{p}" for p in self.files),
            *(f"l:{p}" for p in self.symlinks),
            *(f"o:{p}" for p in self.others),
            *(f"d:{p}" for p in self.folders),
        ]
        return "\0".join(sorted(entries)).encode("utf-8", "surrogateescape")


def list_folder(folder: Path, cap: int | None = None) -> Listing:
    """The listing of a skill or plugin folder, stopped after ``cap`` files (by default
    budgets.LISTED_FILES)."""
    cap = budgets.LISTED_FILES if cap is None else cap
    files: list[str] = []
    links: list[str] = []
    others: list[str] = []
    folders: list[str] = []
    walk = Walk(folder)
    truncated = False
    for here in walk:
        if here.rel:
            prefix = here.rel + "/"
            links += [prefix + n for n in here.links]
            others += [prefix + n for n in here.others]
            folders.append(here.rel)
            files += [prefix + n for n in here.files]
        else:
            links += here.links
            others += here.others
            files += here.files
        if len(files) > cap:
            truncated = True
            break
    return Listing(
        tuple(sorted(files)[:cap]),
        tuple(sorted(links)),
        truncated,
        tuple(sorted(rel for rel, _ in walk.unreadable if rel != ".")),
        tuple(sorted(others)),
        tuple(sorted(folders)),
    )


class ReadLog:
    """The files scoring read, with how much of each and a digest of those bytes."""

    def __init__(self) -> None:
        self.entries: dict[str, tuple[int, str]] = {}

    def add(self, path: str, limit: int, data: bytes) -> None:
        self.entries[path] = (limit, hashlib.blake2b(data, digest_size=16).hexdigest())

    def relative_to(self, folder: Path) -> list[list[object]]:
        """[[path relative to the folder, bytes read at most, digest]], sorted."""
        base = os.path.abspath(folder)
        return sorted(
            [os.path.relpath(path, base), limit, digest]
            for path, (limit, digest) in self.entries.items()
        )


_LOG: ContextVar[ReadLog | None] = ContextVar("plugin_eval_read_log", default=None)


@contextmanager
def recording() -> Iterator[ReadLog]:
    """Record every file :func:`read_file` reads until the block ends."""
    log = ReadLog()
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


class NotRegularFile(OSError):
    """A FIFO, socket or device where a file was expected: never opened (it could block)."""


def read_file(path: Path | str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file. Raises OSError for anything else.

    The file is opened without following a final symlink and never blocks on a FIFO.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(0, "not a regular file", str(path))
        chunks = []
        left = limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    log = _LOG.get()
    if log is not None:
        log.add(os.path.abspath(path), limit, data)
    return data


def unchanged(folder: Path, reads: list[list[object]]) -> bool:
    """True when every recorded file still has the bytes it had (see ReadLog.relative_to)."""
    for rel, limit, digest in reads:
        try:
            data = read_file(os.path.join(folder, str(rel)), int(str(limit)))
        except OSError:
            return False
        if hashlib.blake2b(data, digest_size=16).hexdigest() != digest:
            return False
    return True
