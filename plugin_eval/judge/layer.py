"""The judge layer for one skill: N independent judgements, checked, combined and compared.

Each judge is one call with the judge tool forced (``sample`` numbers the calls, so each is a
new draw and has its own cache entry; a list of models is cycled through). A judgement whose
call failed, or whose verdict for a dimension was refused (``verdict.check``), is asked once
more as a new draw; a dimension still without a usable verdict from any judge is left
unmeasured, with a warning, never scored 0. Per dimension the layer reports the mean score of
the usable verdicts, their spread, each judge's band, and the quotes that support them; for the
skill, the judges' agreement (``agreement``). Its resamples (the judges drawn with replacement)
widen the composite's interval by the judges' spread.

A skill that carries text addressed to an evaluator (PE306) is never judged above what the
static layer gives it on a dimension the static layer measures, and the report says so; on a
dimension only the judge measures, the report carries the caveat.
"""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from plugin_eval.document import SkillDocument
from plugin_eval.evidence import Evidence, SubScore
from plugin_eval.judge.agreement import agreement
from plugin_eval.judge.material import Material, material, normalised
from plugin_eval.judge.prompt import SYSTEM, user_message
from plugin_eval.judge.results import JudgedDimension, JudgeResult
from plugin_eval.judge.rubric import DIMENSIONS
from plugin_eval.judge.verdict import JUDGE_TOOL, TOOL_NAME, Checked, check
from plugin_eval.montecarlo import costs
from plugin_eval.montecarlo.backends import make_backend
from plugin_eval.montecarlo.backends.base import Call
from plugin_eval.montecarlo.cache import ResponseCache
from plugin_eval.montecarlo.results import Usage
from plugin_eval.montecarlo.runner import BackendBroken, Runner
from plugin_eval.montecarlo.settings import MonteCarloSettings, default_cache_path
from plugin_eval.montecarlo.stats import RESAMPLES, SEED
from plugin_eval.results import LayerOutcome
from plugin_eval.scoring.composite import DIMENSION_WEIGHTS
from plugin_eval.vocabulary import Layer

JUDGE_TOKENS = 2048
# A retry is a new draw: its sample number is the judge's plus this offset.
RETRY_SAMPLE = 1000


@dataclass(frozen=True, repr=False)
class Judgement:
    """What one judge said about each dimension, after at most one retry."""

    checked: Mapping[str, Checked]
    failed: str | None = None  # why no reply could be used at all


async def _judge(
    runner: Runner, message: str, sample: int, quotable: str, messages: list[str]
) -> Judgement:
    merged: dict[str, Checked] = {}
    failure: str | None = None
    for attempt in range(2):
        call = Call(
            "judge",
            message,
            system=SYSTEM,
            tools=(JUDGE_TOOL,),
            force_tool=TOOL_NAME,
            max_tokens=JUDGE_TOKENS,
            sample=sample + attempt * RETRY_SAMPLE,
        )
        outcome = await runner.run(call)
        if outcome.skipped:
            failure = failure or "not asked: --max-cost was reached"
            break
        reply = outcome.reply
        if reply is None:
            failure = f"the call failed ({outcome.message or outcome.error})"
        elif reply.tool != TOOL_NAME:
            failure = "the reply did not call the judgement tool (a refusal?)"
            messages.append(f"judge {sample + 1}: replied without a judgement: {reply.text[:200]}")
        else:
            failure = None
            for name, got in check(reply.tool_input, quotable).items():
                before = merged.get(name)
                if before is None or before.verdict is None:
                    dropped = got.dropped_quotes + (before.dropped_quotes if before else 0)
                    merged[name] = replace(got, dropped_quotes=dropped)
        if merged and all(c.verdict is not None for c in merged.values()):
            break
    if not merged:
        return Judgement({}, failure or "no usable reply")
    return Judgement(merged, None)


def _runners(settings: MonteCarloSettings, cache: ResponseCache | None) -> list[Runner]:
    """One runner per judge model; --max-cost is shared out by the judges each one serves,
    so several models together spend no more than one would."""
    models = settings.judge_models or (settings.model_name,)
    runners = []
    for n, model in enumerate(models):
        backend = make_backend(replace(settings, model=model))
        price = settings.price or costs.price_of(backend.name, backend.model)
        served = len(range(n, settings.judges, len(models)))
        budget = None if settings.max_cost is None else settings.max_cost * served / settings.judges
        runners.append(
            Runner(
                backend,
                concurrency=settings.concurrency,
                timeout=settings.timeout,
                cache=cache,
                price=price,
                max_cost=budget,
            )
        )
    return runners


