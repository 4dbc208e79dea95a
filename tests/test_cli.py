"""The command line: outputs, exit codes, configuration and suppressions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.rules import SKILL_RULES
from tests.conftest import SEEDS, MakeSkill

GOOD = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging ledger files.\n---\n\n# CSV\n\n## Steps\n\nTrim cells.\n"
)
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_text_output_is_short_and_names_score_and_findings(make_skill: MakeSkill) -> None:
    code, out, _ = run(
        "score", str(make_skill(GOOD.replace("Trim cells.", "See [x](references/x.md).")))
    )
    assert code == 1  # an ORPHAN_REFERENCE is an error, and --fail-on defaults to error
    assert "/100" in out and "PE201" in out and "ORPHAN_REFERENCE" in out and "fix:" in out
    assert "SKILL.md:10:5" in out


def test_clean_skill_exits_zero(make_skill: MakeSkill) -> None:
    code, _, _ = run("score", str(make_skill(GOOD)))
    assert code == 0


def test_json_output_validates_against_the_published_schema(make_skill: MakeSkill) -> None:
    _, out, _ = run("score", str(make_skill(GOOD)), "--output", "json")
    _, schema_text, _ = run("schema")
    report = json.loads(out)
    jsonschema.validate(report, json.loads(schema_text))
    assert {"layers", "composite", "findings"} <= report.keys()
    assert {"score", "ci_lower", "ci_upper", "badge", "dimensions"} <= report["composite"].keys()


def test_json_is_identical_between_runs_apart_from_the_timestamp(make_skill: MakeSkill) -> None:
    folder = str(make_skill(GOOD))
    first = json.loads(run("score", folder, "-o", "json")[1])
    second = json.loads(run("score", folder, "-o", "json")[1])
    first.pop("generated_at"), second.pop("generated_at")
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_markdown_output(make_skill: MakeSkill) -> None:
    _, out, _ = run("score", str(make_skill(GOOD)), "--output", "markdown", "--explain")
    assert out.startswith("## example-skill:")
    assert "| triggering_accuracy | 0.25 |" in out and "### Evidence" in out


def test_explain_shows_evidence(make_skill: MakeSkill) -> None:
    _, out, _ = run("score", str(make_skill(GOOD)), "--explain")
    assert "frontmatter_quality" in out and "3 specific, distinct contexts" in out


def test_threshold_sets_exit_one(make_skill: MakeSkill) -> None:
    folder = str(make_skill(GOOD))
    assert run("score", folder, "--threshold", "99")[0] == 1
    assert run("score", folder, "--threshold", "1")[0] == 0


def test_fail_on_levels(make_skill: MakeSkill) -> None:
    folder = str(
        make_skill(
            GOOD.replace("Formats CSV reports.", "Formats CSV reports for you.").replace(
                "name: example-skill", "name: example-skill\nversion: 1"
            )
        )
    )
    assert run("score", folder)[0] == 0  # only a warning
    assert run("score", folder, "--fail-on", "warning")[0] == 1
    assert run("score", folder, "--fail-on", "none")[0] == 0


def test_select_and_ignore(make_skill: MakeSkill) -> None:
    folder = str(make_skill(GOOD.replace("Trim cells.", "See [x](references/x.md).")))
    assert "PE201" not in run("score", folder, "--ignore", "PE201", "-o", "json")[1]
    assert run("score", folder, "--ignore", "ORPHAN_REFERENCE")[0] == 0
    out = json.loads(run("score", folder, "--select", "PE1", "-o", "json")[1])
    assert all(f["code"].startswith("PE1") for f in out["findings"])


def test_unknown_selector_is_a_usage_error(make_skill: MakeSkill) -> None:
    code, _, err = run("score", str(make_skill(GOOD)), "--ignore", "PE999")
    assert code == 2 and "PE999" in err


def test_inline_suppression_hides_one_finding(make_skill: MakeSkill) -> None:
    text = GOOD.replace(
        "Trim cells.",
        "<!-- plugin-eval: ignore PE201 -->\nSee [x](references/x.md).\n\nAnd [y](references/y.md).",
    )
    report = json.loads(run("score", str(make_skill(text)), "-o", "json")[1])
    assert [f["line"] for f in report["findings"] if f["code"] == "PE201"] == [13]
    assert report["counts"]["suppressed"] == 1


def test_yaml_comment_suppresses_a_frontmatter_finding(make_skill: MakeSkill) -> None:
    text = GOOD.replace(
        "name: example-skill\n", "name: example-skill\nversion: 2  # plugin-eval: ignore PE108\n"
    )
    report = json.loads(run("score", str(make_skill(text)), "-o", "json")[1])
    assert "PE108" not in {f["code"] for f in report["findings"]}


def test_config_in_pyproject_is_found_above_the_skill(
    make_skill: MakeSkill, tmp_path: Path
) -> None:
    folder = make_skill(GOOD.replace("Trim cells.", "See [x](references/x.md)."))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.plugin-eval]\nignore = ["PE201"]\nthreshold = 10\n'
    )
    assert run("score", str(folder))[0] == 0
    assert run("score", str(folder), "--isolated")[0] == 1


def test_plugin_eval_toml_per_path_ignores(make_skill: MakeSkill, tmp_path: Path) -> None:
    folder = make_skill(GOOD.replace("Trim cells.", "See [x](references/x.md)."))
    # Patterns are paths from the folder of the file that declares them.
    (tmp_path / ".plugin-eval.toml").write_text('[per-path-ignores]\n"skills/*" = ["PE2"]\n')
    assert folder == tmp_path / "skills" / "example-skill"
    assert run("score", str(folder))[0] == 0


def test_broken_config_is_a_usage_error_naming_the_file(
    make_skill: MakeSkill, tmp_path: Path
) -> None:
    folder = make_skill(GOOD)
    (tmp_path / ".plugin-eval.toml").write_text("ignore = [\n")
    code, _, err = run("score", str(folder))
    assert code == 2 and ".plugin-eval.toml" in err


def test_a_folder_with_nothing_to_score_says_where_it_looked(tmp_path: Path) -> None:
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    (tmp_path / "node_modules" / "pkg" / "SKILL.md").write_text("---\nname: pkg\n---\n")
    code, out, err = run("score", str(tmp_path))
    assert code == 2 and "Traceback" not in out + err
    assert f"nothing to score; skipped {tmp_path.as_posix()}: no skill" in err
    assert "passed over " + (tmp_path / "node_modules").as_posix() + " (excluded)" in err


def test_a_missing_path_fails_for_itself(tmp_path: Path) -> None:
    code, _, err = run("score", str(tmp_path / "nope"))
    assert code == 1 and "nope: could not be scored: no such file or folder" in err


def test_a_depth_without_its_layers_says_so(make_skill: MakeSkill) -> None:
    # standard is static + judge, and offline there is no judge (tests/test_judge.py has the
    # model backends).
    code, _, err = run("score", str(make_skill(GOOD)), "--depth", "standard")
    assert code == 2 and "use --depth quick" in err and "judge" in err


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"\x00\x01binary\x00", "PE005"),
        (b"---\nname: example-skill\ndescription: [unclosed\n---\n# Body\n", "PE003"),
        (b"", "PE006"),
        (b"\xff\xfe---\n", "PE005"),
    ],
)
def test_broken_input_is_a_finding_not_a_traceback(
    content: bytes, code: str, make_skill: MakeSkill
) -> None:
    result = runner.invoke(app, ["score", str(make_skill(content)), "-o", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert code in {f["code"] for f in report["findings"]}
    assert 0 <= report["composite"]["score"] <= 100


@pytest.mark.skipif(not SEEDS.exists(), reason="shared seeds not present")
def test_seed_003_collapsed_frontmatter(make_skill: MakeSkill) -> None:
    raw = (SEEDS / "003_889515ea484246ad.txt").read_bytes()
    report = json.loads(run("score", str(make_skill(raw, folder="benchmark")), "-o", "json")[1])
    found = {(f["code"], f["line"]) for f in report["findings"]}
    assert ("PE001", 1) in found and ("PE101", 1) in found
    assert "collapsed" in next(f["message"] for f in report["findings"] if f["code"] == "PE001")


def test_batch_keeps_going_past_a_broken_skill(make_skill: MakeSkill) -> None:
    good = make_skill(GOOD)
    bad = make_skill(b"---\nname: [\n---\n", folder="broken")
    code, out, _ = run("score", str(bad), str(good), "-o", "json")
    reports = json.loads(out)["reports"]
    assert [r["name"] for r in reports] == ["broken", "example-skill"]
    assert code == 1


def test_plugin_folder_is_scored_as_a_plugin_with_its_skills(tmp_path: Path) -> None:
    plugin = tmp_path / "my-plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "my-plugin"}')
    for name in ("one", "two"):
        (plugin / "skills" / name).mkdir(parents=True)
        (plugin / "skills" / name / "SKILL.md").write_text(GOOD.replace("example-skill", name))
    report = json.loads(run("score", str(plugin), "-o", "json")[1])
    assert report["kind"] == "plugin"
    assert [r["name"] for r in report["skills"]] == ["one", "two"]


def test_rules_and_rule_commands() -> None:
    code, out, _ = run("rules")
    assert code == 0 and all(r.code in out for r in SKILL_RULES)
    code, out, _ = run("rule", "PE201")
    assert code == 0 and "ORPHAN_REFERENCE" in out and "## Failing example" in out
    assert run("rule", "orphan-reference")[1] == out
    assert run("rule", "PE999")[0] == 2
    # `rules` with codes explains them too, in the order given.
    code, both, _ = run("rules", "PE201", "link-outside-skill")
    assert code == 0 and both.startswith(out) and "# PE203 link-outside-skill" in both
    code, _, err = run("rules", "PE201", "PE999", "nope")
    assert code == 2 and "no rule 'PE999', 'nope'" in err
    code, out, _ = run("rules", "LINK_OUTSIDE_SKILL", "PE201", "-o", "json")
    assert code == 0 and [r["code"] for r in json.loads(out)] == ["PE203", "PE201"]


def test_python_dash_m_works() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "plugin_eval", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("plugin-eval ")


def test_the_process_entry_point_restores_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The `plugin-eval` script pauses cyclic collection while the CLI imports, then turns it
    back on before any command runs; pydantic plugins are off unless the user set them."""
    import gc

    from plugin_eval import __main__ as entry

    seen: list[bool] = []
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    monkeypatch.setattr("plugin_eval.cli.main", lambda: seen.append(gc.isenabled()))
    entry.main()
    assert seen == [True] and gc.isenabled()
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__"
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "")
    entry.main()
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == ""
    gc.unfreeze()  # the test process's objects go back to the collector's generations


