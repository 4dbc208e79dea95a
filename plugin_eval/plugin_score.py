"""Score a plugin: its skills, agents, commands and manifest, aggregated per dimension.

Each part measures the sub-scores it can (a skill all seven, an agent its triggering and
orchestration, a command its structure, the manifest the plugin's coherence); a plugin
sub-score is the mean over the parts that measure it, so a plugin's weak dimensions are
those of its parts. The anti-pattern penalty is applied once, to the composite, from the
mean number of anti-patterns per skill: a one-skill plugin scores what its skill scores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from plugin_eval.config import Config
from plugin_eval.engine import (
    assemble,
    check_depth,
    incomplete,
    joined,
    locate,
    run_checks,
    score_skill,
)
from plugin_eval.evidence import Evidence, SubScore, total
from plugin_eval.findings import Finding, capped
from plugin_eval.plugin import CLAUDE_MANIFEST, Part, PluginDocument, parse_plugin
from plugin_eval.results import PartScore, PluginResult, SkillResult
from plugin_eval.rules import BY_CODE, LISTING_INCOMPLETE, NOT_SCORED, PLUGIN_RULES
from plugin_eval.scoring.subscores import (
    SUBSCORES,
    deductions,
    static_dimensions,
    static_layer_score,
)
from plugin_eval.triggering import analyse
from plugin_eval.vocabulary import Depth


def plugin_findings(plugin: PluginDocument, config: Config) -> list[Finding]:
    """The enabled plugin rules' findings; a rule that raises costs its own and one PE000."""
    enabled = [rule for rule in PLUGIN_RULES if config.enabled(rule.code, plugin.folder)]
    where = plugin.manifests[0].path if plugin.manifests else CLAUDE_MANIFEST
    found = run_checks(enabled, lambda rule: rule.check(plugin), where)
    if not plugin.listing.complete and config.enabled(LISTING_INCOMPLETE.code, plugin.folder):
        found.append(incomplete(plugin.listing, "plugin", where))
    if config.enabled(NOT_SCORED.code, plugin.folder):
        found += NOT_SCORED.passed_over(plugin.passed_over)
    found.sort(key=Finding.sort_key)
    return capped(found)


def _part_scores(plugin: PluginDocument, findings: list[Finding]) -> list[PartScore]:
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_path[f.path].append(f)
    parts = [_agent(a, by_path[a.path]) for a in plugin.agents]
    parts += [
        PartScore(
            "command",
            c.stem,
            c.path,
            {"structural_completeness": _less("structural_completeness", by_path[c.path])},
        )
        for c in plugin.commands
    ]
    # A hook configuration is wiring: the checks it runs before and after the tools.
    parts += [
        PartScore(
            "hooks",
            h.path,
            h.path,
            {"orchestration_wiring": _less("orchestration_wiring", by_path[h.path])},
        )
        for h in plugin.hooks
    ]
    manifest_findings = [f for m in plugin.manifests for f in by_path[m.path]]
    if plugin.manifests:
        parts.append(
            PartScore(
                "manifest",
                plugin.name,
                plugin.manifests[0].path,
                {"ecosystem_coherence": _less("ecosystem_coherence", manifest_findings)},
            )
        )
    return parts


def _less(name: str, findings: list[Finding]) -> SubScore:
    """A part's sub-score that only its findings lower: full, less their deductions."""
    return total(name, [Evidence("start", 1.0), *deductions(name, findings)])


def _agent(agent: Part, findings: list[Finding]) -> PartScore:
    description = agent.meta.get("description")
    trigger = analyse(description if isinstance(description, str) else None, name=agent.stem)
    line = agent.line_of("description")
    triggering = [Evidence(c.label, c.points, line) for c in trigger.contributions]
    return PartScore(
        "agent",
        agent.stem,
        agent.path,
        {
            "frontmatter_quality": total(
                "frontmatter_quality", triggering + deductions("frontmatter_quality", findings)
            ),
            "orchestration_wiring": _less("orchestration_wiring", findings),
        },
    )


def aggregate(skills: list[SkillResult], parts: list[PartScore]) -> dict[str, SubScore]:
    """Each sub-score as the mean over the parts measuring it, one evidence line per part."""
    members: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for skill in skills:
        for name, sub in skill.subscores.items():
            members[name].append((f"skill {skill.name}", sub.score))
    for part in parts:
        for name, sub in part.subscores.items():
            members[name].append((f"{part.kind} {part.name}", sub.score))
    out: dict[str, SubScore] = {}
    for name in (d.name for d in SUBSCORES):
        rows = sorted(members.get(name, []), key=lambda r: (r[1], r[0]))
        if not rows:
            continue
        n = len(rows)
        evidence = [
            Evidence(f"{label}: {score:.2f} (1/{n} of the mean)", score / n)
            for label, score in rows
        ]
        out[name] = SubScore(name, round(sum(s for _, s in rows) / n, 4), tuple(evidence))
    return out


def score_plugin(
    folder: Path,
    config: Config,
    display: str,
    depth: Depth = Depth.QUICK,
    manifest: Mapping[str, Any] | None = None,
    entry_at: tuple[str, int] | None = None,
) -> PluginResult:
    """Score a plugin folder; ``manifest`` stands in for a missing plugin.json (marketplace),
    written where ``entry_at`` says."""
    check_depth(depth)
    return score_plugin_document(parse_plugin(folder, manifest, entry_at), config, display, depth)


def score_plugin_document(
    plugin: PluginDocument, config: Config, display: str, depth: Depth = Depth.QUICK
) -> PluginResult:
    """Score a parsed plugin and each of its skills."""
    folder = plugin.folder
    own = plugin_findings(plugin, config)
    skills = [
        score_skill(path, config, joined(display, path.relative_to(folder).as_posix()), depth)
        for path in plugin.skills
    ]
    # An empty plugin (PE507) measures nothing: its manifest alone earns no score.
    parts = [] if plugin.empty else _part_scores(plugin, own)
    subscores = aggregate(skills, parts)
    located = tuple(locate(display, f) for f in own)
    all_findings = tuple(
        sorted(located + tuple(f for s in skills for f in s.findings), key=Finding.sort_key)
    )
    anti = tuple(f for f in all_findings if BY_CODE[f.code].anti_pattern)
    per_skill = round(len(anti) / len(skills), 4) if skills else 0.0
    values = {name: s.score for name, s in subscores.items()}
    return PluginResult(
        path=display,
        name=plugin.name,
        skills=tuple(skills),
        parts=tuple(parts),
        findings=all_findings,
        plugin_findings=located,
        anti_patterns=anti,
        subscores=subscores,
        anti_patterns_per_skill=per_skill,
        static_score=static_layer_score(values, per_skill),
        composite=assemble(static_dimensions(values), (), per_skill, config.weights),
        depth=depth,
    )
