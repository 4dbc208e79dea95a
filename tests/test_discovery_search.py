"""Skills are found where harnesses load them, from any folder, as `ruff check .` finds files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.discovery import Scope, discover
from plugin_eval.rules.plugin_base import good_plugin
from tests.conftest import write_files

runner = CliRunner()


def skill(name: str) -> str:
    return (
        f"---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, "
        "cleaning column names, or merging CSV files.\n---\n\n# T\n\nSteps.\n"
    )


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "my-repo"
    write_files(
        root,
        {
            ".claude/skills/a/SKILL.md": skill("a"),
            ".codex/skills/b/SKILL.md": skill("b"),
            ".agents/skills/c/SKILL.md": skill("c"),
            "skills/d/SKILL.md": skill("d"),
            "build/skills/e/SKILL.md": skill("e"),
            ".gitignore": "build/\n",
            **{f"plugins/p/{k}": v for k, v in good_plugin().items()},
        },
    )
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "skills")
    return root


EXPECTED = [".agents/skills/c", ".claude/skills/a", ".codex/skills/b", "plugins/p", "skills/d"]


def test_score_with_no_path_and_report_find_the_same_skills(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    scored = runner.invoke(app, ["score", "-o", "json", "--fail-on", "none"])
    assert scored.exit_code == 0, scored.stderr
    assert sorted(r["path"] for r in json.loads(scored.stdout)["reports"]) == EXPECTED
    reported = runner.invoke(app, ["report", ".", "--out", "out"])
    assert reported.exit_code == 0, reported.stderr
    rows = json.loads((repo / "out" / "summary.json").read_text())["rows"]
    assert sorted(r["path"] for r in rows) == EXPECTED
    # The cache ignores itself: only the report folder is new.
    assert _git(repo, "status", "--porcelain") == "?? out/\n"


def test_show_files_says_what_is_scored_and_why_the_rest_is_not(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    result = runner.invoke(app, ["score", "--show-files"])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "score  .agents/skills/c  (skill)",
        "score  .claude/skills/a  (skill)",
        "score  .codex/skills/b  (skill)",
        "score  plugins/p  (plugin)",
        "score  skills/d  (skill)",
        "skip   .git  (excluded)",
        "skip   build  (ignored by .gitignore)",
    ]
    assert not (repo / ".plugin-eval-cache").exists()
    # A report format or file asked with it would go unwritten: a usage error, not silence.
    for extra, said in (
        (["-o", "json"], "--output json"),
        (["--output-file", "json=out.json"], "--output-file"),
    ):
        refused = runner.invoke(app, ["score", "--show-files", *extra])
        assert refused.exit_code == 2
        assert refused.stderr == f"error: --show-files prints a listing as text: leave out {said}\n"
    assert not (repo / "out.json").exists()


def test_gitignore_can_be_switched_off_and_exclude_added(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    everything = runner.invoke(app, ["score", "--no-respect-gitignore", "--show-files"])
    assert "score  build/skills/e  (skill)" in everything.stdout
    fewer = runner.invoke(app, ["score", "--exclude", ".codex/", "--show-files"])
    assert "skip   .codex  (excluded)" in fewer.stdout
    assert "score  .codex/skills/b  (skill)" not in fewer.stdout
    (repo / ".plugin-eval.toml").write_text('extend-exclude = ["skills/"]\n')
    configured = runner.invoke(app, ["score", "--show-files"])
    assert "skip   skills  (excluded)" in configured.stdout


def test_nested_gitignore_files_and_negation_follow_git(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            ".gitignore": "drafts/\ngen-*/\n",
            "team/.gitignore": "!gen-keep/\nold/\n",
            "drafts/x/SKILL.md": skill("x"),
            "team/gen-keep/SKILL.md": skill("gen-keep"),
            "team/gen-drop/SKILL.md": skill("gen-drop"),
            "team/old/SKILL.md": skill("old"),
            "team/new/SKILL.md": skill("new"),
        },
    )
    found = discover(tmp_path)
    assert [i.rel for i in found.items] == ["team/gen-keep", "team/new"]
    assert found.skipped == [
        ("drafts", "ignored by .gitignore"),
        ("team/gen-drop", "ignored by .gitignore"),
        ("team/old", "ignored by .gitignore"),
    ]
    everything = discover(tmp_path, Scope(respect_gitignore=False))
    assert len(everything.items) == 5


@pytest.mark.timeout(60)
def test_a_gitignore_pattern_that_would_backtrack_costs_no_more_than_any(tmp_path: Path) -> None:
    """'**********x' once took 37 s per folder name of 40 letters and '************x' did not
    finish: a run of '*' is one '*' to git, and is read so; a pattern whose wildcards would
    still backtrack is left out with a note naming its line. What git matches still matches."""
    long = "a" * 40
    write_files(
        tmp_path,
        {
            ".gitignore": (
                "**********x\n*a*a*a*a*a*a*a*a*x\n*.log\nbuild/\n**/tmp\nlib/**/gen\n"
                "skip***me/\n!keep.log\n"
            ),
            f"{long}/SKILL.md": skill("long"),
            "fox/SKILL.md": skill("fox"),
            "build/b/SKILL.md": skill("b"),
            "deep/tmp/SKILL.md": skill("t"),
            "lib/y/gen/SKILL.md": skill("g"),
            "skipABme/SKILL.md": skill("s"),
            "keep.log/SKILL.md": skill("k"),
            "ok/SKILL.md": skill("ok"),
        },
    )
    found = discover(tmp_path)
    assert [i.rel for i in found.items] == [long, "keep.log", "ok"]
    assert found.skipped == [
        ("build", "ignored by .gitignore"),
        ("deep/tmp", "ignored by .gitignore"),
        ("fox", "ignored by .gitignore"),
        ("lib/y/gen", "ignored by .gitignore"),
        ("skipABme", "ignored by .gitignore"),
    ]
    assert found.notes == [
        ".gitignore:2: pattern '*a*a*a*a*a*a*a*a*x' not applied: too many `*` groups (8 beyond "
        "one a name, at most 1), which could take minutes to match; what it would ignore is "
        "searched"
    ]


def test_virtual_environments_and_report_folders_are_passed_over(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "env/pyvenv.cfg": "home = /usr\n",
            "env/lib/pkg/SKILL.md": skill("pkg"),
            "weekly/.plugin-eval-index.json": "{}",
            "weekly/copy/SKILL.md": skill("copy"),
            "real/SKILL.md": skill("real"),
        },
    )
    found = discover(tmp_path)
    assert [i.rel for i in found.items] == ["real"]
    assert found.skipped == [
        ("env", "a virtual environment"),
        ("weekly", "a plugin-eval report folder"),
    ]


def test_report_files_of_dot_folders_are_not_hidden(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    runner.invoke(app, ["report", str(repo), "--out", str(out), "--no-cache"])
    assert sorted(p.name for p in (out / "skills").iterdir()) == [
        "dot-agents--skills--c.json",
        "dot-claude--skills--a.json",
        "dot-codex--skills--b.json",
        "skills--d.json",
    ]


def test_the_action_with_default_inputs_reports_on_the_repository(
    repo: Path, tmp_path: Path
) -> None:
    """The action's scoring step, run by bash with its default inputs in the repository."""
    import os
    import sys

    import yaml

    from tests.conftest import REPO

    action = yaml.safe_load((REPO / "action.yml").read_text())
    defaults = {name: spec["default"] for name, spec in action["inputs"].items()}
    (step,) = [s for s in action["runs"]["steps"] if s.get("name") == "Score"]
    shim = tmp_path / "bin" / "plugin-eval"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m plugin_eval "$@"\n')
    shim.chmod(0o755)
    summary = tmp_path / "summary.md"
    write_files(repo, {"skills/d/SKILL.md": skill("d").replace("Steps.", "See [x](refs/x.md).")})
    env = {
        **os.environ,
        "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "GITHUB_STEP_SUMMARY": str(summary),
        "PE_PATH": defaults["path"],
        "PE_THRESHOLD": defaults["threshold"],
        "PE_FAIL_ON": defaults["fail-on"],
        "PE_SARIF": defaults["sarif"],
    }
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1  # the dead link is an error
    assert "::error file=skills/d/SKILL.md,line=8" in done.stdout
    text = summary.read_text()
    assert all(f"`{path}`" in text for path in EXPECTED)
    assert text.endswith("## Result: FAIL\n\n- 1 finding(s) at error or worse (--fail-on)\n")


