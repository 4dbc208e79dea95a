"""The `plugin-eval` command line."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from plugin_eval import __version__
from plugin_eval.config import Config, ConfigError, find_config, load_config, matching_codes
from plugin_eval.engine import DepthUnavailable, check_depth, score_skill
from plugin_eval.findings import Severity
from plugin_eval.montecarlo.settings import BACKENDS, MonteCarloSettings, OptionError, from_options
from plugin_eval.plugin import is_plugin
from plugin_eval.plugin_score import score_plugin
from plugin_eval.report import github as github_report
from plugin_eval.report import html as html_report
from plugin_eval.report import markdown as md_report
from plugin_eval.report import sarif as sarif_report
from plugin_eval.report import text as text_report
from plugin_eval.report.model import (
    BatchReport,
    PluginReport,
    Report,
    build_plugin_report,
    build_report,
    now,
)
from plugin_eval.rules import ALL_RULES, lookup
from plugin_eval.targets import Target, TargetError, resolve
from plugin_eval.vocabulary import Depth

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

app = typer.Typer(
    name="plugin-eval",
    help="Lint and score Agent Skills (SKILL.md folders) and Claude Code plugins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


MC = "Monte Carlo layer (--depth deep or thorough)"


class Output(StrEnum):
    text = "text"
    markdown = "markdown"
    json = "json"
    sarif = "sarif"
    github = "github"
    html = "html"


class FailOn(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"
    none = "none"


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _usage(message: str) -> typer.Exit:
    _err().print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(EXIT_USAGE)


def _version(value: bool) -> None:
    if value:
        print(f"plugin-eval {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Lint and score Agent Skills and Claude Code plugins."""


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for raw in values or [] for v in raw.split(",") if v.strip()]


def _config(paths: list[Path], config_file: Path | None, isolated: bool) -> Config:
    """The settings in force; a broken configuration file is a usage error (exit 2)."""
    if isolated:
        return Config()
    source = config_file or (find_config(paths[0]) if paths else None)
    try:
        return load_config(source)
    except ConfigError as err:
        raise _usage(str(err)) from None


