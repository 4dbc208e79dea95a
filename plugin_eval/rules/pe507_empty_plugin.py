"""PE507: a plugin holds a skill, an agent or a command that is scored."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    if not plugin.empty:
        return
    passed = ""
    if plugin.passed_over:
        passed = f"; {len(plugin.passed_over):,} part(s) were not read (PE012)"
    manifest = plugin.manifests[0].path if plugin.manifests else ".claude-plugin/plugin.json"
    yield RULE.finding(
        f"the plugin holds no skill (skills/NAME/SKILL.md), agent (agents/*.md) or command "
        f"(commands/*.md) to score{passed}: it has nothing to measure and no score",
        1,
        None,
        path=manifest,
    )


RULE = PluginRule(
    code="PE507",
    flag="EMPTY_PLUGIN",
    name="empty-plugin",
    severity=Severity.ERROR,
    subscore="ecosystem_coherence",
    summary="A plugin holds at least one skill, agent or command that is scored. An empty "
    "plugin measures no dimension: its composite is 0 and it earns no badge (a manifest "
    "alone is not a plugin that does anything).",
    why="A harness installs it and loads nothing; a score made from its manifest alone would "
    "rank it above every plugin that does some work.",
    fix="Add the skills, agents or commands the plugin is for (skills/NAME/SKILL.md, "
    "agents/NAME.md, commands/NAME.md), or remove the plugin.",
    bad=Example(
        {".claude-plugin/plugin.json": GOOD_MANIFEST},
        "csv-tools",
        expect=(Expect("PE507", ".claude-plugin/plugin.json", 1, None),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="plugin-eval; Claude Code plugins reference",
    limits="Parts passed over (a symlink, a FIFO: PE012) do not count: a plugin whose only "
    "skill is a symlink is empty. Hooks, MCP servers and output styles are not scored, so a "
    "plugin of hooks alone is reported too.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
