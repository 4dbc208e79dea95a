"""The composite of seed 002: blends, renormalised weights, penalty, badges and grades."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plugin_eval.vocabulary import Depth, Layer

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

DIMENSION_WEIGHTS: dict[str, float] = {
    "triggering_accuracy": 0.25,
    "orchestration_fitness": 0.20,
    "output_quality": 0.15,
    "scope_calibration": 0.12,
    "progressive_disclosure": 0.10,
    "token_efficiency": 0.06,
    "robustness": 0.05,
    "structural_completeness": 0.03,
    "code_template_quality": 0.02,
    "ecosystem_coherence": 0.02,
}

# Blend weights of each layer per dimension; renormalised over the layers that scored.
LAYER_BLENDS: dict[str, dict[str, float]] = {
    "triggering_accuracy": {"static": 0.15, "judge": 0.25, "monte_carlo": 0.60},
    "orchestration_fitness": {"static": 0.10, "judge": 0.70, "monte_carlo": 0.20},
    "output_quality": {"static": 0.0, "judge": 0.40, "monte_carlo": 0.60},
    "scope_calibration": {"static": 0.30, "judge": 0.55, "monte_carlo": 0.15},
    "progressive_disclosure": {"static": 0.80, "judge": 0.20, "monte_carlo": 0.0},
    "token_efficiency": {"static": 0.40, "judge": 0.10, "monte_carlo": 0.50},
    "robustness": {"static": 0.0, "judge": 0.20, "monte_carlo": 0.80},
    "structural_completeness": {"static": 0.90, "judge": 0.10, "monte_carlo": 0.0},
    "code_template_quality": {"static": 0.30, "judge": 0.70, "monte_carlo": 0.0},
    "ecosystem_coherence": {"static": 0.85, "judge": 0.15, "monte_carlo": 0.0},
}

# The layers each depth runs, in seed 002's order.
DEPTHS: dict[Depth, tuple[Layer, ...]] = {
    Depth.QUICK: (Layer.STATIC,),
    Depth.STANDARD: (Layer.STATIC, Layer.JUDGE),
    Depth.DEEP: (Layer.STATIC, Layer.JUDGE, Layer.MONTE_CARLO),
    Depth.THOROUGH: (Layer.STATIC, Layer.JUDGE, Layer.MONTE_CARLO),
}
# Confidence labels name what was measured, never the depth that was asked for: "Assessed"
# needs the judge; "Certified" the judge and routing by a model (not the offline simulation)
# over at least deep's runs; "Certified+" the same over thorough's (engine.confidence).
ESTIMATED = "Estimated"
SIMULATED = "Estimated: simulated routing"
ASSESSED = "Assessed"
CERTIFIED = "Certified"
CERTIFIED_PLUS = "Certified+"
BADGES: tuple[tuple[float, str], ...] = (
    (90.0, "platinum"),
    (80.0, "gold"),
    (70.0, "silver"),
    (60.0, "bronze"),
)
GRADES: tuple[tuple[float, str], ...] = (
    (97, "A+"),
    (93, "A"),
    (90, "A-"),
    (87, "B+"),
    (83, "B"),
    (80, "B-"),
    (77, "C+"),
    (73, "C"),
    (70, "C-"),
    (67, "D+"),
    (63, "D"),
    (60, "D-"),
)
# Rubric labels of seed 003, on the 0–100 scale.
LABELS: tuple[tuple[float, str], ...] = (
    (90, "Excellent"),
    (70, "Good"),
    (50, "Acceptable"),
    (30, "Poor"),
    (0, "Failing"),
)
WEAK_BELOW = 50.0
STRONG_FROM = 90.0
# Seed 003's pass line (its `pass_score`, "硬性及格线") and the reference scores it names, which
# `--pass-threshold` takes by name.
SEED_PASS_SCORE = 90.0
PASS_PRESETS: dict[str, float] = {"elite": 85.0, "industry": 65.0}


def penalty(anti_pattern_count: float) -> float:
    """max(0.5, 1 − 0.05 × count); a plugin passes its mean count per skill."""
    # Rounded: 1 − 0.05 × 7 is 0.6499999999999999 in floating point, and the report shows it.
    return round(max(0.5, 1.0 - 0.05 * anti_pattern_count), 6)


def badge(score: float) -> str:
    return next((name for floor, name in BADGES if score >= floor), "none")


def grade(score: float) -> str:
    return next((g for floor, g in GRADES if score >= floor), "F")


def label(score: float) -> str:
    return next((name for floor, name in LABELS if score >= floor), "Failing")


# Under this share of the dimension weight measured, a report says what its composite rests
# on: seed 002 renormalises over the measured dimensions, so two small ones can make 98.
THIN_COVERAGE = 0.25


def coverage_note(dimensions: Sequence[DimensionResult]) -> str | None:
    """Said of a composite that rests on a small share of the weight: which dimensions."""
    total = sum(d.weight for d in dimensions)
    measured = [d for d in dimensions if d.score is not None]
    share = sum(d.weight for d in measured) / total if total else 0.0
    if not measured or share >= THIN_COVERAGE:
        return None
    names = ", ".join(d.name for d in measured)
    return (
        f"the composite rests on {share:.0%} of the dimension weight ({names}): the other "
        "dimensions are unmeasured, and the badge says little"
    )


def shown_delta(before: float | None, after: float | None) -> float | None:
    """The difference of two scores as they are shown (one decimal each), so that the delta
    printed beside them is their difference: 71.45 and 52.62 show as 71.5 and 52.6, -18.9."""
    if before is None or after is None:
        return None
    return round(round(after, 1) - round(before, 1), 1)


def whole(score: float) -> str:
    """A 0–1 score as a whole number out of 100, rounded down: 0.6967 is 69, never the 70 its
    grade and label (from the unrounded 69.67) would contradict."""
    return str(math.floor(score * 100 + 1e-9))


@dataclass(frozen=True, repr=False)
class DimensionResult:
    name: str
    weight: float
    score: float | None
    layer_scores: Mapping[str, float]

    @property
    def measured(self) -> bool:
        return self.score is not None


@dataclass(frozen=True, repr=False)
class CompositeResult:
    score: float
    raw: float
    penalty: float
    anti_pattern_count: float
    badge: str
    grade: str
    dimensions: tuple[DimensionResult, ...]
    # 95 % interval of the score, when a layer measured its own uncertainty (Monte Carlo).
    ci_lower: float | None = None
    ci_upper: float | None = None
    confidence: str = ESTIMATED


def blend(layer_scores: Mapping[Layer, float], dimension: str) -> float | None:
    """Blend the layers that scored a dimension, renormalising their blend weights."""
    return _blended(LAYER_BLENDS[dimension], list(layer_scores.items()))


def _blended(weights: Mapping[str, float], scores: list[tuple[Layer, float]]) -> float | None:
    """``blend`` of ``scores`` (each layer once) by ``weights``: the same sums, of lists."""
    usable = [(weights[layer], s) for layer, s in scores if weights.get(layer, 0.0) > 0]
    total = sum([w for w, _ in usable])
    if not usable or total <= 0:
        return None
    return sum([w * s for w, s in usable]) / total


def dimensions_from_layers(
    layers: Mapping[Layer, Mapping[str, float]],
    weights: Mapping[str, float] | None = None,
) -> tuple[DimensionResult, ...]:
    """``layers`` maps a layer name to the dimension scores it produced; ``weights`` is the
    dimension table (seed 002's unless a benchmark file gave another)."""
    each = list(layers.items())
    out = []
    for name, weight in (DIMENSION_WEIGHTS if weights is None else weights).items():
        scores = [(layer, dims[name]) for layer, dims in each if name in dims]
        blended = _blended(LAYER_BLENDS[name], scores)
        out.append(
            DimensionResult(
                name,
                weight,
                None if blended is None else round(blended, 4),
                {str(layer): score for layer, score in sorted(scores)},
            )
        )
    return tuple(out)


def composite(
    dimensions: tuple[DimensionResult, ...], anti_pattern_count: float
) -> CompositeResult:
    """Σ w·s / Σ w over measured dimensions, × 100 × penalty."""
    measured = [d for d in dimensions if d.score is not None]
    total_weight = sum(d.weight for d in measured)
    raw = (
        sum(d.weight * d.score for d in measured if d.score is not None) / total_weight
        if total_weight
        else 0.0
    )
    factor = penalty(anti_pattern_count)
    score = round(raw * 100 * factor, 2)
    return CompositeResult(
        score=score,
        raw=round(raw, 6),
        penalty=factor,
        anti_pattern_count=anti_pattern_count,
        badge=badge(score),
        grade=grade(score),
        dimensions=dimensions,
    )


LEVEL = 0.95


def central(values: Sequence[float] | NDArray[np.float64]) -> tuple[float, float] | None:
    """The central 95 % of resampled values, NaN dropped; None when none is left."""
    import numpy as np  # only when a layer measured its uncertainty

    data = np.asarray(values, dtype=float)
    data = data[np.isfinite(data)]
    if data.size == 0:
        return None
    alpha = (1 - LEVEL) / 2
    low, high = np.quantile(data, [alpha, 1 - alpha])
    return float(low), float(high)


def central_interval(values: Sequence[float], point: float) -> tuple[float, float] | None:
    """The central 95 % of resampled values, widened to hold the estimate ``point``."""
    bounds = central(values)
    return None if bounds is None else (min(bounds[0], point), max(bounds[1], point))
