"""Terminal output (Rich): short by default, evidence with --explain, fitted to the width.

Every line fits the console's width: messages wrap under a hanging indent, a table gives up
padding before anything else, and a path that does not fit loses whole folders from its
middle (``corpus/…/skills/csv-merge``), never its start or its last two parts, so no
identifier is cut. No line ends in blanks.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from plugin_eval import regexes
from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.judge import alpha_text
from plugin_eval.report.model import Batch, FindingOut, PluginReport, Report, SummaryRow
from plugin_eval.report.montecarlo import UsageOut
from plugin_eval.report.neutral import command_free, score_text, terminal, visible
from plugin_eval.report.scored import badge_text, below_threshold, result_block
from plugin_eval.rules import counts_toward
from plugin_eval.rules.base import RuleDoc
from plugin_eval.scoring.composite import shown_delta, whole
from plugin_eval.textsearch import one_line
from plugin_eval.vocabulary import Kind

if TYPE_CHECKING:
    from rich.table import Table

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
BADGE_STYLE = {
    "platinum": "bold white",
    "gold": "bold yellow",
    "silver": "bold bright_white",
    "bronze": "bold dark_orange",
    "none": "dim",
}
ELLIPSIS = "…"
# Path parts that say where a path starts without naming anything ("/x", "./x", "../x").
_ROOTS = ("", ".", "..")


def shortened(path: str, width: int) -> str:
    """``path`` in at most ``width`` cells, whole folders taken out of its middle as needed
    (``corpus/…/skills/csv-merge``); its start and its last two parts always stay, so a path
    that cannot be made to fit comes back as short as it can be, wider than ``width``."""
    if cell_len(path) <= width:
        return path
    parts = path.split("/")
    lead = 1
    while lead < len(parts) and parts[lead - 1] in _ROOTS:
        lead += 1
    start, most = parts[:lead], len(parts) - lead - 1  # at least one part goes
    if most < 2:
        return path
    for kept in range(most, 1, -1):
        candidate = "/".join([*start, ELLIPSIS, *parts[-kept:]])
        if cell_len(candidate) <= width:
            return candidate
    return candidate


def _fit(path: str, room: int, alone: int) -> str:
    """A path for markup, shortened to ``room`` cells; when it cannot be, to ``alone``, the
    width of the line it then wraps onto."""
    shown = shortened(visible(path), room)
    if cell_len(shown) > room:
        shown = shortened(visible(path), alone)
    return terminal(shown)


class Hanging:
    """Markup word-wrapped at the width, the lines after its first indented by ``indent``
    cells. A word wider than a line is folded onto the next one, never cut."""

    def __init__(self, markup: str, indent: int = 4) -> None:
        self.markup = markup
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = console.render_str(self.markup)  # read as the console reads markup
        text.expand_tabs()  # wrapping expands them; the offsets below count the result
        first = text.wrap(console, options.max_width, overflow="fold")[0]
        end = len(first.plain)
        first.rstrip()
        yield first
        after = text.plain[end:]
        end += len(after) - len(after.lstrip(" "))
        if end < len(text.plain):
            width = max(options.max_width - self.indent, 2)
            for line in text[end:].wrap(console, width, overflow="fold"):
                line.rstrip()
                yield Text.assemble(" " * self.indent, line)


def _score_style(score: float) -> str:
    return "green" if score >= 80 else "yellow" if score >= 60 else "red"


def _width(console: Console, markup: str) -> int:
    """The cells ``markup`` takes on one line."""
    return console.render_str(markup).cell_len


def _least(console: Console, table: Table) -> int:
    """The fewest cells ``table`` takes without breaking a word (Rich's measure, unbounded)."""
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update_width(sys.maxsize), table).minimum


