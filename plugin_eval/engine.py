"""Score one skill: the static layer, then each layer the depth adds, blended into the composite.

Data flows one way: a layer returns what it measured (a ``LayerOutcome``) and never builds
a result; the engine alone assembles the composite from the static layer's dimensions and
every outcome, and its interval from the outcomes' resamples.
"""

from __future__ import annotations

import gc
import logging
import os
import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from plugin_eval import suppression
from plugin_eval.analysis import Facts, RefStatus
from plugin_eval.config import Config
from plugin_eval.document import SKILL_FILE, SkillDocument, parse_skill
from plugin_eval.findings import Finding, capped
from plugin_eval.results import LayerOutcome, SkillResult
from plugin_eval.rules import BY_CODE, INTERNAL_ERROR, LISTING_INCOMPLETE, SKILL_RULES
from plugin_eval.rules.base import RuleDoc
from plugin_eval.scoring import composite as comp
from plugin_eval.scoring.subscores import compute, static_dimensions, static_layer_score
from plugin_eval.vocabulary import Depth, Layer
from plugin_eval.walk import Listing

if TYPE_CHECKING:
    from plugin_eval.montecarlo.settings import MonteCarloSettings

log = logging.getLogger("plugin_eval")

NEEDS_A_MODEL = (
    "the judge needs a model: add --backend anthropic (with ANTHROPIC_API_KEY) or --backend "
    "openai (with OPENAI_API_KEY, or --base-url URL for any OpenAI-compatible server)"
)

R = TypeVar("R", bound=RuleDoc)


class DepthUnavailable(Exception):
    """A depth none of whose added layers can run: said plainly, never silently downgraded."""


def check_depth(depth: Depth, settings: MonteCarloSettings | None = None) -> None:
    """A depth runs when a layer it adds to the static one can run; the rest are reported.

    Offline there is no judge, so `standard`, which adds only the judge, cannot run."""
    if depth is Depth.STANDARD and (settings is None or settings.backend == "offline"):
        raise DepthUnavailable(
            f"--depth standard adds the judge layer to the static one, and {NEEDS_A_MODEL}; "
            "offline, use --depth quick (static) or deep (static and simulated routing)"
        )


def run_checks(
    rules: Iterable[R], check: Callable[[R], Iterable[Finding]], path: str
) -> list[Finding]:
    """Every rule's findings; a rule that raises costs its own findings and one PE000 finding."""
    found: list[Finding] = []
    for rule in rules:
        try:
            found.extend(list(check(rule)))
        except Exception as exc:  # one crashing rule never hides the others' findings
            log.debug("rule %s raised on %s", rule.code, path, exc_info=True)
            found.append(INTERNAL_ERROR.crashed(rule.code, path, exc))
    return found


def run_rules(doc: SkillDocument, facts: Facts, config: Config) -> tuple[list[Finding], int]:
    """The findings of the enabled rules, less those suppressed, and how many were; with the
    problems of the suppression comments themselves (PE008, PE009)."""
    enabled = [rule for rule in SKILL_RULES if config.enabled(rule.code, doc.folder)]
    table = suppression.find(doc)
    found = run_checks(enabled, lambda rule: rule.check(doc, facts), SKILL_FILE)
    kept, hidden = suppression.apply(found, table)
    lineless = {f.code for f in kept if f.line is None and f.path == SKILL_FILE}
    kept += suppression.problems(
        table, lambda code: config.enabled(code, doc.folder), lineless=lineless
    )
    if not doc.listing.complete and config.enabled(LISTING_INCOMPLETE.code, doc.folder):
        kept.append(incomplete(doc.listing, "skill", SKILL_FILE))
    kept.sort(key=Finding.sort_key)
    # Capped after suppression, so a comment hides findings, never the count of the rest.
    return capped(kept), hidden


def incomplete(listing: Listing, kind: str, path: str) -> Finding:
    """PE011 for a skill or plugin folder that could not be listed in full."""
    what = []
    if listing.truncated:
        what.append(f"more than {len(listing.files):,} files: the listing stopped there")
    if listing.unreadable:
        shown = ", ".join(listing.unreadable[:3]) + (" …" if len(listing.unreadable) > 3 else "")
        what.append(f"{len(listing.unreadable)} folder(s) that could not be read ({shown})")
    return LISTING_INCOMPLETE.finding(
        f"the {kind} folder holds {'; '.join(what)}; links were checked on disk, unlinked "
        "files only among those listed",
        path=path,
    )


