"""Terminal output (Rich): short by default, evidence with --explain."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from plugin_eval.compare import delta_text, number_text
from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.model import Batch, PluginReport, Report
from plugin_eval.report.neutral import command_free, terminal
from plugin_eval.report.scored import below_threshold
from plugin_eval.rules import counts_toward
from plugin_eval.rules.base import RuleDoc

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
BADGE_STYLE = {
    "platinum": "bold white",
    "gold": "bold yellow",
    "silver": "bold bright_white",
    "bronze": "bold dark_orange",
    "none": "dim",
}


def _score_style(score: float) -> str:
    return "green" if score >= 80 else "yellow" if score >= 60 else "red"


def render(console: Console, report: Report, explain: bool = False) -> None:
    c = report.composite
    console.print(
        f"[bold]{terminal(report.name)}[/]  [{_score_style(c.score)}]{c.score:.1f}/100[/]"
        + (
            f" [{c.ci_lower:.1f}–{c.ci_upper:.1f}]"
            if c.ci_lower is not None and c.ci_upper is not None
            else ""
        )
        + "  "
        f"[{BADGE_STYLE[c.badge]}]{c.badge.capitalize() if c.badge != 'none' else 'no badge'}[/]  "
        f"grade {c.grade}  [dim]· {report.depth} ({c.confidence_label}) · {terminal(report.path)}[/]",
        soft_wrap=True,
    )
    if c.anti_pattern_count:
        per_skill = (
            f", {c.anti_patterns_per_skill:.2f} a skill"
            if c.anti_patterns_per_skill is not None
            else ""
        )
        console.print(
            f"  [dim]anti-pattern penalty ×{c.penalty:.2f} ({c.anti_pattern_count} flag(s)"
            f"{per_skill})[/]"
        )
    if isinstance(report, PluginReport):
        skills = ", ".join(
            f"{terminal(s.name)} {s.composite.score:.1f}"
            for s in sorted(report.skills, key=lambda s: s.composite.score)
        )
        parts = ", ".join(f"{p.kind} {terminal(p.name)}" for p in report.parts)
        console.print(f"  skills: {skills or 'none'}", soft_wrap=True)
        console.print(f"  [dim]also scored: {parts or 'nothing else'}[/]", soft_wrap=True)
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 2))
    table.add_column("dimension")
    table.add_column("weight", justify="right")
    table.add_column("score", justify="right")
    table.add_column("grade")
    table.add_column("rubric")
    for d in c.dimensions:
        if d.score is None:
            table.add_row(
                f"[dim]{d.name}[/]",
                f"[dim]{d.weight:.2f}[/]",
                "[dim]—[/]",
                "",
                "[dim]unmeasured[/]",
            )
        else:
            pct = d.score * 100
            table.add_row(
                d.name,
                f"{d.weight:.2f}",
                f"[{_score_style(pct)}]{pct:.0f}[/]",
                d.grade or "",
                d.label or "",
            )
    console.print(table)
    if c.weak_dimensions:
        console.print(f"  weak: {', '.join(c.weak_dimensions)}", soft_wrap=True)
    if c.strong_dimensions:
        console.print(f"  strong: {', '.join(c.strong_dimensions)}", soft_wrap=True)
    render_monte_carlo(console, report, explain)
    if explain:
        layer = report.layers[0]
        for name, sub in layer.sub_scores.items():
            feeds = f" → {sub.feeds}" if sub.feeds else " (feeds no dimension)"
            console.print(f"  [bold]{name}[/] {sub.score:.2f}{feeds}")
            for e in sub.evidence:
                where = f" [dim](line {e.line})[/]" if e.line else ""
                console.print(f"      {e.points:+.2f}  {terminal(e.label)}{where}", soft_wrap=True)
    for f in report.findings:
        loc = f.path + (f":{f.line}" if f.line else "") + (f":{f.column}" if f.column else "")
        star = " [dim](anti-pattern)[/]" if f.anti_pattern else ""
        console.print(
            f"  {terminal(loc)}: [{SEVERITY_STYLE[f.severity]}]{f.code}[/] {f.flag} "
            f"{terminal(f.message)}{star}",
            soft_wrap=True,
        )
        console.print(f"      [dim]fix: {terminal(f.fix)}[/]", soft_wrap=True)
    n = report.counts
    console.print(
        f"  [dim]{n.error} error(s), {n.warning} warning(s), {n.info} info"
        + (f", {n.suppressed} suppressed" if n.suppressed else "")
        + "[/]"
    )
    console.print()


def render_summary(console: Console, reports: list[Report]) -> None:
    if len(reports) < 2:
        return
    table = Table(
        title=f"{len(reports)} skills", title_justify="left", box=None, padding=(0, 2, 0, 0)
    )
    for col in ("skill", "score", "badge", "grade", "errors", "warnings", "flags"):
        table.add_column(col, justify="right" if col in ("score", "errors", "warnings") else "left")
    for r in sorted(reports, key=lambda r: (-r.composite.score, r.path)):
        flags = ", ".join(sorted({a.flag for a in r.layers[0].anti_patterns}))
        table.add_row(
            terminal(r.path),
            f"{r.composite.score:.1f}",
            r.composite.badge,
            r.composite.grade,
            str(r.counts.error),
            str(r.counts.warning),
            flags,
        )
    console.print(table)
    mean = sum(r.composite.score for r in reports) / len(reports)
    console.print(f"mean score {mean:.1f}")


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{terminal(name)} {n}" for name, n in counts.items())


MISSED_SHOWN = 5


def render_monte_carlo(console: Console, report: Report, explain: bool = False) -> None:
    """The Monte Carlo layer: what ran, triggering with intervals, who took the misses."""
    layer = next((x for x in report.layers if x.monte_carlo is not None), None)
    if layer is None or layer.monte_carlo is None:
        return
    mc = layer.monte_carlo
    what = (
        "[yellow]a simulation: lexical BM25 router, not a model[/]"
        if mc.simulated
        else terminal(mc.model) + (f" at {terminal(mc.base_url)}" if mc.base_url else "")
    )
    d = mc.distractors
    console.print(
        f"  [bold]monte carlo[/] {mc.backend} ({what}) · {mc.runs} run(s) of "
        f"{mc.distinct_prompts} prompt(s) · {len(d.candidates) - 1} distractor(s), "
        f"{terminal(d.source)} · prompts {terminal(mc.prompt_source)}",
        soft_wrap=True,
    )
    t = mc.triggering
    if t is not None:
        console.print(
            f"    triggering  precision {t.precision.text()}  recall {t.recall.text()}  "
            f"F1 {t.f1.text()}  [dim](TP {t.tp} FP {t.fp} FN {t.fn} TN {t.tn})[/]",
            soft_wrap=True,
        )
        if t.stolen_by:
            console.print(
                f"    missed {t.fn} should-trigger run(s), taken by: {_counts(t.stolen_by)}",
                soft_wrap=True,
            )
        if t.false_triggers_from:
            console.print(
                f"    took {t.fp} should-not run(s) belonging to: {_counts(t.false_triggers_from)}",
                soft_wrap=True,
            )
    if mc.output_quality is not None:
        q = mc.output_quality
        console.print(
            f"    output quality {q.mean.text()} [dim]({terminal(q.method)}, {q.cases} case(s))[/]",
            soft_wrap=True,
        )
    if mc.consistency is not None:
        k = mc.consistency
        console.print(
            f"    consistency {k.score:.0f}/100 [dim](mean pairwise Jaccard {k.mean_jaccard:.2f}, "
            f"{k.prompts} prompt(s))[/]"
        )
    f = mc.failures
    if f.failures or not mc.simulated:
        kinds = f" ({_counts(f.by_kind)})" if f.by_kind else ""
        console.print(f"    failures {f.failures}/{f.calls} {f.rate.text()}{kinds}", soft_wrap=True)
    if mc.tokens is not None:
        console.print(
            f"    output tokens median {mc.tokens.median_output_tokens:.0f} "
            f"(IQR {mc.tokens.q1:.0f}–{mc.tokens.q3:.0f}, {mc.tokens.replies} replies)"
        )
    if not mc.simulated:
        u = mc.usage
        cost = "cost unknown (no price)" if u.cost_usd is None else f"${u.cost_usd:.4f}"
        console.print(
            f"    [dim]{u.calls} call(s): {u.backend_calls} request(s), {u.cached_calls} cached, "
            f"{u.retries} retried · tokens {u.input_tokens} in / {u.output_tokens} out · {cost}[/]"
        )
    c = report.composite
    if c.ci_lower is not None and c.ci_upper is not None:
        console.print(
            f"    composite {c.score:.1f} [{c.ci_lower:.1f}–{c.ci_upper:.1f}] "
            "[dim](95 % bootstrap over prompts)[/]"
        )
    if mc.stopped_early:
        console.print(f"    [yellow]stopped early ({mc.stopped_early}) after {mc.runs} run(s)[/]")
    wrong = [p for p in mc.prompts if p.outcome != "pass"]
    shown = mc.prompts if explain else wrong[:MISSED_SHOWN]
    for p in shown:
        style = "green" if p.outcome == "pass" else "red"
        expected = "should trigger" if p.should_trigger else "should not"
        picked = _counts(p.picked) or "—"
        console.print(
            f"    [{style}]{p.outcome:<13}[/] {expected:<14} picked {picked}  "
            f"[dim]{terminal(_clip(p.prompt))}[/]",
            soft_wrap=True,
        )
    if not explain and len(wrong) > MISSED_SHOWN:
        console.print(f"    [dim]+{len(wrong) - MISSED_SHOWN} more (--explain or --output json)[/]")
    if explain:
        for name, sub in layer.sub_scores.items():
            console.print(f"  [bold]{name}[/] {sub.score:.2f} → {sub.feeds}")
            for e in sub.evidence:
                console.print(f"      {e.points:+.2f}  {terminal(e.label)}", soft_wrap=True)


def _clip(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


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


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """Each report in turn, then a table of all of them when there are several."""
    console, buffer = console_for(options)
    for report in batch.reports:
        render(console, report, options.explain)
    render_summary(console, list(batch.reports))
    verdict = options.verdict
    for failing, finding in below_threshold(batch.reports, verdict.threshold):
        console.print(
            f"[bold red]FAIL[/] {terminal(failing.path)}: {terminal(finding.message)}",
            soft_wrap=True,
        )
    if verdict.failed:
        console.print(f"exit 1: {terminal('; '.join(verdict.reasons()))}", soft_wrap=True)
    return command_free(buffer.getvalue())


def render_comparison(data: dict[str, Any], options: RenderOptions) -> str:
    """Two items side by side, with the findings only one of them has."""
    console, buffer = console_for(options)
    for line in _comparison_lines(data):
        console.print(line, soft_wrap=True)
    return command_free(buffer.getvalue())


def render_rules(rules: Sequence[RuleDoc], options: RenderOptions) -> str:
    """One line per rule: code, flag, severity and what it lowers."""
    console, buffer = console_for(options)
    for r in rules:
        console.print(
            f"{r.code}  {r.flag:<28} {r.severity.value:<8} {counts_toward(r)}", soft_wrap=True
        )
    return buffer.getvalue()


def _comparison_lines(data: dict[str, Any]) -> list[str]:
    """Rich markup lines for the terminal."""
    a, b = data["a"], data["b"]
    lines = [
        f"A  {terminal(a['path'])}  {a['score']:.1f} {a['badge']} ({a['grade']})",
        f"B  {terminal(b['path'])}  {b['score']:.1f} {b['badge']} ({b['grade']})",
        "",
        f"{'':26} {'A':>7} {'B':>7} {'Δ':>7}  winner",
    ]
    for r in data["rows"]:
        colour = {"A": "red", "B": "green"}.get(r["winner"], "dim")
        lines.append(
            f"{r['name']:26} {number_text(r['a']):>7} {number_text(r['b']):>7} {delta_text(r['delta']):>7}"
            f"  [{colour}]{r['winner']}[/]"
        )
    for key, label in (("only_in_a", "only in A"), ("only_in_b", "only in B")):
        lines += ["", f"{label}: {len(data[key])} finding(s)"]
        lines += [
            f"  {f['code']} {f['flag']} {terminal(f['path'])}"
            f"{':' + str(f['line']) if f['line'] else ''}: {terminal(f['message'])}"
            for f in data[key]
        ]
    return lines
