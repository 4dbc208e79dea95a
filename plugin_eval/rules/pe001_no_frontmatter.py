"""PE001: SKILL.md must open with a `---` frontmatter block."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule

COLLAPSED_FIX = (
    "Put '---' alone on line 1, then one 'key: value' per line, then '---' alone on its line."
)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        if problem.kind is Problem.NO_FRONTMATTER:
            yield RULE.finding(problem.message, problem.line, problem.column)
        elif problem.kind is Problem.COLLAPSED_FRONTMATTER:
            yield RULE.finding(problem.message, problem.line, problem.column, COLLAPSED_FIX)


RULE = Rule(
    code="PE001",
    flag="FRONTMATTER_MISSING",
    name="no-frontmatter",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="SKILL.md starts with a line holding only `---`, followed by YAML fields and a closing "
    "`---`. Also catches frontmatter collapsed onto one line (`--- name: x description: y ---`).",
    why="Without frontmatter a harness finds no name and no description: the skill is skipped "
    "and never offered to the model.",
    fix="Add a frontmatter block: '---', 'name: <folder-name>', 'description: <what and when>', '---'.",
    bad=Example(
        {"SKILL.md": "# Example skill\n\nDoes things.\n"},
        expect=(Expect("PE001", "SKILL.md", 1, 1),),
    ),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Example\n"
        }
    ),
    source="Agent Skills specification; skills-ref validator",
    limits="The block must open on line 1: a blank line or a comment before `---` counts as no "
    "frontmatter, though some loaders accept it. Any first line starting with `---` and more "
    "text is read as collapsed frontmatter. What the fields say is left to PE101 and PE103.",
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
