"""PE005: SKILL.md must be UTF-8 text."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule, Setting

_FIXES = {
    Problem.NOT_TEXT: "Replace SKILL.md with a Markdown text file.",
    Problem.NOT_UTF8: "Re-save the file as UTF-8 (for example: iconv -f latin1 -t utf-8).",
    Problem.TOO_LARGE: "Move detail into references/ files; SKILL.md should stay under 500 lines.",
}


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        fix = _FIXES.get(problem.kind)
        if fix is not None:
            yield RULE.finding(problem.message, problem.line, problem.column, problem.fix or fix)


RULE = Rule(
    code="PE005",
    flag="UNREADABLE_FILE",
    name="unreadable-file",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="SKILL.md is UTF-8 text (a BOM and CRLF line ends are fine), not binary and not "
    "absurdly large: past 4 MiB it is not read, past MARKDOWN_LINES body lines it is not "
    "parsed as Markdown, nor from the table row that passes TABLE_CELLS cells or the line "
    "nested deeper than MARKDOWN_NESTING levels, and a "
    "paragraph past INLINE_MARKS link, code and HTML marks is read as plain text; each cut is "
    "reported where it falls.",
    why="Harnesses read SKILL.md as UTF-8; other encodings garble the description or fail to "
    "load, and a binary file is no skill at all.",
    fix="Re-save SKILL.md as UTF-8 text.",
    bad=Example(
        {"SKILL.md": b"---\nname: example-skill\ndescription: Caf\xe9 menus.\n---\n"},
        expect=(Expect("PE005", "SKILL.md", 3, 17),),
    ),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Café menus. Use when pricing "
            "dishes, translating menu items, or planning seasonal menus.\n---\n\n# Body\n"
        }
    ),
    source="Agent Skills specification",
    settings=(
        Setting("MARKDOWN_LINES", "body lines parsed as Markdown"),
        Setting("INLINE_MARKS", "marks opening inline syntax read in one paragraph"),
        Setting("TABLE_CELLS", "table cells of the body parsed as Markdown"),
        Setting("MARKDOWN_NESTING", "levels of blocks the body's Markdown is read nested"),
    ),
    limits="Only SKILL.md is checked; files under references/, scripts/ or assets/ are not tested "
    "for encoding. The first byte that is not UTF-8 is reported, not every one.",
    links=(sources.SPEC,),
    check=check,
)
