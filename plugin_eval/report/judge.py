"""The judge layer in the report: each judged dimension with its quotes, and the judges'
agreement and cost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from plugin_eval.report.montecarlo import UsageOut, usage_out

if TYPE_CHECKING:  # only a run with the judge builds these
    from plugin_eval.judge.results import JudgedDimension, JudgeResult


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class JudgedDimensionOut(_Model):
    name: str
    score: float | None = Field(
        description="Mean of the judges' usable scores (0–1), after any cap; null when no judge "
        "gave a usable verdict (never 0)."
    )
    bands: list[int | None] = Field(description="Each judge's rubric band, 0 (worst) to 4.")
    scores: list[float | None] = Field(description="Each judge's score; null where unusable.")
    spread: float | None = Field(description="Standard deviation of the usable scores.")
    low: float | None
    high: float | None
    quotes: list[str] = Field(
        description="Passages of the skill the judges cited, checked to occur in it."
    )
    reasons: list[str]
    dropped_quotes: int = Field(description="Quotes the judges gave that are not in the skill.")
    unusable: int = Field(description="Judges whose verdict was refused after one retry.")
    problems: list[str]
    capped_at: float | None = Field(
        description="The static layer's score this dimension was capped at, because the skill "
        "addresses evaluators; null when not capped."
    )


class JudgeOut(_Model):
    backend: str
    models: list[str]
    judges: int = Field(description="Independent judgements asked for.")
    usable_judges: int
    alpha: float | None = Field(
        description="Krippendorff's alpha of the judges' bands (ordinal) over the dimensions; "
        "null when undefined (one judge, or every band the same)."
    )
    alpha_ci_lower: float | None
    alpha_ci_upper: float | None
    excerpt: str | None = Field(description="How SKILL.md was cut for the judge, when it was.")
    listed_files: int
    caveat: str | None
    dimensions: list[JudgedDimensionOut]
    usage: UsageOut
    messages: list[str]


def alpha_text(alpha: float | None, low: float | None, high: float | None) -> str:
    """'0.82 [0.61–0.95]', '0.82' without an interval, or why alpha is undefined."""
    if alpha is None:
        return "undefined (one judge, or one band everywhere)"
    if low is None or high is None:
        return f"{alpha:.2f}"
    return f"{alpha:.2f} [{low:.2f}–{high:.2f}]"


def _dimension(d: JudgedDimension) -> JudgedDimensionOut:
    return JudgedDimensionOut(
        name=d.name,
        score=d.score,
        bands=list(d.bands),
        scores=list(d.scores),
        spread=d.spread,
        low=d.low,
        high=d.high,
        quotes=list(d.quotes),
        reasons=list(d.reasons),
        dropped_quotes=d.dropped_quotes,
        unusable=d.unusable,
        problems=list(d.problems),
        capped_at=d.capped_at,
    )


def judge_out(j: JudgeResult) -> JudgeOut:
    low, high = j.alpha_interval if j.alpha_interval is not None else (None, None)
    return JudgeOut(
        backend=j.backend,
        models=list(j.models),
        judges=j.judges,
        usable_judges=j.usable_judges,
        alpha=j.alpha,
        alpha_ci_lower=low,
        alpha_ci_upper=high,
        excerpt=j.excerpt,
        listed_files=j.listed_files,
        caveat=j.caveat,
        dimensions=[_dimension(d) for d in j.dimensions],
        usage=usage_out(j.usage),
        messages=list(j.messages),
    )
