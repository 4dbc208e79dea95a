"""JSON output: the report schema of `plugin-eval schema`, a comparison, or the rule list."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.model import Batch, BatchReport, FailureOut
from plugin_eval.rules.base import RuleDoc


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """One item's report when one path named one item; otherwise a batch report."""
    if batch.single and len(batch.reports) == 1 and not batch.failures:
        return batch.reports[0].model_dump_json(indent=2) + "\n"
    payload = BatchReport(
        generated_at=batch.generated_at,
        reports=list(batch.reports),
        failures=[FailureOut(path=f.path, error=f.error) for f in batch.failures],
    )
    return payload.model_dump_json(indent=2) + "\n"


def render_comparison(data: dict[str, Any], options: RenderOptions) -> str:
    return json.dumps(data, indent=2) + "\n"


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
