"""A file name that is not valid UTF-8 (its bytes kept as surrogate escapes) is handled as
any other name: no rule crashes on it, and no digest of names or text fails."""

from __future__ import annotations

import os
from pathlib import Path

from plugin_eval.cache import code_digest
from plugin_eval.montecarlo.backends.base import Call
from plugin_eval.montecarlo.cache import cache_key
from tests.conftest import MakeSkill, score

SKILL = (
    "---\nname: r1\ndescription: Formats SQL queries. Use when tidying SQL files or aligning "
    "joins.\n---\n\n# r1\n\nSee [a](a.md).\n"
)


def test_a_markdown_file_named_in_bytes_that_are_not_utf8_is_scored(
    make_skill: MakeSkill,
) -> None:
    folder = make_skill(SKILL, "r1", {"a.md": "# A\n\nThe columns are in [c](c.md).\n"})
    (folder / "c.md").write_text("# C\n", encoding="utf-8")
    with open(os.fsencode(folder) + b"/b\xff.md", "wb") as fh:
        fh.write(b"# B\n")
    found = [(f.code, f.path, f.line, f.column, f.message) for f in score(folder).findings]
    assert [f for f in found if f[0] == "PE000"] == []
    assert found == [
        (
            "PE207",
            "r1/SKILL.md",
            8,
            5,
            "'a.md' links 1 file(s) SKILL.md does not (c.md): the model reaches them two steps "
            "from SKILL.md and may read only part of them",
        )
    ]


def test_the_code_digest_takes_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    before = code_digest(tmp_path)
    with open(os.fsencode(tmp_path) + b"/b\xff.py", "wb") as fh:
        fh.write(b"y = 2\n")
    assert code_digest(tmp_path) != before


def test_a_model_call_naming_a_folder_that_is_not_utf8_has_a_cache_key() -> None:
    # A skill with no name is named after its folder, which may hold surrogate escapes.
    escaped = cache_key("offline", "router", None, Call("route", "Pick b\udcff."))
    plain = cache_key("offline", "router", None, Call("route", "Pick b."))
    assert len(escaped) == 64 and escaped != plain
