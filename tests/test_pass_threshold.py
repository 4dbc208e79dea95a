"""Seed 003's pass/fail contract: benchmark definitions are checked line by line, an edited
dimension table scores exactly as its weights say, and a pass threshold gives every report
the seed's verdict (its JSON fields and its `[RESULT: PASS]` / `[RESULT: FAIL]` block)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import html5lib
import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.scoring.composite import DIMENSION_WEIGHTS, penalty
from tests.conftest import REPO, write_files

runner = CliRunner()
FIXTURES = REPO / "tests" / "fixtures" / "benchmark"
EXAMPLE = FIXTURES / "seed003-example.md"  # the seed's template, filled in
TEMPLATE = FIXTURES / "seed003-template.md"  # the seed's template as the seed writes it


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def _json(*args: str) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["score", *args, "-o", "json"])
    return result.exit_code, json.loads(result.stdout)


def _edited(tmp_path: Path, text: str, *swaps: tuple[str, str]) -> Path:
    for old, new in swaps:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "benchmark.md"
    path.write_text(text, encoding="utf-8")
    return path


# Benchmark definitions


def test_the_seeds_example_benchmark_validates() -> None:
    result = runner.invoke(app, ["benchmark", "validate", str(EXAMPLE)])
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{EXAMPLE}: valid: 5 dimensions (Hook strength,")


def test_the_seeds_unfilled_template_is_reported_line_by_line() -> None:
    result = runner.invoke(app, ["benchmark", "validate", str(TEMPLATE)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        f"{TEMPLATE}:9: 2 dimension(s): the seed asks for 5 to 8 (plugin-eval's own 10, as "
        "`plugin-eval benchmark export` writes them, are accepted too)",
        f"{TEMPLATE}:11: weight '{{%}}' of '{{dim}}' is not a percentage: write it as 20%",
    ]


def test_weights_summing_to_95_percent_are_rejected_at_the_table(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    path = _edited(tmp_path, text, ("| Hook strength | 30% |", "| Hook strength | 25% |"))
    result = runner.invoke(app, ["benchmark", "validate", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{path}:9: weights sum to 95 %, not 100 %: make them add up to 100 %",
        f"{path}:19: the rubric of 'Hook strength' gives it 30%, the dimension table 25%: "
        "make them agree",
    ]


def test_a_weight_without_a_percent_sign_is_reported_at_its_row(tmp_path: Path) -> None:
    """A bare 30 is not read as 30 % in silence, nor 0.30 as 0.3 %: each is named at its row."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for given, why in (
        ("30", "is not a percentage: write it as 30%"),
        ("0.30", "is a fraction: write it as a percentage, 30%"),
    ):
        path = _edited(tmp_path, text, ("| Hook strength | 30% |", f"| Hook strength | {given} |"))
        result = runner.invoke(app, ["benchmark", "validate", str(path)])
        assert result.exit_code == 1
        assert result.stdout.splitlines()[0] == (
            f"{path}:11: weight '{given}' of 'Hook strength' {why}"
        )


@pytest.mark.parametrize(
    ("swap", "expected"),
    [
        (
            ("| 30–49 | Poor | No conflict on the first page |\n", ""),
            "21: the rubric of 'Hook strength' has no Poor band (30–49): add its row",
        ),
        (
            ("| 70–89 | Good | Main characters identifiable |", "| 70–85 | Good | Main |"),
            "54: band Good of 'Character voice' covers '70–85': the seed's Good band is 70–89",
        ),
        (
            ("- **pass_score: 90** — **硬性及格线,低于 90 分一律视为未通过**\n", ""),
            "73: '## Pass Thresholds' names no pass_score: add '- **pass_score: 90**' (the "
            "seed's pass line)",
        ),
        (
            ("| 5 | Consistency | 10% | Contradictions with earlier chapters |\n", ""),
            "9: 4 dimension(s): the seed asks for 5 to 8",
        ),
        (
            ("### Dimension 3: Pacing (20%)", "### Dimension 3: Tempo (20%)"),
            "13: 'Pacing' has no rubric: add '### Dimension N: Pacing (20%)' under "
            "'## Detailed Rubric' with its five bands",
        ),
    ],
    ids=["band-missing", "band-range", "no-pass-score", "four-dimensions", "no-rubric"],
)
def test_each_problem_is_reported_with_its_line(
    tmp_path: Path, swap: tuple[str, str], expected: str
) -> None:
    path = _edited(tmp_path, EXAMPLE.read_text(encoding="utf-8"), swap)
    result = runner.invoke(app, ["benchmark", "validate", str(path)])
    assert result.exit_code == 1
    assert any(line.startswith(f"{path}:{expected}") for line in result.stdout.splitlines())


