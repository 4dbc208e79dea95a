"""What the Monte Carlo layer produces: plain dataclasses, read by the engine and reporters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, repr=False)
class Estimate:
    """A value with its 95 % interval; ``method`` names how the interval was made."""

    value: float | None
    lower: float | None
    upper: float | None
    method: str
    n: int

    @property
    def width(self) -> float | None:
        if self.lower is None or self.upper is None:
            return None
        return self.upper - self.lower


@dataclass(frozen=True, repr=False)
class RunRecord:
    """One run: a routing decision for one prompt, and the reply when the skill was active."""

    case: int
    sample: int
    picked: str | None  # a candidate key or "none"; None when the routing call failed
    route_error: str | None = None
    scores: Mapping[str, float] = field(default_factory=dict)
    answer: str | None = None
    answer_tokens: int | None = None
    answer_error: str | None = None
    answered: bool = False  # an answer call was made
    quality: float | None = None


@dataclass(frozen=True, repr=False)
class PromptOutcome:
    id: str
    prompt: str
    should_trigger: bool
    source: str
    owner: str | None
    runs: int
    failed: int
    triggered: int
    rate: Estimate
    picked: Mapping[str, int]
    outcome: str  # pass, missed, false_trigger, failed
    quality: float | None
    consistency: float | None
    scores: Mapping[str, float]


@dataclass(frozen=True, repr=False)
class Triggering:
    tp: int
    fp: int
    fn: int
    tn: int
    failed: int
    precision: Estimate
    recall: Estimate
    f1: Estimate
    stolen_by: Mapping[str, int]
    false_triggers_from: Mapping[str, int]


@dataclass(frozen=True, repr=False)
class Matching:
    """Seed 004's greedy best match summed over replies: counts, its metrics, and the mean
    score of the matched pairs (0 when none matched)."""

    replies: int
    expected: int
    generated: int
    matched: int
    precision: float
    recall: float
    f1: float
    avg_similarity: float


@dataclass(frozen=True, repr=False)
class StructuredQuality:
    """Seed 000's structured-data quality, each sub-score (0–100) the mean over the replies
    to the cases that expect JSON; a reply with no JSON object scores 0 on each."""

    completeness: float
    accuracy: float
    type_correctness: float
    sufficiency: float
    score: float
    replies: int
    not_json: int
    not_json_reasons: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, repr=False)
class Quality:
    mean: Estimate
    method: str
    cases: int
    item_match: Matching | None = None  # cases with expected_items
    card_match: Matching | None = None  # cases with expected_cards (seed 004's dataset)
    structured: StructuredQuality | None = None  # cases with expected_json or expected_schema


@dataclass(frozen=True, repr=False)
class Consistency:
    mean_jaccard: float
    score: float  # 0–100, seed 000's table
    prompts: int


@dataclass(frozen=True, repr=False)
class Failures:
    failures: int
    calls: int
    rate: Estimate
    by_kind: Mapping[str, int]
    first_message: str | None


@dataclass(frozen=True, repr=False)
class Tokens:
    median: float
    q1: float
    q3: float
    answers: int


@dataclass(frozen=True, repr=False)
class Usage:
    calls: int
    backend_calls: int
    cached_calls: int
    retries: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    saved_by_cache_usd: float | None
    price_per_mtok: tuple[float, float] | None


@dataclass(frozen=True, repr=False)
class CandidateInfo:
    name: str
    path: str
    target: bool


@dataclass(frozen=True, repr=False)
class MonteCarloResult:
    backend: str
    model: str
    base_url: str | None
    simulated: bool
    runs_requested: int
    runs: int
    distinct_prompts: int
    prompt_origin: str
    stop_reason: str | None  # None, "ci_width", "max_cost"
    partial: bool
    ci_width: float | None
    candidates: tuple[CandidateInfo, ...]
    distractor_source: str
    distractors_found: int
    distractors_skipped: Mapping[str, int]
    triggering: Triggering | None
    quality: Quality | None
    consistency: Consistency | None
    failures: Failures
    tokens: Tokens | None
    usage: Usage
    prompts: tuple[PromptOutcome, ...]
    resamples: int
    seed: int
