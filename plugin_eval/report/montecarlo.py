"""The Monte Carlo layer in the report: its measures, intervals, prompts and accounting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:  # only a run with the Monte Carlo layer builds these
    from plugin_eval.montecarlo.results import (
        Estimate,
        Matching,
        MonteCarloResult,
        PromptOutcome,
        StructuredQuality,
        Usage,
    )


# Default factories are functions of ours, not `list` or `dict`: pydantic reads each factory's
# signature when it builds a model, and a builtin type's signature is parsed from its text with
# `tokenize` (compiling its patterns: some 2 ms of every run's start).
def _no_reasons() -> dict[str, int]:
    return {}


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class IntervalOut(_Model):
    value: float | None
    ci_lower: float | None
    ci_upper: float | None
    method: str = Field(
        description="wilson, clopper-pearson, BCa bootstrap, or percentile bootstrap over prompts"
    )
    n: int = Field(description="Trials (runs, calls or replies) behind the value.")

    def text(self) -> str:
        """'0.94 [0.77–1.00]', the bare value without an interval, or '—' with no value."""
        if self.value is None:
            return "—"
        if self.ci_lower is None or self.ci_upper is None:
            return f"{self.value:.2f}"
        return f"{self.value:.2f} [{self.ci_lower:.2f}–{self.ci_upper:.2f}]"


class TriggeringOut(_Model):
    tp: int
    fp: int
    fn: int
    tn: int
    failed_runs: int = Field(description="Routing calls that failed; left out of the counts.")
    precision: IntervalOut
    recall: IntervalOut
    f1: IntervalOut
    stolen_by: dict[str, int] = Field(
        description="Runs of should-trigger prompts won by another skill (or 'none'), by name."
    )
    false_triggers_from: dict[str, int] = Field(
        description="Runs of should-not prompts this skill took, by the skill they belong to."
    )


class PromptOut(_Model):
    id: str
    prompt: str
    should_trigger: bool
    source: str = Field(description="Where the prompt came from (eval file, generator source).")
    owner: str | None = Field(description="For a near miss: the skill that should take it.")
    runs: int
    failed: int
    triggered: int
    trigger_rate: IntervalOut
    picked: dict[str, int] = Field(description="Which skill (or 'none') each run picked.")
    outcome: str = Field(description="pass, missed, false_trigger, or failed (every run failed).")
    quality: float | None
    consistency: float | None = Field(description="Mean pairwise Jaccard of its replies.")
    router_match: dict[str, float] = Field(
        description="Offline router only: the best three candidates' match (0–1) for the prompt."
    )


class MatchOut(_Model):
    """Seed 004's greedy best match, summed over every reply to the cases that expect it."""

    replies: int
    expected: int = Field(description="Expected items or cards, over all those replies.")
    generated: int = Field(description="Items or cards the replies wrote.")
    matched: int = Field(description="Pairs at or above seed 004's threshold (0.3).")
    precision: float = Field(description="matched / generated.")
    recall: float = Field(description="matched / expected.")
    f1: float = Field(description="Harmonic mean of precision and recall.")
    avg_similarity: float = Field(
        description="Mean score of the matched pairs (for cards, seed 004's weighted pair "
        "score); 0 when none matched."
    )

    def text(self) -> str:
        """'precision 0.33  recall 1.00  F1 0.50  avg similarity 1.00 (1 of 1 expected, …)'."""
        return (
            f"precision {self.precision:.2f}  recall {self.recall:.2f}  F1 {self.f1:.2f}  "
            f"avg similarity {self.avg_similarity:.2f} ({self.matched} of {self.expected} "
            f"expected matched, {self.generated} written, {self.replies} replies)"
        )


class StructuredOut(_Model):
    """Seed 000's structured-data quality: each sub-score (0–100) the mean over the replies."""

    completeness: float = Field(description="Required fields present / required fields.")
    accuracy: float = Field(
        description="Mean match of the values present: exact 100, partial 60–80, inconsistent "
        "below 50."
    )
    type_correctness: float = Field(
        description="Fields present whose value has the declared type / fields present."
    )
    sufficiency: float = Field(
        description="Optional fields present / optional fields the source holds (100 when "
        "there are none)."
    )
    score: float = Field(
        description="completeness × 0.30 + accuracy × 0.40 + type_correctness × 0.15 + "
        "sufficiency × 0.15 (seed 000's structuring quality score)."
    )
    replies: int
    not_json: int = Field(description="Replies with no JSON object, each scored 0.")
    not_json_reasons: dict[str, int] = Field(
        default_factory=_no_reasons,
        description="Those replies by reason: 'not JSON', or 'JSON, but not an object'.",
    )


class QualityOut(_Model):
    mean: IntervalOut
    method: str
    cases: int
    item_match: MatchOut | None = Field(
        default=None, description="Seed 004's match of the cases with expected_items."
    )
    card_match: MatchOut | None = Field(
        default=None,
        description="Seed 004's match of the cases with expected_cards: front and back "
        "keyword similarity 0.5 each, or 0.4 each and 0.2 for the card's type when one is "
        "expected.",
    )
    structured: StructuredOut | None = Field(
        default=None,
        description="Seed 000's structured-data quality of the cases with expected_json or "
        "expected_schema.",
    )


class ConsistencyOut(_Model):
    mean_jaccard: float
    score: float = Field(description="0–100 by seed 000's table.")
    prompts: int


class FailuresOut(_Model):
    failures: int
    calls: int
    rate: IntervalOut
    by_kind: dict[str, int]
    first_message: str | None


class TokensOut(_Model):
    median_output_tokens: float
    q1: float
    q3: float
    replies: int