def test_unknown_field_suggests_the_known_one(make_skill: MakeSkill) -> None:
    text = GOOD.replace("name: example-skill\n", "name: example-skill\ndescripton: typo\n")
    report = json.loads(run("score", str(make_skill(text)), "-o", "json")[1])
    (finding,) = [f for f in report["findings"] if f["code"] == "PE108"]
    # GOOD has a description already: the typo is a second copy, not a rename to make.
    assert finding["message"] == "unknown frontmatter field 'descripton' (a second 'description'?)"
    alone = text.replace("description: ", "summary: ", 1)
    report = json.loads(run("score", str(make_skill(alone, folder="alone")), "-o", "json")[1])
    messages = [f["message"] for f in report["findings"] if f["code"] == "PE108"]
    assert "unknown frontmatter field 'descripton' (did you mean 'description'?)" in messages


def test_running_one_command_builds_only_it_and_leaves_every_command_registered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from plugin_eval import cli

    every = [c.name for c in cli.app.registered_commands]
    with pytest.raises(SystemExit) as done:
        cli.main(["schema", "--help"])
    assert done.value.code == 0
    assert "Usage: " in capsys.readouterr().out
    assert [c.name for c in cli.app.registered_commands] == every
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    listed = capsys.readouterr().out
    assert done.value.code == 0
    assert all(name is not None and name in listed for name in every)
    with pytest.raises(SystemExit) as done:
        cli.main(["scroe"])
    assert done.value.code == 2
    assert "No such command 'scroe'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["score", "--depth", "bogus", "x"],
            "Invalid value for '--depth': Value error, 'bogus' is not one of 'quick', "
            "'standard', 'deep', 'thorough' (see 'plugin-eval score --help')",
        ),
        (
            ["report", ".", "--out", "o", "--jobs", "0"],
            "Invalid value for '--jobs' / '-j': Input should be greater than or equal to 1 "
            "(see 'plugin-eval report --help')",
        ),
        # Click offers "--runs" for "--bogus": only a close name is offered.
        (["score", "--bogus", "x"], "No such option: --bogus (see 'plugin-eval score --help')"),
        (
            ["score", "--thresold", "3", "x"],
            "No such option: --thresold; did you mean --pass-threshold or --threshold? (see "
            "'plugin-eval score --help')",
        ),
        # Click gives this error no context: the command is read off the arguments.
        (
            ["compare", "a", "--against"],
            "Option '--against' requires an argument (see 'plugin-eval compare --help')",
        ),
        (
            ["scroe"],
            "No such command 'scroe'. Did you mean 'score'? (see 'plugin-eval --help')",
        ),
    ],
)
def test_a_command_line_error_is_one_line_as_the_tools_own_errors_are(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not Click's usage line, hint and Rich box of three to five lines: one line, exit 2."""
    from plugin_eval import cli

    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 2
    assert capsys.readouterr().err == f"error: {said}\n"


def test_help_read_through_a_pipe_is_whole_at_any_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rich's panels cut option names and help to fit 80 columns ("--respect-gitign…"); piped,
    the help is Click's plain text, which wraps instead, and the panels come back after."""
    from plugin_eval import cli

    monkeypatch.delenv("COLUMNS", raising=False)
    with pytest.raises(SystemExit) as done:
        cli.main(["score", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "…" not in text and "╭" not in text
    assert "--respect-gitignore / --no-respect-gitignore" in text
    assert max(map(len, text.splitlines())) <= 80
    assert cli.app.rich_markup_mode is not None


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        ("score", ("search for them (default: .).", "worse (default: error).")),
        ("report", ("searching (default: respect).", "(default: the number of cores).")),
    ],
)
def test_help_shows_the_defaults_written_in_it(command: str, shown: tuple[str, ...]) -> None:
    """Help text is Rich markup: a default written in square brackets would be swallowed."""
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())
    for words in shown:
        assert words in text, words
    assert not any(f"{word} ." in text for word in ("them", "worse", "searching", "processes"))