def _fitted(console: Console, table: Table) -> Table:
    """``table``, with half its padding when its longest words would not fit the width."""
    if _least(console, table) > console.width:
        top, right, bottom, left = table.padding
        table.padding = (top, right // 2, bottom, left // 2)
    return table


# The dimension table's columns, and which of them are right-justified.
_DIMENSION_COLUMNS = ("dimension", "weight", "score", "grade", "rubric")
_RIGHT = frozenset({1, 2})
# A cell that Rich shows as written, one cell per character: printable ASCII without blanks
# (Rich wraps at them), '[' (markup) or '\\' (its escape); or the dash of an unmeasured score.
_PLAIN_CELL = regexes.compile(r"[!-Z\]-~]*|—")


def _dimension_table(console: Console, rows: list[tuple[tuple[str, str], ...]]) -> None:
    """The dimension table: each row's cells as (markup, the text it shows). Without colour,
    when every cell is plain and the table fits the width, its lines are written as Rich lays
    them out (each column as wide as its widest cell, 4 cells between columns, none at the
    edges; the blanks ending a line go in `_finished`), without loading Rich's tables, which
    a run printing one skill's report spends longer on than on scoring it."""
    cells = [_DIMENSION_COLUMNS, *(tuple(plain for _, plain in row) for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(_DIMENSION_COLUMNS))]
    if (
        console.color_system is None
        and sum(widths) + 4 * (len(widths) - 1) <= console.width
        and all(_PLAIN_CELL.fullmatch(cell) for row in cells for cell in row)
    ):
        console.file.write("".join(_table_line(row, widths) for row in cells))
        return
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 2))
    for i, name in enumerate(_DIMENSION_COLUMNS):
        table.add_column(name, justify="right" if i in _RIGHT else "left")
    for row in rows:
        table.add_row(*(markup for markup, _ in row))
    console.print(_fitted(console, table))


def _table_line(row: Sequence[str], widths: Sequence[int]) -> str:
    """One line of the plain dimension table, padded as Rich pads it."""
    shown = (
        cell.rjust(width) if i in _RIGHT else cell.ljust(width)
        for i, (cell, width) in enumerate(zip(row, widths, strict=True))
    )
    return "    ".join(shown) + "\n"


