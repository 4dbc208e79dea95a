"""summary.json and summary.md of a marketplace report (GitHub job-summary friendly).

Rows are streamed: the report keeps them in a temporary file, and the summary is built in
bounded memory (counts, and the few hundred rows each table of summary.md shows).
"""

from __future__ import annotations

import heapq
import json
import math
import tempfile
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from plugin_eval import __version__
from plugin_eval.json_input import JsonInputError
from plugin_eval.json_input import parse as parse_json
from plugin_eval.output_files import replacing, write_text
from plugin_eval.report.model import SummaryRow
from plugin_eval.report.neutral import (
    json_text,
    markdown_code,
    markdown_text,
    model_json,
    score_text,
)
from plugin_eval.scoring.composite import shown_delta, whole
from plugin_eval.vocabulary import Kind
from plugin_eval.walk import read_file

BADGES = ("platinum", "gold", "silver", "bronze", "none")
ATTENTION_BELOW = 60.0
MAX_ROWS = 400  # GitHub caps a job summary at 1 MiB; summary.json always has every row
MAX_LISTED_FINDINGS = 40
Previous = dict[str, tuple[float | None, str | None]]
PREVIOUS_LIMIT = 1 << 30  # a --previous summary.json longer than this is not read
HISTORY_LIMIT = 1 << 26  # a --history summary longer than this is skipped (it is not JSON)
HISTORY_FILES = 104  # two years of weekly runs


