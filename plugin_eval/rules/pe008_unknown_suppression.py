"""PE008: a suppression comment names a code or flag that no rule has."""

from __future__ import annotations

from plugin_eval.findings import Severity
from plugin_eval.rules.base import GOOD_SKILL, EngineRule, Example, Expect

RULE = EngineRule(
    code="PE008",
    flag="UNKNOWN_SUPPRESSION",
    name="unknown-suppression",
    severity=Severity.WARNING,
    summary="Every code in a `plugin-eval: ignore` comment is a rule's code (PE201) or flag "
    "(ORPHAN_REFERENCE). Reported by the engine at the unknown word.",
    why="A misspelt code suppresses nothing, silently: the finding it was meant to hide stays, "
    "and the comment reads as if it were handled.",
    fix="Write the rule's code or flag (`plugin-eval rules` lists them), or remove the word.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "\n<!-- plugin-eval: ignore PE2O1 -->\nSteps again.\n"},
        expect=(Expect("PE008", "SKILL.md", 10, 26),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="plugin-eval suppression comments, after ruff's handling of `# noqa` codes",
    limits="Codes end at the first word that is not separated from them by a space or a comma, "
    "and each word is checked as a code or flag: a comment that goes on in words after the "
    "codes ('ignore PE201 generated file') reports those words too. Write the reason before "
    "the directive instead.",
)
