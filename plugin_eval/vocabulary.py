"""The words every layer shares: kinds of item, depths, layers, sub-scores and dimensions."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class Kind(StrEnum):
    """What a scored item is."""

    SKILL = "skill"
    PLUGIN = "plugin"


class Depth(StrEnum):
    """How much is measured: the static layer alone, or more layers on top of it."""

    QUICK = "quick"
    STANDARD = "standard"
    DEEP = "deep"
    THOROUGH = "thorough"


class Layer(StrEnum):
    """A scoring layer of seed 002."""

    STATIC = "static"
    JUDGE = "judge"
    MONTE_CARLO = "monte_carlo"


SubScoreName = Literal[
    "frontmatter_quality",
    "orchestration_wiring",
    "progressive_disclosure",
    "structural_completeness",
    "token_efficiency",
    "ecosystem_coherence",
    "harness_portability",
]

DimensionName = Literal[
    "triggering_accuracy",
    "orchestration_fitness",
    "output_quality",
    "scope_calibration",
    "progressive_disclosure",
    "token_efficiency",
    "robustness",
    "structural_completeness",
    "code_template_quality",
    "ecosystem_coherence",
]