def counted(n: int, word: str) -> str:
    """``1 plugin``, ``2 plugins``, ``1,024 loose skills``."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


class RowStore:
    """Rows spilled to a temporary JSON-lines file; memory keeps one small tuple per row."""

    def __init__(self) -> None:
        # Lives as long as the report; close() (or garbage collection) removes it.
        self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self._index: list[tuple[bool, str, int, int]] = []

    def add(self, row: SummaryRow) -> None:
        data = json_text(model_json(row)).encode("utf-8")
        self._index.append((row.kind is not Kind.PLUGIN, row.path, self._file.tell(), len(data)))
        self._file.write(data + b"\n")

    def flush(self) -> None:
        self._file.flush()

    def __len__(self) -> int:
        return len(self._index)

    def __iter__(self) -> Iterator[SummaryRow]:
        """Plugins first, then loose skills, each by path."""
        self._file.flush()
        for _, _, offset, length in sorted(self._index):
            self._file.seek(offset)
            yield SummaryRow.model_validate(json.loads(self._file.read(length)))
        self._file.seek(0, 2)

    def close(self) -> None:
        self._file.close()


class PreviousUnusable(ValueError):
    """--previous (or a file of --history) is no readable summary of a previous run; the
    message says why."""


@dataclass(frozen=True, repr=False)
class Run:
    """One run of the report as its summary.json gives it: when, the mean, and each item's
    score, badge and name (by path)."""

    stamp: str
    mean: float | None
    rows: Previous
    names: dict[str, str] = field(default_factory=dict)


def previous_run(folder: Path, notes: list[str] | None = None) -> Run:
    """The run whose output folder --previous names.

    A row whose score or badge is not one is kept without it (and counted in ``notes``); a
    row without a path cannot be matched and is left out (counted too).
    """
    if not folder.is_dir():
        raise PreviousUnusable("not a folder" if folder.exists() else "no such folder")
    return read_run(folder / "summary.json", PREVIOUS_LIMIT, f"--previous {folder}", notes)


def read_run(file: Path, limit: int, said_as: str, notes: list[str] | None = None) -> Run:
    """A run read from one summary.json (at most ``limit`` bytes); PreviousUnusable says why
    it cannot be, ``notes`` gets what was odd in it (``said_as`` names it there)."""
    name = file.name
    try:
        data = parse_json(read_file(file, limit).decode("utf-8"))
    except FileNotFoundError:
        raise PreviousUnusable(f"no {name} in it") from None
    except OSError as err:
        raise PreviousUnusable(f"{name}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise PreviousUnusable(f"{name} is not UTF-8 text") from None
    except JsonInputError as err:
        raise PreviousUnusable(
            f"{name} is not valid JSON ({err.message}, line {err.line} column {err.column})"
        ) from None
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(rows, list):
        raise PreviousUnusable(f"{name} is not a plugin-eval summary (no list of rows)")
    previous: Previous = {}
    names: dict[str, str] = {}
    odd = 0
    for r in rows:
        if not isinstance(r, dict) or not isinstance(r.get("path"), str):
            odd += 1
            continue
        score, badge = _score(r.get("score")), r.get("badge")
        if (score is None and r.get("score") is not None) or not isinstance(badge, str | None):
            odd += 1
        previous[r["path"]] = (score, badge if isinstance(badge, str) else None)
        if isinstance(r.get("name"), str):
            names[r["path"]] = r["name"]
    if odd and notes is not None:
        notes.append(
            f"{said_as}: {odd} row(s) of {name} lack a usable path, score or "
            "badge; those items are compared only as far as they can be"
        )
    stamp = data.get("generated_at")
    mean = _score(data.get("mean_score"))
    if mean is None:
        known = [s for s, _ in previous.values() if s is not None]
        mean = round(sum(known) / len(known), 2) if known else None
    return Run(stamp if isinstance(stamp, str) else "", mean, previous, names)


def load_history(folder: Path, notes: list[str]) -> list[Run]:
    """Earlier runs for the trend: each ``*.json`` in ``folder`` and each ``*/summary.json``
    one level down, oldest first. A file that cannot be read as a summary is skipped with a
    note; past ``HISTORY_FILES`` (by name), the first are left out with a note."""
    if not folder.is_dir():
        raise PreviousUnusable("not a folder" if folder.exists() else "no such folder")
    try:
        files = sorted(
            [p for p in folder.iterdir() if p.suffix == ".json" and not p.is_dir()]
            + [p / "summary.json" for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
        )
        # Only what could be a summary: no hidden file (an output folder's own index), no
        # subfolder without one (plugins/, skills/ of an output folder).
        files = [
            f
            for f in files
            if not f.name.startswith(".") and (f.parent == folder or f.is_symlink() or f.exists())
        ]
    except OSError as err:
        raise PreviousUnusable(f"cannot be listed ({err.strerror or err})") from None
    if len(files) > HISTORY_FILES:
        notes.append(
            f"--history {folder}: {len(files)} summaries; the trend shows the last "
            f"{HISTORY_FILES} by name"
        )
        files = files[-HISTORY_FILES:]
    runs = []
    for file in files:
        shown = file.relative_to(folder).as_posix()
        try:
            runs.append(read_run(file, HISTORY_LIMIT, f"--history {folder}/{shown}", notes))
        except PreviousUnusable as err:
            notes.append(f"--history {folder}: skipped {shown}: {err}")
    if not runs:
        notes.append(f"--history {folder}: no earlier summary found, so no trend before this run")
    return sorted(runs, key=lambda r: r.stamp)


def run_of(header: dict[str, Any], rows: Iterable[SummaryRow]) -> Run:
    """This run, as the trend shows it."""
    scores: Previous = {}
    names: dict[str, str] = {}
    for row in rows:
        scores[row.path] = (None if row.errored else row.score, row.badge)
        names[row.path] = row.name
    return Run(str(header["generated_at"]), header["mean_score"], scores, names)


def trend(earlier: Iterable[Run], current: Run) -> list[Run]:
    """Earlier runs, oldest first, each once (the --previous folder's summary may also be in
    --history), then this one."""
    seen: set[tuple[str, float | None, int]] = set()
    runs = []
    for run in sorted(earlier, key=lambda r: r.stamp):
        key = (run.stamp, run.mean, len(run.rows))
        if key not in seen:
            seen.add(key)
            runs.append(run)
    return [*runs, current]


def _score(value: object) -> float | None:
    """A score out of 100, or None (JSON from disk may hold a string, true, NaN, 1e999 or a
    number no score can be)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) and 0 <= number <= 100 else None


