"""The HTML report (issue 13): charts, every layer, what changed and the trend, one colour
scale; valid HTML5 that loads nothing and shows hostile names as text.

The pages are made as a user makes them: `report` twice over a copy of the bundled corpus
(one skill changed between the runs, a hostile skill among them) with `--previous` and
`--history`, and `score corpus/csv-cleanup --depth deep -o html`, offline and against the
tests' model server (judge and model routing).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import html5lib
import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.report import charts
from plugin_eval.report.html import band
from plugin_eval.report.neutral import visible
from plugin_eval.scoring.composite import shown_delta
from tests.conftest import REPO
from tests.fake_llm_server import FakeLLM, JudgeFault

runner = CliRunner()
XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE_NAME = "<script>alert(1)</script>&\"'\u202e"
HOSTILE_SKILL = (
    f"---\nname: {json.dumps(HOSTILE_NAME)}\n"
    'description: "Formats <img src=x onerror=alert(2)> reports. Use when exporting tables, '
    'cleaning column names, or merging ledger files."\n---\n\n'
    "# Hostile\n\n## Steps\n\nTrim cells.\n"
)
# What a chart may hold, and what the page around it may point at.
SVG_ELEMENTS = {"svg", "title", "desc", "g", "rect", "path", "line", "circle", "polyline"}
SVG_ELEMENTS |= {"text", "tspan"}
SVG_ATTRIBUTES = {"class", "viewBox", "role", "aria-label", "x", "y", "x1", "y1", "x2", "y2"}
SVG_ATTRIBUTES |= {"cx", "cy", "r", "rx", "ry", "width", "height", "d", "points", "transform"}
SVG_ATTRIBUTES |= {"text-anchor"}
LABELS = {"Excellent", "Good", "Acceptable", "Poor", "Failing"}
LINKS = ("href", "src", "srcset", "action", "formaction", "poster", "data", "background")


@dataclass(frozen=True)
class Page:
    text: str
    root: ET.Element

    def all(self, tag: str) -> list[ET.Element]:
        ns = SVG if tag in SVG_ELEMENTS else XHTML
        return list(self.root.iter(ns + tag))

    def svgs(self) -> list[ET.Element]:
        return self.all("svg")

    def section(self, anchor: str) -> ET.Element:
        found = [e for e in self.root.iter() if e.get("id") == anchor]
        assert len(found) == 1, anchor
        return found[0]


def parse(text: str) -> Page:
    """The page parsed by html5lib in strict mode: any HTML5 parse error raises."""
    root = html5lib.HTMLParser(strict=True).parse(text)
    return Page(text, root)


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def _report(root: Path, out: Path, *options: str) -> None:
    args = ["report", str(root), "--out", str(out), "--no-cache", "-j", "1", "--html", "-q"]
    result = runner.invoke(app, [*args, *options])
    assert result.exit_code in (0, 1), result.output


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """report.html of the second run over a copy of the corpus: csv-cleanup and the hostile
    skill changed since the first run (its --previous); --history holds the first run's
    summary again, an older one and a broken one."""
    base = tmp_path_factory.mktemp("tree")
    root = base / "corpus"
    shutil.copytree(REPO / "corpus", root)
    (root / "hostile").mkdir()
    (root / "hostile" / "SKILL.md").write_text(HOSTILE_SKILL, encoding="utf-8")
    _report(root, base / "week1")
    cleanup = root / "csv-cleanup" / "SKILL.md"
    cleanup.write_text(cleanup.read_text() + "\nSee [the notes](references/gone.md).\n")
    (root / "hostile" / "SKILL.md").write_text(
        HOSTILE_SKILL + "\nSee [a](references/a.md) and [b](references/b.md).\n"
    )
    shutil.copytree(REPO / "corpus" / "csv-cleanup", root / "added-later")  # new in week 2
    history = base / "history"
    (history / "week1").mkdir(parents=True)
    shutil.copy(base / "week1" / "summary.json", history / "week1" / "summary.json")
    older = json.loads((base / "week1" / "summary.json").read_text())
    older["generated_at"] = "2020-01-06T06:00:00Z"
    older["mean_score"] = 50.0
    for row in older["rows"]:
        if row["path"] == "deploy-checklist":
            row["score"] -= 10
    (history / "2020-01-06.json").write_text(json.dumps(older))
    (history / "broken.json").write_text('{"rows": ')
    _report(root, base / "week2", "--previous", str(base / "week1"), "--history", str(history))
    yield parse((base / "week2" / "report.html").read_text(encoding="utf-8")), base


@pytest.fixture(scope="module")
def deep() -> Page:
    """`score corpus/csv-cleanup --depth deep -o html`: offline, so routing is simulated."""
    result = runner.invoke(app, ["score", str(REPO / "corpus" / "csv-cleanup"), "--depth", "deep", "-o", "html"])  # fmt: skip
    assert result.exit_code == 0, result.output
    return parse(result.stdout)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """The same at depth deep against the tests' model server: three judges (one of them
    a band lower on orchestration), routing and replies by a model, with a price."""
    server = FakeLLM().start()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("PLUGIN_EVAL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
            mp.setenv("OPENAI_API_KEY", "sk-test")
            server.judge_fail_next(JudgeFault("shift", dimension="orchestration_fitness"))
            result = runner.invoke(
                app,
                [
                    "score", str(REPO / "corpus" / "csv-cleanup"), "--depth", "deep", "-o", "html",
                    "--fail-on", "none", "--backend", "openai", "--base-url", f"{server.url}/v1",
                    "--model", "fake-model", "--runs", "20", "--price", "1,2",
                ],
            )  # fmt: skip
        assert result.exit_code == 0, result.output
        yield parse(result.stdout)
    finally:
        server.stop()


@pytest.fixture(params=["tree", "deep", "judged"])
def page(request: pytest.FixtureRequest) -> Page:
    found = request.getfixturevalue(request.param)
    return found[0] if isinstance(found, tuple) else found  # type: ignore[no-any-return]


# Valid, inert, self-contained


def test_the_page_is_valid_html5(page: Page) -> None:
    assert page.text.startswith("<!DOCTYPE html>")
    assert page.root.tag == XHTML + "html"  # parse() raised on any error


def test_the_page_loads_nothing_and_runs_nothing(page: Page) -> None:
    for element in page.root.iter():
        tag = str(element.tag).split("}")[-1]
        assert tag not in {"script", "img", "link", "iframe", "object", "embed", "image"}
        assert tag not in {"use", "foreignObject", "audio", "video", "source", "base", "form"}
        for name, value in element.items():
            plain = str(name).split("}")[-1]
            assert not plain.lower().startswith("on"), (tag, name)
            if plain in LINKS:
                assert value.startswith("#"), (tag, name, value)
    for style in page.all("style"):
        css = text_of(style)
        assert "url(" not in css and "@import" not in css
    assert "<script" not in page.text.lower() and "url(" not in page.text
    (policy,) = [m for m in page.all("meta") if m.get("http-equiv")]
    assert policy.get("content") == "default-src 'none'; style-src 'unsafe-inline'"


def test_every_chart_is_an_image_with_a_title_a_description_and_its_numbers(page: Page) -> None:
    figures = page.all("figure")
    assert figures
    for figure in figures:
        (svg,) = figure.iter(SVG + "svg")
        assert svg.get("role") == "img" and svg.get("aria-label")
        first, second = list(svg)[:2]
        assert first.tag == SVG + "title" and text_of(first) == svg.get("aria-label")
        assert second.tag == SVG + "desc" and re.search(r"\d", text_of(second))
        (caption,) = figure.iter(XHTML + "figcaption")
        assert text_of(second) in text_of(caption)  # the numbers, in words, beside it


def test_charts_hold_only_shapes_text_and_classes(page: Page) -> None:
    for svg in page.svgs():
        for element in svg.iter():
            assert str(element.tag).removeprefix(SVG) in SVG_ELEMENTS, element.tag
            assert set(element.keys()) <= SVG_ATTRIBUTES, element.keys()


def test_the_colours_follow_the_reader_into_dark_mode(page: Page) -> None:
    css = text_of(page.all("style")[0])
    assert "@media (prefers-color-scheme: dark)" in css and "color-scheme: light dark" in css
    # Chart colours come from the page's classes: no colour is written into a chart.
    assert not re.search(r"<svg.*?(fill|stroke)=", page.text, re.S)


# report.html of a marketplace run


def test_the_report_page_has_every_section(tree: tuple[Page, Path]) -> None:
    page, _ = tree
    for anchor in ("overview", "changes", "trend", "heatmap", "ranked", "errors", "items", "notes"):
        page.section(anchor)
    nav = [a.get("href") for a in page.section("overview").iter(XHTML + "a")]
    assert not nav  # the links are in the header
    header_links = [a.get("href") for a in page.all("nav")[0].iter(XHTML + "a")]
    assert header_links == [
        "#overview", "#changes", "#trend", "#heatmap", "#ranked", "#errors", "#items", "#notes",
    ]  # fmt: skip


def test_the_report_page_counts_its_charts(tree: tuple[Page, Path]) -> None:
    page, base = tree
    summary = json.loads((base / "week2" / "summary.json").read_text())
    items = sum(1 for r in summary["rows"] if not r["errored"])
    titles = [text_of(svg.find(SVG + "title")) for svg in page.svgs()]  # type: ignore[arg-type]
    overview = ["Distribution of composite scores", "Items per badge"]
    trend = ["Mean score per run", "Items whose score moved most"]
    profiles = [t for t in titles if t.startswith("Dimension profile of ")]
    sparks = [t for t in titles if t.endswith(": score per run")]
    assert titles[:4] == overview + trend
    assert len(profiles) == items == summary["counts"]["plugins"] + summary["counts"]["skills"]
    assert len(sparks) == 3  # csv-cleanup and the hostile skill since week 1, one since 2020
    assert len(titles) == 4 + len(sparks) + len(profiles)


def test_the_distribution_marks_the_badge_thresholds(tree: tuple[Page, Path]) -> None:
    page, _ = tree
    svg = page.svgs()[0]
    x_axis = next(g for g in svg.iter(SVG + "g") if g.get("class") == "axis x")
    majors = [text_of(t) for t in x_axis.iter(SVG + "text") if "major" in (t.get("class") or "")]
    assert majors == ["60", "70", "80", "90"]  # drawn as dashed lines (the page's CSS)
    legend = [text_of(t) for g in svg.iter(SVG + "g") if g.get("class") == "legends"
              for t in g.iter(SVG + "text")]  # fmt: skip
    assert legend == ["no badge", "Bronze", "Silver", "Gold", "Platinum"]
    bins = {c for r in svg.iter(SVG + "rect") for c in (r.get("class") or "").split()}
    assert {"badge-none", "badge-bronze", "badge-silver", "badge-gold", "badge-platinum"} <= bins


def test_the_badge_counts_match_summary_json(tree: tuple[Page, Path]) -> None:
    page, base = tree
    counts = json.loads((base / "week2" / "summary.json").read_text())["badge_counts"]
    desc = text_of(page.svgs()[1].find(SVG + "desc"))  # type: ignore[arg-type]
    assert desc == (
        f"Platinum: {counts['platinum']}; Gold: {counts['gold']}; Silver: {counts['silver']}; "
        f"Bronze: {counts['bronze']}; no badge: {counts['none']}."
    )


def test_what_changed_is_on_the_page(tree: tuple[Page, Path]) -> None:
    page, base = tree
    changes = json.loads((base / "week2" / "summary.json").read_text())["changes"]
    section = text_of(page.section("changes"))
    moved = {d["path"]: d for d in changes["score_changes"]}
    assert {"csv-cleanup", "hostile"} <= moved.keys()
    d = moved["csv-cleanup"]
    assert f"{d['before']:.1f}" in section and f"{d['after']:.1f}" in section
    # The change shown is the one between the scores shown (93.0 → 88.3 is -4.7, whatever
    # the unrounded delta).
    assert f"▼ {shown_delta(d['before'], d['after']) or 0.0:+.1f}" in section
    assert f"{changes['new_findings']} new finding(s)" in section
    assert "PE201 csv-cleanup/SKILL.md" in section  # the new finding, listed


def test_the_trend_reads_history_and_previous_once_each(tree: tuple[Page, Path]) -> None:
    page, base = tree
    section = page.section("trend")
    table = next(section.iter(XHTML + "table"))
    runs = [[text_of(td) for td in tr] for tr in table.iter(XHTML + "tr")][1:]
    assert len(runs) == 3  # the older run, week 1 (in --history and --previous: once), now
    older = json.loads((base / "history" / "2020-01-06.json").read_text())
    assert runs[0][0].startswith("2020-01-06") and runs[0][1:] == [str(len(older["rows"])), "50.00"]
    mean = section.find(f".//{SVG}desc")
    assert mean is not None and "mean score: 50.0, " in text_of(mean)


def test_an_item_scored_in_the_last_run_only_is_new_not_unchanged(
    tree: tuple[Page, Path],
) -> None:
    section = text_of(tree[0].section("trend"))
    assert "; 1 scored in the last run only." in section
    unchanged = [d for d in tree[0].section("trend").iter(XHTML + "details")]
    assert unchanged and all("added-later" not in text_of(d) for d in unchanged)


def test_a_broken_history_file_is_skipped_with_a_note(tree: tuple[Page, Path]) -> None:
    page, base = tree
    notes = text_of(page.section("notes"))
    assert "skipped broken.json: broken.json is not valid JSON" in notes
    assert "skipped broken.json" in " ".join(
        json.loads((base / "week2" / "summary.json").read_text())["notes"]
    )


def test_a_hostile_name_is_text_in_the_charts(tree: tuple[Page, Path]) -> None:
    page, _ = tree
    shown = visible(HOSTILE_NAME)
    assert "\\u202e" in shown
    titles = [text_of(t) for t in page.all("title")]
    assert f"Dimension profile of {shown}" in titles
    assert f"{shown}: score per run" in titles
    legends = [
        text_of(t) for svg in page.svgs() for t in svg.iter(SVG + "text") if text_of(t) == shown
    ]
    assert legends  # the chart of scores that moved names it, as text
    # In the source it is escaped, never markup.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#x27;\\u202e" in page.text
    assert "<script>" not in page.text and "\u202e" not in page.text
    # A message may quote part of it (PE107 quotes what follows the '<'): escaped, never a tag.
    assert "&lt;img src=x onerror=alert(2)&gt;" in page.text or "onerror" not in page.text.replace(
        "&lt;img src=x onerror=", ""
    )
    assert "<img" not in page.text


def test_one_order_for_the_ranked_table_the_heat_map_and_the_cards(
    tree: tuple[Page, Path],
) -> None:
    page, _ = tree

    def links(anchor: str) -> list[str]:
        return [a.get("href", "") for a in page.section(anchor).iter(XHTML + "a")]

    cards = [
        "#" + s.get("id", "")
        for s in page.section("items").iter(XHTML + "section")
        if s.get("class") == "card"
    ]
    assert links("ranked") == links("heatmap") == cards
    scores = [float(text_of(td)) for td in page.section("ranked").iter(XHTML + "td")
              if "num" in (td.get("class") or "") and "band-" in (td.get("class") or "")]  # fmt: skip
    assert scores == sorted(scores, reverse=True)


def test_the_heat_map_marks_unmeasured_cells_apart_from_low_ones(
    tree: tuple[Page, Path],
) -> None:
    page, _ = tree
    cells = list(page.section("heatmap").iter(XHTML + "td"))
    classes = [set((c.get("class") or "").split()) for c in cells]
    assert any("band-failing" in c for c in classes)  # the weakest cells stand out
    css = text_of(page.all("style")[0])
    assert re.search(r"\.nm \{ background: repeating-linear-gradient", css)  # hatched
    assert "outline: 2px solid var(--failing)" in css


def test_every_table_scrolls_sideways_on_a_narrow_screen(tree: tuple[Page, Path]) -> None:
    page, _ = tree
    parents = {child: parent for parent in page.root.iter() for child in parent}
    tables = page.all("table")
    assert tables
    assert all(parents[t].get("class") == "scroll" for t in tables)
    assert ".scroll { overflow-x: auto;" in text_of(page.all("style")[0])


# One colour scale


def test_score_grade_and_label_of_a_row_share_one_band(tree: tuple[Page, Path]) -> None:
    page, _ = tree
    rows = 0
    for tr in page.section("items").iter(XHTML + "tr"):
        cells = list(tr)
        if len(cells) == 6 and cells[4].text in LABELS:
            shown = float(text_of(cells[2]))  # rounded: 89.6 shows as 90 and is Good
            expected = "band-" + cells[4].text.lower()
            assert {expected} == {
                c for cell in cells[2:5] for c in (cell.get("class") or "").split() if "band-" in c
            }
            assert expected in {band(shown - 0.5), band(min(100.0, shown + 0.49))}
            rows += 1
    assert rows > 100


def test_the_bands_are_the_rubric_labels_of_seed_003() -> None:
    assert [band(s) for s in (100, 90, 89.9, 70, 69.9, 50, 49.9, 30, 29.9, 0)] == [
        "band-excellent", "band-excellent", "band-good", "band-good", "band-acceptable",
        "band-acceptable", "band-poor", "band-poor", "band-failing", "band-failing",
    ]  # fmt: skip


def test_platinum_reads_as_the_best_badge(tree: tuple[Page, Path]) -> None:
    page, _ = tree
    css = text_of(page.all("style")[0])
    rule = re.search(r"\.pill\.badge-platinum \{([^}]*)\}", css)
    assert rule is not None
    assert "gradient" in rule.group(1) and "color: #fff" in rule.group(1)
    assert "#e5e4e2" not in css  # the grey it used to be


# score -o html: the layers


def test_the_monte_carlo_section_says_simulation_and_gives_intervals(deep: Page) -> None:
    text = text_of(deep.root)
    assert "Simulation. Routing was decided by a lexical (BM25) router" in text
    assert "simulation: lexical BM25 router, not a model" in text
    rows = {text_of(tr[0]): [text_of(td) for td in tr][1:] for tr in deep.all("tr")}
    assert rows["precision"][:2] == ["1.00 [0.68–1.00]", "wilson"]
    assert rows["recall"][:2] == ["0.89 [0.56–0.98]", "wilson"]
    assert rows["F1"][:2] == ["0.94 [0.77–1.00]", "percentile bootstrap over prompts"]
    assert rows["composite"][:1] == ["95.1 [89.9–96.9]"]
    assert "Missed should-trigger runs went to: crlf-bom-valid 1." in text
    wrong = [tr for tr in deep.all("tr") if "crlf-bom-valid 1" in text_of(tr)]
    assert len(wrong) == 1 and "missed" in text_of(wrong[0])  # the prompt, and who took it


def test_the_deep_page_draws_the_profile_with_the_composite_interval(deep: Page) -> None:
    titles = [text_of(t) for t in deep.all("title")]
    assert "Dimension profile of csv-cleanup" in titles
    assert "Monte Carlo measures of csv-cleanup (0–100, with 95 % intervals)" in titles
    profile = next(s for s in deep.svgs() if "Dimension profile" in (s.get("aria-label") or ""))
    desc = text_of(profile.find(SVG + "desc"))  # type: ignore[arg-type]
    assert re.match(r"composite 95 \[90–97\]; ", desc)
    assert "output_quality not measured" in desc
    whiskers = [g for g in profile.iter(SVG + "g") if g.get("class") == "ci"]
    assert len(whiskers) == 1  # the composite's; no judge ran


def test_the_judge_section_gives_scores_bands_quotes_alpha_and_cost(judged: Page) -> None:
    text = text_of(judged.root)
    assert "3 of 3 judgement(s) usable" in text
    assert re.search(r"Krippendorff's alpha on the bands\) \d\.\d\d \[\d\.\d\d–\d\.\d\d\]", text)
    rows = {text_of(tr[0]): tr for tr in judged.all("tr") if tr.find(f".//{XHTML}ul") is not None}
    assert set(rows) == {
        "triggering_accuracy", "orchestration_fitness", "output_quality", "scope_calibration",
    }  # fmt: skip
    orchestration = [text_of(td) for td in rows["orchestration_fitness"]]
    assert re.fullmatch(r"0\.57 ± 0\.09", orchestration[1])
    assert orchestration[2] == "0.50–0.70"
    assert sorted(orchestration[3].split(", ")) == ["2", "2", "3"]  # each judge's band
    assert [text_of(q) for q in rows["triggering_accuracy"].iter(XHTML + "q")]
    assert re.search(r"3 call\(s\): 3 request\(s\), 0 cached, 0 retried · tokens \d+ in / \d+ out · cost \$0\.\d{4}", text)  # fmt: skip
    profile = next(s for s in judged.svgs() if "Dimension profile" in (s.get("aria-label") or ""))
    desc = text_of(profile.find(SVG + "desc"))  # type: ignore[arg-type]
    assert "orchestration_fitness 61, judge 57 [50–70]" in desc
    whiskers = [g for g in profile.iter(SVG + "g") if g.get("class") == "ci"]
    assert len(whiskers) == 5  # the composite's, and each judged dimension's lowest–highest


def test_the_model_monte_carlo_section_gives_consistency_failures_and_cost(judged: Page) -> None:
    text = text_of(judged.root)
    assert "Simulation." not in text
    assert "consistency" in text and "mean pairwise Jaccard" in text
    assert re.search(r"failure rate \(0 of \d+ calls\)", text)
    assert re.search(r"output tokens\s*median \d+", text)
    assert re.search(r"30 call\(s\): 30 request\(s\).*cost \$0\.\d{4}", text)
    assert "percentile bootstrap over prompts and judges" in text


# The chart code, alone


def test_chart_labels_are_escaped_and_made_visible() -> None:
    hostile = '</text><script>alert(1)</script><a href="http://e.example/">x</a>\x1b[2J\ufffe'
    figure = charts.trend(["2025-01-06T00:00:00Z", "2025-01-13T00:00:00Z"], [(hostile, [60.0, 70.0])], hostile, legend=True)  # fmt: skip
    page = parse(f"<!DOCTYPE html><html><head><title>t</title></head><body>{figure.svg}</body></html>")  # fmt: skip
    (svg,) = page.svgs()
    shown = visible(hostile).replace("\ufffe", "\\ufffe")
    assert text_of(svg.find(SVG + "title")) == shown  # type: ignore[arg-type]
    texts = [text_of(t) for t in svg.iter(SVG + "text")]
    assert charts.label(hostile).replace("\ufffe", "\\ufffe") in texts  # the legend
    assert "<script" not in figure.svg and "<a " not in figure.svg and "\x1b" not in figure.svg
    assert set(e.tag.removeprefix(SVG) for e in svg.iter()) <= SVG_ELEMENTS


def test_a_long_name_is_cut_in_the_middle_in_a_chart() -> None:
    name = "a" * 100 + "z"
    assert charts.label(name) == "a" * 29 + "…" + "a" * 29 + "z"
    assert len(charts.label(name)) == charts.LABEL_CHARS


def test_the_quick_score_never_imports_the_chart_library() -> None:
    code = (
        "import sys\n"
        "from plugin_eval.cli import main\n"
        "for args in (['score', 'corpus/csv-cleanup'], ['score', 'corpus/csv-cleanup', '-o', 'json'],\n"
        "             ['score', 'corpus/csv-cleanup', '-o', OUT]):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "    print(args[-1], 'pygal' in sys.modules, file=sys.stderr)\n"
    )
    for last, loaded in (("text", "False"), ("html", "True")):
        done = subprocess.run(
            [sys.executable, "-c", code.replace("OUT", repr(last))],
            cwd=REPO, capture_output=True, text=True, check=True,
        )  # fmt: skip
        lines = done.stderr.splitlines()
        assert lines[0] == "corpus/csv-cleanup False" and lines[1] == "json False"
        assert lines[2] == f"{last} {loaded}"


# --history


def test_history_without_html_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["report", str(REPO / "corpus"), "--out", str(tmp_path / "o"), "--history", str(tmp_path)]
    )  # fmt: skip
    assert result.exit_code == 2
    assert "--history: the trend is drawn in report.html; add --html" in result.stderr


def test_a_history_folder_that_is_not_there_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["report", str(REPO / "corpus"), "--out", str(tmp_path / "o"), "--html", "--history", str(tmp_path / "nope")],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "no such folder; give a folder of earlier runs' summary.json files" in result.stderr
