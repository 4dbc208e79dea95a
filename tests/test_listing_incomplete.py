"""A folder too large (or partly unreadable) to list in full: links are checked on disk, never
reported missing because the listing stopped, and the cut is a finding."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from plugin_eval import budgets
from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.results import SkillResult

SKILL = (
    "---\nname: big-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# Big\n\n"
    "See [the last](references/zz-last.md) and [the gone](references/gone.md).\n"
)


def _codes(result: SkillResult) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in result.findings]


@pytest.fixture
def big(tmp_path: Path) -> Path:
    folder = tmp_path / "big-skill"
    refs = folder / "references"
    refs.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL)
    for i in range(budgets.LISTED_FILES + 1):
        (refs / f"a{i:05d}.md").write_text("x")
    (refs / "zz-last.md").write_text("the file the link names, past the listing cap")
    return folder


def test_a_link_past_the_listing_cap_is_not_called_missing(big: Path) -> None:
    result = score_skill(big, Config(select=["PE201", "PE011"]), "s")
    assert result.findings[0].code == "PE011"
    assert "more than 5,000 files" in result.findings[0].message
    orphans = [f for f in result.findings if f.code == "PE201"]
    assert [(f.line, "gone.md" in f.message) for f in orphans] == [(8, True)]


def test_a_complete_listing_gives_no_pe011(tmp_path: Path) -> None:
    folder = tmp_path / "big-skill"
    (folder / "references").mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL)
    (folder / "references" / "zz-last.md").write_text("x")
    assert _codes(score_skill(folder, Config(select=["PE201", "PE011"]), "s")) == [("PE201", 8)]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_subfolder_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "big-skill"
    locked = folder / "references" / "locked"
    locked.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL)
    locked.chmod(0)
    try:
        result = score_skill(folder, Config(select=["PE011"]), "s")
    finally:
        locked.chmod(0o755)
    assert "could not be read (references/locked)" in result.findings[0].message


def test_a_manifest_path_past_the_listing_cap_is_looked_up_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin of more files than the cap still has its manifest's paths: PE505 reports
    only the one that is not there."""
    from plugin_eval.plugin_score import score_plugin
    from plugin_eval.rules.plugin_base import good_plugin
    from tests.conftest import write_files

    monkeypatch.setattr(budgets, "LISTED_FILES", 5)
    manifest = '{"name": "csv-tools", "version": "1.0.0", "description": "CSV helpers.",\n'
    manifest += ' "hooks": "./zz/hooks.json", "commands": ["./zz/gone.md"]}\n'
    files = {**good_plugin(), ".claude-plugin/plugin.json": manifest, "zz/hooks.json": "{}"}
    files |= {f"data/f{i}.csv": "a\n" for i in range(20)}
    write_files(tmp_path / "csv-tools", files)
    found = [
        f.message
        for f in score_plugin(tmp_path / "csv-tools", Config(), "x").findings
        if f.code == "PE505"
    ]
    assert found == ["'commands' path './zz/gone.md' does not exist"]
