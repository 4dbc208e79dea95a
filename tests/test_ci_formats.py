"""CI output formats: SARIF 2.1.0, GitHub Actions annotations and the self-contained HTML report."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.report import github, html, sarif
from plugin_eval.report.model import FindingOut, Report, build_report
from plugin_eval.report.neutral import visible
from plugin_eval.rules import ALL_RULES, BY_CODE
from tests.conftest import REPO, MakeSkill, score

SCHEMA = json.loads((REPO / "tests" / "fixtures" / "sarif-schema-2.1.0.json").read_text())
STAMP = "2025-01-01T00:00:00Z"
HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
    "\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]|##\\["
)
CLEAN = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging ledger files.\n---\n\n# CSV\n\n## Steps\n\nTrim cells.\n"
)
# PE201 (error, line 11), PE108 (warning, line 4), PE204 (info, no line).
EVERY_SEVERITY = CLEAN.replace("\n---\n", "\nversion: 1\n---\n", 1).replace(
    "Trim cells.", "See [x](references/x.md)."
)
UNUSED = {"references/unused.md": "# Unused\n"}
runner = CliRunner()


def report_of(folder: Path) -> Report:
    return build_report(score(folder), STAMP)


def validate_sarif(log: dict[str, Any]) -> None:
    validator = jsonschema.Draft4Validator(
        SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def finding(**changes: Any) -> FindingOut:
    base = FindingOut(
        code="PE201",
        flag="ORPHAN_REFERENCE",
        severity="error",
        message="link 'references/x.md' points at a file that does not exist",
        fix="Create 'references/x.md' or correct the path.",
        path="skills/example-skill/SKILL.md",
        line=3,
        column=5,
        anti_pattern=True,
    )
    return base.model_copy(update=changes)


def with_findings(report: Report, *findings: FindingOut) -> Report:
    return report.model_copy(update={"findings": list(findings)})


# SARIF


def test_sarif_with_every_severity_validates(make_skill: MakeSkill) -> None:
    log = sarif.sarif_log([report_of(make_skill(EVERY_SEVERITY, files=UNUSED))])
    validate_sarif(log)
    (run,) = log["runs"]
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels == {"PE201": "error", "PE108": "warning", "PE204": "note"}
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_result_carries_location_message_and_fix(make_skill: MakeSkill) -> None:
    log = sarif.sarif_log([report_of(make_skill(EVERY_SEVERITY, files=UNUSED))])
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "PE201"]
    assert result["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "example-skill/SKILL.md", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 11, "startColumn": 5},
    }
    assert result["message"]["text"] == (
        "link 'references/x.md' points at a file that does not exist in the skill folder. "
        "Fix: Create 'references/x.md' or correct the path."
    )


def test_sarif_message_brackets_open_no_link_the_skill_chose(make_skill: MakeSkill) -> None:
    # A heading written as a Markdown link reaches PE308's message: in SARIF's plain text an
    # unescaped "[…](…)" is an embedded link (§3.11.6), so the brackets are escaped.
    skill = CLEAN + "\n## [Click to fix](https://evil.example/x)\n\n## Output\n\nOk.\n"
    log = sarif.sarif_log([report_of(make_skill(skill))])
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "PE308"]
    assert result["message"]["text"].startswith(
        "section '\\[Click to fix\\](https://evil.example/x)' is empty"
    )
    assert re.search(r"(?<!\\)[\[\]]", result["message"]["text"]) is None


def test_sarif_finding_without_a_line_has_no_region(make_skill: MakeSkill) -> None:
    log = sarif.sarif_log([report_of(make_skill(CLEAN, files=UNUSED))])
    validate_sarif(log)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "PE204"
    assert "region" not in result["locations"][0]["physicalLocation"]


def test_sarif_of_a_clean_skill_validates_with_no_results(make_skill: MakeSkill) -> None:
    log = sarif.sarif_log([report_of(make_skill(CLEAN))])
    validate_sarif(log)
    assert log["runs"][0]["results"] == []


def test_sarif_of_no_reports_validates() -> None:
    validate_sarif(sarif.sarif_log([]))


def test_sarif_rules_come_from_the_registry() -> None:
    rules = sarif.sarif_log([])["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in ALL_RULES]
    by_id = {r["id"]: r for r in rules}
    assert by_id["PE201"]["name"] == "ORPHAN_REFERENCE"
    assert by_id["PE201"]["properties"]["antiPattern"] is True
    assert by_id["PE201"]["help"]["markdown"] == BY_CODE["PE201"].documentation()
    assert {by_id[c]["defaultConfiguration"]["level"] for c in ("PE001", "PE007", "PE113")} == {
        "error",
        "warning",
        "note",
    }


def test_sarif_is_byte_identical_between_runs(make_skill: MakeSkill) -> None:
    folder = make_skill(EVERY_SEVERITY, files=UNUSED)
    first = sarif.render([build_report(score(folder), "2025-01-01T00:00:00Z")])
    second = sarif.render([build_report(score(folder), "2026-06-30T12:00:00Z")])
    assert first == second


def test_sarif_fingerprint_ignores_the_line_and_separates_twins(make_skill: MakeSkill) -> None:
    report = report_of(make_skill(CLEAN))
    moved = sarif.sarif_log([with_findings(report, finding(line=3), finding(line=30))])
    prints = [r["partialFingerprints"]["pluginEval/v1"] for r in moved["runs"][0]["results"]]
    alone = sarif.sarif_log([with_findings(report, finding(line=12))])
    assert prints[0] == alone["runs"][0]["results"][0]["partialFingerprints"]["pluginEval/v1"]
    assert prints[0] != prints[1]  # same code, file and message twice: still two results


def test_sarif_uris_are_encoded_and_absolute_paths_are_file_uris(make_skill: MakeSkill) -> None:
    report = report_of(make_skill(CLEAN))
    log = sarif.sarif_log(
        [
            with_findings(
                report,
                finding(path="my skills/50%/SKILL.md"),
                finding(path="/abs/my skill/SKILL.md", line=None, column=None),
            )
        ]
    )
    validate_sarif(log)
    first, second = (
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]
    )
    assert first == {"uri": "my%20skills/50%25/SKILL.md", "uriBaseId": "%SRCROOT%"}
    assert second == {"uri": "file:///abs/my%20skill/SKILL.md"}


def test_sarif_of_several_reports_is_one_run(make_skill: MakeSkill) -> None:
    one = report_of(make_skill(EVERY_SEVERITY, folder="one"))
    two = report_of(make_skill(CLEAN, folder="two", files=UNUSED))
    log = sarif.sarif_log([one, two])
    validate_sarif(log)
    (run,) = log["runs"]
    assert len(run["results"]) == len(one.findings) + len(two.findings)
    assert [s["path"] for s in run["properties"]["scores"]] == [one.path, two.path]


def test_sarif_gives_a_rule_outside_the_registry_its_own_descriptor(
    make_skill: MakeSkill,
) -> None:
    report = with_findings(
        report_of(make_skill(CLEAN)), finding(code="PE999", flag="SOMETHING_NEW", severity="info")
    )
    log = sarif.sarif_log([report])
    validate_sarif(log)
    (result,) = log["runs"][0]["results"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == "PE999" and result["level"] == "note"


# GitHub Actions workflow commands


def unescape(text: str) -> str:
    """What the Actions runner does to a command's data and property values."""
    for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, raw)
    return text


