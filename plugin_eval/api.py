"""The run API: everything the command line does, importable.

    from plugin_eval.api import score_paths
    batch = score_paths(["corpus/csv-cleanup"])
    print(batch.reports[0].composite.score)

``score_paths`` scores skills and plugins into a ``Batch`` (reports, what could not be
scored, notes); ``render`` turns a batch into any output format; ``verdict`` says, in words,
what makes the run fail and ``exit_code`` what a script should exit with; ``show_files``
lists what would be scored and what is passed over. ``compare_paths`` and ``report_tree`` do the same for
``plugin-eval compare`` and ``plugin-eval report``. A ``UsageError`` is a problem with the
request itself or a path it names (the command line's exit 2), one line saying what to do.
"""

from __future__ import annotations

import errno
import json
import logging
import os
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from plugin_eval.config import (
    Config,
    ConfigError,
    FailOn,
    find_config,
    load_config,
    not_a_pattern,
    pass_threshold_value,
    selector_problem,
)
from plugin_eval.config_files import unread_config, unread_configs
from plugin_eval.discovery import Scope, discover, is_pattern
from plugin_eval.engine import DepthUnavailable, check_depth, joined, score_skill
from plugin_eval.errors import described
from plugin_eval.findings import Severity
from plugin_eval.output_files import TEMP_PREFIX, TEMP_SUFFIX, PathUnusable, unusable, write_text
from plugin_eval.plugin import MARKETPLACE
from plugin_eval.plugin_score import score_plugin
from plugin_eval.report.formats import RenderOptions, Subject, Verdict
from plugin_eval.report.formats import render as render_format
from plugin_eval.report.model import (
    Batch,
    Failure,
    Report,
    SummaryRow,
    build_plugin_report,
    build_report,
    now,
)
from plugin_eval.targets import Target, TargetError, resolve
from plugin_eval.vocabulary import Depth, Kind
from plugin_eval.walk import kind_of, kind_within

if TYPE_CHECKING:
    from plugin_eval.certify import Certification
    from plugin_eval.marketplace import RunStats
    from plugin_eval.montecarlo.settings import MonteCarloSettings
    from plugin_eval.report.summary import RowStore

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """The request cannot be carried out as asked (exit 2): a bad option, or a path given
    that cannot be used (an output or cache folder that cannot be written, a --previous
    folder that holds no report)."""


class NewSinceRevision(UsageError):
    """`compare --against REV`: the path is not in REV, so there is nothing to compare."""


def configure(
    paths: Sequence[Path | str] | Path | str = (),
    config_file: Path | str | None = None,
    *,
    isolated: bool = False,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    threshold: float | None = None,
    fail_on: str | None = None,
    exclude: Sequence[str] = (),
    respect_gitignore: bool | None = None,
    pass_threshold: float | str | None = None,
    weights: Path | str | None = None,
) -> Config:
    """The settings in force: the configuration file found from the first path (or given),
    with the command line's choices on top.

    ``threshold`` and ``pass_threshold`` set one gate (a pass threshold also gives every
    report seed 003's verdict); given both, they must agree. ``weights`` names a benchmark
    definition whose weights replace seed 002's and whose pass_score is the pass threshold
    unless one is given."""
    paths = _paths(paths)
    config = Config()
    config_file = Path(config_file) if config_file is not None else None
    weights = Path(weights) if weights is not None else None
    if isolated and config_file is not None:
        raise UsageError(
            "--isolated cannot be used with --config: --config names the file to read, "
            "--isolated reads none"
        )
    if fail_on is not None and fail_on not in get_args(FailOn):
        raise UsageError(f"--fail-on: '{fail_on}' is not one of {', '.join(get_args(FailOn))}")
    if not isolated:
        source = config_file or (find_config(Path(paths[0])) if paths else None)
        try:
            config = load_config(source)
        except ConfigError as err:
            raise UsageError(str(err)) from None
    overrides: dict[str, object] = {}
    for option, chosen in (("select", list(select)), ("ignore", list(ignore))):
        for selector in chosen:
            problem = selector_problem(selector, ignoring=option == "ignore")
            if problem is not None:
                raise UsageError(f"--{option}: {problem}")
        if chosen:
            overrides[option] = chosen if option == "select" else [*config.ignore, *chosen]
    overrides.update(_thresholds(config, threshold, pass_threshold, weights))
    if fail_on is not None:
        overrides["fail_on"] = fail_on
    if exclude:
        bad = [pattern for pattern in exclude if not is_pattern(pattern)]
        if bad:
            raise UsageError(f"--exclude: {not_a_pattern(bad[0])}")
        overrides["extend_exclude"] = [*config.extend_exclude, *exclude]
    if respect_gitignore is not None:
        overrides["respect_gitignore"] = respect_gitignore
    return config.model_copy(update=overrides)


