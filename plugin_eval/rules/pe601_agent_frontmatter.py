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
            # Claude Code's plugins reference shows a plugin agent with no name: it is named
            # after its file. The subagents page asks for one, so say it, as a note.
            yield RULE.finding(
                f"agent has no 'name' in its frontmatter: Claude Code names a plugin agent "
                f"after its file ('{agent.stem}'), but its subagents page asks for one",
                1,
                1,
                fix=f"Add 'name: {agent.stem}' to make the name explicit.",
                path=agent.path,
                severity=Severity.INFO,
            )


RULE = PluginRule(
    code="PE601",
    flag="AGENT_FRONTMATTER",
    name="agent-frontmatter",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="Each `agents/*.md` starts with valid YAML frontmatter (an error without it), "
    "with a `name` (an info note without it: Claude Code then names the agent after its file, "
    "as its plugins reference shows).",
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
    limits="Only readable frontmatter is required, and a string `name` is asked for; the other "
    "fields are PE602–PE604's.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
