"""PE212 DEAD_LINK_IN_REFERENCE on small realistic skills: the message names the file, what
the link resolves to and, when the link was written from the skill folder, the path that
works; links to a symlink count as there and are never followed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.findings import Finding
from tests.conftest import write_files

SKILL = (
    "---\nname: query-tuning\ndescription: Tunes Postgres queries. Use when reading EXPLAIN "
    "plans or adding indexes.\n---\n\n# Query tuning\n\nPlans are in "
    "[the guide](references/details.md).\n"
)


def pe212(folder: Path, files: dict[str, str]) -> list[Finding]:
    write_files(folder, {"SKILL.md": SKILL, **files})
    result = score_skill(folder, Config(), "query-tuning")
    return [f for f in result.findings if f.code == "PE212"]


def test_a_link_written_from_the_skill_folder_names_the_path_that_works(tmp_path: Path) -> None:
    details = "# Details\n\nPartial indexes: [advanced](references/advanced.md#partial).\n"
    [finding] = pe212(
        tmp_path / "query-tuning",
        {"references/details.md": details, "references/advanced.md": "# Advanced\n"},
    )
    assert (finding.path, finding.line, finding.column) == (
        "query-tuning/references/details.md",
        3,
        18,
    )
    assert finding.message == (
        "link 'references/advanced.md' in 'references/details.md' resolves to "
        "'references/references/advanced.md', which is not in the skill folder; "
        "'references/advanced.md' is there: the link is written from the skill folder"
    )
    assert finding.fix == "Write it relative to 'references/details.md': 'advanced.md'."


def test_a_link_to_nothing_says_where_it_resolves_from(tmp_path: Path) -> None:
    details = "# Details\n\n![plan](img/plan%20one.png)\n"
    [finding] = pe212(tmp_path / "query-tuning", {"references/details.md": details})
    assert (finding.line, finding.column) == (3, 1)
    assert finding.message.endswith(
        "resolves to 'references/img/plan one.png', which is not in the skill folder"
    )
    assert finding.fix == (
        "Correct the link: it resolves from 'references/', the folder of "
        "'references/details.md' (or add 'references/img/plan one.png')."
    )


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_a_link_to_a_symlink_is_there_and_is_not_followed(tmp_path: Path) -> None:
    folder = tmp_path / "query-tuning"
    details = "# Details\n\nSee [the shared list](shared.md).\n"
    write_files(folder, {"SKILL.md": SKILL, "references/details.md": details})
    (folder / "references" / "shared.md").symlink_to(tmp_path / "outside.md")  # dangling
    result = score_skill(folder, Config(), "query-tuning")
    assert [f for f in result.findings if f.code == "PE212"] == []


def test_one_finding_per_target_and_a_bounded_read(tmp_path: Path) -> None:
    # 5,000 lines of links to 50 missing pages: one finding per page, the first 2,000 lines read.
    lines = "".join(f"- [page {i}](pages/p{i % 50}.md)\n" for i in range(5000))
    found = pe212(tmp_path / "query-tuning", {"references/details.md": "# Pages\n\n" + lines})
    assert len(found) == 50
    assert [f.line for f in found[:2]] == [3, 4]


def test_link_lines_past_the_byte_budget_are_not_parsed(tmp_path: Path) -> None:
    # One line of links to a page that is there, past LINK_BYTES_READ (128 KiB), then one to a
    # page that is not: the dead one is never parsed, so a line of 40,000 links costs no more.
    there = " ".join(["[ok](ok.md)"] * 12_000)  # 143,999 bytes
    files = {"references/details.md": f"# D\n\n{there} [gone](gone.md)\n", "references/ok.md": ""}
    assert pe212(tmp_path / "query-tuning", files) == []
    files["references/details.md"] = f"# D\n\n[gone](gone.md) {there}\n"
    assert [f.line for f in pe212(tmp_path / "query-tuning", files)] == [3]