def test_a_skill_in_a_plugin_that_the_plugin_does_not_load_is_scored_on_its_own(
    tmp_path: Path,
) -> None:
    """A plugin loads skills/*: a project skill in its .claude/skills, or one kept in an
    examples folder, is a loose skill of its own, for `score` of the plugin as for `report`."""
    root = tmp_path / "csv-tools"
    write_files(
        root,
        {
            **good_plugin(),
            ".claude/skills/release-notes/SKILL.md": skill("release-notes"),
            "examples/csv-sample/SKILL.md": skill("csv-sample"),
        },
    )
    found = discover(root)
    assert [(i.kind.value, i.rel) for i in found.items] == [
        ("plugin", ""),
        ("skill", ".claude/skills/release-notes"),
        ("skill", "examples/csv-sample"),
    ]
    listed = runner.invoke(app, ["score", str(root), "--show-files"])
    assert listed.stdout.splitlines() == [
        f"score  {root.as_posix()}  (plugin)",
        f"score  {root.as_posix()}/.claude/skills/release-notes  (skill)",
        f"score  {root.as_posix()}/examples/csv-sample  (skill)",
    ]
    out = tmp_path / "out"
    done = runner.invoke(app, ["report", str(root), "--out", str(out), "--no-cache"])
    assert done.exit_code == 0, done.stderr
    rows = json.loads((out / "summary.json").read_text())["rows"]
    assert sorted((r["kind"], r["path"]) for r in rows) == [
        ("plugin", "."),
        ("skill", ".claude/skills/release-notes"),
        ("skill", "examples/csv-sample"),
    ]


