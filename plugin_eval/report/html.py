"""A self-contained HTML report: inline CSS, no script, nothing loaded from elsewhere.

Every text that comes from a skill (names, paths, messages, fixes, evidence) goes through
`esc`; numbers and this module's own words are the only unescaped text.
"""

from __future__ import annotations

from collections.abc import Sequence

from plugin_eval import __version__
from plugin_eval.report.formats import RenderOptions, Verdict
from plugin_eval.report.model import Batch, Dimension, FindingOut, Report
from plugin_eval.report.neutral import html_text
from plugin_eval.report.scored import Scored, badge_text, below_threshold, location

# Even if a text escaped escaping, the page may run no script and load nothing.
CSP = "default-src 'none'; style-src 'unsafe-inline'"

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa;
  --good: #1a7f37; --fair: #9a6700; --poor: #cf222e; --info: #0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  color: var(--fg); margin: 0 auto; max-width: 72rem; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 0; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
.muted, .path { color: var(--muted); }
.path, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12px; overflow-wrap: anywhere; }
section.report { border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem;
  margin: 1.5rem 0; }
.headline { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline;
  margin: .5rem 0; }
.score { font-size: 2rem; font-weight: 600; }
.badge { border-radius: 2rem; padding: .1rem .6rem; font-weight: 600; font-size: 12px;
  border: 1px solid var(--line); background: var(--bg); }
