"""Configuration a user gets wrong is a usage error that names the file (exit 2, one line),
never a traceback and never a gate silently dropped; the Python API refuses the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval import api
from plugin_eval.cli import app
from tests.conftest import frontmatter, write_files

runner = CliRunner()
WARNING_ONLY = frontmatter("Formats CSV reports for exports and merged tables.") + "Steps.\n"


def run(tmp_path: Path, config_name: str, config: str, *args: str) -> tuple[int, str]:
    write_files(tmp_path, {"skill/SKILL.md": WARNING_ONLY, config_name: config})
    result = runner.invoke(app, ["score", str(tmp_path / "skill"), "-q", *args])
    return result.exit_code, result.stderr


def test_a_broken_pyproject_that_holds_the_table_is_an_error_not_ignored(tmp_path: Path) -> None:
    text = '[project]\nname = "x\n\n[tool.plugin-eval]\nthreshold = 99\nfail-on = "warning"\n'
    code, stderr = run(tmp_path, "pyproject.toml", text)
    assert code == 2
    assert stderr.startswith(f"error: {tmp_path / 'pyproject.toml'}: invalid TOML: ")


def test_a_broken_pyproject_of_someone_else_is_passed_over(tmp_path: Path) -> None:
    code, stderr = run(tmp_path, "pyproject.toml", '[project]\nname = "x\n')
    assert (code, stderr) == (0, "")


@pytest.mark.parametrize("name", ["pyproject.toml", ".plugin-eval.toml"])
def test_a_configuration_that_is_not_utf8_is_an_error_naming_its_line(
    tmp_path: Path, name: str
) -> None:
    """A pyproject.toml with one Latin-1 byte in a comment was passed over in silence, and its
    threshold with it; the same file under another project's table still is."""
    table = "[tool.plugin-eval]\n" if name == "pyproject.toml" else ""
    write_files(tmp_path, {"skill/SKILL.md": WARNING_ONLY})
    (tmp_path / name).write_bytes(
        b"# ok\n# Auteur: Ren\xe9\n" + table.encode() + b"threshold = 99\n"
    )
    result = runner.invoke(app, ["score", str(tmp_path / "skill"), "-q"])
    assert (result.exit_code, result.stderr) == (
        2,
        f"error: {tmp_path / name}:2: not UTF-8 text (byte 0xe9), as TOML must be: save the "
        "file as UTF-8\n",
    )
    if name == "pyproject.toml":
        (tmp_path / name).write_bytes(b"# Auteur: Ren\xe9\n[tool.other]\nx = 1\n")
        passed = runner.invoke(app, ["score", str(tmp_path / "skill"), "-q"])
        assert (passed.exit_code, passed.stderr) == (0, "")


def test_a_plugin_eval_table_that_is_not_a_table_names_its_line(tmp_path: Path) -> None:
    code, stderr = run(tmp_path, "pyproject.toml", "[tool]\nplugin-eval = 3\n")
    assert code == 2
    assert stderr.strip() == (
        f"error: {tmp_path / 'pyproject.toml'}:2: [tool.plugin-eval] must be a table of settings"
    )


def test_an_empty_select_is_refused(tmp_path: Path) -> None:
    code, stderr = run(tmp_path, ".plugin-eval.toml", "select = []\n")
    assert code == 2
    assert "'select' is empty, which would run no rule" in stderr


@pytest.mark.parametrize("where", ["option", "file"])
def test_a_pattern_git_cannot_match_is_a_usage_error(tmp_path: Path, where: str) -> None:
    if where == "option":
        code, stderr = run(tmp_path, "notes.txt", "", "--exclude", "[z-a]")
        assert stderr.strip() == (
            "error: --exclude: '[z-a]' is not a gitignore-style pattern (git cannot match it: "
            "a character range that runs backwards, say)"
        )
    else:
        code, stderr = run(tmp_path, ".plugin-eval.toml", 'extend-exclude = ["[z-a]"]\n')
        assert "'extend-exclude': '[z-a]' is not a gitignore-style pattern" in stderr
    assert code == 2


def test_isolated_and_config_together_are_refused(tmp_path: Path) -> None:
    code, stderr = run(tmp_path, "custom.toml", "threshold = 99\n", "--config", "x", "--isolated")
    assert code == 2
    assert "--isolated cannot be used with --config" in stderr


def test_the_api_refuses_a_bad_fail_on_before_scoring(tmp_path: Path) -> None:
    with pytest.raises(api.UsageError, match="--fail-on: 'fatal' is not one of error"):
        api.configure([tmp_path], fail_on="fatal")


def test_the_api_takes_one_path_given_alone(tmp_path: Path) -> None:
    write_files(tmp_path, {"skill/SKILL.md": WARNING_ONLY})
    batch = api.score_paths(str(tmp_path / "skill"))
    assert [r.name for r in batch.reports] == ["example-skill"]


def test_a_code_typed_with_letters_for_digits_is_suggested_as_that_code(tmp_path: Path) -> None:
    body = "See [a](references/a.md). <!-- plugin-eval: ignore PE2O1 -->\n"
    write_files(tmp_path, {"skill/SKILL.md": WARNING_ONLY + body})
    result = runner.invoke(app, ["score", str(tmp_path / "skill"), "-o", "json", "--isolated"])
    [finding] = [f for f in api_findings(result.stdout) if f["code"] == "PE008"]
    assert (
        finding["fix"]
        == "Did you mean PE201 (ORPHAN_REFERENCE, orphan-reference)? Write that instead."
    )


def api_findings(stdout: str) -> list[dict[str, str]]:
    import json

    findings: list[dict[str, str]] = json.loads(stdout)["findings"]
    return findings
