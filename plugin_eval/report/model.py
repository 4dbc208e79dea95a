"""The report schema (pydantic): what `--output json` writes and `plugin-eval schema` prints."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from plugin_eval import __version__, budgets
from plugin_eval.evidence import SubScore as ScoredSub
from plugin_eval.feedback import Source, dimension_feedback, overall_feedback
from plugin_eval.findings import Finding, bounded
from plugin_eval.report.judge import JudgeOut, judge_out
from plugin_eval.report.montecarlo import MonteCarloOut, monte_carlo_out
from plugin_eval.results import LayerOutcome, PluginResult, SkillResult
from plugin_eval.rules import BY_CODE
from plugin_eval.scoring import composite as comp
from plugin_eval.scoring.subscores import FEEDS
from plugin_eval.vocabulary import Depth, Kind

SCHEMA_VERSION = "1"


# Default factories are functions of ours, not `list` or `dict`: pydantic reads each factory's
# signature when it builds a model, and a builtin type's signature is parsed from its text with
# `tokenize` (compiling its patterns: some 2 ms of every run's start).
def _no_strings() -> list[str]:
    return []


def _no_failures() -> list[FailureOut]:
    return []


class _Model(BaseModel):
    # Seed 003's fields keep the seed's camelCase names in the JSON (their aliases), whatever
    # writes it; a report read back accepts either name.
    model_config = ConfigDict(
        frozen=True,
        serialize_by_alias=True,
        validate_by_name=True,
        validate_by_alias=True,
        defer_build=True,
    )


class Evidence(_Model):
    label: str = Field(description="What was observed, in words.")
    points: float = Field(description="What it adds to (or takes from) the sub-score.")
    line: int | None = Field(default=None, description="Line of SKILL.md it comes from, 1-based.")


class SubScore(_Model):
    score: float = Field(ge=0, le=1)
    feeds: str | None = Field(description="The composite dimension this sub-score feeds.")
    evidence: list[Evidence]


class FindingOut(_Model):
    code: str
    flag: str
    severity: str
    message: str
    fix: str
    path: str
    line: int | None
    column: int | None
    anti_pattern: bool


class Layer(_Model):
    layer: str = Field(description="static, judge or monte_carlo.")
    score: float = Field(
        description="0–1. static: weighted sub-scores × anti-pattern penalty. monte_carlo: its "
        "dimension scores weighted by the dimension weights. The composite uses neither."
    )
    sub_scores: dict[str, SubScore]
    anti_patterns: list[FindingOut] = Field(
        description="Findings that count toward the penalty (the six anti-patterns of seed 002 "
        "and CLAIMS_EVERY_REQUEST)."
    )
    monte_carlo: MonteCarloOut | None = Field(
        default=None, description="The Monte Carlo layer's measures; null on other layers."
    )
    judge: JudgeOut | None = Field(
        default=None, description="The judge layer's verdicts; null on other layers."
    )


class Dimension(_Model):
    name: str
    weight: float
    measured: bool
    score: float | None = Field(description="0–1; null when no layer measured it (never 0).")
    grade: str | None
    label: str | None = Field(
        description="Rubric label: Excellent, Good, Acceptable, Poor, Failing."
    )
    layer_scores: dict[str, float]
    measured_by: list[str] = Field(description="The layers that scored this dimension.")
    weighted_score: float | None = Field(
        default=None,
        alias="weightedScore",
        description="Seed 003: score × weight × 100, the weights renormalised over the "
        "measured dimensions as the composite is: they sum to raw_score × 100. Null when "
        "unmeasured.",
    )
    feedback: str = Field(
        default="",
        description="Seed 003: one line from what scored this dimension (the static layer's "
        "largest gain and loss, the judges' reason, the Monte Carlo figures). Quotes the "
        "skill; escape it for the output it goes to.",
    )


class Composite(_Model):
    score: float = Field(description="Σ w·s / Σ w over measured dimensions × 100 × penalty.")
    raw_score: float = Field(
        description="The weighted mean of measured dimensions, before penalty."
    )
    penalty: float
    anti_pattern_count: int
    anti_patterns_per_skill: float | None = Field(
        default=None,
        description="Plugins only: the penalty uses the mean number of anti-patterns per skill.",
    )
    ci_lower: float | None = Field(
        description="95 % interval of the score: the composite recomputed on bootstrap resamples "
        "of the Monte Carlo prompts. Null when no layer measured its uncertainty (quick)."
    )
    ci_upper: float | None
    badge: str
    grade: str
    confidence_label: str
    dimensions: list[Dimension]
    weak_dimensions: list[str] = Field(description="Measured dimensions below 50 (Poor, Failing).")
    strong_dimensions: list[str] = Field(description="Measured dimensions at 90 or more.")


class Counts(_Model):
    error: int
    warning: int
    info: int
    suppressed: int


class Report(_Model):
    schema_version: str = SCHEMA_VERSION
    tool: str = "plugin-eval"
    version: str = __version__
    generated_at: str = Field(description="The only field that changes between identical runs.")
    kind: Literal["skill", "plugin"] = "skill"
    path: str
    name: str
    depth: Depth
    layers_not_run: list[str] = Field(
        default_factory=_no_strings, description="Layers the depth names that did not run (judge)."
    )
    notes: list[str] = Field(
        default_factory=_no_strings, description="What ran and what did not, and why, in words."
    )
    layers: list[Layer]
    composite: Composite
    pass_threshold: float | None = Field(
        default=None,
        alias="passThreshold",
        description="Seed 003: the composite this item must reach (--pass-threshold, the "
        "pass-threshold setting or a benchmark file's pass_score); null when none applies.",
    )
    passed: bool | None = Field(
        default=None,
        description="Seed 003: composite ≥ passThreshold; null when no pass threshold applies.",
    )
    overall_feedback: str = Field(
        default="",
        alias="overallFeedback",
        description="Seed 003: the composite, badge and grade, and the strongest and weakest "
        "measured dimensions, in one or two sentences.",
    )
    weak_dimensions: list[str] = Field(
        default_factory=_no_strings,
        alias="weakDimensions",
        description="Seed 003's name for composite.weak_dimensions (measured, below 50).",
    )
    strong_dimensions: list[str] = Field(
        default_factory=_no_strings,
        alias="strongDimensions",
        description="Seed 003's name for composite.strong_dimensions (measured, 90 or more).",
    )
    findings: list[FindingOut]
    counts: Counts
    elo: None = None


class PartOut(_Model):
    kind: str = Field(description="agent, command or manifest")
    name: str
    path: str
    sub_scores: dict[str, float]


class PluginReport(Report):
    kind: Literal["skill", "plugin"] = "plugin"
    skills: list[Report] = Field(description="The full report of every skill in skills/.")
    parts: list[PartOut] = Field(description="Agents, commands and the manifest, as scored.")


class FailureOut(_Model):
    path: str = Field(description="The path as given.")
    error: str = Field(description="Why nothing could be scored there.")


class VerdictOut(_Model):
    """Why a run passes or fails: present when `--threshold` is set or the run fails."""

    passed: bool = Field(description="False exactly when the exit code is 1.")
    threshold: float | None = Field(description="The composite score items must reach.")
    fail_on: str = Field(description="The severity at which a finding fails the run.")
    reasons: list[str] = Field(description="Each reason the run fails, in words.")
    below_threshold: list[FindingOut] = Field(
        description="A PE010 finding for each item whose composite is under the threshold, "
        "located at its SKILL.md or manifest."
    )


class BatchReport(_Model):
    schema_version: str = SCHEMA_VERSION
    tool: str = "plugin-eval"
    version: str = __version__
    generated_at: str
    reports: list[PluginReport | Report]
    failures: list[FailureOut] = Field(
        default_factory=_no_failures,
        description="Paths that could not be scored (missing, unreadable, or a crash); the "
        "exit code is then 1.",
    )
    verdict: VerdictOut | None = Field(
        default=None,
        description="Why the run passes or fails, when `--threshold` is set or it fails. "
        "(One item's report, printed alone, carries the same object as its last key.)",
    )


class WeakDimension(_Model):
    name: str
    score: float | None


class FindingCounts(_Model):
    error: int
    warning: int
    info: int


class FindingChanges(_Model):
    existed: bool = Field(description="Whether the previous run had this item.")
    new: list[str] = Field(description="Findings (code path: message) not in the previous run.")
    fixed: list[str] = Field(description="Findings of the previous run that are gone.")


class SummaryRow(_Model):
    """One item of a marketplace report, as summary.json lists it."""

    name: str
    kind: Kind
    path: str = Field(description="The item's folder, relative to the report's root.")
    slug: str = Field(description="Its file name under plugins/, skills/ and badges/.")
    score: float | None = Field(description="The composite; null when the item errored.")
    badge: str | None
    grade: str | None
    confidence: str | None
    ci_lower: float | None
    ci_upper: float | None
    anti_patterns: dict[str, int] = Field(description="Anti-pattern flag → how many.")
    weakest_dimensions: list[WeakDimension] = Field(description="The three lowest measured.")
    weak_dimensions: list[str]
    counts: FindingCounts
    load_errors: list[str] = Field(description="Codes of findings that stop a harness loading it.")
    skills: int | None = Field(description="Plugins: how many skills it has.")
    errored: bool
    error: str | None
    changes: FindingChanges | None = Field(
        default=None, description="With --previous only: findings new and fixed since then."
    )
    passed: bool | None = Field(
        default=None,
        description="With a pass threshold only: whether the item reaches it (seed 003).",
    )

    def data(self) -> dict[str, Any]:
        """The row as summary.json writes it (`changes` only when compared with a previous run,
        `passed` only under a pass threshold)."""
        left_out = {name for name in ("changes", "passed") if getattr(self, name) is None}
        return self.model_dump(mode="json", exclude=left_out or None)


@dataclass(frozen=True, repr=False)
class Failure:
    """A path that could not be scored, and why."""

    path: str
    error: str


@dataclass(frozen=True, repr=False)
class Batch:
    """What one run scored: every report, what could not be scored, and notes said once."""

    generated_at: str
    reports: tuple[Report, ...]
    failures: tuple[Failure, ...] = ()
    notes: tuple[str, ...] = ()
    # One path naming one item: JSON output is that item's report alone, not a batch.
    single: bool = False


def now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def finding_out(f: Finding) -> FindingOut:
    return FindingOut(
        code=f.code,
        flag=f.flag,
        severity=f.severity.value,
        message=f.message,
        fix=f.fix,
        path=f.path,
        line=f.line,
        column=f.column,
        anti_pattern=BY_CODE[f.code].anti_pattern,
    )


def _dimensions(
    c: comp.CompositeResult, sources: Mapping[str, list[Source]], ran: list[str]
) -> tuple[list[Dimension], list[str], list[str]]:
    """Dimensions with grade, rubric label, weighted score and feedback, and the weak and
    strong ones."""
    total = sum(d.weight for d in c.dimensions if d.score is not None)
    dims = [
        Dimension(
            name=d.name,
            weight=d.weight,
            measured=d.measured,
            score=d.score,
            grade=comp.grade(d.score * 100) if d.score is not None else None,
            label=comp.label(d.score * 100) if d.score is not None else None,
            layer_scores=dict(d.layer_scores),
            measured_by=list(d.layer_scores),
            weightedScore=(
                round(d.score * d.weight / total * 100, 2)
                if d.score is not None and total
                else (0.0 if d.score is not None else None)
            ),
            feedback=dimension_feedback(d.score, sources.get(d.name, []), ran),
        )
        for d in c.dimensions
    ]
    # A dimension weighed 0 (a benchmark file leaves it out) is neither weak nor strong.
    measured = sorted(
        (d for d in dims if d.score is not None and d.weight > 0),
        key=lambda d: (d.score or 0, d.name),
    )
    weak = [d.name for d in measured if (d.score or 0) * 100 < comp.WEAK_BELOW]
    strong = [d.name for d in reversed(measured) if (d.score or 0) * 100 >= comp.STRONG_FROM]
    return dims, weak, strong


def _sub_scores(subscores: Mapping[str, ScoredSub]) -> dict[str, SubScore]:
    return {
        name: SubScore(
            score=s.score,
            feeds=FEEDS[name],
            evidence=[
                Evidence(label=e.label, points=round(e.points, 4), line=e.line) for e in s.evidence
            ],
        )
        for name, s in subscores.items()
    }


def _counts(findings: Iterable[Finding], suppressed: int) -> Counts:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity.value] += 1
    return Counts(suppressed=suppressed, **counts)


def _sources(
    static: Mapping[str, ScoredSub], outcomes: Iterable[LayerOutcome] = ()
) -> dict[str, list[Source]]:
    """For each dimension, what each layer measured of it: the sub-scores feeding it and, for
    the judge, its judges' reasons."""
    out: dict[str, list[Source]] = {}

    def add(layer: str, feeds: Mapping[str, str | None], subs: Mapping[str, ScoredSub]) -> None:
        for name, sub in subs.items():
            target = feeds.get(name)
            if target is not None:
                out.setdefault(target, []).append(Source(layer, [sub]))

    add("static", FEEDS, static)
    for o in outcomes:
        if not o.ran:
            continue
        if o.judge is not None:
            reasons = {d.name: d.reasons for d in o.judge.dimensions}
            for name, sub in o.subscores.items():
                out.setdefault(o.feeds[name], []).append(
                    Source(str(o.layer), [sub], reasons.get(name, ()))
                )
        else:
            add(str(o.layer), o.feeds, o.subscores)
    return out


