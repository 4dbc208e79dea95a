"""PE101 EMPTY_DESCRIPTION: the description must say something (20 characters or more)."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import DESCRIPTION_MIN_CHARS
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting, field_location
from plugin_eval.triggering import display_width

# Frontmatter that was written and could not be read as a mapping of fields.
UNPARSED = frozenset(
    (
        Problem.INVALID_YAML,
        Problem.NOT_A_MAPPING,
        Problem.UNCLOSED_FRONTMATTER,
        Problem.COLLAPSED_FRONTMATTER,
    )
)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    if not doc.text or doc.text.isspace() or any(p.kind.name == "NOT_TEXT" for p in doc.problems):
        return
    line, column = field_location(doc, "description")
    value = doc.frontmatter.get("description")
    if not doc.frontmatter_ok:
        # Where YAML was there and did not parse, writing a description is not the fix.
        unparsed = any(p.kind in UNPARSED for p in doc.problems)
        yield RULE.finding(
            "no description could be read: the frontmatter is missing or invalid (see the "
            "frontmatter error), so harnesses skip this skill",
            line,
            column,
            "Fix the frontmatter error reported for this file first: the description is read "
            "once the frontmatter parses."
            if unparsed
            else None,
        )
    elif value is None:
        what = "is empty" if "description" in doc.fields else "is missing"
        yield RULE.finding(f"'description' {what}", line, column)
    elif not isinstance(value, str):
        return  # PE109 reports the wrong type
    # A width is never below the length: only a short description is measured (char by char).
    elif len(shown := value.strip()) < DESCRIPTION_MIN_CHARS and (
        display_width(shown) < DESCRIPTION_MIN_CHARS
    ):
        yield RULE.finding(
            f"description is {len(shown)} characters ('{shown}'); "
            f"it needs at least {DESCRIPTION_MIN_CHARS} to route on",
            line,
            column,
        )


RULE = Rule(
    code="PE101",
    flag="EMPTY_DESCRIPTION",
    name="empty-description",
    severity=Severity.ERROR,
    anti_pattern=True,
    summary="The frontmatter has a `description` of at least 20 characters (wide characters "
    "count twice).",
    why="The description is the only text a router sees before it picks a skill. Harnesses skip "
    "a skill whose description is missing; a few words give no routing signal.",
    fix="Write one sentence on what the skill does, then 'Use when …' with the situations it is "
    "for.",
    bad=Example(
        {"SKILL.md": "---\nname: example-skill\ndescription: CSV stuff\n---\n\n# Body\n"},
        expect=(Expect("PE101", "SKILL.md", 3, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="PluginEval anti-patterns; Agent Skills specification",
    limits="Length is the only measure: a description long enough but vague ('Helps with CSV "
    "files and things') passes. Wide (CJK) characters count twice, an approximation of how much "
    "they say.",
    settings=(
        Setting(
            "DESCRIPTION_MIN_CHARS",
            "a shorter description (wide characters counting twice) is reported",
        ),
    ),
    links=(sources.SPEC, sources.BEST_PRACTICES),
    check=check,
)
