"""What the CI reporters read from a report: a skill's today, a plugin's as well."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from plugin_eval.report.model import Composite, Dimension, FindingOut, Report
from plugin_eval.rules import BELOW_THRESHOLD, BY_CODE
from plugin_eval.scoring.composite import STRONG_FROM, label
from plugin_eval.scoring.subscores import FEEDS


class Scored(Protocol):
    """A scored unit (skill or plugin) with its composite and located findings."""

    @property
    def name(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def depth(self) -> str: ...

    @property
    def composite(self) -> Composite: ...

    @property
    def findings(self) -> Sequence[FindingOut]: ...


def badge_text(badge: str) -> str:
    """'Silver', or 'no badge' under 60."""
    return badge.capitalize() if badge != "none" else "no badge"


def location(finding: FindingOut) -> str:
    """path:line:column as the text reporter prints it, parts that are unknown left out."""
    line = f":{finding.line}" if finding.line else ""
    column = f":{finding.column}" if finding.line and finding.column else ""
    return finding.path + line + column


def main_file(report: Scored) -> str:
    """The file a verdict about the whole item points at: SKILL.md, or a plugin's manifest."""
    parts = getattr(report, "parts", [])
    manifest = next((p.path for p in parts if p.kind == "manifest"), None)
    name = manifest or "SKILL.md"
    return name if report.path in ("", ".") else f"{report.path}/{name}"


def below_threshold(
    reports: Sequence[Scored], threshold: float | None
) -> list[tuple[Scored, FindingOut]]:
    """A PE010 finding for each report whose composite is under ``threshold``."""
    if threshold is None:
        return []
    rule = BELOW_THRESHOLD
    return [
        (
            r,
            FindingOut(
                code=rule.code,
                flag=rule.flag,
                severity=rule.severity.value,
                message=f"{r.name}: composite {r.composite.score:.2f} is below the threshold "
                f"{threshold:g}",
                fix=rule.fix,
                path=main_file(r),
                line=None,
                column=None,
                anti_pattern=False,
            ),
        )
        for r in reports
        if r.composite.score < threshold
    ]


@dataclass(frozen=True, repr=False)
class ResultBlock:
    """Seed 003's verdict of one item in its own words: on a pass what is strong and what to
    improve, on a fail the main problems and what to do about each."""

    passed: bool
    score: float
    strengths: str = ""
    advice: str = ""
    problems: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()

    @property
    def marker(self) -> str:
        return "[RESULT: PASS]" if self.passed else "[RESULT: FAIL]"

    def parts(self, field: Callable[[str], str] = str) -> list[tuple[str, str | list[str]]]:
        """The block's lines between its markers, as (label, text) or (label, numbered
        items); every text taken from the report goes through ``field`` (an output's escape)."""
        score: tuple[str, str | list[str]] = ("评分", f"{self.score:g}/100")
        if self.passed:
            return [score, ("优点", field(self.strengths)), ("建议改进", field(self.advice))]
        return [
            score,
            ("主要问题", [f"问题{n}: {field(p)}" for n, p in enumerate(self.problems, 1)]),
            ("改进建议", [f"建议{n}: {field(s)}" for n, s in enumerate(self.suggestions, 1)]),
        ]

    def lines(self, field: Callable[[str], str] = str) -> list[str]:
        """The seed's block, line by line, in its layout."""
        out = [self.marker]
        for name, value in self.parts(field):
            if isinstance(value, str):
                out.append(f"{name}: {value}")
            else:
                out += [f"{name}:", *(f"- {item}" for item in value)]
        return [*out, "[/RESULT]"]


def _percent(d: Dimension) -> str:
    return f"{round((d.score or 0.0) * 100, 1):g}"


def _shown(d: Dimension) -> str:
    return f"{d.name} {_percent(d)}/100 ({d.label})"


def _fix(f: FindingOut) -> str:
    return f"{f.code} {f.flag} at {location(f)}: {f.fix}"


def _advice(report: Report, d: Dimension, threshold: float | None = None) -> str:
    """What would raise one dimension: the fix of the first finding that lowers it, or else
    what plugin-eval's rubric asks of the band holding ``threshold`` (of the next band up
    when the dimension is in it already, or without one)."""
    for f in report.findings:
        rule = BY_CODE.get(f.code)
        if rule is not None and rule.subscore is not None and FEEDS[rule.subscore] == d.name:
            return _fix(f)
    from plugin_eval.benchmark import BAND_NAMES, BANDS, band_criterion  # with a threshold only

    at = BAND_NAMES.index(d.label) if d.label in BAND_NAMES else len(BAND_NAMES) - 1
    goal = BAND_NAMES.index(label(threshold)) if threshold is not None else at
    target = goal if goal < at else max(at - 1, 0)
    _, low, high = BANDS[target]
    criterion = band_criterion(d.name, BAND_NAMES[target])
    if criterion is None:
        return f"raise {d.name}"
    return f"{d.name}: aim for {BAND_NAMES[target]} ({low}–{high}): {criterion}"


def result_block(report: Report) -> ResultBlock | None:
    """The seed's verdict of an item that has a pass threshold; None without one."""
    threshold = report.pass_threshold
    if threshold is None:
        return None
    c = report.composite
    # A dimension a benchmark file weighs 0 counts for nothing: neither strength nor advice.
    measured = sorted(
        (d for d in c.dimensions if d.score is not None and d.weight > 0),
        key=lambda d: (d.score or 0.0, d.name),
    )
    if report.passed:
        best = [d for d in reversed(measured) if (d.score or 0.0) * 100 >= STRONG_FROM]
        strengths = "; ".join(_shown(d) for d in (best or list(reversed(measured)))[:3])
        lowest = next((d for d in measured if (d.score or 0.0) * 100 < STRONG_FROM), None)
        if lowest is not None:
            advice = f"{_shown(lowest)}: {_advice(report, lowest)}"
        elif report.findings:
            advice = _fix(report.findings[0])
        else:
            advice = "none: every measured dimension is Excellent and nothing was found"
        return ResultBlock(True, c.score, strengths or "none measured", advice)
    under = [d for d in measured if (d.score or 0.0) * 100 < threshold]
    problems = [f"{_shown(d)}: {d.feedback}" for d in under]
    suggestions = [_advice(report, d, threshold) for d in under]
    anti = [f for f in report.findings if f.anti_pattern]
    if c.penalty < 1 and anti:
        flags = sorted({f.flag for f in anti})
        problems.append(f"anti-pattern penalty ×{c.penalty:.2f}: {', '.join(flags)}")
        suggestions += [_fix(next(f for f in anti if f.flag == flag)) for flag in flags]
    if not problems:  # a plugin's penalty is its skills' mean: no finding of its own
        problems.append(f"composite {c.score:g} is below the pass threshold {threshold:g}")
    unique = list(dict.fromkeys(suggestions))
    return ResultBlock(False, c.score, problems=tuple(problems), suggestions=tuple(unique))
