"""PE701: a command has frontmatter with a description."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import Part, PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin
from plugin_eval.textsearch import one_line


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for command in plugin.commands:
        problems = [p for p in command.file.problems if p.kind.name != "NO_FRONTMATTER"]
        for problem in problems:
            yield RULE.finding(
                problem.message, problem.line, problem.column, problem.fix, path=command.path
            )
        description = command.meta.get("description")
        if not problems and not (isinstance(description, str) and description.strip()):
            yield _undescribed(command)


def _undescribed(command: Part) -> Finding:
    """Claude Code shows a command with no description by the first line of its prompt: a
    title heading still says what it does (a note), a line of the prompt does not."""
    first = next((t for t in map(str.strip, command.body.splitlines()) if t), None)
    title = _title(first or "")
    # A title made only of the command's own words ("# Onboard" for /onboard) tells the menu's
    # reader nothing the name did not: that is no description either.
    bare = bool(title) and _words(title) <= _words(command.stem)
    if bare:
        shown = f"its title heading '{one_line(title, 60)}', which only repeats its name"
    elif title:
        shown = f"its title heading '{one_line(title, 60)}'"
    elif first is not None:
        shown = f"the first line of its prompt ('{one_line(first, 60)}'), not what it does"
    else:
        shown = "nothing: its prompt is empty"
    return RULE.finding(
        f"command /{command.stem} has no description: the / menu shows {shown}",
        command.line_of("description"),
        1,
        fix="Add frontmatter with 'description: <what the command does>'.",
        path=command.path,
        severity=Severity.INFO if title and not bare else None,
    )


def _words(text: str) -> set[str]:
    """The words of a name or title, in lower case: "csv-clean" and "CSV Clean" hold the same."""
    return set("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _title(line: str) -> str:
    """The text of an ATX heading ("# Multi-Agent Code Review", closing hashes dropped), or
    "" for a line that is not one. Read with string methods, once along the line."""
    hashes = len(line) - len(line.lstrip("#"))
    if not 1 <= hashes <= 6 or line[hashes : hashes + 1] not in (" ", "\t"):
        return ""
    text = line[hashes:].strip()
    closed = text.rstrip("#")
    # A closing run of '#' counts only after a space ("## Title ##"), not in "Tips for C#".
    return closed.strip() if closed == "" or closed[-1] in " \t" else text


RULE = PluginRule(
    code="PE701",
    flag="COMMAND_DESCRIPTION",
    name="command-description",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="Each `commands/*.md` has readable frontmatter with a `description`.",
    why="The description is what the `/` menu shows; without it Claude Code shows the first "
    "line of the prompt instead. A title heading there still names the command (an info note); "
    "a title that only repeats the command's name ('# Onboard' for /onboard), a line of the "
    "prompt ('You are an expert …') or nothing does not (a warning).",
    fix="Add 'description: …' in frontmatter.",
    bad=Example(
        good_plugin(**{"commands__csv-clean.md": "Clean the CSV file at $ARGUMENTS.\n"}),
        "csv-tools",
        expect=(Expect("PE701", "commands/csv-clean.md", 1, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code slash commands documentation",
    limits="Only a non-empty description is required; whether it, or the title heading shown "
    "in its place, says what the command does is not judged. A command with no frontmatter is "
    "reported at line 1.",
    links=(sources.CLAUDE_COMMANDS,),
    check=check,
)
