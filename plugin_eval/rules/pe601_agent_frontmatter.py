"""PE601: an agent file has readable frontmatter with a name."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        problems = agent.file.problems
        for problem in problems:
            yield RULE.finding(
                problem.message, problem.line, problem.column, problem.fix, path=agent.path
            )
        if not problems and not isinstance(agent.meta.get("name"), str):
            yield RULE.finding(
                "agent has no 'name' in its frontmatter",
                1,
                1,
                fix=f"Add 'name: {agent.stem}'.",
                path=agent.path,
            )


RULE = PluginRule(
    code="PE601",
    flag="AGENT_FRONTMATTER",
    name="agent-frontmatter",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="Each `agents/*.md` starts with valid YAML frontmatter that has a `name`.",
    why="Claude Code registers a subagent from its frontmatter; without it the agent is never "
    "offered.",
    fix="Add frontmatter: name, description, tools, model.",
    bad=Example(
        good_plugin(**{"agents__csv-analyst.md": "You analyse CSV files.\n"}),
        "csv-tools",
        expect=(Expect("PE601", "agents/csv-analyst.md", 1, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation",
    limits="Only readable frontmatter and a string `name` are required; the other fields are "
    "PE602–PE604's.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
