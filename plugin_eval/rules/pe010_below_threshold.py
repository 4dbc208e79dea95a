"""PE010: an item's composite is under the --threshold (or `threshold` setting) of the run."""

from __future__ import annotations

from plugin_eval.findings import Severity
from plugin_eval.rules.base import GOOD_SKILL, EngineRule, Example

RULE = EngineRule(
    code="PE010",
    flag="BELOW_THRESHOLD",
    name="below-threshold",
    severity=Severity.ERROR,
    summary="The item's composite score is at or above the run's threshold. Shown by the "
    "text, markdown, github, SARIF and HTML outputs of `score` when a threshold is set, on the "
    "item's SKILL.md (a plugin's manifest), naming the score and the threshold.",
    why="A run that exits 1 because a score is too low must say which item and by how much; "
    "otherwise a red CI job shows no reason.",
    fix="Raise the score (the weakest dimensions and `--explain` say where the points went), "
    "or change the threshold.",
    bad=Example({"SKILL.md": GOOD_SKILL}),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="plugin-eval --threshold",
    examples=False,
    limits="It is a verdict on the run, not a finding of the skill: it is not in an item's "
    "JSON report (which holds the composite itself), does not count toward --fail-on, and "
    "`report` does not apply a threshold. Ignoring it (`--ignore PE010`, `ignore`) is refused "
    "as a usage error: to drop the verdict, drop the threshold.",
)
