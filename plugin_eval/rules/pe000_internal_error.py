"""PE000: a rule crashed on a file; its findings are missing, every other rule's stand."""

from __future__ import annotations

from dataclasses import dataclass

from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, EngineRule, Example


@dataclass(frozen=True, repr=False)
class InternalRule(EngineRule):
    """Reported when a rule raises: it has no example skill, any skill can meet a broken rule."""

    def crashed(self, rule_code: str, path: str, error: BaseException) -> Finding:
        """The finding that stands in for the findings of a rule that raised."""
        return self.finding(
            f"rule {rule_code} crashed on this file ({type(error).__name__}: {error}); "
            "its findings are missing, every other rule's are reported",
            path=path,
        )


RULE = InternalRule(
    code="PE000",
    flag="INTERNAL_ERROR",
    name="internal-error",
    severity=Severity.ERROR,
    summary="A rule raised an exception on a file. The finding names the rule and the error; "
    "that rule's findings for the file are missing, while every other rule's findings and "
    "the sub-scores and composite are reported as usual.",
    why="A crash in one check must not hide a skill's other problems, nor pass silently: the "
    "skill was not fully checked, so the run fails at the default --fail-on error.",
    fix="Run again with --debug (or PLUGIN_EVAL_DEBUG=1) for the traceback and report it with "
    "the file that caused it; meanwhile `--ignore` the crashing rule's code.",
    bad=Example({"SKILL.md": GOOD_SKILL}),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="plugin-eval",
    examples=False,
    limits="Only exceptions are caught: a rule that runs forever or reports a wrong place is not "
    "detected here. An exception in the parse or in a sub-score still fails the whole item, "
    "reported as could not be scored.",
)
