"""The `plugin-eval` command line: argument parsing only; the work is in `plugin_eval.api`."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import replace
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError, NoSuchOption, UsageError

from plugin_eval import __version__, api
from plugin_eval.report.formats import RenderOptions, Subject, names
from plugin_eval.report.neutral import command_free, terminal, visible
from plugin_eval.vocabulary import Depth

if TYPE_CHECKING:
    from rich.console import Console

    from plugin_eval.montecarlo.settings import MonteCarloSettings

    BatchFormat = str
    ListFormat = str
else:  # the choices of --output come from the one table of formats
    BatchFormat = Literal[names("batch")]
    ListFormat = Literal[names("comparison")]

FailOn = Literal["error", "warning", "info", "none"]
MC = "Monte Carlo layer (--depth deep or thorough)"

app = typer.Typer(
    name="plugin-eval",
    help="Lint and score Agent Skills (SKILL.md folders) and Claude Code plugins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

OutputFiles = Annotated[
    list[str] | None,
    typer.Option(
        "--output-file",
        metavar="FORMAT=PATH",
        help="Also write this format to PATH (repeatable), from the same run.",
    ),
]
ConfigFile = Annotated[
    Path | None, typer.Option("--config", help="Read settings from this TOML file.")
]
Isolated = Annotated[bool, typer.Option(help="Ignore configuration files.")]
Exclude = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="PATTERN",
        help="Also leave out what this gitignore-style pattern matches when searching a "
        "folder (repeatable).",
    ),
]
RespectGitignore = Annotated[
    bool | None,
    typer.Option(
        "--respect-gitignore/--no-respect-gitignore",
        help="Leave out what .gitignore files ignore when searching (default: respect).",
        show_default=False,
    ),
]
ShowFiles = Annotated[
    bool,
    typer.Option(
        "--show-files", help="List what would be scored and what is passed over, and why."
    ),
]
Debug = Annotated[
    bool,
    typer.Option(
        "--debug", envvar="PLUGIN_EVAL_DEBUG", help="Log internal errors with their traceback."
    ),
]

MODEL = "Model layers: the judge (--depth standard and deeper) and Monte Carlo"
Runs = Annotated[
    int | None,
    typer.Option(min=1, help="Runs (default: deep 50, thorough 100).", rich_help_panel=MC),
]
BackendOption = Annotated[
    str | None,
    typer.Option(
        "--backend",
        help="offline (default: a lexical router, a simulation; no key, no network; no judge), "
        "anthropic or openai.",
        rich_help_panel=MODEL,
    ),
]
# certify needs a model: it has no offline default.
CertifyRuns = Annotated[
    int | None,
    typer.Option(min=1, help="Runs (default 50; 100 or more for Certified+).", rich_help_panel=MC),
]
CertifyBackend = Annotated[
    str | None,
    typer.Option("--backend", help="anthropic or openai (required).", rich_help_panel=MODEL),
]
ModelOption = Annotated[
    str | None, typer.Option("--model", help="Model name.", rich_help_panel=MODEL)
]
BaseUrl = Annotated[
    str | None,
    typer.Option(
        "--base-url", help="API endpoint, e.g. any OpenAI-compatible server.", rich_help_panel=MODEL
    ),
]
Concurrency = Annotated[
    int | None,
    typer.Option(
        "--concurrency", min=1, max=64, help="Calls in flight (default 4).", rich_help_panel=MODEL
    ),
]
Timeout = Annotated[
    float | None,
    typer.Option("--timeout", min=1, help="Seconds per call (default 60).", rich_help_panel=MODEL),
]
NoCache = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        help="Bypass every cache this command uses (today: the model response cache).",
        rich_help_panel=MODEL,
    ),
]
MaxCost = Annotated[
    float | None,
    typer.Option(
        "--max-cost",
        min=0,
        help="Stop at this many USD (judge first); results marked partial.",
        rich_help_panel=MODEL,
    ),
]
Price = Annotated[
    str | None,
    typer.Option("--price", help="USD per million tokens IN,OUT, e.g. 1,5.", rich_help_panel=MODEL),
]
Judges = Annotated[
    int | None,
    typer.Option(
        "--judges",
        help="Independent judgements per skill (default 3).",
        rich_help_panel=MODEL,
    ),
]
JudgeModels = Annotated[
    list[str] | None,
    typer.Option(
        "--judge-model",
        help="A model for the judges, taken in turn (repeatable; default: --model).",
        rich_help_panel=MODEL,
    ),
]
CiWidth = Annotated[
    float | None,
    typer.Option(
        "--ci-width",
        min=0,
        max=1,
        help="Stop once every interval is narrower than this.",
        rich_help_panel=MC,
    ),
]
Against = Annotated[
    Path | None,
    typer.Option(
        "--against",
        help="Distractors: the skills under this folder, not the siblings.",
        rich_help_panel=MC,
    ),
]
SaveEvals = Annotated[
    Path | None,
    typer.Option(
        "--save-evals",
        help="Write the prompts used (.json skill-creator, .yaml cases).",
        rich_help_panel=MC,
    ),
]


PassThreshold = Annotated[
    str | None,
    typer.Option(
        "--pass-threshold",
        metavar="N|elite|industry",
        help="Seed 003's pass threshold: a number 0–100, or elite (85) or industry (65). "
        "Exit 1 when a composite is below it, and give every report the "
        "seed's verdict ([RESULT: PASS] / [RESULT: FAIL]).",
        show_default=False,
    ),
]


def _err() -> Console:
    """A Rich console on stderr (Rich is imported here: a run with nothing to say needs none)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)


