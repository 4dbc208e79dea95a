"""PE202 DEAD_CROSS_REF: a link out of the skill folder points at nothing."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts, RefStatus
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import Example, Expect, Rule

BODY = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# Example skill\n\n"
    "See also [the JSON skill](../json-export/SKILL.md).\n"
)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for ref in facts.references:
        if ref.status is RefStatus.OUTSIDE_MISSING:
            yield RULE.finding(
                f"link '{ref.target}' leaves the skill folder and its target does not exist",
                ref.line,
                ref.column,
            )


RULE = Rule(
    code="PE202",
    flag="DEAD_CROSS_REF",
    name="dead-cross-ref",
    severity=Severity.ERROR,
    anti_pattern=True,
    summary="A relative link that leaves the skill folder (a sibling skill, a plugin file) "
    "points at something that exists. Such targets are only checked for existence, never "
    "opened; links in code and URLs are ignored.",
    why="A dead cross-reference sends the model looking for a skill that is not there.",
    fix="Point the link at the sibling skill's real path, or name the skill in plain text.",
    bad=Example({"SKILL.md": BODY}, expect=(Expect("PE202", "SKILL.md", 8, 10),)),
    good=Example(
        {
            "SKILL.md": BODY.replace(
                "[the JSON skill](../json-export/SKILL.md)", "the json-export skill"
            )
        }
    ),
    source="PluginEval anti-patterns",
    limits="Only the existence of the target is checked, never its content: a link to the wrong "
    "sibling skill that exists passes. An absolute path, or one past the collection around "
    "the skill (see PE203), is never looked up; PE203 reports it.",
    check=check,
)