def _thresholds(
    config: Config,
    threshold: float | None,
    pass_threshold: float | str | None,
    weights: Path | None,
) -> dict[str, object]:
    """The threshold settings the command line asks for, over the configuration's."""
    given = None
    if pass_threshold is not None:
        try:
            given = pass_threshold_value(pass_threshold)
        except ValueError as err:
            raise UsageError(f"--pass-threshold: {err}") from None
        if threshold is not None and threshold != given:
            named = f"{pass_threshold}"
            if named.strip() != f"{given:g}":
                named += f" ({given:g})"
            raise UsageError(
                f"--threshold {threshold:g} and --pass-threshold {named} differ: they set one "
                "gate (--pass-threshold adds seed 003's verdict); give one"
            )
    out: dict[str, object] = {}
    if weights is not None:
        from plugin_eval import benchmark  # markdown-it for a benchmark file, only when given
        from plugin_eval.scoring.composite import SEED_PASS_SCORE

        try:
            read = benchmark.read(weights)
            out["weights"] = benchmark.scoring_weights(read)
        except benchmark.Unreadable as err:
            raise UsageError(f"--weights {weights}: cannot be read ({err})") from None
        except benchmark.NotScorable as err:
            raise UsageError(
                f"--weights {weights}:{err.problem.line}: {err.problem.message} "
                "(`plugin-eval benchmark validate` lists every problem)"
            ) from None
        if given is None and threshold is None:
            # A table that names no pass score passes at the seed's default line.
            given = read.pass_score if read.pass_score is not None else SEED_PASS_SCORE
    if given is None and threshold is not None:
        # One setting: the command line's value, with the verdict the configuration (or a
        # benchmark file) asked for.
        if config.pass_threshold is None and weights is None:
            return {**out, "threshold": threshold}
        given = threshold
    if given is not None:
        out.update(threshold=None, pass_threshold=given)
    return out


@dataclass
class Resolved:
    """What some paths name: the skills and plugins (each once), notes, the paths that could
    not be read, and what a search passed over with the reason."""

    targets: list[Target]
    notes: list[str]
    failures: list[Failure]
    skipped: list[tuple[str, str]]
    # A folder that is neither a skill nor a plugin was searched: the run is a batch, however
    # many items it found (a script reading the JSON sees one shape for one folder).
    searched: bool = False