def joined(display: str, rel: str) -> str:
    """A path inside an item, as shown: joined to the item's displayed path (a path that
    leaves it, a marketplace.json above a plugin, is written without the '..')."""
    path = f"{display}/{rel}" if display not in ("", ".") else rel
    return posixpath.normpath(path) if rel.startswith("../") else path


def locate(display: str, finding: Finding) -> Finding:
    """The finding with its path joined to the item's displayed path."""
    return replace(finding, path=joined(display, finding.path))


def score_document(
    doc: SkillDocument, config: Config, display_path: str, depth: Depth = Depth.QUICK
) -> SkillResult:
    """The static layer of one parsed skill, with the composite it alone gives."""
    facts = Facts(doc)
    findings, dropped = run_rules(doc, facts, config)
    located = tuple(locate(display_path, f) for f in findings)
    subscores = compute(doc, facts, findings)
    values = {name: s.score for name, s in subscores.items()}
    anti = tuple(f for f in located if BY_CODE[f.code].anti_pattern)
    return SkillResult(
        path=display_path,
        name=doc.name,
        findings=located,
        suppressed=dropped,
        subscores=subscores,
        anti_patterns=anti,
        static_score=static_layer_score(values, len(anti)),
        composite=assemble(static_dimensions(values), (), len(anti), config.weights),
        depth=depth,
        outside_checks=tuple(sorted(_outside_checks(doc, facts))),
    )


def assemble(
    static: Mapping[str, float],
    outcomes: Sequence[LayerOutcome],
    anti_patterns: float,
    weights: Mapping[str, float] | None = None,
) -> comp.CompositeResult:
    """The composite of the static dimensions and every layer that ran, with its interval,
    weighted by ``weights`` (seed 002's table unless a benchmark file gave another).

    The interval is the central 95 % of the composite recomputed on each resample the layers
    measured (the static layer fixed), widened to hold the estimate; a resample on which a
    measured dimension is undefined is left out.
    """
    ran = [o for o in outcomes if o.ran]

    def at(layers: Mapping[Layer, Mapping[str, float]]) -> comp.CompositeResult:
        return comp.composite(comp.dimensions_from_layers(layers, weights), anti_patterns)

    point = at({Layer.STATIC: static, **{o.layer: o.dimensions for o in ran}})
    draws = min((len(o.resamples) for o in ran if o.resamples), default=0)
    if not draws:
        return point
    # Resamples often repeat the same dimension scores: compute each composite once.
    seen: dict[tuple[tuple[str, tuple[tuple[str, float], ...]], ...], float] = {}
    scores = []
    for i in range(draws):
        drawn: dict[Layer, Mapping[str, float]] = {
            o.layer: o.resamples[i] if o.resamples else o.dimensions for o in ran
        }
        if any(drawn[o.layer].keys() < o.dimensions.keys() for o in ran):
            # A dimension the layer measured is undefined on this resample (F1 with no
            # prompt that should trigger drawn): left out, as the measure's own interval
            # leaves it out, not filled in by the other layers' blend.
            continue
        key = tuple((str(layer), tuple(sorted(d.items()))) for layer, d in drawn.items())
        if key not in seen:
            seen[key] = at({Layer.STATIC: static, **drawn}).score
        scores.append(seen[key])
    bounds = comp.central_interval(scores, point.score)
    if bounds is None:
        return point
    return replace(point, ci_lower=round(bounds[0], 2), ci_upper=round(bounds[1], 2))


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection while one item is parsed and scored.

    Parsing allocates hundreds of thousands of short-lived objects (markdown-it tokens) that
    form no cycles; every generational collection meanwhile re-traverses those still alive,
    about a tenth of the static layer's time. Reference counting frees them all the same, and
    any cycle waits for the next collection. Output does not depend on it.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def evaluator_directed(doc: SkillDocument) -> str | None:
    """Why the judge's scores are capped, when the skill addresses evaluators (PE306).

    The rule runs here whatever the configuration and any suppression comment say: the
    author of a skill cannot switch off the guard on its own judging."""
    from plugin_eval.rules.pe306_evaluator_directed import RULE as ADDRESSED

    found = next(iter(ADDRESSED.check(doc, Facts(doc))), None)
    if found is None:
        return None
    return f"the skill addresses evaluators ({ADDRESSED.code}, line {found.line})"