async def _collect(
    shown: Material, settings: MonteCarloSettings, messages: list[str]
) -> tuple[list[Judgement], Usage, tuple[str, ...]]:
    cache = None
    if settings.use_cache:
        cache = ResponseCache(settings.cache_path or default_cache_path())
    runners = _runners(settings, cache)
    message = user_message(shown)
    try:
        judgements = await asyncio.gather(
            *(
                _judge(runners[i % len(runners)], message, i, shown.quotable, messages)
                for i in range(settings.judges)
            )
        )
    finally:
        for runner in runners:
            await runner.backend.aclose()
        if cache is not None:
            cache.close()
            messages.extend(cache.notes)
    for runner in runners:
        messages.extend(runner.messages)
    return (
        list(judgements),
        _usage([r.usage() for r in runners]),
        tuple(r.backend.model for r in runners),
    )


def _usage(parts: Sequence[Usage]) -> Usage:
    known = [p.cost_usd for p in parts if p.cost_usd is not None]
    saved = [p.saved_by_cache_usd for p in parts if p.saved_by_cache_usd is not None]
    return Usage(
        calls=sum(p.calls for p in parts),
        backend_calls=sum(p.backend_calls for p in parts),
        cached_calls=sum(p.cached_calls for p in parts),
        retries=sum(p.retries for p in parts),
        input_tokens=sum(p.input_tokens for p in parts),
        output_tokens=sum(p.output_tokens for p in parts),
        cost_usd=round(sum(known), 6) if len(known) == len(parts) else None,
        saved_by_cache_usd=round(sum(saved), 6) if len(saved) == len(parts) else None,
        price_per_mtok=parts[0].price_per_mtok if len(parts) == 1 else None,
    )


def _dimension(name: str, judgements: Sequence[Judgement], cap: float | None) -> JudgedDimension:
    checked = [j.checked.get(name) for j in judgements]
    verdicts = [c.verdict if c is not None else None for c in checked]
    scores = [v.score for v in verdicts if v is not None]
    quotes = Counter(q for v in verdicts if v is not None for q in v.evidence)
    problems = tuple(
        f"judge {i + 1}: {c.problem if c is not None else j.failed}"
        for i, (c, j) in enumerate(zip(checked, judgements, strict=True))
        if (c is None or c.verdict is None)
    )
    mean = round(statistics.fmean(scores), 4) if scores else None
    capped = cap if mean is not None and cap is not None and mean > cap else None
    return JudgedDimension(
        name=name,
        score=capped if capped is not None else mean,
        bands=tuple(v.band if v is not None else None for v in verdicts),
        scores=tuple(v.score if v is not None else None for v in verdicts),
        spread=round(statistics.pstdev(scores), 4) if scores else None,
        low=min(scores) if scores else None,
        high=max(scores) if scores else None,
        quotes=tuple(q for q, _ in sorted(quotes.items(), key=lambda kv: (-kv[1], kv[0]))[:3]),
        reasons=tuple(v.reason for v in verdicts if v is not None and v.reason),
        dropped_quotes=sum(c.dropped_quotes for c in checked if c is not None),
        unusable=len(problems),
        problems=problems,
        capped_at=capped,
    )


def _resamples(
    dims: Sequence[JudgedDimension], caps: Mapping[str, float]
) -> tuple[dict[str, float], ...]:
    """The measured dimensions' means over the judges drawn with replacement."""
    measured = [d for d in dims if d.score is not None]
    if not measured:
        return ()
    judges = len(measured[0].scores)
    table = np.array(
        [[np.nan if s is None else s for s in d.scores] for d in measured], dtype=float
    )
    rng = np.random.default_rng(SEED)
    out = []
    for _ in range(RESAMPLES):
        drawn = table[:, rng.integers(0, judges, judges)]
        draw: dict[str, float] = {}
        for d, row in zip(measured, drawn, strict=True):
            usable = row[~np.isnan(row)]
            value = float(usable.mean()) if usable.size else float(d.score or 0.0)
            cap = caps.get(d.name)
            draw[d.name] = round(min(value, cap) if cap is not None else value, 4)
        out.append(draw)
    return tuple(out)