@dataclass
class _Top:
    """The ``limit`` smallest items by key, and how many were offered."""

    limit: int
    heap: list[tuple[Any, int, SummaryRow]] = field(default_factory=list)
    total: int = 0

    def offer(self, key: Any, row: SummaryRow) -> None:
        self.total += 1
        entry = (_Neg(key), self.total, row)
        if len(self.heap) < self.limit:
            heapq.heappush(self.heap, entry)
        elif entry[0] > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)

    def rows(self) -> list[SummaryRow]:
        return [row for _, _, row in sorted(self.heap, key=lambda e: e[0].key)]


@dataclass(frozen=True, repr=False)
class _Neg:
    """Reverses the order of a key, to keep the smallest keys in a min-heap."""

    key: Any

    def __lt__(self, other: object) -> bool:
        assert isinstance(other, _Neg)
        return bool(other.key < self.key)

    def __gt__(self, other: object) -> bool:
        assert isinstance(other, _Neg)
        return bool(other.key > self.key)


@dataclass
class Summary:
    """Everything summary.json's header and summary.md need, from one pass over the rows."""

    previous: Previous | None = None
    plugins: int = 0
    skills: int = 0
    errored: int = 0
    total_score: float = 0.0
    badges: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BADGES, 0))
    attention: _Top = field(default_factory=lambda: _Top(MAX_ROWS))
    errors: _Top = field(default_factory=lambda: _Top(MAX_ROWS))
    ranked: dict[Kind, _Top] = field(
        default_factory=lambda: {Kind.PLUGIN: _Top(MAX_ROWS), Kind.SKILL: _Top(MAX_ROWS)}
    )
    seen: set[str] = field(default_factory=set)
    deltas: list[dict[str, Any]] = field(default_factory=list)
    new_findings: int = 0
    fixed_findings: int = 0
    listed: list[tuple[str, str, str]] = field(default_factory=list)
    # Under a pass threshold: how many items reach it and how many do not.
    passed: int = 0
    failed: int = 0

    def add(self, row: SummaryRow) -> None:
        if row.passed is not None:
            self.passed += row.passed
            self.failed += not row.passed
        if row.kind is Kind.PLUGIN:
            self.plugins += 1
        else:
            self.skills += 1
        if row.errored or row.load_errors:
            self.errors.offer(row.path, row)
        if row.errored or row.score is None or row.badge is None:
            self.errored += 1
        else:
            self.total_score += row.score
            self.badges[row.badge] += 1
            if row.score < ATTENTION_BELOW or row.anti_patterns:
                self.attention.offer((row.score, row.path), row)
            self.ranked[row.kind].offer((-row.score, row.path), row)
        if self.previous is not None:
            self._compare(row)

    def _compare(self, row: SummaryRow) -> None:
        assert self.previous is not None
        path = row.path
        self.seen.add(path)
        changes = row.changes
        if changes is not None:
            self.new_findings += len(changes.new)
            self.fixed_findings += len(changes.fixed)
            for kind, keys in (("new", changes.new), ("fixed", changes.fixed)):
                for key in keys:
                    if len(self.listed) < MAX_LISTED_FINDINGS:
                        self.listed.append((kind, path, key))
        if path not in self.previous or row.errored or row.score is None:
            return
        score, badge = self.previous[path]
        if score is None:
            return
        delta = round(row.score - score, 2)
        if delta or badge != row.badge:
            self.deltas.append(
                {
                    "path": path,
                    "name": row.name,
                    "before": score,
                    "after": row.score,
                    "delta": delta,
                    "badge_before": badge,
                    "badge_after": row.badge,
                }
            )

    def header(
        self, stamp: str, root: str, notes: list[str], pass_threshold: float | None = None
    ) -> dict[str, Any]:
        scored = self.plugins + self.skills - self.errored
        data: dict[str, Any] = {
            "schema_version": "1",
            "tool": "plugin-eval",
            "version": __version__,
            "generated_at": stamp,
            "root": root,
            "depth": "quick",
            "counts": {"plugins": self.plugins, "skills": self.skills, "errored": self.errored},
            "mean_score": round(self.total_score / scored, 2) if scored else None,
            "badge_counts": dict(self.badges),
            "notes": notes,
        }
        if pass_threshold is not None:
            data["pass_threshold"] = pass_threshold
            data["passed"] = self.passed
            data["failed"] = self.failed
        if self.previous is not None:
            data["changes"] = {
                "added": sorted(self.seen - self.previous.keys()),
                "removed": sorted(self.previous.keys() - self.seen),
                "score_changes": sorted(self.deltas, key=lambda d: (-abs(d["delta"]), d["path"])),
                "new_findings": self.new_findings,
                "fixed_findings": self.fixed_findings,
            }
        return data


