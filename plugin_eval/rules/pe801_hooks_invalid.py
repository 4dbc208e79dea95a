"""PE801: a plugin's hook configuration is one Claude Code can read."""

from __future__ import annotations

import difflib
import json
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from itertools import islice
from typing import Any

from plugin_eval import budgets
from plugin_eval.findings import Finding, Severity
from plugin_eval.json_input import Keyed
from plugin_eval.plugin import Manifest, PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin
from plugin_eval.textsearch import newlines

# The hook events Claude Code documents. An event it does not know is left alone (a newer
# release may add it); one a letter or two away from a known one is a misspelling.
EVENTS = (
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "Stop",
    "StopFailure",
    "PreCompact",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "WorktreeCreate",
    "WorktreeRemove",
    "ConfigChange",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
)
# What each kind of hook needs beside its type: the command to run, the prompt to send, or
# the address to post the event to.
NEEDS = {"command": "command", "prompt": "prompt", "http": "url"}
GOOD_HOOKS = (
    '{\n  "hooks": {\n    "PostToolUse": [\n      {\n        "matcher": "Write|Edit",\n'
    '        "hooks": [\n          {"type": "command", "command": '
    '"${CLAUDE_PLUGIN_ROOT}/scripts/check-csv.sh"}\n        ]\n      }\n    ]\n  }\n}\n'
)
# A plugin's hook configuration with the script it runs: what the good examples ship.
GOOD_HOOK_FILES = {
    "hooks__hooks.json": GOOD_HOOKS,
    "scripts__check-csv.sh": '#!/bin/sh\njq -r ".tool_input.file_path" | xargs csvlint\n',
}