def test_a_skill_file_in_other_letter_case_is_named_never_passed_over(tmp_path: Path) -> None:
    """`skill.md` is not loaded by harnesses: in a plugin, an error finding (PE012) with the
    fix; in a folder searched, a note; given as the skill, a usage error that says why."""
    from plugin_eval.config import Config
    from plugin_eval.plugin_score import score_plugin

    root = tmp_path / "csv-tools"
    write_files(root, {**good_plugin(), "skills/csv-lower/skill.md": skill("csv-lower")})
    [finding] = [f for f in score_plugin(root, Config(), "csv-tools").findings if f.code == "PE012"]
    assert (finding.path, finding.fix) == (
        "csv-tools/skills/csv-lower/skill.md",
        "Rename each file SKILL.md, in capitals.",
    )
    loose = tmp_path / "loose"
    write_files(loose, {"csv-lower/skill.md": skill("csv-lower")})
    assert discover(loose).notes == [
        "csv-lower/skill.md: not scored; a skill's file is named SKILL.md, in capitals, "
        "or harnesses do not load it"
    ]
    alone = loose / "csv-lower"
    result = runner.invoke(app, ["score", str(alone)])
    assert result.exit_code == 2
    assert f"{alone.as_posix()}/skill.md: not scored; a skill's file is named SKILL.md" in (
        " ".join(result.stderr.split())
    )


def test_a_folder_named_skill_md_is_said_never_passed_over_in_silence(tmp_path: Path) -> None:
    """A folder where the skill's file should be: a note that says so, and with nothing else
    to score, a usage error that carries it."""
    write_files(tmp_path / "csv-dir" / "SKILL.md", {"notes.md": "# Notes\n"})
    write_files(tmp_path, {"csv-ok/SKILL.md": skill("csv-ok")})
    found = discover(tmp_path)
    assert [i.rel for i in found.items] == ["csv-ok"]
    assert found.notes == [
        "csv-dir/SKILL.md: a folder, not a file; not scored (a skill's SKILL.md is a Markdown "
        "file beside its folders)"
    ]
    result = runner.invoke(app, ["score", str(tmp_path / "csv-dir")])
    assert result.exit_code == 2
    assert "csv-dir/SKILL.md: a folder, not a file; not scored" in " ".join(result.stderr.split())


def test_a_plugins_own_parts_are_never_listed_as_passed_over(tmp_path: Path) -> None:
    """A .gitignore that names `skills/` leaves a plugin's skills scored with it, so
    --show-files must not say they are skipped."""
    root = tmp_path / "repo"
    write_files(root / "plugins" / "csv-tools", good_plugin())
    (root / ".gitignore").write_text("skills/\n")
    listed = runner.invoke(app, ["score", str(root), "--show-files"])
    assert listed.stdout.splitlines() == [f"score  {root.as_posix()}/plugins/csv-tools  (plugin)"]
    scored = runner.invoke(app, ["score", str(root), "-o", "json"])
    [report] = json.loads(scored.stdout)["reports"]
    assert [s["name"] for s in report["skills"]] == ["csv-clean"]


