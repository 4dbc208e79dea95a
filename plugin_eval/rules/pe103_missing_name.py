"""PE103: the frontmatter must have a `name`."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, field_location


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    if not doc.frontmatter_ok:
        return
    value = doc.frontmatter.get("name")
    if value is None or (isinstance(value, str) and not value.strip()):
        line, column = field_location(doc, "name")
        yield RULE.finding(
            "frontmatter has no 'name'",
            line,
            column,
            fix=f"Add 'name: {doc.folder.name}' (the folder's name).",
        )


RULE = Rule(
    code="PE103",
    flag="NAME_MISSING",
    name="missing-name",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="The frontmatter has a non-empty `name`.",
    why="The specification requires it; harnesses list and invoke the skill by name.",
    fix="Add 'name: <folder-name>'.",
    bad=Example(
        {
            "SKILL.md": "---\ndescription: Formats CSV reports. Use when exporting tables, "
            "cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        },
        expect=(Expect("PE103", "SKILL.md", 1, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Agent Skills specification; skills-ref validator",
    limits="Presence only: the name's format is PE104 and its match with the folder PE105. With no "
    "`name` key there is no line to point at, so the finding points at the opening `---`.",
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
