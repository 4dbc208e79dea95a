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
            found = list(INPUT_VARIABLE.finditer(command))
            if not found:
                continue
            own = {m["set"] or m["read"] for m in ASSIGNED.finditer(command)}
            read = [m for m in found if m["name"] not in own]
            if not read:
                continue
            names = sorted({m["name"] for m in read})
            # Placed at the first variable, in the file's text as JSON writes the command.
            first = read[0]
            before = json.dumps(command[: first.start()], ensure_ascii=False)[1:-1]
            shown = ", ".join(f"${n}" for n in names)
            yield RULE.finding(
                f"hook command reads {shown}, which Claude Code does not set: a hook gets its "
                "input as JSON on standard input, so the command sees an empty value",
                line,
                column + len(before) if column is not None else None,
                path=hooks.path,
                fix=f"Read the input from standard input in place of {shown}: a program the "
                "command runs gets it there as it is, and a shell line takes one field with "
                "jq, e.g. `jq -r '.tool_input.command'` (.tool_name, .tool_response …).",
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