def test_fail_on_takes_a_severity_in_any_letter_case() -> None:
    """As rule codes are: `--fail-on ERROR` is `--fail-on error`."""
    broken = str(Path(__file__).resolve().parents[1] / "corpus" / "broken-dead-links")
    assert CliRunner().invoke(app, ["score", broken, "--fail-on", "ERROR", "-q"]).exit_code == 1
    assert CliRunner().invoke(app, ["score", broken, "--fail-on", "None", "-q"]).exit_code == 0


def test_rules_takes_a_prefix_as_select_does() -> None:
    result = CliRunner().invoke(app, ["rules", "PE21", "PE210", "-o", "json"])
    assert result.exit_code == 0
    assert [r["code"] for r in json.loads(result.stdout)] == ["PE210", "PE211", "PE212"]
    assert CliRunner().invoke(app, ["rules", "PE9"]).exit_code == 2


def test_a_searched_folder_gives_the_batch_shape_even_with_one_skill(tmp_path: Path) -> None:
    """The JSON's shape follows the command, not how many skills a folder holds today."""
    skill = (
        "---\nname: csv-report\ndescription: Formats CSV reports. Use when exporting tables, "
        "cleaning column names, or merging CSV files.\n---\n\n# CSV report\n\nSteps.\n"
    )
    (tmp_path / "skills" / "csv-report").mkdir(parents=True)
    (tmp_path / "skills" / "csv-report" / "SKILL.md").write_text(skill)
    searched = CliRunner().invoke(app, ["score", str(tmp_path / "skills"), "-o", "json"])
    assert [r["name"] for r in json.loads(searched.stdout)["reports"]] == ["csv-report"]
    direct = CliRunner().invoke(
        app, ["score", str(tmp_path / "skills" / "csv-report"), "-o", "json"]
    )
    assert json.loads(direct.stdout)["name"] == "csv-report"


