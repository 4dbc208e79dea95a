"""A batch never stops for one bad path: each is reported for itself, the rest are scored."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from tests.conftest import REPO

runner = CliRunner()


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def test_a_missing_path_is_reported_and_the_others_are_scored() -> None:
    result = runner.invoke(app, ["score", "missing-path", "corpus/csv-cleanup", "-o", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [r["path"] for r in data["reports"]] == ["corpus/csv-cleanup"]
    assert data["failures"] == [{"path": "missing-path", "error": "no such file or folder"}]
    assert "missing-path: could not be scored: no such file or folder" in result.stderr


def test_a_glob_that_catches_a_readme_does_not_abort() -> None:
    folders = sorted(p for p in (REPO / "corpus").iterdir() if p.is_dir())
    every = sorted(str(p.relative_to(REPO)) for p in (REPO / "corpus").iterdir())
    result = runner.invoke(app, ["score", *every, "-o", "json", "--fail-on", "none"])
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["reports"]) == len(folders)
    assert "skipped corpus/README.md: not a SKILL.md file, or a file of a skill" in result.stderr


def test_the_same_skill_named_three_ways_is_scored_once() -> None:
    paths = ["corpus/csv-cleanup", "corpus/csv-cleanup/", "corpus/csv-cleanup/SKILL.md"]
    data = json.loads(runner.invoke(app, ["score", *paths, "-o", "json"]).stdout)
    assert [r["path"] for r in data["reports"]] == ["corpus/csv-cleanup"]


def test_nothing_to_score_is_a_usage_error_saying_what_was_skipped() -> None:
    result = runner.invoke(app, ["score", "corpus/README.md"])
    assert result.exit_code == 2
    assert "nothing to score; skipped corpus/README.md" in result.stderr


def test_only_missing_paths_fail_without_a_traceback() -> None:
    result = runner.invoke(app, ["score", "nope-a", "nope-b"])
    assert (result.exit_code == 1 and result.exception is None) or isinstance(
        result.exception, SystemExit
    )
    assert result.stderr.count("could not be scored") == 2


def test_a_plugin_at_a_deeper_depth_gets_its_static_layer_and_a_note() -> None:
    result = runner.invoke(
        app, ["score", "corpus/csv-toolkit", "corpus/csv-cleanup", "--depth", "deep", "-o", "json"]
    )
    data = json.loads(result.stdout)
    assert [(r["path"], r["depth"]) for r in data["reports"]] == [
        ("corpus/csv-toolkit", "quick"),
        ("corpus/csv-cleanup", "deep"),
    ]
    assert "corpus/csv-toolkit: plugin folders are scored at depth quick" in result.stderr


def test_report_out_that_is_a_file_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("keep me")
    result = runner.invoke(app, ["report", "corpus", "--out", str(target)])
    assert result.exit_code == 2 and "is a file" in result.stderr
    assert target.read_text() == "keep me"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_folder_is_a_failure_for_that_path(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    (locked / "inner").mkdir(parents=True)
    locked.chmod(0)
    try:
        result = runner.invoke(app, ["score", str(locked / "inner"), "corpus/csv-cleanup"])
    finally:
        locked.chmod(0o755)
    assert result.exit_code == 1 and "could not be scored" in result.stderr
