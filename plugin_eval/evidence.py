"""A sub-score and the named contributions it is the sum of."""

from __future__ import annotations

from dataclasses import dataclass

from plugin_eval.findings import bounded


@dataclass(frozen=True, repr=False)
class Evidence:
    """One named contribution to a sub-score, with the SKILL.md line it comes from."""

    label: str
    points: float
    line: int | None = None

    def __post_init__(self) -> None:
        # A label can quote the skill (a heading, a finding's message): bounded here, once.
        object.__setattr__(self, "label", bounded(self.label))


@dataclass(frozen=True, repr=False)
class SubScore:
    """A 0–1 score and the evidence that sums to it."""

    name: str
    score: float
    evidence: tuple[Evidence, ...]


def total(name: str, evidence: list[Evidence]) -> SubScore:
    """The sub-score that sums ``evidence``, clamped to [0, 1]."""
    raw = sum(e.points for e in evidence)
    return SubScore(name, round(min(1.0, max(0.0, raw)), 4), tuple(evidence))