def _model_settings(
    depth: Depth, *, backend: str | None, **options: Any
) -> MonteCarloSettings | None:
    """The model layers' settings from the command's options; a bad one is a usage error."""
    if (
        depth is Depth.QUICK
        and backend is None
        and all(value is None or value is False or value == () for value in options.values())
    ):
        # Quick, and no model option given (their defaults: None, False, no models): no layer
        # needs settings and none goes unused, so the settings module is not even loaded.
        return None
    from plugin_eval.montecarlo.settings import BACKENDS, OptionError, from_options

    if backend is not None and backend not in BACKENDS:
        raise api.UsageError(f"--backend {backend}: choose {', '.join(BACKENDS)}")
    try:
        return from_options(depth, backend=backend, progress=sys.stderr.isatty(), **options)
    except OptionError as err:
        raise api.UsageError(str(err)) from None


def _usage(message: str) -> typer.Exit:
    _err().print(f"[bold red]error:[/] {terminal(message)}")
    return typer.Exit(api.EXIT_USAGE)


def _listing_only(output: str, files: Sequence[tuple[str, Path]]) -> None:
    """--show-files prints a listing, not a report: a report format or file asked with it
    would go unwritten, so asking for one is a usage error."""
    if output != "text" or files:
        given = "--output-file" if files else f"--output {output}"
        raise api.UsageError(f"--show-files prints a listing as text: leave out {given}")


