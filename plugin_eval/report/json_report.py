"""JSON output: the report schema of `plugin-eval schema`, a comparison, or the rule list."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from plugin_eval.report.formats import RenderOptions, Verdict
from plugin_eval.report.model import Batch, BatchReport, FailureOut, VerdictOut
from plugin_eval.report.neutral import json_text, model_json
from plugin_eval.report.scored import below_threshold
from plugin_eval.rules.base import RuleDoc


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """One item's report when one path named one item; otherwise a batch report. Either
    ends with the run's verdict when it has a threshold or fails."""
    verdict = _verdict(batch, options.verdict)
    if batch.single and len(batch.reports) == 1 and not batch.failures:
        report = batch.reports[0]
        if verdict is None:
            return json_text(model_json(report, indent=2)) + "\n"
        data = {**report.model_dump(mode="json"), "verdict": verdict.model_dump(mode="json")}
        return json_text(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
    payload = BatchReport(
        generated_at=batch.generated_at,
        reports=list(batch.reports),
        failures=[FailureOut(path=f.path, error=f.error) for f in batch.failures],
        verdict=verdict,
    )
    return json_text(model_json(payload, indent=2)) + "\n"


def _verdict(batch: Batch, verdict: Verdict) -> VerdictOut | None:
    if verdict.threshold is None and not verdict.failed:
        return None
    return VerdictOut(
        passed=not verdict.failed,
        threshold=verdict.threshold,
        fail_on=verdict.fail_on,
        reasons=verdict.reasons(),
        below_threshold=[f for _, f in below_threshold(batch.reports, verdict.threshold)],
    )


def render_comparison(data: dict[str, Any], options: RenderOptions) -> str:
    return json_text(json.dumps(data, indent=2)) + "\n"


def render_rules(rules: Sequence[RuleDoc], options: RenderOptions) -> str:
    rows = [
        {
            "code": r.code,
            "flag": r.flag,
            "name": r.name,
            "severity": r.severity.value,
            "anti_pattern": r.anti_pattern,
            "subscore": r.subscore,
            "summary": r.summary,
        }
        for r in rules
    ]
    return json.dumps(rows, indent=2) + "\n"
