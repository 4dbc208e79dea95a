"""The measuring half of the Monte Carlo layer: from run records to dimension scores.

How each measure becomes a 0–1 dimension score (the layer's ``sub_scores``):

- triggering_accuracy ← F1 of the routing runs: 2·TP / (2·TP + FP + FN), where a run is
  one routing decision for one prompt (failed calls are left out and counted as failures);
- output_quality ← the mean, over replies to cases with expectations, of keyword recall,
  greedy item F1 or greedy card F1 (seed 004; a card pair scores by its weighted pair
  score), seed 000's structured quality / 100 (a case with ``expected_json`` or
  ``expected_schema``), or the mean of those a case has; seed 004's precision, recall, F1
  and mean similarity of matched pairs, summed over the replies, and seed 000's four
  sub-scores, averaged over them, go with it as evidence;
- token_efficiency ← max(0, 1 − median output tokens / 8000) (seed 002); input, and so the skill
  text sent with each request, is not counted;
- robustness ← 1 − failure rate of every call, averaged with consistency / 100 (seed 000)
  when some prompt has two or more replies.

A dimension with no data (no expectations, no replies: always so offline) is not scored,
never 0. The composite's interval (and F1's) is the central 95 % of the composite
recomputed on bootstrap resamples of the prompts, each drawn with all its runs (so repeats
of one prompt never count as independent evidence), the static layer fixed; it is widened
to hold the estimate when the percentile interval misses it. When every prompt gave the
same outcome every resample agrees and the interval has no width: the Wilson intervals of
precision and recall then show what that many prompts can tell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from plugin_eval.evidence import Evidence, SubScore
from plugin_eval.montecarlo import measures, stats
from plugin_eval.montecarlo.backends.base import public_url
from plugin_eval.montecarlo.results import (
    CandidateInfo,
    Consistency,
    Failures,
    MonteCarloResult,
    Quality,
    RunRecord,
    StructuredQuality,
    Tokens,
    Triggering,
    Usage,
)
from plugin_eval.montecarlo.runner import BackendBroken
from plugin_eval.results import LayerOutcome
from plugin_eval.scoring import composite as comp
from plugin_eval.scoring.composite import central
from plugin_eval.vocabulary import Layer

if TYPE_CHECKING:
    from plugin_eval.montecarlo.backends.base import Backend
    from plugin_eval.montecarlo.distractors import CandidateSet
    from plugin_eval.montecarlo.prompts import EvalCase, PromptSet
    from plugin_eval.montecarlo.settings import MonteCarloSettings

FEEDS = {
    "triggering_f1": "triggering_accuracy",
    "output_quality": "output_quality",
    "token_efficiency": "token_efficiency",
    "robustness": "robustness",
}
TOKEN_BUDGET = 8000.0  # seed 002: token efficiency is 1 − median_tokens / 8000


@dataclass
class Collected:
    backend: Backend
    settings: MonteCarloSettings
    candidates: CandidateSet
    prompt_set: PromptSet
    records: list[RunRecord]
    planned: int
    stop_reason: str | None
    usage: Usage
    messages: list[str]
    notes: list[str]


@dataclass(frozen=True, repr=False)
class PerPrompt:
    """Per distinct prompt, what the measures sum, so resampling prompts is a weighted sum."""

    decided: NDArray[np.float64]  # runs whose routing call succeeded
    hits: NDArray[np.float64]  # of those, runs that picked the target
    should: NDArray[np.float64]  # 1 for a should-trigger prompt, else 0
    quality_sum: NDArray[np.float64]
    quality_n: NDArray[np.float64]
    failures: NDArray[np.float64]
    calls: NDArray[np.float64]
    consistency: NDArray[np.float64]  # mean pairwise Jaccard; NaN under two replies
    tokens: NDArray[np.float64]
    token_prompt: NDArray[np.int64]
    answered: bool


def per_prompt(records: Sequence[RunRecord], cases: Sequence[EvalCase], target: str) -> PerPrompt:
    order = sorted({r.case for r in records})
    where = {case: i for i, case in enumerate(order)}
    n = len(order)
    decided, hits = np.zeros(n), np.zeros(n)
    should = np.array([1.0 if cases[case].should_trigger else 0.0 for case in order])
    q_sum, q_n, fails, calls = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    answers: list[list[str]] = [[] for _ in range(n)]
    tokens: list[float] = []
    token_prompt: list[int] = []
    for r in records:
        i = where[r.case]
        calls[i] += 1 + (1 if r.answered else 0)
        fails[i] += (1 if r.route_error else 0) + (1 if r.answer_error else 0)
        if r.picked is not None:
            decided[i] += 1
            hits[i] += r.picked == target
        if r.quality is not None:
            q_sum[i] += r.quality
            q_n[i] += 1
        if r.answer is not None:
            answers[i].append(r.answer)
        if r.answer_tokens is not None:
            tokens.append(float(r.answer_tokens))
            token_prompt.append(i)
    consistency = np.array(
        [
            value if (value := measures.mean_pairwise_jaccard(a)) is not None else np.nan
            for a in answers
        ]
    )
    return PerPrompt(
        decided,
        hits,
        should,
        q_sum,
        q_n,
        fails,
        calls,
        consistency,
        np.array(tokens),
        np.array(token_prompt, dtype=np.int64),
        any(r.answered for r in records),
    )


def mc_dimensions(pp: PerPrompt, weights: NDArray[np.float64]) -> dict[str, float]:
    """The layer's dimension scores for one weighting of the prompts (all ones: the data)."""
    out: dict[str, float] = {}
    f1 = measures.f1_of(*_confusion(pp, weights))
    if f1 is not None:
        out["triggering_accuracy"] = f1
    answered_n = float(weights @ pp.quality_n)
    if answered_n:
        out["output_quality"] = float(weights @ pp.quality_sum) / answered_n
    if pp.tokens.size:
        drawn = np.repeat(pp.tokens, weights[pp.token_prompt].astype(np.int64))
        if drawn.size:
            out["token_efficiency"] = max(0.0, 1.0 - float(np.median(drawn)) / TOKEN_BUDGET)
    calls = float(weights @ pp.calls)
    if pp.answered and calls:
        parts = [1.0 - float(weights @ pp.failures) / calls]
        mask = np.isfinite(pp.consistency) & (weights > 0)
        if mask.any():
            mean = float(np.average(pp.consistency[mask], weights=weights[mask]))
            parts.append(measures.consistency_score(mean) / 100.0)
        out["robustness"] = sum(parts) / len(parts)
    return out


