"""Intervals: Wilson and Clopper–Pearson on rates, BCa and cluster bootstraps on means.

scipy is imported here, and this module only loads when the Monte Carlo layer runs.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from scipy import stats as st

from plugin_eval.scoring.composite import LEVEL, central

Z95 = 1.959963984540054
RESAMPLES = 2000
SEED = 4


def _proportion_ci(k: int, n: int, method: str, level: float) -> tuple[float, float] | None:
    if n <= 0:
        return None
    ci = st.binomtest(k, n).proportion_ci(confidence_level=level, method=method)
    # At 0/n and n/n the bound is exactly 0 or 1; rounding must not move it.
    lower = 0.0 if k == 0 else max(0.0, float(ci.low))
    upper = 1.0 if k == n else min(1.0, float(ci.high))
    return lower, upper


def wilson(k: int, n: int, level: float = LEVEL) -> tuple[float, float] | None:
    """Wilson score interval for k successes in n trials (scipy's binomtest)."""
    return _proportion_ci(k, n, "wilson", level)


def clopper_pearson(k: int, n: int, level: float = LEVEL) -> tuple[float, float] | None:
    """Clopper–Pearson exact interval (scipy's binomtest, method 'exact')."""
    return _proportion_ci(k, n, "exact", level)


def bca_mean(values: Sequence[float], seed: int = SEED) -> tuple[float, float] | None:
    """BCa bootstrap interval of the mean (scipy.stats.bootstrap, seeded)."""
    data = np.asarray(values, dtype=float)
    if data.size < 2:
        return None
    if np.all(data == data[0]):
        return float(data[0]), float(data[0])  # no spread: BCa is undefined, the mean is exact
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = st.bootstrap(
            (data,),
            np.mean,
            method="BCa",
            confidence_level=LEVEL,
            n_resamples=RESAMPLES,
            rng=np.random.default_rng(seed),
        )
    low, high = result.confidence_interval
    if not (math.isfinite(low) and math.isfinite(high)):
        return central(bootstrap_means(data, seed))
    return float(low), float(high)


def bootstrap_means(data: NDArray[np.float64], seed: int = SEED) -> NDArray[np.float64]:
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, data.size, size=(RESAMPLES, data.size))
    means: NDArray[np.float64] = data[picks].mean(axis=1)
    return means


def cluster_weights(groups: int, seed: int = SEED, resamples: int = RESAMPLES) -> NDArray[np.int64]:
    """How often each group is drawn in each resample (groups drawn with replacement)."""
    rng = np.random.default_rng(seed)
    weights: NDArray[np.int64] = rng.multinomial(groups, [1.0 / groups] * groups, size=resamples)
    return weights


def median_iqr(values: Sequence[float]) -> tuple[float, float, float]:
    data = np.asarray(values, dtype=float)
    q1, median, q3 = np.quantile(data, [0.25, 0.5, 0.75])
    return float(median), float(q1), float(q3)
