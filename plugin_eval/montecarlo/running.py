"""The running half of the Monte Carlo layer: prompts, routing and answering calls.

Everything here talks to a backend; what the runs mean is measured in ``measuring``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from plugin_eval.document import SkillDocument
from plugin_eval.montecarlo import costs, measures
from plugin_eval.montecarlo.backends import make_backend
from plugin_eval.montecarlo.backends.base import (
    NONE_DESCRIPTION,
    NONE_TOOL,
    Backend,
    Call,
    Tool,
    short,
)
from plugin_eval.montecarlo.cache import ResponseCache
from plugin_eval.montecarlo.distractors import CandidateSet, find_candidates, nearest_first
from plugin_eval.montecarlo.measuring import Collected, narrow
from plugin_eval.montecarlo.prompts import (
    GENERATE_SYSTEM,
    GENERATE_TOOL,
    EvalCase,
    PromptSet,
    generate,
    generation_prompt,
    load_evals,
    parse_generated,
    save_evals,
)
from plugin_eval.montecarlo.results import RunRecord
from plugin_eval.montecarlo.runner import BackendBroken, Runner
from plugin_eval.montecarlo.settings import MonteCarloSettings, default_cache_path

BATCH = 10
MIN_RUNS_BEFORE_STOP = 20
GENERATED_BY_MODEL = 20  # like skill-creator's ~20 queries, each run several times
ROUTE_TOKENS, ANSWER_TOKENS, GENERATE_TOKENS = 256, 1024, 4096

ROUTE_SYSTEM = (
    "You are a coding assistant with skills. Each tool is one skill, listed with its "
    "description. Call the single skill tool that fits the user's request best, or call "
    f"`{NONE_TOOL}` when no skill fits. Do not answer the request itself."
)


def answer_system(doc: SkillDocument) -> str:
    return (
        f"You are a coding assistant. The skill '{doc.name}' is active for this request; "
        "follow its instructions.\n\n"
        f'<skill name="{doc.name}">\n{doc.body_text.strip()}\n</skill>'
    )


async def collect(doc: SkillDocument, display: str, settings: MonteCarloSettings) -> Collected:
    backend = make_backend(settings)
    cache = None
    if settings.use_cache and not backend.simulated:
        cache = ResponseCache(settings.cache_path or default_cache_path())
    price = settings.price or costs.price_of(backend.name, backend.model)
    runner = Runner(
        backend,
        concurrency=settings.concurrency,
        timeout=settings.timeout,
        cache=cache,
        price=price,
        max_cost=settings.max_cost,
    )
    notes: list[str] = []
    try:
        candidates = find_candidates(doc, display, settings.against)
        prompt_set = await _prompts(doc, display, candidates, backend, runner, settings, notes)
        if settings.save_evals is not None:
            save_evals(settings.save_evals, prompt_set, doc.name)
        plan = _plan(prompt_set.cases, settings.runs, deterministic=backend.simulated)
        if backend.simulated and len(plan) < settings.runs:
            notes.append(
                f"the offline router is deterministic, so each of the {len(plan)} prompts ran "
                f"once ({settings.runs} runs asked)"
            )
        records, stop = await _execute(plan, prompt_set.cases, candidates, doc, runner, settings)
    finally:
        await backend.aclose()
        if cache is not None:
            cache.close()
            notes += cache.notes
    return Collected(
        backend,
        settings,
        candidates,
        prompt_set,
        records,
        len(plan),
        stop,
        runner.usage(),
        runner.messages,
        notes,
    )


async def _prompts(
    doc: SkillDocument,
    display: str,
    candidates: CandidateSet,
    backend: Backend,
    runner: Runner,
    settings: MonteCarloSettings,
    notes: list[str],
) -> PromptSet:
    loaded = load_evals(doc.folder, display)
    if loaded is not None:
        return loaded
    neighbours = nearest_first(candidates)
    if not backend.can_generate:
        return generate(doc, [(c.name, c.doc) for c in neighbours], max(2, settings.runs))
    count = max(2, min(settings.runs, GENERATED_BY_MODEL))
    call = Call(
        "generate",
        generation_prompt(doc, [(c.name, c.listing) for c in neighbours], count),
        system=GENERATE_SYSTEM,
        tools=(GENERATE_TOOL,),
        force_tool=GENERATE_TOOL.name,
        max_tokens=GENERATE_TOKENS,
    )
    outcome = await runner.run(call)
    written = parse_generated(
        outcome.reply.tool_input if outcome.reply else None,
        f"written by {backend.name} {backend.model}",
    )
    if written is not None:
        return written
    why = outcome.message or "no usable prompts in its reply"
    notes.append(f"the model could not write prompts ({why}); the deterministic generator did")
    return generate(doc, [(c.name, c.doc) for c in neighbours], count)


def _plan(cases: Sequence[EvalCase], runs: int, deterministic: bool) -> list[tuple[int, int]]:
    """(case, sample) per run: prompts alternate should/should-not and cycle until ``runs``."""
    positives = [i for i, c in enumerate(cases) if c.should_trigger]
    negatives = [i for i, c in enumerate(cases) if not c.should_trigger]
    order: list[int] = []
    for k in range(max(len(positives), len(negatives))):
        order += [group[k] for group in (positives, negatives) if k < len(group)]
    total = min(runs, len(order)) if deterministic else runs
    return [(order[i % len(order)], i // len(order)) for i in range(total)] if order else []


async def _execute(
    plan: list[tuple[int, int]],
    cases: Sequence[EvalCase],
    candidates: CandidateSet,
    doc: SkillDocument,
    runner: Runner,
    settings: MonteCarloSettings,
) -> tuple[list[RunRecord], str | None]:
    tools = (
        *(Tool(c.key, c.listing) for c in candidates.candidates),
        Tool(NONE_TOOL, NONE_DESCRIPTION),
    )
    keys = {c.key for c in candidates.candidates}
    system = answer_system(doc)
    backend = runner.backend

    async def one(case_index: int, sample: int) -> RunRecord | None:
        case = cases[case_index]
        route = Call(
            "route", case.prompt, ROUTE_SYSTEM, tools, max_tokens=ROUTE_TOKENS, sample=sample
        )
        answering = backend.can_answer and case.should_trigger
        jobs = [runner.run(route)]
        if answering:
            jobs.append(
                runner.run(
                    Call("answer", case.prompt, system, max_tokens=ANSWER_TOKENS, sample=sample)
                )
            )
        outcomes = await asyncio.gather(*jobs)
        if any(o.skipped for o in outcomes):
            return None
        routed = outcomes[0]
        picked: str | None = None
        error = routed.error
        if routed.reply is not None:
            chosen = routed.reply.tool or NONE_TOOL  # a reply with no tool call picked nothing
            if chosen in keys or chosen == NONE_TOOL:
                picked = chosen
            else:
                error = "malformed"
                runner.messages.append(
                    f"malformed: the model called an unknown tool '{short(chosen, 80)}'"
                )
        answer = outcomes[1] if answering else None
        text = answer.reply.text if answer is not None and answer.reply is not None else None
        return RunRecord(
            case=case_index,
            sample=sample,
            picked=picked,
            route_error=error,
            scores=dict(routed.reply.scores) if routed.reply is not None else {},
            answer=text,
            answer_tokens=answer.reply.output_tokens if answer and answer.reply else None,
            answer_error=answer.error if answer is not None else None,
            answered=answering,
            quality=measures.case_quality(case, text) if text is not None else None,
        )

    records: list[RunRecord] = []
    stop: str | None = None
    batch = max(BATCH, settings.concurrency)
    with _progress(settings.progress, len(plan)) as advance:
        for start in range(0, len(plan), batch):
            if not runner.budget_left():
                stop = "max_cost"
                break
            done = await asyncio.gather(*(one(c, s) for c, s in plan[start : start + batch]))
            kept = [r for r in done if r is not None]
            records += kept
            advance(len(kept))
            if len(kept) < len(done):
                stop = "max_cost"
                break
            if start == 0 and kept and all(r.picked is None and (r.answer is None) for r in kept):
                first = runner.messages[0] if runner.messages else "every call failed"
                raise BackendBroken(f"every call of the first batch failed ({first})")
            remaining = len(records) < len(plan)
            if (
                settings.ci_width is not None
                and remaining
                and len(records) >= MIN_RUNS_BEFORE_STOP
                and narrow(records, cases, candidates.target.key, settings.ci_width)
            ):
                stop = "ci_width"
                break
    return records, stop


@contextmanager
def _progress(enabled: bool, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when asked (a terminal), else nothing."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(
        console=Console(stderr=True, emoji=False, highlight=False), transient=True
    ) as bar:
        task = bar.add_task("Monte Carlo runs", total=total)
        yield lambda n: bar.advance(task, n)