def render(console: Console, report: Report, explain: bool = False) -> None:
    c = report.composite
    head = (
        f"[bold]{terminal(report.name)}[/]  [{_score_style(c.score)}]{score_text(c.score)}/100[/]"
        + (
            f" [{c.ci_lower:.1f}–{c.ci_upper:.1f}]"
            if c.ci_lower is not None and c.ci_upper is not None
            else ""
        )
        + f"  [{BADGE_STYLE[c.badge]}]{badge_text(c.badge)}[/]  "
        f"grade {c.grade}  [dim]· {report.depth} ({c.confidence_label}) · "
    )
    path = _fit(report.path, console.width - _width(console, head), console.width - 2)
    console.print(Hanging(f"{head}{path}[/]", 2))
    if c.anti_pattern_count:
        per_skill = (
            f", {c.anti_patterns_per_skill:.2f} per skill"
            if c.anti_patterns_per_skill is not None
            else ""
        )
        console.print(
            Hanging(
                f"  [dim]anti-pattern penalty ×{c.penalty:.2f} ({c.anti_pattern_count} flag(s)"
                f"{per_skill})[/]",
                4,
            )
        )
    if isinstance(report, PluginReport):
        skills = ", ".join(
            f"{terminal(s.name)} {score_text(s.composite.score)}"
            for s in sorted(report.skills, key=lambda s: s.composite.score)
        )
        parts = ", ".join(f"{p.kind} {terminal(p.name)}" for p in report.parts)
        console.print(Hanging(f"  skills: {skills or 'none'}", 4))
        console.print(Hanging(f"  [dim]also scored: {parts or 'nothing else'}[/]", 4))
    rows: list[tuple[tuple[str, str], ...]] = []
    for d in c.dimensions:
        if d.score is None:
            rows.append(
                (
                    (f"[dim]{d.name}[/]", d.name),
                    (f"[dim]{d.weight:.2f}[/]", f"{d.weight:.2f}"),
                    ("[dim]—[/]", "—"),
                    ("", ""),
                    ("[dim]unmeasured[/]", "unmeasured"),
                )
            )
        else:
            pct = d.score * 100
            rows.append(
                (
                    (d.name, d.name),
                    (f"{d.weight:.2f}", f"{d.weight:.2f}"),
                    (f"[{_score_style(pct)}]{whole(d.score)}[/]", whole(d.score)),
                    (d.grade or "", d.grade or ""),
                    (d.label or "", d.label or ""),
                )
            )
    _dimension_table(console, rows)
    if c.weak_dimensions:
        console.print(Hanging(f"  weak: {', '.join(c.weak_dimensions)}", 4))
    if c.strong_dimensions:
        console.print(Hanging(f"  strong: {', '.join(c.strong_dimensions)}", 4))
    render_judge(console, report, explain)
    render_monte_carlo(console, report, explain)
    if explain:
        layer = report.layers[0]
        for name, sub in layer.sub_scores.items():
            feeds = f" → {sub.feeds}" if sub.feeds else " (feeds no dimension)"
            console.print(Hanging(f"  [bold]{name}[/] {sub.score:.2f}{feeds}", 4))
            for e in sub.evidence:
                where = f" [dim](line {e.line})[/]" if e.line else ""
                console.print(Hanging(f"      {e.points:+.2f}  {terminal(e.label)}{where}", 13))
    for f in report.findings:
        _finding(console, f, 2)
    n = report.counts
    console.print(
        f"  [dim]{n.error} error(s), {n.warning} warning(s), {n.info} info"
        + (f", {n.suppressed} suppressed" if n.suppressed else "")
        + "[/]"
    )
    console.print()


def _finding(console: Console, f: FindingOut, indent: int) -> None:
    """``path:line:column: SEVERITY CODE FLAG message`` and its fix: the path shortened only
    as much as keeps the severity, code and flag on its first line, or else the location
    alone. The severity is written out, not only coloured: piped, a line still says whether
    it fails ``--fail-on warning``."""
    where = (f":{f.line}" if f.line else "") + (f":{f.column}" if f.column else "")
    severity = f.severity
    room = console.width - indent - cell_len(f"{where}: {severity} {f.code} {f.flag}")
    path = _fit(f.path, room, console.width - indent - cell_len(where) - 1)
    star = " [dim](anti-pattern)[/]" if f.anti_pattern else ""
    console.print(
        Hanging(
            f"{' ' * indent}{path}{where}: [{SEVERITY_STYLE[f.severity]}]{severity} "
            f"{f.code}[/] {f.flag} {terminal(f.message)}{star}",
            indent + 4,
        )
    )
    console.print(Hanging(f"{' ' * (indent + 4)}[dim]fix: {terminal(f.fix)}[/]", indent + 9))


def render_summary(console: Console, reports: list[Report]) -> None:
    """A table of every report, best first; one report after another (its path on a line of
    its own) when the paths cannot fit a table at this width."""
    if len(reports) < 2:
        return
    ranked = sorted(reports, key=lambda r: (-r.composite.score, r.path))
    flags = [", ".join(sorted({a.flag for a in r.layers[0].anti_patterns})) for r in ranked]
    rest = _summary_table(ranked, [""] * len(ranked), flags)
    # The skill column's room: the width less what the other columns need at the least.
    room = console.width - _least(console, rest) + len("skill")
    # Marketplace entries that share a folder share its path ('.'): each is named as well.
    held = Counter(r.path for r in ranked)
    items = [r.path if held[r.path] == 1 else f"{r.path} @{r.name}" for r in ranked]
    paths = [shortened(visible(item), room) for item in items]
    if all(cell_len(p) <= room for p in paths):
        console.print(_summary_table(ranked, [terminal(p) for p in paths], flags))
    else:
        console.print(_counted_items(ranked))
        for r, item, flagged in zip(ranked, items, flags, strict=True):
            c = r.composite
            console.print(Hanging(terminal(shortened(visible(item), console.width)), 0))
            console.print(
                Hanging(
                    f"  {c.score:5.1f}  {c.badge:<8}  {c.grade:<2}  {r.counts.error} error(s), "
                    f"{r.counts.warning} warning(s)  {flagged}",
                    4,
                )
            )
    mean = sum(r.composite.score for r in reports) / len(reports)
    console.print(f"mean score {mean:.1f}")


