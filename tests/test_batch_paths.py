"""A batch never stops for one bad path: each is reported for itself, the rest are scored."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.config import Config
from tests.conftest import REPO, score, write_files

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


def _lock(monkeypatch: pytest.MonkeyPatch, locked: Path) -> None:
    """``locked`` behaves as a folder with mode 000 does for a user who is not root: it can be
    looked at, but nothing inside it can (root reads everything, so the tests pretend)."""
    inside = str(locked) + os.sep
    stat = Path.stat

    def guarded(self: Path, *, follow_symlinks: bool = True) -> os.stat_result:
        if str(self).startswith(inside) or str(self.absolute()).startswith(inside):
            raise PermissionError(13, "Permission denied", str(self))
        return stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(Path, "stat", guarded)


@pytest.mark.parametrize("given", ["locked", "locked/inner"])
def test_a_folder_that_cannot_be_entered_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    locked = tmp_path / "locked"
    (locked / "inner").mkdir(parents=True)
    (locked / "inner" / "SKILL.md").write_text("---\nname: inner\n---\n")
    _lock(monkeypatch, locked)
    result = runner.invoke(
        app, ["score", str(tmp_path / given), "corpus/csv-cleanup", "-o", "json"]
    )
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert [r["path"] for r in data["reports"]] == ["corpus/csv-cleanup"]
    assert data["failures"] == [
        {"path": str(tmp_path / given), "error": "cannot be read (Permission denied)"}
    ]


def test_an_unreadable_skill_file_is_told_to_be_made_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plugin_eval import document

    write_files(tmp_path / "s", {"SKILL.md": "---\nname: s\n---\n"})

    def refuse(path: Path, problems: object) -> bytes:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(document, "_read_capped", refuse)
    found = [
        (f.code, f.path, f.line, f.column, f.message, f.fix)
        for f in score(tmp_path / "s").findings
        if f.code == "PE005"
    ]
    assert found == [
        (
            "PE005",
            "s/SKILL.md",
            None,
            None,
            "SKILL.md cannot be read: Permission denied",
            "Make SKILL.md readable by whoever installs the skill (for example: chmod a+r "
            "SKILL.md).",
        )
    ]


def test_an_unreadable_manifest_is_not_told_to_fix_its_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plugin_eval import plugin
    from plugin_eval.plugin_score import score_plugin
    from plugin_eval.rules.plugin_base import good_plugin
    from plugin_eval.walk import read_file as read

    write_files(tmp_path / "p", good_plugin())

    def refuse(path: Path, limit: int) -> bytes:
        if path.name == "plugin.json":
            raise PermissionError(13, "Permission denied", str(path))
        return read(path, limit)

    monkeypatch.setattr(plugin, "read_file", refuse)
    found = [
        (f.code, f.path, f.line, f.column, f.message, f.fix)
        for f in score_plugin(tmp_path / "p", Config(), "p").findings
        if f.code == "PE501"
    ]
    assert found == [
        (
            "PE501",
            "p/.claude-plugin/plugin.json",
            1,
            1,
            ".claude-plugin/plugin.json is not readable: Permission denied",
            "Make the file readable by whoever installs the plugin (for example: chmod a+r "
            ".claude-plugin/plugin.json).",
        )
    ]


def test_a_link_into_a_folder_that_cannot_be_entered_is_not_called_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(
        tmp_path / "s",
        {
            "SKILL.md": "---\nname: s\ndescription: Formats CSV reports. Use when exporting "
            "tables.\n---\n# S\n\nSee [r](references/r.md) and [gone](references/gone.md).\n",
            "references/r.md": "# R\n",
        },
    )
    _lock(monkeypatch, tmp_path / "s" / "references")
    lstat = os.lstat
    inside = str(tmp_path / "s" / "references") + os.sep

    def guarded(path: str | os.PathLike[str], *args: object, **kwargs: object) -> os.stat_result:
        if str(path).startswith(inside):
            raise PermissionError(13, "Permission denied", str(path))
        return lstat(path)

    scandir = os.scandir
    locked = inside.rstrip(os.sep)

    def unlisted(path: str | os.PathLike[str]) -> object:
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "lstat", guarded)
    monkeypatch.setattr(os, "scandir", unlisted)
    found = [(f.code, f.path, f.line) for f in score(tmp_path / "s").findings]
    # The folder that could not be read is said (PE011); neither link is called missing.
    assert [c for c, _, _ in found if c in ("PE011", "PE201")] == ["PE011"]


def test_a_skill_md_that_is_no_regular_file_names_its_skill_as_its_folder_does(
    tmp_path: Path,
) -> None:
    """The pre-commit hook passes file names: a SKILL.md that is a symlink to /dev/zero, a
    dangling one or a FIFO was skipped ("not a skill folder") and the commit passed, where its
    folder gets PE005 and exit 1."""
    for name, make in (
        ("device", lambda p: p.symlink_to("/dev/zero")),
        ("dangling", lambda p: p.symlink_to(tmp_path / "gone.md")),
        ("fifo", lambda p: os.mkfifo(p)),
    ):
        (tmp_path / name).mkdir()
        make(tmp_path / name / "SKILL.md")
    files = [str(tmp_path / n / "SKILL.md") for n in ("dangling", "device", "fifo")]
    result = runner.invoke(app, ["score", *files, "--allow-empty", "-o", "json"])
    assert result.exit_code == 1
    found = [
        (Path(f["path"]).parent.name, f["code"], f["line"], f["column"])
        for r in json.loads(result.stdout)["reports"]
        for f in r["findings"]
    ]
    assert found == [
        ("dangling", "PE005", None, None),
        ("device", "PE005", None, None),
        ("fifo", "PE005", None, None),
    ]