def _version(value: bool) -> None:
    if value:
        _write(f"plugin-eval {__version__}\n")
        raise typer.Exit(api.EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Lint and score Agent Skills and Claude Code plugins."""


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever stderr is when a record is emitted (tests swap it)."""

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


class _Neutral(logging.Formatter):
    """A record's lines (a traceback's too) kept as lines, each with nothing that could act."""

    def format(self, record: logging.LogRecord) -> str:
        return command_free("\n".join(map(visible, super().format(record).split("\n"))))


def _listing(lines: list[str]) -> str:
    """--show-files: one line per path, whatever the path holds."""
    return "".join(visible(line) + "\n" for line in lines)


def _debug(enabled: bool) -> None:
    """With --debug, internal errors are logged on stderr with their traceback."""
    log = logging.getLogger("plugin_eval")
    for old in [h for h in log.handlers if isinstance(h, _Stderr)]:
        log.removeHandler(old)  # a command run in-process after one with --debug is quiet
    log.setLevel(logging.NOTSET)
    if not enabled:
        return
    handler = _Stderr()
    handler.setFormatter(_Neutral("debug: %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for raw in values or [] for v in raw.split(",") if v.strip()]


def _files(specs: list[str] | None, subject: Subject) -> list[tuple[str, Path]]:
    """FORMAT=PATH pairs, each format one that can render the command's subject."""
    choices = names(subject)
    out: list[tuple[str, Path]] = []
    for spec in specs or []:
        name, sep, path = spec.partition("=")
        if not sep or not path or name not in choices:
            raise _usage(
                f"--output-file {spec}: write FORMAT=PATH, FORMAT one of {', '.join(choices)}"
            )
        problem = api.output_problem(Path(path))
        if problem is not None:  # said before anything is scored
            raise _usage(f"--output-file {spec}: cannot be written ({problem})")
        same = [f"{other}={p}" for other, p in out if os.path.abspath(p) == os.path.abspath(path)]
        if same:  # the second would replace the first, and one report would be lost
            raise _usage(
                f"--output-file {spec}: {path} is also given to {same[0]}; give each format a "
                "file of its own"
            )
        out.append((name, Path(path)))
    return out


def _emit(
    data: object,
    subject: Subject,
    output: str,
    files: list[tuple[str, Path]],
    options: RenderOptions | None = None,
) -> None:
    """Render once per format asked: to standard output (text at the terminal's width, with
    colour, when it is one), and to each --output-file."""
    options = options or RenderOptions()
    terminal = sys.stdout is not None and sys.stdout.isatty()
    shown = options
    if terminal:
        from rich.console import Console

        shown = replace(options, width=Console().width, colour=True)
    _write(api.render(data, output, subject, shown))
    for name, path in files:
        text = api.render(data, name, subject, options)
        try:
            api.write_output(path, text)
        except OSError as err:
            raise _usage(
                f"--output-file {name}={path}: cannot be written ({err.strerror or err}); "
                "give a path plugin-eval can write"
            ) from None


def _write_all(parts: Iterator[str], size: int = 64 * 1024) -> None:
    """Write text made in parts as it comes, some KB at a time."""
    held: list[str] = []
    length = 0
    for part in parts:
        held.append(part)
        length += len(part)
        if length >= size:
            _write("".join(held))
            held, length = [], 0
    _write("".join(held))


def _write(text: str) -> None:
    """Write to standard output; one error line (exit 2) when it cannot take the text."""
    try:
        if sys.stdout is None:
            raise OSError(0, "it is closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise  # the reader stopped reading (`| head`): click ends quietly
    except OSError as err:
        # Text left in the buffer would fail again, as a traceback, when Python exits.
        with suppress(AttributeError, OSError, ValueError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
        raise _usage(
            f"standard output: cannot be written ({err.strerror or err}); redirect it to a "
            "file or device that can take it"
        ) from None


def _reserve_standard_streams() -> None:
    """A standard stream closed at start (`>&-`) gets /dev/null, so that no file opened later
    takes its number (where a child process, or a stray write, would land). A closed
    standard output stays closed for Python: writing a result there is an error."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:  # nobody reads what goes there; nothing fails for writing it
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


@app.command("score")
def score(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Skills, SKILL.md files, plugins, or folders to search for them (default: .).",
            metavar="PATH",
            # Checked per path, so that one unreadable path is reported for itself and the
            # others are still scored (click's own check would stop the run).
            readable=False,
        ),
    ] = None,
    depth: Annotated[
        Depth,
        typer.Option(
            help="quick: static layer; standard: + judge; deep, thorough: + judge and Monte "
            "Carlo (50, 100 runs)."
        ),
    ] = Depth.QUICK,
    output: Annotated[BatchFormat, typer.Option("--output", "-o", help="Output format.")] = "text",
    output_file: OutputFiles = None,
    threshold: Annotated[
        float | None, typer.Option(min=0, max=100, help="Exit 1 when a composite is below this.")
    ] = None,
    pass_threshold: PassThreshold = None,
    weights: Annotated[
        Path | None,
        typer.Option(
            "--weights",
            metavar="FILE.md",
            help="Score with the dimension weights of a benchmark definition (seed 003's "
            "format; `plugin-eval benchmark export` writes plugin-eval's own); its pass_score "
            "is the pass threshold unless one is given.",
        ),
    ] = None,
    fail_on: Annotated[
        FailOn | None,
        typer.Option(
            help="Exit 1 when a finding has this severity or worse (default: error).",
            case_sensitive=False,
        ),
    ] = None,
    explain: Annotated[
        bool, typer.Option(help="Show the evidence behind every sub-score.")
    ] = False,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics",
            help="Text output: one line per rule code with its count, instead of the report.",
        ),
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Text output: the findings only, no score tables or summary."
        ),
    ] = False,
    select: Annotated[
        list[str] | None,
        typer.Option(help="Only these rules (codes, prefixes or flags; comma-separated)."),
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option(help="Skip these rules (codes, prefixes or flags).")
    ] = None,
    config_file: ConfigFile = None,
    isolated: Isolated = False,
    exclude: Exclude = None,
    respect_gitignore: RespectGitignore = None,
    show_files: ShowFiles = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="Exit 0 when the paths hold nothing to score (for hooks given changed files).",
        ),
    ] = False,
    debug: Debug = False,
    runs: Runs = None,
    backend: BackendOption = None,
    model: ModelOption = None,
    base_url: BaseUrl = None,
    concurrency: Concurrency = None,
    timeout: Timeout = None,
    no_cache: NoCache = False,
    max_cost: MaxCost = None,
    price: Price = None,
    judges: Judges = None,
    judge_model: JudgeModels = None,
    ci_width: CiWidth = None,
    against: Against = None,
    save_evals: SaveEvals = None,
) -> None:
    """Score skills and list what to fix."""
    _debug(debug)
    paths = paths or [Path(".")]
    files = _files(output_file, "batch")
    try:
        monte_carlo = _model_settings(
            depth,
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
            judges=judges,
            judge_models=tuple(judge_model or ()),
        )
        config = api.configure(
            paths,
            config_file,
            isolated=isolated,
            select=_split(select),
            ignore=_split(ignore),
            threshold=threshold,
            fail_on=fail_on,
            exclude=exclude or (),
            respect_gitignore=respect_gitignore,
            pass_threshold=pass_threshold,
            weights=weights,
        )
        if show_files:
            _listing_only(output, files)
            _write(_listing(api.show_files(paths, config)))
            raise typer.Exit(api.EXIT_OK)
        batch = api.score_paths(paths, config, depth, monte_carlo, allow_empty=allow_empty)
    except api.UsageError as err:
        raise _usage(str(err)) from None
    if batch.notes or batch.failures:
        stderr = _err()
        for note in batch.notes:
            stderr.print(f"[yellow]note:[/] {terminal(note)}")
        for failure in batch.failures:
            stderr.print(
                f"[bold red]error:[/] {terminal(failure.path)}: could not be scored: "
                f"{terminal(failure.error)}"
            )
    verdict = api.verdict(batch, config)
    options = RenderOptions(explain=explain, verdict=verdict, statistics=statistics, quiet=quiet)
    _emit(batch, "batch", output, files, options)
    raise typer.Exit(api.EXIT_FAIL if verdict.failed else api.EXIT_OK)


@app.command("compare")
def compare_command(
    a: Annotated[Path, typer.Argument(help="A skill or plugin folder (A).", metavar="A")],
    b: Annotated[
        Path | None, typer.Argument(help="Another skill or plugin folder (B).", metavar="B")
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            help="Compare A with itself at this git revision (read with git, never checked out)."
        ),
    ] = None,
    output: Annotated[ListFormat, typer.Option("--output", "-o", help="Output format.")] = "text",
    output_file: OutputFiles = None,
    max_drop: Annotated[
        float | None,
        typer.Option(
            min=0,
            metavar="POINTS",
            help="Exit 1 when B's composite is more than POINTS below A's (0: any drop), for "
            "a CI job that guards a change (default: exit 0 whatever the scores).",
        ),
    ] = None,
    config_file: ConfigFile = None,
    isolated: Isolated = False,
    debug: Debug = False,
) -> None:
    """Compare two skills or plugins: scores per dimension with the winner, and findings."""
    _debug(debug)
    files = _files(output_file, "comparison")
    try:
        config = api.configure([a], config_file, isolated=isolated)
        data = api.compare_paths(a, b, against, config)
    except api.NewSinceRevision as err:
        if max_drop is None:
            raise _usage(str(err)) from None
        # A guard on a change that adds the skill: nothing dropped, so nothing fails.
        _err().print(f"[yellow]note:[/] {terminal(str(err))}: new, so nothing can have dropped")
        raise typer.Exit(api.EXIT_OK) from None
    except api.UsageError as err:
        raise _usage(str(err)) from None
    _emit(data, "comparison", output, files)
    drop = float(data["a"]["score"]) - float(data["b"]["score"])
    if max_drop is not None and drop > max_drop:
        _err().print(f"exit 1: B's composite is {drop:.2f} below A's (--max-drop {max_drop:g})")
        raise typer.Exit(api.EXIT_FAIL)


@app.command("rules")
def list_rules(
    codes: Annotated[
        list[str] | None,
        typer.Argument(
            help="Codes (PE201), prefixes (PE2), flags or rule names: print these rules' "
            "documentation, as `plugin-eval rule` does, instead of the list (with -o json: "
            "their entries).",
            show_default=False,
            metavar="CODE",
        ),
    ] = None,
    output: Annotated[ListFormat, typer.Option("--output", "-o", help="Output format.")] = "text",
    output_file: OutputFiles = None,
) -> None:
    """List every rule with its code, flag and severity (`plugin-eval rule CODE` explains one)."""
    from plugin_eval.rules import ALL_RULES, lookup

    if codes:
        from plugin_eval.config import matching_codes

        chosen = []
        unknown = []
        for code in codes:
            rule = lookup(code)
            # A prefix (PE2) names every rule it starts, as --select and --ignore read it.
            named = (
                [rule]
                if rule is not None
                else [r for r in ALL_RULES if r.code in matching_codes(code)]
            )
            if not named:
                unknown.append(code)
            chosen += [r for r in named if r not in chosen]
        if unknown:
            raise _usage(f"no rule {', '.join(map(repr, unknown))} (see `plugin-eval rules`)")
        if output != "json":  # the documentation is Markdown: as text and as markdown
            _write("\n".join(rule.documentation() for rule in chosen))
            return
        _emit(tuple(chosen), "rules", output, _files(output_file, "rules"))
        return
    _emit(ALL_RULES, "rules", output, _files(output_file, "rules"))


@app.command("rule")
def show_rule(
    code: Annotated[str, typer.Argument(help="A code (PE201), flag or rule name.", metavar="CODE")],
) -> None:
    """Print one rule's documentation."""
    from plugin_eval.rules import lookup

    rule = lookup(code)
    if rule is None:
        raise _usage(f"no rule '{code}' (see `plugin-eval rules`)")
    _write(rule.documentation())


@app.command("schema")
def schema(
    batch: Annotated[bool, typer.Option(help="The schema of a multi-skill report.")] = False,
    row: Annotated[
        bool, typer.Option(help="The schema of one row of a marketplace report's summary.json.")
    ] = False,
    certificate: Annotated[
        bool, typer.Option(help="The schema of certificate.json (plugin-eval certify).")
    ] = False,
) -> None:
    """Print the JSON Schema of the report."""
    import json

    from pydantic import BaseModel

    from plugin_eval.report.certificate import Certificate
    from plugin_eval.report.model import BatchReport, Report, SummaryRow

    if batch + row + certificate > 1:
        raise _usage("give one of --batch, --row and --certificate")
    model: type[BaseModel] = (
        Certificate if certificate else SummaryRow if row else BatchReport if batch else Report
    )
    _write(json.dumps(model.model_json_schema(), indent=2) + "\n")


@app.command("report")
def report_command(
    root: Annotated[
        Path, typer.Argument(help="A marketplace, a tree of plugins and skills.", metavar="ROOT")
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the report into.")],
    previous: Annotated[
        Path | None, typer.Option(help="Last run's output folder: adds what changed.")
    ] = None,
    history: Annotated[
        Path | None,
        typer.Option(
            help="A folder of earlier runs' summary.json files (or their output folders): "
            "report.html draws the trend of the mean and of each item's score. Needs --html."
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes (default: the number of cores)."
        ),
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Score everything again.")] = False,
    cache_dir: Annotated[Path, typer.Option(help="Where the result cache lives.")] = Path(
        ".plugin-eval-cache"
    ),
    sarif: Annotated[bool, typer.Option(help="Also write summary.sarif (SARIF 2.1.0).")] = False,
    html: Annotated[bool, typer.Option(help="Also write report.html.")] = False,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics",
            help="Print one line per rule code with its count over every item.",
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print no summary line (scored N items …).")
    ] = False,
    pass_threshold: PassThreshold = None,
    config_file: ConfigFile = None,
    isolated: Isolated = False,
    exclude: Exclude = None,
    respect_gitignore: RespectGitignore = None,
    show_files: ShowFiles = False,
    debug: Debug = False,
) -> None:
    """Score every plugin and loose skill under ROOT: per-item JSON, summary, badges."""
    import time

    _debug(debug)
    stderr = _err()
    started = time.perf_counter()
    try:
        config = api.configure(
            [root],
            config_file,
            isolated=isolated,
            exclude=exclude or (),
            respect_gitignore=respect_gitignore,
            pass_threshold=pass_threshold,
        )
        if show_files:
            _write(_listing(api.show_files([root], config)))
            raise typer.Exit(api.EXIT_OK)
        with _progress(stderr) as advance:
            run = api.report_tree(
                root,
                out,
                config,
                jobs=jobs,
                cache_dir=None if no_cache else cache_dir,
                previous=previous,
                sarif=sarif,
                html=html,
                progress=advance,
                history=history,
            )
    except api.UsageError as err:
        raise _usage(str(err)) from None
    stats = run.stats
    for note in [*stats.notes, *stats.cache_notes]:
        stderr.print(f"[yellow]note:[/] {terminal(note)}")
    cache_text = (
        "cache off"
        if no_cache
        else f"cache {stats.cache_hits} hit{'' if stats.cache_hits == 1 else 's'}, "
        f"{stats.cache_misses} miss{'' if stats.cache_misses == 1 else 'es'}"
    )
    if statistics:
        from plugin_eval.report.text import render_tree_statistics

        _write(render_tree_statistics(run.out, run.rows, RenderOptions(statistics=True)))
    from plugin_eval.report.summary import counted

    if not quiet:
        stderr.print(
            f"scored {counted(stats.items, 'item')} ({counted(stats.plugins, 'plugin')}, "
            f"{counted(stats.skills, 'loose skill')}) "
            f"in {time.perf_counter() - started:.1f} s · {cache_text} · wrote {terminal(str(out))}"
        )
    run.rows.close()
    # A failing run says why, as `score` does.
    summary_md = terminal(str(out / "summary.md"))
    if stats.errored:
        stderr.print(
            f"exit 1: {counted(stats.errored, 'item')} could not be scored (see Errors in "
            f"{summary_md})"
        )
    if run.failed:
        stderr.print(
            f"exit 1: {counted(run.failed, 'item')} under the pass threshold "
            f"{config.pass_threshold or 0:g} (see {summary_md})"
        )
    raise typer.Exit(api.EXIT_FAIL if stats.errored or run.failed else api.EXIT_OK)


@app.command("certify")
def certify_command(
    path: Annotated[
        Path, typer.Argument(help="One skill folder (or its SKILL.md).", metavar="SKILL")
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="Folder for certificate.txt, .md, .json and badge.svg (created; only a "
            "previous certificate there is replaced).",
        ),
    ] = Path("plugin-eval-certificate"),
    output: Annotated[
        Literal["text", "markdown", "json"],
        typer.Option("--output", "-o", help="Format printed on standard output."),
    ] = "text",
    runs: CertifyRuns = None,
    backend: CertifyBackend = None,
    model: ModelOption = None,
    base_url: BaseUrl = None,
    concurrency: Concurrency = None,
    timeout: Timeout = None,
    no_cache: NoCache = False,
    max_cost: MaxCost = None,
    price: Price = None,
    judges: Judges = None,
    judge_model: JudgeModels = None,
    ci_width: CiWidth = None,
    against: Against = None,
    save_evals: SaveEvals = None,
    config_file: ConfigFile = None,
    isolated: Isolated = False,
    debug: Debug = False,
) -> None:
    """Certify one skill: static, judge and Monte Carlo (50 runs); exit 0 certified, 1 not."""
    _debug(debug)
    from plugin_eval import certify
    from plugin_eval.report.certificate import RENDER

    try:
        if backend is None or backend == "offline":
            raise api.UsageError(certify.OFFLINE)
        if backend not in ("anthropic", "openai"):
            raise api.UsageError(f"--backend {backend}: choose anthropic or openai")
        settings = _model_settings(
            Depth.DEEP,
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
            judges=judges,
            judge_models=tuple(judge_model or ()),
        )
        config = api.configure([path], config_file, isolated=isolated)
        done = api.certify_path(path, settings, out, config)
    except api.UsageError as err:
        raise _usage(str(err)) from None
    except certify.NotScored as err:
        _err().print(
            f"[bold red]error:[/] {terminal(str(path))}: could not be scored: {terminal(str(err))}"
        )
        raise typer.Exit(api.EXIT_FAIL) from None
    stderr = _err()
    for note in done.report.notes:
        stderr.print(f"[yellow]note:[/] {terminal(note)}")
    _write(RENDER[output](done.certificate))
    raise typer.Exit(api.EXIT_OK if done.certificate.certified else api.EXIT_FAIL)


@app.command("dataset-score")
def dataset_score_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="Seed 000's input: one JSON object, or JSON Lines (one object a line; "
            "*.jsonl); - reads standard input.",
            metavar="FILE",
        ),
    ],
    output: Annotated[
        Literal["json", "text"], typer.Option("--output", "-o", help="Output format.")
    ] = "json",
) -> None:
    """Score seed 000's evaluator input: content consistency 40 %, structured data 60 %."""
    import json

    from plugin_eval import dataset_score

    shown = "<stdin>" if str(file) == "-" else str(file)
    stderr = _err()
    bad = 0

    def reported(entries: Iterator[dataset_score.Entry]) -> Iterator[dataset_score.Entry]:
        nonlocal bad
        for entry in entries:
            if entry.problem is not None:
                bad += 1
                text = dataset_score.problem(entry, shown, json_lines)
                stderr.print(f"[bold red]error:[/] {terminal(text)}")
            yield entry

    try:
        with ExitStack() as stack:
            stream = sys.stdin.buffer if str(file) == "-" else stack.enter_context(file.open("rb"))
            told = file.suffix.lower() in dataset_score.JSON_LINES_SUFFIXES
            json_lines, entries = dataset_score.score_stream(stream, json_lines=told)
            items = reported(entries)
            if output == "text":
                _write_all(dataset_score.text_lines(items, json_lines))
            elif json_lines:
                _write_all(dataset_score.json_list_parts(items))
            else:
                entry = next(items)
                if entry.output is not None:
                    _write(json.dumps(entry.output, indent=2, ensure_ascii=False) + "\n")
    except BrokenPipeError:
        raise
    except dataset_score.Unreadable as err:
        raise _usage(f"{shown}: cannot be read ({err}); {err.fix}") from None
    except OSError as err:
        raise _usage(
            f"{shown}: cannot be read ({err.strerror or err}); give a readable file"
        ) from None
    raise typer.Exit(api.EXIT_FAIL if bad else api.EXIT_OK)


benchmark_app = typer.Typer(
    name="benchmark",
    help="Seed 003's benchmark definitions: check one, or write plugin-eval's own.",
    no_args_is_help=True,
)
app.add_typer(benchmark_app)


@benchmark_app.command("validate")
def benchmark_validate(
    file: Annotated[
        Path, typer.Argument(help="A benchmark definition (Markdown).", metavar="FILE.md")
    ],
) -> None:
    """Check a seed 003 benchmark definition: each problem as FILE:LINE: message (exit 1)."""
    from plugin_eval import benchmark

    shown = visible(str(file))
    try:
        found = benchmark.read(file)
    except benchmark.Unreadable as err:
        raise _usage(f"{file}: cannot be read ({err}); give a UTF-8 Markdown file") from None
    if found.valid:
        names = ", ".join(d.name for d in found.dimensions)
        _write(
            command_free(
                visible(
                    f"{shown}: valid: {len(found.dimensions)} dimensions ({names}), "
                    f"pass_score {found.pass_score:g}"
                )
                + "\n"
            )
        )
        raise typer.Exit(api.EXIT_OK)
    lines = [visible(f"{shown}:{p.line}: {p.message}") for p in found.problems]
    _write(command_free("\n".join(lines) + "\n"))
    raise typer.Exit(api.EXIT_FAIL)


@benchmark_app.command("export")
def benchmark_export(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write it to this file instead of standard output."),
    ] = None,
) -> None:
    """Write plugin-eval's ten dimensions in seed 003's format, to edit for score --weights."""
    from plugin_eval import benchmark

    text = benchmark.export()
    if out is None:
        _write(text)
        return
    try:
        api.write_output(out, text)
    except OSError as err:
        raise _usage(
            f"--out {out}: cannot be written ({err.strerror or err}); give a path plugin-eval "
            "can write"
        ) from None


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


@contextmanager
def _only_the_command_run(args: Sequence[str]) -> Iterator[None]:
    """Typer builds every command's options before it parses anything; when the first
    argument names a command, only that one is built (the rest cost some milliseconds of every
    start). Anything else (`--help`, `--version`, a misspelt command) sees them all."""
    every = app.registered_commands
    run = [c for c in every if args and c.name == args[0]]
    if run:
        app.registered_commands = run
    try:
        yield
    finally:
        app.registered_commands = every


def _stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (not when it is closed, or gone)."""
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (ValueError, OSError):
        return False


def _parse_error(err: UsageError, command: str) -> str:
    """A command-line error as the tool's own are said: one line, what is wrong and where to
    read more. A misspelt option is offered only the options it is close to (Click offers any
    it finds at all: "--bogus" is not "--runs")."""
    message = err.format_message()
    if isinstance(err, NoSuchOption):
        close = [
            name
            for name in sorted(err.possibilities or ())
            if SequenceMatcher(None, err.option_name, name).ratio() >= 0.75
        ]
        message = err.message + (f"; did you mean {' or '.join(close)}?" if close else "")
    where = f"{err.ctx.command_path if err.ctx is not None else command} --help"
    return f"{' '.join(message.split()).rstrip('.')} (see '{where}')"


def main(argv: Sequence[str] | None = None) -> None:
    _reserve_standard_streams()
    args = list(argv) if argv is not None else sys.argv[1:]
    markup = app.rich_markup_mode
    if not _stdout_is_terminal():
        # Help read through a pipe, a pager or a file is Click's plain text, wrapped at any
        # width: Rich's panels cut option names and help short to fit 80 columns.
        app.rich_markup_mode = None
    named = any(args and c.name == args[0] for c in app.registered_commands)
    command = f"plugin-eval {args[0]}" if named else "plugin-eval"
    try:
        with _only_the_command_run(args):
            code = app(args=args, prog_name="plugin-eval", standalone_mode=False)
    except NoArgsIsHelpError as err:
        typer.echo(err.format_message())
        raise SystemExit(api.EXIT_USAGE) from None
    except UsageError as err:
        raise SystemExit(_usage(_parse_error(err, command)).exit_code) from None
    except ClickException as err:
        _err().print(f"[bold red]error:[/] {terminal(err.format_message())}")
        raise SystemExit(err.exit_code) from None
    except typer.Abort:
        _err().print("aborted")
        raise SystemExit(1) from None
    finally:
        app.rich_markup_mode = markup
    raise SystemExit(code if isinstance(code, int) else 0)
