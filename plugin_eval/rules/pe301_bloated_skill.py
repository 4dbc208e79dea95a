"""PE301 BLOATED_SKILL: over 800 lines with no references/ to move detail into."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import BLOATED_LINES
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    if len(doc.lines) > BLOATED_LINES and not doc.listing.has_dir("references"):
        yield RULE.finding(
            f"SKILL.md is {len(doc.lines)} lines (over {BLOATED_LINES}) and the skill has no "
            "references/ folder",
            None,
            None,
        )


RULE = Rule(
    code="PE301",
    flag="BLOATED_SKILL",
    name="bloated-skill",
    severity=Severity.WARNING,
    anti_pattern=True,
    summary="SKILL.md is at most 800 lines, or the skill has a references/ folder holding its "
    "detail.",
    why="The whole body is loaded on every activation; hundreds of lines of rarely needed "
    "detail cost tokens every time and bury the instructions that matter.",
    fix="Move reference material (API tables, long examples) into references/ files and link "
    "them from SKILL.md.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "".join(f"- step {i}\n" for i in range(820))},
        expect=(Expect("PE301", "SKILL.md", None, None),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="PluginEval anti-patterns; Agent Skills specification (under 500 lines)",
    limits="It counts lines, not their weight, and any references/ folder silences it, even an "
    "empty one. Body length against the specification's budget is PE303's.",
    settings=(
        Setting("BLOATED_LINES", "SKILL.md longer than this, with no references/, is bloated"),
    ),
    links=(sources.SPEC,),
    check=check,
)
