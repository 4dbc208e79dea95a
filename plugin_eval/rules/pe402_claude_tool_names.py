"""PE402: instructions name Claude Code tools by their internal names."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule

CLAUDE_TOOLS = frozenset(
    {
        "Read",
        "Write",
        "Edit",
        "MultiEdit",
        "Bash",
        "Grep",
        "Glob",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "Task",
        "NotebookEdit",
        "NotebookRead",
        "LS",
        "BashOutput",
        "KillShell",
        "SlashCommand",
        "ExitPlanMode",
        "AskUserQuestion",
        "Skill",
    }
)


# Text that names the harness itself. A skill whose description names it is written for
# Claude Code; a line that names it ("In Claude Code: use the `Skill` tool", a table row per
# harness, "Claude Code runs `Bash`, `Edit` …") states a fact about that harness. Neither assumes
# that every harness has the tool.
CLAUDE_CODE = regexes.compile(r"\bclaude[ -]code\b", re.IGNORECASE)
# A tool's name that is one capitalised word ("Task", "Read", "Bash") is also an ordinary word or
# another library's name ("`Task`" in a table of async runtimes). It is the harness's tool only
# where its line says "tool", names a second tool in code, or tells the model to use it: "use
# `Read`", or the name as the verb opening a sentence, list item or cell ("`Grep` the logs").
ONE_WORD = regexes.compile(r"[A-Z][a-z]*|[A-Z]+")
_TOOL_WORD = regexes.compile(r"\btools?\b", re.IGNORECASE)
_USE_BEFORE = regexes.compile(
    r"\b(?:use|using|call|calls|run|runs|invoke|with|via)\s+(?:the\s+)?$", re.IGNORECASE
)
_OPENS = regexes.compile(r"(?:^|[|.!?:])[\s>*+-]*(?:\d+[.)]\s*)?$")
_THEN_WORD = regexes.compile(r"[ \t]+[a-z]")
_CODE_SPAN = regexes.compile(r"`([^`\n]+)`")


def as_tool(line: str, name: str, at: int) -> bool:
    """Whether ``name``, in code whose opening backtick is at index ``at`` of ``line``, is read
    as the harness's tool: a compound name always is, a one-word one as ONE_WORD says."""
    if ONE_WORD.fullmatch(name) is None:
        return True
    if _TOOL_WORD.search(line) is not None:
        return True
    if not ({m.group(1).strip() for m in _CODE_SPAN.finditer(line)} - {name}).isdisjoint(
        CLAUDE_TOOLS
    ):
        return True
    if _USE_BEFORE.search(line, 0, at) is not None:
        return True
    return (
        _OPENS.search(line, 0, at) is not None
        and _THEN_WORD.match(line, at + len(name) + 2) is not None
    )


def for_claude_code(doc: SkillDocument) -> bool:
    """Whether the skill is written for Claude Code: its description names it."""
    return CLAUDE_CODE.search(doc.description or "") is not None


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    if for_claude_code(doc):
        return
    seen: set[str] = set()
    # A name is judged once per line: the judgement reads the whole line (one line may hold
    # every span), and it is the same for each span of that name there.
    tried: set[tuple[int, str]] = set()
    for span in doc.inline_code:
        name = span.text.strip()
        if name in CLAUDE_TOOLS and name not in seen and (span.line, name) not in tried:
            tried.add((span.line, name))
            source = doc.line_text(span.line)
            at = source.find(f"`{name}`")
            if at < 0 or CLAUDE_CODE.search(source) is not None or not as_tool(source, name, at):
                continue
            seen.add(name)
            column = at + 1
            yield RULE.finding(
                f"`{name}` is a Claude Code tool name; other harnesses call it differently",
                span.line,
                column,
            )


RULE = Rule(
    code="PE402",
    flag="CLAUDE_TOOL_NAMES",
    name="claude-tool-names",
    severity=Severity.INFO,
    subscore="harness_portability",
    summary="Inline code does not name Claude Code tools (`Read`, `Bash`, `Grep`, `WebFetch`, …) "
    "as if every harness had them. Reported once per tool.",
    why="Codex, Copilot and Gemini CLI expose other tool names; instructions tied to Claude's "
    "names misfire or are ignored there.",
    fix="Describe the action ('read the file', 'search the code') rather than the tool name.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "\nUse `Grep` to find the header row.\n"},
        expect=(Expect("PE402", "SKILL.md", 10, 5),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL + "\nSearch the files for the header row.\n"}),
    source="PluginEval harness portability",
    limits="Only inline code that is exactly a tool name is seen; tool names in plain prose are "
    "PE403's and those in fenced code are ignored. A skill is taken to be written for Claude "
    "Code only when its description names Claude Code, and a line qualified by the harness "
    "only when it names Claude Code itself (a table row per harness, 'In Claude Code: …'). A "
    "one-word name ('Task', 'Read') counts only on a line that says 'tool' or names a second "
    "tool in code, after 'use', 'call', 'run' or 'with', or as the verb opening a sentence, list item "
    "or cell ('`Grep` the logs'); a one-word tool named alone elsewhere ('the `Read` step') is "
    "missed.",
    check=check,
)
