"""Parsing: frontmatter with key lines, the token stream, the listing, and bad input."""

from __future__ import annotations

from pathlib import Path

from plugin_eval.document import Problem, parse_skill
from tests.conftest import MakeSkill

SKILL = """---
name: example-skill
description: Formats CSV reports. Use when exporting tables.
metadata:
  owner: data-team
---

# Example

Intro with [a link](references/guide.md).

```python
# not a heading
x = 1
```

    indented code

## Steps

| a | b |
|---|---|
| 1 | 2 |
"""


def test_frontmatter_values_and_key_lines(make_skill: MakeSkill) -> None:
    doc = parse_skill(make_skill(SKILL))
    assert doc.frontmatter["name"] == "example-skill"
    assert doc.frontmatter["metadata"] == {"owner": "data-team"}
    assert doc.fields["name"].line == 2
    assert doc.fields["description"].line == 3
    assert doc.fields["metadata"].line == 4
    assert doc.body_start == 7
    assert doc.frontmatter_ok


def test_structure_comes_from_the_parse_with_file_lines(make_skill: MakeSkill) -> None:
    doc = parse_skill(make_skill(SKILL))
    assert [(h.level, h.text, h.line) for h in doc.headings] == [
        (1, "Example", 8),
        (2, "Steps", 19),
    ]
    fenced = [b for b in doc.code_blocks if b.fenced]
    assert [(b.language, b.line, b.end_line, b.closed) for b in fenced] == [
        ("python", 12, 15, True)
    ]
    assert len(doc.code_blocks) == 2  # one fence, one indented block: each counted once
    assert [(link.target, link.line, link.column) for link in doc.links] == [
        ("references/guide.md", 10, 12)
    ]
    assert doc.tables == 1


def test_bom_and_crlf_are_accepted(make_skill: MakeSkill) -> None:
    raw = b"\xef\xbb\xbf" + SKILL.replace("\n", "\r\n").encode()
    doc = parse_skill(make_skill(raw))
    assert doc.problems == ()
    assert doc.frontmatter["name"] == "example-skill"
    assert doc.headings[0].line == 8


def _kinds(folder: Path) -> list[Problem]:
    return [p.kind for p in parse_skill(folder).problems]


def test_missing_frontmatter(make_skill: MakeSkill) -> None:
    assert _kinds(make_skill("# Title\n\nText.\n")) == [Problem.NO_FRONTMATTER]


def test_collapsed_frontmatter_is_named_as_such(make_skill: MakeSkill) -> None:
    folder = make_skill("--- name: x description: y --- # Title text\n")
    assert _kinds(folder) == [Problem.COLLAPSED_FRONTMATTER]


def test_unclosed_frontmatter(make_skill: MakeSkill) -> None:
    assert _kinds(make_skill("---\nname: x\ndescription: y\n\n# Body\n")) == [
        Problem.UNCLOSED_FRONTMATTER
    ]


def test_invalid_yaml_reports_yamls_line_and_column_as_file_lines(make_skill: MakeSkill) -> None:
    doc = parse_skill(make_skill("---\nname: x\ndescription: a: b: c\n---\n\n# Body\n"))
    (problem,) = doc.problems
    assert problem.kind is Problem.INVALID_YAML
    assert problem.line == 3
    assert problem.column == 15
    assert doc.frontmatter == {}
    assert not doc.frontmatter_ok


def test_frontmatter_that_is_a_list(make_skill: MakeSkill) -> None:
    problem = parse_skill(make_skill("---\n- a\n- b\n---\n\n# Body\n")).problems[0]
    assert problem.kind is Problem.NOT_A_MAPPING
    assert problem.line == 2


