"""Files a run writes: whole or not at all, and one clear error when a path cannot be used.

Every file goes to a temporary file in its own folder and is renamed into place, so a run
killed at any moment leaves the old file or the new one, never part of one. The temporary
name is short and fixed per process (``.plugin-eval-PID.tmp``): a long target name never
makes it too long, and one left behind by a killed process is recognised and removed.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

TEMP_PREFIX, TEMP_SUFFIX = ".plugin-eval-", ".tmp"
# A folder that cannot take any file, as opposed to one name it cannot take.
FULL = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name)
)
UNUSABLE = frozenset(
    getattr(errno, name)
    for name in (
        "EACCES",
        "EPERM",
        "EROFS",
        "ENOSPC",
        "EDQUOT",
        "EFBIG",
        "EIO",
        "ENOTDIR",
        "ENOENT",
    )
    if hasattr(errno, name)
)


class PathUnusable(Exception):
    """A folder or file given to a run cannot be used; the message names it and what to do."""


def unusable(option: str, path: Path, err: OSError | str, otherwise: str = "") -> PathUnusable:
    """``--out DIR: cannot be written (No space left on device); free some space, or …``."""
    reason = err if isinstance(err, str) else err.strerror or str(err)
    full = isinstance(err, OSError) and err.errno in FULL
    remedy = (
        f"free some space, or give {option} a folder on another disk"
        if full
        else f"give {option} a folder plugin-eval can write"
    )
    return PathUnusable(f"{option} {path}: cannot be written ({reason}); {remedy}{otherwise}")


def _temp(path: Path) -> Path:
    return path.with_name(f"{TEMP_PREFIX}{os.getpid()}{TEMP_SUFFIX}")


def _create(partial: Path) -> int:
    """A new file at ``partial``: never an existing one, nor where a symlink there points."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(partial, flags, 0o644)
    except FileExistsError:  # left by a killed process that had this one's number
        os.unlink(partial)
        return os.open(partial, flags, 0o644)


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    partial = _temp(path)
    # os.open/os.write: three system calls a file, where open() adds fstat, ioctl and lseek.
    fd = _create(partial)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(partial, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(partial)
        raise


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8", "surrogateescape"))


@contextmanager
def replacing(path: Path) -> Iterator[IO[str]]:
    """A text file to stream into; it replaces ``path`` only once the block completes."""
    partial = _temp(path)
    try:
        with open(_create(partial), "w", encoding="utf-8") as fh:
            yield fh
        os.replace(partial, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(partial)
        raise


def remove_leftovers(folder: Path) -> None:
    """Remove the temporary files that processes no longer running left in ``folder``."""
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            name = entry.name
            if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
                continue
            pid = name[len(TEMP_PREFIX) : -len(TEMP_SUFFIX)]
            if pid.isdigit() and not _running(int(pid)):
                with suppress(OSError):
                    os.unlink(entry.path)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return False  # this process writes one file at a time, and is not writing now
    if os.name == "nt":
        return True  # os.kill would end the process there; leave the file
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # alive, another user's
    return True
