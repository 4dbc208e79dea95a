"""Monte Carlo statistics and text measures, checked against scipy and values worked by hand."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st

from plugin_eval.montecarlo import measures, stats
from plugin_eval.montecarlo.prompts import EvalCase

Z2 = stats.Z95**2


@pytest.mark.parametrize(("k", "n"), [(0, 10), (10, 10), (5, 10), (1, 7), (19, 20), (0, 1)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    low, high = st.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert stats.wilson(k, n) == pytest.approx((low, high), abs=1e-9)


def _ci(bounds: tuple[float, float] | None) -> tuple[float, float]:
    assert bounds is not None
    return bounds


def test_wilson_at_the_ends_by_hand() -> None:
    # 0/n: [0, z²/(n + z²)]; n/n: [n/(n + z²), 1].
    assert _ci(stats.wilson(0, 10)) == pytest.approx((0.0, Z2 / (10 + Z2)))
    assert _ci(stats.wilson(0, 10))[1] == pytest.approx(0.277533, abs=1e-6)
    assert _ci(stats.wilson(10, 10)) == pytest.approx((10 / (10 + Z2), 1.0))
    assert _ci(stats.wilson(10, 10))[0] == pytest.approx(0.722467, abs=1e-6)


def test_wilson_half_by_hand() -> None:
    # p = 0.5, n = 10: centre 0.5, half-width z·√(0.025 + z²/400) / (1 + z²/10).
    half = stats.Z95 * (0.025 + Z2 / 400) ** 0.5 / (1 + Z2 / 10)
    assert _ci(stats.wilson(5, 10)) == pytest.approx((0.5 - half, 0.5 + half))
    assert _ci(stats.wilson(5, 10))[0] == pytest.approx(0.236593, abs=1e-6)


def test_no_trials_no_interval() -> None:
    assert stats.wilson(0, 0) is None
    assert stats.clopper_pearson(0, 0) is None


@pytest.mark.parametrize(("k", "n"), [(0, 10), (10, 10), (3, 10), (1, 50), (49, 50)])
def test_clopper_pearson_matches_scipy_exact(k: int, n: int) -> None:
    low, high = st.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    assert stats.clopper_pearson(k, n) == pytest.approx((low, high), abs=1e-9)


def test_clopper_pearson_at_the_ends_by_hand() -> None:
    # 0/n: upper = 1 − (α/2)^(1/n); n/n: lower = (α/2)^(1/n).
    assert _ci(stats.clopper_pearson(0, 10)) == pytest.approx((0.0, 1 - 0.025**0.1))
    assert _ci(stats.clopper_pearson(0, 10))[1] == pytest.approx(0.308497, abs=1e-6)
    assert _ci(stats.clopper_pearson(10, 10)) == pytest.approx((0.025**0.1, 1.0))


def test_bca_bootstrap_is_scipys_and_reproducible_with_its_seed() -> None:
    data = [0.2, 0.5, 0.9, 0.4, 1.0, 0.0, 0.75, 0.6]
    ours = stats.bca_mean(data, seed=7)
    again = stats.bca_mean(data, seed=7)
    direct = st.bootstrap(
        (np.array(data),),
        np.mean,
        method="BCa",
        n_resamples=stats.RESAMPLES,
        rng=np.random.default_rng(7),
    ).confidence_interval
    assert ours == again
    assert ours == pytest.approx((direct.low, direct.high))
    assert ours is not None and ours[0] < np.mean(data) < ours[1]
    assert stats.bca_mean(data, seed=8) != ours  # the seed is what makes it repeat


def test_bca_without_spread_is_the_value_and_one_value_has_no_interval() -> None:
    assert stats.bca_mean([0.5, 0.5, 0.5]) == (0.5, 0.5)
    assert stats.bca_mean([0.5]) is None


def test_cluster_weights_draw_every_group_count_once_per_resample() -> None:
    weights = stats.cluster_weights(7, seed=1, resamples=50)
    assert weights.shape == (50, 7)
    assert (weights.sum(axis=1) == 7).all()
    assert (stats.cluster_weights(7, seed=1, resamples=50) == weights).all()


def test_median_and_iqr() -> None:
    assert stats.median_iqr([1, 2, 3, 4]) == (2.5, 1.75, 3.25)


def test_f1_from_counts() -> None:
    assert measures.f1_of(8, 2, 2) == pytest.approx(0.8)
    assert measures.f1_of(0, 3, 5) == 0.0
    assert measures.f1_of(0, 0, 0) is None


def test_normalise_strips_html_case_and_spacing() -> None:
    assert measures.normalise("<p>Hello   <b>World</b></p>\n&amp; more") == "hello world & more"


def test_jaccard_of_normalised_word_sets() -> None:
    assert measures.jaccard("a b c", "B  c d") == 0.5
    assert measures.jaccard("", "") == 1.0
    assert measures.mean_pairwise_jaccard(["a b", "a b", "c d"]) == pytest.approx(1 / 3)
    assert measures.mean_pairwise_jaccard(["only one"]) is None


@pytest.mark.parametrize(
    ("similarity", "score"),
    [(1.0, 100), (0.9, 100), (0.85, 90), (0.8, 80), (0.7, 70), (0.6, 60), (0.5, 50), (0.3, 30)],
)
def test_consistency_follows_seed_000_table(similarity: float, score: float) -> None:
    assert measures.consistency_score(similarity) == pytest.approx(score)


def test_keyword_recall_ignores_case_and_spacing() -> None:
    assert measures.keyword_recall(["Snake_case", "ISO  8601"], "use snake_case and iso 8601") == 1
    assert measures.keyword_recall(["a", "zzz"], "a b") == 0.5


def test_greedy_match_is_seed_004s() -> None:
    # Each expected item takes the best unused generated item at ≥ 30 % of its keywords.
    match = measures.greedy_match(
        [["key concept"], ["key concept", "answer"]], ["the key concept", "unrelated line"]
    )
    assert (match.matched, match.expected, match.generated) == (1, 2, 2)
    assert (match.precision, match.recall, match.f1) == (0.5, 0.5, 0.5)
    below = measures.greedy_match([["a", "b", "c", "d"]], ["a only"])
    assert below.matched == 0  # 1 of 4 keywords is under the threshold


def test_reply_items_are_list_items_when_there_are_any() -> None:
    assert measures.reply_items("Intro\n- one\n2. two\n") == ["one", "two"]
    assert measures.reply_items("first line\n\nsecond line") == ["first line", "second line"]


def test_case_quality_averages_keyword_recall_and_item_f1() -> None:
    case = EvalCase(
        "c", "p", True, expected_keywords=("blank", "zzz"), expected_items=(("blank rows",),)
    )
    assert measures.case_quality(case, "- drop blank rows") == pytest.approx((0.5 + 1.0) / 2)
    assert measures.case_quality(EvalCase("c", "p", True), "anything") is None