def test_binary_file(make_skill: MakeSkill) -> None:
    assert _kinds(make_skill(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")) == [Problem.NOT_TEXT]


def test_a_utf16_or_utf32_file_is_said_to_be_so_and_to_be_saved_as_utf8(
    make_skill: MakeSkill,
) -> None:
    """Its NUL bytes once made it "not a text file", with the fix to replace it."""
    text = "---\nname: x\ndescription: d\n---\n"
    for codec, shown in (("utf-16", "UTF-16"), ("utf-32", "UTF-32"), ("utf-16-be", None)):
        raw = text.encode(codec) if shown else b"\xfe\xff" + text.encode(codec)
        name = shown or "UTF-16"
        (problem,) = parse_skill(make_skill(raw)).problems
        assert (problem.kind, problem.message, problem.fix) == (
            Problem.NOT_TEXT,
            f"SKILL.md is {name} text (it opens with a {name} byte-order mark)",
            f"Save SKILL.md as UTF-8: harnesses read it as UTF-8 and find no frontmatter in {name}.",
        )


def test_non_utf8_file_is_read_with_the_bad_byte_located(make_skill: MakeSkill) -> None:
    doc = parse_skill(make_skill(b"---\nname: x\ndescription: caf\xe9 menus\n---\n"))
    problem = doc.problems[0]
    assert problem.kind is Problem.NOT_UTF8
    assert (problem.line, problem.column) == (3, 17)
    assert doc.frontmatter["name"] == "x"


def test_empty_file(make_skill: MakeSkill) -> None:
    assert _kinds(make_skill("  \n\n")) == [Problem.EMPTY_FILE]


def test_duplicate_key(make_skill: MakeSkill) -> None:
    doc = parse_skill(make_skill("---\nname: x\nname: y\ndescription: d\n---\n"))
    assert [p.kind for p in doc.problems] == [Problem.DUPLICATE_KEY]
    assert doc.problems[0].line == 3
    assert doc.frontmatter["name"] == "y"


def test_unclosed_code_fence_is_detected(make_skill: MakeSkill) -> None:
    doc = parse_skill(
        make_skill("---\nname: x\ndescription: d\n---\n\n```bash\nls\n\n## Not a heading\n")
    )
    assert [(b.closed, b.line) for b in doc.code_blocks] == [(False, 6)]
    assert doc.headings == ()


def test_listing_does_not_follow_symlinks(make_skill: MakeSkill, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret")
    folder = make_skill(SKILL, files={"references/guide.md": "# Guide\n"})
    (folder / "references" / "linked").symlink_to(outside)
    listing = parse_skill(folder).listing
    assert "references/guide.md" in listing.files
    assert not any("secret" in f for f in listing.files)
    assert "references/linked" in listing.symlinks


def test_skill_md_symlinked_out_of_the_folder_is_not_read(
    make_skill: MakeSkill, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("---\nname: leaked-secret\ndescription: do not read me\n---\n")
    folder = make_skill("placeholder")
    (folder / "SKILL.md").unlink()
    (folder / "SKILL.md").symlink_to(secret)
    doc = parse_skill(folder)
    assert [p.kind for p in doc.problems] == [Problem.NOT_TEXT]
    assert "leaked-secret" not in doc.text and doc.frontmatter == {}


def test_a_tab_in_the_frontmatter_is_named_with_its_fix(tmp_path: Path) -> None:
    """YAML says 'found character that cannot start any token'; the finding says it is a tab,
    where, and what to write instead; the missing description then points back to it."""
    from plugin_eval.config import Config
    from plugin_eval.engine import score_skill

    folder = tmp_path / "csv-report"
    folder.mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: csv-report\ndescription: Formats CSV reports. Use when exporting tables.\n"
        "metadata:\n\tauthor: data-team\n---\n\n# CSV report\n\nSteps.\n"
    )
    found = {f.code: f for f in score_skill(folder, Config(), "csv-report").findings}
    yaml_error, missing = found["PE003"], found["PE101"]
    assert (yaml_error.line, yaml_error.column) == (5, 1)
    assert yaml_error.message == (
        "frontmatter is not valid YAML: a tab character (found character that cannot start "
        "any token); YAML indents with spaces only"
    )
    assert (
        yaml_error.fix == "Replace the tab with spaces (two per level), as in the lines around it."
    )
    assert missing.fix.startswith("Fix the frontmatter error reported for this file first")
