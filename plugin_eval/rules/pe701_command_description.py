"""PE701: a command has frontmatter with a description."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for command in plugin.commands:
        problems = [p for p in command.file.problems if p.kind.name != "NO_FRONTMATTER"]
        for problem in problems:
            yield RULE.finding(
                problem.message, problem.line, problem.column, problem.fix, path=command.path
            )
        description = command.meta.get("description")
        if not problems and not (isinstance(description, str) and description.strip()):
            yield RULE.finding(
                f"command /{command.stem} has no description",
                command.line_of("description"),
                1,
                fix="Add frontmatter with 'description: <what the command does>'.",
                path=command.path,
            )


RULE = PluginRule(
    code="PE701",
    flag="COMMAND_DESCRIPTION",
    name="command-description",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="Each `commands/*.md` has readable frontmatter with a `description`.",
    why="The description is what the `/` menu shows; without it users see the first line of the "
    "prompt or nothing.",
    fix="Add 'description: …' in frontmatter.",
    bad=Example(
        good_plugin(**{"commands__csv-clean.md": "Clean the CSV file at $ARGUMENTS.\n"}),
        "csv-tools",
        expect=(Expect("PE701", "commands/csv-clean.md", 1, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code slash commands documentation",
    limits="Only a non-empty description is required; whether it says what the command does is not "
    "judged. A command with no frontmatter is reported at line 1.",
    links=(sources.CLAUDE_COMMANDS,),
    check=check,
)
