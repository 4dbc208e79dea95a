"""plugin-eval's own regexes, compiled once per installation rather than once per process.

``re.compile`` parses a pattern and compiles it to the code its C matcher runs, both in
Python: for the two hundred patterns a run of the command line uses, some 17 ms of every
start. ``compile`` here gives the same pattern (``re.Pattern`` equality compares the flags
and that code), made by ``re``'s own last step (``_sre.compile``) from the code a previous
run kept, and kept the way Python keeps bytecode: in the package's ``__pycache__`` (or under
``sys.pycache_prefix``), in a file named by the interpreter's cache tag, written atomically
at the end of a command-line run that compiled a pattern the file did not hold, never when
``sys.dont_write_bytecode`` is set, and silently not where the folder cannot be written.

Only the patterns of plugin-eval's own code go through it, never one built from a skill's
text (those use ``re.compile``), and the file holds at most ``MOST`` of them. A file made by
another interpreter build, another ``_sre`` or another plugin-eval version is not read, and
a kept pattern is only used when ``_sre`` accepts it (it checks the code it is given);
otherwise ``re.compile`` compiles it. The code is read with ``re``'s private parser and
compiler (``re._parser.parse``, ``re._compiler._code``), the steps of ``re._compiler.compile``
on CPython 3.11 to 3.13; a pattern is only kept when what is made from the code equals what
``re.compile`` made, so another release of ``re`` can only make the file useless, never a
pattern wrong.
"""

from __future__ import annotations

import contextlib
import importlib
import marshal
import os
import re
import sys
from importlib.util import cache_from_source
from pathlib import Path
from typing import Any

from plugin_eval import __version__

# The most patterns the file keeps: plugin-eval's own number is some two hundred.
MOST = 1000
# What a kept pattern is made from: its flags as compiled, its code, the number of its
# groups, their names to numbers and numbers to names (``_sre.compile``'s arguments).
Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

_SRE: Any = importlib.import_module("_sre")
# The file's first item: whose code it holds. A file with another is not read.
STAMP = (
    __version__,
    sys.implementation.cache_tag,
    sys.hexversion,
    getattr(_SRE, "MAGIC", None),
    getattr(_SRE, "CODESIZE", None),
)
# Where the steps of re._compiler.compile are known to be as ``_entry`` takes them.
SUPPORTED = sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] <= (3, 13)

_kept: dict[tuple[str, int], Entry] | None = None
# Compiled by re in this process: kept by ``save``, whose work it is to read their code.
_added: dict[tuple[str, int], re.Pattern[str]] = {}


def compile(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the code a previous run kept when there is some.

    For plugin-eval's own patterns only: the file keeps every pattern given here."""
    flags = int(flags)
    if not SUPPORTED:
        return re.compile(pattern, flags)  # noqa: TID251 (the plain way)
    key = (pattern, flags)
    entry = _table().get(key)
    if entry is not None:
        try:
            made: re.Pattern[str] = _SRE.compile(pattern, *entry)
            return made
        except Exception:  # not accepted by _sre: compiled again below, and kept anew
            pass
    compiled = re.compile(pattern, flags)  # noqa: TID251 (compiled here, then kept)
    if len(_added) < MOST:
        _added[key] = compiled
    return compiled


def _entry(pattern: str, flags: int, compiled: re.Pattern[str]) -> Entry | None:
    """What ``_sre.compile`` makes ``compiled`` from, when made so it equals ``compiled``."""
    try:
        parser: Any = importlib.import_module("re._parser")
        compiler: Any = importlib.import_module("re._compiler")
        parsed = parser.parse(pattern, flags)
        # Plain ints: the opcodes are an int subclass, which marshal does not write.
        code = [int(op) for op in compiler._code(parsed, flags)]
        names: dict[str, int] = dict(parsed.state.groupdict)
        numbers: list[str | None] = [None] * parsed.state.groups
        for name, number in names.items():
            numbers[number] = name
        entry: Entry = (
            int(flags | parsed.state.flags),
            code,
            parsed.state.groups - 1,
            names,
            tuple(numbers),
        )
        made = _SRE.compile(pattern, *entry)
    except Exception:
        return None
    same = (
        made == compiled
        and made.groupindex == compiled.groupindex
        and made.groups == compiled.groups
    )
    return entry if same else None


def path() -> Path:
    """The file: beside this module's bytecode, named by the interpreter's cache tag."""
    bytecode = Path(cache_from_source(__file__))
    return bytecode.with_name(f"regexes.{sys.implementation.cache_tag}.marshal")


def _table() -> dict[tuple[str, int], Entry]:
    global _kept
    if _kept is None:
        _kept = _read(path()) if SUPPORTED else {}
    return _kept


def _read(file: Path) -> dict[tuple[str, int], Entry]:
    """The patterns ``file`` keeps, or none when it is missing, unreadable or another's."""
    try:
        stamp, table = marshal.loads(file.read_bytes())
    except Exception:  # missing, damaged or not ours: nothing kept
        return {}
    if stamp != STAMP or not isinstance(table, dict):
        return {}
    return table


def save() -> bool:
    """Write the file when this process compiled a pattern it did not hold; whether it was
    written. Silent where it cannot be (no folder, no permission, read-only installation)."""
    if not _added or not SUPPORTED or sys.dont_write_bytecode:
        return False
    added: dict[tuple[str, int], Entry] = {}
    for (pattern, flags), compiled in _added.items():
        entry = _entry(pattern, flags, compiled)
        if entry is not None:
            added[pattern, flags] = entry
    _added.clear()
    if not added:  # none whose code could be read so that it gives the same pattern
        return False
    table = {**_table(), **added}
    if len(table) > MOST:
        table = added
    file = path()
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        # Made as importlib makes bytecode: a name of this process's, the umask's mode.
        temporary = file.with_name(f"{file.name}.{os.getpid()}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as out:
                marshal.dump((STAMP, table), out)
            os.replace(temporary, file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except Exception:  # a cache never fails the run it speeds up
        return False
    global _kept
    _kept = table
    return True
