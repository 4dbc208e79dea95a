"""PE603: an agent lists the tools it may use."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        if agent.file.problems:
            continue
        tools = agent.meta.get("tools")
        if tools is None:
            yield RULE.finding(
                "agent has no 'tools' list, so it inherits every tool of the session",
                1,
                1,
                path=agent.path,
            )
        elif not (
            isinstance(tools, str)
            or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
        ):
            yield RULE.finding(
                "'tools' should be a comma-separated string or a list of tool names",
                agent.line_of("tools"),
                1,
                path=agent.path,
            )


RULE = PluginRule(
    code="PE603",
    flag="AGENT_TOOLS",
    name="agent-tools",
    severity=Severity.INFO,
    subscore="orchestration_wiring",
    summary="The agent's frontmatter has a `tools` list (string or list of names).",
    why="Without it the agent inherits every tool, including ones it should not touch; a "
    "scoped tool list makes delegation predictable and safer.",
    fix="Add 'tools: Read, Grep, …' with only what the agent needs.",
    bad=Example(
        good_plugin(
            **{"agents__csv-analyst.md": GOOD_AGENT.replace("tools: Read, Grep, Bash\n", "")}
        ),
        "csv-tools",
        expect=(Expect("PE603", "agents/csv-analyst.md", 1, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation",
    limits="It checks that `tools` is present and well formed, not that the tools exist or fit the "
    "agent's job. A missing `tools` has no line, so the finding points at line 1.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
