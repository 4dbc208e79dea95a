"""What scoring produces: plain dataclasses that every layer, the engine and reporters share.

This module imports no layer: the static layer, the Monte Carlo layer and the engine import
it, never the other way round. A layer above the static one returns a ``LayerOutcome`` (what
it measured); the engine alone blends outcomes into the composite.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plugin_eval.evidence import SubScore
from plugin_eval.findings import Finding
from plugin_eval.scoring.composite import CompositeResult
from plugin_eval.vocabulary import Depth, Kind, Layer

if TYPE_CHECKING:  # a quick run never loads the model layers' types
    from plugin_eval.judge.results import JudgeResult
    from plugin_eval.montecarlo.results import MonteCarloResult


@dataclass(frozen=True, repr=False)
class LayerOutcome:
    """What one layer above the static one measured for one skill."""

    layer: Layer
    # Dimension → 0–1 score, for the dimensions the layer measured (none when it did not run).
    dimensions: Mapping[str, float]
    # The layer's measures with their evidence, and the dimension each feeds.
    subscores: Mapping[str, SubScore]
    feeds: Mapping[str, str]
    # The layer's own summary score (its dimensions weighted); None when it measured nothing.
    score: float | None
    notes: tuple[str, ...] = ()
    # Why the layer did not run; None when it ran.
    not_run: str | None = None
    # The layer's dimension scores recomputed on resamples of its evidence: the engine turns
    # them into the composite's interval.
    resamples: tuple[Mapping[str, float], ...] = ()
    monte_carlo: MonteCarloResult | None = None
    judge: JudgeResult | None = None

    @property
    def ran(self) -> bool:
        return self.not_run is None


@dataclass(frozen=True, repr=False)
class SkillResult:
    path: str
    name: str
    findings: tuple[Finding, ...]
    suppressed: int
    subscores: Mapping[str, SubScore]
    anti_patterns: tuple[Finding, ...]
    static_score: float
    composite: CompositeResult
    depth: Depth
    # Targets outside the skill folder whose existence a rule checked: a cache must re-check them.
    outside_checks: tuple[tuple[str, bool], ...] = ()
    # Layers the depth names that did not run, and notes in words on what ran and what did not.
    layers_not_run: tuple[Layer, ...] = ()
    notes: tuple[str, ...] = ()
    outcomes: tuple[LayerOutcome, ...] = ()
    kind: Kind = Kind.SKILL

    @property
    def monte_carlo(self) -> MonteCarloResult | None:
        return next((o.monte_carlo for o in self.outcomes if o.monte_carlo is not None), None)

    @property
    def judge(self) -> JudgeResult | None:
        return next((o.judge for o in self.outcomes if o.judge is not None), None)


@dataclass(frozen=True, repr=False)
class PartScore:
    """An agent, command or manifest of a plugin, with the sub-scores it measures."""

    kind: str
    name: str
    path: str
    subscores: Mapping[str, SubScore]


@dataclass(frozen=True, repr=False)
class PluginResult:
    path: str
    name: str
    skills: tuple[SkillResult, ...]
    parts: tuple[PartScore, ...]
    findings: tuple[Finding, ...]
    plugin_findings: tuple[Finding, ...]
    anti_patterns: tuple[Finding, ...]
    subscores: Mapping[str, SubScore]
    anti_patterns_per_skill: float
    static_score: float
    composite: CompositeResult
    depth: Depth
    kind: Kind = Kind.PLUGIN


Result = SkillResult | PluginResult
