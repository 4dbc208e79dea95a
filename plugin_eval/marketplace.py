"""`plugin-eval report`: score a whole marketplace, in parallel, streaming results to disk.

Items (plugins and loose skills) are scored in worker processes; the main process alone
reads and writes the cache and the output folder. Only one small summary row per item is
kept in memory, so memory stays flat as the tree grows. Output does not depend on the
number of workers: every file is a function of its item alone, and the summary is sorted.
"""

from __future__ import annotations

import contextlib
import gc
import hmac
import json
import logging
import multiprocessing
import os
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from plugin_eval.cache import Cache, checksum, item_key, seal
from plugin_eval.config import Config
from plugin_eval.discovery import Item, discover
from plugin_eval.document import parse_skill
from plugin_eval.engine import collection_paused, score_document
from plugin_eval.errors import described
from plugin_eval.json_input import JsonInputError
from plugin_eval.json_input import parse as parse_json
from plugin_eval.output_files import (
    UNUSABLE,
    PathUnusable,
    remove_leftovers,
    unusable,
    write_bytes,
    write_text,
)
from plugin_eval.plugin import parse_plugin
from plugin_eval.plugin_score import score_plugin_document
from plugin_eval.report.model import (
    FindingChanges,
    FindingCounts,
    Report,
    SummaryRow,
    WeakDimension,
    build_plugin_report,
    build_report,
)
from plugin_eval.report.neutral import json_text, model_json
from plugin_eval.report.summary import RowStore
from plugin_eval.vocabulary import Depth, Kind
from plugin_eval.walk import Listing, list_folder, read_file, recording

PLACEHOLDER = "@@plugin-eval:generated-at@@"
# Findings that stop a harness from loading the item at all.
LOAD_ERRORS = frozenset({"PE001", "PE002", "PE003", "PE004", "PE005", "PE006", "PE501"})


@dataclass(frozen=True, repr=False)
class Task:
    kind: Kind
    folder: str
    rel: str
    slug: str
    entry: str | None
    # The item in the report (row, files): the folder's path, or `folder/@name` for a
    # marketplace entry that shares its folder with others. ``rel`` is the folder's path.
    id: str = ""
    # A marketplace entry: where it is written (marketplace.json from the folder, line).
    entry_at: tuple[str, int] | None = None

    @property
    def key_entry(self) -> str | None:
        """The entry as the cache key holds it: its text and where it is written (a line
        that moved moves its findings)."""
        return f"{self.entry}\0{self.entry_at}" if self.entry is not None else None


@dataclass
class RunStats:
    items: int = 0
    plugins: int = 0
    skills: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    errored: int = 0
    notes: list[str] = field(default_factory=list)
    # About the cache itself (rebuilt, locked, unusable): said on stderr, never in the files a
    # report writes, which are the same whatever state the cache was in.
    cache_notes: list[str] = field(default_factory=list)


_WORKER_CONFIG: Config | None = None


def _init_worker(config_json: str) -> None:
    global _WORKER_CONFIG
    _WORKER_CONFIG = Config.model_validate_json(config_json)
    # Everything imported so far lives as long as the worker: keep it out of GC passes.
    gc.freeze()


# (report JSON zlib-compressed, summary row, outside checks, files read, cache key)
Result = tuple[bytes, SummaryRow, list[list[Any]], list[list[object]], str | None]


def _pack(text: str) -> bytes:
    """Compressed in the worker: less to send back, to cache, and to hash."""
    return zlib.compress(text.encode("utf-8", "surrogateescape"), 1)


