"""PE007: a frontmatter key must appear once."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        if problem.kind is Problem.DUPLICATE_KEY:
            yield RULE.finding(problem.message, problem.line, problem.column)


RULE = Rule(
    code="PE007",
    flag="DUPLICATE_KEY",
    name="duplicate-key",
    severity=Severity.WARNING,
    subscore="frontmatter_quality",
    summary="No frontmatter key is written twice.",
    why="YAML loaders keep only the last value, so the first one (often the description you "
    "meant) is silently dropped; some strict loaders refuse the file.",
    fix="Delete one of the two lines, keeping the value you want.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Old text.\ndescription: Formats "
            "CSV reports. Use when exporting tables, cleaning column names, or merging CSV "
            "files.\n---\n\n# Body\n"
        },
        expect=(Expect("PE007", "SKILL.md", 4, 1),),
    ),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        }
    ),
    limits="Only top-level frontmatter keys are compared; a key written twice inside `metadata:` "
    "or another nested mapping is not reported.",
    links=(sources.YAML,),
    check=check,
)
