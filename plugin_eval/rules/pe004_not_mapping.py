"""PE004: the frontmatter must be a mapping of fields."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        if problem.kind is Problem.NOT_A_MAPPING:
            yield RULE.finding(problem.message, problem.line, problem.column)


RULE = Rule(
    code="PE004",
    flag="FRONTMATTER_NOT_MAPPING",
    name="frontmatter-not-mapping",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="The frontmatter is a YAML mapping (`key: value` lines), not a list or a bare string.",
    why="Fields are looked up by key; a list or a string gives the harness no name and no "
    "description.",
    fix="Write each field as 'key: value' on its own line, with no leading '- '.",
    bad=Example(
        {"SKILL.md": "---\n- name: example-skill\n- description: Formats CSV.\n---\n\n# Body\n"},
        expect=(Expect("PE004", "SKILL.md", 2, 1),),
    ),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        }
    ),
    source="skills-ref validator",
    limits="Only the top-level shape is checked; the types of the values inside the mapping are "
    "PE109's.",
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