def test_fractions_for_weights_are_told_to_be_per_cents(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    weights = [("30%", "0.30"), ("25%", "0.25"), ("20%", "0.20"), ("15%", "0.15"), ("10%", "0.10")]
    for old, new in weights:
        text = text.replace(f"| {old} |", f"| {new} |")
    path = _edited(tmp_path, text)
    result = runner.invoke(app, ["benchmark", "validate", str(path)])
    lines = result.stdout.splitlines()
    assert (
        f"{path}:11: weight '0.30' of 'Hook strength' is a fraction: write it as a " in (lines[0])
    )
    assert sum("is a fraction: write it as a percentage" in line for line in lines) == 5
    written = text.replace("| 0.30 |", "| 0.30% |").replace("| 0.25 |", "| 0.25% |")
    for old in ("0.20", "0.15", "0.10"):
        written = written.replace(f"| {old} |", f"| {old}% |")
    both = runner.invoke(app, ["benchmark", "validate", str(_edited(tmp_path, written))])
    assert "weights sum to 1 %, not 100 %: write per cents (25%), not fractions (0.25)" in (
        both.stdout
    )


def test_an_unreadable_definition_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["benchmark", "validate", str(tmp_path / "missing.md")])
    assert result.exit_code == 2
    assert "cannot be read (no such file)" in result.stderr


