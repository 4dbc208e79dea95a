"""PE111: description + when_to_use must fit Claude Code's 1,536-character listing."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import LISTING_CHARS
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting, field_location


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    description = doc.description or ""
    when = facts.when_to_use or ""
    total = len(description) + len(when)
    if total > LISTING_CHARS and when:
        line, column = field_location(doc, "when_to_use")
        yield RULE.finding(
            f"description + when_to_use is {total} characters; Claude Code's listing cuts "
            f"them at {LISTING_CHARS}, so the end of when_to_use is never seen",
            line,
            column,
        )


RULE = Rule(
    code="PE111",
    flag="LISTING_TRUNCATED",
    name="listing-cap",
    severity=Severity.WARNING,
    subscore="harness_portability",
    summary="`description` and `when_to_use` together stay within the 1,536 characters Claude "
    "Code shows in its skill listing. (A description alone over 1,024 characters is PE106.)",
    why="Claude Code truncates the pair at 1,536 characters: triggers written after the cut "
    "never reach the router.",
    fix="Shorten when_to_use to the distinct situations; put the most important ones first.",
    bad=Example(
        {
            "SKILL.md": GOOD_SKILL.replace(
                "---\n\n",
                "when_to_use: " + "When exporting quarterly CSV tables. " * 45 + "\n---\n\n",
            )
        },
        expect=(Expect("PE111", "SKILL.md", 4, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Claude Code skill docs",
    limits="It reports only when `when_to_use` is present (a long description alone is PE106) and "
    "counts the characters of the two values as YAML loads them, before any white-space "
    "collapsing a harness may apply.",
    settings=(
        Setting(
            "LISTING_CHARS", "the characters of description plus `when_to_use` Claude Code lists"
        ),
    ),
    links=(sources.CLAUDE_SKILLS,),
    check=check,
)
