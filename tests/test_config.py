"""Configuration files: both forms load as the README shows, and per-path ignores are
relative to the file that declares them, wherever plugin-eval runs from."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval import api
from plugin_eval.cli import app
from plugin_eval.config import ConfigError, load_config
from tests.conftest import REPO, write_files

runner = CliRunner()
DEAD_LINK_SKILL = (
    "---\nname: legacy-a\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# Legacy\n\nSee [x](references/x.md).\n"
)


def _readme_toml_blocks() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Configuration") : text.index("### Suppressing one finding")]
    return re.findall(r"```toml\n(.*?)```", section, re.S)


def test_both_forms_in_the_readme_load_to_the_same_settings(tmp_path: Path) -> None:
    pyproject, dotfile = _readme_toml_blocks()
    (tmp_path / "pyproject.toml").write_text(pyproject)
    (tmp_path / ".plugin-eval.toml").write_text(dotfile)
    a = load_config(tmp_path / "pyproject.toml")
    b = load_config(tmp_path / ".plugin-eval.toml")
    assert a.fingerprint() == b.fingerprint()
    assert a.per_path_ignores == {"skills/legacy-*": ["PE3", "BODY_TOO_LONG"]}


def test_a_table_pasted_into_the_dotfile_is_a_usage_error_naming_the_fix(tmp_path: Path) -> None:
    pyproject, _ = _readme_toml_blocks()
    (tmp_path / ".plugin-eval.toml").write_text(pyproject)
    with pytest.raises(ConfigError, match="at the top level, without the table header"):
        load_config(tmp_path / ".plugin-eval.toml")
    write_files(tmp_path / "skills" / "legacy-a", {"SKILL.md": DEAD_LINK_SKILL})
    result = runner.invoke(app, ["score", str(tmp_path / "skills" / "legacy-a")])
    assert result.exit_code == 2 and ".plugin-eval.toml" in result.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write_files(
        root,
        {
            ".plugin-eval.toml": '[per-path-ignores]\n"skills/legacy-*" = ["PE201"]\n',
            "skills/legacy-a/SKILL.md": DEAD_LINK_SKILL,
        },
    )
    return root


@pytest.mark.parametrize("where", [".", "skills", "skills/legacy-a", ".."])
def test_per_path_ignores_hold_from_any_working_folder(
    repo: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo / where)
    target = os.path.relpath(repo / "skills" / "legacy-a")
    result = runner.invoke(app, ["score", target, "-o", "json"])
    report = json.loads(result.stdout)
    assert [f["code"] for f in report["findings"]] == []
    assert result.exit_code == 0


def test_report_applies_the_same_per_path_ignores(repo: Path, tmp_path: Path) -> None:
    run = api.report_tree(repo, tmp_path / "out", api.configure([repo]), jobs=1, cache_dir=None)
    run.rows.close()
    rows = json.loads((tmp_path / "out" / "summary.json").read_text())["rows"]
    assert [(r["path"], r["counts"]["error"]) for r in rows] == [("skills/legacy-a", 0)]


def test_a_folder_outside_the_config_folder_is_not_matched(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "skills" / "legacy-b"
    write_files(outside, {"SKILL.md": DEAD_LINK_SKILL.replace("legacy-a", "legacy-b")})
    config = load_config(repo / ".plugin-eval.toml")
    assert config.enabled("PE201", outside)
    assert not config.enabled("PE201", repo / "skills" / "legacy-a")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[tool.plugin-eval]\nthreshhold = 70\n",
            "pyproject.toml:2: unknown setting 'threshhold' (did you mean 'threshold'?)",
        ),
        (
            '[tool.plugin-eval]\nselect = ["PE2"]\nfail-on = "loud"\n',
            "pyproject.toml:3: 'fail-on': Input should be 'error', 'warning', 'info' or 'none'",
        ),
        (
            "[tool.plugin-eval]\ncolour = 1\n",
            "pyproject.toml:2: unknown setting 'colour' (settings: exclude, extend-exclude, "
            "fail-on, ignore, pass-threshold, per-path-ignores, respect-gitignore, select, "
            "threshold)",
        ),
        (
            '[tool.plugin-eval]\nselect = ["PE2"]\nthreshold = 70\npass-threshold = "industry"\n',
            "pyproject.toml:3: 'threshold': threshold 70 and pass-threshold 65 differ: they are "
            "one setting (pass-threshold adds seed 003's verdict); keep one",
        ),
        # A boolean or a string where a number belongs is an error, never read as 1 or 95.
        (
            "[tool.plugin-eval]\nthreshold = true\n",
            "pyproject.toml:2: 'threshold': Input should be a valid number",
        ),
        (
            '[tool.plugin-eval]\nthreshold = "95"\n',
            "pyproject.toml:2: 'threshold': Input should be a valid number",
        ),
        (
            '[tool.plugin-eval]\nrespect-gitignore = "no"\n',
            "pyproject.toml:2: 'respect-gitignore': Input should be a valid boolean",
        ),
        # A code mistyped in per-path-ignores is refused as it is in ignore.
        (
            '[tool.plugin-eval.per-path-ignores]\n"skills/legacy" = ["ORPHAN_REFERNCE"]\n',
            "pyproject.toml:1: 'per-path-ignores': 'ORPHAN_REFERNCE' (for 'skills/legacy') "
            "matches no rule (see `plugin-eval rules`)",
        ),
    ],
)
def test_a_bad_setting_is_named_with_its_line_and_the_fix(
    tmp_path: Path, text: str, message: str
) -> None:
    """In the user's words, not pydantic's: the file and line, and the setting meant."""
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "pyproject.toml")
    assert str(err.value) == f"{tmp_path / 'pyproject.toml'}:{message.split(':', 1)[1]}"
