"""A red run says why: an item under --threshold is shown in every CI format, and the text
output ends with what made the exit code non-zero."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from tests.conftest import REPO

runner = CliRunner()
ITEMS = ["corpus/csv-cleanup", "corpus/log-triage"]  # 96.0 and 50.1
MESSAGE = "log-triage: composite 50.08 is below the threshold 60"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def _run(output: str, *extra: str) -> tuple[int, str]:
    result = runner.invoke(app, ["score", *ITEMS, "--threshold", "60", "-o", output, *extra])
    return result.exit_code, result.stdout


def test_text_names_the_item_and_ends_with_the_reason() -> None:
    code, out = _run("text", "--fail-on", "none")
    lines = out.rstrip("\n").split("\n")
    assert code == 1
    assert lines[-2] == f"FAIL corpus/log-triage: {MESSAGE}"
    assert lines[-1] == "exit 1: 1 item(s) under the threshold 60"


def test_text_ends_with_every_reason_for_the_exit_code() -> None:
    result = runner.invoke(app, ["score", "corpus/broken-dead-links", "missing-path"])
    assert result.exit_code == 1
    assert result.stdout.rstrip("\n").split("\n")[-1] == (
        "exit 1: 1 path(s) could not be scored; 3 finding(s) at error or worse (--fail-on)"
    )


def test_github_puts_an_error_on_the_skill_file() -> None:
    code, out = _run("github", "--fail-on", "none")
    assert code == 1
    (line,) = [x for x in out.splitlines() if "PE010" in x]
    assert line.startswith(
        "::error file=corpus/log-triage/SKILL.md,title=PE010 BELOW_THRESHOLD::" + MESSAGE
    )


def test_sarif_has_a_failing_result_at_the_skill_file() -> None:
    code, out = _run("sarif", "--fail-on", "none")
    results = json.loads(out)["runs"][0]["results"]
    (result,) = [r for r in results if r["ruleId"] == "PE010"]
    assert code == 1 and result["level"] == "error"
    assert result["message"]["text"].startswith(MESSAGE)
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "corpus/log-triage/SKILL.md"


def test_markdown_ends_with_a_failing_result() -> None:
    code, out = _run("markdown", "--fail-on", "none")
    assert code == 1
    assert out.endswith(f"## Result: FAIL\n\n- `corpus/log-triage/SKILL.md`: {MESSAGE}\n")


def test_a_plugin_under_the_threshold_points_at_its_manifest() -> None:
    result = runner.invoke(
        app, ["score", "corpus/csv-toolkit", "--threshold", "99.9", "-o", "github"]
    )
    assert result.exit_code == 1
    assert "::error file=corpus/csv-toolkit/.claude-plugin/plugin.json,title=PE010" in (
        result.stdout
    )


def test_a_passing_run_shows_no_verdict() -> None:
    result = runner.invoke(app, ["score", "corpus/csv-cleanup", "--threshold", "60"])
    assert result.exit_code == 0
    assert "FAIL" not in result.stdout and "exit 1" not in result.stdout


def test_html_opens_with_the_failing_result() -> None:
    code, out = _run("html", "--fail-on", "none")
    assert code == 1
    section = out[out.index('<section id="result">') : out.index("</section>")]
    assert "<h2>Result: FAIL</h2>" in section
    assert f"<li><code>corpus/log-triage/SKILL.md</code>: {MESSAGE}</li>" in section
    assert out.index('<section id="result">') < out.index("log-triage</h3>")


def test_json_of_a_batch_ends_with_the_verdict() -> None:
    code, out = _run("json", "--fail-on", "none")
    verdict = json.loads(out)["verdict"]
    assert code == 1
    assert (verdict["passed"], verdict["threshold"], verdict["reasons"]) == (
        False,
        60.0,
        ["1 item(s) under the threshold 60"],
    )
    assert [(f["code"], f["path"], f["message"]) for f in verdict["below_threshold"]] == [
        ("PE010", "corpus/log-triage/SKILL.md", MESSAGE)
    ]


def test_json_of_one_item_keeps_its_report_and_adds_the_verdict() -> None:
    plain = runner.invoke(app, ["score", "corpus/log-triage", "-o", "json", "--fail-on", "none"])
    red = runner.invoke(
        app, ["score", "corpus/log-triage", "-o", "json", "--fail-on", "none", "--threshold", "60"]
    )
    assert (plain.exit_code, red.exit_code) == (0, 1)
    report = json.loads(red.stdout)
    verdict = report.pop("verdict")
    assert "verdict" not in json.loads(plain.stdout)  # a passing run without a threshold
    report["generated_at"] = json.loads(plain.stdout)["generated_at"]
    assert report == json.loads(plain.stdout)
    assert verdict["below_threshold"][0]["message"] == MESSAGE


def test_json_of_a_passing_run_with_a_threshold_says_it_passed() -> None:
    result = runner.invoke(app, ["score", "corpus/csv-cleanup", "-o", "json", "--threshold", "60"])
    assert result.exit_code == 0
    verdict = json.loads(result.stdout)["verdict"]
    assert (verdict["passed"], verdict["reasons"], verdict["below_threshold"]) == (True, [], [])


def test_a_composite_just_under_the_threshold_never_reads_as_meeting_it() -> None:
    """50.08 under a threshold of 50.1 is written 50.08, not 50.1."""
    code, out = _run("text", "--threshold", "50.1")
    assert code == 1
    assert "log-triage: composite 50.08 is below the threshold 50.1" in out