def _counted_items(reports: list[Report]) -> str:
    """`3 skills`, or `3 items (1 plugin, 2 skills)` when plugins are among them."""
    plugins = sum(r.kind == "plugin" for r in reports)
    if not plugins:
        return f"{len(reports)} skills"
    skills = len(reports) - plugins
    plural = {True: "s", False: ""}
    return (
        f"{len(reports)} items ({plugins} plugin{plural[plugins != 1]}, "
        f"{skills} skill{plural[skills != 1]})"
    )


def _summary_table(ranked: list[Report], paths: list[str], flags: list[str]) -> Table:
    """Only the flags wrap (between flags); the paths come shortened as needed."""
    from rich.table import Table

    table = Table(
        title=_counted_items(ranked), title_justify="left", box=None, padding=(0, 2, 0, 0)
    )
    first = "skill" if all(r.kind != "plugin" for r in ranked) else "item"
    for col in (first, "score", "badge", "grade", "errors", "warnings", "flags"):
        right = col in ("score", "errors", "warnings")
        table.add_column(col, justify="right" if right else "left", no_wrap=col != "flags")
    for r, path, flagged in zip(ranked, paths, flags, strict=True):
        table.add_row(
            path,
            f"{r.composite.score:.1f}",
            r.composite.badge,
            r.composite.grade,
            str(r.counts.error),
            str(r.counts.warning),
            flagged,
        )
    return table


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{terminal(name)} {n}" for name, n in counts.items())


MISSED_SHOWN = 5


def _interval(console: Console, report: Report) -> None:
    """The composite's interval, and what it resampled, when a layer measured one."""
    c = report.composite
    if c.ci_lower is None or c.ci_upper is None:
        return
    over = " and ".join(
        what
        for what, there in (
            ("judges", any(x.judge is not None for x in report.layers)),
            ("prompts", any(x.monte_carlo is not None for x in report.layers)),
        )
        if there
    )
    console.print(
        Hanging(
            f"    composite {c.score:.1f} [{c.ci_lower:.1f}–{c.ci_upper:.1f}] "
            f"[dim](95 % bootstrap over {over})[/]",
            6,
        )
    )


def _usage(u: UsageOut) -> str:
    """A model layer's calls, tokens and cost, on one dimmed line."""
    cost = "cost unknown (no price)" if u.cost_usd is None else f"${u.cost_usd:.4f}"
    return (
        f"    [dim]{u.calls} call(s): {u.backend_calls} request(s), {u.cached_calls} cached, "
        f"{u.retries} retried · tokens {u.input_tokens} in / {u.output_tokens} out · {cost}[/]"
    )


