"""A link out of the skill folder is looked up without following a symlink: one on its way,
beside the skill or further down, is reported as such whatever it points at, so a report never
tells which files exist where the symlink leads."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import MakeSkill, score, write_files

HEAD = (
    "---\nname: example-skill\ndescription: Formats SQL queries. Use when tidying SQL files or "
    "aligning joins.\n---\n\n# Example skill\n\n"
)
# PE202 and PE203 as they are reported: (code, file, line, column, message).
Found = tuple[str, str, int | None, int | None, str]


def links_found(folder: Path) -> list[Found]:
    return [
        (f.code, f.path, f.line, f.column, f.message)
        for f in score(folder).findings
        if f.code in ("PE202", "PE203")
    ]


def through(target: str) -> str:
    return f"link '{target}' goes through a symlink; symlinks are not followed"


def test_a_sibling_symlink_is_reported_whether_its_target_exists_or_not(
    tmp_path: Path, make_skill: MakeSkill
) -> None:
    write_files(tmp_path / "elsewhere", {"passwd": "root:x:0:0\n"})
    folder = make_skill(HEAD + "See [a](../etcl/passwd) and [b](../etcl/nonexist).\n")
    os.symlink(tmp_path / "elsewhere", tmp_path / "skills" / "etcl")
    assert links_found(folder) == [
        ("PE203", "example-skill/SKILL.md", 8, 5, through("../etcl/passwd")),
        ("PE203", "example-skill/SKILL.md", 8, 29, through("../etcl/nonexist")),
    ]


def test_a_symlink_further_down_or_at_the_end_of_the_path_is_not_followed_either(
    tmp_path: Path, make_skill: MakeSkill
) -> None:
    write_files(tmp_path / "elsewhere", {"x.md": "# X\n"})
    write_files(tmp_path / "skills" / "shared", {"real.md": "# Real\n"})
    os.symlink(tmp_path / "elsewhere", tmp_path / "skills" / "shared" / "inner")
    os.symlink(tmp_path / "elsewhere" / "x.md", tmp_path / "skills" / "shared" / "x.md")
    folder = make_skill(
        HEAD + "See [a](../shared/inner/x.md), [b](../shared/inner/none.md), [c](../shared/x.md).\n"
    )
    assert links_found(folder) == [
        ("PE203", "example-skill/SKILL.md", 8, 5, through("../shared/inner/x.md")),
        ("PE203", "example-skill/SKILL.md", 8, 32, through("../shared/inner/none.md")),
        ("PE203", "example-skill/SKILL.md", 8, 62, through("../shared/x.md")),
    ]


def test_a_real_folder_beside_the_skill_is_still_looked_up(
    tmp_path: Path, make_skill: MakeSkill
) -> None:
    write_files(tmp_path / "skills" / "shared", {"real.md": "# Real\n"})
    folder = make_skill(HEAD + "See [a](../shared/real.md) and [b](../shared/none.md).\n")
    assert links_found(folder) == [
        (
            "PE203",
            "example-skill/SKILL.md",
            8,
            5,
            "link '../shared/real.md' leaves the skill folder; it breaks when the skill is "
            "installed on its own (not followed)",
        ),
        (
            "PE202",
            "example-skill/SKILL.md",
            8,
            32,
            "link '../shared/none.md' leaves the skill folder and its target does not exist",
        ),
    ]
