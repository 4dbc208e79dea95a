"""Charts of the HTML report: geometry laid out by pygal, made inert and styled by the page.

pygal (imported here on first use, so only an HTML page pays for it) computes the axes,
bars, whiskers and lines. What it emits is then rebuilt through a whitelist: shapes, text
and groups, with their geometry and pygal's class names, nothing else. Its scripts, styles,
comments, ids, tooltips and links never reach the page, so no chart can run, fetch or
restyle anything; the page's own CSS colours every chart (light and dark) by those classes.
Labels that come from a skill are made visible (``neutral.visible``) before pygal sees them
and HTML-escaped when written. Each chart opens with ``<title>`` and ``<desc>`` and carries
``role="img"`` with an ``aria-label``; the page puts the numbers beside it as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from plugin_eval import regexes
from plugin_eval.findings import bounded
from plugin_eval.report.neutral import html_text, visible

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

# Noncharacters, which an HTML document may not hold (a parse error): shown as escapes.
_NONCHARACTER = regexes.compile(
    "[\ufdd0-\ufdef"
    + "".join(chr(p << 16 | 0xFFFE) + chr(p << 16 | 0xFFFF) for p in range(17))
    + "]"
)


def esc(text: object) -> str:
    """Text made inert in HTML element content, in a quoted attribute value and in SVG text:
    visible (``neutral.visible``), no noncharacter, then HTML-escaped."""
    return html_text(_NONCHARACTER.sub(_shown, str(text)))


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


# What a chart may hold: shapes, text and groups, with geometry and class names only.
_ELEMENTS = frozenset({"svg", "g", "rect", "path", "line", "circle", "polyline", "text", "tspan"})
_ATTRIBUTES = frozenset(
    {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height", "d"}
    | {"points", "transform", "class", "text-anchor"}
)
# pygal's groups that only its script uses (hover boxes) or that paint the background (the
# page's); and the classes only its script reads.
_DROPPED_GROUPS = frozenset({"tooltip-overlay", "tooltip", "background"})
_SCRIPT_CLASSES = frozenset({"reactive", "tooltip-trigger", "activate-serie"})
_CLASS = regexes.compile(r"[A-Za-z0-9_-]+")
_NUMBER = regexes.compile(r"-?\d+\.\d{2,}")
LABEL_CHARS = 60  # a name longer than this is cut in a chart (the page shows it whole)
# Drawing units across; the page shows a chart at most this wide in CSS pixels (and, on a
# narrow screen, at least 480 of them, scrolling sideways), so its 12-unit text stays legible.
WIDTH = 640

# Badge bands of seed 002 with the class each is drawn with, best first.
BADGE_BANDS: tuple[tuple[str, str, float], ...] = (
    ("platinum", "Platinum", 90.0),
    ("gold", "Gold", 80.0),
    ("silver", "Silver", 70.0),
    ("bronze", "Bronze", 60.0),
    ("none", "no badge", 0.0),
)


def label(text: str, limit: int = LABEL_CHARS) -> str:
    """A name as a chart shows it: visible, one line, cut in the middle past ``limit``."""
    return bounded(visible(text), limit)


def _style() -> Any:
    from pygal.style import Style

    # Colours are the page's (CSS, by class); these sizes are what pygal lays text out with,
    # and the page's CSS sets the same ones.
    return Style(
        background="transparent",
        plot_background="transparent",
        font_family="sans-serif",
        label_font_size=12,
        major_label_font_size=12,
        value_font_size=12,
        value_label_font_size=12,
        title_font_size=14,
        legend_font_size=12,
        no_data_font_size=14,
        colors=("#777777",) * 8,
    )


def _options(**extra: Any) -> dict[str, Any]:
    """pygal options shared by every chart: nothing fetched or run, no fixed pixel size."""
    base: dict[str, Any] = {
        "js": [],
        "css": [],
        "disable_xml_declaration": True,
        "no_prefix": True,
        "explicit_size": False,
        "show_legend": False,
        "style": _style(),
        "margin": 8,
        "spacing": 8,
        "tooltip_border_radius": 0,
        "no_data_text": "no data",
        "print_values": False,
    }
    base.update(extra)
    return base


def _local(tag: object) -> str:
    """The element's name without a namespace; '' for comments and processing instructions."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def _value(name: str, value: str) -> str | None:
    """An attribute value as the page writes it; None to leave the attribute out."""
    if name == "class":
        classes = [c for c in value.split() if _CLASS.fullmatch(c) and c not in _SCRIPT_CLASSES]
        return " ".join(classes) or None
    if name in ("rx", "ry") and value == "0":
        return None
    # Geometry to a tenth of a unit: the same picture in half the bytes.
    return _NUMBER.sub(lambda m: f"{float(m.group()):.1f}", value)


