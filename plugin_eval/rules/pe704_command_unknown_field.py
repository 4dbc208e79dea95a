"""PE704: a command's frontmatter keys are fields Claude Code reads."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.pe108_unknown_field import KNOWN_FIELDS, unknown_part_fields
from plugin_eval.rules.plugin_base import GOOD_COMMAND, good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    return unknown_part_fields(RULE, plugin.commands, KNOWN_FIELDS, "prompt")


RULE = PluginRule(
    code="PE704",
    flag="COMMAND_UNKNOWN_FIELD",
    name="command-unknown-field",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="Every frontmatter key of `commands/*.md` is a field Claude Code reads for a "
    "command or skill (description, argument-hint, allowed-tools, model, "
    "disable-model-invocation, …), as PE108 checks a skill's.",
    why="Claude Code ignores any other key: `tool_access` pre-approves nothing, and `globs` or "
    "`keywords` (another tool's activation fields) never make the command run.",
    fix="Rename the key to the field it means, or delete it.",
    bad=Example(
        good_plugin(
            **{
                "commands__csv-clean.md": GOOD_COMMAND.replace(
                    "allowed-tools: Bash(python:*)\n", "tool_access: Bash(python:*)\n"
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE704", "commands/csv-clean.md", 4, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code slash commands and skills documentation",
    limits="It knows the fields of the open specification and of Claude Code's skills and "
    "commands (PE108's list); a field a newer release adds is reported until the list has it.",
    links=(sources.CLAUDE_COMMANDS,),
    check=check,
)