def _line_of(doc: SkillDocument, quote: str) -> int | None:
    """The SKILL.md line where a quote starts, when its first words sit on one line."""
    words = normalised(quote)[:40]
    for number, line in enumerate(doc.lines, start=1):
        if words and words in normalised(line):
            return number
    return None


def _subscore(doc: SkillDocument, d: JudgedDimension) -> SubScore:
    evidence = [
        Evidence(
            f"{sum(b is not None for b in d.bands)} of {len(d.bands)} judge(s): bands "
            + ", ".join("–" if b is None else str(b) for b in d.bands)
            + f"; mean {d.score:.2f}, spread {d.spread:.2f}",
            d.score or 0.0,
        )
    ]
    if d.capped_at is not None:
        evidence.append(
            Evidence("capped at the static layer's score: the skill addresses evaluators", 0.0)
        )
    evidence += [Evidence(f"quote: '{q}'", 0.0, _line_of(doc, q)) for q in d.quotes]
    return SubScore(d.name, d.score or 0.0, tuple(evidence))


def run_judge(
    doc: SkillDocument,
    settings: MonteCarloSettings,
    static: Mapping[str, float],
    caveat: str | None = None,
) -> LayerOutcome:
    """Judge one skill. ``static`` holds the static layer's dimension scores, the ceiling on
    a dimension it measures when ``caveat`` (grader-directed text was found) is given."""
    shown = material(doc)
    messages: list[str] = []
    try:
        judgements, usage, models = asyncio.run(_collect(shown, settings, messages))
    except BackendBroken as err:
        # As in the Monte Carlo layer: a refused key, an unknown model or endpoint, or one
        # that cannot be reached stops the skill ("could not be scored", exit 1), never a
        # static score that passes for a judged one.
        raise BackendBroken(f"the judge's calls to the backend failed ({err})") from None
    caps = {name: static[name] for name in static} if caveat else {}
    dims = tuple(_dimension(d.name, judgements, caps.get(d.name)) for d in DIMENSIONS)
    measured = {d.name: d.score for d in dims if d.score is not None}
    notes = [
        f"the judge could not measure {d.name}: no usable verdict from {len(d.bands)} "
        f"judge(s) ({'; '.join(d.problems[:2])})"
        for d in dims
        if d.score is None
    ]
    dropped = sum(d.dropped_quotes for d in dims)
    if dropped:
        notes.append(f"the judge quoted {dropped} passage(s) that are not in the skill: dropped")
    if shown.excerpt:
        notes.append(f"judged on an excerpt: {shown.excerpt}")
    if caveat:
        notes.append(
            f"{caveat}: judged scores are capped at the static layer's where it has one; "
            "scope_calibration and output_quality, which only the judge measures, may be "
            "inflated"
        )
    bands = [[d.bands[j] for d in dims] for j in range(settings.judges)]
    agreed = agreement(bands)
    result = JudgeResult(
        backend=settings.backend,
        models=models,
        judges=settings.judges,
        usable_judges=sum(
            1 for j in judgements if any(c.verdict is not None for c in j.checked.values())
        ),
        dimensions=dims,
        alpha=agreed.alpha,
        alpha_interval=agreed.interval,
        excerpt=shown.excerpt,
        listed_files=shown.listed,
        usage=usage,
        messages=tuple(messages),
        caveat=caveat,
    )
    if not measured:
        why = "no judge gave a usable verdict"
        return LayerOutcome(
            Layer.JUDGE,
            {},
            {},
            {},
            None,
            notes=(f"the judge layer measured nothing: {why}", *notes),
            not_run=why,
            judge=result,
        )
    weights = {n: DIMENSION_WEIGHTS[n] for n in measured}
    score = round(sum(weights[n] * s for n, s in measured.items()) / sum(weights.values()), 4)
    subscores = {d.name: _subscore(doc, d) for d in dims if d.score is not None}
    return LayerOutcome(
        Layer.JUDGE,
        measured,
        subscores,
        {name: name for name in subscores},
        score,
        notes=tuple(notes),
        resamples=_resamples(dims, caps),
        judge=result,
    )