def _confusion(
    pp: PerPrompt, weights: NDArray[np.float64] | None = None
) -> tuple[float, float, float]:
    """TP, FP and FN for one weighting of the prompts."""
    w = np.ones(len(pp.decided)) if weights is None else weights
    return (
        float(w @ (pp.should * pp.hits)),
        float(w @ ((1 - pp.should) * pp.hits)),
        float(w @ (pp.should * (pp.decided - pp.hits))),
    )


def _f1_interval(
    pp: PerPrompt, weights: NDArray[np.float64], point: float | None
) -> tuple[float, float] | None:
    tp = weights @ (pp.should * pp.hits)
    fn = weights @ (pp.should * (pp.decided - pp.hits))
    fp = weights @ ((1 - pp.should) * pp.hits)
    denominator = 2 * tp + fp + fn
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(denominator > 0, 2 * tp / denominator, np.nan)
    return _around(central(values), point)


def _around(bounds: tuple[float, float] | None, point: float | None) -> tuple[float, float] | None:
    """A percentile interval widened, if need be, to hold the estimate it belongs to."""
    if bounds is None or point is None:
        return bounds
    return min(bounds[0], point), max(bounds[1], point)


def narrow(
    records: Sequence[RunRecord], cases: Sequence[EvalCase], target: str, width: float
) -> bool:
    """Is every interval the layer reports narrower than ``width``?"""
    pp = per_prompt(records, cases, target)
    weights = stats.cluster_weights(len(pp.decided)).astype(float)
    point = measures.f1_of(*_confusion(pp))
    trig = measures.triggering(records, cases, target, {}, _f1_interval(pp, weights, point))
    estimates = [measures.failures(records, []).rate]
    if trig is not None:
        estimates += [trig.precision, trig.recall, trig.f1]
    quality = measures.quality(records, cases)
    if quality is not None:
        estimates.append(quality.mean)
    widths = [e.width for e in estimates]
    return all(w is not None and w < width for w in widths)


