"""PE702: a command that takes arguments documents them."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_COMMAND, good_plugin

ARGUMENT = regexes.compile(r"\$ARGUMENTS\b|\$[1-9]\b")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for command in plugin.commands:
        if "argument-hint" in command.meta:
            continue
        match = ARGUMENT.search(command.body)
        if match:
            line = command.file.body_start + command.body.count("\n", 0, match.start())
            yield RULE.finding(
                f"command /{command.stem} uses {match.group(0)} but has no 'argument-hint'",
                line,
                None,
                path=command.path,
            )


RULE = PluginRule(
    code="PE702",
    flag="COMMAND_ARGUMENT_HINT",
    name="command-argument-hint",
    severity=Severity.INFO,
    subscore="structural_completeness",
    summary="A command whose prompt uses `$ARGUMENTS` or `$1`…`$9` has an `argument-hint`.",
    why="The hint is shown while typing the command; without it users guess what to pass.",
    fix="Add 'argument-hint: <path> [--dry-run]'.",
    bad=Example(
        good_plugin(
            **{"commands__csv-clean.md": GOOD_COMMAND.replace("argument-hint: <path>\n", "")}
        ),
        "csv-tools",
        expect=(Expect("PE702", "commands/csv-clean.md", 6, None),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code slash commands documentation",
    limits="It looks for `$ARGUMENTS` and `$1`…`$9` in the prompt; whether the hint matches how "
    "the arguments are used is not checked. The finding has a line but no column.",
    links=(sources.CLAUDE_COMMANDS,),
    check=check,
)
