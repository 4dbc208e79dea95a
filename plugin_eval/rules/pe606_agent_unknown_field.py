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


# Subagent fields Claude Code does not honour in an agent a plugin ships ("for security
# reasons", its plugins reference): the agent runs as if they were not there.
NOT_FOR_PLUGINS = ("hooks", "mcpServers", "permissionMode")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    yield from unknown_part_fields(RULE, plugin.agents, AGENT_FIELDS, "body")
    for agent in plugin.agents:
        if agent.file.problems:
            continue
        for key in NOT_FOR_PLUGINS:
            field = agent.file.fields.get(key)
            if field is not None:
                yield RULE.finding(
                    f"'{key}' is not supported in an agent a plugin ships: Claude Code ignores "
                    "it there, for security reasons, so the agent runs without it",
                    field.line,
                    field.column,
                    fix=f"Delete '{key}' from the agent; set it in the user's or project's own "
                    "settings if it is needed, and say so in the plugin's README.",
                    path=agent.path,
                )


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
    "adds is reported until this list has it. `hooks`, `mcpServers` and `permissionMode` are "
    "subagent fields, but Claude Code ignores them in a plugin's agents, and every agent "
    "plugin-eval reads is a plugin's: they are reported too, with that reason.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
