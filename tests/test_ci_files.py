"""CI files that work in any repository: the pre-commit hook, the weekly workflow, and SARIF
paths from `report` that match the checkout."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.rules.plugin_base import good_plugin
from tests.conftest import REPO, write_files

runner = CliRunner()
SKILL = (
    "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# T\n\nSteps.\n"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_files(
        tmp_path,
        {
            "skills/a/SKILL.md": SKILL.format(name="a"),
            "skills/a/references/guide.md": "# Guide\n",
            "skills/a/scripts/run.py": "print('x')\n",
            **{f"plugins/p/{k}": v for k, v in good_plugin().items()},
            "src/app.py": "print('app')\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _hook() -> dict[str, object]:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert isinstance(hook, dict)
    return hook


def test_the_hook_matches_every_kind_of_skill_and_plugin_file() -> None:
    files = re.compile(str(_hook()["files"]))
    for changed in (
        "skills/a/SKILL.md",
        ".claude/skills/a/references/guide.md",
        "skills/a/scripts/run.py",
        "plugins/p/agents/csv-analyst.md",
        "plugins/p/commands/csv-clean.md",
        "plugins/p/.claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
    ):
        assert files.search(changed), changed
    assert not files.search("src/app.py")


def test_changed_files_score_each_enclosing_skill_and_plugin_once(project: Path) -> None:
    entry = str(_hook()["entry"]).split()[1:]
    changed = [
        "skills/a/references/guide.md",
        "skills/a/scripts/run.py",
        "skills/a/SKILL.md",
        "plugins/p/agents/csv-analyst.md",
        "plugins/p/.claude-plugin/plugin.json",
    ]
    result = runner.invoke(app, [*entry, *changed, "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert [r["path"] for r in json.loads(result.stdout)["reports"]] == ["skills/a", "plugins/p"]


def test_a_commit_that_touches_no_skill_passes(project: Path) -> None:
    entry = str(_hook()["entry"]).split()[1:]
    result = runner.invoke(app, [*entry, "src/app.py"])
    assert result.exit_code == 0
    assert "skipped src/app.py" in result.stderr
    assert runner.invoke(app, ["score", "src/app.py"]).exit_code == 2


def test_the_weekly_workflow_keeps_its_outputs_when_the_report_fails() -> None:
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "weekly-report.yml").read_text())
    steps = workflow["jobs"]["report"]["steps"]
    after = steps[[s.get("name") for s in steps].index("Report") + 1 :]
    assert after and all(step.get("if") == "always()" for step in after)


def test_report_sarif_paths_start_where_it_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    runner.invoke(app, ["report", "corpus", "--out", str(out), "--sarif", "--no-cache", "-j", "1"])
    results = json.loads((out / "summary.sarif").read_text())["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris and all(uri.startswith("corpus/") for uri in uris)
    assert all((REPO / uri).exists() for uri in uris if "references/" not in uri)