def render_judge(console: Console, report: Report, explain: bool = False) -> None:
    """The judge layer: each judged dimension with its judges' bands and quotes, their
    agreement, and what the judgements cost."""
    layer = next((x for x in report.layers if x.judge is not None), None)
    if layer is None or layer.judge is None:
        return
    j = layer.judge

    def line(markup: str, indent: int = 4) -> None:
        console.print(Hanging(markup, indent + 2))

    models = ", ".join(terminal(m) for m in j.models)
    alpha = "alpha " + alpha_text(j.alpha, j.alpha_ci_lower, j.alpha_ci_upper)
    line(
        f"  [bold]judge[/] {j.backend} ({models}) · {j.usable_judges} of {j.judges} "
        f"judgement(s) usable · agreement {alpha}",
        2,
    )
    if j.caveat:
        line(f"    [yellow]caveat: {terminal(j.caveat)}[/]")
    if j.excerpt:
        line(f"    [dim]excerpt: {terminal(j.excerpt)}[/]")
    for d in j.dimensions:
        bands = ", ".join("–" if b is None else str(b) for b in d.bands)
        if d.score is None:
            line(f"    {d.name:<22} [dim]unmeasured[/] (bands {bands})")
            continue
        capped = f" [yellow](capped at {d.capped_at:.2f})[/]" if d.capped_at is not None else ""
        line(
            f"    {d.name:<22} {d.score:.2f} ± {d.spread or 0:.2f} [dim](bands {bands})[/]" + capped
        )
        for quote in d.quotes if explain else d.quotes[:1]:
            line(f"      [dim]“{terminal(one_line(quote, 80))}”[/]", 6)
        if d.dropped_quotes:
            line(f"      [dim]{d.dropped_quotes} quote(s) not in the skill, dropped[/]", 6)
    line(_usage(j.usage))
    if not any(x.monte_carlo is not None for x in report.layers):
        _interval(console, report)


def render_monte_carlo(console: Console, report: Report, explain: bool = False) -> None:
    """The Monte Carlo layer: what ran, triggering with intervals, who took the misses."""
    layer = next((x for x in report.layers if x.monte_carlo is not None), None)
    if layer is None or layer.monte_carlo is None:
        return
    mc = layer.monte_carlo

    def line(markup: str, indent: int = 4) -> None:
        """One line of the layer, indented by ``indent``; what it wraps onto two more."""
        console.print(Hanging(markup, indent + 2))

    what = (
        "[yellow]a simulation: lexical BM25 router, not a model[/]"
        if mc.simulated
        else terminal(mc.model) + (f" at {terminal(mc.base_url)}" if mc.base_url else "")
    )
    d = mc.distractors
    line(
        f"  [bold]monte carlo[/] {mc.backend} ({what}) · {mc.runs} run(s) of "
        f"{mc.distinct_prompts} prompt(s) · {len(d.candidates) - 1} distractor(s), "
        f"{terminal(d.source)} · prompts {terminal(mc.prompt_source)}",
        2,
    )
    t = mc.triggering
    if t is not None:
        line(
            f"    triggering  precision {t.precision.text()}  recall {t.recall.text()}  "
            f"F1 {t.f1.text()}  [dim](TP {t.tp} FP {t.fp} FN {t.fn} TN {t.tn})[/]"
        )
        if t.stolen_by:
            line(f"    missed {t.fn} should-trigger run(s), taken by: {_counts(t.stolen_by)}")
        if t.false_triggers_from:
            line(
                f"    took {t.fp} should-not run(s) belonging to: {_counts(t.false_triggers_from)}"
            )
    if mc.output_quality is not None:
        q = mc.output_quality
        line(
            f"    output quality {q.mean.text()} [dim]({terminal(q.method)}, {q.cases} case(s))[/]"
        )
        for label, match in (("items", q.item_match), ("cards", q.card_match)):
            if match is not None:
                line(f"      {label}  {terminal(match.text())}")
        if q.structured is not None:
            st = q.structured
            line(
                f"      structured  completeness {st.completeness:.0f}  accuracy "
                f"{st.accuracy:.0f}  types {st.type_correctness:.0f}  sufficiency "
                f"{st.sufficiency:.0f}  score {st.score:.0f} [dim]({st.replies} replies, "
                f"{st.not_json} not JSON)[/]"
            )
    if mc.consistency is not None:
        k = mc.consistency
        line(
            f"    consistency {k.score:.0f}/100 [dim](mean pairwise Jaccard {k.mean_jaccard:.2f}, "
            f"{k.prompts} prompt(s))[/]"
        )
    f = mc.failures
    if f.failures or not mc.simulated:
        kinds = f" ({_counts(f.by_kind)})" if f.by_kind else ""
        line(f"    failures {f.failures}/{f.calls} {f.rate.text()}{kinds}")
    if mc.tokens is not None:
        line(
            f"    output tokens median {mc.tokens.median_output_tokens:.0f} "
            f"(IQR {mc.tokens.q1:.0f}–{mc.tokens.q3:.0f}, {mc.tokens.replies} replies)"
        )
    if not mc.simulated:
        line(_usage(mc.usage))
    _interval(console, report)
    if mc.stopped_early:
        line(f"    [yellow]stopped early ({mc.stopped_early}) after {mc.runs} run(s)[/]")
    wrong = [p for p in mc.prompts if p.outcome != "pass"]
    shown = mc.prompts if explain else wrong[:MISSED_SHOWN]
    for p in shown:
        style = "green" if p.outcome == "pass" else "red"
        expected = "should trigger" if p.should_trigger else "should not"
        picked = _counts(p.picked) or "—"
        line(
            f"    [{style}]{p.outcome:<13}[/] {expected:<14} picked {picked}  "
            f"[dim]{terminal(one_line(p.prompt, 80))}[/]"
        )
    if not explain and len(wrong) > MISSED_SHOWN:
        line(f"    [dim]+{len(wrong) - MISSED_SHOWN} more (--explain or --output json)[/]")
    if explain:
        for name, sub in layer.sub_scores.items():
            line(f"  [bold]{name}[/] {sub.score:.2f} → {sub.feeds}", 2)
            for e in sub.evidence:
                console.print(Hanging(f"      {e.points:+.2f}  {terminal(e.label)}", 13))