@app.command("score")
def score(
    paths: Annotated[
        list[Path], typer.Argument(help="Skill folders, SKILL.md files or plugin folders.")
    ],
    depth: Annotated[
        Depth,
        typer.Option(help="quick: static layer; deep, thorough: + Monte Carlo (50, 100 runs)."),
    ] = Depth.QUICK,
    output: Annotated[Output, typer.Option("--output", "-o", help="Output format.")] = Output.text,
    threshold: Annotated[
        float | None, typer.Option(min=0, max=100, help="Exit 1 when a composite is below this.")
    ] = None,
    fail_on: Annotated[
        FailOn | None,
        typer.Option(help="Exit 1 when a finding has this severity or worse [default: error]."),
    ] = None,
    explain: Annotated[
        bool, typer.Option(help="Show the evidence behind every sub-score.")
    ] = False,
    select: Annotated[
        list[str] | None,
        typer.Option(help="Only these rules (codes, prefixes or flags; comma-separated)."),
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option(help="Skip these rules (codes, prefixes or flags).")
    ] = None,
    config_file: Annotated[
        Path | None, typer.Option("--config", help="Read settings from this TOML file.")
    ] = None,
    isolated: Annotated[bool, typer.Option(help="Ignore configuration files.")] = False,
    runs: Annotated[
        int | None,
        typer.Option(min=1, help="Runs (default: deep 50, thorough 100).", rich_help_panel=MC),
    ] = None,
    backend: Annotated[
        str | None,
        typer.Option(
            help="offline (default: a lexical router, a simulation; no key, no network), "
            "anthropic or openai.",
            rich_help_panel=MC,
        ),
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name.", rich_help_panel=MC)] = None,
    base_url: Annotated[
        str | None,
        typer.Option(help="API endpoint, e.g. any OpenAI-compatible server.", rich_help_panel=MC),
    ] = None,
    concurrency: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="Calls in flight (default 4).", rich_help_panel=MC),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(min=1, help="Seconds per call (default 60).", rich_help_panel=MC),
    ] = None,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Bypass every cache this command uses (today: the model response cache).",
            rich_help_panel=MC,
        ),
    ] = False,
    max_cost: Annotated[
        float | None,
        typer.Option(
            min=0, help="Stop at this many USD; results marked partial.", rich_help_panel=MC
        ),
    ] = None,
    price: Annotated[
        str | None,
        typer.Option(help="USD per million tokens IN,OUT, e.g. 1,5.", rich_help_panel=MC),
    ] = None,
    ci_width: Annotated[
        float | None,
        typer.Option(
            min=0, max=1, help="Stop once every interval is narrower than this.", rich_help_panel=MC
        ),
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option(
            help="Distractors: the skills under this folder, not the siblings.", rich_help_panel=MC
        ),
    ] = None,
    save_evals: Annotated[
        Path | None,
        typer.Option(
            help="Write the prompts used (.json skill-creator, .yaml cases).", rich_help_panel=MC
        ),
    ] = None,
) -> None:
    """Score skills and list what to fix."""
    try:
        check_depth(depth)
    except DepthUnavailable as err:
        raise _usage(str(err)) from None
    if backend is not None and backend not in BACKENDS:
        raise _usage(f"--backend {backend}: choose {', '.join(BACKENDS)}")
    try:
        monte_carlo = from_options(
            depth.value,
            runs=runs,
            backend=backend,
            model=model,
            base_url=base_url,
            concurrency=concurrency,
            timeout=timeout,
            no_cache=no_cache,
            max_cost=max_cost,
            price=price,
            ci_width=ci_width,
            against=against,
            save_evals=save_evals,
            progress=sys.stderr.isatty(),
        )
        if monte_carlo is not None:
            from plugin_eval.montecarlo.backends import BackendUnavailable, preflight

            try:
                preflight(monte_carlo)
            except BackendUnavailable as err:
                raise OptionError(str(err)) from None
    except OptionError as err:
        raise _usage(str(err)) from None
    config = _config(paths, config_file, isolated)
    overrides: dict[str, object] = {}
    for option, values in (("select", select), ("ignore", ignore)):
        chosen = _split(values)
        unknown = [s for s in chosen if not matching_codes(s)]
        if unknown:
            raise _usage(f"--{option}: '{unknown[0]}' matches no rule (see `plugin-eval rules`)")
        if chosen:
            overrides[option] = chosen if option == "select" else [*config.ignore, *chosen]
    if threshold is not None:
        overrides["threshold"] = threshold
    if fail_on is not None:
        overrides["fail_on"] = fail_on.value
    config = config.model_copy(update=overrides)

    targets: list[Target] = []
    stderr = _err()
    for path in paths:
        try:
            found, notes = resolve(path)
        except TargetError as exc:
            raise _usage(str(exc)) from None
        for note in notes:
            stderr.print(f"[yellow]note:[/] {escape(note)}")
        targets += found
    if not targets:
        raise _usage("nothing to score")
    plugins = [t.display for t in targets if t.kind == "plugin"]
    if plugins and depth is not Depth.QUICK:
        # Said plainly rather than silently scoring the plugin with its static layer only.
        raise _usage(
            f"{plugins[0]}: plugin folders are scored at --depth quick (static layer); for "
            f"--depth {depth.value}, score its skills: {plugins[0]}/skills/NAME"
        )
    if save_evals is not None and len(targets) > 1 and not save_evals.is_dir():
        raise _usage("--save-evals: with several skills, give a folder (one file per skill)")

    stamp = now()
    reports: list[Report] = []
    crashed = False
    said: set[str] = set()
    for target in targets:
        try:
            report = _score_target(
                target, config, depth, stamp, _per_target(monte_carlo, target, stderr)
            )
        except Exception as exc:  # one broken skill never hides the others
            crashed = True
            stderr.print(
                f"[bold red]error:[/] {escape(target.display)}: could not be scored: "
                f"{escape(type(exc).__name__)}: {escape(str(exc))}"
            )
            continue
        reports.append(report)
        for note in report.notes:
            if note not in said:  # the same note for every skill of a batch is said once
                said.add(note)
                stderr.print(f"[yellow]note:[/] {escape(report.path)}: {escape(note)}")

    # Off a terminal, never truncate paths to 80 columns (logs, CI, pipes).
    out = Console(highlight=False, width=None if sys.stdout.isatty() else 240)
    if output is Output.json:
        payload = (
            reports[0]
            if len(reports) == 1 and len(targets) == 1
            else BatchReport(generated_at=stamp, reports=reports)
        )
        sys.stdout.write(payload.model_dump_json(indent=2) + "\n")
    elif output is Output.markdown:
        sys.stdout.write("\n".join(md_report.render(r, explain) for r in reports))
    elif output is Output.sarif:
        sys.stdout.write(sarif_report.render(reports))
    elif output is Output.github:
        sys.stdout.write(github_report.render(reports))
    elif output is Output.html:
        sys.stdout.write(html_report.render(reports))
    else:
        for report in reports:
            text_report.render(out, report, explain)
        text_report.render_summary(out, reports)

    raise typer.Exit(_exit_code(reports, config, crashed))