def targets_of(paths: Sequence[Path | str], scope: Scope | None = None) -> Resolved:
    """The skills and plugins the paths name. A folder that is neither a skill nor a plugin
    is searched, as `report` searches its root, and so is a plugin folder: the plugin, and
    any skill in it that the plugin does not load (a project's `.claude/skills`, an
    examples folder), which is scored on its own rather than passed over in silence. One
    bad path never stops the others."""
    out = Resolved([], [], [], [])
    seen: set[str] = set()
    for path in paths:
        try:
            targets, said = resolve(Path(path))
            if [t.kind for t in targets] == [Kind.PLUGIN] and Path(path).is_dir():
                targets, said = _search(Path(path), scope, out.skipped)
            elif targets:
                said = [*said, *(unread_config(_near(found)) for found in _unread(targets))]
        except OSError as err:  # a folder below it that cannot be entered
            out.failures.append(Failure(str(path), f"cannot be read ({err.strerror or err})"))
            continue
        except TargetError as exc:
            if exc.missing:
                out.failures.append(Failure(str(path), str(exc).removeprefix(f"{path}: ")))
                continue
            listing = _marketplace_of(Path(path))
            if listing is None and not Path(path).is_dir():
                out.notes.append(f"skipped {exc}")
                continue
            # A marketplace's manifest changed (a hook given changed files): what it lists is
            # what the change can break, so the marketplace is searched as its folder would be.
            targets, said = _search(listing or Path(path), scope, out.skipped)
            out.searched = True
        for target in targets:
            # The same skill named twice is scored once; marketplace entries sharing a folder
            # are told apart by their text.
            key = os.path.abspath(target.folder) + "\0" + (target.entry or "")
            if key not in seen:
                seen.add(key)
                out.targets.append(target)
        out.notes += said
    return out


def _marketplace_of(path: Path) -> Path | None:
    """The marketplace folder whose manifest ``path`` is (``.claude-plugin/marketplace.json``
    as a regular file), else None."""
    if "/".join(path.parts[-2:]) != MARKETPLACE:
        return None
    root = path.parent.parent
    return root if kind_within(root, MARKETPLACE) == "file" else None


def _unread(targets: Sequence[Target]) -> list[Path]:
    """The config files inside the scored folders that are never read (a skill's own, or
    its plugin's), each once."""
    found: dict[Path, None] = {}
    for target in targets:
        found.update(dict.fromkeys(unread_configs(target.folder.resolve())))
    return list(found)


def _near(path: Path) -> str:
    """``path`` as a note shows it: from the working folder when it is below it."""
    shown = os.path.relpath(path)
    return path.as_posix() if shown.startswith("..") else Path(shown).as_posix()


def _search(
    folder: Path, scope: Scope | None, skipped: list[tuple[str, str]]
) -> tuple[list[Target], list[str]]:
    """The skills and plugins under a folder, as `report` finds them; notes when none."""
    found = discover(folder, scope)
    shown = folder.as_posix().rstrip("/") or "/"
    targets = [
        Target(
            item.folder,
            joined(shown, item.rel) if item.rel else shown,
            item.kind,
            item.entry,
            item.entry_at,
        )
        for item in found.items
    ]
    skipped += [(joined(shown, rel), why) for rel, why in found.skipped]
    # Each note opens with a path from the folder searched: shown from where the run is.
    notes = [joined(shown, note) for note in found.notes]
    if not targets:
        passed = ", ".join(f"{joined(shown, rel)} ({why})" for rel, why in found.skipped[:5])
        more = f" and {len(found.skipped) - 5} more" if len(found.skipped) > 5 else ""
        notes.append(
            f"skipped {shown}: no skill (a folder with SKILL.md) or plugin (with "
            f".claude-plugin/plugin.json or .codex-plugin/plugin.json) under it"
            + (f"; passed over {passed}{more}" if passed else "")
        )
    return targets, notes


def _paths(paths: Sequence[Path | str] | Path | str) -> Sequence[Path | str]:
    """A path given alone is that one path: a string is never read as its characters."""
    return [paths] if isinstance(paths, (str, Path)) else paths


def _depth(depth: Depth | str) -> Depth:
    """A depth given as its name ("deep") is that depth; any other value is a usage error, as
    ``--depth`` makes it, before anything is scored."""
    try:
        return Depth(depth)
    except ValueError:
        choices = ", ".join(d.value for d in Depth)
        raise UsageError(f"depth {depth!r}: choose {choices}") from None


