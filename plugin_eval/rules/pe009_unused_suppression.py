"""PE009: a suppression comment that suppresses nothing, like ruff's RUF100."""

from __future__ import annotations

from plugin_eval.findings import Severity
from plugin_eval.rules.base import GOOD_SKILL, EngineRule, Example, Expect

RULE = EngineRule(
    code="PE009",
    flag="UNUSED_SUPPRESSION",
    name="unused-suppression",
    severity=Severity.INFO,
    summary="Each code of a `plugin-eval: ignore` comment, or the comment as a whole when it "
    "names none, suppresses at least one finding on the lines it covers. Codes of rules that "
    "did not run (--select, --ignore, configuration) are not reported.",
    why="A suppression left behind after the problem was fixed will hide the next, real "
    "finding on that line without anyone deciding so.",
    fix="Remove the code from the comment, or the comment when it has no code left.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "\n<!-- plugin-eval: ignore PE201 -->\nSteps again.\n"},
        expect=(Expect("PE009", "SKILL.md", 10, 26),),
    ),
    good=Example(
        {
            "SKILL.md": GOOD_SKILL
            + "\n<!-- plugin-eval: ignore PE201 -->\nSee [the draft](references/draft.md).\n"
        }
    ),
    source="plugin-eval suppression comments, after ruff's RUF100 (unused-noqa)",
    limits="A body comment covers its own lines and the next one, a frontmatter comment its "
    "own key: a finding reported on another line of the same paragraph is not covered, and "
    "the comment is reported as unused.",
)