class Locator:
    """Where strings of a JSON file's text are (JSON keeps no positions: the text is
    searched), each line found by bisection, never by counting line feeds from the start."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.breaks = newlines(text)

    def row(self, number: int) -> str:
        """The text of line ``number`` (1-based; empty past the last)."""
        if not 1 <= number <= len(self.breaks) + 1:
            return ""
        start = self.breaks[number - 2] + 1 if number > 1 else 0
        end = self.breaks[number - 1] if number <= len(self.breaks) else len(self.text)
        return self.text[start:end]

    def find(self, needle: str, start: int = 0) -> tuple[int | None, int | None, int]:
        """Line and column of ``needle`` from offset ``start``, and its offset (``start``
        when it is not there: the place is then unknown)."""
        at = self.text.find(needle, start)
        if at < 0:
            return None, None, start
        row = bisect_left(self.breaks, at)
        return row + 1, at - (self.breaks[row - 1] if row else -1), at


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for hooks in plugin.hooks:
        if hooks.data is None:
            yield RULE.finding(
                f"{hooks.path} is {hooks.error}",
                hooks.error_line,
                hooks.error_column,
                fix=hooks.fix or 'Write the file as JSON: {"hooks": {"PreToolUse": [...]}}.',
                path=hooks.path,
            )
            continue
        yield from _events(hooks)


def _events(hooks: Manifest) -> Iterator[Finding]:
    events = hooks.data.get("hooks") if hooks.data is not None else None
    locate = Locator(hooks.text)
    if not isinstance(events, Mapping):
        line, column, _ = locate.find('"hooks"')
        yield RULE.finding(
            "has no 'hooks' object mapping events to their hooks, so no hook runs",
            line or 1,
            column or 1,
            fix='Write {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}}.',
            path=hooks.path,
        )
        return
    if len(events) > budgets.HOOK_EVENTS:
        line, column, _ = locate.find('"hooks"')
        yield RULE.finding(
            f"names {len(events):,} events, where Claude Code sends {len(EVENTS)}: only the "
            f"first {budgets.HOOK_EVENTS} were read",
            line or 1,
            column or 1,
            fix="Keep one entry per event Claude Code sends; put the matchers of one event in "
            "its list.",
            path=hooks.path,
        )
    # Events the file writes more than once: a reader keeps the last of each.
    twice = events.repeated if isinstance(events, Keyed) else {}
    at = 0
    for event, groups in islice(events.items(), budgets.HOOK_EVENTS):
        # The file writes its events in the order they are read: each is looked for after
        # the one before.
        line, column, found = locate.find(json.dumps(event, ensure_ascii=False), at)
        at = found + 1 if line is not None else at
        if event in twice and line is not None:
            # Placed at the second: "Stop": as a key, else the name where it is next written.
            again, where, _ = locate.find(json.dumps(event, ensure_ascii=False) + ":", found + 1)
            if again is None:
                again, where, _ = locate.find(json.dumps(event, ensure_ascii=False), found + 1)
            yield RULE.finding(
                f"event '{event}' is written {twice[event] + 1} times: Claude Code keeps only "
                "the last, so the hooks of the others never run",
                again,
                where,
                fix=f"Put the matcher groups of every '{event}' in one list.",
                path=hooks.path,
            )
        # Event names are matched with their case: 'pretooluse' never fires.
        close = [known for known in EVENTS if known.lower() == str(event).lower()]
        close = close or difflib.get_close_matches(event, EVENTS, 1, 0.8)
        if event not in EVENTS and close:
            yield RULE.finding(
                f"event '{event}' is not one Claude Code sends (did you mean '{close[0]}'?), "
                "so its hooks never run",
                line,
                column,
                fix=f"Rename it to '{close[0]}'.",
                path=hooks.path,
            )
        problem = next((text for _, text in group_problems(groups)), None)
        if problem is not None:
            yield RULE.finding(
                f"event '{event}': {problem}, so Claude Code cannot run it",
                line,
                column,
                fix='Give each event a list of {"matcher": …, "hooks": [{"type": "command", '
                '"command": …}]}.',
                path=hooks.path,
            )


def _commands(events: Mapping[object, object]) -> Iterator[str]:
    """Every command of a configuration's events, in the order the file writes them (of the
    first HOOK_EVENTS events, those PE801 reads); a group's single 'hook' object, PE801's to
    report, holds a command its author means to run too."""
    for groups in islice(events.values(), budgets.HOOK_EVENTS):
        for group in groups if isinstance(groups, list) else []:
            inner = group.get("hooks", group.get("hook")) if isinstance(group, Mapping) else None
            inner = [inner] if isinstance(inner, Mapping) else inner
            for hook in inner if isinstance(inner, list) else []:
                command = hook.get("command") if isinstance(hook, Mapping) else None
                if isinstance(command, str):
                    yield command


def located_commands(hooks: Manifest) -> Iterator[tuple[str, int | None, int | None]]:
    """Every command of a readable configuration with the line and column where the file
    writes it (None where the text cannot be found); nothing for one PE801 finds no events
    in."""
    if hooks.data is not None:
        yield from commands_in(hooks.data, Locator(hooks.text))


def commands_in(
    data: Mapping[str, Any], locate: Locator
) -> Iterator[tuple[str, int | None, int | None]]:
    """Every command of the configuration ``data`` read from ``locate``'s text, with the line
    and column (in that text) where it is written. Each is looked for after the one before:
    one pass over the text."""
    events = data.get("hooks")
    if not isinstance(events, Mapping):
        return
    at = 0
    for command in _commands(events):
        line, column, found = locate.find(json.dumps(command, ensure_ascii=False)[1:-1], at)
        at = found + 1 if line is not None else at
        yield command, line, column


def group_problems(groups: Any) -> Iterator[tuple[Any, str]]:
    """What is wrong with an event's list of matcher groups: each group that has a problem,
    with the first of it; or the value itself, when it is no list."""
    if not isinstance(groups, list):
        yield groups, "its value is not a list of matcher groups"
        return
    for n, group in enumerate(groups, 1):
        problem = _group_problem(n, group)
        if problem is not None:
            yield group, problem


def single_hook(group: Any) -> bool:
    """Whether a matcher group writes one 'hook' object where Claude Code reads a 'hooks'
    list."""
    return isinstance(group, Mapping) and "hooks" not in group and "hook" in group


def _group_problem(n: int, group: Any) -> str | None:
    if single_hook(group):
        return f"matcher group {n} writes 'hook' where Claude Code reads a 'hooks' list"
    if not isinstance(group, Mapping) or not isinstance(group.get("hooks"), list):
        return f"matcher group {n} has no 'hooks' list"
    for m, hook in enumerate(group["hooks"], 1):
        if not isinstance(hook, Mapping) or not isinstance(hook.get("type"), str):
            return f"hook {m} of matcher group {n} has no 'type'"
        needed = NEEDS.get(hook["type"])
        value = hook.get(needed) if needed else None
        if needed and not (isinstance(value, str) and value.strip()):
            return (
                f"hook {m} of matcher group {n} is of type '{hook['type']}' but has no '{needed}'"
            )
    return None


RULE = PluginRule(
    code="PE801",
    flag="HOOKS_INVALID",
    name="hooks-invalid",
    severity=Severity.ERROR,
    subscore="orchestration_wiring",
    summary="A hook configuration (`hooks/hooks.json`, or a JSON file the manifest's `hooks` "
    "names) is a JSON object whose `hooks` maps each event Claude Code sends to matcher "
    "groups, each with a `hooks` list of hooks that have a `type` and what that type runs "
    "(a `command`, a `prompt` or an http hook's `url`), and names each event once.",
    why="Claude Code skips a configuration it cannot read, a misspelt event never fires, and "
    "of an event written twice only the last is kept: "
    "the plugin's checks (a format step, a guard before a tool) silently do not run.",
    fix='Write {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
    '"command": "…"}]}]}}.',
    bad=Example(
        good_plugin(**{"hooks__hooks.json": GOOD_HOOKS.replace('"PostToolUse"', '"PostToolUSe"')}),
        "csv-tools",
        expect=(Expect("PE801", "hooks/hooks.json", 3, 5),),
    ),
    good=Example(good_plugin(**GOOD_HOOK_FILES), "csv-tools"),
    source="Claude Code hooks and plugins reference",
    limits="An event Claude Code does not document is left alone unless it is a letter or two "
    "from one it does; a hook type other than command, prompt and http is not checked further. "
    "Findings are placed at the event's name (JSON keeps no positions: the text is searched).",
    links=(sources.CLAUDE_HOOKS, sources.CLAUDE_PLUGINS),
    check=check,
)
