"""PE305: the body holds instructions."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    if not doc.frontmatter_ok:
        return
    # A body cut before its first line by a limit (PE005 says where) is not an empty one.
    if not doc.tokens and not any(p.kind is Problem.TOO_LARGE for p in doc.problems):
        yield RULE.finding("SKILL.md has frontmatter but no body", len(doc.lines) or 1, None)


RULE = Rule(
    code="PE305",
    flag="EMPTY_BODY",
    name="empty-body",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="Below the frontmatter there is a Markdown body.",
    why="The body is what the model reads when the skill activates; without it the skill "
    "is only a description.",
    fix="Write the instructions: the steps, an example and the output expected.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL.split("# Example skill")[0]},
        expect=(Expect("PE305", "SKILL.md", 5, None),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="oxlint-plugin-agent-skills (empty body)",
    limits="Any Markdown content counts as a body, so a lone heading passes; whether the body "
    "holds usable instructions is not judged.",
    check=check,
)
