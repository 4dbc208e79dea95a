"""Seed 003's feedback in words: one line per dimension, and one or two sentences overall.

Everything here is read off what the layers measured (the evidence of the sub-scores that
feed a dimension, the judges' reasons, the Monte Carlo figures) and the composite; nothing
is scored again. The text is plain and deterministic, on one line: it can quote the skill,
so every reporter escapes it for its own output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plugin_eval.evidence import Evidence, SubScore
from plugin_eval.scoring import composite as comp

PART = 140  # characters of one piece of evidence quoted into feedback
LAYER_WORDS = {"static": "static", "judge": "judge", "monte_carlo": "monte carlo"}


@dataclass(frozen=True, repr=False)
class Source:
    """What one layer measured of one dimension: the sub-scores feeding it, with their
    evidence, and for the judge its reasons."""

    layer: str
    subscores: Sequence[SubScore]
    reasons: Sequence[str] = ()


def one_line(text: str, width: int = PART) -> str:
    """``text`` on one line (runs of white space as one space), cut to ``width`` with '…'."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _contribution(e: Evidence) -> str:
    return f"{one_line(e.label)} ({e.points:+.2f})"


def _static(sub: SubScore) -> str:
    """The contribution that added most and the one that took most off."""
    gained = [e for e in sub.evidence if e.points > 0 and e.label != "start"]
    lost = [e for e in sub.evidence if e.points < 0]
    said = []
    if gained:
        said.append(_contribution(max(gained, key=lambda e: e.points)))
    if lost:
        said.append("lowered by " + _contribution(min(lost, key=lambda e: e.points)))
    return "; ".join(said) or "nothing added to or taken off its start"


def _measured(source: Source, sub: SubScore) -> str:
    if source.layer == "judge":
        reason = next((r for r in source.reasons if r.strip()), None)
        return one_line(reason) if reason else _first(sub)
    if source.layer == "static":
        return _static(sub)
    return _first(sub)


def _first(sub: SubScore) -> str:
    return one_line(sub.evidence[0].label) if sub.evidence else "no evidence"


def dimension_feedback(score: float | None, sources: Sequence[Source], ran: Sequence[str]) -> str:
    """One line for one dimension: for each layer that scored it, its score and what weighed
    most (the static layer's largest gain and loss, the judges' reason, the Monte Carlo
    figures); for an unmeasured dimension, the layers that ran and did not score it."""
    if score is None:
        layers = ", ".join(LAYER_WORDS.get(layer, layer) for layer in ran)
        return f"not measured: no layer that ran ({layers}) scores it"
    parts = [
        f"{LAYER_WORDS.get(source.layer, source.layer)} {sub.score:.2f}: {_measured(source, sub)}"
        for source in sources
        for sub in source.subscores
    ]
    return " · ".join(parts) or f"{comp.whole(score)}/100"


def overall_feedback(
    c: comp.CompositeResult, anti_patterns: int, pass_threshold: float | None
) -> str:
    """One or two sentences: the composite with its badge and grade (and the penalty and the
    pass threshold when they apply), then the strongest and weakest measured dimensions."""
    badge = c.badge.capitalize() if c.badge != "none" else "no badge"
    # One decimal, or two where one would round the composite over the pass threshold.
    crosses = pass_threshold is not None and (round(c.score, 1) >= pass_threshold) != (
        c.score >= pass_threshold
    )
    first = f"Composite {c.score:.2f}/100" if crosses else f"Composite {c.score:.1f}/100"
    first += f" ({badge}, grade {c.grade})"
    if c.penalty < 1:
        first += f" after the anti-pattern penalty ×{c.penalty:.2f} ({anti_patterns} flag(s))"
    if pass_threshold is not None:
        verb = "reaches" if c.score >= pass_threshold else "is below"
        first += f"; it {verb} the pass threshold {pass_threshold:g}"
    measured = sorted(
        ((d.name, d.score) for d in c.dimensions if d.score is not None and d.weight > 0),
        key=lambda d: (-d[1], d[0]),
    )
    if not measured:
        return f"{first}. No dimension was measured."

    def shown(name: str, score: float) -> str:
        return f"{name} {comp.whole(score)} ({comp.label(score * 100)})"

    if len(measured) == 1:
        return f"{first}. Only {shown(*measured[0])} was measured."
    return f"{first}. Strongest: {shown(*measured[0])}; weakest: {shown(*measured[-1])}."