def test_the_export_holds_the_ten_dimensions_and_validates(tmp_path: Path) -> None:
    out = tmp_path / "plugin-eval.md"
    assert runner.invoke(app, ["benchmark", "export", "--out", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    rows = re.findall(r"^\| \d+ \| (\w+) \| ([\d.]+)% \|", text, re.M)
    assert [(name, float(w) / 100) for name, w in rows] == list(DIMENSION_WEIGHTS.items())
    assert text.count("| 90–100 | Excellent |") == 10 and text.count("| 0–29 | Failing |") == 10
    assert "- **pass_score: 90**" in text
    assert runner.invoke(app, ["benchmark", "validate", str(out)]).exit_code == 0
    assert runner.invoke(app, ["benchmark", "export"]).stdout == text


# Scoring with an edited table


def _exported(tmp_path: Path, *swaps: tuple[str, str]) -> Path:
    text = runner.invoke(app, ["benchmark", "export"]).stdout
    return _edited(tmp_path, text, *swaps)


TWO_WEIGHTS = (
    ("| triggering_accuracy | 25% |", "| triggering_accuracy | 10% |"),
    ("(25%)", "(10%)"),
    ("| token_efficiency | 6% |", "| token_efficiency | 21% |"),
    ("(6%)", "(21%)"),
)


def test_an_edited_table_changes_the_composite_exactly_as_its_weights_say(
    tmp_path: Path,
) -> None:
    edited = {**DIMENSION_WEIGHTS, "triggering_accuracy": 0.10, "token_efficiency": 0.21}
    path = _exported(tmp_path, *TWO_WEIGHTS)
    _, plain = _json("corpus/log-triage", "--fail-on", "none")
    code, report = _json("corpus/log-triage", "--weights", str(path), "--fail-on", "none")
    c = report["composite"]
    dims = c["dimensions"]
    measured = [d for d in dims if d["score"] is not None]
    total = sum(edited[d["name"]] for d in measured)
    raw = sum(edited[d["name"]] * d["score"] for d in measured) / total
    assert {d["name"]: d["weight"] for d in dims} == pytest.approx(edited)
    assert c["score"] == pytest.approx(raw * 100 * penalty(c["anti_pattern_count"]), abs=0.01)
    assert c["score"] != plain["composite"]["score"]
    assert sum(d["weightedScore"] for d in measured) == pytest.approx(raw * 100, abs=0.05)
    # Its pass_score is the pass threshold: 90, which log-triage does not reach.
    assert (code, report["passThreshold"], report["passed"]) == (1, 90.0, False)


def test_pass_threshold_overrides_the_files_pass_score(tmp_path: Path) -> None:
    path = _exported(tmp_path, *TWO_WEIGHTS)
    args = ("corpus/log-triage", "--weights", str(path), "--fail-on", "none")
    code, report = _json(*args, "--pass-threshold", "60")
    assert (code, report["passThreshold"], report["passed"]) == (0, 60.0, True)


def test_a_table_without_a_pass_score_passes_at_the_seeds_default_90(tmp_path: Path) -> None:
    """validate reports the missing pass score; scoring with the table takes the seed's 90."""
    text = _exported(tmp_path).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines(keepends=True) if "pass_score" not in line]
    path = _edited(tmp_path, "".join(lines))
    checked = runner.invoke(app, ["benchmark", "validate", str(path)])
    assert checked.exit_code == 1 and "names no pass_score" in checked.stdout + checked.stderr
    code, report = _json("corpus/csv-cleanup", "--weights", str(path), "--fail-on", "none")
    assert report["passThreshold"] == 90.0 and code == (0 if report["passed"] else 1)


def test_a_dimension_plugin_eval_lacks_cannot_weigh_a_score(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "corpus/csv-cleanup", "--weights", str(EXAMPLE)])
    assert result.exit_code == 2
    assert f"--weights {EXAMPLE}:11: 'Hook strength' is not a dimension plugin-eval scores" in (
        " ".join(result.stderr.split())
    )


def test_a_definition_that_does_not_validate_is_a_usage_error_with_its_first_problem(
    tmp_path: Path,
) -> None:
    path = _exported(tmp_path, ("| robustness | 5% |", "| robustness | 0% |"))
    result = runner.invoke(app, ["score", "corpus/csv-cleanup", "--weights", str(path)])
    assert result.exit_code == 2
    assert f"--weights {path}:8: weights sum to 95 %, not 100 %" in " ".join(result.stderr.split())


