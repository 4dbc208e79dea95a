"""The Monte Carlo layer for one skill: run the prompts (``running``), measure (``measuring``).

It returns what it measured as a ``LayerOutcome``; the engine blends that into the composite.
"""

from __future__ import annotations

import asyncio

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.montecarlo.distractors import unlisted
from plugin_eval.montecarlo.measuring import measure
from plugin_eval.montecarlo.running import collect
from plugin_eval.montecarlo.settings import MonteCarloSettings
from plugin_eval.results import LayerOutcome
from plugin_eval.vocabulary import Layer


def run_layer(doc: SkillDocument, display: str, settings: MonteCarloSettings) -> LayerOutcome:
    """Route the skill's prompts among its neighbours and measure what happened."""
    exempt, reason = Facts(doc).exempt, unlisted(doc)
    if exempt or reason:
        why = (
            f"{exempt}, so the skill is never picked from its description"
            if exempt
            else f"{reason}: a harness skips such a skill, so no router can pick it; fix the "
            "findings first"
        )
        return LayerOutcome(
            Layer.MONTE_CARLO,
            {},
            {},
            {},
            None,
            notes=(f"the Monte Carlo layer did not run: {why}",),
            not_run=why,
        )
    return measure(asyncio.run(collect(doc, display, settings)))