def evaluate(task: Task, config: Config | None = None) -> Result:
    """Score one item: report JSON (timestamp as a placeholder), row, outside checks, the
    files scoring read, and the cache key of the listing scoring used."""
    config = config or _WORKER_CONFIG or Config()
    folder = Path(task.folder)
    key = None
    try:
        with collection_paused(), recording() as log:
            if task.kind is Kind.PLUGIN:
                manifest = json.loads(task.entry) if task.entry else None
                plugin = parse_plugin(folder, manifest, task.entry_at)
                key = item_key(task.kind, task.id, plugin.listing, task.key_entry, folder)
                scored = score_plugin_document(plugin, config, task.rel or ".", Depth.QUICK)
                report: Report = build_plugin_report(scored, PLACEHOLDER, config.pass_threshold)
                outside = sorted({c for s in scored.skills for c in s.outside_checks})
            else:
                doc = parse_skill(folder)
                key = item_key(task.kind, task.id, doc.listing, task.key_entry, folder)
                skill = score_document(doc, config, task.rel or ".", Depth.QUICK)
                del doc  # freed before collection resumes, so no collection walks its tokens
                report = build_report(skill, PLACEHOLDER, config.pass_threshold)
                outside = sorted(set(skill.outside_checks))
        # Made here, inside the guard: text a report cannot hold errs this item alone.
        packed = _pack(json_text(model_json(report)))
        row = summary_row(task, report)
    except Exception as exc:  # one broken item never stops the run
        logging.getLogger("plugin_eval").debug("%s could not be scored", task.id, exc_info=True)
        error = described(exc)
        failed = json_text(
            json.dumps(
                {"path": task.id, "kind": task.kind, "errored": True, "error": error},
                ensure_ascii=True,
            )
        )
        return _pack(failed), _error_row(task, error), [], [], None
    reads = log.relative_to(folder)
    return packed, row, [list(c) for c in outside], reads, key


def summary_row(task: Task, report: Report) -> SummaryRow:
    c = report.composite
    measured = sorted(
        (d for d in c.dimensions if d.score is not None), key=lambda d: (d.score or 0.0, d.name)
    )
    flags: dict[str, int] = {}
    for f in report.layers[0].anti_patterns:
        flags[f.flag] = flags.get(f.flag, 0) + 1
    return SummaryRow(
        name=report.name,
        kind=task.kind,
        path=task.id,
        slug=task.slug,
        score=c.score,
        badge=c.badge,
        grade=c.grade,
        confidence=c.confidence_label,
        ci_lower=c.ci_lower,
        ci_upper=c.ci_upper,
        anti_patterns=dict(sorted(flags.items())),
        weakest_dimensions=[WeakDimension(name=d.name, score=d.score) for d in measured[:3]],
        weak_dimensions=c.weak_dimensions,
        counts=FindingCounts(
            error=report.counts.error, warning=report.counts.warning, info=report.counts.info
        ),
        load_errors=sorted({f.code for f in report.findings if f.code in LOAD_ERRORS}),
        skills=len(getattr(report, "skills", [])) if task.kind is Kind.PLUGIN else None,
        errored=False,
        error=None,
        passed=report.passed,
    )


def _error_row(task: Task, error: str) -> SummaryRow:
    return SummaryRow(
        name=Path(task.folder).name,
        kind=task.kind,
        path=task.id,
        slug=task.slug,
        score=None,
        badge=None,
        grade=None,
        confidence=None,
        ci_lower=None,
        ci_upper=None,
        anti_patterns={},
        weakest_dimensions=[],
        weak_dimensions=[],
        counts=FindingCounts(error=0, warning=0, info=0),
        load_errors=[],
        skills=None,
        errored=True,
        error=error,
    )


def _task(item: Item) -> Task:
    return Task(
        item.kind, str(item.folder), item.rel, item.slug, item.entry, item.id, item.entry_at
    )


def _subdir(kind: Kind) -> str:
    return "plugins" if kind is Kind.PLUGIN else "skills"


INDEX = ".plugin-eval-index.json"
# Names of the files a run is writing, appended before each is written and removed once the
# index is saved: after a run stopped part way, the files whose bytes the index may not know.
UNSURE = ".plugin-eval-unsure"
PREVIOUS_LIMIT = 1 << 28  # a --previous report file longer than this is not read