def _outside_checks(doc: SkillDocument, facts: Facts) -> set[tuple[str, bool]]:
    """Targets outside the skill folder whose existence a finding depends on: the files links
    point to, the sibling skills it names (with one sibling that makes it a collection), and
    the files looked for in them (a script this skill runs that one of them ships), and the
    Codex plugin manifest beside its skills/ folder when a rule asked for it."""
    checks = {
        (os.path.normpath(os.path.join(doc.folder, r.path)), r.status is RefStatus.OUTSIDE)
        for r in facts.references
        if r.status in (RefStatus.OUTSIDE, RefStatus.OUTSIDE_MISSING)
    }
    deps = facts.dependencies
    if deps.named:
        checks.update((n.path, n.exists) for n in deps.named)
        if deps.manifest is not None:
            checks.add(deps.manifest)
    checks.update(facts.sibling_files.items())
    # Looked up only by a rule that needed it (cached_property keeps it in the instance).
    codex = facts.__dict__.get("codex_plugin")
    if codex is not None:
        checks.add(codex)
    return checks


def score_skill(
    folder: Path,
    config: Config,
    display_path: str,
    depth: Depth = Depth.QUICK,
    monte_carlo: MonteCarloSettings | None = None,
) -> SkillResult:
    """Score one skill; standard adds the judge, deep and thorough the judge and Monte Carlo
    (``settings`` say with which backend: offline, the judge does not run)."""
    check_depth(depth, monte_carlo)
    layers = comp.DEPTHS[depth]
    if layers == (Layer.STATIC,):
        with collection_paused():
            # The document is freed before collection resumes, so no collection walks it.
            return score_document(parse_skill(folder), config, display_path, depth)
    with collection_paused():
        doc = parse_skill(folder)
        result = score_document(doc, config, display_path, depth)
    settings = monte_carlo
    outcomes: list[LayerOutcome] = []
    if Layer.JUDGE in layers:
        if settings is None or settings.backend == "offline":
            outcomes.append(not_run(Layer.JUDGE, NEEDS_A_MODEL))
        else:
            from plugin_eval.judge.layer import run_judge  # the SDKs and scipy load here

            values = {n: s.score for n, s in result.subscores.items()}
            caveat = evaluator_directed(doc)
            judged = run_judge(doc, settings, static_dimensions(values), caveat)
            outcomes.append(judged)
            spent = judged.judge.usage.cost_usd if judged.judge is not None else None
            if settings.max_cost is not None and spent:
                settings = replace(
                    settings,
                    max_cost=max(0.0, settings.max_cost - spent),
                    spent_before=settings.spent_before + spent,
                )
    if Layer.MONTE_CARLO in layers:
        if settings is None:
            outcomes.append(not_run(Layer.MONTE_CARLO, "no settings were given for it"))
        elif settings.max_cost is not None and settings.max_cost <= 0:
            outcomes.append(
                not_run(Layer.MONTE_CARLO, "--max-cost was spent by the judge before it started")
            )
        else:
            from plugin_eval.montecarlo.layer import run_layer  # scipy and the SDKs load here

            outcomes.append(run_layer(doc, result.path, settings))
    return with_outcomes(result, outcomes, config.weights)


def confidence(outcomes: Sequence[LayerOutcome]) -> str:
    """The label for what the layers measured (see composite.ESTIMATED and the rest)."""
    from plugin_eval.montecarlo.settings import DEPTH_RUNS

    judged = any(o.layer is Layer.JUDGE and o.ran for o in outcomes)
    routing = next((o.monte_carlo for o in outcomes if o.ran and o.monte_carlo), None)
    if judged and routing is not None and not routing.simulated:
        if routing.runs >= DEPTH_RUNS[Depth.THOROUGH]:
            return comp.CERTIFIED_PLUS
        if routing.runs >= DEPTH_RUNS[Depth.DEEP]:
            return comp.CERTIFIED
    if judged:
        return comp.ASSESSED
    if routing is not None and routing.simulated:
        return comp.SIMULATED
    return comp.ESTIMATED


def not_run(layer: Layer, why: str) -> LayerOutcome:
    """The outcome of a layer that did not run, and why, in words."""
    words = "Monte Carlo" if layer is Layer.MONTE_CARLO else str(layer)
    return LayerOutcome(
        layer, {}, {}, {}, None, notes=(f"the {words} layer did not run: {why}",), not_run=why
    )


def with_outcomes(
    result: SkillResult,
    outcomes: Sequence[LayerOutcome],
    weights: Mapping[str, float] | None = None,
) -> SkillResult:
    """The static result with the layers' outcomes blended into its composite."""
    static = static_dimensions({n: s.score for n, s in result.subscores.items()})
    blended = assemble(static, outcomes, len(result.anti_patterns), weights)
    return replace(
        result,
        composite=replace(blended, confidence=confidence(outcomes)),
        layers_not_run=tuple(o.layer for o in outcomes if not o.ran),
        notes=tuple(n for o in outcomes for n in o.notes),
        outcomes=tuple(outcomes),
    )
