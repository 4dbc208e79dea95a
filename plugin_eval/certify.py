"""`plugin-eval certify`: one skill at depth thorough, and the certificate of what was measured.

A skill is certified when every layer certification needs measured what it should (the
judge each of the four judged dimensions, Monte Carlo routing the triggering) and the
report's confidence label is Certified or Certified+. Otherwise the certificate says
NOT CERTIFIED and names each dimension that went unmeasured, and why.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.document import SKILL_FILE
from plugin_eval.engine import NEEDS_A_MODEL, score_skill
from plugin_eval.errors import described
from plugin_eval.montecarlo.results import Usage
from plugin_eval.montecarlo.settings import DEPTH_RUNS, MonteCarloSettings
from plugin_eval.output_files import unusable
from plugin_eval.report.certificate import (
    NOT_CERTIFIED,
    Certificate,
    CertifiedDimension,
    CostOut,
    JudgesOut,
    ModelsOut,
    MonteCarloRuns,
    SkillOut,
    foreign,
)
from plugin_eval.report.model import Report, build_report
from plugin_eval.results import LayerOutcome, SkillResult
from plugin_eval.scoring import composite as comp
from plugin_eval.targets import Target
from plugin_eval.vocabulary import Depth, Kind, Layer

OFFLINE = f"certify runs the judge, and {NEEDS_A_MODEL}"
# The layers that must have measured each dimension for a certificate.
NEEDED: dict[str, tuple[Layer, ...]] = {
    "triggering_accuracy": (Layer.JUDGE, Layer.MONTE_CARLO),
    "orchestration_fitness": (Layer.JUDGE,),
    "output_quality": (Layer.JUDGE,),
    "scope_calibration": (Layer.JUDGE,),
}
CERTIFIED_LABELS = (comp.CERTIFIED, comp.CERTIFIED_PLUS)


class Refused(Exception):
    """A request certify cannot carry out as asked (a usage error): one line saying what to do."""


class NotScored(Exception):
    """The skill could not be scored at all (a backend that broke mid-run): no certificate."""


@dataclass(frozen=True, repr=False)
class Certification:
    """What `certify` measured (the full report) and the certificate it issues."""

    report: Report
    certificate: Certificate


def one_skill(targets: list[Target], path: str) -> Target:
    """The one skill ``targets`` holds; a plugin or several skills is a request to narrow."""
    if len(targets) == 1 and targets[0].kind == Kind.SKILL:
        return targets[0]
    if len(targets) == 1:
        folder = targets[0].folder
        names = sorted(p.parent.name for p in folder.glob(f"skills/*/{SKILL_FILE}"))
        listed = f" (its skills: {', '.join(names[:5])}{' …' if len(names) > 5 else ''})"
        return _narrow(f"{path} is a plugin{listed if names else ''}", f"{path}/skills/NAME")
    if not targets:
        return _narrow(f"{path} holds no skill", f"{path}/skills/NAME")
    skills = [t for t in targets if t.kind == Kind.SKILL]
    example = skills[0].display if skills else f"{path}/skills/NAME"
    what = "skills" if len(skills) == len(targets) else "skills and plugins"
    return _narrow(f"{path} holds {len(targets)} {what}", example)


def _narrow(what: str, example: str) -> Target:
    raise Refused(f"{what}: certify one skill at a time, e.g. plugin-eval certify {example}")


def check_out(out: Path, skill: Path) -> None:
    """``--out`` can take the certificate: a folder (or none yet) outside the skill, holding
    nothing under the certificate's file names but a previous certificate."""
    if out.is_symlink():  # it could lead anywhere, the skill folder included
        raise Refused(
            f"--out {out}: is a symlink, and plugin-eval writes no certificate through one; "
            "give the folder itself"
        )
    if out.exists() and not out.is_dir():
        raise Refused(f"--out {out}: is a file; give a folder (it is created if missing)")
    # Compared where they lead: a symlink on the way to either cannot hide one in the other.
    here, inside = os.path.realpath(skill), os.path.realpath(out)
    if inside == here or inside.startswith(here.rstrip(os.sep) + os.sep):
        raise Refused(
            f"--out {out}: is inside the skill, where the files would become part of it; "
            "give a folder outside the skill"
        )
    taken = foreign(out) if out.is_dir() else []
    if taken:
        raise Refused(
            f"--out {out}: {', '.join(taken)} there is not a certificate plugin-eval wrote, and "
            "is never overwritten; move it, or give another folder"
        )
    # A folder that cannot be made or written is said now, not after a paid thorough run:
    # the folders missing are made, to see that they can be, and removed again.
    made = []
    missing = out
    while not missing.exists() and missing != missing.parent:
        made.append(missing)
        missing = missing.parent
    try:
        out.mkdir(parents=True, exist_ok=True)
        writable = os.access(out, os.W_OK | os.X_OK)
    except OSError as err:
        raise Refused(str(unusable("--out", out, err))) from None
    finally:
        for folder in made:  # the deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()
    if not writable:
        raise Refused(str(unusable("--out", out, "not writable")))