def _composite(
    c: comp.CompositeResult,
    anti_patterns: int,
    sources: Mapping[str, list[Source]],
    ran: list[str],
    per_skill: float | None = None,
) -> Composite:
    dims, weak, strong = _dimensions(c, sources, ran)
    return Composite(
        score=c.score,
        raw_score=c.raw,
        penalty=c.penalty,
        anti_pattern_count=anti_patterns,
        anti_patterns_per_skill=per_skill,
        ci_lower=c.ci_lower,
        ci_upper=c.ci_upper,
        badge=c.badge,
        grade=c.grade,
        confidence_label=c.confidence,
        dimensions=dims,
        weak_dimensions=weak,
        strong_dimensions=strong,
    )


def _seed(c: Composite, result: comp.CompositeResult, threshold: float | None) -> dict[str, Any]:
    """Seed 003's verdict of one item, as Report fields."""
    return {
        "pass_threshold": threshold,
        "passed": None if threshold is None else c.score >= threshold,
        "overall_feedback": overall_feedback(result, c.anti_pattern_count, threshold),
        "weak_dimensions": list(c.weak_dimensions),
        "strong_dimensions": list(c.strong_dimensions),
    }


def build_report(
    result: SkillResult, generated_at: str, pass_threshold: float | None = None
) -> Report:
    """The report of one skill; ``pass_threshold`` gives it seed 003's verdict."""
    c = result.composite
    subs = _sub_scores(result.subscores)
    ran = ["static", *(str(o.layer) for o in result.outcomes if o.ran)]
    composite = _composite(
        c, len(result.anti_patterns), _sources(result.subscores, result.outcomes), ran
    )
    return Report(
        generated_at=generated_at,
        path=result.path,
        name=bounded(result.name, budgets.SHOWN_NAME_CHARS),
        depth=result.depth,
        layers_not_run=list(result.layers_not_run),
        notes=_notes(result.notes, c),
        layers=[
            Layer(
                layer="static",
                score=result.static_score,
                sub_scores=subs,
                anti_patterns=[finding_out(f) for f in result.anti_patterns],
            ),
            *(layer for o in result.outcomes for layer in _outcome_layer(o)),
        ],
        composite=composite,
        **_seed(composite, c, pass_threshold),
        findings=[finding_out(f) for f in result.findings],
        counts=_counts(result.findings, result.suppressed),
    )