class UsageOut(_Model):
    calls: int = Field(description="Calls answered, from the backend or the cache.")
    backend_calls: int = Field(description="Requests sent to the backend, retries included.")
    cached_calls: int
    retries: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None = Field(description="Spent by this run; null when no price is known.")
    saved_by_cache_usd: float | None
    price_per_mtok: list[float] | None = Field(description="USD per million tokens: [in, out].")


class CandidateOut(_Model):
    name: str
    path: str
    target: bool


class DistractorsOut(_Model):
    source: str
    found: int
    skipped: dict[str, int]
    candidates: list[CandidateOut]


class MonteCarloOut(_Model):
    backend: str
    model: str
    base_url: str | None
    simulated: bool = Field(
        description="True for the offline backend: a lexical router, not a model."
    )
    runs_requested: int
    runs: int
    distinct_prompts: int
    prompt_source: str
    stopped_early: str | None = Field(description="null, 'ci_width' or 'max_cost'.")
    partial: bool = Field(description="True when --max-cost stopped the runs.")
    ci_width: float | None
    distractors: DistractorsOut
    triggering: TriggeringOut | None
    output_quality: QualityOut | None
    consistency: ConsistencyOut | None
    failures: FailuresOut
    tokens: TokensOut | None
    usage: UsageOut
    bootstrap_resamples: int
    bootstrap_seed: int
    prompts: list[PromptOut]


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def interval(e: Estimate) -> IntervalOut:
    return IntervalOut(
        value=_r(e.value), ci_lower=_r(e.lower), ci_upper=_r(e.upper), method=e.method, n=e.n
    )


def _match(m: Matching | None) -> MatchOut | None:
    if m is None:
        return None
    return MatchOut(
        replies=m.replies,
        expected=m.expected,
        generated=m.generated,
        matched=m.matched,
        precision=round(m.precision, 4),
        recall=round(m.recall, 4),
        f1=round(m.f1, 4),
        avg_similarity=round(m.avg_similarity, 4),
    )


def _structured(s: StructuredQuality | None) -> StructuredOut | None:
    if s is None:
        return None
    return StructuredOut(
        completeness=round(s.completeness, 2),
        accuracy=round(s.accuracy, 2),
        type_correctness=round(s.type_correctness, 2),
        sufficiency=round(s.sufficiency, 2),
        score=round(s.score, 2),
        replies=s.replies,
        not_json=s.not_json,
        not_json_reasons=dict(s.not_json_reasons),
    )


def _prompt(p: PromptOutcome) -> PromptOut:
    return PromptOut(
        id=p.id,
        prompt=p.prompt,
        should_trigger=p.should_trigger,
        source=p.source,
        owner=p.owner,
        runs=p.runs,
        failed=p.failed,
        triggered=p.triggered,
        trigger_rate=interval(p.rate),
        picked=dict(p.picked),
        outcome=p.outcome,
        quality=_r(p.quality),
        consistency=_r(p.consistency),
        router_match={k: round(v, 4) for k, v in p.scores.items()},
    )


def usage_out(u: Usage) -> UsageOut:
    return UsageOut(
        calls=u.calls,
        backend_calls=u.backend_calls,
        cached_calls=u.cached_calls,
        retries=u.retries,
        input_tokens=u.input_tokens,
        output_tokens=u.output_tokens,
        cost_usd=u.cost_usd,
        saved_by_cache_usd=u.saved_by_cache_usd,
        price_per_mtok=list(u.price_per_mtok) if u.price_per_mtok else None,
    )


def monte_carlo_out(mc: MonteCarloResult) -> MonteCarloOut:
    t, q, c, f, k, u = mc.triggering, mc.quality, mc.consistency, mc.failures, mc.tokens, mc.usage
    return MonteCarloOut(
        backend=mc.backend,
        model=mc.model,
        base_url=mc.base_url,
        simulated=mc.simulated,
        runs_requested=mc.runs_requested,
        runs=mc.runs,
        distinct_prompts=mc.distinct_prompts,
        prompt_source=mc.prompt_origin,
        stopped_early=mc.stop_reason,
        partial=mc.partial,
        ci_width=mc.ci_width,
        distractors=DistractorsOut(
            source=mc.distractor_source,
            found=mc.distractors_found,
            skipped=dict(mc.distractors_skipped),
            candidates=[
                CandidateOut(name=x.name, path=x.path, target=x.target) for x in mc.candidates
            ],
        ),
        triggering=None
        if t is None
        else TriggeringOut(
            tp=t.tp,
            fp=t.fp,
            fn=t.fn,
            tn=t.tn,
            failed_runs=t.failed,
            precision=interval(t.precision),
            recall=interval(t.recall),
            f1=interval(t.f1),
            stolen_by=dict(t.stolen_by),
            false_triggers_from=dict(t.false_triggers_from),
        ),
        output_quality=None
        if q is None
        else QualityOut(
            mean=interval(q.mean),
            method=q.method,
            cases=q.cases,
            item_match=_match(q.item_match),
            card_match=_match(q.card_match),
            structured=_structured(q.structured),
        ),
        consistency=None
        if c is None
        else ConsistencyOut(mean_jaccard=c.mean_jaccard, score=c.score, prompts=c.prompts),
        failures=FailuresOut(
            failures=f.failures,
            calls=f.calls,
            rate=interval(f.rate),
            by_kind=dict(f.by_kind),
            first_message=f.first_message,
        ),
        tokens=None
        if k is None
        else TokensOut(
            median_output_tokens=round(k.median, 2),
            q1=round(k.q1, 2),
            q3=round(k.q3, 2),
            replies=k.answers,
        ),
        usage=usage_out(u),
        bootstrap_resamples=mc.resamples,
        bootstrap_seed=mc.seed,
        prompts=[_prompt(p) for p in mc.prompts],
    )