def console_for(options: RenderOptions) -> tuple[Console, io.StringIO]:
    """A console that writes into a string, at the width and with the colour asked for."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        highlight=False,
        emoji=False,
        width=options.width,
        force_terminal=options.colour,
        no_color=not options.colour,
    )
    return console, buffer


# Blanks at the end of a line, before the codes that end its styles when there is colour.
_LINE_END = regexes.compile(r" +((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)


def _finished(buffer: io.StringIO) -> str:
    """What the console wrote, without the blanks Rich pads table cells and wrapped lines
    with, and with no line that opens an Actions command."""
    return command_free(_LINE_END.sub(r"\1", buffer.getvalue()))


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """Each report in turn, then a table of all of them when there are several; with
    ``statistics`` the findings counted by code instead, with ``quiet`` the findings alone."""
    console, buffer = console_for(options)
    verdict = options.verdict
    failing = below_threshold(batch.reports, verdict.threshold)
    findings = [f for r in batch.reports for f in r.findings] + [f for _, f in failing]
    if options.statistics:
        _statistics(console, ((f.code, f.flag) for f in findings))
    elif options.quiet:
        for f in findings:
            _finding(console, f, 0)
    else:
        for report in batch.reports:
            render(console, report, options.explain)
        render_summary(console, list(batch.reports))
        for item, finding in failing:
            path = _fit(item.path, console.width - 6, console.width - 6)
            console.print(Hanging(f"[bold red]FAIL[/] {path}: {terminal(finding.message)}", 5))
        if verdict.failed:
            console.print(Hanging(f"exit 1: {terminal('; '.join(verdict.reasons()))}", 8))
        _result_blocks(console, batch.reports, gap=bool(failing) or verdict.failed)
    return _finished(buffer)


def _result_blocks(console: Console, reports: Sequence[Report], gap: bool) -> None:
    """Seed 003's `[RESULT: PASS]` / `[RESULT: FAIL]` block of each item under a pass
    threshold, last in the output; with several items, each after its name and path. The
    block's lines are never wrapped (a terminal folds them itself), so a program reads the
    seed's layout line by line."""
    gap = gap or len(reports) > 1
    for report in reports:
        block = result_block(report)
        if block is None:
            continue
        if gap:
            console.print()
        gap = True
        if len(reports) > 1:
            path = _fit(report.path, console.width - cell_len(report.name) - 2, console.width)
            console.print(Hanging(f"{terminal(report.name)}  {path}", 4))
        for line in block.lines():
            console.print(terminal(line), soft_wrap=True)


