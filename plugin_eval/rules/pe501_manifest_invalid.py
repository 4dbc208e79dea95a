"""PE501: plugin.json must be a JSON object."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for manifest in plugin.manifests:
        if manifest.error:
            yield RULE.finding(
                f"{manifest.shown} is {manifest.error}",
                manifest.error_line,
                manifest.error_column,
                manifest.fix,
                path=manifest.path,
            )


RULE = PluginRule(
    code="PE501",
    flag="PLUGIN_MANIFEST_INVALID",
    name="plugin-manifest-invalid",
    severity=Severity.ERROR,
    subscore="ecosystem_coherence",
    summary="`.claude-plugin/plugin.json` (and `.codex-plugin/plugin.json`) parse as a JSON object.",
    why="A manifest that does not parse makes the harness skip the whole plugin: none of its "
    "skills, agents or commands load.",
    fix="Fix the JSON at the reported line (trailing commas and comments are not allowed).",
    bad=Example(
        good_plugin(**{".claude-plugin__plugin.json": '{"name": "csv-tools",}\n'}),
        "csv-tools",
        expect=(Expect("PE501", ".claude-plugin/plugin.json", 1, 22),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code plugin reference",
    limits="Only the first JSON error is reported; JSON with comments, which some tools accept, is "
    "reported as invalid.",
    links=(sources.CLAUDE_PLUGINS, sources.JSON),
    check=check,
)
