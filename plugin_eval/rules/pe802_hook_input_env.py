"""PE802: a hook command reads its input from standard input, not from variables."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.pe801_hooks_invalid import GOOD_HOOKS, position
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


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for hooks in plugin.hooks:
        events = hooks.data.get("hooks") if hooks.data is not None else None
        if not isinstance(events, Mapping):
            continue  # PE801's
        at = 0
        for command in _commands(events):
            names = sorted({m["name"] for m in INPUT_VARIABLE.finditer(command)})
            if not names:
                continue
            # Placed at the first variable, in the file's text as JSON writes the command.
            first = INPUT_VARIABLE.search(command)
            assert first is not None
            written = json.dumps(command, ensure_ascii=False)[1:-1]
            before = json.dumps(command[: first.start()], ensure_ascii=False)[1:-1]
            line, column, found = position(hooks.text, written, at)
            at = found + 1 if line is not None else at
            shown = ", ".join(f"${n}" for n in names)
            yield RULE.finding(
                f"hook command reads {shown}, which Claude Code does not set: a hook gets its "
                "input as JSON on standard input, so the command sees an empty value",
                line,
                column + len(before) if column is not None else None,
                path=hooks.path,
            )


def _commands(events: Mapping[object, object]) -> Iterator[str]:
    """Every command of the configuration, in the order the file writes them."""
    for groups in events.values():
        for group in groups if isinstance(groups, list) else []:
            inner = group.get("hooks") if isinstance(group, Mapping) else None
            for hook in inner if isinstance(inner, list) else []:
                command = hook.get("command") if isinstance(hook, Mapping) else None
                if isinstance(command, str):
                    yield command


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
    fix="Read the input from standard input, e.g. `jq -r '.tool_input.command'`, and refer to "
    "the plugin's files as ${CLAUDE_PLUGIN_ROOT}/….",
    bad=Example(
        good_plugin(
            **{
                "hooks__hooks.json": GOOD_HOOKS.replace(
                    "check-csv.sh", 'check-csv.sh \\"$TOOL_INPUT\\"'
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE802", "hooks/hooks.json", 7, 88),),
    ),
    good=Example(good_plugin(**{"hooks__hooks.json": GOOD_HOOKS}), "csv-tools"),
    source="Claude Code hooks reference",
    limits="It knows variables named after the hook's input (TOOL_…, HOOK_…, CLAUDE_TOOL_…, "
    "CLAUDE_PROMPT…); a script the command runs is not read.",
    links=(sources.CLAUDE_HOOKS,),
    check=check,
)
