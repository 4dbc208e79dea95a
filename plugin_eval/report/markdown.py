"""Markdown output, for pull-request comments and job summaries."""

from __future__ import annotations

from plugin_eval.report.model import Report


def cell(text: str) -> str:
    """Text made safe for one Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


def render(report: Report, explain: bool = False) -> str:
    c = report.composite
    out = [
        f"## {cell(report.name)}: {c.score:.1f}/100 ({c.badge}, {c.grade})",
        "",
        f"`{report.path}` · depth {report.depth} ({c.confidence_label}) · penalty ×{c.penalty:.2f} "
        f"for {c.anti_pattern_count} anti-pattern(s)",
        "",
        "| dimension | weight | score | grade | rubric |",
        "|---|---:|---:|---|---|",
    ]
    for d in c.dimensions:
        if d.score is None:
            out.append(f"| {d.name} | {d.weight:.2f} | — | | unmeasured |")
        else:
            out.append(
                f"| {d.name} | {d.weight:.2f} | {d.score * 100:.0f} | {d.grade} | {d.label} |"
            )
    out.append("")
    if c.weak_dimensions:
        out.append(f"Weak: {', '.join(c.weak_dimensions)}.")
    if c.strong_dimensions:
        out.append(f"Strong: {', '.join(c.strong_dimensions)}.")
    if explain:
        out += ["", "### Evidence", ""]
        for name, sub in report.layers[0].sub_scores.items():
            out.append(f"- **{name}** {sub.score:.2f}")
            for e in sub.evidence:
                where = f" (line {e.line})" if e.line else ""
                out.append(f"  - {e.points:+.2f} {cell(e.label)}{where}")
    if report.findings:
        out += [
            "",
            "### Findings",
            "",
            "| location | code | severity | message | fix |",
            "|---|---|---|---|---|",
        ]
        for f in report.findings:
            loc = f.path + (f":{f.line}" if f.line else "") + (f":{f.column}" if f.column else "")
            out.append(
                f"| `{cell(loc)}` | {f.code} {f.flag} | {f.severity} | {cell(f.message)} | "
                f"{cell(f.fix)} |"
            )
    out.append("")
    return "\n".join(out)
