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
    unscored = _unscored(plugin)
    if unscored:
        # Claude Code loads these: the plugin does something, only nothing plugin-eval scores.
        yield RULE.finding(
            f"the plugin holds only {' and '.join(unscored)}, which plugin-eval does not score"
            f"{passed}: it has no score (its composite is 0 and no badge)",
            1,
            None,
            fix="Nothing to fix for Claude Code. Add a skill (skills/NAME/SKILL.md) that tells "
            "the model when to use the servers if it should, or leave the plugin out of "
            "rankings by score.",
            path=manifest,
            severity=Severity.INFO,
        )
        return
    yield RULE.finding(
        f"the plugin holds no skill (skills/NAME/SKILL.md), agent (agents/*.md) or command "
        f"(commands/*.md) to score{passed}: it has nothing to measure and no score",
        1,
        None,
        path=manifest,
    )


# Parts Claude Code loads that plugin-eval does not score: (what they are, default files,
# manifest key).
UNSCORED = (
    ("MCP servers", ".mcp.json", "mcpServers"),
    ("LSP servers", ".lsp.json", "lspServers"),
    ("output styles", None, "outputStyles"),
)


def _unscored(plugin: PluginDocument) -> list[str]:
    """What the plugin holds that Claude Code loads and plugin-eval does not score."""
    found = []
    for what, default, key in UNSCORED:
        named = any(m.data and m.data.get(key) for m in plugin.manifests)
        if named or (default is not None and default in plugin.listing.files):
            found.append(f"{what} ({default or key})" if not named else f"{what} ('{key}')")
    return found


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
    "skill is a symlink is empty. A plugin of hooks is scored by its hooks. MCP servers, LSP "
    "servers and output styles are loaded by Claude Code but not scored: a plugin of only "
    "those gets an info finding instead of the error, and still no score.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