.badge-platinum { background: #e5e4e2; } .badge-gold { background: #f5d76e; }
.badge-silver { background: #d7dde3; } .badge-bronze { background: #e3b58a; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { background: var(--bg); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.bar { display: inline-block; width: 10rem; height: .6rem; background: var(--bg);
  border: 1px solid var(--line); border-radius: 3px; overflow: hidden; vertical-align: middle; }
.bar > span { display: block; height: 100%; }
.good { color: var(--good); } .fair { color: var(--fair); } .poor { color: var(--poor); }
.bar > .good { background: var(--good); } .bar > .fair { background: var(--fair); }
.bar > .poor { background: var(--poor); }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
.sev-error { color: var(--poor); } .sev-warning { color: var(--fair); }
.sev-info { color: var(--info); }
.unmeasured td { color: var(--muted); }
details { margin-top: 1rem; } summary { cursor: pointer; font-weight: 600; }
ul.evidence { margin: .25rem 0 .75rem; padding-left: 1.25rem; }
footer { color: var(--muted); font-size: 12px; margin-top: 2rem; }
"""


def esc(text: object) -> str:
    """Text made inert in element content and in quoted attribute values."""
    return html_text(str(text))


def _tone(percent: float) -> str:
    return "good" if percent >= 80 else "fair" if percent >= 60 else "poor"


def render(
    reports: Sequence[Scored],
    title: str = "plugin-eval report",
    verdict: Verdict | None = None,
) -> str:
    """One HTML document for one or many reports, with a ranked summary when there are several,
    opened by the run's result when it failed."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="muted">{len(reports)} report(s) · plugin-eval {esc(__version__)}</p>',
        "</header>",
        *_result(reports, verdict),
    ]
    if len(reports) > 1:
        parts += _summary(reports)
    for number, report in enumerate(reports, 1):
        parts += _report(report, f"report-{number}")
    parts += [
        "<footer>Scores follow the PluginEval methodology; evidence lists what each sub-score "
        "is made of.</footer>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _result(reports: Sequence[Scored], verdict: Verdict | None) -> list[str]:
    """The failing result first: each item under the threshold, then every other reason."""
    if verdict is None or not verdict.failed:
        return []
    out = ['<section id="result">', "<h2>Result: FAIL</h2>", "<ul>"]
    out += [
        f"<li><code>{esc(f.path)}</code>: {esc(f.message)}</li>"
        for _, f in below_threshold(reports, verdict.threshold)
    ]
    out += [f"<li>{esc(reason)}</li>" for reason in verdict.reasons(items_listed=True)]
    return [*out, "</ul>", "</section>"]


def _counts(findings: Sequence[FindingOut]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    return counts


def _summary(reports: Sequence[Scored]) -> list[str]:
    out = [
        "<h3>Summary</h3>",
        "<table>",
        "<thead><tr><th>name</th><th>score</th><th>badge</th><th>grade</th>"
        "<th>errors</th><th>warnings</th><th>info</th></tr></thead>",
        "<tbody>",
    ]
    ranked = sorted(enumerate(reports, 1), key=lambda nr: (-nr[1].composite.score, nr[1].path))
    for number, r in ranked:
        c = r.composite
        n = _counts(r.findings)
        out.append(
            f'<tr><td><a href="#report-{number}">{esc(r.name)}</a></td>'
            f'<td class="num {_tone(c.score)}">{c.score:.1f}</td><td>{esc(badge_text(c.badge))}</td>'
            f'<td>{esc(c.grade)}</td><td class="num">{n["error"]}</td>'
            f'<td class="num">{n["warning"]}</td><td class="num">{n["info"]}</td></tr>'
        )
    out += ["</tbody>", "</table>"]
    return out


def _report(report: Scored, anchor: str) -> list[str]:
    c = report.composite
    interval = (
        f" · interval {c.ci_lower:.1f}–{c.ci_upper:.1f}"
        if c.ci_lower is not None and c.ci_upper is not None
        else ""
    )
    out = [
        f'<section class="report" id="{esc(anchor)}">',
        f"<h2>{esc(report.name)}</h2>",
        f'<div class="path">{esc(report.path)}</div>',
        '<div class="headline">',
        f'<span class="score {_tone(c.score)}">{c.score:.1f}<small>/100</small></span>',
        f'<span class="badge badge-{esc(c.badge)}">{esc(badge_text(c.badge))}</span>',
        f"<span>grade <strong>{esc(c.grade)}</strong></span>",
        f'<span class="muted">depth {esc(report.depth)} ({esc(c.confidence_label)}) · '
        f"penalty ×{c.penalty:.2f} for {c.anti_pattern_count} anti-pattern(s){interval}</span>",
        "</div>",
    ]
    out += _dimensions(c.dimensions)
    if c.weak_dimensions:
        out.append(f"<p>Weak: {esc(', '.join(c.weak_dimensions))}.</p>")
    if c.strong_dimensions:
        out.append(f"<p>Strong: {esc(', '.join(c.strong_dimensions))}.</p>")
    out += _findings(report.findings)
    if isinstance(report, Report):
        out += _evidence(report)
    out.append("</section>")
    return out


def _dimensions(dims: Sequence[Dimension]) -> list[str]:
    out = [
        "<h3>Dimensions</h3>",
        "<table>",
        "<thead><tr><th>dimension</th><th>weight</th><th>score</th><th></th>"
        "<th>grade</th><th>rubric</th></tr></thead>",
        "<tbody>",
    ]
    for d in dims:
        if d.score is None:
            out.append(
                f'<tr class="unmeasured"><td>{esc(d.name)}</td><td class="num">{d.weight:.2f}</td>'
                '<td class="num">—</td><td></td><td></td><td>unmeasured</td></tr>'
            )
            continue
        pct = d.score * 100
        bar = (
            f'<span class="bar" role="img" aria-label="{pct:.0f} of 100">'
            f'<span class="{_tone(pct)}" style="width:{pct:.0f}%"></span></span>'
        )
        out.append(
            f'<tr><td>{esc(d.name)}</td><td class="num">{d.weight:.2f}</td>'
            f'<td class="num {_tone(pct)}">{pct:.0f}</td><td>{bar}</td>'
            f"<td>{esc(d.grade or '')}</td><td>{esc(d.label or '')}</td></tr>"
        )
    out += ["</tbody>", "</table>"]
    return out


def _findings(findings: Sequence[FindingOut]) -> list[str]:
    n = _counts(findings)
    head = f"<h3>Findings: {n['error']} error(s), {n['warning']} warning(s), {n['info']} info</h3>"
    if not findings:
        return [head, '<p class="muted">Nothing to fix.</p>']
    out = [
        head,
        "<table>",
        "<thead><tr><th>severity</th><th>rule</th><th>location</th><th>message</th>"
        "<th>fix</th></tr></thead>",
        "<tbody>",
    ]
    for f in findings:
        anti = ' <span class="muted">(anti-pattern)</span>' if f.anti_pattern else ""
        out.append(
            f'<tr><td class="sev sev-{esc(f.severity)}">{esc(f.severity)}</td>'
            f"<td><code>{esc(f.code)}</code> {esc(f.flag)}{anti}</td>"
            f"<td><code>{esc(location(f))}</code></td>"
            f"<td>{esc(f.message)}</td><td>{esc(f.fix)}</td></tr>"
        )
    out += ["</tbody>", "</table>"]
    return out


def _evidence(report: Report) -> list[str]:
    out = ["<details>", "<summary>Evidence behind every sub-score</summary>"]
    for layer in report.layers:
        for name, sub in layer.sub_scores.items():
            feeds = f"feeds {esc(sub.feeds)}" if sub.feeds else "feeds no dimension"
            out.append(
                f"<h3>{esc(layer.layer)} · {esc(name)} {sub.score:.2f} "
                f'<span class="muted">({feeds})</span></h3>'
            )
            out.append('<ul class="evidence">')
            for e in sub.evidence:
                where = f' <span class="muted">(line {e.line})</span>' if e.line else ""
                out.append(f"<li><code>{e.points:+.2f}</code> {esc(e.label)}{where}</li>")
            out.append("</ul>")
    out.append("</details>")
    return out


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """Every report of the batch, opened by the result when the run failed."""
    return render(batch.reports, verdict=options.verdict)
