"""PE502: plugin.json names the plugin and gives its version and description."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin

REQUIRED = ("name",)
RECOMMENDED = ("version", "description")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for manifest in plugin.manifests:
        if manifest.data is None:
            continue
        for key in REQUIRED + RECOMMENDED:
            value = manifest.data.get(key)
            if not isinstance(value, str) or not value.strip():
                need = "required" if key in REQUIRED else "expected"
                line, column = manifest.position_of(key)
                yield RULE.finding(
                    f"{manifest.shown} has no '{key}' ({need})",
                    line or 1,
                    column,
                    fix=f'Add "{key}": "…" to {manifest.shown}.',
                    path=manifest.path,
                )


RULE = PluginRule(
    code="PE502",
    flag="PLUGIN_MANIFEST_FIELD",
    name="plugin-manifest-field",
    severity=Severity.WARNING,
    subscore="ecosystem_coherence",
    summary="The manifest has a non-empty `name` (required) and `version` and `description` "
    "(expected by marketplaces and Codex).",
    why="Marketplaces list, update and deduplicate plugins by name and version; without a "
    "description users cannot tell what they install.",
    fix="Add the missing fields.",
    bad=Example(
        good_plugin(**{".claude-plugin__plugin.json": '{"name": "csv-tools"}\n'}),
        "csv-tools",
        expect=(
            Expect("PE502", ".claude-plugin/plugin.json", 1, None),
            Expect("PE502", ".claude-plugin/plugin.json", 1, None),
        ),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code plugin reference; Codex plugin manifest",
    limits="It checks that the fields are non-empty strings, not what they say. A missing field "
    "has no line, so the finding points at line 1.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
