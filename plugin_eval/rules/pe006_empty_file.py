"""PE006: SKILL.md must not be empty."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        if problem.kind is Problem.EMPTY_FILE:
            yield RULE.finding(problem.message, problem.line, problem.column)


RULE = Rule(
    code="PE006",
    flag="EMPTY_FILE",
    name="empty-file",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="SKILL.md holds something other than white space.",
    why="An empty SKILL.md is a skill with no name, no description and no instructions.",
    fix="Write the frontmatter (name, description) and the instructions, or delete the folder.",
    bad=Example({"SKILL.md": "\n\n"}, expect=(Expect("PE006", "SKILL.md", 1, 1),)),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        }
    ),
    source="Agent Skills specification",
    limits="Only a file of white space counts as empty; a file holding a lone heading or only the "
    "`---` lines is left to the frontmatter and body rules.",
    links=(sources.SPEC,),
    check=check,
)
