"""`plugin-eval compare`: two skills (or plugins), or one at two git revisions."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from plugin_eval.report.model import FindingOut, Report

MAX_GIT_FILES = 2000
MAX_GIT_BYTES = 64 * 1024 * 1024


class GitError(Exception):
    """The revision or path cannot be read from git: a usage error."""


class NewSinceRevision(GitError):
    """The path is not in the revision: it was added since."""


@dataclass(frozen=True, repr=False)
class Row:
    name: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        return None if self.a is None or self.b is None else round(self.b - self.a, 2)

    @property
    def winner(self) -> str:
        if self.a is None or self.b is None:
            return "—"
        return "A" if self.a > self.b else "B" if self.b > self.a else "tie"


def _strip(report: Report, finding: FindingOut) -> str:
    """A finding's identity within its skill: code, file inside the skill, message."""
    path = finding.path
    prefix = report.path.rstrip("/") + "/"
    if path.startswith(prefix):
        path = path[len(prefix) :]
    return f"{finding.code} {path}: {finding.message}"


def _percent(score: float | None) -> float | None:
    return None if score is None else round(score * 100, 2)


def comparison(a: Report, b: Report) -> dict[str, Any]:
    rows = [Row("composite", a.composite.score, b.composite.score)]
    dims_b = {d.name: d for d in b.composite.dimensions}
    for d in a.composite.dimensions:
        other = dims_b.get(d.name)
        rows.append(Row(d.name, _percent(d.score), _percent(other.score if other else None)))
    only_a, only_b = _unmatched(a, b)
    return {
        "a": {
            "path": a.path,
            "name": a.name,
            "score": a.composite.score,
            "badge": a.composite.badge,
            "grade": a.composite.grade,
            "notes": list(a.notes),
        },
        "b": {
            "path": b.path,
            "name": b.name,
            "score": b.composite.score,
            "badge": b.composite.badge,
            "grade": b.composite.grade,
            "notes": list(b.notes),
        },
        "rows": [
            {"name": r.name, "a": r.a, "b": r.b, "delta": r.delta, "winner": r.winner} for r in rows
        ],
        "only_in_a": [f.model_dump() for f in only_a],
        "only_in_b": [f.model_dump() for f in only_b],
    }


def _unmatched(a: Report, b: Report) -> tuple[list[FindingOut], list[FindingOut]]:
    """The findings of each side that the other does not have, each once, in file and line
    order. Findings match by code, file in the skill and message, not by line (an edit above
    a finding moves it); a finding written on several lines (one per occurrence) matches one
    for one, the same line first, so a third occurrence added is one finding only in B."""
    groups: dict[str, tuple[list[FindingOut], list[FindingOut]]] = {}
    for report, side in ((a, 0), (b, 1)):
        for finding in report.findings:
            groups.setdefault(_strip(report, finding), ([], []))[side].append(finding)
    only_a: list[FindingOut] = []
    only_b: list[FindingOut] = []
    for left, right in groups.values():
        places = {(f.line, f.column) for f in left} & {(f.line, f.column) for f in right}
        rest_a = [f for f in left if (f.line, f.column) not in places]
        rest_b = [f for f in right if (f.line, f.column) not in places]
        paired = min(len(rest_a), len(rest_b))
        only_a += rest_a[paired:]
        only_b += rest_b[paired:]
    return sorted(only_a, key=_place), sorted(only_b, key=_place)


def _place(finding: FindingOut) -> tuple[str, int, int, str, str]:
    return (
        finding.path,
        finding.line or 0,
        finding.column or 0,
        finding.code,
        finding.message,
    )


def number_text(value: float | None) -> str:
    """A score with one decimal, or a dash when it was not measured."""
    return "—" if value is None else f"{value:.1f}"


def delta_text(value: float | None) -> str:
    """A signed difference with one decimal, or nothing."""
    return "" if value is None else f"{value:+.1f}"


def _git(cwd: Path, *args: str) -> bytes:
    try:
        # Paths are literal: a folder named ':x' or ':!x' is that folder, not pathspec magic.
        done = subprocess.run(
            ["git", "--literal-pathspecs", *args],
            cwd=cwd,
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise GitError(f"git could not run: {err}") from err
    if done.returncode != 0:
        raise GitError(done.stderr.decode("utf-8", "replace").strip() or "git failed")
    return done.stdout


def checkout_copy(path: Path, revision: str, into: Path) -> tuple[Path, str]:
    """Write PATH as it was at REVISION into a new folder (read with git; the work tree is
    never touched). Returns the copy and a display name such as 'skills/x@HEAD~1'."""
    if not revision or revision.startswith("-") or "\0" in revision:
        raise GitError(f"'{revision}' is not a revision")
    folder = path.resolve() if path.is_dir() else path.resolve().parent
    if not folder.exists():
        raise GitError(f"{path}: no such folder")
    top = Path(_git(folder, "rev-parse", "--show-toplevel").decode().strip())
    rel = folder.relative_to(top).as_posix()
    rel = "" if rel == "." else rel  # the work tree's top itself
    # -l gives each blob's size: the folder's is known before any blob is read.
    listing = _git(top, "ls-tree", "-r", "-z", "-l", "--full-tree", revision, "--", rel or ".")
    entries = [e for e in listing.decode("utf-8", "surrogateescape").split("\0") if e]
    if not entries:
        raise NewSinceRevision(f"{rel or '.'} does not exist at {revision}")
    if len(entries) > MAX_GIT_FILES:
        raise GitError(f"{rel} has more than {MAX_GIT_FILES} files at {revision}")
    blobs: list[tuple[str, PurePosixPath]] = []
    links: list[tuple[str, PurePosixPath]] = []
    total = 0
    for entry in entries:
        meta, name = entry.split("\t", 1)
        mode, kind, sha, size = meta.split()
        if kind != "blob":
            continue  # submodules are not followed
        if rel and not name.startswith(rel + "/"):
            continue  # git listed something outside the folder asked for: never written
        inside = PurePosixPath(name[len(rel) + 1 :] if rel else name)
        if ".." in inside.parts or not inside.parts:
            continue
        total += int(size) if size.isdigit() else 0
        if total > MAX_GIT_BYTES:
            raise GitError(
                f"{rel} is larger than {MAX_GIT_BYTES // (1024 * 1024)} MiB at {revision}"
            )
        (links if mode == "120000" else blobs).append((sha, inside))
    copy = into / folder.name
    for sha, inside in blobs:
        # The blob itself, by its id: no textconv, filter or other configured program runs.
        data = _git(top, "cat-file", "blob", sha)
        target = copy / Path(*inside.parts)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as err:  # a tree holding a file and a folder of one name, say
            raise GitError(
                f"{rel or '.'} at {revision} cannot be copied: '{inside}' ({err.strerror or err})"
            ) from None
    for sha, inside in links:
        _link(copy, inside, _git(top, "cat-file", "blob", sha))
    return copy, f"{rel or folder.name}@{revision}"


def _link(copy: Path, inside: PurePosixPath, target: bytes) -> None:
    """A symlink of the revision written as a symlink, as the work tree holds it, so an
    unchanged skill compares as a tie: scoring never follows one, so where it points is only
    text. Written after every file, and only where no folder on its way is a link, so that
    nothing is ever written through one; a target no file system takes is left out."""
    where = copy / Path(*inside.parts)
    on_the_way = [copy / Path(*inside.parts[:i]) for i in range(1, len(inside.parts))]
    if b"\0" in target or len(target) > 4096 or any(p.is_symlink() for p in on_the_way):
        return
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.fsdecode(target), where)
    except OSError:
        return