def test_a_gitignore_line_git_never_matches_is_left_out_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line ending in a lone backslash matches nothing in git; here too, and the other
    lines of the file still hold. A bad --exclude is a usage error; a huge file is cut."""
    from plugin_eval import budgets

    root = tmp_path / "repo"
    write_files(root, {"keep/SKILL.md": skill("keep"), "drop/SKILL.md": skill("drop")})
    (root / ".gitignore").write_text("oops\\\ndrop/\n")
    assert [i.rel for i in discover(root).items] == ["keep"]
    bad = runner.invoke(app, ["score", str(root), "--exclude", "\\"])
    assert bad.exit_code == 2
    assert "--exclude: '\\' is not a gitignore-style pattern" in bad.stderr
    monkeypatch.setattr(budgets, "GITIGNORE_BYTES", 4)
    found = discover(root)
    assert found.notes == [".gitignore: larger than 4 bytes; the rest is not read"]
    assert [i.rel for i in found.items] == ["drop", "keep"]


def test_compare_against_refuses_a_folder_too_large_before_reading_a_blob(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blob sizes come from `git ls-tree -l`: a folder over the cap is refused before any
    blob is read into memory."""
    from plugin_eval import compare

    repo = tmp_path / "repo"
    write_files(repo, {"s/SKILL.md": skill("s"), "s/data.bin": "x" * 5000})
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "x")
    monkeypatch.setattr(compare, "MAX_GIT_BYTES", 4096)
    read: list[tuple[str, ...]] = []
    real = compare._git

    def spy(cwd: Path, *args: str) -> bytes:
        read.append(args)
        return real(cwd, *args)

    monkeypatch.setattr(compare, "_git", spy)
    with pytest.raises(compare.GitError, match="is larger than 0 MiB at HEAD"):
        compare.checkout_copy(repo / "s", "HEAD", tmp_path / "copy")
    assert not [args for args in read if args[0] in ("cat-file", "show")]


def test_a_guard_on_a_change_that_adds_a_skill_passes(tmp_path: Path) -> None:
    """`compare PATH --against REV --max-drop 0` in CI: a skill new since REV has dropped
    nothing (exit 0, with a note); without --max-drop it is still a usage error."""
    repo = tmp_path / "repo"
    write_files(repo, {"old/SKILL.md": skill("old")})
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "x")
    write_files(repo, {"new/SKILL.md": skill("new")})
    guarded = runner.invoke(
        app, ["compare", str(repo / "new"), "--against", "HEAD", "--max-drop", "0"]
    )
    assert guarded.exit_code == 0
    assert "new does not exist at HEAD: new, so nothing can have dropped" in " ".join(
        guarded.stderr.split()
    )
    plain = runner.invoke(app, ["compare", str(repo / "new"), "--against", "HEAD"])
    assert plain.exit_code == 2


def test_a_gitignore_above_the_searched_folder_applies_as_git_applies_it(tmp_path: Path) -> None:
    """`score skills/` leaves out what the repository's .gitignore leaves out, as `score .`
    does; a skill named on the command line is scored whatever ignores it."""
    top = tmp_path / "work"
    write_files(
        top,
        {
            ".gitignore": "skills/vendored/\n*.draft/\n",
            "skills/.gitignore": "!keep.draft/\n",
            "skills/keep/SKILL.md": skill("keep"),
            "skills/vendored/SKILL.md": skill("vendored"),
            "skills/old.draft/SKILL.md": skill("old-draft"),
            "skills/keep.draft/SKILL.md": skill("keep-draft"),
        },
    )
    (top / ".git").mkdir()  # the top of the work tree: nothing above it is read
    found = discover(top / "skills")
    assert sorted(item.rel for item in found.items) == ["keep", "keep.draft"]
    assert ("vendored", "ignored by .gitignore") in found.skipped
    assert [i.rel for i in discover(top / "skills" / "vendored").items] == [""]
    # Outside a git work tree git reads no .gitignore above the folder, and neither does this.
    (top / ".git").rmdir()
    assert len(discover(top / "skills").items) == 4