def measure(c: Collected) -> LayerOutcome:
    """What the runs measured: the layer's dimension scores, their resamples, its evidence."""
    cases = c.prompt_set.cases
    target = c.candidates.target.key
    names = c.candidates.names
    pp = per_prompt(c.records, cases, target)
    if not len(pp.decided):
        raise BackendBroken("no run finished, so there is nothing to measure")
    weights = stats.cluster_weights(len(pp.decided)).astype(float)
    f1_interval = _f1_interval(pp, weights, measures.f1_of(*_confusion(pp)))
    trig = measures.triggering(c.records, cases, target, names, f1_interval)
    outcomes = measures.prompt_outcomes(c.records, cases, target, names)
    quality = measures.quality(c.records, cases)
    consistency = measures.consistency(outcomes)
    failures = measures.failures(c.records, c.messages)
    tokens = measures.tokens(c.records)

    dims = mc_dimensions(pp, np.ones(len(pp.decided)))
    subscores = _evidence(dims, trig, quality, consistency, failures, tokens)
    resamples: tuple[Mapping[str, float], ...] = ()
    if dims:
        resamples = tuple(
            {k: round(v, 4) for k, v in mc_dimensions(pp, row).items()} for row in weights
        )
    share = {d: comp.DIMENSION_WEIGHTS[d] for d in dims}
    layer_score = (
        round(sum(share[d] * dims[d] for d in dims) / sum(share.values()), 4) if dims else None
    )
    backend = c.backend
    notes = list(c.prompt_set.notes) + c.notes
    if backend.simulated:
        notes.insert(
            0,
            "offline backend: routing is simulated by a lexical (BM25) router over skill names "
            "and descriptions, not decided by a model; output quality, consistency, robustness "
            "and token efficiency need a model backend (--backend anthropic|openai)",
        )
    if resamples and _no_width(resamples):
        notes.append(
            f"the {len(pp.decided)} prompts gave the same outcome in at least 95 % of the "
            "bootstrap resamples, so the interval has no width; the Wilson intervals of "
            "precision and recall show what that many prompts can tell"
        )
    if c.stop_reason == "ci_width":
        notes.append(
            f"stopped early after {len(c.records)} of {c.planned} runs: every interval was "
            f"narrower than {c.settings.ci_width:g}"
        )
    elif c.stop_reason == "max_cost":
        given, judged = c.settings.max_cost or 0.0, c.settings.spent_before
        spent = f" (the judge spent {judged:g} of it)" if judged else ""
        notes.append(
            f"stopped at --max-cost {given + judged:g} USD{spent} after {len(c.records)} of "
            f"{c.planned} runs: results are partial"
        )
    detail = MonteCarloResult(
        backend=backend.name,
        model=backend.model,
        base_url=public_url(backend.base_url),
        simulated=backend.simulated,
        runs_requested=c.settings.runs,
        runs=len(c.records),
        distinct_prompts=len({r.case for r in c.records}),
        prompt_origin=c.prompt_set.origin,
        stop_reason=c.stop_reason,
        partial=c.stop_reason == "max_cost",
        ci_width=c.settings.ci_width,
        candidates=tuple(CandidateInfo(x.name, x.path, x.target) for x in c.candidates.candidates),
        distractor_source=c.candidates.source,
        distractors_found=c.candidates.found,
        distractors_skipped=c.candidates.skipped,
        triggering=trig,
        quality=quality,
        consistency=consistency,
        failures=failures,
        tokens=tokens,
        usage=c.usage,
        prompts=outcomes,
        resamples=stats.RESAMPLES,
        seed=stats.SEED,
    )
    return LayerOutcome(
        layer=Layer.MONTE_CARLO,
        dimensions={k: round(v, 4) for k, v in dims.items()},
        subscores=subscores,
        feeds={name: FEEDS[name] for name in subscores},
        score=layer_score,
        notes=tuple(notes),
        resamples=resamples,
        monte_carlo=detail,
    )


