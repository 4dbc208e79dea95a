"""State that a scored checkout can carry and must never be trusted: a cache folder or file
that is a symlink, a report folder's index someone else wrote, a configuration file inside
the skill being scored, and git trees built to confuse `compare --against`."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from tests.conftest import frontmatter, write_files

runner = CliRunner()
SKILL = frontmatter("Formats CSV reports. Use when exporting tables, or merging CSV files.")


def _victim(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE results (x TEXT)")
    db.execute("INSERT INTO results VALUES ('precious row')")
    db.commit()
    db.close()


def _rows(path: Path) -> list[tuple[str, ...]]:
    db = sqlite3.connect(path)
    try:
        return [tuple(r) for r in db.execute("SELECT * FROM results")]
    finally:
        db.close()


@pytest.mark.parametrize("linked", ["cache.sqlite3", "cache.sqlite3-shm", "folder"])
def test_a_committed_cache_symlink_is_never_written_through(
    tmp_path: Path, linked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    write_files(repo, {"skills/csv/SKILL.md": SKILL + "# CSV\n\nSteps.\n"})
    victim = tmp_path / "victim.db"
    _victim(victim)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cache = repo / ".plugin-eval-cache"
    if linked == "folder":
        cache.symlink_to(elsewhere, target_is_directory=True)
    else:
        cache.mkdir()
        (cache / linked).symlink_to(victim)
    monkeypatch.chdir(repo)
    result = runner.invoke(app, ["report", ".", "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert "never followed; this run went on without the cache" in result.stderr
    assert _rows(victim) == [("precious row",)]
    assert sorted(p.name for p in elsewhere.iterdir()) == []
    assert (tmp_path / "out" / "summary.json").is_file()


def test_a_report_index_this_machine_did_not_write_spares_no_file(tmp_path: Path) -> None:
    write_files(tmp_path / "repo", {"skills/good/SKILL.md": SKILL + "# Good\n\nSteps.\n"})
    out = tmp_path / "repo" / "plugin-eval-report"
    args = ["report", str(tmp_path / "repo"), "--out", str(out), "-q"]
    assert runner.invoke(app, [*args, "--cache-dir", str(tmp_path / "c1")]).exit_code == 0
    badge = next((out / "badges").iterdir())
    real = badge.read_text()
    index = json.loads((out / ".plugin-eval-index.json").read_text())
    # A same-length forged badge, and an index that vouches for the real one's bytes.
    forged = real.replace(">plugin-eval<", ">plugin-fake<")
    assert len(forged) == len(real) and forged != real
    badge.write_text(forged)
    (out / ".plugin-eval-index.json").write_text(
        json.dumps({"files": index["files"], "seal": "0" * 32})
    )
    assert runner.invoke(app, [*args, "--cache-dir", str(tmp_path / "c2")]).exit_code == 0
    assert badge.read_text() == real


def test_an_unchanged_report_file_is_not_written_again(tmp_path: Path) -> None:
    write_files(tmp_path / "repo", {"skills/good/SKILL.md": SKILL + "# Good\n\nSteps.\n"})
    out = tmp_path / "out"
    args = ["report", str(tmp_path / "repo"), "--out", str(out), "-q"]
    args += ["--cache-dir", str(tmp_path / "c")]
    assert runner.invoke(app, args).exit_code == 0
    item = out / "skills" / "skills--good.json"
    before = os.stat(item).st_mtime_ns
    os.utime(item, ns=(before, before))
    assert runner.invoke(app, args).exit_code == 0
    assert os.stat(item).st_mtime_ns == before


def test_a_configuration_inside_the_skill_is_never_read_and_a_note_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(
        tmp_path,
        {
            "skills/evil/SKILL.md": frontmatter("x", name="evil") + "See [a](missing.md)\n",
            "skills/evil/.plugin-eval.toml": 'ignore = ["PE"]\nfail-on = "none"\n',
        },
    )
    monkeypatch.chdir(tmp_path)
    named = runner.invoke(app, ["score", "skills/evil", "-o", "json"])
    above = runner.invoke(app, ["score", "skills", "-o", "json"])
    assert named.exit_code == above.exit_code == 1
    report = json.loads(named.stdout)
    assert sorted(f["code"] for f in report["findings"]) == ["PE101", "PE201"]
    assert report["composite"] == json.loads(above.stdout)["reports"][0]["composite"]
    note = "skills/evil/.plugin-eval.toml: configuration inside a folder that is scored is never"
    assert note in named.stderr and note in above.stderr


def _git(cwd: Path, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _commit(repo: Path, *skill_files: str) -> None:
    """A first commit of one small skill at each of ``skill_files``."""
    write_files(repo, {rel: SKILL + "# S\n\nSteps.\n" for rel in skill_files})
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "1")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "a@b")
    _git(tmp_path, "config", "user.name", "a")
    return tmp_path


def test_compare_against_reads_a_folder_named_like_pathspec_magic_literally(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _commit(repo, *(f"{name}/SKILL.md" for name in ("skx", ":skx", ":!x")))
    monkeypatch.chdir(repo)
    for name in (":skx", ":!x"):
        result = runner.invoke(app, ["compare", name, "--against", "HEAD"])
        assert result.exit_code == 0, result.output
        assert "only in A: 0 finding(s)" in result.stdout


def test_compare_against_a_tree_with_a_file_and_folder_of_one_name_is_one_error_line(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _commit(repo, "sk/SKILL.md")
    blob = _git(repo, "hash-object", "-w", "sk/SKILL.md")
    inner = _git(repo, "mktree", stdin=f"100644 blob {blob}\tSKILL.md\n")
    both = _git(
        repo,
        "mktree",
        stdin=f"100644 blob {blob}\tSKILL.md\n100644 blob {blob}\tref\n040000 tree {inner}\tref\n",
    )
    root = _git(repo, "mktree", stdin=f"040000 tree {both}\tsk\n")
    commit = _git(repo, "commit-tree", root, "-p", "HEAD", "-m", "crafted")
    monkeypatch.chdir(repo)
    result = runner.invoke(app, ["compare", "sk", "--against", commit])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"error: --against {commit}: sk at {commit} cannot be copied: 'ref" in result.stderr


def test_a_report_index_whose_seal_is_not_ascii_is_not_trusted_and_no_crash(
    tmp_path: Path,
) -> None:
    write_files(tmp_path / "repo", {"skills/good/SKILL.md": SKILL + "# Good\n\nSteps.\n"})
    out = tmp_path / "out"
    out.mkdir()
    (out / ".plugin-eval-index.json").write_text(json.dumps({"files": {}, "seal": "é"}))
    args = ["report", str(tmp_path / "repo"), "--out", str(out), "-q"]
    result = runner.invoke(app, [*args, "--cache-dir", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    assert (out / "skills" / "skills--good.json").is_file()


def test_compare_against_works_at_the_top_of_the_work_tree(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _commit(repo, "SKILL.md")
    monkeypatch.chdir(repo)
    for path in (".", "SKILL.md"):
        result = runner.invoke(app, ["compare", path, "--against", "HEAD"])
        assert result.exit_code == 0, result.output
        assert "only in B: 0 finding(s)" in result.stdout


def test_a_configuration_in_a_plugins_skills_folder_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(
        tmp_path,
        {
            "plug/.claude-plugin/plugin.json": '{"name": "plug", "version": "1.0.0"}',
            "plug/skills/csv/SKILL.md": frontmatter("x", name="csv") + "Steps.\n",
            "plug/skills/.plugin-eval.toml": 'ignore = ["PE101"]\n',
        },
    )
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["score", "plug/skills/csv", "-o", "json"])
    assert "PE101" in [f["code"] for f in json.loads(result.stdout)["findings"]]
    assert result.stderr.startswith(
        "note: plug/skills/.plugin-eval.toml: configuration inside a folder that is scored"
    )
