"""What the judge layer measured for one skill, kept for the report (plain dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass

from plugin_eval.montecarlo.results import Usage


@dataclass(frozen=True, repr=False)
class JudgedDimension:
    name: str
    # Mean of the usable verdicts (after any cap); None when no judge gave a usable one.
    score: float | None
    # Each judge's band and score (None where that judge gave no usable verdict).
    bands: tuple[int | None, ...]
    scores: tuple[float | None, ...]
    spread: float | None  # standard deviation of the usable scores (0 for one judge)
    low: float | None
    high: float | None
    quotes: tuple[str, ...]  # the supporting quotes kept, most-cited first, at most three
    reasons: tuple[str, ...]
    dropped_quotes: int
    unusable: int  # judges whose verdict for this dimension was refused after the retry
    problems: tuple[str, ...]
    # When grader-directed text caps the judged score at the static layer's: that value.
    capped_at: float | None = None


@dataclass(frozen=True, repr=False)
class JudgeResult:
    backend: str
    models: tuple[str, ...]
    judges: int
    usable_judges: int
    dimensions: tuple[JudgedDimension, ...]
    alpha: float | None
    alpha_interval: tuple[float, float] | None
    excerpt: str | None
    listed_files: int
    usage: Usage
    messages: tuple[str, ...]
    caveat: str | None = None
