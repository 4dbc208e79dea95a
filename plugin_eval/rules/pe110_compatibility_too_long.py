"""PE110: `compatibility` must be 1–500 characters."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import COMPATIBILITY_CHARS
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting, field_location


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    value = doc.frontmatter.get("compatibility")
    if not isinstance(value, str):
        return
    length = len(value.strip())
    if length == 0 or length > COMPATIBILITY_CHARS:
        line, column = field_location(doc, "compatibility")
        what = "empty" if length == 0 else f"{length} characters (max {COMPATIBILITY_CHARS})"
        yield RULE.finding(f"compatibility is {what}", line, column)


RULE = Rule(
    code="PE110",
    flag="COMPATIBILITY_LENGTH",
    name="compatibility-length",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="`compatibility`, when present, is 1 to 500 characters.",
    why="The specification caps it at 500 characters and the reference validator rejects "
    "longer or empty values.",
    fix="State the environment needs in one or two sentences (e.g. 'Needs Python 3.11 and git').",
    bad=Example(
        {"SKILL.md": GOOD_SKILL.replace("---\n\n", 'compatibility: "' + "x" * 501 + '"\n---\n\n')},
        expect=(Expect("PE110", "SKILL.md", 4, 1),),
    ),
    good=Example(
        {"SKILL.md": GOOD_SKILL.replace("---\n\n", "compatibility: Needs Python 3.11.\n---\n\n")}
    ),
    source="Agent Skills specification; skills-ref validator",
    limits="Length only: whether the text states real environment needs is not judged.",
    settings=(
        Setting("COMPATIBILITY_CHARS", "the longest `compatibility` allowed, in characters"),
    ),
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
