"""PE114: the description does not claim precedence over every other skill."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, value_location


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    claim = facts.trigger.precedence
    if claim is not None:
        written = " ".join((doc.description or "").split())
        line, column = value_location(
            doc, "description" if claim in written else "when_to_use", claim
        )
        yield RULE.finding(
            f"description claims precedence over every other skill ('{claim}'); a router "
            "would pick it for its neighbours' requests too",
            line,
            column,
        )


RULE = Rule(
    code="PE114",
    flag="CLAIMS_EVERY_REQUEST",
    name="precedence-claim",
    severity=Severity.WARNING,
    anti_pattern=True,
    summary="The description says when the skill fits, not that it comes first: no 'highest "
    "priority', 'default tool', 'primary tool for all …', 'always use it first', 'use this "
    "before any …' or 'instead of any other skill'. Such a description also never scores above "
    "the weak triggering band (0.39).",
    why="A claim to precede every other skill takes routing from every neighbour: the skill "
    "fires on requests another skill serves better, and the description separates nothing.",
    fix="Drop the claim; name the requests the skill serves and, where neighbours overlap, "
    "when to use them instead.",
    bad=Example(
        {
            "SKILL.md": GOOD_SKILL.replace(
                "description: Formats CSV reports.",
                "description: Formats CSV reports (HIGHEST PRIORITY, always use it first).",
            )
        },
        expect=(Expect("PE114", "SKILL.md", 3, 35),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="plugin-eval; seed 002 triggering rubric (precision failure)",
    limits="English claims only, in the description and when_to_use; a claim scoped to a "
    "domain ('the default tool for PDF forms') is reported too, and a claim worded otherwise "
    "('pick me over the rest') is not.",
    links=(sources.BEST_PRACTICES,),
    check=check,
)
