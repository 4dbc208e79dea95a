"""PE113: the description is written in the third person."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, field_location

FIRST_PERSON = re.compile(r"^\s*(?:I|I'm|I am|I can|I will|We|We can|My)\b|\bI (?:can|will|help)\b")
SECOND_PERSON_LEAD = re.compile(r"^\s*(?:You can|You should|You will|Your)\b")


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    value = doc.description
    if not value:
        return
    match = FIRST_PERSON.search(value) or SECOND_PERSON_LEAD.search(value)
    if match:
        line, column = field_location(doc, "description")
        yield RULE.finding(
            f"description speaks in the first or second person ('{match.group(0).strip()}')",
            line,
            column,
        )


RULE = Rule(
    code="PE113",
    flag="DESCRIPTION_NOT_THIRD_PERSON",
    name="description-person",
    severity=Severity.INFO,
    subscore="frontmatter_quality",
    summary="The description says what the skill does in the third person ('Formats CSV "
    "reports'), not 'I can …' or 'You can …'.",
    why="The description is injected into the system prompt; first- and second-person text "
    "reads as if the model or the user were speaking and weakens discovery.",
    fix="Start with a verb in the third person: 'Formats …', 'Reviews …'.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL.replace("description: Formats", "description: I can help format")},
        expect=(Expect("PE113", "SKILL.md", 3, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Anthropic skill authoring guidance",
    limits="It looks for English first-person openings ('I', 'We', 'My', and 'I can/will/help' "
    "anywhere) and second-person openings ('You can', 'You should', 'You will', 'Your') at the "
    "start only. A description starting 'You' with another verb, or written in another language, "
    "passes.",
    links=(sources.BEST_PRACTICES,),
    check=check,
)
