"""PE402: instructions name Claude Code tools by their internal names."""

from __future__ import annotations

from collections.abc import Iterator

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


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    seen: set[str] = set()
    for span in doc.inline_code:
        name = span.text.strip()
        if name in CLAUDE_TOOLS and name not in seen:
            seen.add(name)
            source = doc.line_text(span.line)
            column = source.find(f"`{name}`") + 1 or None
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
    "PE403's and those in fenced code are ignored. A skill written only for Claude Code is "
    "reported too.",
    check=check,
)
