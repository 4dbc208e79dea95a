"""The one walk: what a skill contains, what the cache checks, and what a search finds."""

from __future__ import annotations

import ast
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from plugin_eval import budgets, engine, walk
from plugin_eval.analysis import Facts
from plugin_eval.config import Config
from plugin_eval.discovery import discover
from plugin_eval.document import SkillDocument, parse_skill
from plugin_eval.engine import score_skill
from plugin_eval.findings import Finding
from plugin_eval.marketplace import RunStats, run_report
from plugin_eval.rules import SKILL_RULES
from plugin_eval.rules.plugin_base import good_plugin
from tests.conftest import REPO, write_files

SKILL = (
    "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, cleaning "
    "column names, or merging ledger files.\n---\n\n# {name}\n\nTrim cells.\n"
)
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _report(root: Path, tmp_path: Path) -> RunStats:
    _, stats = run_report(root, tmp_path / "out", Config(), 1, tmp_path / "cache", "t")
    return stats


def test_a_skill_lists_hidden_folders_but_never_tool_folders_or_links(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    write_files(
        folder,
        {
            "SKILL.md": SKILL.format(name="s"),
            ".github/notes.md": "n",
            "references/a.md": "a",
            ".git/HEAD": "ref",
            "node_modules/x/index.js": "",
            "env/pyvenv.cfg": "",
            "env/lib/site.py": "",
        },
    )
    (folder / "out.md").symlink_to(tmp_path)
    listing = walk.list_folder(folder)
    assert listing.files == (".github/notes.md", "SKILL.md", "references/a.md")
    assert listing.symlinks == ("out.md",)
    assert listing.folders == (".github", "references")
    assert listing.complete


def test_discovery_and_the_listing_skip_the_same_tool_folders(tmp_path: Path) -> None:
    write_files(tmp_path, {f"{name}/s/SKILL.md": SKILL for name in walk.TOOL_FOLDERS})
    write_files(tmp_path, {"ok/SKILL.md": SKILL.format(name="ok")})
    found = discover(tmp_path)
    assert [i.rel for i in found.items] == ["ok"]
    assert sorted(rel for rel, _ in found.skipped) == sorted(walk.TOOL_FOLDERS)
    assert walk.list_folder(tmp_path).files == ("ok/SKILL.md",)


@posix_only
def test_a_fifo_is_listed_never_opened_and_a_fifo_skill_md_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    os.mkfifo(folder / "SKILL.md")
    os.mkfifo(tmp_path / "pipe.md")
    listing = walk.list_folder(folder)
    assert listing.others == ("SKILL.md",) and listing.files == ()
    doc = parse_skill(folder)
    assert [(p.message, p.fix) for p in doc.problems] == [
        (
            "SKILL.md cannot be read: not a regular file",
            "Make SKILL.md a regular file: a FIFO, socket or device is never opened, and a "
            "harness installs only files.",
        )
    ]
    with pytest.raises(walk.NotRegularFile):
        walk.read_file(tmp_path / "pipe.md", 10)
    # A search finds the folder and reports it: nothing hangs, nothing is dropped.
    assert [i.rel for i in discover(tmp_path).items] == ["s"]
    stats = _report(tmp_path, tmp_path / "run")
    assert stats.items == 1 and stats.errored == 0


def test_read_file_records_what_it_read_while_recording(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"0123456789")
    walk.read_file(tmp_path / "a.md", 4)  # not recorded: no log is active
    with walk.recording() as log:
        assert walk.read_file(tmp_path / "a.md", 4) == b"0123"
    reads = log.relative_to(tmp_path)
    assert [r[:2] for r in reads] == [["a.md", 4]]
    assert walk.unchanged(tmp_path, reads)
    (tmp_path / "a.md").write_bytes(b"0123-changed-after-the-bytes-read")
    assert walk.unchanged(tmp_path, reads)  # only the bytes scoring read count
    (tmp_path / "a.md").write_bytes(b"9123")
    assert not walk.unchanged(tmp_path, reads)


def test_the_cache_checks_an_agent_file_of_a_plugin(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write_files(root / "p", good_plugin())
    agents = sorted((root / "p" / "agents").glob("*.md"))
    assert agents, "the good plugin has an agent"
    assert _report(root, tmp_path).cache_misses == 1
    assert _report(root, tmp_path).cache_hits == 1
    agents[0].write_text(agents[0].read_text().replace("description:", "description: Now "))
    assert _report(root, tmp_path).cache_misses == 1


def test_a_file_a_rule_starts_reading_is_part_of_the_cached_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No list of files to hash: whatever scoring reads through walk.read_file is checked."""
    root = tmp_path / "root"
    write_files(root, {"s/SKILL.md": SKILL.format(name="s"), "s/data/extra.txt": "one"})
    rule = SKILL_RULES[0]

    def reading_check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
        yield from rule.check(doc, facts)
        if walk.read_file(doc.folder / "data" / "extra.txt", 100) != b"one":
            yield rule.finding("the extra file changed", 1, 1)

    reading = tuple(replace(r, check=reading_check) if r is rule else r for r in SKILL_RULES)
    monkeypatch.setattr(engine, "SKILL_RULES", reading)
    assert _report(root, tmp_path).cache_misses == 1
    assert _report(root, tmp_path).cache_hits == 1
    (root / "s" / "data" / "extra.txt").write_text("two")  # same listing, other bytes
    stats = _report(root, tmp_path)
    assert (stats.cache_hits, stats.cache_misses) == (0, 1)
    report = json.loads((tmp_path / "out" / "skills" / "s.json").read_text())
    assert "the extra file changed" in [f["message"] for f in report["findings"]]


def test_a_listing_cut_at_the_cap_is_never_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budgets, "LISTED_FILES", 3)
    root = tmp_path / "root"
    write_files(root, {"s/SKILL.md": SKILL.format(name="s")})
    write_files(root, {f"s/references/r{i}.md": "x" for i in range(4)})
    assert not walk.list_folder(root / "s").complete
    assert _report(root, tmp_path).cache_misses == 1
    assert _report(root, tmp_path).cache_misses == 1  # scored again: files past the cap
    codes = [f.code for f in score_skill(root / "s", Config(), "s").findings]
    assert "PE011" in codes


SCORING = ("document", "plugin", "engine", "plugin_score", "analysis", "triggering")


@pytest.mark.parametrize(
    "module",
    [
        *(REPO / "plugin_eval" / f"{name}.py" for name in SCORING),
        *sorted((REPO / "plugin_eval" / "rules").glob("*.py")),
        *sorted((REPO / "plugin_eval" / "scoring").glob("*.py")),
    ],
    ids=lambda p: p.name,
)
def test_scoring_reads_files_only_through_the_walk(module: Path) -> None:
    """Every read goes through walk.read_file, so the cache sees every file a score used."""
    tree = ast.parse(module.read_text())
    calls = [
        (node.lineno, node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
        in {"open", "read_bytes", "read_text", "scandir", "listdir", "walk", "iterdir", "glob"}
    ]
    assert calls == [], f"{module.name} reads the file system directly: {calls}"


def test_walk_uses_no_recursion_and_survives_deep_trees(tmp_path: Path) -> None:
    here = tmp_path / "s"
    here.mkdir()
    deep = str(here)
    try:
        for _ in range(sys.getrecursionlimit() + 50):
            deep += "/d"
            os.mkdir(deep)
    except OSError:
        pytest.skip("the file system refuses paths this deep")
    try:
        Path(deep, "x.md").write_text("x")
        assert walk.list_folder(here).files[-1].endswith("/x.md")
    finally:  # pytest's own clean-up recurses, so the tree is taken down here, bottom up
        Path(deep, "x.md").unlink(missing_ok=True)
        while deep != str(here):
            os.rmdir(deep)
            deep = deep[: -len("/d")]