def parse_command(line: str) -> tuple[str, dict[str, str], str]:
    assert line.startswith("::")
    head, data = line[2:].split("::", 1)
    command, _, props = head.partition(" ")
    pairs = dict(p.split("=", 1) for p in props.split(",")) if props else {}
    return command, {k: unescape(v) for k, v in pairs.items()}, unescape(data)


def test_github_one_command_per_finding_with_severity_mapped(make_skill: MakeSkill) -> None:
    report = report_of(make_skill(EVERY_SEVERITY, files=UNUSED))
    lines = github.render([report]).splitlines()
    commands = [parse_command(line) for line in lines]
    assert [(c, p.get("title")) for c, p, _ in commands[:-1]] == [
        ("notice", "PE204 UNLINKED_REFERENCE"),
        ("warning", "PE108 UNKNOWN_FIELD"),
        ("error", "PE201 ORPHAN_REFERENCE"),
    ]
    assert commands[-1][0] == "notice" and "/100" in commands[-1][2]
    assert len(lines) == len(report.findings) + 1


def test_github_location_properties(make_skill: MakeSkill) -> None:
    report = report_of(make_skill(EVERY_SEVERITY, files=UNUSED))
    by_title = {
        p["title"]: p for _, p, _ in map(parse_command, github.render([report]).splitlines())
    }
    assert by_title["PE201 ORPHAN_REFERENCE"] == {
        "file": "example-skill/SKILL.md",
        "line": "11",
        "col": "5",
        "title": "PE201 ORPHAN_REFERENCE",
    }
    assert "line" not in by_title["PE204 UNLINKED_REFERENCE"]  # no line: the file only