def write_summary(
    out: Path,
    rows: Iterable[SummaryRow],
    stamp: str,
    root: str,
    notes: list[str],
    previous: Previous | None,
    pass_threshold: float | None = None,
) -> tuple[dict[str, Any], Summary]:
    """Write summary.json (rows streamed in order) and summary.md; return the header, and the
    summary it was made from (report.html shows the same)."""
    summary = Summary(previous)
    for row in rows:
        summary.add(row)
    header = summary.header(stamp, root, notes, pass_threshold)
    # Each file is written whole (a temporary file renamed into place), never half.
    with replacing(out / "summary.json") as fh:
        fh.write(json.dumps(header, indent=2)[:-2] + ',\n  "rows": [')
        first = True
        for row in rows:
            fh.write(
                ("\n" if first else ",\n")
                + textwrap.indent(json.dumps(row.data(), indent=2), "    ")
            )
            first = False
        fh.write("]\n}\n" if first else "\n  ]\n}\n")
    write_text(out / "summary.md", summary_md(header, summary))
    return header, summary


def _weakest(row: SummaryRow) -> str:
    return ", ".join(f"{d.name} {whole(d.score or 0.0)}" for d in row.weakest_dimensions)


def _flags(row: SummaryRow) -> str:
    return ", ".join(f"{k}×{v}" if v > 1 else k for k, v in row.anti_patterns.items()) or "—"


def _ci(row: SummaryRow) -> str:
    if row.ci_lower is None or row.ci_upper is None:
        return "—"
    return f"[{row.ci_lower:.1f}, {row.ci_upper:.1f}]"


