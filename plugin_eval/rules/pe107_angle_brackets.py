"""PE107: `description` must not contain `<` or `>`."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, value_location
from plugin_eval.textsearch import one_line


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    value = doc.description
    if value is None or ("<" not in value and ">" not in value):
        return
    at = min(i for i in (value.find("<"), value.find(">")) if i >= 0)
    shown = one_line(value[at : at + 24], 24)
    # The bracket and what follows it on the line: a word of its own to find in the file.
    words = value[at:].split()[0]
    line, column = value_location(doc, "description", words, value[:at])
    yield RULE.finding(
        f"description contains '{value[at]}' ('{shown}'): Anthropic's validator rejects '<' and "
        "'>' anywhere in it, and a tag changes how the prompt it is pasted into reads",
        line,
        column,
    )


RULE = Rule(
    code="PE107",
    flag="DESCRIPTION_ANGLE_BRACKETS",
    name="description-angle-brackets",
    severity=Severity.WARNING,
    subscore="harness_portability",
    summary="The description has no `<` or `>` characters.",
    why="Anthropic's skill validator rejects them and the authoring guidance forbids XML tags: "
    "the description is pasted into a prompt where tags change its meaning.",
    fix="Write the words out ('less than', 'returns a list') or remove the tag.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats <csv> reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        },
        expect=(Expect("PE107", "SKILL.md", 3, 22),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="anthropics/skills quick_validate.py; Anthropic authoring guidance",
    limits="Any `<` or `>` is reported, including a harmless comparison such as 'files > 10 MB'; "
    "angle brackets in the body are not checked.",
    links=(sources.QUICK_VALIDATE, sources.BEST_PRACTICES),
    check=check,
)