def test_a_subset_of_plugin_eval_dimensions_leaves_the_rest_at_no_weight(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    names = {
        "Hook strength": "triggering_accuracy",
        "Foreshadowing density": "orchestration_fitness",
        "Pacing": "progressive_disclosure",
        "Character voice": "structural_completeness",
        "Consistency": "ecosystem_coherence",
    }
    for old, new in names.items():
        text = text.replace(old, new)
    _, report = _json("corpus/csv-cleanup", "--weights", str(_edited(tmp_path, text)))
    weights = {d["name"]: d["weight"] for d in report["composite"]["dimensions"]}
    assert weights["token_efficiency"] == 0 and weights["triggering_accuracy"] == 0.30
    assert sum(weights.values()) == pytest.approx(1.0)


# The verdict


def _block(lines: list[str]) -> list[str]:
    return lines[lines.index(next(x for x in lines if x.startswith("[RESULT: "))) :]


@pytest.mark.parametrize(
    ("skill", "preset", "verdict", "score"),
    [
        ("corpus/csv-cleanup", "elite", "PASS", "92.95"),
        ("corpus/http-retry-policy", "industry", "PASS", "82.88"),
        ("corpus/http-retry-policy", "elite", "FAIL", "82.88"),
        ("corpus/log-triage", "industry", "FAIL", "50.08"),
    ],
)
def test_text_ends_with_the_seeds_block_at_a_preset(
    skill: str, preset: str, verdict: str, score: str
) -> None:
    result = runner.invoke(app, ["score", skill, "--pass-threshold", preset, "--fail-on", "none"])
    block = _block(result.stdout.rstrip("\n").split("\n"))
    assert result.exit_code == (0 if verdict == "PASS" else 1)
    assert block[:2] == [f"[RESULT: {verdict}]", f"评分: {score}/100"]
    assert block[-1] == "[/RESULT]"
    if verdict == "PASS":
        assert len(block) == 5
        assert block[2].startswith("优点: ") and block[3].startswith("建议改进: ")
    else:
        problems = block.index("改进建议:")
        assert block[2] == "主要问题:" and block[3].startswith("- 问题1: ")
        assert block[problems + 1].startswith("- 建议1: ")
        assert all(line.startswith("- ") for line in block[3:problems] + block[problems + 1 : -1])


def test_a_failing_item_names_its_weak_dimensions_and_their_fixes() -> None:
    result = runner.invoke(app, ["score", "corpus/log-triage", "--pass-threshold", "industry"])
    block = _block(result.stdout.rstrip("\n").split("\n"))
    assert block[3] == (
        "- 问题1: triggering_accuracy 10/100 (Failing): static 0.10: description too short or "
        "vague to route on (it repeats the name, or names no situation or thing to match) (+0.10)"
    )
    assert "- 问题4: anti-pattern penalty ×0.95: EMPTY_DESCRIPTION" in block
    assert any("PE101 EMPTY_DESCRIPTION at corpus/log-triage/SKILL.md:3:1" in x for x in block)


def test_each_item_of_a_batch_gets_its_block_after_its_path() -> None:
    result = runner.invoke(
        app, ["score", "corpus/csv-cleanup", "corpus/log-triage", "--pass-threshold", "elite"]
    )
    lines = result.stdout.rstrip("\n").split("\n")
    first, second = (
        lines.index("csv-cleanup  corpus/csv-cleanup"),
        lines.index("log-triage  corpus/log-triage"),
    )
    assert lines[first + 1] == "[RESULT: PASS]" and lines[second + 1] == "[RESULT: FAIL]"
    assert lines[-1] == "[/RESULT]" and result.exit_code == 1


def test_passed_is_null_without_a_pass_threshold() -> None:
    for extra in ((), ("--threshold", "60")):  # --threshold alone keeps today's report
        _, report = _json("corpus/csv-cleanup", *extra)
        assert (report["passThreshold"], report["passed"]) == (None, None)
    result = runner.invoke(app, ["score", "corpus/csv-cleanup", "--threshold", "60"])
    assert "[RESULT" not in result.stdout


def test_json_carries_the_seeds_fields_by_their_names() -> None:
    code, report = _json("corpus/log-triage", "--pass-threshold", "industry", "--fail-on", "none")
    assert code == 1
    assert (report["passThreshold"], report["passed"]) == (65.0, False)
    assert (
        report["weakDimensions"]
        == report["composite"]["weak_dimensions"]
        == ["triggering_accuracy"]
    )
    assert report["strongDimensions"] == report["composite"]["strong_dimensions"]
    assert report["overallFeedback"] == (
        "Composite 50.1/100 (no badge, grade F) after the anti-pattern penalty ×0.95 "
        "(1 flag(s)); it is below the pass threshold 65. Strongest: progressive_disclosure 100 "
        "(Excellent); weakest: triggering_accuracy 10 (Failing)."
    )
    by_name = {d["name"]: d for d in report["composite"]["dimensions"]}
    assert set(by_name["triggering_accuracy"]) >= {"weightedScore", "label", "feedback"}
    assert by_name["output_quality"]["weightedScore"] is None
    assert by_name["output_quality"]["feedback"] == (
        "not measured: no layer that ran (static) scores it"
    )
    schema = json.loads(runner.invoke(app, ["schema"]).stdout)
    assert {"passThreshold", "passed", "overallFeedback", "weakDimensions"} <= set(
        schema["properties"]
    )
    assert "weightedScore" in schema["$defs"]["Dimension"]["properties"]


def test_markdown_and_html_show_the_same_verdict() -> None:
    args = ["score", "corpus/log-triage", "--pass-threshold", "industry", "--fail-on", "none"]
    markdown = runner.invoke(app, [*args, "-o", "markdown"]).stdout
    assert "### \\[RESULT: FAIL\\] (pass threshold 65)\n\n- 评分: 50.08/100\n- 主要问题:\n" in (
        markdown
    )
    html = runner.invoke(app, [*args, "-o", "html"]).stdout
    assert "[RESULT: FAIL] · pass threshold 65</h4>" in html
    assert "<li>评分: 50.08/100</li><li>主要问题:<ul><li>问题1: triggering_accuracy" in "".join(
        html.split("\n")
    )


# One gate, two names


def test_two_different_thresholds_are_a_usage_error_naming_both() -> None:
    result = runner.invoke(
        app, ["score", "corpus/csv-cleanup", "--threshold", "60", "--pass-threshold", "elite"]
    )
    assert result.exit_code == 2
    assert "--threshold 60 and --pass-threshold elite (85) differ" in result.stderr


def test_the_same_threshold_twice_is_one_gate() -> None:
    code, report = _json(
        "corpus/log-triage", "--threshold", "85", "--pass-threshold", "elite", "--fail-on", "none"
    )
    assert (code, report["passThreshold"], report["verdict"]["threshold"]) == (1, 85.0, 85.0)


def test_a_pass_threshold_that_is_no_number_or_preset_is_a_usage_error() -> None:
    result = runner.invoke(app, ["score", "corpus/csv-cleanup", "--pass-threshold", "great"])
    assert result.exit_code == 2 and "elite (85), industry (65)" in result.stderr


def test_the_configuration_takes_a_preset_and_refuses_a_second_value(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "csv-cleanup"
    shutil.copytree(REPO / "corpus" / "csv-cleanup", skill)
    (tmp_path / ".plugin-eval.toml").write_text('pass-threshold = "elite"\n')
    code, report = _json(str(skill))
    assert (code, report["passThreshold"], report["passed"]) == (0, 85.0, True)
    # --threshold on the command line is the same setting: it keeps the seed's verdict.
    code, report = _json(str(skill), "--threshold", "95")
    assert (code, report["passThreshold"], report["passed"]) == (1, 95.0, False)
    (tmp_path / ".plugin-eval.toml").write_text('pass-threshold = "elite"\nthreshold = 70\n')
    result = runner.invoke(app, ["score", str(skill)])
    assert result.exit_code == 2 and "threshold 70 and pass-threshold 85 differ" in result.stderr
    (tmp_path / ".plugin-eval.toml").write_text('weights = "b.md"\n')
    result = runner.invoke(app, ["score", str(skill)])
    assert result.exit_code == 2 and "plugin-eval score --weights FILE.md" in result.stderr


def test_report_gives_every_item_the_verdict_and_fails_under_it(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    for name in ("csv-cleanup", "log-triage"):
        shutil.copytree(REPO / "corpus" / name, root / name)
    out = tmp_path / "out"
    args = ["report", str(root), "--out", str(out), "--no-cache", "-j", "1"]
    result = runner.invoke(app, [*args, "--pass-threshold", "industry"])
    assert result.exit_code == 1
    # The run says why it failed, as `score` does.
    assert f"exit 1: 1 item under the pass threshold 65 (see {out}/summary.md)" in result.stderr
    item = json.loads((out / "skills" / "log-triage.json").read_text())
    assert (item["passThreshold"], item["passed"]) == (65.0, False)
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["pass_threshold"], summary["passed"], summary["failed"]) == (65.0, 1, 1)
    assert "**Result: FAIL** at the pass threshold 65: 1 item(s) reach it, 1 do not." in (
        (out / "summary.md").read_text()
    )
    assert runner.invoke(app, args).exit_code == 0  # no pass threshold, nothing fails


def test_report_says_how_many_items_could_not_be_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plugin_eval import marketplace
    from plugin_eval.engine import score_document as score

    root = tmp_path / "tree"
    for name in ("csv-cleanup", "log-triage"):
        shutil.copytree(REPO / "corpus" / name, root / name)

    def broken(doc: Any, *args: Any, **kwargs: Any) -> Any:
        if doc.folder.name == "log-triage":
            raise RuntimeError("internal error")
        return score(doc, *args, **kwargs)

    monkeypatch.setattr(marketplace, "score_document", broken)
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(root), "--out", str(out), "--no-cache", "-j", "1"])
    assert result.exit_code == 1
    assert f"exit 1: 1 item could not be scored (see Errors in {out}/summary.md)" in result.stderr