def summary_md(data: dict[str, Any], summary: Summary) -> str:
    c = data["counts"]
    mean = data["mean_score"]
    out = [
        "# plugin-eval report",
        "",
        f"{counted(c['plugins'], 'plugin')} and {counted(c['skills'], 'loose skill')} under "
        f"{markdown_code(data['root'], table=False)} · "
        f"depth {data['depth']} (static layer) · plugin-eval {data['version']}",
        "",
        f"Generated {data['generated_at']}.",
        "",
        "| mean score | " + " | ".join(BADGES) + " | errored |",
        "|---:|" + "---:|" * (len(BADGES) + 1),
        f"| {f'{mean:.2f}' if mean is not None else '—'} | "
        + " | ".join(str(data["badge_counts"][b]) for b in BADGES)
        + f" | {c['errored']} |",
        "",
    ]
    if "pass_threshold" in data:
        verdict = "FAIL" if data["failed"] else "PASS"
        out += [
            f"**Result: {verdict}** at the pass threshold {data['pass_threshold']:g}: "
            f"{data['passed']} item(s) reach it, {data['failed']} do not.",
            "",
        ]
    if "changes" in data:
        out += _changes_md(data["changes"], summary.listed)
    attention = summary.attention
    out += [
        f"## Needs attention ({attention.total})",
        "",
        "Score under 60 or any anti-pattern; weakest dimensions are each item's own.",
        "",
    ]
    if attention.total:
        out += [
            "| item | kind | score | weakest dimensions | anti-patterns |",
            "|---|---|---:|---|---|",
        ]
        out += [
            f"| {markdown_text(r.name)} ({markdown_code(r.path)}) | {r.kind} | {score_text(r.score or 0.0)} | "
            f"{_weakest(r)} | {_flags(r)} |"
            for r in attention.rows()
        ]
        out += _more(attention.total)
    errors = summary.errors
    out += [
        "",
        f"## Errors ({errors.total})",
        "",
        "Items that could not be scored, or that a harness would not load.",
        "",
    ]
    if errors.total:
        out += ["| item | problem |", "|---|---|"]
        out += [
            f"| {markdown_code(r.path)} | "
            f"{markdown_text(r.error or 'load errors: ' + ', '.join(r.load_errors))} |"
            for r in errors.rows()
        ]
        out += _more(errors.total)
    for kind, title in ((Kind.PLUGIN, "Plugins"), (Kind.SKILL, "Loose skills")):
        ranked = summary.ranked[kind]
        out += ["", f"## {title} ranked ({ranked.total})", ""]
        if not ranked.total:
            continue
        out += [
            "| # | name | score | badge | grade | CI | weakest | anti-patterns |",
            "|---:|---|---:|---|---|---|---|---|",
        ]
        out += [
            f"| {i} | {markdown_text(r.name)} | {score_text(r.score or 0.0)} | {r.badge} | {r.grade} | "
            f"{_ci(r)} | {_weakest(r)} | {_flags(r)} |"
            for i, r in enumerate(ranked.rows(), 1)
        ]
        out += _more(ranked.total)
    if data["notes"]:
        notes = data["notes"][:MAX_ROWS]
        out += ["", "## Skipped", ""] + [f"- {markdown_text(n, table=False)}" for n in notes]
    return "\n".join(out) + "\n"


def _more(total: int) -> list[str]:
    return ["", f"… and {total - MAX_ROWS} more in summary.json."] if total > MAX_ROWS else []


def _changes_md(ch: dict[str, Any], listed: list[tuple[str, str, str]]) -> list[str]:
    out = [
        "## What changed",
        "",
        f"{len(ch['added'])} added, {len(ch['removed'])} removed, "
        f"{counted(len(ch['score_changes']), 'score or badge change')}, "
        f"{counted(ch['new_findings'], 'new finding')}, {ch['fixed_findings']:,} fixed.",
        "",
    ]
    if ch["score_changes"]:
        out += ["| item | before | after | Δ | badge |", "|---|---:|---:|---:|---|"]
        for d in ch["score_changes"][:MAX_ROWS]:
            badge = (
                d["badge_after"]
                if d["badge_before"] == d["badge_after"]
                else f"{d['badge_before']} → {d['badge_after']}"
            )
            out.append(
                f"| {markdown_text(d['name'])} ({markdown_code(d['path'])}) | {d['before']:.1f} | "
                f"{d['after']:.1f} | {shown_delta(d['before'], d['after']) or 0:+.1f} | {badge} |"
            )
        out.append("")
    for label, key in (("Added", "added"), ("Removed", "removed")):
        if ch[key]:
            shown = ", ".join(markdown_code(p, table=False) for p in ch[key][:50])
            out += [f"{label}: {shown}" + (" …" if len(ch[key]) > 50 else ""), ""]
    if listed:
        out += ["<details><summary>New and fixed findings</summary>", ""]
        for kind, path, key in listed:
            out.append(
                f"- {kind}: {markdown_code(path, table=False)} {markdown_text(key, table=False)}"
            )
        out += ["", "</details>", ""]
    return out