def test_github_escapes_percent_and_newlines_in_messages() -> None:
    line = github.annotation(finding(message="100% sure\r\nsecond: a, b", fix="Do it."))
    assert line.endswith("::100%25 sure%0D%0Asecond: a, b%0AFix: Do it.")
    assert "\n" not in line and "\r" not in line


def test_github_escapes_colon_comma_and_percent_in_file_paths() -> None:
    line = github.annotation(finding(path="a:b,c%d/x\ny/SKILL.md"))
    assert line.startswith("::error file=a%3Ab%2Cc%25d/x%0Ay/SKILL.md,line=3,col=5,")
    _, props, _ = parse_command(line)
    assert props["file"] == "a:b,c%d/x\ny/SKILL.md"


@given(st.text())
def test_github_escaping_round_trips(text: str) -> None:
    """Line breaks come back as the runner unescapes them; every other character that could
    act (a control, a bidi override, '##[') comes back visible, never raw."""
    parts = re.split(r"([\r\n])", text)
    shown = "".join(part if part in ("\r", "\n") else visible(part) for part in parts)
    command, props, data = parse_command(github.annotation(finding(path=text, message=text)))
    assert command == "error"
    assert props["file"] == shown
    assert data == f"{shown}\nFix: {finding().fix}"
    if not HIDDEN.search(text):
        assert shown == text


# HTML

XSS_SKILL = (
    "---\nname: <script>alert(1)</script>\n"
    'description: Formats <script>alert(2)</script> reports "onmouseover=alert(3) x=". '
    "Use when exporting tables, cleaning column names, or merging ledger files.\n---\n\n"
    "# CSV\n\n"
    'See [the guide](references/"onmouseover=alert(4).md) and more.\n'
)
XSS_FOLDER = "<img src=x onerror=alert(5)>"
HTML_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "section",
    "div", "span", "small", "strong", "table", "thead", "tbody", "tr", "th", "td", "code", "a",
    "details", "summary", "ul", "li", "footer", "main", "nav", "h4", "figure", "figcaption", "q",
    "abbr",
    # The charts: shapes, text and their title and description (tests/test_html_report.py).
    "svg", "desc", "g", "rect", "path", "line", "circle", "polyline", "text", "tspan",
}  # fmt: skip
VOID = {"meta"}


