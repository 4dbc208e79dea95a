"""PE102 MISSING_TRIGGER: the description must say when to use the skill."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import DESCRIPTION_MIN_CHARS
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting, field_location
from plugin_eval.rules.pe115_description_cut import looks_cut
from plugin_eval.textsearch import one_line
from plugin_eval.triggering import TRIGGER, display_width, repeats_name


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    description = doc.description
    if facts.exempt or description is None:
        return  # exempt skills do not trigger from text; PE101 covers a missing description
    # display_width is never under len: measured only for text shorter than the minimum.
    stripped = description.strip()
    if len(stripped) < DESCRIPTION_MIN_CHARS and display_width(stripped) < DESCRIPTION_MIN_CHARS:
        return  # PE101 covers a description too short
    if facts.trigger.has_trigger:
        return
    line, column = field_location(doc, "description")
    phrase = TRIGGER.search(stripped)
    if phrase is not None:  # the words are there, with no situation after them
        said = stripped[phrase.start() : phrase.end()].strip()
        # "Use when working with tdd workflows tdd cycle": only the name's words after it.
        only_name = facts.trigger.band == "unusable" and repeats_name(stripped, doc.name)
        yield RULE.finding(
            f"description says '{one_line(said, 40)} …' but "
            + (
                "what follows only repeats the skill's name: it names no situation a router "
                "could match a request against beyond the name"
                if only_name
                else "names no situation a router could match a request against"
            ),
            line,
            column,
            fix=f"After '{one_line(said, 40)}', name three or more concrete situations, "
            "separated by commas.",
        )
        return
    yield RULE.finding(
        "description never says when to use the skill (no 'Use when …', 'Use for …', "
        "'Triggers on …' or when_to_use)",
        line,
        column,
        # Cut at a length limit (PE115), the trigger is most likely what the cut lost.
        fix=f"Restore the description in full (it stops at {len(stripped)} characters, where "
        "tools cut text): what was cut is often the 'Use when …' clause; add one if not."
        if looks_cut(stripped)
        else None,
    )


RULE = Rule(
    code="PE102",
    flag="MISSING_TRIGGER",
    name="missing-trigger",
    severity=Severity.WARNING,
    anti_pattern=True,
    summary="The description (or a `when_to_use` field) states when to use the skill. Accepted: "
    "'Use when/for/to …', 'Use this skill only when …', 'This skill should be used when …', "
    "'Invoke/Activate when …', 'Activates/Invoked when …', 'Triggers on …', 'TRIGGER: …', "
    "'When Claude needs to …', 'Best for …', 'Ideal for …', and the same in other languages "
    "(用于…, 当…时使用, Úsalo cuando …). Skills with `disable-model-invocation: true` or "
    "`paths:` are exempt.",
    why="Routers pick skills by matching the request against the situations a description "
    "names. A description that only names its topic is picked late, or never.",
    fix="Append 'Use when …' followed by three or more concrete situations, separated by commas.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: A toolkit for CSV reports, "
            "column names and merges.\n---\n\n# Body\n"
        },
        expect=(Expect("PE102", "SKILL.md", 3, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="PluginEval anti-patterns; Claude Code skill docs",
    limits="Trigger phrases are matched by pattern, in English and a few other languages: a "
    "description that names its situations without a recognised phrase is reported, and one using "
    "a phrase in another sense passes. Whether the situations named are the right ones is not "
    "judged.",
    settings=(
        Setting("DESCRIPTION_MIN_CHARS", "a description shorter than this is left to PE101"),
    ),
    links=(sources.CLAUDE_SKILLS, sources.BEST_PRACTICES),
    check=check,
)
