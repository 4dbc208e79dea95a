"""PE605: an agent's name does not shadow a built-in role."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin

# Built-in roles of Codex (default, worker, explorer) and Claude Code's built-in subagents.
BUILT_IN = frozenset(
    {
        "default",
        "worker",
        "explorer",
        "general-purpose",
        "explore",
        "plan",
        "statusline-setup",
        "output-style-setup",
        "claude",
    }
)


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        name = agent.meta.get("name")
        if isinstance(name, str) and name.strip().lower() in BUILT_IN:
            yield RULE.finding(
                f"agent name '{name}' is a built-in role's name: Claude Code keeps a plugin's "
                "agents apart by the plugin's name, but the model choosing by name is left to "
                "tell the two apart",
                agent.line_of("name"),
                1,
                path=agent.path,
            )


RULE = PluginRule(
    code="PE605",
    flag="AGENT_NAME_COLLISION",
    name="agent-name-collision",
    severity=Severity.WARNING,
    subscore="orchestration_wiring",
    summary="No agent is named like a built-in role: `default`, `worker`, `explorer` (Codex), "
    "`general-purpose`, `Explore`, `Plan` (Claude Code).",
    why="Claude Code names a plugin's agents after the plugin, so the built-in role is not "
    "replaced; but an agent listed as 'worker' or 'general-purpose' beside the built-in one "
    "invites delegation to the wrong agent, and a harness that reads agents without a plugin "
    "namespace may let one shadow the other.",
    fix="Give the agent a specific name ('csv-analyst', not 'worker').",
    bad=Example(
        good_plugin(
            **{"agents__csv-analyst.md": GOOD_AGENT.replace("name: csv-analyst", "name: worker")}
        ),
        "csv-tools",
        expect=(Expect("PE605", "agents/csv-analyst.md", 2, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Codex agent roles; Claude Code built-in subagents",
    limits="The built-in role names are a fixed list from Claude Code and Codex; roles added by "
    "later versions or by other plugins are not known.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