def _score_target(
    target: Target,
    config: Config,
    depth: Depth,
    stamp: str,
    monte_carlo: MonteCarloSettings | None = None,
) -> Report:
    if target.kind == "plugin":
        return build_plugin_report(
            score_plugin(target.folder, config, target.display, depth), stamp
        )
    return build_report(
        score_skill(target.folder, config, target.display, depth, monte_carlo), stamp
    )


def _per_target(
    settings: MonteCarloSettings | None, target: Target, stderr: Console
) -> MonteCarloSettings | None:
    """The Monte Carlo settings for one target (its own --save-evals file in a folder)."""
    if settings is None:
        return None
    if settings.save_evals is not None and settings.save_evals.is_dir():
        from dataclasses import replace

        return replace(settings, save_evals=settings.save_evals / f"{target.folder.name}.yaml")
    return settings


@app.command("compare")
def compare_command(
    a: Annotated[Path, typer.Argument(help="A skill or plugin folder (A).")],
    b: Annotated[Path | None, typer.Argument(help="Another skill or plugin folder (B).")] = None,
    against: Annotated[
        str | None,
        typer.Option(
            help="Compare A with itself at this git revision (read with git, never checked out)."
        ),
    ] = None,
    output: Annotated[
        Output, typer.Option("--output", "-o", help="text, markdown or json.")
    ] = Output.text,
    config_file: Annotated[
        Path | None, typer.Option("--config", help="Read settings from this TOML file.")
    ] = None,
    isolated: Annotated[bool, typer.Option(help="Ignore configuration files.")] = False,
) -> None:
    """Compare two skills or plugins: scores per dimension with the winner, and findings."""
    import tempfile

    from plugin_eval import compare as cmp

    if output not in (Output.text, Output.markdown, Output.json):
        raise _usage("compare supports --output text, markdown or json")
    if (b is None) == (against is None):
        raise _usage("give two paths (A B), or one path and --against REV")
    config = _config([a], config_file, isolated)
    stamp = now()
    with tempfile.TemporaryDirectory(prefix="plugin-eval-compare-") as tmp:
        try:
            if against is not None:
                copy, shown = cmp.checkout_copy(a, against, Path(tmp))
                # A is the revision, B the work tree: deltas read as "what the change did".
                first, second = _target(copy, shown), _target(a, None)
            else:
                assert b is not None
                first, second = _target(a, None), _target(b, None)
        except cmp.GitError as err:
            raise _usage(f"--against {against}: {err}") from None
        data = cmp.comparison(
            _score_target(first, config, Depth.QUICK, stamp),
            _score_target(second, config, Depth.QUICK, stamp),
        )
    if output is Output.json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    elif output is Output.markdown:
        sys.stdout.write(cmp.render_markdown(data))
    else:
        console = Console(highlight=False, width=None if sys.stdout.isatty() else 240)
        for line in cmp.render_text(data):
            console.print(line, soft_wrap=True)


def _target(path: Path, display: str | None) -> Target:
    try:
        found, _notes = resolve(path)
    except TargetError as exc:
        raise _usage(str(exc)) from None
    target = found[0]
    return Target(target.folder, display or target.display, target.kind)


def _exit_code(reports: list[Report], config: Config, crashed: bool) -> int:
    if crashed:
        return EXIT_FAIL
    if config.threshold is not None and any(r.composite.score < config.threshold for r in reports):
        return EXIT_FAIL
    if config.fail_on != "none":
        floor = Severity(config.fail_on).rank
        if any(Severity(f.severity).rank >= floor for r in reports for f in r.findings):
            return EXIT_FAIL
    return EXIT_OK


@app.command("rules")
def list_rules(
    output: Annotated[Output, typer.Option("--output", "-o")] = Output.text,
) -> None:
    """List every rule with its code, flag and severity."""
    if output not in (Output.text, Output.markdown, Output.json):
        raise _usage(f"rules: --output {output.value} is for `score`; use text, markdown or json")
    if output is Output.json:
        rows = [
            {
                "code": r.code,
                "flag": r.flag,
                "name": r.name,
                "severity": r.severity.value,
                "anti_pattern": r.anti_pattern,
                "subscore": r.subscore,
                "summary": r.summary,
            }
            for r in ALL_RULES
        ]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    if output is Output.markdown:
        lines = ["| code | flag | severity | counts toward | summary |", "|---|---|---|---|---|"]
        for r in ALL_RULES:
            where = "penalty" if r.anti_pattern else r.subscore
            lines.append(
                f"| {r.code} | {r.flag} | {r.severity.value} | {where} | "
                f"{md_report.cell(r.summary)} |"
            )
        sys.stdout.write("\n".join(lines) + "\n")
        return
    console = Console(highlight=False)
    for r in ALL_RULES:
        where = "penalty" if r.anti_pattern else r.subscore
        console.print(f"{r.code}  {r.flag:<28} {r.severity.value:<8} {where}", soft_wrap=True)


