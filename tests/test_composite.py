"""The composite is seed 002's formula, recomputed here from what the report shows."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.scoring import composite as comp
from plugin_eval.vocabulary import Layer
from tests.conftest import MakeSkill

SEED_WEIGHTS = {
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

SKILL = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging ledger files.\n---\n\n# CSV\n\nSee [guide](references/missing.md).\n"
)


def _json(folder: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, ["score", folder, "--output", "json", "--fail-on", "none"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_weights_are_the_seeds_and_sum_to_one() -> None:
    assert comp.DIMENSION_WEIGHTS == SEED_WEIGHTS
    assert sum(comp.DIMENSION_WEIGHTS.values()) == pytest.approx(1.0)


def test_reported_composite_equals_the_formula_on_reported_dimensions(
    make_skill: MakeSkill,
) -> None:
    report = _json(str(make_skill(SKILL)))
    c = report["composite"]
    measured = [d for d in c["dimensions"] if d["measured"]]
    raw = sum(d["weight"] * d["score"] for d in measured) / sum(d["weight"] for d in measured)
    count = len(report["layers"][0]["anti_patterns"])
    assert count == c["anti_pattern_count"] == 1
    penalty = max(0.5, 1 - 0.05 * count)
    assert c["penalty"] == penalty
    assert c["score"] == pytest.approx(raw * 100 * penalty, abs=0.006)


def test_quick_depth_measures_exactly_the_static_dimensions(make_skill: MakeSkill) -> None:
    dims = {d["name"]: d for d in _json(str(make_skill(SKILL)))["composite"]["dimensions"]}
    unmeasured = {n for n, d in dims.items() if not d["measured"]}
    assert unmeasured == {
        "output_quality",
        "scope_calibration",
        "robustness",
        "code_template_quality",
    }
    for name in unmeasured:
        assert dims[name]["score"] is None and dims[name]["grade"] is None


def test_static_dimension_scores_are_their_sub_scores(make_skill: MakeSkill) -> None:
    report = _json(str(make_skill(SKILL)))
    subs = report["layers"][0]["sub_scores"]
    dims = {d["name"]: d for d in report["composite"]["dimensions"]}
    for sub in subs.values():
        if sub["feeds"]:
            assert dims[sub["feeds"]]["score"] == sub["score"]
    assert subs["harness_portability"]["feeds"] is None


def test_blend_renormalises_over_layers_that_scored() -> None:
    static, monte_carlo = Layer.STATIC, Layer.MONTE_CARLO
    assert comp.blend({static: 0.4}, "triggering_accuracy") == pytest.approx(0.4)
    mixed = comp.blend({static: 0.4, monte_carlo: 0.9}, "triggering_accuracy")
    assert mixed == pytest.approx((0.15 * 0.4 + 0.60 * 0.9) / 0.75)
    assert comp.blend({static: 0.5}, "output_quality") is None


@pytest.mark.parametrize(
    ("count", "factor"), [(0, 1.0), (1, 0.95), (6, 0.70), (10, 0.5), (30, 0.5)]
)
def test_penalty(count: int, factor: float) -> None:
    assert comp.penalty(count) == pytest.approx(factor)


@pytest.mark.parametrize(
    ("score", "badge"),
    [
        (95, "platinum"),
        (90, "platinum"),
        (89.99, "gold"),
        (80, "gold"),
        (70, "silver"),
        (60, "bronze"),
        (59.9, "none"),
    ],
)
def test_badges(score: float, badge: str) -> None:
    assert comp.badge(score) == badge


@pytest.mark.parametrize(
    ("score", "grade"),
    [
        (97, "A+"),
        (96.9, "A"),
        (90, "A-"),
        (85, "B"),
        (80, "B-"),
        (72, "C-"),
        (60, "D-"),
        (59.9, "F"),
    ],
)
def test_grades(score: float, grade: str) -> None:
    assert comp.grade(score) == grade


@pytest.mark.parametrize(
    ("score", "label"),
    [(90, "Excellent"), (70, "Good"), (69, "Acceptable"), (30, "Poor"), (29, "Failing")],
)
def test_rubric_labels(score: float, label: str) -> None:
    assert comp.label(score) == label


def test_confidence_label_names_the_depth(make_skill: MakeSkill) -> None:
    assert _json(str(make_skill(SKILL)))["composite"]["confidence_label"] == "Estimated"


@pytest.mark.parametrize(
    ("score", "shown", "grade"),
    [(0.6967, "69", "D+"), (0.70, "70", "C-"), (0.8999, "89", "B+"), (0.9, "90", "A-")],
)
def test_a_dimension_is_shown_in_the_band_its_grade_comes_from(
    score: float, shown: str, grade: str
) -> None:
    """Rounded, 0.6967 would read 70 beside a D+ (from 69.67) while 0.70 reads 70 beside a C-:
    shown rounded down, the number and the grade always agree."""
    from plugin_eval.scoring.composite import grade as grade_of
    from plugin_eval.scoring.composite import whole

    assert (whole(score), grade_of(score * 100)) == (shown, grade)
    assert grade_of(float(whole(score))) == grade


def test_a_composite_under_a_whole_number_is_never_shown_as_it() -> None:
    from plugin_eval.report.neutral import score_text

    assert [score_text(x) for x in (89.99, 89.95, 89.94, 92.05, 100.0, 0.0)] == [
        "89.99",
        "89.95",
        "89.9",
        "92.0",
        "100.0",
        "0.0",
    ]


def test_the_penalty_holds_no_floating_point_residue() -> None:
    assert [comp.penalty(n) for n in (0, 3, 7, 9, 20)] == [1.0, 0.85, 0.65, 0.55, 0.5]


def test_a_resample_on_which_a_measured_dimension_is_undefined_is_left_out() -> None:
    from plugin_eval.engine import assemble
    from plugin_eval.results import LayerOutcome

    static = {"triggering_accuracy": 0.9, "progressive_disclosure": 0.6}
    measured = {"triggering_accuracy": 0.2}
    # Half the resamples drew no prompt that should trigger: F1, and so the dimension, is
    # undefined there. Filled in by the static layer, they would lift the upper bound.
    drawn: dict[str, float] = {"triggering_accuracy": 0.2}
    undefined: dict[str, float] = {}
    resamples = (drawn,) * 50 + (undefined,) * 50
    outcome = LayerOutcome(Layer.MONTE_CARLO, measured, {}, {}, 0.2, resamples=resamples)
    result = assemble(static, [outcome], 0)
    assert result.ci_lower == result.ci_upper == result.score
