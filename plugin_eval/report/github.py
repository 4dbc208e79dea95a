"""GitHub Actions workflow commands: one annotation per finding, then one notice per report."""

from __future__ import annotations

from collections.abc import Sequence

from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.model import Batch, FindingOut
from plugin_eval.report.neutral import score_text, workflow_data, workflow_property
from plugin_eval.report.scored import Scored, badge_text, below_threshold

COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def annotation(f: FindingOut) -> str:
    """`::error file=…,line=…,col=…,title=PE201 ORPHAN_REFERENCE::message` for one finding."""
    props = [f"file={workflow_property(f.path)}"]
    if f.line is not None and f.line >= 1:
        props.append(f"line={f.line}")
        if f.column is not None and f.column >= 1:
            props.append(f"col={f.column}")
    props.append(f"title={workflow_property(f'{f.code} {f.flag}')}")
    message = workflow_data(f.message + "\nFix: " + f.fix)
    return f"::{COMMAND[f.severity]} {','.join(props)}::{message}"


def summary(report: Scored) -> str:
    """A notice with the score, badge and grade of one report."""
    c = report.composite
    title = workflow_property(f"plugin-eval {report.name}")
    text = (
        f"{report.name}: {score_text(c.score)}/100, {badge_text(c.badge)}, grade {c.grade} "
        f"({report.depth}, {c.confidence_label}), {len(report.findings)} finding(s) in {report.path}"
    )
    return f"::notice title={title}::{workflow_data(text)}"


def render(reports: Sequence[Scored], threshold: float | None = None) -> str:
    """Every finding's annotation, an error on each item under the threshold, then each
    report's summary notice, one command a line."""
    lines = [annotation(f) for r in reports for f in r.findings]
    lines += [annotation(f) for _, f in below_threshold(reports, threshold)]
    lines += [summary(r) for r in reports]
    return "".join(line + "\n" for line in lines)


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """Every report of the batch, then an error for each path that could not be scored (it
    has no file to annotate: the run's own error, named)."""
    failed = [
        f"::error title=plugin-eval::{workflow_data(f'{f.path}: could not be scored: {f.error}')}"
        for f in batch.failures
    ]
    return render(batch.reports, options.verdict.threshold) + "".join(
        f"{line}\n" for line in failed
    )
