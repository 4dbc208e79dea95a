"""PE606: an agent's frontmatter keys are fields Claude Code reads for a subagent."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.pe108_unknown_field import unknown_part_fields
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin

# The subagent fields Claude Code documents.
AGENT_FIELDS = frozenset(
    {
        "name",
        "description",
        "tools",
        "disallowedTools",
        "model",
        "permissionMode",
        "maxTurns",
        "skills",
        "mcpServers",
        "hooks",
        "memory",
        "background",
        "isolation",
        "color",
        "effort",
    }
)


def check(plugin: PluginDocument) -> Iterator[Finding]:
    return unknown_part_fields(RULE, plugin.agents, AGENT_FIELDS, "body")


RULE = PluginRule(
    code="PE606",
    flag="AGENT_UNKNOWN_FIELD",
    name="agent-unknown-field",
    severity=Severity.WARNING,
    # What an agent part measures: a restriction or model lost to a misnamed key is wiring.
    subscore="orchestration_wiring",
    summary="Every frontmatter key of `agents/*.md` is a subagent field Claude Code documents "
    "(name, description, tools, disallowedTools, model, permissionMode, maxTurns, skills, "
    "mcpServers, hooks, memory, background, isolation, color, effort).",
    why="Claude Code ignores any other key: a restriction written as `tool_access` or "
    "`allowed-tools` restricts nothing, and a misspelt `modle` leaves the model unset.",
    fix="Rename the key to the field it means, or delete it.",
    bad=Example(
        good_plugin(
            **{
                "agents__csv-analyst.md": GOOD_AGENT.replace(
                    "tools: Read, Grep, Bash\n", "tool_access: Read, Grep, Bash\n"
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE606", "agents/csv-analyst.md", 4, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation",
    limits="It knows the fields Claude Code documents for subagents; a field a newer release "
    "adds is reported until this list has it.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
