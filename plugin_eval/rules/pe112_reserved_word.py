"""PE112: `name` must not use the reserved words 'anthropic' or 'claude'."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, field_location, folder_name
from plugin_eval.rules.pe104_invalid_name import RESERVED, suggested


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    name = doc.frontmatter.get("name")
    if isinstance(name, str) and (match := RESERVED.search(name)):
        line, column = field_location(doc, "name")
        folder = folder_name(doc)
        also = ", and rename the folder to match" if RESERVED.search(folder) else ""
        yield RULE.finding(
            f"name '{name}' contains the reserved word '{match.group(0).lower()}'",
            line,
            column,
            fix=f"Name the skill after what it does, e.g. 'name: {suggested(name)}'{also}.",
        )


RULE = Rule(
    code="PE112",
    flag="RESERVED_WORD",
    name="reserved-word",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="The skill name contains neither 'anthropic' nor 'claude'.",
    why="Anthropic reserves these words in skill names; uploads with them are refused.",
    fix="Name the skill after what it does (e.g. 'code-review', not 'claude-code-review').",
    bad=Example(
        {"SKILL.md": GOOD_SKILL.replace("name: example-skill", "name: claude-helper")},
        folder="claude-helper",
        expect=(Expect("PE112", "SKILL.md", 2, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Anthropic skill authoring guidance",
    limits="The two words are searched anywhere in the name, case-insensitively, so a name such as "
    "'claudette-notes' is reported too; the description is not checked.",
    links=(sources.BEST_PRACTICES,),
    check=check,
)