def score_paths(
    paths: Sequence[Path | str] | Path | str,
    config: Config | None = None,
    depth: Depth | str = Depth.QUICK,
    monte_carlo: MonteCarloSettings | None = None,
    *,
    generated_at: str | None = None,
    allow_empty: bool = False,
) -> Batch:
    """Score every skill and plugin the paths name; one that crashes is a failure, not an end.
    One path may be given alone (a string or a Path), not only in a list."""
    paths = _paths(paths)
    config = config or Config()
    depth = _depth(depth)
    try:
        check_depth(depth, monte_carlo)
    except DepthUnavailable as err:
        raise UsageError(str(err)) from None
    if monte_carlo is not None:
        _preflight(monte_carlo)
    resolved = targets_of(paths, config.scope())
    targets, notes, failures = resolved.targets, resolved.notes, resolved.failures
    if not targets and not failures and not allow_empty:
        raise UsageError("nothing to score" + "".join(f"; {note}" for note in notes))
    save = monte_carlo.save_evals if monte_carlo is not None else None
    if save is not None and len(targets) > 1 and not save.is_dir():
        raise UsageError("--save-evals: with several skills, give a folder (one file per skill)")
    if save is not None and not save.is_dir() and (problem := output_problem(save)) is not None:
        raise UsageError(f"--save-evals {save}: cannot be written ({problem})")
    stamp = generated_at or now()
    reports: list[Report] = []
    said = set(notes)
    for target in targets:
        item_depth = depth
        if target.kind == Kind.PLUGIN and depth is not Depth.QUICK:
            # Said plainly, per plugin, rather than silently scoring only its static layer.
            item_depth = Depth.QUICK
            notes.append(
                f"{target.display}: plugin folders are scored at depth quick (static layer); "
                f"for --depth {depth}, score its skills: {target.display}/skills/NAME"
            )
        try:
            report = score_target(
                target, config, item_depth, stamp, _per_target(monte_carlo, target)
            )
        except Exception as exc:  # one broken skill never hides the others
            logging.getLogger("plugin_eval").debug(
                "%s could not be scored", target.display, exc_info=True
            )
            failures.append(Failure(target.display, described(exc)))
            continue
        reports.append(report)
        for note in report.notes:
            if note not in said:  # the same note for every skill of a batch is said once
                said.add(note)
                notes.append(f"{report.path}: {note}")
    single = len(paths) == 1 and len(targets) == 1 and not resolved.searched
    return Batch(stamp, tuple(reports), tuple(failures), tuple(notes), single=single)


def score_target(
    target: Target,
    config: Config,
    depth: Depth = Depth.QUICK,
    stamp: str | None = None,
    monte_carlo: MonteCarloSettings | None = None,
) -> Report:
    """The report of one skill or plugin."""
    stamp = stamp or now()
    if target.kind == Kind.PLUGIN:
        manifest = json.loads(target.entry) if target.entry else None
        return build_plugin_report(
            score_plugin(target.folder, config, target.display, depth, manifest, target.entry_at),
            stamp,
            config.pass_threshold,
        )
    return build_report(
        score_skill(target.folder, config, target.display, depth, monte_carlo),
        stamp,
        config.pass_threshold,
    )


def show_files(paths: Sequence[Path | str] | Path | str, config: Config | None = None) -> list[str]:
    """What `score` would score and what it would pass over, and why, one line each."""
    resolved = targets_of(_paths(paths), (config or Config()).scope())
    lines = [f"score  {t.display}  ({t.kind})" for t in resolved.targets]
    lines += [f"skip   {path}  ({why})" for path, why in resolved.skipped]
    lines += [f"note   {note}" for note in resolved.notes]
    lines += [f"error  {f.path}: {f.error}" for f in resolved.failures]
    return lines


def _preflight(settings: MonteCarloSettings) -> None:
    """A model backend that cannot start (no SDK, no key) is said before anything runs."""
    from plugin_eval.montecarlo.backends import preflight
    from plugin_eval.montecarlo.backends.base import BackendUnavailable

    try:
        preflight(settings)
    except BackendUnavailable as err:
        raise UsageError(str(err)) from None


