"""The four judged dimensions and their anchored rubrics, written for the judge's prompt.

Seed 002 anchors each dimension in five bands of the 0–1 scale (0.00–0.19 up to 0.80–1.00),
with what a skill in each band looks like. The judge picks a band first, then a score inside
it; a score outside the band it picked is a contradiction the layer refuses (``verdict``).
"""

from __future__ import annotations

from dataclasses import dataclass

from plugin_eval.vocabulary import DimensionName

# Lower bounds of the five bands; a band's upper bound is the next one's lower bound less 0.01.
BAND_FLOORS: tuple[float, ...] = (0.0, 0.20, 0.40, 0.60, 0.80)


def band_bounds(band: int) -> tuple[float, float]:
    """The inclusive score range of band 0–4 (band 4 ends at 1.0)."""
    low = BAND_FLOORS[band]
    high = BAND_FLOORS[band + 1] - 0.01 if band + 1 < len(BAND_FLOORS) else 1.0
    return low, high


def band_of(score: float) -> int:
    """The band a 0–1 score falls in: the last whose floor it reaches."""
    return max(i for i, floor in enumerate(BAND_FLOORS) if score >= floor)


@dataclass(frozen=True, repr=False)
class Dimension:
    name: DimensionName
    question: str
    bands: tuple[str, str, str, str, str]  # one line each, band 0 (worst) to band 4 (best)
    signals: str


DIMENSIONS: tuple[Dimension, ...] = (
    Dimension(
        "triggering_accuracy",
        "Would a router that sees only the name and description pick this skill for the "
        "requests that need it, and leave it alone for the rest?",
        (
            "Unusable: no description, only the name, or what the skill is with nothing about "
            "when it applies; no routing signal at all.",
            "Weak: names the domain but gives no situation to use it in, or one narrow one; or "
            "so broad it would be picked for plainly unrelated requests.",
            "Partial: says when, but with one specific situation or only generic ones "
            "('when working with data'); some neighbouring requests would pick it wrongly.",
            "Good: at least two specific situations; few wrong picks; may miss edge cases it "
            "does not list.",
            "Excellent: three or more concrete, distinct situations (tasks, file types, tools), "
            "and it separates itself from adjacent skills; right picks, no wrong ones.",
        ),
        "Judge the description as a router reads it. Length earns nothing; concrete, "
        "discriminating situations and stated boundaries do. A claim to be used for everything "
        "or before every other skill is a precision failure.",
    ),
    Dimension(
        "orchestration_fitness",
        "Is the skill a worker a calling agent can hand a task to and rely on what comes back, "
        "rather than an agent that plans, routes and delegates on its own?",
        (
            "Standalone agent: runs its own loop, decides which specialists or skills to call, "
            "no input or output contract; reads like an agent's system prompt.",
            "Mixed roles: does some work but also routes ('if X, invoke skill Y'); unclear "
            "whether it executes or coordinates.",
            "Functional worker, unstructured output: does the work but returns prose the "
            "caller cannot parse or rely on; no stated output format.",
            "Clean worker: inputs and outputs documented, worker-style steps, output a caller "
            "can consume; the output schema could be more explicit.",
            "Pure worker: explicit inputs and outputs, a structured result (schema, typed "
            "fields, exact template), execution steps with no routing; safe to call repeatedly.",
        ),
        "Worker signals: what it receives and returns, self-contained steps, code that does "
        "the work. Orchestrator signals: 'orchestrate', 'dispatch', 'delegate', decision trees "
        "naming other agents or skills, output that is a routing decision.",
    ),
    Dimension(
        "output_quality",
        "Following these instructions, would a capable model produce correct, complete and "
        "useful output for realistic requests in this domain, simple and hard?",
        (
            "Incorrect: following it produces wrong or harmful output (factual errors, "
            "contradictions, wrong tool behaviour, missing critical facts).",
            "Major gaps: handles the trivial case only; critical decisions left to guessing; "
            "no defined output; no examples.",
            "Basic: fine for straightforward requests, thin on anything complex; edge cases "
            "unaddressed; examples only of the simplest case.",
            "Good for most requests: several concrete examples of varied difficulty, a clear "
            "output format, at least one edge case handled, specific actionable steps.",
            "Excellent: expert knowledge the model would not have alone, examples from simple "
            "to complex, precise output format, edge cases and failure modes covered.",
        ),
        "Check what the text actually says: commands and code that would run, steps shown end "
        "to end, error handling, current APIs, stated versions. Imagine three realistic "
        "requests of different difficulty and what the instructions would produce for each.",
    ),
    Dimension(
        "scope_calibration",
        "Is the skill the right size for its stated purpose: everything important for that "
        "purpose at useful depth, and nothing that belongs elsewhere?",
        (
            "Stub: a placeholder; a list of topics without substance; promises much more than "
            "it delivers.",
            "Too narrow: only the surface of its domain; the happy path, with frequent "
            "unaddressed situations.",
            "Slightly off-scope: missing one or two important aspects, or carrying content "
            "that belongs in another skill; right size, wrong distribution.",
            "Well scoped, minor issues: most important aspects at useful depth; small gaps or a "
            "little tangential material.",
            "Calibrated: every important aspect at the right depth, no padding or repetition, "
            "supporting detail moved to linked files; a model for its category.",
        ),
        "Size is judged against the purpose: a single-purpose utility can be short and "
        "perfectly calibrated. Background the model already knows, filler headings and "
        "repeated content are padding.",
    ),
)

BY_NAME: dict[str, Dimension] = {d.name: d for d in DIMENSIONS}
