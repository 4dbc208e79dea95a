"""PE310: a hook configuration the skill gives to paste is one Claude Code runs."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from plugin_eval import budgets
from plugin_eval.analysis import Facts
from plugin_eval.document import CodeBlock, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.json_input import JsonInputError, parse
from plugin_eval.rules import pe802_hook_input_env, sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule
from plugin_eval.rules.pe309_inert_gitignore_line import HEREDOC
from plugin_eval.rules.pe801_hooks_invalid import (
    EVENTS,
    Locator,
    commands_in,
    group_problems,
    single_hook,
)

_SHELLS = frozenset({"bash", "sh", "shell", "zsh", "console", "terminal"})
_JSONS = frozenset({"", "json", "jsonc", "json5"})


@dataclass(frozen=True, slots=True)
class Snippet:
    """A hook configuration written in SKILL.md: what it reads as, its JSON text (to find
    places in), and the line of SKILL.md its first line is on."""

    data: Mapping[str, Any]
    locate: Locator
    line: int


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for snippet in hook_snippets(doc):
        yield from _structure(doc, snippet)
        for command, row, column in commands_in(snippet.data, snippet.locate):
            unset = pe802_hook_input_env.unset_variables(command)
            if unset is None:
                continue
            shown, offset = unset
            # Placed at the first variable read, as PE802 places it.
            line, at = _place(doc, snippet, row, column + offset if column is not None else None)
            yield RULE.finding(
                pe802_hook_input_env.message(shown),
                line,
                at,
                fix=pe802_hook_input_env.fix(shown),
            )


def _structure(doc: SkillDocument, snippet: Snippet) -> Iterator[Finding]:
    """A finding for each matcher group Claude Code cannot run (the first problem of each),
    placed at its singular 'hook' key when that is the problem, else at the event's name."""
    locate = snippet.locate
    at = 0
    for event, groups in islice(snippet.data["hooks"].items(), budgets.HOOK_EVENTS):
        name = json.dumps(event, ensure_ascii=False)
        row, column, found = locate.find(name, at)
        at = found + 1 if row is not None else at
        # Each singular 'hook' is looked for after the one before, within this event.
        after = at
        for group, problem in islice(group_problems(groups), budgets.FINDINGS_PER_CODE):
            singular = single_hook(group)
            where = (row, column)
            if singular:
                hook_row, hook_column, hook_at = locate.find('"hook"', after)
                if hook_row is not None:
                    where, after = (hook_row, hook_column), hook_at + 1
            line, place = _place(doc, snippet, *where)
            yield RULE.finding(
                f"hook configuration, event '{event}': {problem}, so the hook it holds never runs",
                line,
                place,
                fix='Give each matcher group a list: "hooks": [{"type": "command", "command": '
                '…}], in place of "hook": {…}.'
                if singular
                else 'Give each event a list of {"matcher": …, "hooks": [{"type": "command", '
                '"command": …}]}.',
            )


def _place(
    doc: SkillDocument, snippet: Snippet, row: int | None, column: int | None
) -> tuple[int, int | None]:
    """SKILL.md's line and column for a row and column of the snippet's text (None where the
    text was not found): the block's lines may stand indented in a list item."""
    if row is None:
        return snippet.line, None
    line = snippet.line + row - 1
    written = snippet.locate.row(row)
    indent = doc.line_text(line).find(written) if written else -1
    return line, (indent + column if column is not None and indent >= 0 else None)


def hook_snippets(doc: SkillDocument) -> Iterator[Snippet]:
    """Every hook configuration SKILL.md's code blocks hold: a JSON block, or a here-document
    in a shell block, that reads as an object whose "hooks" maps at least one event Claude
    Code sends. Text that does not parse (comments, "…" placeholders) is not one."""
    for block in doc.code_blocks:
        if '"hooks"' not in block.content or len(block.content) > budgets.LINK_BYTES_READ:
            continue
        first = block.line + (1 if block.fenced else 0)
        language = block.language.lower()
        if language in _JSONS and block.content.lstrip().startswith("{"):
            snippet = _read(block.content, first)
            if snippet is not None:
                yield snippet
        elif language in _SHELLS or not language:
            yield from _here_documents(block, first)


def _here_documents(block: CodeBlock, first: int) -> Iterator[Snippet]:
    lines = block.content.split("\n")
    index = 0
    while index < len(lines):
        arrows = lines[index].find("<<")
        heredoc = HEREDOC.match(lines[index], arrows) if arrows >= 0 else None
        index += 1
        if heredoc is None:
            continue
        start = index
        while index < len(lines) and lines[index].strip() != heredoc["end"]:
            index += 1
        text = "\n".join(lines[start:index])
        if '"hooks"' in text:
            snippet = _read(text, first + start)
            if snippet is not None:
                yield snippet


def _read(text: str, line: int) -> Snippet | None:
    try:
        data = parse(text)
    except JsonInputError:
        return None
    if not isinstance(data, Mapping):
        return None
    events = data.get("hooks")
    if not isinstance(events, Mapping) or not any(event in EVENTS for event in events):
        return None
    return Snippet(data, Locator(text), line)


BAD_SNIPPET = (
    '\nAdd this to the project\'s `.claude/settings.json`:\n\n```json\n{\n  "hooks": {\n'
    '    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hook": {\n'
    '          "type": "command",\n          "command": "scripts/guard.sh \\"$TOOL_INPUT\\""\n'
    "        }\n      }\n    ]\n  }\n}\n```\n"
)

RULE = Rule(
    code="PE310",
    flag="BROKEN_HOOK_SNIPPET",
    name="broken-hook-snippet",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="A Claude Code hook configuration that SKILL.md gives (a JSON block, or a here-"
    "document a shell block writes, whose `hooks` names an event Claude Code sends) is one "
    "Claude Code runs: each event has a list of matcher groups, each group a `hooks` list "
    "(not a single `hook` object) of hooks with a `type` and what that type runs, and no "
    "command reads the event's input from variables Claude Code never sets (`$TOOL_INPUT`, "
    "`$CLAUDE_TOOL_NAME` …).",
    why="The user pastes the configuration as the skill gives it: a matcher group without a "
    "`hooks` list runs nothing, and a guard that reads `$TOOL_INPUT` checks an empty string "
    "and lets every call through, while the skill says it is in place.",
    fix='Write each matcher group as {"matcher": …, "hooks": [{"type": "command", "command": '
    "…}]}, and read the input from standard input (`jq -r '.tool_input.command'`).",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + BAD_SNIPPET},
        expect=(Expect("PE310", "SKILL.md", 18, 9), Expect("PE310", "SKILL.md", 20, 42)),
    ),
    good=Example(
        {
            "SKILL.md": GOOD_SKILL
            + BAD_SNIPPET.replace('"hook": {', '"hooks": [{')
            .replace("        }\n      }", "        }]\n      }")
            .replace(' \\"$TOOL_INPUT\\"', "")
        }
    ),
    source="Claude Code hooks reference",
    limits="Read in SKILL.md's code blocks: a block whose language is json, jsonc, json5 or "
    "none and whose text is a JSON object, and the here-documents of shell blocks; text that "
    "is not valid JSON (comments, '…' placeholders) is not read. A configuration is one only "
    "when its `hooks` names an event Claude Code documents. The first problem of each matcher "
    "group is reported, and each command that reads an input variable once, as PE801 and "
    "PE802 read a plugin's hooks file.",
    links=(sources.CLAUDE_HOOKS,),
    check=check,
)