def _per_target(settings: MonteCarloSettings | None, target: Target) -> MonteCarloSettings | None:
    """The Monte Carlo settings for one target (its own --save-evals file in a folder)."""
    if settings is None or settings.save_evals is None or not settings.save_evals.is_dir():
        return settings
    return replace(settings, save_evals=settings.save_evals / f"{target.folder.name}.yaml")


def render(
    data: object, output: str, subject: Subject = "batch", options: RenderOptions | None = None
) -> str:
    """``data`` (a ``Batch``, a comparison, or rules) in output format ``output``."""
    return render_format(output, subject, data, options or RenderOptions())


def output_problem(path: Path) -> str | None:
    """Why an output file cannot be written at ``path``, when that shows before any work:
    a symlink, FIFO or device there (a rename would replace it, not write through it), a
    file where one of its folders should be, or a folder that cannot be written."""
    kind = kind_of(path)
    if kind == "link":
        return "it is a symlink; give the path of a regular file"
    if kind == "dir":
        return "it is a folder; give a file name"
    if kind == "other":
        return "it is a FIFO, socket or device, not a regular file"
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return os.strerror(errno.ENOTDIR)
    if not os.access(parent, os.W_OK | os.X_OK):
        return os.strerror(errno.EACCES)
    return _cannot_create_in(parent)


def _cannot_create_in(folder: Path) -> str | None:
    """Why a file cannot be made in ``folder``, found by making one (the temporary name a
    write uses) and removing it: permissions do not tell, for root or on a file system that
    takes no files (/proc) or is mounted read-only."""
    probe = folder / f"{TEMP_PREFIX}{os.getpid()}-probe{TEMP_SUFFIX}"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except FileExistsError:
        return None  # one is there: files can be made (it is left to its maker)
    except OSError as err:
        return err.strerror or str(err)
    with suppress(OSError):
        os.unlink(probe)
    return None


def write_output(path: Path, text: str) -> None:
    """Write to a temporary file beside ``path`` and rename: never a half-written file, and
    never in place of a symlink or a special file (``output_problem``)."""
    problem = output_problem(path)
    if problem is not None:
        raise OSError(0, problem, str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where one of the folders should be
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path)) from None
    write_text(path, text)


def verdict(batch: Batch, config: Config) -> Verdict:
    """What makes the run fail: paths that could not be scored, composites under the
    threshold, findings at ``fail_on`` or worse (``.reasons()`` says it in words)."""
    threshold = config.gate
    below = (
        sum(r.composite.score < threshold for r in batch.reports) if threshold is not None else 0
    )
    found = 0
    if config.fail_on != "none":
        floor = Severity(config.fail_on).rank
        found = sum(Severity(f.severity).rank >= floor for r in batch.reports for f in r.findings)
    return Verdict(len(batch.failures), threshold, below, found, config.fail_on)


def exit_code(batch: Batch, config: Config) -> int:
    """1 when something could not be scored, a composite is under the threshold, or a
    finding is at ``fail_on`` or worse; 0 otherwise."""
    return EXIT_FAIL if verdict(batch, config).failed else EXIT_OK


