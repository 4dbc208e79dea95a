"""PE106: `description` must be at most 1,024 characters."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import DESCRIPTION_CHARS
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting, field_location


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    value = doc.description
    if value is None:
        return
    # Codex counts Unicode characters after collapsing white space.
    length = len(" ".join(value.split()))
    if length > DESCRIPTION_CHARS:
        line, column = field_location(doc, "description")
        yield RULE.finding(
            f"description is {length} characters (max {DESCRIPTION_CHARS}); the validator rejects "
            "it and Codex skips the skill",
            line,
            column,
        )


RULE = Rule(
    code="PE106",
    flag="DESCRIPTION_TOO_LONG",
    name="description-too-long",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="`description` has at most 1,024 characters, counted as Unicode characters after "
    "collapsing white space (as Codex counts).",
    why="The specification caps it at 1,024; Codex skips a longer one with 'exceeds maximum "
    "length', and long descriptions crowd other skills out of the listing.",
    fix="Cut the description to what and when; move detail into the body.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables."
            + " Also handles CSV files in many more situations." * 25
            + "\n---\n\n# Body\n"
        },
        expect=(Expect("PE106", "SKILL.md", 3, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Agent Skills specification; OpenAI Codex skill loader",
    limits="Characters are counted as Codex counts them (white space collapsed), which can differ "
    "by a few from other harnesses' counts. The cap on description plus `when_to_use` together is "
    "PE111's.",
    settings=(Setting("DESCRIPTION_CHARS", "the longest description allowed, in characters"),),
    links=(sources.SPEC, sources.CODEX_SKILLS),
    check=check,
)
