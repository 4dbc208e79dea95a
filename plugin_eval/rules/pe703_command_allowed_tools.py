"""PE703: a command that runs shell lines pre-approves them with allowed-tools."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_COMMAND, good_plugin
from plugin_eval.textsearch import one_line

# "!`git status`" runs before the prompt is sent (Claude Code's bash pre-execution).
SHELL_LINE = regexes.compile(r"!`[^`]+`")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for command in plugin.commands:
        tools = command.meta.get("allowed-tools")
        if tools is not None and not (
            isinstance(tools, str)
            or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
        ):
            yield RULE.finding(
                "'allowed-tools' should be a string or a list of strings",
                command.line_of("allowed-tools"),
                1,
                path=command.path,
            )
            continue
        match = SHELL_LINE.search(command.body)
        if match and tools is None:
            body = command.body
            line = command.file.body_start + body.count("\n", 0, match.start())
            column = match.start() - body.rfind("\n", 0, match.start())
            yield RULE.finding(
                f"command /{command.stem} runs {match.group(0)} but declares no 'allowed-tools'",
                line,
                column,
                fix=f"Add 'allowed-tools: Bash({_program(match.group(0))}:*)' naming exactly "
                "what the command runs.",
                path=command.path,
            )


def _program(shell: str) -> str:
    """What an allowed-tools rule names for a shell line: its program and subcommand
    (`git tag --list` is `git tag`), or the program alone when an option or a path follows
    it, or when it is a path itself (`./build.sh`)."""
    words = shell[2:-1].split()[:2]
    if len(words) == 2 and ("/" in words[0] or not words[1].isidentifier()):
        words = words[:1]
    return one_line(" ".join(words), 60) or "COMMAND"


RULE = PluginRule(
    code="PE703",
    flag="COMMAND_ALLOWED_TOOLS",
    name="command-allowed-tools",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="A command that runs shell lines (`!`git status``) has `allowed-tools`, and "
    "`allowed-tools` is a string or a list.",
    why="Without pre-approval every run stops to ask for permission, or the shell line fails.",
    fix="Add 'allowed-tools: Bash(git status:*)' naming exactly what the command runs.",
    bad=Example(
        good_plugin(
            **{
                "commands__csv-clean.md": GOOD_COMMAND.replace(
                    "allowed-tools: Bash(python:*)\n", ""
                ).replace("Clean the", "Files: !`ls`\n\nClean the")
            }
        ),
        "csv-tools",
        expect=(Expect("PE703", "commands/csv-clean.md", 6, 8),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code slash commands documentation",
    limits="It looks for shell lines (`!` followed by a code span) in the prompt; whether "
    "`allowed-tools` covers the commands they run is not checked.",
    links=(sources.CLAUDE_COMMANDS,),
    check=check,
)