def _notes(said: Iterable[str], c: comp.CompositeResult) -> list[str]:
    """The notes of a run, and one on a composite resting on a small share of the weight."""
    thin = comp.coverage_note(c.dimensions)
    return [*said, *([thin] if thin else [])]


def _outcome_layer(outcome: LayerOutcome) -> list[Layer]:
    """A layer that ran and measured something, as the report shows it."""
    if not outcome.ran or outcome.score is None:
        return []
    subs = {
        name: SubScore(
            score=s.score,
            feeds=outcome.feeds[name],
            evidence=[Evidence(label=e.label, points=e.points, line=e.line) for e in s.evidence],
        )
        for name, s in outcome.subscores.items()
    }
    detail, judged = outcome.monte_carlo, outcome.judge
    return [
        Layer(
            layer=outcome.layer,
            score=outcome.score,
            sub_scores=subs,
            anti_patterns=[],
            monte_carlo=monte_carlo_out(detail) if detail is not None else None,
            judge=judge_out(judged) if judged is not None else None,
        )
    ]


def build_plugin_report(
    result: PluginResult, generated_at: str, pass_threshold: float | None = None
) -> PluginReport:
    """The report of one plugin and of each of its skills; ``pass_threshold`` gives each
    seed 003's verdict."""
    c = result.composite
    composite = _composite(
        c,
        len(result.anti_patterns),
        _sources(result.subscores),
        ["static"],
        result.anti_patterns_per_skill,
    )
    return PluginReport(
        generated_at=generated_at,
        path=result.path,
        name=bounded(result.name, budgets.SHOWN_NAME_CHARS),
        depth=result.depth,
        notes=_notes((), c),
        layers=[
            Layer(
                layer="static",
                score=result.static_score,
                sub_scores=_sub_scores(result.subscores),
                anti_patterns=[finding_out(f) for f in result.anti_patterns],
            )
        ],
        composite=composite,
        **_seed(composite, c, pass_threshold),
        findings=[finding_out(f) for f in result.findings],
        counts=_counts(result.findings, sum(s.suppressed for s in result.skills)),
        skills=[build_report(s, generated_at, pass_threshold) for s in result.skills],
        parts=[
            PartOut(
                kind=p.kind,
                name=p.name,
                path=p.path,
                sub_scores={k: v.score for k, v in p.subscores.items()},
            )
            for p in result.parts
        ],
    )