def compare_paths(
    a: Path | str,
    b: Path | str | None = None,
    against: str | None = None,
    config: Config | None = None,
) -> dict[str, Any]:
    """Two items scored at depth quick, side by side; or one item against a git revision."""
    a = Path(a)
    b = Path(b) if b is not None else None
    import tempfile  # here: only a comparison needs it, and no other module of a run loads it

    from plugin_eval import compare as cmp

    if (b is None) == (against is None):
        raise UsageError("give two paths (A B), or one path and --against REV")
    config = config or Config()
    stamp = now()
    with tempfile.TemporaryDirectory(prefix="plugin-eval-compare-") as tmp:
        try:
            if against is not None:
                copy, shown = cmp.checkout_copy(a, against, Path(tmp))
                # A is the revision, B the work tree: deltas read as "what the change did".
                first, second = _one_target(copy, shown), _one_target(a, None)
                # The copy is configured as the folder it was read from (per-path-ignores).
                folder = a if a.is_dir() else a.parent
                config_a = config.model_copy(
                    update={"stand_in": (os.path.abspath(copy), os.path.abspath(folder))}
                )
            else:
                assert b is not None
                first, second = _one_target(a, None), _one_target(b, None)
                config_a = config
        except cmp.NewSinceRevision as err:
            raise NewSinceRevision(f"--against {against}: {err}") from None
        except cmp.GitError as err:
            raise UsageError(f"--against {against}: {err}") from None
        return cmp.comparison(
            score_target(first, config_a, Depth.QUICK, stamp),
            score_target(second, config, Depth.QUICK, stamp),
        )


def _one_target(path: Path, display: str | None) -> Target:
    """The one skill or plugin a side of a comparison names: the path itself, or the only
    item of a folder searched; a folder of several is a usage error that names them."""
    try:
        direct, _ = resolve(path)
    except TargetError:
        direct = []
    resolved = Resolved(direct, [], [], []) if direct else targets_of([path])

    def said(text: str) -> str:
        # A copy read from git is named as the revision it holds ('skills@HEAD'), never by
        # the temporary folder it is in, gone by the time the message is read.
        return text.replace(str(path), display) if display else text

    if not resolved.targets:
        failures, notes = resolved.failures, resolved.notes
        raise UsageError(said(f"{failures[0].path}: {failures[0].error}" if failures else notes[0]))
    if len(resolved.targets) > 1:
        shown = ", ".join(t.display for t in resolved.targets[:5])
        more = f" and {len(resolved.targets) - 5} more" if len(resolved.targets) > 5 else ""
        raise UsageError(
            said(
                f"{path}: holds {len(resolved.targets)} skills and plugins ({shown}{more}); "
                "compare one with one: give the folder of each"
            )
        )
    target = resolved.targets[0]
    return replace(target, display=display or target.display)


@dataclass
class ReportRun:
    """What `report_tree` did: the rows it wrote (on disk) and its statistics."""

    rows: RowStore
    stats: RunStats
    out: Path
    # Items under the pass threshold (seed 003), when one applies.
    failed: int = 0


