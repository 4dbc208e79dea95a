"""Terminal output (Rich): short by default, evidence with --explain."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from plugin_eval.report.model import Report

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
        f"[bold]{escape(report.name)}[/]  [{_score_style(c.score)}]{c.score:.1f}/100[/]  "
        f"[{BADGE_STYLE[c.badge]}]{c.badge.capitalize() if c.badge != 'none' else 'no badge'}[/]  "
        f"grade {c.grade}  [dim]· {report.depth} ({c.confidence_label}) · {escape(report.path)}[/]",
        soft_wrap=True,
    )
    if c.anti_pattern_count:
        console.print(
            f"  [dim]anti-pattern penalty ×{c.penalty:.2f} ({c.anti_pattern_count} flag(s))[/]"
        )
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
    if explain:
        layer = report.layers[0]
        for name, sub in layer.sub_scores.items():
            feeds = f" → {sub.feeds}" if sub.feeds else " (feeds no dimension)"
            console.print(f"  [bold]{name}[/] {sub.score:.2f}{feeds}")
            for e in sub.evidence:
                where = f" [dim](line {e.line})[/]" if e.line else ""
                console.print(f"      {e.points:+.2f}  {escape(e.label)}{where}", soft_wrap=True)
    for f in report.findings:
        loc = f.path + (f":{f.line}" if f.line else "") + (f":{f.column}" if f.column else "")
        star = " [dim](anti-pattern)[/]" if f.anti_pattern else ""
        console.print(
            f"  {escape(loc)}: [{SEVERITY_STYLE[f.severity]}]{f.code}[/] {f.flag} "
            f"{escape(f.message)}{star}",
            soft_wrap=True,
        )
        console.print(f"      [dim]fix: {escape(f.fix)}[/]", soft_wrap=True)
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
            escape(r.path),
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