def _inner(node: Element) -> Iterator[str]:
    """The whitelisted content of ``node``, serialised, its text escaped."""
    if node.text and _local(node.tag) in ("text", "tspan"):
        yield esc(node.text)
    for child in node:
        name = _local(child.tag)
        classes = set(str(child.get("class", "")).split())
        if name in _ELEMENTS and name != "svg" and not classes & _DROPPED_GROUPS:
            attributes = ""
            for key, raw in child.items():
                if key in _ATTRIBUTES:
                    shown = _value(key, str(raw))
                    if shown is not None:
                        attributes += f' {key}="{esc(shown)}"'
            body = "".join(_inner(child))
            yield f"<{name}{attributes}>{body}</{name}>"
        if child.tail and _local(node.tag) in ("text", "tspan"):
            yield esc(child.tail)


@dataclass(frozen=True, repr=False)
class Figure:
    """One chart: inline SVG, its title, and the sentence that gives its numbers in words."""

    svg: str
    title: str
    text: str


def _figure(tree: Element, kind: str, title: str, desc: str) -> Figure:
    """pygal's tree rebuilt through the whitelist, with the title and description first."""
    box = str(tree.get("viewBox", "0 0 800 400"))
    if not re.fullmatch(r"[\d. ]+", box):
        box = "0 0 800 400"
    svg = (
        f'<svg class="chart chart-{kind}" '
        f'viewBox="{box}" role="img" aria-label="{esc(title)}">'
        f"<title>{esc(title)}</title><desc>{esc(desc)}</desc>" + "".join(_inner(tree)) + "</svg>"
    )
    return Figure(svg, title, desc)


def _band_class(score: float) -> str:
    from plugin_eval.scoring.composite import label as rubric_label

    return "band-" + rubric_label(score).lower()


def badge_of(score: float) -> str:
    """The badge band a score falls in (platinum … none)."""
    return next(key for key, _, floor in BADGE_BANDS if score >= floor)