class StrictParser(HTMLParser):
    """Records every tag and attribute and fails on unbalanced or unknown elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"unbalanced </{tag}>")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(document: str) -> StrictParser:
    parser = StrictParser()
    parser.feed(document)
    parser.close()
    assert parser.problems == [] and parser.stack == []
    return parser


def test_html_escapes_every_text_from_the_skill(make_skill: MakeSkill) -> None:
    report = report_of(make_skill(XSS_SKILL, folder=XSS_FOLDER))
    texts = [report.name, report.path, *(f.message for f in report.findings)]
    assert any("onmouseover" in t for t in texts) and any("<script>" in t for t in texts)
    document = html.render([report])
    assert "<script" not in document.lower() and "<img" not in document.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in document
    assert "&lt;img src=x onerror=alert(5)&gt;" in document
    assert "&quot;onmouseover=alert(4).md" in document
    page = parsed(document)
    assert set(page.tags) <= HTML_TAGS
    assert not [name for name, _ in page.attrs if name.startswith("on")]
    # The parsed text holds the skill's words as words, in the findings and the evidence.
    text = "".join(page.text)
    assert "name '<script>alert(1)</script>' contains" in text
    assert "PE104 NAME_INVALID: name '<script>alert(1)</script>'" in text


def test_html_is_self_contained(make_skill: MakeSkill) -> None:
    reports = [
        report_of(make_skill(EVERY_SEVERITY, folder="one", files=UNUSED)),
        report_of(make_skill(CLEAN, folder="two")),
    ]
    document = html.render(reports)
    page = parsed(document)
    links = [v or "" for k, v in page.attrs if k in ("src", "href", "action", "srcset")]
    assert links and all(v.startswith("#") for v in links)
    assert not {"script", "link", "img", "iframe", "object"} & set(page.tags)
    assert "url(" not in document and "@import" not in document


def test_html_shows_score_badge_grade_dimensions_and_findings(make_skill: MakeSkill) -> None:
    report = report_of(make_skill(EVERY_SEVERITY, files=UNUSED))
    document = html.render([report])
    c = report.composite
    assert f"{c.score:.1f}<small>/100</small>" in document
    assert f"grade <strong>{c.grade}</strong>" in document
    for d in c.dimensions:
        assert f"<td>{d.name}</td>" in document
    assert document.count('<tr><td class="sev sev-') == len(report.findings)
    assert "Create &#x27;references/x.md&#x27; or correct the path." in document
    assert "example-skill/SKILL.md:11:5" in document


def test_html_of_several_reports_links_each_from_the_summary(make_skill: MakeSkill) -> None:
    reports = [report_of(make_skill(CLEAN, folder=name)) for name in ("one", "two", "three")]
    document = html.render(reports)
    for number in (1, 2, 3):
        assert f'href="#report-{number}"' in document and f'id="report-{number}"' in document


# Command line


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def test_score_output_sarif_is_valid_json(make_skill: MakeSkill) -> None:
    code, out = run("score", str(make_skill(EVERY_SEVERITY, files=UNUSED)), "--output", "sarif")
    assert code == 1
    validate_sarif(json.loads(out))


def test_score_output_sarif_of_several_skills(make_skill: MakeSkill) -> None:
    one, two = make_skill(CLEAN, folder="one"), make_skill(EVERY_SEVERITY, folder="two")
    code, out = run("score", str(one), str(two), "-o", "sarif")
    log = json.loads(out)
    validate_sarif(log)
    assert code == 1 and len(log["runs"]) == 1
    assert [s["path"] for s in log["runs"][0]["properties"]["scores"]] == [str(one), str(two)]


@pytest.mark.parametrize("output", ["sarif", "github", "html"])
@pytest.mark.parametrize(
    ("skill", "options", "expected"),
    [
        (CLEAN, (), 0),
        (EVERY_SEVERITY, (), 1),
        (EVERY_SEVERITY, ("--fail-on", "none"), 0),
        (CLEAN, ("--threshold", "99"), 1),
    ],
)
def test_exit_codes_do_not_depend_on_the_format(
    output: str, skill: str, options: tuple[str, ...], expected: int, make_skill: MakeSkill
) -> None:
    folder = str(make_skill(skill))
    assert run("score", folder, *options)[0] == expected
    code, out = run("score", folder, *options, "-o", output)
    assert code == expected and out


def test_rules_command_refuses_the_score_only_formats() -> None:
    assert runner.invoke(app, ["rules", "-o", "sarif"]).exit_code == 2


def test_a_path_that_could_not_be_scored_is_named_in_every_ci_format(tmp_path: Path) -> None:
    """Not only on stderr: a github error, a line of the markdown result, and a SARIF
    notification (valid against the schema) name it and say why."""
    missing = str(tmp_path / "no-such-skill")
    args = ["score", missing, str(REPO / "corpus" / "csv-cleanup")]
    github_out = runner.invoke(app, [*args, "-o", "github"])
    assert github_out.exit_code == 1
    assert (
        f"::error title=plugin-eval::{missing}: could not be scored: no such file or folder"
        in github_out.stdout.splitlines()
    )
    markdown_out = runner.invoke(app, [*args, "-o", "markdown"]).stdout
    assert f"- `{missing}`: could not be scored: no such file or folder" in markdown_out
    log = json.loads(runner.invoke(app, [*args, "-o", "sarif"]).stdout)
    validate_sarif(log)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"] == [
        {
            "level": "error",
            "message": {"text": f"{missing}: could not be scored: no such file or folder"},
        }
    ]