def certify(
    target: Target, config: Config, settings: MonteCarloSettings, generated_at: str
) -> Certification:
    """Score one skill at depth deep (seed 002: "deep (used by certify)") and issue its
    certificate; ``settings.runs`` of 100 or more can make it Certified+."""
    try:
        result = score_skill(target.folder, config, target.display, Depth.DEEP, settings)
    except Exception as exc:  # a backend that broke: said in one line, no certificate
        raise NotScored(described(exc)) from exc
    report = build_report(result, generated_at)
    return Certification(report, certificate(result, report, settings))


def certificate(result: SkillResult, report: Report, settings: MonteCarloSettings) -> Certificate:
    """The certificate of a thorough run: the report's figures and the verdict on them."""
    c = report.composite
    outcomes = {o.layer: o for o in result.outcomes}
    missing = [
        _unmeasured(d.name, layer, outcomes.get(layer))
        for d in c.dimensions
        for layer in NEEDED.get(d.name, ())
        if layer not in d.measured_by
    ]
    routing = result.monte_carlo
    runs = routing.runs if routing is not None else 0
    label = c.confidence_label
    reasons = list(missing)
    if label not in CERTIFIED_LABELS:
        reasons.append(
            f"the confidence label is {label}: Certified needs the judge and routing by a "
            f"model over at least {DEPTH_RUNS['deep']} runs, Certified+ over "
            f"{DEPTH_RUNS['thorough']}; {runs} run(s) were routed"
        )
    elif missing:
        label = comp.ASSESSED  # never a Certified label on a certificate that is not
    judged = result.judge
    judge_usage = judged.usage if judged is not None else None
    routing_usage = routing.usage if routing is not None else None
    return Certificate(
        generated_at=report.generated_at,
        certified=not reasons,
        result=NOT_CERTIFIED if reasons else label,
        reasons=reasons,
        skill=SkillOut(name=report.name, path=report.path),
        score=c.score,
        ci_lower=c.ci_lower,
        ci_upper=c.ci_upper,
        badge=c.badge,
        grade=c.grade,
        confidence_label=label,
        dimensions=[
            CertifiedDimension(
                name=d.name,
                weight=d.weight,
                score=d.score,
                measured_by=d.measured_by,
                needed_by_certification=[str(layer) for layer in NEEDED.get(d.name, ())],
            )
            for d in c.dimensions
        ],
        backend=settings.backend,
        models=ModelsOut(
            judge=list(judged.models if judged is not None else _judge_models(settings)),
            routing=routing.model if routing is not None else settings.model_name,
        ),
        monte_carlo=MonteCarloRuns(
            runs=runs,
            runs_requested=settings.runs,
            distinct_prompts=routing.distinct_prompts if routing is not None else 0,
            stopped_early=routing.stop_reason if routing is not None else None,
        ),
        judges=JudgesOut(
            judges=settings.judges,
            usable_judges=judged.usable_judges if judged is not None else 0,
            alpha=judged.alpha if judged is not None else None,
            alpha_ci_lower=_bound(judged.alpha_interval, 0) if judged is not None else None,
            alpha_ci_upper=_bound(judged.alpha_interval, 1) if judged is not None else None,
        ),
        cost=_cost(judge_usage, routing_usage),
    )


def _unmeasured(name: str, layer: Layer, outcome: LayerOutcome | None) -> str:
    """``name`` went unmeasured by ``layer``: which, and why, from what the layer reported."""
    words = "Monte Carlo routing" if layer is Layer.MONTE_CARLO else f"the {layer}"
    if outcome is None:
        why = f"the {layer} layer did not run"
    elif not outcome.ran:
        why = outcome.not_run or "the layer did not run"
    elif outcome.judge is not None:
        judged = next((d for d in outcome.judge.dimensions if d.name == name), None)
        problems = judged.problems if judged is not None else ()
        why = (
            f"no usable verdict from {outcome.judge.judges} judge(s) ({'; '.join(problems[:2])})"
            if problems
            else "no usable verdict"
        )
    else:
        why = "the layer measured no routing decision"
    return f"{name} was not measured by {words}: {why}"


def _judge_models(settings: MonteCarloSettings) -> tuple[str, ...]:
    return settings.judge_models or (settings.model_name,)


def _bound(interval: tuple[float, float] | None, side: int) -> float | None:
    return interval[side] if interval is not None else None


def _price(usage: Usage | None) -> float | None:
    """What the calls cost at list price, paid now or read from the cache; 0 for no calls."""
    if usage is None:
        return 0.0
    if usage.cost_usd is None or usage.saved_by_cache_usd is None:
        return None if usage.calls else 0.0
    return round(usage.cost_usd + usage.saved_by_cache_usd, 6)


def _cost(judge: Usage | None, routing: Usage | None) -> CostOut:
    parts = [u for u in (judge, routing) if u is not None]
    judge_usd, routing_usd = _price(judge), _price(routing)
    known = judge_usd is not None and routing_usd is not None
    return CostOut(
        usd=round((judge_usd or 0.0) + (routing_usd or 0.0), 6) if known else None,
        judge_usd=judge_usd,
        monte_carlo_usd=routing_usd,
        calls=sum(u.calls for u in parts),
        input_tokens=sum(u.input_tokens for u in parts),
        output_tokens=sum(u.output_tokens for u in parts),
    )
