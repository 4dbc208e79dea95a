"""PE802: a hook command reads its input from standard input, not from variables."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.pe801_hooks_invalid import GOOD_HOOK_FILES, GOOD_HOOKS, located_commands
from plugin_eval.rules.plugin_base import good_plugin

# A variable named after the hook's input (its tool, its arguments, its result): Claude Code
# sends that input as JSON on standard input and sets no such variable, so the command reads
# an empty string. The variables it does set are CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_ROOT and
# CLAUDE_ENV_FILE.
INPUT_VARIABLE = regexes.compile(
    r"\$\{?(?P<name>(?:CLAUDE_)?(?:TOOL|HOOK)_[A-Z0-9_]+|CLAUDE_(?:TOOL|USER_PROMPT|PROMPT)"
    r"[A-Z0-9_]*)\}?",
    re.ASCII,
)

# A variable the command sets itself ("TOOL_INPUT=$(cat)", "export HOOK_DATA=…",
# "read -r TOOL_INPUT"): reading it back is no reading of a variable Claude Code never set.
ASSIGNED = regexes.compile(
    r"(?:^|(?<=[\s;&|(]))(?:(?:export|local|declare|readonly)\s+(?:-\w+\s+)*)?"
    r"(?P<set>[A-Za-z_]\w*)\+?=|\bread\s+(?:-\w+\s+)*(?P<read>[A-Za-z_]\w*)",
    re.ASCII,
)


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for hooks in plugin.hooks:
        for command, line, column in located_commands(hooks):
            unset = unset_variables(command)
            if unset is not None:
                shown, offset = unset
                yield RULE.finding(
                    message(shown),
                    line,
                    column + offset if column is not None else None,
                    path=hooks.path,
                    fix=fix(shown),
                )


def unset_variables(command: str) -> tuple[str, int] | None:
    """The input variables ``command`` reads that Claude Code never sets, as they are named in
    a message (``$TOOL_INPUT, $TOOL_NAME``), and the offset of the first in the command as
    JSON writes it (escapes counted); None when it reads none."""
    found = list(INPUT_VARIABLE.finditer(command))
    if not found:
        return None
    own = {m["set"] or m["read"] for m in ASSIGNED.finditer(command)}
    read = [m for m in found if m["name"] not in own]
    if not read:
        return None
    before = json.dumps(command[: read[0].start()], ensure_ascii=False)[1:-1]
    return ", ".join(f"${n}" for n in sorted({m["name"] for m in read})), len(before)


def message(shown: str) -> str:
    return (
        f"hook command reads {shown}, which Claude Code does not set: a hook gets its input as "
        "JSON on standard input, so the command sees an empty value"
    )


def fix(shown: str) -> str:
    return (
        f"Read the input from standard input in place of {shown}: a program the command runs "
        "gets it there as it is, and a shell line takes one field with jq, e.g. "
        "`jq -r '.tool_input.command'` (.tool_name, .tool_response …)."
    )


RULE = PluginRule(
    code="PE802",
    flag="HOOK_INPUT_FROM_ENV",
    name="hook-input-from-env",
    severity=Severity.WARNING,
    subscore="orchestration_wiring",
    summary="A hook command reads the event's input from standard input (JSON: tool_name, "
    "tool_input, tool_response, prompt …), not from variables such as `$TOOL_INPUT` or "
    "`$CLAUDE_TOOL_NAME` that Claude Code never sets.",
    why="Claude Code passes a hook its input as JSON on standard input and sets only "
    "CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_ROOT and CLAUDE_ENV_FILE: a guard that checks "
    "`$TOOL_INPUT` checks an empty string and lets everything through.",
    fix="Read the input from standard input, e.g. `jq -r '.tool_input.command'`.",
    bad=Example(
        good_plugin(
            **{
                **GOOD_HOOK_FILES,
                "hooks__hooks.json": GOOD_HOOKS.replace(
                    "check-csv.sh", 'check-csv.sh \\"$TOOL_INPUT\\"'
                ),
            }
        ),
        "csv-tools",
        expect=(Expect("PE802", "hooks/hooks.json", 7, 88),),
    ),
    good=Example(good_plugin(**GOOD_HOOK_FILES), "csv-tools"),
    source="Claude Code hooks reference",
    limits="It knows variables named after the hook's input (TOOL_…, HOOK_…, CLAUDE_TOOL_…, "
    "CLAUDE_PROMPT…); one the command sets itself (`TOOL_INPUT=$(cat)`, `read -r HOOK_DATA`) "
    "is not reported; a script the command runs is not read.",
    links=(sources.CLAUDE_HOOKS,),
    check=check,
)
