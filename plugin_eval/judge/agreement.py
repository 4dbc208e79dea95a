"""How far independent judges agree: Krippendorff's alpha on the band scale, with an interval.

The units are the skill's judged dimensions, the coders its judges, the values the bands 0–4,
compared as ordinal data (the ``krippendorff`` package). The interval resamples the judges
with replacement (``RESAMPLES`` times, a fixed seed), leaves out the draws of a single judge
repeated (one judge agrees with itself), and takes the central 95 % of the alphas that are
defined. Alpha is undefined (None) with fewer than two judges, or when every judge
gave every dimension the same band: there is then no disagreement to measure and no spread of
bands to measure it against.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from plugin_eval.montecarlo.stats import RESAMPLES, SEED
from plugin_eval.scoring.composite import central

BANDS = (0, 1, 2, 3, 4)


@dataclass(frozen=True, repr=False)
class Agreement:
    alpha: float | None
    interval: tuple[float, float] | None
    judges: int
    units: int


def _alpha(data: np.ndarray) -> float | None:
    import krippendorff

    pairable = np.sum(~np.isnan(data), axis=0) >= 2
    if data.shape[0] < 2 or not pairable.any():
        return None
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(
            krippendorff.alpha(
                reliability_data=data[:, pairable],
                level_of_measurement="ordinal",
                value_domain=BANDS,
            )
        )
    return value if np.isfinite(value) else None


def agreement(bands: Sequence[Sequence[int | None]]) -> Agreement:
    """``bands[j][u]``: judge j's band for unit u, or None when that judge gave none."""
    data = np.array(
        [[np.nan if b is None else float(b) for b in row] for row in bands], dtype=float
    ).reshape(len(bands), -1)
    judges, units = data.shape
    point = _alpha(data)
    if point is None:
        return Agreement(None, None, judges, units)
    rng = np.random.default_rng(SEED)
    picks = (rng.integers(0, judges, judges) for _ in range(RESAMPLES))
    # A draw of one judge over and over agrees with itself, not with another judge: it
    # measures nothing and is left out (with three judges, one draw in nine).
    draws = [_alpha(data[p]) for p in picks if len(set(p.tolist())) > 1]
    bounds = central([d for d in draws if d is not None])
    interval = None if bounds is None else (min(bounds[0], point), max(bounds[1], point))
    return Agreement(round(point, 4), _rounded(interval), judges, units)


def _rounded(bounds: tuple[float, float] | None) -> tuple[float, float] | None:
    return None if bounds is None else (round(bounds[0], 4), round(bounds[1], 4))