def _no_width(resamples: Sequence[Mapping[str, float]]) -> bool:
    """Whether the central 95 % of the resampled scores is one value for every dimension:
    the interval a composite gets from them has no width (not only when all draws agree)."""
    for name in resamples[0]:
        bounds = central([r[name] for r in resamples if name in r])
        if bounds is None or bounds[0] != bounds[1]:
            return False
    return True


def _evidence(
    dims: dict[str, float],
    trig: Triggering | None,
    quality: Quality | None,
    consistency: Consistency | None,
    failures: Failures,
    tokens: Tokens | None,
) -> dict[str, SubScore]:
    out: dict[str, SubScore] = {}
    if "triggering_accuracy" in dims and trig is not None:
        p, r = trig.precision.value, trig.recall.value
        out["triggering_f1"] = _sub(
            "triggering_f1",
            dims["triggering_accuracy"],
            [
                Evidence(
                    f"F1 of {trig.tp + trig.fp + trig.fn + trig.tn} routing runs "
                    f"(TP {trig.tp}, FP {trig.fp}, FN {trig.fn}, TN {trig.tn}; precision "
                    f"{_fmt(p)}, recall {_fmt(r)})",
                    dims["triggering_accuracy"],
                )
            ],
        )
    if "output_quality" in dims and quality is not None:
        matches = "".join(
            f"; {kind}: precision {m.precision:.2f}, recall {m.recall:.2f}, F1 {m.f1:.2f}, "
            f"avg similarity {m.avg_similarity:.2f} ({m.matched} of {m.expected} matched)"
            for kind, m in (("items", quality.item_match), ("cards", quality.card_match))
            if m is not None
        )
        if quality.structured is not None:
            matches += "; " + _structured(quality.structured)
        out["output_quality"] = _sub(
            "output_quality",
            dims["output_quality"],
            [
                Evidence(
                    f"mean {quality.method} of {quality.mean.n} replies to {quality.cases} "
                    f"case(s) with expectations{matches}",
                    dims["output_quality"],
                )
            ],
        )
    if "token_efficiency" in dims and tokens is not None:
        out["token_efficiency"] = _sub(
            "token_efficiency",
            dims["token_efficiency"],
            [
                Evidence(
                    f"1 − median output tokens {tokens.median:.0f} / {TOKEN_BUDGET:.0f} "
                    f"(IQR {tokens.q1:.0f}–{tokens.q3:.0f}, {tokens.answers} replies)",
                    dims["token_efficiency"],
                )
            ],
        )
    if "robustness" in dims:
        reliability = 1.0 - (failures.rate.value or 0.0)
        if consistency is None:
            evidence = [
                Evidence(
                    f"1 − failure rate ({failures.failures} of {failures.calls} calls failed)",
                    reliability,
                )
            ]
        else:
            evidence = [
                Evidence(
                    f"½ × (1 − failure rate): {failures.failures} of {failures.calls} calls failed",
                    reliability / 2,
                ),
                Evidence(
                    f"½ × consistency {consistency.score:.0f}/100 (mean pairwise Jaccard "
                    f"{consistency.mean_jaccard:.2f} over {consistency.prompts} prompts)",
                    consistency.score / 200,
                ),
            ]
        out["robustness"] = _sub("robustness", dims["robustness"], evidence)
    return out


def _structured(s: StructuredQuality) -> str:
    """'structured: completeness 80, accuracy 100, types 90, sufficiency 100, score 93
    (2 replies, 0 not JSON)'."""
    return (
        f"structured: completeness {s.completeness:.0f}, accuracy {s.accuracy:.0f}, "
        f"types {s.type_correctness:.0f}, sufficiency {s.sufficiency:.0f}, score {s.score:.0f} "
        f"({s.replies} replies, {s.not_json} not JSON)"
    )


def _sub(name: str, score: float, evidence: list[Evidence]) -> SubScore:
    return SubScore(
        name,
        round(min(1.0, max(0.0, score)), 4),
        tuple(Evidence(e.label, round(e.points, 4)) for e in evidence),
    )


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"