@dataclass
class Writer:
    """Everything the main process does with a finished item.

    Per-item files keep the time their result was computed (a cache hit keeps the old time),
    so an unchanged item produces the same bytes; files already on disk with those bytes, as
    recorded in the output folder's index, are not written again. Every file is written
    whole (``output_files``), and its name goes to ``UNSURE`` first, so the run after one
    that was killed rewrites what that run may have changed, and removes what it wrote for
    items that are gone. A folder that cannot be written stops the run (``PathUnusable``);
    one name that cannot be written makes its item an errored row.
    """

    out: Path
    previous: Path | None
    rows: RowStore = field(default_factory=RowStore)
    written: dict[str, list[Any]] = field(default_factory=dict)
    on_item: Callable[[SummaryRow, str], None] | None = None
    index: dict[str, list[Any]] = field(default_factory=dict)
    errored: int = 0  # items whose report file could not be written
    notes: list[str] = field(default_factory=list)
    _unsure: int | None = None  # the open UNSURE file
    _unreadable: list[str] = field(default_factory=list)  # --previous files not read

    def __post_init__(self) -> None:
        # A symlink for the folder, or for one of its subfolders (committed into a scored
        # checkout that holds --out), would have the report write, and its stale files be
        # removed, wherever the link points.
        for sub in (".", "plugins", "skills", "badges"):
            if (self.out / sub).is_symlink():
                raise unusable(
                    "--out",
                    self.out / sub if sub != "." else self.out,
                    "a symlink; plugin-eval writes no report through one",
                )
        try:
            for sub in ("plugins", "skills", "badges"):
                (self.out / sub).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise unusable("--out", self.out, err) from None
        self.index = _sealed_index(self.out / INDEX)
        for rel in _unsure_names(self.out / UNSURE):
            self.index[rel] = []  # this tool's file, with bytes the index does not know
        for sub in ("", "plugins", "skills", "badges"):
            remove_leftovers(self.out / sub)

    def __call__(self, task: Task, payload: bytes, row: SummaryRow, stamp: str) -> None:
        rel = f"{_subdir(task.kind)}/{task.slug}.json"
        text = zlib.decompress(payload).decode("utf-8", "surrogateescape")
        text = text.replace(PLACEHOLDER, stamp) + "\n"
        if self.previous is not None:  # read before writing: --previous may be --out itself
            changes = _finding_changes(self.previous / rel, text)
            if changes is None:
                self._unreadable.append(rel)
            row = row.model_copy(update={"changes": changes})
        try:
            self._put(rel, text)
            if not row.errored and row.score is not None and row.badge is not None:
                self._put(f"badges/{task.slug}.svg", badge_svg(row.score, row.badge))
        except OSError as err:
            if err.errno in UNUSABLE:
                raise unusable("--out", self.out, err) from None
            # This one name cannot be written (too long, a folder in the way): its item is
            # an error, and the run goes on.
            row = _error_row(task, f"{rel}: could not be written ({err.strerror or err})")
            self.errored += 1
        try:
            self.rows.add(row)
        except OSError as err:
            raise unusable("TMPDIR", Path(tempfile.gettempdir()), err) from None
        if self.on_item is not None:
            self.on_item(row, text)

    def _put(self, rel: str, text: str) -> None:
        data = text.encode("utf-8", "surrogateescape")
        entry = [len(data), checksum(text)]
        known = self.index.get(rel)
        if known is not None and known[:2] == entry and len(known) == 3:
            # The bytes this run would write, as this machine wrote them: same size and the
            # modification time it had then (an edit since changes it).
            try:
                done = os.stat(self.out / rel)
                if done.st_size == entry[0] and done.st_mtime_ns == known[2]:
                    self.written[rel] = known
                    return
            except OSError:
                pass
        if self._unsure is None:
            self._unsure = os.open(self.out / UNSURE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.write(self._unsure, (json.dumps(rel) + "\n").encode())
        write_bytes(self.out / rel, data)
        self.written[rel] = [*entry, os.stat(self.out / rel).st_mtime_ns]

    def save_index(self) -> None:
        """Save what this run wrote; the output folder is whole again."""
        try:
            self.rows.flush()
        except OSError as err:
            raise unusable("TMPDIR", Path(tempfile.gettempdir()), err) from None
        try:
            files = json.dumps(self.written, sort_keys=True)
            write_text(self.out / INDEX, json.dumps({"files": self.written, "seal": seal(files)}))
            if self._unsure is not None:
                os.close(self._unsure)
                self._unsure = None
            (self.out / UNSURE).unlink(missing_ok=True)
        except OSError as err:
            raise unusable("--out", self.out, err) from None
        if self._unreadable:
            shown = ", ".join(self._unreadable[:3]) + (" …" if len(self._unreadable) > 3 else "")
            self.notes.append(
                f"--previous {self.previous}: {len(self._unreadable)} file(s) could not be read as "
                f"reports ({shown}); their new and fixed findings are not counted"
            )


def _sealed_index(path: Path) -> dict[str, list[Any]]:
    """The index a run on this machine saved (sealed with the cache's key), or none: an index
    committed into a checkout that holds --out is not trusted to say which files need no
    writing, nor which are stale."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(loaded, dict) or not isinstance(loaded.get("files"), dict):
        return {}
    files: dict[str, list[Any]] = loaded["files"]
    given = str(loaded.get("seal")).encode("utf-8", "surrogateescape")
    if not hmac.compare_digest(given, seal(json.dumps(files, sort_keys=True)).encode()):
        return {}
    return {k: v for k, v in files.items() if isinstance(v, list)}


def _unsure_names(path: Path) -> list[str]:
    """The names a stopped run was writing (whole lines only: the last may be cut)."""
    try:
        lines = path.read_bytes().split(b"\n")[:-1]
    except OSError:
        return []
    names = []
    for line in lines:
        try:
            name = json.loads(line)
        except ValueError:
            continue
        if isinstance(name, str):
            names.append(name)
    return names


def _finding_keys(report: object) -> Counter[str] | None:
    """The findings of a report as 'code path: message' keys, each as many times as it is
    reported (two links to one missing file are two findings); None if it is not a report."""
    findings = report.get("findings", []) if isinstance(report, dict) else None
    if not isinstance(findings, list) or not all(isinstance(f, dict) for f in findings):
        return None
    return Counter(f"{f.get('code')} {f.get('path')}: {f.get('message')}" for f in findings)


def _finding_changes(previous_file: Path, text: str) -> FindingChanges | None:
    """Findings new and fixed since the previous run (matched by code, file and message);
    None when the previous run's file is there but is not a report."""
    try:
        data = read_file(previous_file, PREVIOUS_LIMIT)
    except FileNotFoundError:
        return FindingChanges(existed=False, new=[], fixed=[])
    except OSError:
        return None
    try:
        before = _finding_keys(parse_json(data.decode("utf-8")))
    except (UnicodeDecodeError, JsonInputError):
        return None
    now = _finding_keys(json.loads(text))
    if before is None or now is None:
        return None
    return FindingChanges(
        existed=True,
        new=sorted((now - before).elements()),
        fixed=sorted((before - now).elements()),
    )


def run_report(
    root: Path,
    out: Path,
    config: Config,
    jobs: int,
    cache_dir: Path | None,
    stamp: str,
    previous: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_item: Callable[[SummaryRow, str], None] | None = None,
) -> tuple[RowStore, RunStats]:
    """Score every item under ``root`` into ``out``; return the rows (on disk) and statistics."""
    found = discover(root, config.scope())
    if not found.items:  # a mistyped ROOT must not pass as an empty report
        raise PathUnusable(
            f"{root}: nothing to score: no skill (a folder with SKILL.md) or plugin under it"
            + "".join(f"; {note}" for note in found.notes)
        )
    stats = RunStats(items=len(found.items), notes=list(found.notes))
    stats.plugins = sum(1 for i in found.items if i.kind == Kind.PLUGIN)
    stats.skills = stats.items - stats.plugins
    writer = Writer(out, previous, on_item=on_item)
    cache = Cache(cache_dir, config.fingerprint()) if cache_dir is not None else None
    done = 0
    pending: list[Task] = []
    # A cold cache has nothing to look up: workers take the keys from the listings they use.
    cold = cache is not None and cache.empty()
    listings: dict[Path, Listing] = {}  # marketplace entries may share a folder
    for item in found.items:
        task = _task(item)
        entry = None
        if cache is not None and not cold:
            if item.folder not in listings:
                listings[item.folder] = list_folder(item.folder)
            key = item_key(task.kind, task.id, listings[item.folder], task.key_entry, item.folder)
            entry = cache.get(key, item.folder) if key is not None else None
        if entry is not None:
            writer(task, entry.payload, entry.row, entry.stamp)
            done += 1
            if progress:
                progress(done, stats.items)
        else:
            pending.append(task)
    if cold and cache is not None:
        cache.misses += len(pending)
    # Plugins (many skills each) first, so no worker is left with a big one at the end; the
    # order of work changes nothing in the output.
    pending.sort(key=lambda t: t.kind is not Kind.PLUGIN)
    for task, (payload, row, outside, reads, key) in zip(
        pending, _evaluate_all(pending, config, jobs), strict=True
    ):
        writer(task, payload, row, stamp)
        stats.errored += row.errored
        if cache is not None and key is not None and not row.errored:
            cache.put(key, payload, row, outside, reads, stamp)
        done += 1
        if progress:
            progress(done, stats.items)
    if cache is not None:
        stats.cache_hits, stats.cache_misses = cache.hits, cache.misses
        cache.close()
        stats.cache_notes += cache.notes
    _remove_stale(out, writer.index, writer.written)
    writer.save_index()
    stats.errored += writer.errored
    stats.notes += writer.notes
    return writer.rows, stats


def _evaluate_all(tasks: list[Task], config: Config, jobs: int) -> Iterator[Result]:
    if jobs <= 1 or len(tasks) < 2:
        for task in tasks:
            yield evaluate(task, config)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    # Small chunks keep the workers evenly loaded (plugins cost many skills each).
    chunk = max(1, min(4, len(tasks) // (jobs * 64) or 1))
    with context.Pool(jobs, initializer=_init_worker, initargs=(config.model_dump_json(),)) as pool:
        yield from pool.imap(evaluate, tasks, chunksize=chunk)


def _remove_stale(out: Path, before: dict[str, list[Any]], written: dict[str, list[Any]]) -> None:
    """Drop the files a previous run wrote for items that are gone, and nothing else."""
    for rel in sorted(before.keys() - written.keys()):
        path = out / rel
        parts = rel.split("/")
        # Only a file this tool names: one in plugins/, skills/ or badges/ (never a symlink,
        # see Writer), not in a folder below it.
        if (
            len(parts) == 2
            and parts[0] in ("plugins", "skills", "badges")
            and parts[1] not in ("", ".", "..")
            and path.is_file()
        ):
            with contextlib.suppress(OSError):  # a file left behind is not worth a failed run
                path.unlink()


BADGE_COLOURS = {
    "platinum": "#6b7f99",
    "gold": "#c9a227",
    "silver": "#8c8c8c",
    "bronze": "#a0643c",
    "none": "#c0392b",
}


def badge_svg(score: float, badge: str) -> str:
    """A shields-style badge: 'plugin-eval | 87 gold'."""
    left, right = "plugin-eval", f"{score:.0f} {badge}" if badge != "none" else f"{score:.0f}"
    lw, rw = 6 * len(left) + 12, 7 * len(right) + 12
    colour = BADGE_COLOURS.get(badge, "#c0392b")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lw + rw}" height="20" role="img" '
        f'aria-label="{escape(left)}: {escape(right)}">'
        f"<title>{escape(left)}: {escape(right)}</title>"
        f'<rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{rw}" height="20" fill="{colour}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" '
        'font-size="11">'
        f'<text x="{lw / 2:.0f}" y="14">{escape(left)}</text>'
        f'<text x="{lw + rw / 2:.0f}" y="14">{escape(right)}</text></g></svg>\n'
    )


def default_jobs() -> int:
    return max(
        1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )
