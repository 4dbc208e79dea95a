"""Score one skill: parse, run rules, apply suppressions, compute sub-scores and composite."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from plugin_eval.analysis import Facts, RefStatus
from plugin_eval.config import Config
from plugin_eval.document import SkillDocument, parse_skill
from plugin_eval.findings import Finding
from plugin_eval.rules import BY_CODE, SKILL_RULES
from plugin_eval.scoring import composite as comp
from plugin_eval.scoring.subscores import SubScore, compute

if TYPE_CHECKING:
    from plugin_eval.montecarlo.results import MonteCarloResult
    from plugin_eval.montecarlo.settings import MonteCarloSettings

# `<!-- plugin-eval: ignore PE201 -->` in the body, `# plugin-eval: ignore PE106` in YAML.
SUPPRESS = re.compile(r"plugin-eval:\s*ignore\b[\s:]*([A-Za-z0-9_, -]*)")


class DepthUnavailable(Exception):
    """A depth whose layers are not built: said plainly, never silently downgraded."""


@dataclass(frozen=True)
class SkillResult:
    path: str
    name: str
    findings: tuple[Finding, ...]
    suppressed: int
    subscores: dict[str, SubScore]
    anti_patterns: tuple[Finding, ...]
    static_score: float
    composite: comp.CompositeResult
    depth: str
    # Targets outside the skill folder whose existence a rule checked: a cache must re-check them.
    outside_checks: tuple[tuple[str, bool], ...] = ()
    # Layers the depth names that did not run (the judge is not built), and why, in words.
    layers_not_run: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    monte_carlo: MonteCarloResult | None = None


AVAILABLE_LAYERS = frozenset({"static", "monte_carlo"})


def missing_layers(depth: str) -> tuple[str, ...]:
    return tuple(layer for layer in comp.DEPTHS[depth] if layer not in AVAILABLE_LAYERS)


def check_depth(depth: str) -> None:
    """A depth runs when a layer it adds to the static one exists; the rest are reported."""
    missing = missing_layers(depth)
    if missing and all(layer in missing for layer in comp.DEPTHS[depth] if layer != "static"):
        raise DepthUnavailable(
            f"depth '{depth}' needs the {' and '.join(m.replace('_', ' ') for m in missing)} "
            "layer(s), which this version does not have yet; use --depth quick, or deep for "
            "the static and Monte Carlo layers"
        )


def suppressions(doc: SkillDocument) -> dict[int, frozenset[str] | None]:
    """Line → codes suppressed there (None: every code). A comment covers its line and the next."""
    found: dict[int, frozenset[str] | None] = {}

    def add(line: int, spec: str) -> None:
        codes = frozenset(c for c in re.split(r"[\s,]+", spec.strip().upper()) if c) or None
        for target in (line, line + 1):
            prior = found.get(target, frozenset())
            found[target] = None if codes is None or prior is None else prior | codes

    for comment in doc.comments:
        for offset, text in enumerate(comment.text.split("\n")):
            if m := SUPPRESS.search(text):
                add(comment.line + offset, m.group(1).split("-->")[0])
    for number in range(2, doc.body_start - 1):
        text = doc.lines[number - 1]
        if "#" in text and (m := SUPPRESS.search(text.split("#", 1)[1])):
            add(number, m.group(1))
    return found


def _suppressed(finding: Finding, table: dict[int, frozenset[str] | None]) -> bool:
    if finding.line is None or finding.line not in table:
        return False
    codes = table[finding.line]
    return codes is None or finding.code in codes or finding.flag in codes


def run_rules(
    doc: SkillDocument, facts: Facts, config: Config, relpath: str
) -> tuple[list[Finding], int]:
    table = suppressions(doc)
    kept: list[Finding] = []
    dropped = 0
    for rule in SKILL_RULES:
        if not config.enabled(rule.code, relpath):
            continue
        for finding in rule.check(doc, facts):
            if _suppressed(finding, table):
                dropped += 1
            else:
                kept.append(finding)
    kept.sort(key=Finding.sort_key)
    return kept, dropped


def score_document(
    doc: SkillDocument, config: Config, display_path: str, depth: str = "quick"
) -> SkillResult:
    facts = Facts(doc)
    findings, dropped = run_rules(doc, facts, config, display_path)
    located = tuple(
        Finding(
            path=f"{display_path}/{f.path}" if display_path not in ("", ".") else f.path,
            line=f.line,
            column=f.column,
            code=f.code,
            flag=f.flag,
            severity=f.severity,
            message=f.message,
            fix=f.fix,
        )
        for f in findings
    )
    subscores = compute(doc, facts, findings)
    values = {name: s.score for name, s in subscores.items()}
    anti = tuple(f for f in located if BY_CODE[f.code].anti_pattern)
    dims = comp.dimensions_from_layers({"static": comp.static_dimensions(values)})
    result = comp.composite(dims, len(anti))
    return SkillResult(
        path=display_path,
        name=doc.name,
        findings=located,
        suppressed=dropped,
        subscores=subscores,
        anti_patterns=anti,
        static_score=comp.static_layer_score(values, len(anti)),
        composite=result,
        depth=depth,
        outside_checks=tuple(
            sorted(
                {
                    (
                        os.path.normpath(os.path.join(doc.folder, r.path)),
                        r.status is RefStatus.OUTSIDE,
                    )
                    for r in facts.references
                    if r.status in (RefStatus.OUTSIDE, RefStatus.OUTSIDE_MISSING)
                }
            )
        ),
    )


def score_skill(
    folder: Path,
    config: Config,
    display_path: str,
    depth: str = "quick",
    monte_carlo: MonteCarloSettings | None = None,
) -> SkillResult:
    """Score one skill; deep and thorough add the Monte Carlo layer when given its settings."""
    check_depth(depth)
    doc = parse_skill(folder)
    result = score_document(doc, config, display_path, depth)
    if "monte_carlo" not in comp.DEPTHS[depth]:
        return result
    missing = missing_layers(depth)
    notes = tuple(
        f"the {layer} layer did not run: this version does not have it (depth '{depth}' "
        "names it); its dimensions come from the other layers alone"
        for layer in missing
    )
    if monte_carlo is None:
        return replace(
            result,
            layers_not_run=(*missing, "monte_carlo"),
            notes=(*notes, "the Monte Carlo layer did not run: no settings were given for it"),
        )
    from plugin_eval.montecarlo.layer import run_layer  # scipy and the SDKs load only here

    return run_layer(replace(result, layers_not_run=missing, notes=notes), doc, monte_carlo)