def distribution(
    scores: Sequence[float], title: str = "Distribution of composite scores"
) -> Figure:
    """A histogram of composite scores in 5-point bins, one series per badge (worst first, so
    the legend reads up the scale) in its colour, with the badge thresholds (60, 70, 80, 90)
    drawn as marked lines."""
    import pygal

    bins = [0] * 20
    for s in scores:
        bins[min(19, max(0, int(s // 5)))] += 1
    chart = pygal.Histogram(
        **_options(
            width=WIDTH,
            height=330,
            range=(0, max([*bins, 1])),
            xrange=(0, 100),
            x_labels=[0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
            x_labels_major=[60, 70, 80, 90],
            show_minor_x_labels=True,
            y_title="items",
            min_scale=2,
            max_scale=6,
            show_legend=True,
            legend_at_bottom=True,
            legend_at_bottom_columns=len(BADGE_BANDS),
        )
    )
    for key, name, _ in reversed(BADGE_BANDS):
        chart.add(
            name,
            [
                {"value": (n, 5 * i, 5 * i + 5), "node": {"class": f"rect badge-{key}"}}
                for i, n in enumerate(bins)
                if n and badge_of(5 * i) == key
            ],
        )
    lowest, highest = (min(scores), max(scores)) if scores else (0.0, 0.0)
    bands = ", ".join(
        f"{lo}–{lo + 5}: {n}" for lo, n in ((5 * i, n) for i, n in enumerate(bins)) if n
    )
    desc = (
        f"{len(scores)} item(s), lowest {lowest:.1f}, highest {highest:.1f}; items per 5-point "
        f"bin: {bands or 'none'}. Badge thresholds: Bronze 60, Silver 70, Gold 80, Platinum 90."
    )
    return _figure(chart.render_tree(), "distribution", title, desc)


def badge_counts(counts: Mapping[str, int], title: str = "Items per badge") -> Figure:
    """One horizontal bar per badge, best at the top, each in its badge's colour."""
    import pygal

    rows = [(key, name, counts.get(key, 0)) for key, name, _ in BADGE_BANDS]
    chart = pygal.HorizontalBar(
        **_options(
            width=WIDTH,
            height=60 + 34 * len(rows),
            print_values=True,
            print_values_position="top",
            range=(0, max([n for _, _, n in rows] + [1])),
            min_scale=2,
            max_scale=6,
        )
    )
    # pygal draws a horizontal chart's first label at the bottom: given worst first, the
    # best badge is at the top.
    ordered = list(reversed(rows))
    chart.x_labels = [name for _, name, _ in ordered]
    chart.add(
        "items",
        [{"value": n, "node": {"class": f"rect badge-{key}"}} for key, _, n in ordered],
    )
    desc = "; ".join(f"{name}: {n}" for _, name, n in rows) + "."
    return _figure(chart.render_tree(), "badges", title, desc)


@dataclass(frozen=True, repr=False)
class Bar:
    """One row of a profile: a name, a 0–100 value (None: not measured) and its interval."""

    name: str
    value: float | None
    low: float | None = None
    high: float | None = None
    # A second value drawn beside it (the judge's mean), with its own interval.
    second: float | None = None
    second_low: float | None = None
    second_high: float | None = None


def _point(value: float | None, low: float | None, high: float | None, cls: str) -> Any:
    if value is None:
        return None
    point: dict[str, Any] = {"value": round(value, 1), "node": {"class": f"rect {cls}"}}
    if low is not None and high is not None:
        point["ci"] = {"low": round(min(low, value), 1), "high": round(max(high, value), 1)}
    return point


def _row_text(r: Bar, second: str | None) -> str:
    """A row's label with its numbers: 'recall 89 [56–98]', 'robustness not measured'."""
    if r.value is None and r.second is None:
        return f"{r.name} not measured"
    text = f"{r.name} {r.value:.0f}" if r.value is not None else f"{r.name} —"
    if r.low is not None and r.high is not None:
        text += f" [{r.low:.0f}–{r.high:.0f}]"
    if r.second is not None and second:
        text += f", {second} {r.second:.0f}"
        if r.second_low is not None and r.second_high is not None:
            text += f" [{r.second_low:.0f}–{r.second_high:.0f}]"
    return text


def profile(
    rows: Sequence[Bar], title: str, second: str | None = None, kind: str = "profile"
) -> Figure:
    """Horizontal bars on a 0–100 scale, first row at the top, each in its band's colour,
    with a whisker where an interval is known; each row's label carries its numbers, and an
    unmeasured row reads 'not measured'. ``second``: the name of a second series drawn beside
    the first where it has a value (the judges' mean, whisker from their lowest to highest)."""
    import pygal

    ordered = list(reversed(rows))
    chart = pygal.HorizontalBar(
        **_options(
            width=WIDTH,
            height=48 + (40 if second else 26) * len(rows) + (48 if second else 0),
            range=(0, 100),
            min_scale=5,
            max_scale=10,
            show_legend=bool(second),
            legend_at_bottom=True,
            legend_at_bottom_columns=1,
            truncate_label=-1,
            truncate_legend=-1,
        )
    )
    chart.x_labels = [_row_text(r, second and "judge") for r in ordered]
    # An unmeasured row is an empty dashed frame across the scale, never a short bar.
    chart.add(
        "score (coloured by band)",
        [
            _point(r.value, r.low, r.high, _band_class(r.value))
            if r.value is not None
            else (_point(100, None, None, "unmeasured") if r.second is None else None)
            for r in ordered
        ],
    )
    if second:
        chart.add(
            second,
            [_point(r.second, r.second_low, r.second_high, "second") for r in ordered],
        )
    desc = "; ".join(_row_text(r, second and "judge") for r in rows) + "."
    return _figure(chart.render_tree(), kind, title, desc)


def run_labels(stamps: Sequence[str]) -> list[str]:
    """Each run's date (2025-06-02), with as much of its time as tells runs of one day apart."""
    for width in (10, 16):
        shown = [stamp[:width].replace("T", " ") for stamp in stamps]
        if len(set(shown)) == len(shown):
            return shown
    return [stamp.replace("T", " ").removesuffix("Z") for stamp in stamps]


def trend(
    stamps: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    title: str,
    legend: bool = False,
) -> Figure:
    """Lines over runs (oldest first): each series' value per run, a gap where it is unknown."""
    import pygal

    known = [v for _, values in series for v in values if v is not None]
    low = max(0.0, (min(known) if known else 0.0) - 5)
    high = min(100.0, (max(known) if known else 100.0) + 5)
    chart = pygal.Line(
        **_options(
            width=WIDTH,
            height=300 + (24 * ((len(series) + 1) // 2) if legend else 0),
            range=(low, high),
            show_legend=legend,
            legend_at_bottom=True,
            legend_at_bottom_columns=min(2, len(series)),
            x_label_rotation=20 if len(stamps) > 6 else 0,
            margin_right=48,
            margin_left=48,
            allow_interruptions=True,
            dots_size=3,
            min_scale=4,
            max_scale=8,
            truncate_legend=LABEL_CHARS,
        )
    )
    chart.x_labels = run_labels(stamps)
    for name, values in series:
        chart.add(label(name), [None if v is None else round(v, 2) for v in values])
    parts = []
    for name, values in series:
        shown = ", ".join("—" if v is None else f"{v:.1f}" for v in values)
        parts.append(f"{label(name)}: {shown}")
    desc = (
        f"Runs {', '.join(run_labels(stamps))}. " + "; ".join(parts) + "." if stamps else "No runs."
    )
    return _figure(chart.render_tree(), "trend", title, desc)


def sparkline(values: Sequence[float | None], title: str) -> Figure:
    """A small line of one item's score over runs, no axes (the row beside it has the numbers)."""
    import pygal

    known = [v for v in values if v is not None]
    low, high = (min(known), max(known)) if known else (0.0, 100.0)
    pad = max(1.0, (high - low) * 0.1)
    chart = pygal.Line(
        **_options(
            width=160,
            height=36,
            show_dots=True,
            dots_size=2,
            show_x_labels=False,
            show_y_labels=False,
            show_y_guides=False,
            show_x_guides=False,
            margin=3,
            spacing=0,
            allow_interruptions=True,
            range=(low - pad, high + pad),
        )
    )
    chart.x_labels = [str(i) for i in range(len(values))]
    chart.add("score", [None if v is None else round(v, 2) for v in values])
    desc = ", ".join("—" if v is None else f"{v:.1f}" for v in values)
    return _figure(chart.render_tree(), "spark", title, desc)
