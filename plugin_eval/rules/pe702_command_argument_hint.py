"""PE702: a command that takes arguments documents them."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from plugin_eval import budgets, markdown_parser, regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_COMMAND, good_plugin
from plugin_eval.textsearch import newlines

# What Claude Code replaces in a command's prompt: $ARGUMENTS (all of them), $ARGUMENTS[N]
# and its shorthand $N (0-based in its current documentation; $1 … $9 in the older one). A
# "$5" followed by ".0" or "," and digits is a sum of money, not an argument.
ARGUMENT = regexes.compile(r"\$ARGUMENTS(?:\[\d+\])?(?!\w)|\$\d(?![\w]|[.,]\d)")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for command in plugin.commands:
        if "argument-hint" in command.meta:
            continue
        body = command.body
        if ARGUMENT.search(body) is None:
            continue
        matches = list(ARGUMENT.finditer(body))
        ends = newlines(body)

        def row(match: re.Match[str], ends: list[int] = ends) -> int:
            return bisect_left(ends, match.start())  # the 0-based line of the body it is on

        # $N in a code block may be the code's own (awk's field, a shell function's
        # parameter); Claude Code replaces it all the same.
        code = _code_lines(body) if any(m.group()[1:].isdigit() for m in matches) else set()
        in_code = [m for m in matches if m.group()[1:].isdigit() and row(m) in code]
        coded = {m.start() for m in in_code}
        meant = [m for m in matches if m.start() not in coded]
        first = (meant or in_code)[0]
        line = command.file.body_start + row(first)
        column = first.start() - (body.rfind("\n", 0, first.start()) + 1) + 1
        used = sorted({m.group() for m in meant or in_code}, key=_order)
        fix = (
            f"Add an 'argument-hint' that names what {_listed(used)} stand"
            f"{'s' if len(used) == 1 else ''} for{_example(used)}."
        )
        if not meant:
            yield RULE.finding(
                f"command /{command.stem} has {first.group(0)} in a code block and no "
                f"'argument-hint': Claude Code replaces {_listed(used)} with the command's "
                "arguments there too, whether they are meant as arguments or belong to the code "
                "(an awk field, a shell function's parameter)",
                line,
                column,
                path=command.path,
                fix=f"If they are arguments: {fix[0].lower()}{fix[1:]} If they belong to the "
                "code: move the code into a script the command runs, where nothing replaces "
                "them.",
            )
            continue
        also = ""
        if in_code:
            where = command.file.body_start + row(in_code[0])
            shown = _listed(sorted({m.group() for m in in_code}, key=_order))
            also = (
                f" ({shown} in a code block, line {where}, is replaced with an argument too: "
                "move that code into a script if it is the code's own)"
            )
        yield RULE.finding(
            f"command /{command.stem} uses {first.group(0)} but has no 'argument-hint'{also}",
            line,
            column,
            path=command.path,
            fix=fix,
        )


def _code_lines(body: str) -> set[int]:
    """The 0-based lines of ``body`` inside fenced or indented code blocks."""
    lines = body.split("\n")
    tokens, _ = markdown_parser.parse_capped(lines, {}, budgets.TABLE_CELLS)
    inside: set[int] = set()
    for token in tokens:
        if token.type in ("fence", "code_block") and token.map:
            inside.update(range(token.map[0], token.map[1]))
    return inside


def _order(token: str) -> tuple[int, str]:
    digits = "".join(ch for ch in token if ch.isdigit())
    return (int(digits) if digits else -1, token)


def _listed(used: list[str]) -> str:
    shown = used[:4] + (["…"] if len(used) > 4 else [])
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _example(used: list[str]) -> str:
    """A placeholder for each argument taken by position, in order (``[arg1] [arg2]``), or
    one for them all when the prompt takes only $ARGUMENTS whole."""
    positions = {_order(token)[0] for token in used} - {-1}
    if not positions:
        return ": 'argument-hint: [what to pass]'"
    shown = " ".join(f"[arg{n}]" for n in range(1, min(len(positions), 9) + 1))
    return f", in order: 'argument-hint: {shown}'"


RULE = PluginRule(
    code="PE702",
    flag="COMMAND_ARGUMENT_HINT",
    name="command-argument-hint",
    severity=Severity.INFO,
    subscore="structural_completeness",
    summary="A command whose prompt uses `$ARGUMENTS`, `$ARGUMENTS[N]` or `$0`…`$9` has an "
    "`argument-hint`.",
    why="The hint is shown while typing the command; without it users guess what to pass.",
    fix="Add an 'argument-hint' that names what the arguments stand for, in order "
    "('argument-hint: [pr-number] [priority]').",
    bad=Example(
        good_plugin(
            **{"commands__csv-clean.md": GOOD_COMMAND.replace("argument-hint: <path>\n", "")}
        ),
        "csv-tools",
        expect=(Expect("PE702", "commands/csv-clean.md", 6, 23),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code slash commands documentation",
    limits="It looks for `$ARGUMENTS`, `$ARGUMENTS[N]` and `$0`…`$9` anywhere in the prompt "
    "(Claude Code replaces them in code blocks too), except a `$5` followed by `.0` or `,0` "
    "(a sum of money); whether the hint matches how the arguments are used is not checked.",
    links=(sources.CLAUDE_COMMANDS,),
    check=check,
)