@app.command("rule")
def show_rule(
    code: Annotated[str, typer.Argument(help="A code (PE201), flag or rule name.")],
) -> None:
    """Print one rule's documentation."""
    rule = lookup(code)
    if rule is None:
        raise _usage(f"no rule '{code}' (see `plugin-eval rules`)")
    sys.stdout.write(rule.documentation())


@app.command("schema")
def schema(
    batch: Annotated[bool, typer.Option(help="The schema of a multi-skill report.")] = False,
) -> None:
    """Print the JSON Schema of the report."""
    model = BatchReport if batch else Report
    sys.stdout.write(json.dumps(model.model_json_schema(), indent=2) + "\n")


@app.command("report")
def report_command(
    root: Annotated[Path, typer.Argument(help="A marketplace, a tree of plugins and skills.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the report into.")],
    previous: Annotated[
        Path | None, typer.Option(help="Last run's output folder: adds what changed.")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes [default: cores].")
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Score everything again.")] = False,
    cache_dir: Annotated[Path, typer.Option(help="Where the result cache lives.")] = Path(
        ".plugin-eval-cache"
    ),
    sarif: Annotated[bool, typer.Option(help="Also write summary.sarif (SARIF 2.1.0).")] = False,
    html: Annotated[bool, typer.Option(help="Also write report.html.")] = False,
    config_file: Annotated[
        Path | None, typer.Option("--config", help="Read settings from this TOML file.")
    ] = None,
    isolated: Annotated[bool, typer.Option(help="Ignore configuration files.")] = False,
) -> None:
    """Score every plugin and loose skill under ROOT: per-item JSON, summary, badges."""
    from plugin_eval.marketplace import default_jobs, run_report
    from plugin_eval.report import summary as summary_report

    if not root.is_dir():
        raise _usage(f"{root}: not a folder")
    if out.resolve() == root.resolve() or (out / "SKILL.md").exists() or is_plugin(out):
        raise _usage(f"--out {out}: must be a folder of its own, not ROOT, a skill or a plugin")
    if previous is not None and summary_report.load_previous(previous) is None:
        raise _usage(f"--previous {previous}: no readable summary.json there")
    config = _config([root], config_file, isolated)
    stderr = _err()
    stamp = now()
    collected: list[Report] = []

    def keep(_row: dict[str, object], text: str) -> None:
        if (sarif or html) and not _row["errored"]:
            data = json.loads(text)
            model = PluginReport if data.get("kind") == "plugin" else Report
            collected.append(model.model_validate(data))

    started = time.perf_counter()
    with _progress(stderr) as advance:
        rows, stats = run_report(
            root,
            out,
            config,
            jobs or default_jobs(),
            None if no_cache else cache_dir,
            stamp,
            previous,
            advance,
            keep if (sarif or html) else None,
        )
    summary_report.write_summary(
        out,
        rows,
        stamp,
        root.as_posix(),
        stats.notes,
        summary_report.load_previous(previous) if previous else None,
    )
    if sarif:
        (out / "summary.sarif").write_text(sarif_report.render(collected), encoding="utf-8")
    if html:
        (out / "report.html").write_text(html_report.render(collected), encoding="utf-8")
    for note in stats.notes:
        stderr.print(f"[yellow]note:[/] {escape(note)}")
    elapsed = time.perf_counter() - started
    cache_text = (
        "cache off" if no_cache else f"cache {stats.cache_hits} hits, {stats.cache_misses} misses"
    )
    stderr.print(
        f"scored {stats.items} items ({stats.plugins} plugins, {stats.skills} loose skills) in "
        f"{elapsed:.1f} s · {cache_text} · wrote {escape(str(out))}"
    )
    errored = stats.errored
    rows.close()
    raise typer.Exit(EXIT_FAIL if errored else EXIT_OK)


@contextmanager
def _progress(console: Console) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr when it is a terminal; nothing otherwise."""
    if not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("scoring", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def main() -> None:
    app()