def report_tree(
    root: Path,
    out: Path,
    config: Config | None = None,
    *,
    jobs: int | None = None,
    cache_dir: Path | None = Path(".plugin-eval-cache"),
    previous: Path | None = None,
    sarif: bool = False,
    html: bool = False,
    progress: Callable[[int, int], None] | None = None,
    history: Path | None = None,
) -> ReportRun:
    """Score every plugin and loose skill under ``root`` into ``out``: per-item JSON,
    summary.json and summary.md, badges, and SARIF or HTML when asked. ``history``: a folder
    of earlier runs' summary.json files, whose trend report.html draws."""
    from plugin_eval.marketplace import default_jobs, run_report
    from plugin_eval.plugin import is_plugin
    from plugin_eval.report import summary as summary_report

    if not root.is_dir():
        raise UsageError(f"{root}: {'not a folder' if root.exists() else 'no such folder'}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: is a file; give a folder (it is created if missing)")
    if out.resolve() == root.resolve() or (out / "SKILL.md").exists() or is_plugin(out):
        raise UsageError(f"--out {out}: must be a folder of its own, not ROOT, a skill or a plugin")
    if history is not None and not html:
        raise UsageError("--history: the trend is drawn in report.html; add --html")
    said: list[str] = []
    try:
        last_run = summary_report.previous_run(previous, said) if previous is not None else None
    except summary_report.PreviousUnusable as err:
        raise UsageError(
            f"--previous {previous}: {err}; give the output folder of an earlier report"
        ) from None
    last = last_run.rows if last_run is not None else None
    try:
        earlier = summary_report.load_history(history, said) if history is not None else []
    except summary_report.PreviousUnusable as err:
        raise UsageError(
            f"--history {history}: {err}; give a folder of earlier runs' summary.json files"
        ) from None
    config = config or Config()
    stamp = now()
    collected: list[Report] = []
    keep = _collector(collected) if (sarif or html) else None
    try:
        rows, stats = run_report(
            root, out, config, jobs or default_jobs(), cache_dir, stamp, previous, progress, keep
        )
    except PathUnusable as err:
        raise UsageError(str(err)) from None
    stats.notes += said
    # Items arrive as they are found in the cache or finish scoring: put in one order, so
    # that SARIF and HTML are the same bytes whatever the cache held.
    collected.sort(key=lambda r: (r.path, r.kind, r.name or ""))
    # Each file is written whole (a temporary file renamed into place), never half.
    try:
        header, summary = summary_report.write_summary(
            out, rows, stamp, root.as_posix(), stats.notes, last, config.pass_threshold
        )
        if sarif:
            # Paths from the folder plugin-eval runs in, as `score -o sarif` writes them.
            where = Path(os.path.relpath(root)).as_posix()
            rebased = Batch(stamp, tuple(_rebased(r, where) for r in collected))
            write_text(out / "summary.sarif", render(rebased, "sarif"))
        if html:
            from plugin_eval.report.html import Tree, render_tree

            runs = summary_report.trend(
                [*earlier, *([last_run] if last_run is not None else [])],
                summary_report.run_of(header, rows),
            )
            tree = Tree(header, collected, summary.errors.rows(), summary.listed, runs)
            write_text(out / "report.html", render_tree(tree))
    except OSError as err:
        raise UsageError(str(unusable("--out", out, err))) from None
    return ReportRun(rows, stats, out, summary.failed)


def _rebased(report: Report, where: str) -> Report:
    """The report with its path and its findings' paths joined to ``where``."""
    findings = [f.model_copy(update={"path": joined(where, f.path)}) for f in report.findings]
    return report.model_copy(update={"path": joined(where, report.path), "findings": findings})


def _collector(into: list[Report]) -> Callable[[SummaryRow, str], None]:
    """Keeps the full report of each item scored, for the outputs that need them all."""
    from plugin_eval.report.model import PluginReport

    def keep(row: SummaryRow, text: str) -> None:
        if not row.errored:
            data = json.loads(text)
            model = PluginReport if data.get("kind") == "plugin" else Report
            into.append(model.model_validate(data))

    return keep


def certify_path(
    path: Path | str,
    settings: MonteCarloSettings | None,
    out: Path | None = Path("plugin-eval-certificate"),
    config: Config | None = None,
    *,
    generated_at: str | None = None,
) -> Certification:
    """Certify one skill: depth thorough with a model backend, and its certificate written to
    ``out`` (text, Markdown, JSON and an SVG badge; nothing written when ``out`` is None).
    Everything that makes the request unusable is said before any call is made."""
    from plugin_eval import certify
    from plugin_eval.report.certificate import files

    if settings is None or settings.backend == "offline":
        raise UsageError(certify.OFFLINE)
    config = config or Config()
    resolved = targets_of([path], config.scope())
    if resolved.failures:
        raise UsageError(f"{resolved.failures[0].path}: {resolved.failures[0].error}")
    try:
        target = certify.one_skill(resolved.targets, Path(path).as_posix())
        if out is not None:
            certify.check_out(out, target.folder)
    except certify.Refused as err:
        raise UsageError(str(err)) from None
    _preflight(settings)
    own = _per_target(settings, target)  # its own --save-evals file in a folder
    assert own is not None
    done = certify.certify(target, config, own, generated_at or now())
    if out is not None:
        try:
            for name, text in files(done.certificate).items():
                write_output(out / name, text)
        except OSError as err:
            raise UsageError(str(unusable("--out", out, err))) from None
    return done