def _statistics(console: Console, codes: Iterable[tuple[str, str]]) -> None:
    """One line per rule code, ruff's ``--statistics``: count, code, flag; most found first."""
    counted = Counter(codes)
    for (code, flag), n in sorted(counted.items(), key=lambda item: (-item[1], item[0])):
        console.print(Hanging(f"{n:>5}  {terminal(code)}  {terminal(flag)}", 7))


def _tree_codes(out: Path, rows: Iterable[SummaryRow]) -> Iterator[tuple[str, str]]:
    """Code and flag of each finding in the item reports `report` wrote under ``out``."""
    for row in rows:
        if row.errored:
            continue
        folder = "plugins" if row.kind is Kind.PLUGIN else "skills"
        data = json.loads((out / folder / f"{row.slug}.json").read_text(encoding="utf-8"))
        for f in data.get("findings", []):
            yield f["code"], f["flag"]


def render_tree_statistics(out: Path, rows: Iterable[SummaryRow], options: RenderOptions) -> str:
    """``report --statistics``: the findings of every item the report holds, by code."""
    console, buffer = console_for(options)
    _statistics(console, _tree_codes(out, rows))
    return _finished(buffer)


def render_comparison(data: dict[str, Any], options: RenderOptions) -> str:
    """Two items side by side, with the findings only one of them has."""
    from plugin_eval.compare import delta_text, number_text  # a comparison's module

    console, buffer = console_for(options)
    width = console.width
    for side in ("A", "B"):
        item = data[side.lower()]
        tail = f"  {item['score']:.1f} {item['badge']} ({item['grade']})"
        path = _fit(item["path"], width - 3 - cell_len(tail), width - 3)
        console.print(Hanging(f"{side}  {path}{terminal(tail)}", 3))
        for note in item["notes"]:
            console.print(Hanging(f"   [yellow]note:[/] {terminal(note)}", 9))
    console.print()
    console.print(f"{'':26} {'A':>7} {'B':>7} {'Δ':>7}  winner")
    for r in data["rows"]:
        colour = {"A": "red", "B": "green"}.get(r["winner"], "dim")
        console.print(
            Hanging(
                f"{r['name']:26} {number_text(r['a']):>7} {number_text(r['b']):>7} "
                f"{delta_text(shown_delta(r['a'], r['b'])):>7}  [{colour}]{r['winner']}[/]",
                2,
            )
        )
    for key, label in (("only_in_a", "only in A"), ("only_in_b", "only in B")):
        console.print()
        console.print(f"{label}: {len(data[key])} finding(s)")
        for f in data[key]:
            head = f"{f['code']} {f['flag']} "
            where = f":{f['line']}" if f["line"] else ""
            room = width - 2 - cell_len(head + where) - 1
            path = _fit(f["path"], room, width - 4 - cell_len(where) - 1)
            console.print(Hanging(f"  {terminal(head)}{path}{where}: {terminal(f['message'])}", 4))
    return _finished(buffer)


def render_rules(rules: Sequence[RuleDoc], options: RenderOptions) -> str:
    """One line per rule: code, flag, severity and what it lowers."""
    console, buffer = console_for(options)
    for r in rules:
        console.print(
            Hanging(f"{r.code}  {r.flag:<28} {r.severity.value:<8} {counts_toward(r)}", 7)
        )
    return _finished(buffer)
