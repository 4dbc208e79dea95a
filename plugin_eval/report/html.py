"""A self-contained HTML report: inline CSS and inline SVG charts, no script, nothing loaded.

Every text that comes from a skill (names, paths, messages, fixes, evidence, prompts, quotes,
model names) goes through `esc`; numbers and this module's own words are the only unescaped
text. Charts come from `charts`, which rebuilds the SVG its library draws through a
whitelist; each has a title, a description and its numbers beside it in words or a table.

One score → band mapping colours every score: a score, its grade and its rubric label take
the class of the rubric band the score falls in (seed 003: Excellent ≥ 90, Good ≥ 70,
Acceptable ≥ 50, Poor ≥ 30, Failing below), so the three never disagree on a row. Items are
listed best first, in the ranked table, the heat map and the detail cards alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plugin_eval import __version__
from plugin_eval.report import charts
from plugin_eval.report.charts import BADGE_BANDS, esc
from plugin_eval.report.formats import RenderOptions, Verdict
from plugin_eval.report.judge import alpha_text
from plugin_eval.report.model import Batch, Dimension, FindingOut, Report, SummaryRow
from plugin_eval.report.montecarlo import IntervalOut, UsageOut
from plugin_eval.report.neutral import score_text
from plugin_eval.report.scored import (
    Scored,
    badge_text,
    below_threshold,
    location,
    result_block,
)
from plugin_eval.scoring.composite import label as rubric_label
from plugin_eval.scoring.composite import shown_delta, whole

if TYPE_CHECKING:
    from plugin_eval.report.summary import Run

# Even if a text escaped escaping, the page may run no script and load nothing.
CSP = "default-src 'none'; style-src 'unsafe-inline'"
MAX_ROWS = 400  # rows of the changes and trend tables (summary.json has every item)
MOVERS = 8  # items drawn in the chart of scores that moved most

SHORT = {
    "triggering_accuracy": "triggering",
    "orchestration_fitness": "orchestration",
    "output_quality": "output",
    "scope_calibration": "scope",
    "progressive_disclosure": "disclosure",
    "token_efficiency": "tokens",
    "robustness": "robustness",
    "structural_completeness": "structure",
    "code_template_quality": "templates",
    "ecosystem_coherence": "ecosystem",
}

CSS = """
:root { color-scheme: light dark;
  --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa;
  --link: #0969da; --series: #0969da; --second: #8250df; --hatch: #c4ccd4;
  --excellent: #1a7f37; --good: #4d7c0f; --acceptable: #9a6700; --poor: #bc4c00;
  --failing: #cf222e;
  --excellent-bg: #d6f5dc; --good-bg: #e6f2c4; --acceptable-bg: #fcecb3;
  --poor-bg: #ffcfa3; --failing-bg: #ffaba5;
  --platinum: #5b3fd1; --gold: #c99a06; --silver: #7d8fa3; --bronze: #a8612d;
  --none: #d1d9e0;
  --s0: #0969da; --s1: #bc4c00; --s2: #1a7f37; --s3: #8250df; --s4: #cf222e;
  --s5: #0a7a86; --s6: #9a6700; --s7: #bf3989; }
@media (prefers-color-scheme: dark) { :root {
  --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --bg: #0d1117; --panel: #151b23;
  --link: #4493f8; --series: #4493f8; --second: #ab7df8; --hatch: #4b535d;
  --excellent: #3fb950; --good: #a0c95c; --acceptable: #d29922; --poor: #f0883e;
  --failing: #ff7b72;
  --excellent-bg: #133d20; --good-bg: #2b3a14; --acceptable-bg: #41320a;
  --poor-bg: #552a0c; --failing-bg: #6e1f1d;
  --platinum: #8d77f5; --gold: #d9ad28; --silver: #9aa4ae; --bronze: #c27c46;
  --none: #3d444d;
  --s0: #4493f8; --s1: #f0883e; --s2: #3fb950; --s3: #ab7df8; --s4: #ff7b72;
  --s5: #39c5cf; --s6: #d29922; --s7: #f778ba; } }
* { box-sizing: border-box; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 72rem; padding: 1.5rem; }
a { color: var(--link); }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; overflow-wrap: anywhere; }
h3 { font-size: 1.15rem; margin: 0; overflow-wrap: anywhere; }
h4 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0 1rem; }
.muted, .path { color: var(--muted); }
.path, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 12px; overflow-wrap: anywhere; }
section.card { border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem;
  margin: 1.5rem 0; }
.headline { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline;
  margin: .5rem 0; }
.score { font-size: 2rem; font-weight: 600; }
.stats { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: baseline; }
.stat strong { font-size: 1.5rem; }
.pill { display: inline-block; border-radius: 2rem; padding: .1rem .65rem; font-weight: 600;
  font-size: 12px; border: 1px solid transparent; white-space: nowrap; }