def test_compare_fails_a_drop_past_max_drop_only_when_asked() -> None:
    corpus = Path(__file__).resolve().parents[1] / "corpus"
    good, weak = str(corpus / "csv-cleanup"), str(corpus / "log-triage")
    assert CliRunner().invoke(app, ["compare", good, weak]).exit_code == 0
    dropped = CliRunner().invoke(app, ["compare", good, weak, "--max-drop", "5"])
    assert dropped.exit_code == 1
    assert "exit 1: B's composite is" in dropped.stderr and "(--max-drop 5)" in dropped.stderr
    assert CliRunner().invoke(app, ["compare", weak, good, "--max-drop", "0"]).exit_code == 0


def test_compare_refuses_a_folder_of_several_items(tmp_path: Path) -> None:
    """Each side is one skill or plugin: a folder of several would be compared by its first."""
    skill = (
        "---\nname: {0}\ndescription: Formats CSV reports. Use when exporting tables, "
        "cleaning column names, or merging CSV files.\n---\n\n# T\n\nSteps.\n"
    )
    for name in ("csv-a", "csv-b"):
        (tmp_path / "skills" / name).mkdir(parents=True)
        (tmp_path / "skills" / name / "SKILL.md").write_text(skill.format(name))
    result = CliRunner().invoke(
        app, ["compare", str(tmp_path / "skills"), str(tmp_path / "skills" / "csv-a")]
    )
    assert result.exit_code == 2
    assert "holds 2 skills and plugins" in " ".join(result.stderr.split())
    one = CliRunner().invoke(
        app, ["compare", str(tmp_path / "skills" / "csv-b"), str(tmp_path / "skills" / "csv-a")]
    )
    assert one.exit_code == 0
