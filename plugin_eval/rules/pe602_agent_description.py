"""PE602: an agent's description says when to delegate to it."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin
from plugin_eval.triggering import PROACTIVE, find_trigger


def dispatched(plugin: PluginDocument, name: str, itself: str) -> bool:
    """Whether one of the plugin's commands or other agents hands work to the agent ``name``
    by that name (`subagent_type: "implement"`, "the `implement` agent", "invoke the
    `playwright` skill"): a pipeline stage is picked by its caller, not by its description."""
    named = re.escape(name)
    wanted = re.compile(  # noqa: TID251 - built from the agent's own name
        r"subagent_type\W{0,4}" + named + r"(?![\w-])"
        r"|(?<![\w-])`?" + named + r"`?\s+(?:sub-?)?agent\b"
        r"|@" + named + r"(?![\w-])"
        r"|\b(?:invoke|call|run|dispatch|spawn|launch|delegate\s+to|hand\s+(?:it\s+)?off\s+to)"
        r"\s+(?:the\s+)?`" + named + r"`",
        re.IGNORECASE,
    )
    return any(
        part.path != itself and wanted.search(part.body) is not None
        for part in (*plugin.commands, *plugin.agents)
    )


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        if agent.file.problems:
            continue
        description = agent.meta.get("description")
        name = agent.meta.get("name")
        if not isinstance(description, str) or not description.strip():
            yield RULE.finding(
                "agent has no description", agent.line_of("description"), 1, path=agent.path
            )
        elif (
            not find_trigger(description)
            and not PROACTIVE.search(description)
            and not dispatched(plugin, name if isinstance(name, str) else agent.stem, agent.path)
        ):
            yield RULE.finding(
                "agent description never says when to use it (no 'Use PROACTIVELY when …' or "
                "'Use when …')",
                agent.line_of("description"),
                1,
                path=agent.path,
            )


RULE = PluginRule(
    code="PE602",
    flag="AGENT_DESCRIPTION_TRIGGER",
    name="agent-description-trigger",
    severity=Severity.WARNING,
    subscore="frontmatter_quality",
    summary="The agent's `description` states when to delegate to it, ideally proactively "
    "('Use PROACTIVELY when …').",
    why="The main agent delegates by matching the task against subagent descriptions; a "
    "description without a trigger is rarely chosen.",
    fix="Append 'Use PROACTIVELY when …' with the situations it handles.",
    bad=Example(
        good_plugin(
            **{
                "agents__csv-analyst.md": GOOD_AGENT.replace(
                    " Use PROACTIVELY when a user shares a CSV file, asks for column statistics, or needs "
                    "two exports merged.",
                    "",
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE602", "agents/csv-analyst.md", 3, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation",
    limits="It recognises the trigger phrases of PE102 plus 'PROACTIVELY'; whether the situations "
    "named are the right ones is not judged. An agent that one of the plugin's commands or "
    'other agents hands work to by name (`subagent_type: "implement"`, \'the `implement` '
    "agent', '@implement') is a stage its caller picks, and needs no trigger.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
