"""PE503: the plugin name is kebab-case."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, KEBAB, good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for manifest in plugin.manifests:
        name = manifest.data.get("name") if manifest.data else None
        if isinstance(name, str) and name and not KEBAB.match(name):
            line, column = manifest.position_of("name")
            yield RULE.finding(
                f"plugin name '{name}' is not kebab-case (lowercase letters, digits, hyphens)",
                line,
                column,
                path=manifest.path,
            )


RULE = PluginRule(
    code="PE503",
    flag="PLUGIN_NAME_INVALID",
    name="plugin-name-invalid",
    severity=Severity.ERROR,
    subscore="ecosystem_coherence",
    summary="The manifest `name` is kebab-case: lowercase letters, digits and single hyphens.",
    why="The name becomes the namespace of the plugin's commands and skills (`/csv-tools:clean`); "
    "other characters break invocation.",
    fix="Rename the plugin in kebab-case, e.g. 'csv-tools'.",
    bad=Example(
        good_plugin(
            **{".claude-plugin__plugin.json": GOOD_MANIFEST.replace('"csv-tools"', '"CSV Tools"')}
        ),
        "csv-tools",
        expect=(Expect("PE503", ".claude-plugin/plugin.json", 2, 3),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code plugin reference",
    limits="It checks the form of the name, not whether another plugin in a marketplace uses it.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
