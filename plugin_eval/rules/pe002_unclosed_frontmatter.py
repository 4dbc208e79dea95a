"""PE002: the frontmatter block must be closed with `---`."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        if problem.kind is Problem.UNCLOSED_FRONTMATTER:
            yield RULE.finding(problem.message, problem.line, problem.column)


RULE = Rule(
    code="PE002",
    flag="FRONTMATTER_UNCLOSED",
    name="unclosed-frontmatter",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="The `---` that opens the frontmatter on line 1 has a matching `---` line after the "
    "last field.",
    why="An unclosed block swallows the whole file as YAML: the skill fails to load or loads with "
    "no body.",
    fix="Add a line holding only '---' after the last frontmatter field.",
    bad=Example(
        {"SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports.\n\n# Body\n"},
        expect=(Expect("PE002", "SKILL.md", 1, 1),),
    ),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        }
    ),
    source="skills-ref validator",
    limits="The first later line holding only `---` closes the block, so an unclosed block "
    "followed by a Markdown rule (`---`) is read as closed there, and the text in between as "
    "fields.",
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