.pill.badge-platinum { background: linear-gradient(135deg, #3d1fb8, #6f4cf0 60%, #9b7dff);
  color: #fff; border-color: #2e168f; letter-spacing: .02em; }
.pill.badge-gold { background: #f2c230; color: #3b2a00; border-color: #b88a00; }
.pill.badge-silver { background: #d0d7de; color: #1f2328; border-color: #9aa4ae; }
.pill.badge-bronze { background: #d9925f; color: #2b1505; border-color: #a8612d; }
.pill.badge-none { background: transparent; color: var(--muted); border-color: var(--line); }
.scroll { overflow-x: auto; max-width: 100%; margin: .5rem 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { background: var(--panel); font-weight: 600; white-space: nowrap; }
td code, td .path { overflow-wrap: break-word; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.band-excellent { color: var(--excellent); } .band-good { color: var(--good); }
.band-acceptable { color: var(--acceptable); } .band-poor { color: var(--poor); }
.band-failing { color: var(--failing); }
td.band-excellent, td.band-good, td.band-acceptable, td.band-poor, td.band-failing,
span.band-excellent, span.band-good, span.band-acceptable, span.band-poor, span.band-failing
{ font-weight: 600; }
table.heat td.cell { text-align: center; color: var(--fg); font-variant-numeric: tabular-nums;
  min-width: 3.2rem; }
table.heat td.cell.band-excellent { background: var(--excellent-bg); font-weight: 400; }
table.heat td.cell.band-good { background: var(--good-bg); font-weight: 400; }
table.heat td.cell.band-acceptable { background: var(--acceptable-bg); }
table.heat td.cell.band-poor { background: var(--poor-bg); font-weight: 700; }
table.heat td.cell.band-failing { background: var(--failing-bg); font-weight: 700;
  outline: 2px solid var(--failing); outline-offset: -2px; }
.nm { background: repeating-linear-gradient(135deg, transparent 0 4px, var(--hatch) 4px 6px);
  color: var(--muted); font-style: italic; }
.key { display: inline-block; min-width: 5.5rem; padding: 0 .4rem; margin: 0 .25rem .25rem 0;
  text-align: center; color: var(--fg); border: 1px solid var(--line); }
.key.band-excellent { background: var(--excellent-bg); } .key.band-good { background: var(--good-bg); }
.key.band-acceptable { background: var(--acceptable-bg); } .key.band-poor { background: var(--poor-bg); }
.key.band-failing { background: var(--failing-bg); }
.up { color: var(--excellent); } .down { color: var(--failing); }
.sev { font-weight: 600; text-transform: uppercase; font-size: 11px; }
.sev-error { color: var(--failing); } .sev-warning { color: var(--acceptable); }
.sev-info { color: var(--link); }
.unmeasured td { color: var(--muted); }
.notice { border-left: 4px solid var(--acceptable); background: var(--panel);
  padding: .5rem .75rem; }
q { font-style: italic; }
ul.quotes { margin: 0; padding-left: 1rem; }
details { margin-top: 1rem; } summary { cursor: pointer; font-weight: 600; }
ul.evidence { margin: .25rem 0 .75rem; padding-left: 1.25rem; }
figure { margin: .75rem 0 1rem; }
figure > .scroll { margin: 0; }
figcaption { color: var(--muted); font-size: 12px; max-width: 720px; }
svg.chart { display: block; width: 100%; min-width: 480px; max-width: 720px; height: auto; }
svg.chart-spark { width: 160px; min-width: 160px; height: 36px; }
svg.chart text { fill: var(--muted); font-size: 12px; font-family: sans-serif; stroke: none; }
svg.chart .axis.x text, svg.chart .centered { text-anchor: middle; }
svg.chart .axis.x text[transform] { text-anchor: start; }
svg.chart .axis.y text { text-anchor: end; fill: var(--fg); }
svg.chart .axis text.major { fill: var(--fg); font-weight: 600; }
svg.chart .background, svg.chart .nofill { fill: none; }
svg.chart .guide.line { stroke: var(--line); fill: none; }
svg.chart .axis .line, svg.chart .axis .major.line { stroke: var(--muted); fill: none; }
svg.chart .horizontal .axis.y .guide.line, svg.chart .vertical .axis.x .guide.line { opacity: 0; }
svg.chart .axis.always_show .guide.line, svg.chart .vertical .axis.x .major.guide.line { opacity: 1; }
svg.chart-distribution .axis.x .major.guide.line { stroke: var(--fg); stroke-width: 1.5;
  stroke-dasharray: 5 3; }
svg.chart .text-overlay text.value { fill: var(--fg); text-anchor: start; }
svg.chart .ci path { stroke: var(--fg); stroke-width: 1.5; fill: none; }
svg.chart rect.band-excellent { fill: var(--excellent); } svg.chart rect.band-good { fill: var(--good); }
svg.chart rect.band-acceptable { fill: var(--acceptable); } svg.chart rect.band-poor { fill: var(--poor); }
svg.chart rect.band-failing { fill: var(--failing); } svg.chart rect.second { fill: var(--second); }
svg.chart rect.badge-platinum { fill: var(--platinum); } svg.chart rect.badge-gold { fill: var(--gold); }
svg.chart rect.badge-silver { fill: var(--silver); } svg.chart rect.badge-bronze { fill: var(--bronze); }
svg.chart rect.badge-none { fill: var(--none); }
svg.chart rect.unmeasured { fill: none; stroke: var(--hatch); stroke-width: 1.5;
  stroke-dasharray: 4 3; }
svg.chart-profile .legend rect.color-0 { fill: var(--excellent); }
svg.chart-profile .legend rect.color-1 { fill: var(--second); }
svg.chart .series .line { fill: none; stroke-width: 2; }
svg.chart-spark .series .line { stroke-width: 1.5; }
svg.chart .color-0 .line, svg.chart .color-0 .dot { stroke: var(--s0); fill: var(--s0); }
svg.chart .color-1 .line, svg.chart .color-1 .dot { stroke: var(--s1); fill: var(--s1); }
svg.chart .color-2 .line, svg.chart .color-2 .dot { stroke: var(--s2); fill: var(--s2); }
svg.chart .color-3 .line, svg.chart .color-3 .dot { stroke: var(--s3); fill: var(--s3); }
svg.chart .color-4 .line, svg.chart .color-4 .dot { stroke: var(--s4); fill: var(--s4); }
svg.chart .color-5 .line, svg.chart .color-5 .dot { stroke: var(--s5); fill: var(--s5); }
svg.chart .color-6 .line, svg.chart .color-6 .dot { stroke: var(--s6); fill: var(--s6); }
svg.chart .color-7 .line, svg.chart .color-7 .dot { stroke: var(--s7); fill: var(--s7); }
svg.chart .series .line.nofill { fill: none; }
svg.chart-trend .legend rect.color-0 { fill: var(--s0); } svg.chart-trend .legend rect.color-1 { fill: var(--s1); }
svg.chart-trend .legend rect.color-2 { fill: var(--s2); } svg.chart-trend .legend rect.color-3 { fill: var(--s3); }
svg.chart-trend .legend rect.color-4 { fill: var(--s4); } svg.chart-trend .legend rect.color-5 { fill: var(--s5); }
svg.chart-trend .legend rect.color-6 { fill: var(--s6); } svg.chart-trend .legend rect.color-7 { fill: var(--s7); }
svg.chart .legends .legend text { fill: var(--fg); }
svg.chart .titles text { fill: var(--muted); text-anchor: middle; }
svg.chart-distribution .legend rect.color-0 { fill: var(--none); }
svg.chart-distribution .legend rect.color-1 { fill: var(--bronze); }
svg.chart-distribution .legend rect.color-2 { fill: var(--silver); }
svg.chart-distribution .legend rect.color-3 { fill: var(--gold); }
svg.chart-distribution .legend rect.color-4 { fill: var(--platinum); }
footer { color: var(--muted); font-size: 12px; margin-top: 2rem; }
@media (max-width: 600px) { body { padding: .75rem; } section.card { padding: .75rem; }
  .score { font-size: 1.6rem; } ul.notes { padding-left: 1rem; } }
"""


def band(score: float) -> str:
    """The class of the rubric band a 0–100 score falls in: 'band-good'."""
    return "band-" + rubric_label(score).lower()


def _pill(badge: str | None) -> str:
    if badge is None:
        return '<span class="muted">—</span>'
    key = badge if badge in {k for k, _, _ in BADGE_BANDS} else "none"
    return f'<span class="pill badge-{key}">{esc(badge_text(badge))}</span>'


def _table(head: Sequence[str], rows: Sequence[str], cls: str = "") -> list[str]:
    """A table in a wrapper that scrolls sideways on a narrow screen. ``head`` cells may be
    plain names or already-made ``<th>`` cells."""
    cells = "".join(h if h.startswith("<th") else f"<th>{h}</th>" for h in head)
    open_tag = f'<table class="{cls}">' if cls else "<table>"
    return [
        '<div class="scroll">',
        open_tag,
        f"<thead><tr>{cells}</tr></thead>",
        "<tbody>",
        *rows,
        "</tbody>",
        "</table>",
        "</div>",
    ]


def _figure(figure: charts.Figure) -> str:
    """The chart, and its title and numbers in words beneath it."""
    return (
        f'<figure><div class="scroll">{figure.svg}</div><figcaption><strong>'
        f"{esc(figure.title)}.</strong> {esc(figure.text)}</figcaption></figure>"
    )


def _ranked(reports: Sequence[Scored]) -> list[Scored]:
    """Best first, then by path: the one order of the page."""
    return sorted(reports, key=lambda r: (-r.composite.score, r.path))


def _anchor(number: int) -> str:
    """The id of the card of the ``number``-th ranked report: by its place, never by its
    path, which marketplace entries sharing a folder share ('.')."""
    return f"report-{number}"


def _anchors(ranked: Sequence[Scored]) -> dict[str, str]:
    """Each path that one report alone holds, with that report's card: a row that names an
    item only by path links to it (a path several reports share links to none)."""
    held = Counter(r.path for r in ranked)
    return {r.path: _anchor(n) for n, r in enumerate(ranked, 1) if held[r.path] == 1}


# The pages


def render(
    reports: Sequence[Scored],
    title: str = "plugin-eval report",
    verdict: Verdict | None = None,
) -> str:
    """One HTML document for one or many reports: the run's result when it failed, then for
    several an overview (charts), the heat map and the ranked summary, then each report."""
    ranked = _ranked(reports)
    body = _result(reports, verdict)
    nav: list[tuple[str, str]] = []
    if len(reports) > 1:
        scores = [r.composite.score for r in reports]
        badges = {key: sum(r.composite.badge == key for r in reports) for key, _, _ in BADGE_BANDS}
        body += _overview(scores, badges, sum(scores) / len(scores))
        body += _heatmap(ranked)
        body += _summary(ranked)
        nav = [("overview", "Overview"), ("heatmap", "Heat map"), ("ranked", "Ranked")]
    body += _cards(ranked, nav_items=bool(nav))
    if nav:
        nav.append(("items", "Items"))
    lead = f"{len(reports)} report(s) · plugin-eval {esc(__version__)}"
    return _page(title, lead, nav, body)


@dataclass(frozen=True, repr=False)
class Tree:
    """What report.html shows of a marketplace run besides each item's report: summary.json's
    header (counts, mean, badge counts, what changed, notes), the items that errored, the new
    and fixed findings listed in summary.md, and the runs of the trend, oldest first."""

    header: Mapping[str, Any]
    reports: Sequence[Report]
    errors: Sequence[SummaryRow] = ()
    listed: Sequence[tuple[str, str, str]] = ()
    runs: Sequence[Run] = ()


def render_tree(tree: Tree, title: str = "plugin-eval report") -> str:
    """report.html: overview, what changed, the trend, heat map, ranked items, errors, each
    item's report, and what was skipped."""
    h = tree.header
    counts = h["counts"]
    ranked = _ranked(tree.reports)
    anchors = _anchors(ranked)
    scores = [r.composite.score for r in tree.reports]
    mean = h.get("mean_score")
    body = _overview(scores, dict(h["badge_counts"]), mean if isinstance(mean, float) else None)
    nav = [("overview", "Overview")]
    if "changes" in h:
        body += _changes(h["changes"], tree.listed, anchors)
        nav.append(("changes", "What changed"))
    if len(tree.runs) > 1:
        body += _trend(tree.runs, anchors)
        nav.append(("trend", "Trend"))
    if ranked:
        body += _heatmap(ranked)
        body += _summary(ranked)
        nav += [("heatmap", "Heat map"), ("ranked", "Ranked")]
    if tree.errors:
        body += _errors(tree.errors)
        nav.append(("errors", "Errors"))
    body += _cards(ranked, nav_items=True)
    nav.append(("items", "Items"))
    if h.get("notes"):
        body += _notes(h["notes"])
        nav.append(("notes", "Skipped"))
    lead = (
        f"{counts['plugins']} plugin(s) and {counts['skills']} loose skill(s) under "
        f"<code>{esc(h['root'])}</code> · depth {esc(h['depth'])} (static layer) · "
        f"{counts['errored']} errored · plugin-eval {esc(h['version'])} · generated "
        f"{esc(h['generated_at'])}"
    )
    return _page(title, lead, nav, body)


def _page(title: str, lead: str, nav: Sequence[tuple[str, str]], body: Sequence[str]) -> str:
    links = "".join(f'<a href="#{anchor}">{text}</a>' for anchor, text in nav)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        f"<title>{esc(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="muted">{lead}</p>',
        *([f"<nav>{links}</nav>"] if nav else []),
        "</header>",
        "<main>",
        *body,
        "</main>",
        "<footer>Scores follow the PluginEval methodology; evidence lists what each sub-score "
        "is made of. Colours follow the rubric bands (Excellent ≥ 90, Good ≥ 70, Acceptable "
        "≥ 50, Poor ≥ 30, Failing below); every number is also written out.</footer>",
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


# Over every item


def _overview(scores: Sequence[float], badges: Mapping[str, int], mean: float | None) -> list[str]:
    """The mean, the count per badge, and the charts of both."""
    shown = f'<strong class="{band(mean)}">{mean:.1f}</strong>' if mean is not None else "—"
    out = [
        '<section id="overview">',
        "<h2>Overview</h2>",
        '<div class="stats">',
        f'<span class="stat">mean score {shown}</span>',
        f'<span class="stat">{len(scores)} item(s) scored</span>',
        *(
            f'<span class="stat">{_pill(key)} <strong>{badges.get(key, 0)}</strong></span>'
            for key, _, _ in BADGE_BANDS
        ),
        "</div>",
    ]
    if scores:
        out.append(_figure(charts.distribution(scores)))
        out.append(_figure(charts.badge_counts(badges)))
    out.append("</section>")
    return out


def _dimension_names(reports: Sequence[Scored]) -> list[str]:
    names: list[str] = []
    for r in reports:
        names += [d.name for d in r.composite.dimensions if d.name not in names]
    return names


def _heatmap(ranked: Sequence[Scored]) -> list[str]:
    """Items × dimensions, each cell in its band's colour; unmeasured cells hatched, 'n/m'."""
    names = _dimension_names(ranked)
    scores = {id(r): {d.name: d.score for d in r.composite.dimensions} for r in ranked}
    measured = [n for n in names if any(scores[id(r)].get(n) is not None for r in ranked)]
    never = [n for n in names if n not in measured]
    head = [
        "item",
        '<th class="num">composite</th>',
        *(f'<th class="num"><abbr title="{n}">{SHORT.get(n, n)}</abbr></th>' for n in measured),
    ]
    rows = []
    for number, r in enumerate(ranked, 1):
        cells = []
        for n in measured:
            value = scores[id(r)].get(n)
            if value is None:
                cells.append('<td class="cell nm">n/m</td>')
            else:
                cells.append(f'<td class="cell {band(value * 100)}">{whole(value)}</td>')
        c = r.composite
        rows.append(
            f'<tr><td><a href="#{_anchor(number)}">{esc(r.name)}</a></td>'
            f'<td class="cell num {band(c.score)}">{score_text(c.score)}</td>{"".join(cells)}</tr>'
        )
    keys = " ".join(
        f'<span class="key band-{name.lower()}">{name} {rule}</span>'
        for name, rule in (
            ("Excellent", "≥ 90"),
            ("Good", "≥ 70"),
            ("Acceptable", "≥ 50"),
            ("Poor", "≥ 30"),
            ("Failing", "below 30"),
        )
    )
    out = [
        '<section id="heatmap">',
        "<h2>Heat map: items × dimensions</h2>",
        f'<p>{keys} <span class="key nm">n/m: not measured</span></p>',
    ]
    if never:
        out.append(
            f'<p class="muted">Measured for no item (a deeper layer scores them): '
            f"{esc(', '.join(never))}.</p>"
        )
    out += _table(head, rows, "heat")
    out.append("</section>")
    return out


def _counts(findings: Sequence[FindingOut]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    return counts


def _ci(lower: float | None, upper: float | None) -> str:
    return "—" if lower is None or upper is None else f"[{lower:.1f}–{upper:.1f}]"


def _summary(ranked: Sequence[Scored]) -> list[str]:
    """The ranked table: the same order as the heat map and the cards below."""
    head = [
        '<th class="num">#</th>',
        "name",
        "kind",
        '<th class="num">score</th>',
        "badge",
        "grade",
        "rubric",
        "CI",
        '<th class="num">errors</th>',
        '<th class="num">warnings</th>',
        '<th class="num">info</th>',
    ]
    rows = []
    for number, r in enumerate(ranked, 1):
        c = r.composite
        n = _counts(r.findings)
        tone = band(c.score)
        rows.append(
            f'<tr><td class="num">{number}</td>'
            f'<td><a href="#{_anchor(number)}">{esc(r.name)}</a></td>'
            f"<td>{esc(getattr(r, 'kind', 'skill'))}</td>"
            f'<td class="num {tone}">{score_text(c.score)}</td><td>{_pill(c.badge)}</td>'
            f'<td class="{tone}">{esc(c.grade)}</td><td class="{tone}">{rubric_label(c.score)}</td>'
            f'<td class="num">{_ci(c.ci_lower, c.ci_upper)}</td>'
            f'<td class="num">{n["error"]}</td><td class="num">{n["warning"]}</td>'
            f'<td class="num">{n["info"]}</td></tr>'
        )
    return [
        '<section id="ranked">',
        "<h2>Ranked</h2>",
        *_table(head, rows),
        "</section>",
    ]


def _delta(value: float) -> str:
    if value > 0:
        return f'<span class="up">▲ {value:+.1f}</span>'
    if value < 0:
        return f'<span class="down">▼ {value:+.1f}</span>'
    return "±0.0"


def _item(name: str, path: str, anchors: Mapping[str, str]) -> str:
    shown = esc(name)
    link = f'<a href="#{anchors[path]}">{shown}</a>' if path in anchors else shown
    return f'{link} <span class="path">{esc(path)}</span>'


def _changes(
    ch: Mapping[str, Any], listed: Sequence[tuple[str, str, str]], anchors: Mapping[str, str]
) -> list[str]:
    """What changed since the previous run: scores and badges, items added and removed, and
    findings new and fixed (as summary.md says it)."""
    moved = ch["score_changes"]
    out = [
        '<section id="changes">',
        "<h2>What changed since the previous run</h2>",
        f"<p>{len(ch['added'])} added, {len(ch['removed'])} removed, {len(moved)} score or "
        f"badge change(s), {ch['new_findings']} new finding(s), {ch['fixed_findings']} fixed.</p>",
    ]
    if moved:
        rows = [
            f"<tr><td>{_item(d['name'], d['path'], anchors)}</td>"
            f'<td class="num {band(d["before"])}">{d["before"]:.1f}</td>'
            f'<td class="num {band(d["after"])}">{d["after"]:.1f}</td>'
            f'<td class="num">{_delta(shown_delta(d["before"], d["after"]) or 0.0)}</td>'
            f"<td>{_pill(d['badge_before'])}"
            + ("" if d["badge_before"] == d["badge_after"] else f" → {_pill(d['badge_after'])}")
            + "</td></tr>"
            for d in moved[:MAX_ROWS]
        ]
        out += _table(
            [
                "item",
                '<th class="num">before</th>',
                '<th class="num">after</th>',
                '<th class="num">Δ</th>',
                "badge",
            ],
            rows,
        )
        out += _more(len(moved))
    for label, key in (("Added", "added"), ("Removed", "removed")):
        if ch[key]:
            items = "".join(f"<li><code>{esc(p)}</code></li>" for p in ch[key][:MAX_ROWS])
            out += [f"<h4>{label} ({len(ch[key])})</h4>", f"<ul>{items}</ul>", *_more(len(ch[key]))]
    if listed:
        rows = [
            f"<tr><td>{kind}</td><td><code>{esc(path)}</code></td><td>{esc(key)}</td></tr>"
            for kind, path, key in listed
        ]
        out += [
            "<details open>",
            f"<summary>New and fixed findings (first {len(listed)})</summary>",
            *_table(["", "item", "finding"], rows),
            "</details>",
        ]
    out.append("</section>")
    return out


def _more(total: int) -> list[str]:
    if total <= MAX_ROWS:
        return []
    return [f'<p class="muted">… and {total - MAX_ROWS} more in summary.json.</p>']


def _trend(runs: Sequence[Run], anchors: Mapping[str, str]) -> list[str]:
    """The mean score over runs, the items whose score moved most, and each item's line."""
    stamps = [r.stamp or "earlier" for r in runs]
    labels = charts.run_labels(stamps)
    out = [
        '<section id="trend">',
        f"<h2>Trend over {len(runs)} runs</h2>",
        _figure(
            charts.trend(stamps, [("mean score", [r.mean for r in runs])], "Mean score per run")
        ),
    ]
    rows = []
    for r, stamp in zip(runs, labels, strict=True):
        mean = "—" if r.mean is None else f"{r.mean:.2f}"
        rows.append(
            f'<tr><td>{esc(stamp)}</td><td class="num">{len(r.rows)}</td>'
            f'<td class="num">{mean}</td></tr>'
        )
    out += _table(["run", '<th class="num">items</th>', '<th class="num">mean</th>'], rows)
    current = runs[-1]
    lines = []
    for path in current.rows:
        values = [run.rows[path][0] if path in run.rows else None for run in runs]
        known = [v for v in values if v is not None]
        change = known[-1] - known[0] if len(known) > 1 else 0.0
        lines.append((-abs(change), path, current.names.get(path, path), values, change))
    lines.sort()
    movers = [line for line in lines if line[4]][:MOVERS]
    if movers:
        series = [(name, values) for _, _, name, values, _ in movers]
        out.append(
            _figure(charts.trend(stamps, series, "Items whose score moved most", legend=True))
        )
    moved = [line for line in lines if line[4]]
    # An item scored in one run only has no move to show: new, not unchanged.
    new = {line[1] for line in lines if sum(v is not None for v in line[3]) < 2}
    still = [line for line in lines if not line[4] and line[1] not in new]
    out += [
        "<h4>Each item's score over the runs</h4>",
        f"<p>{len(moved)} of {len(lines)} item(s) moved; largest moves first"
        + (f"; {len(new)} scored in the last run only." if new else ".")
        + "</p>",
    ]
    head = [
        "item",
        '<th class="num">first</th>',
        '<th class="num">last</th>',
        '<th class="num">Δ</th>',
    ]
    if moved:
        rows = []
        for _, path, name, values, _ in moved[:MAX_ROWS]:
            known = [v for v in values if v is not None]
            spark = charts.sparkline(values, f"{charts.label(name)}: score per run")
            rows.append(
                f"<tr><td>{_item(name, path, anchors)}</td>"
                f'<td class="num">{known[0]:.1f}</td><td class="num">{known[-1]:.1f}</td>'
                f'<td class="num">{_delta(shown_delta(known[0], known[-1]) or 0.0)}</td>'
                f"<td>{spark.svg}</td>"
                f'<td class="muted">{esc(spark.text)}</td></tr>'
            )
        out += _table([*head, "over the runs", "per run"], rows)
        out += _more(len(moved))
    if still:
        rows = []
        for _, path, name, values, _ in still[:MAX_ROWS]:
            score = next((f"{v:.1f}" for v in values if v is not None), "—")
            rows.append(
                f'<tr><td>{_item(name, path, anchors)}</td><td class="num">{score}</td>'
                f'<td class="num">{score}</td><td class="num">±0.0</td></tr>'
            )
        out += [
            "<details>",
            f"<summary>{len(still)} item(s) unchanged</summary>",
            *_table(head, rows),
            *_more(len(still)),
            "</details>",
        ]
    out.append("</section>")
    return out


def _errors(rows: Sequence[SummaryRow]) -> list[str]:
    body = [
        f"<tr><td><code>{esc(r.path)}</code></td>"
        f"<td>{esc(r.error or 'load errors: ' + ', '.join(r.load_errors))}</td></tr>"
        for r in rows
    ]
    return [
        '<section id="errors">',
        "<h2>Errors</h2>",
        "<p>Items that could not be scored, or that a harness would not load.</p>",
        *_table(["item", "problem"], body),
        "</section>",
    ]


def _notes(notes: Sequence[str]) -> list[str]:
    items = "".join(f"<li>{esc(n)}</li>" for n in notes[:MAX_ROWS])
    return ['<section id="notes">', "<h2>Skipped</h2>", f"<ul>{items}</ul>", "</section>"]


# One item


def _cards(ranked: Sequence[Scored], nav_items: bool) -> list[str]:
    out = ['<section id="items">'] if nav_items else []
    if nav_items:
        out.append("<h2>Items</h2>")
    for number, r in enumerate(ranked, 1):
        out += _report(r, _anchor(number))
    if nav_items:
        out.append("</section>")
    return out


def _report(report: Scored, anchor: str) -> list[str]:
    c = report.composite
    tone = band(c.score)
    interval = (
        f' <span class="muted">[{c.ci_lower:.1f}–{c.ci_upper:.1f}]</span>'
        if c.ci_lower is not None and c.ci_upper is not None
        else ""
    )
    out = [
        f'<section class="card" id="{esc(anchor)}">',
        f"<h3>{esc(report.name)}</h3>",
        f'<div class="path">{esc(report.path)}</div>',
        '<div class="headline">',
        f'<span class="score {tone}">{score_text(c.score)}<small>/100</small></span>{interval}',
        _pill(c.badge),
        f'<span class="{tone}">grade <strong>{esc(c.grade)}</strong></span>',
        f'<span class="{tone}">{rubric_label(c.score)}</span>',
        f'<span class="muted">depth {esc(report.depth)} ({esc(c.confidence_label)}) · '
        f"penalty ×{c.penalty:.2f} for {c.anti_pattern_count} anti-pattern(s)</span>",
        "</div>",
    ]
    full = report if isinstance(report, Report) else None
    if full is not None:
        out += _seed_result(full)
    if full is not None and full.notes:
        out += ['<ul class="notes">', *(f"<li>{esc(n)}</li>" for n in full.notes), "</ul>"]
    out.append(_figure(_profile(report, full)))
    out += _dimensions(c.dimensions)
    if c.weak_dimensions:
        out.append(f"<p>Weak: {esc(', '.join(c.weak_dimensions))}.</p>")
    if c.strong_dimensions:
        out.append(f"<p>Strong: {esc(', '.join(c.strong_dimensions))}.</p>")
    if full is not None:
        out += _judge(full)
        out += _monte_carlo(full)
    out += _findings(report.findings)
    if full is not None:
        out += _evidence(full)
    out.append("</section>")
    return out


def _seed_result(report: Report) -> list[str]:
    """Seed 003's verdict, as the text output's `[RESULT: …]` block says it, and the overall
    feedback; nothing without a pass threshold."""
    block = result_block(report)
    if block is None or report.pass_threshold is None:
        return []
    items = []
    for label, value in block.parts(esc):
        if isinstance(value, str):
            items.append(f"<li>{label}: {value}</li>")
        else:
            listed = "".join(f"<li>{item}</li>" for item in value)
            items.append(f"<li>{label}:<ul>{listed}</ul></li>")
    tone = "band-excellent" if block.passed else "band-failing"
    return [
        '<div class="verdict">',
        f'<h4 class="{tone}">{esc(block.marker)} · pass threshold {report.pass_threshold:g}</h4>',
        "<ul>",
        *items,
        "</ul>",
        f"<p>{esc(report.overall_feedback)}</p>",
        "</div>",
    ]


def _profile(report: Scored, full: Report | None) -> charts.Figure:
    """Composite and dimensions on one scale, with the composite's interval and, for each
    judged dimension, the judges' mean with their lowest and highest score beside it."""
    c = report.composite
    judged = {}
    if full is not None:
        layer = next((x for x in full.layers if x.judge is not None), None)
        if layer is not None and layer.judge is not None:
            judged = {d.name: d for d in layer.judge.dimensions}
    rows = [charts.Bar("composite", c.score, c.ci_lower, c.ci_upper)]
    for d in c.dimensions:
        j = judged.get(d.name)
        rows.append(
            charts.Bar(
                d.name,
                None if d.score is None else d.score * 100,
                second=_hundred(j.score) if j else None,
                second_low=_hundred(j.low) if j else None,
                second_high=_hundred(j.high) if j else None,
            )
        )
    second = "judge (mean, lowest–highest)" if judged else None
    return charts.profile(rows, f"Dimension profile of {charts.label(report.name)}", second)


def _hundred(value: float | None) -> float | None:
    return None if value is None else value * 100


def _dimensions(dims: Sequence[Dimension]) -> list[str]:
    rows = []
    for d in dims:
        if d.score is None:
            rows.append(
                f'<tr class="unmeasured"><td>{esc(d.name)}</td><td class="num">{d.weight:.2f}</td>'
                '<td class="num nm">n/m</td><td></td><td>unmeasured</td><td></td></tr>'
            )
            continue
        pct = d.score * 100
        tone = band(pct)
        rows.append(
            f'<tr><td>{esc(d.name)}</td><td class="num">{d.weight:.2f}</td>'
            f'<td class="num {tone}">{whole(d.score)}</td><td class="{tone}">{esc(d.grade or "")}</td>'
            f'<td class="{tone}">{esc(d.label or "")}</td>'
            f"<td>{esc(', '.join(d.measured_by))}</td></tr>"
        )
    head = [
        "dimension",
        '<th class="num">weight</th>',
        '<th class="num">score</th>',
        "grade",
        "rubric",
        "measured by",
    ]
    return ["<h4>Dimensions</h4>", *_table(head, rows)]


def _usage(u: UsageOut) -> str:
    cost = "cost unknown (no price)" if u.cost_usd is None else f"cost ${u.cost_usd:.4f}"
    saved = f", ${u.saved_by_cache_usd:.4f} saved by the cache" if u.saved_by_cache_usd else ""
    return (
        f"{u.calls} call(s): {u.backend_calls} request(s), {u.cached_calls} cached, "
        f"{u.retries} retried · tokens {u.input_tokens} in / {u.output_tokens} out · "
        f"{cost}{saved}"
    )


def _judge(report: Report) -> list[str]:
    """Each judged dimension with its score ± spread, each judge's band and the quotes; the
    judges' agreement, the caveat, and the cost."""
    layer = next((x for x in report.layers if x.judge is not None), None)
    if layer is None or layer.judge is None:
        return []
    j = layer.judge
    alpha = alpha_text(j.alpha, j.alpha_ci_lower, j.alpha_ci_upper)
    models = ", ".join(f"<code>{esc(m)}</code>" for m in j.models)
    out = [
        "<h4>Judge</h4>",
        f"<p>{esc(j.backend)} ({models}) · {j.usable_judges} of {j.judges} judgement(s) "
        f"usable · agreement (Krippendorff's alpha on the bands) {alpha}</p>",
    ]
    if j.caveat:
        out.append(f'<p class="notice"><strong>Caveat:</strong> {esc(j.caveat)}.</p>')
    if j.excerpt:
        out.append(f"<p>Judged on an excerpt: {esc(j.excerpt)}.</p>")
    rows = []
    for d in j.dimensions:
        bands = ", ".join("–" if b is None else str(b) for b in d.bands)
        if d.score is None:
            score = "unmeasured"
        else:
            score = (
                f'<span class="{band(d.score * 100)}">{d.score:.2f}</span> ± {d.spread or 0:.2f}'
            )
        if d.capped_at is not None:
            score += f" (capped at {d.capped_at:.2f})"
        spread = f"{d.low:.2f}–{d.high:.2f}" if d.low is not None and d.high is not None else "—"
        quotes = "".join(f"<li><q>{esc(q)}</q></li>" for q in d.quotes)
        extra = []
        if d.dropped_quotes:
            extra.append(f"{d.dropped_quotes} quote(s) not in the skill, dropped")
        if d.unusable:
            extra.append(f"{d.unusable} judge(s) unusable")
        extra += list(d.problems)
        reasons = list(dict.fromkeys(d.reasons))
        rows.append(
            f'<tr><td>{esc(d.name)}</td><td class="num">{score}</td>'
            f'<td class="num">{spread}</td><td>{bands}</td>'
            f'<td><ul class="quotes">{quotes}</ul></td>'
            f"<td>{esc('; '.join(reasons + extra))}</td></tr>"
        )
    out += _table(
        [
            "dimension",
            '<th class="num">score ± spread</th>',
            '<th class="num">lowest–highest</th>',
            "each judge's band",
            "quotes",
            "reasons",
        ],
        rows,
    )
    out.append(f'<p class="muted">{_usage(j.usage)}</p>')
    if j.messages:
        out += ["<ul>", *(f"<li>{esc(m)}</li>" for m in j.messages), "</ul>"]
    return out


def _interval_row(name: str, e: IntervalOut) -> str:
    return (
        f'<tr><td>{name}</td><td class="num">{esc(e.text())}</td><td>{esc(e.method)}</td>'
        f'<td class="num">{e.n}</td></tr>'
    )


def _named_counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{esc(name)} {n}" for name, n in counts.items()) or "—"


SIMULATION = (
    "<strong>Simulation.</strong> Routing was decided by a lexical (BM25) router over skill "
    "names and descriptions, not by a model: these figures show how well the description's "
    "words set the skill apart from its neighbours for these prompts, not what Claude or GPT "
    "would do. Output quality, consistency, robustness and token efficiency need a model "
    "backend (--backend anthropic|openai)."
)


def _monte_carlo(report: Report) -> list[str]:
    """Routing precision, recall and F1 with their intervals, the prompts it got wrong and who
    took them, output quality, consistency, failures and cost."""
    layer = next((x for x in report.layers if x.monte_carlo is not None), None)
    if layer is None or layer.monte_carlo is None:
        return []
    mc = layer.monte_carlo
    what = (
        "simulation: lexical BM25 router, not a model"
        if mc.simulated
        else f"<code>{esc(mc.model)}</code>"
        + (f" at <code>{esc(mc.base_url)}</code>" if mc.base_url else "")
    )
    d = mc.distractors
    stop = f" · stopped early ({esc(mc.stopped_early)})" if mc.stopped_early else ""
    partial = " · partial (--max-cost)" if mc.partial else ""
    out = [
        "<h4>Monte Carlo</h4>",
        f"<p>{esc(mc.backend)} ({what}) · {mc.runs} run(s) of {mc.distinct_prompts} prompt(s) "
        f"({mc.runs_requested} asked) · {len(d.candidates) - 1} distractor(s), {esc(d.source)} · "
        f"prompts: {esc(mc.prompt_source)}{stop}{partial}</p>",
    ]
    if mc.simulated:
        out.append(f'<p class="notice">{SIMULATION}</p>')
    t, q, k, f = mc.triggering, mc.output_quality, mc.consistency, mc.failures
    measures = [("precision", t.precision), ("recall", t.recall), ("F1", t.f1)] if t else []
    if q is not None:
        measures.append(("output quality", q.mean))
    bars = [
        charts.Bar(name, e.value * 100, _hundred(e.ci_lower), _hundred(e.ci_upper))
        for name, e in measures
        if e.value is not None
    ]
    if k is not None:
        bars.append(charts.Bar("consistency", k.score))
    if bars:
        out.append(
            _figure(
                charts.profile(
                    bars,
                    f"Monte Carlo measures of {charts.label(report.name)} "
                    "(0–100, with 95 % intervals)",
                    kind="measures",
                )
            )
        )
    rows = []
    if t is not None:
        rows += [
            _interval_row("precision", t.precision),
            _interval_row("recall", t.recall),
            _interval_row("F1", t.f1),
        ]
    if q is not None:
        rows.append(_interval_row(f"output quality ({esc(q.method)}, {q.cases} case(s))", q.mean))
    if k is not None:
        rows.append(
            f'<tr><td>consistency</td><td class="num">{k.score:.0f}/100</td>'
            f"<td>mean pairwise Jaccard {k.mean_jaccard:.2f}</td>"
            f'<td class="num">{k.prompts}</td></tr>'
        )
    rows.append(_interval_row(f"failure rate ({f.failures} of {f.calls} calls)", f.rate))
    if mc.tokens is not None:
        rows.append(
            f'<tr><td>output tokens</td><td class="num">median '
            f"{mc.tokens.median_output_tokens:.0f}</td>"
            f"<td>IQR {mc.tokens.q1:.0f}–{mc.tokens.q3:.0f}</td>"
            f'<td class="num">{mc.tokens.replies}</td></tr>'
        )
    c = report.composite
    if c.ci_lower is not None and c.ci_upper is not None:
        judges = " and judges" if any(x.judge is not None for x in report.layers) else ""
        rows.append(
            f'<tr><td>composite</td><td class="num">{score_text(c.score)} '
            f"[{c.ci_lower:.1f}–{c.ci_upper:.1f}]</td>"
            f"<td>percentile bootstrap over prompts{judges}</td>"
            f'<td class="num">{mc.bootstrap_resamples}</td></tr>'
        )
    out += _table(
        [
            "measure",
            '<th class="num">value [95 % interval]</th>',
            "method",
            '<th class="num">n</th>',
        ],
        rows,
    )
    if t is not None:
        out.append(
            f"<p>Routing runs: TP {t.tp} · FP {t.fp} · FN {t.fn} · TN {t.tn}"
            + (f" · {t.failed_runs} failed" if t.failed_runs else "")
            + ".</p>"
        )
        if t.stolen_by:
            out.append(f"<p>Missed should-trigger runs went to: {_named_counts(t.stolen_by)}.</p>")
        if t.false_triggers_from:
            out.append(
                f"<p>Should-not runs it took belong to: {_named_counts(t.false_triggers_from)}.</p>"
            )
    for name, match in (
        ("items", q.item_match if q else None),
        ("cards", q.card_match if q else None),
    ):
        if match is not None:
            out.append(f"<p>Seed 004 match of {name}: {esc(match.text())}.</p>")
    if q is not None and q.structured is not None:
        st = q.structured
        out.append(
            f"<p>Structured data (seed 000): completeness {st.completeness:.0f}, accuracy "
            f"{st.accuracy:.0f}, types {st.type_correctness:.0f}, sufficiency "
            f"{st.sufficiency:.0f}, score {st.score:.0f} ({st.replies} replies, "
            f"{st.not_json} not JSON).</p>"
        )
    if f.by_kind or f.first_message:
        out.append(
            f"<p>Failures: {_named_counts(f.by_kind)}"
            + (f"; first: {esc(f.first_message)}" if f.first_message else "")
            + ".</p>"
        )
    wrong = [p for p in mc.prompts if p.outcome != "pass"]
    if wrong:
        rows = [
            f"<tr><td>{esc(p.prompt)}</td><td>{'trigger' if p.should_trigger else 'not trigger'}</td>"
            f"<td>{esc(p.outcome)}</td><td>{_named_counts(p.picked)}</td>"
            f"<td>{esc(p.owner or '—')}</td><td>{esc(p.source)}</td></tr>"
            for p in wrong
        ]
        out += [
            f"<p>{len(wrong)} of {len(mc.prompts)} prompt(s) went wrong:</p>",
            *_table(["prompt", "expected", "outcome", "picked", "owner", "source"], rows),
        ]
    else:
        out.append(f"<p>All {len(mc.prompts)} prompt(s) passed.</p>")
    out.append(f'<p class="muted">{_usage(mc.usage)}</p>')
    return out


def _findings(findings: Sequence[FindingOut]) -> list[str]:
    n = _counts(findings)
    head = f"<h4>Findings: {n['error']} error(s), {n['warning']} warning(s), {n['info']} info</h4>"
    if not findings:
        return [head, '<p class="muted">Nothing to fix.</p>']
    rows = []
    for f in findings:
        anti = ' <span class="muted">(anti-pattern)</span>' if f.anti_pattern else ""
        rows.append(
            f'<tr><td class="sev sev-{esc(f.severity)}">{esc(f.severity)}</td>'
            f"<td><code>{esc(f.code)}</code> {esc(f.flag)}{anti}</td>"
            f"<td><code>{esc(location(f))}</code></td>"
            f"<td>{esc(f.message)}</td><td>{esc(f.fix)}</td></tr>"
        )
    return [head, *_table(["severity", "rule", "location", "message", "fix"], rows)]


def _evidence(report: Report) -> list[str]:
    out = ["<details>", "<summary>Evidence behind every sub-score</summary>"]
    for layer in report.layers:
        for name, sub in layer.sub_scores.items():
            feeds = f"feeds {esc(sub.feeds)}" if sub.feeds else "feeds no dimension"
            out.append(
                f"<h4>{esc(layer.layer)} · {esc(name)} {sub.score:.2f} "
                f'<span class="muted">({feeds})</span></h4>'
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
