"""Markdown output, for pull-request comments and job summaries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plugin_eval.compare import delta_text, number_text
from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.judge import alpha_text
from plugin_eval.report.model import Batch, Report
from plugin_eval.report.neutral import markdown_code, markdown_text, score_text
from plugin_eval.report.scored import badge_text, below_threshold, result_block
from plugin_eval.rules import counts_toward
from plugin_eval.rules.base import RuleDoc
from plugin_eval.scoring.composite import shown_delta, whole


def render(report: Report, explain: bool = False) -> str:
    c = report.composite
    out = [
        f"## {markdown_text(report.name, table=False)}: {score_text(c.score)}/100{_ci(report)} "
        f"({badge_text(c.badge)}, grade {c.grade})",
        "",
        f"{markdown_code(report.path, table=False)} · depth {report.depth} "
        f"({c.confidence_label}) · penalty ×{c.penalty:.2f} "
        f"for {c.anti_pattern_count} anti-pattern(s)",
        "",
        "| dimension | weight | score | grade | rubric |",
        "|---|---:|---:|---|---|",
    ]
    for d in c.dimensions:
        if d.score is None:
            out.append(f"| {d.name} | {d.weight:.2f} | — | | unmeasured |")
        else:
            out.append(f"| {d.name} | {d.weight:.2f} | {whole(d.score)} | {d.grade} | {d.label} |")
    out.append("")
    if c.weak_dimensions:
        out.append(f"Weak: {', '.join(c.weak_dimensions)}.")
    if c.strong_dimensions:
        out.append(f"Strong: {', '.join(c.strong_dimensions)}.")
    out += result(report)
    out += judge(report)
    out += monte_carlo(report)
    if explain:
        out += ["", "### Evidence", ""]
        for name, sub in report.layers[0].sub_scores.items():
            out.append(f"- **{name}** {sub.score:.2f}")
            for e in sub.evidence:
                where = f" (line {e.line})" if e.line else ""
                out.append(f"  - {e.points:+.2f} {markdown_text(e.label, table=False)}{where}")
    if report.findings:
        out += [
            "",
            "### Findings",
            "",
            "| location | code | severity | message | fix |",
            "|---|---|---|---|---|",
        ]
        for f in report.findings:
            loc = f.path + (f":{f.line}" if f.line else "") + (f":{f.column}" if f.column else "")
            out.append(
                f"| {markdown_code(loc)} | {f.code} {f.flag} | {f.severity} | "
                f"{markdown_text(f.message)} | {markdown_text(f.fix)} |"
            )
    out.append("")
    return "\n".join(out)


def result(report: Report) -> list[str]:
    """Seed 003's verdict, as the text output's `[RESULT: …]` block says it, and the overall
    feedback; nothing without a pass threshold."""
    block = result_block(report)
    if block is None or report.pass_threshold is None:
        return []
    out = ["", f"### \\{block.marker[:-1]}\\] (pass threshold {report.pass_threshold:g})", ""]
    for label, value in block.parts(lambda text: markdown_text(text, table=False)):
        if isinstance(value, str):
            out.append(f"- {label}: {value}")
        else:
            out += [f"- {label}:", *(f"  - {item}" for item in value)]
    out += ["", markdown_text(report.overall_feedback, table=False)]
    return out


def _ci(report: Report) -> str:
    c = report.composite
    if c.ci_lower is None or c.ci_upper is None:
        return ""
    return f" [{c.ci_lower:.1f}–{c.ci_upper:.1f}]"


def _counts(counts: dict[str, int], table: bool = True) -> str:
    return ", ".join(f"{markdown_text(name, table)} {n}" for name, n in counts.items()) or "—"


def judge(report: Report) -> list[str]:
    """The judge section: each judged dimension with its bands, spread and quotes."""
    layer = next((x for x in report.layers if x.judge is not None), None)
    if layer is None or layer.judge is None:
        return []
    j = layer.judge
    alpha = alpha_text(j.alpha, j.alpha_ci_lower, j.alpha_ci_upper)
    models = ", ".join(markdown_code(m, table=False) for m in j.models)
    out = [
        "",
        "### Judge",
        "",
        f"{j.backend} ({models}) · {j.usable_judges} of {j.judges} judgement(s) usable · "
        f"agreement (Krippendorff's alpha on the bands) {alpha}",
    ]
    if j.caveat:
        out += ["", f"**Caveat:** {markdown_text(j.caveat, table=False)}."]
    if j.excerpt:
        out += ["", f"Judged on an excerpt: {markdown_text(j.excerpt, table=False)}."]
    out += ["", "| dimension | score ± spread | bands | quote |", "|---|---|---|---|"]
    for d in j.dimensions:
        bands = ", ".join("–" if b is None else str(b) for b in d.bands)
        score = "unmeasured" if d.score is None else f"{d.score:.2f} ± {d.spread or 0:.2f}"
        if d.capped_at is not None:
            score += " (capped)"
        quote = markdown_text(d.quotes[0]) if d.quotes else ""
        out.append(f"| {d.name} | {score} | {bands} | {quote} |")
    return out


def monte_carlo(report: Report) -> list[str]:
    """The Monte Carlo section: measures with 95 % intervals and the prompts it got wrong."""
    layer = next((x for x in report.layers if x.monte_carlo is not None), None)
    if layer is None or layer.monte_carlo is None:
        return []
    mc = layer.monte_carlo
    what = (
        "**simulation**: lexical BM25 router, not a model"
        if mc.simulated
        else markdown_code(mc.model, table=False)
    )
    out = [
        "",
        "### Monte Carlo",
        "",
        f"{mc.backend} ({what}) · {mc.runs} run(s) of {mc.distinct_prompts} prompt(s) · "
        f"{len(mc.distractors.candidates) - 1} distractor(s), "
        f"{markdown_text(mc.distractors.source, table=False)} · "
        f"prompts: {markdown_text(mc.prompt_source, table=False)}",
        "",
        "| measure | value [95 % interval] | method |",
        "|---|---|---|",
    ]
    t = mc.triggering
    if t is not None:
        out += [
            f"| precision | {t.precision.text()} | {t.precision.method} |",
            f"| recall | {t.recall.text()} | {t.recall.method} |",
            f"| F1 | {t.f1.text()} | {t.f1.method} |",
        ]
    if mc.output_quality is not None:
        q = mc.output_quality
        out.append(
            f"| output quality | {q.mean.text()} | {markdown_text(q.method)}, BCa bootstrap |"
        )
    if mc.consistency is not None:
        out.append(
            f"| consistency | {mc.consistency.score:.0f}/100 | mean pairwise Jaccard "
            f"{mc.consistency.mean_jaccard:.2f} |"
        )
    out.append(f"| failure rate | {mc.failures.rate.text()} | clopper-pearson |")
    if mc.tokens is not None:
        out.append(
            f"| output tokens | median {mc.tokens.median_output_tokens:.0f} | IQR "
            f"{mc.tokens.q1:.0f}–{mc.tokens.q3:.0f} |"
        )
    c = report.composite
    if c.ci_lower is not None and c.ci_upper is not None:
        out.append(
            f"| composite | {score_text(c.score)} [{c.ci_lower:.1f}–{c.ci_upper:.1f}] | "
            f"percentile bootstrap over prompts{' and judges' if judge(report) else ''} |"
        )
    out.append("")
    if t is not None and t.stolen_by:
        out.append(f"Missed should-trigger runs went to: {_counts(t.stolen_by, False)}.")
    if t is not None and t.false_triggers_from:
        out.append(f"Should-not runs it took belong to: {_counts(t.false_triggers_from, False)}.")
    wrong = [p for p in mc.prompts if p.outcome != "pass"]
    if wrong:
        out += ["", "| prompt | expected | outcome | picked |", "|---|---|---|---|"]
        for p in wrong:
            expected = "trigger" if p.should_trigger else "not trigger"
            out.append(
                f"| {markdown_text(p.prompt)} | {expected} | {p.outcome} | {_counts(p.picked)} |"
            )
    return out


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """Each report in turn, then the items under the threshold and why the run failed."""
    text = "\n".join(render(r, options.explain) for r in batch.reports)
    verdict = options.verdict
    if not verdict.failed:
        return text
    failing = below_threshold(batch.reports, verdict.threshold)
    lines = ["", "## Result: FAIL", ""]
    lines += [
        f"- {markdown_code(f.path, table=False)}: {markdown_text(f.message, table=False)}"
        for _, f in failing
    ]
    lines += [
        f"- {markdown_code(f.path, table=False)}: could not be scored: "
        f"{markdown_text(f.error, table=False)}"
        for f in batch.failures
    ]
    lines += [
        f"- {markdown_text(reason, table=False)}" for reason in verdict.reasons(items_listed=True)
    ]
    return text + "\n".join(lines) + "\n"


def render_comparison(data: dict[str, Any], options: RenderOptions) -> str:
    """Two items side by side, with the findings only one of them has."""
    a, b = data["a"], data["b"]
    out = [
        f"## Compare: A {markdown_code(a['path'], table=False)} "
        f"vs B {markdown_code(b['path'], table=False)}",
        "",
        *(
            f"Note on {side.upper()}: {markdown_text(note, table=False)}.\n"
            for side in ("a", "b")
            for note in data[side]["notes"]
        ),
        "| | A | B | Δ (B − A) | winner |",
        "|---|---:|---:|---:|---|",
    ]
    for r in data["rows"]:
        out.append(
            f"| {r['name']} | {number_text(r['a'])} | {number_text(r['b'])} | "
            f"{delta_text(shown_delta(r['a'], r['b']))} | "
            f"{r['winner']} |"
        )
    for key, label in (("only_in_a", "Only in A"), ("only_in_b", "Only in B")):
        out += ["", f"### {label} ({len(data[key])})", ""]
        out += [
            f"- {f['code']} {f['flag']} {markdown_code(f['path'], table=False)}"
            f"{':' + str(f['line']) if f['line'] else ''}: "
            f"{markdown_text(f['message'], table=False)}"
            for f in data[key]
        ]
    return "\n".join(out) + "\n"


def render_rules(rules: Sequence[RuleDoc], options: RenderOptions) -> str:
    """The rule table the README shows."""
    lines = ["| code | flag | severity | counts toward | summary |", "|---|---|---|---|---|"]
    lines += [
        f"| {r.code} | {r.flag} | {r.severity.value} | {counts_toward(r)} | {markdown_text(r.summary)} |"
        for r in rules
    ]
    return "\n".join(lines) + "\n"