# Hostile text


HOSTILE_KEY = "<script>alert(1)</script> [x](https://e.vil) \x1b[31m"


def test_hostile_skill_text_in_feedback_stays_escaped(tmp_path: Path) -> None:
    key = HOSTILE_KEY.replace("\x1b", "\\e")
    skill = tmp_path / "skills" / "hostile"
    write_files(
        skill,
        {
            "SKILL.md": f"---\nname: hostile\ndescription: Formats CSV reports. Use when "
            f'exporting tables or merging CSV files.\n"{key}": 1\n---\n\n# Hostile\n\nBody.\n'
        },
    )
    _, report = _json(str(skill), "--isolated")
    feedback = {d["name"]: d["feedback"] for d in report["composite"]["dimensions"]}
    assert HOSTILE_KEY in feedback["structural_completeness"]  # the JSON keeps the data
    args = ["score", str(skill), "--isolated", "--pass-threshold", "100", "--fail-on", "none"]
    text = runner.invoke(app, [*args, "-o", "text"]).stdout
    markdown = runner.invoke(app, [*args, "-o", "markdown"]).stdout
    html = runner.invoke(app, [*args, "-o", "html"]).stdout

    def problem(lines: list[str], start: str) -> str:
        return next(x for x in lines if x.startswith(start) and "structural_completeness" in x)

    assert "\x1b" not in text
    assert "field '<script>alert(1)</script> [x](https://e.vil) \\x1b[31m'" in problem(
        _block(text.split("\n")), "- 问题"
    )
    assert "<script>" not in markdown and "[x](https://" not in markdown
    assert "'&lt;script>alert(1)&lt;/script> \\[x](https\\://e.vil) \\\\x1b\\[31m'" in problem(
        markdown.split("\n"), "  - 问题"
    )
    assert "<script>" not in html
    html5lib.HTMLParser(strict=True).parse(html)
    assert (
        "&#x27;&lt;script&gt;alert(1)&lt;/script&gt; [x](https://e.vil) \\x1b[31m&#x27;"
        in problem(html.replace("<li>", "\n<li>").split("\n"), "<li>问题")
    )


def test_a_dimension_weighed_zero_is_neither_strong_nor_weak_nor_a_strength() -> None:
    """A benchmark file that leaves a dimension out weighs it 0: it counts for nothing, so it
    is not listed among the strong or weak ones, nor in the feedback or the 优点 line."""
    from plugin_eval.config import Config
    from plugin_eval.engine import score_skill
    from plugin_eval.report.model import build_report

    weights = {**DIMENSION_WEIGHTS, "token_efficiency": 0.0}
    result = score_skill(REPO / "corpus" / "csv-cleanup", Config(weights=weights), "csv-cleanup")
    report = build_report(result, "2026-01-01T00:00:00Z", 60)
    dims = {d.name: d for d in report.composite.dimensions}
    assert dims["token_efficiency"].score == 1.0  # measured, and the best it could be
    assert "token_efficiency" not in report.strong_dimensions + report.weak_dimensions
    assert "token_efficiency" not in report.overall_feedback
    plain = build_report(score_skill(REPO / "corpus" / "csv-cleanup", Config(), "c"), "t", 60)
    assert "token_efficiency" in plain.strong_dimensions
