"""PE310 BROKEN_HOOK_SNIPPET: a Claude Code hook configuration that a skill gives to paste
into a settings file is one Claude Code runs. Each case is a small guard-rail skill of the
kind that sets up a PreToolUse hook."""

from __future__ import annotations

from plugin_eval.findings import Finding
from tests.conftest import MakeSkill, frontmatter, score

DESCRIPTION = (
    "Installs a Claude Code hook that blocks force pushes. Use when protecting a shared "
    "branch, auditing which git commands an agent may run, or removing the guard again."
)

SINGULAR = (
    "\n## Setup\n\n"  # lines 9-11
    "Add this to `.claude/settings.json`:\n\n"  # 12-13
    "```json\n"  # 14
    "{\n"  # 15
    '  "hooks": {\n'  # 16
    '    "PreToolUse": [\n'  # 17
    "      {\n"  # 18
    '        "matcher": "Bash",\n'  # 19
    '        "hook": {\n'  # 20: a single object, where a list is read
    '          "type": "command",\n'  # 21
    '          "command": "echo \\"$TOOL_INPUT\\" | grep -q -- --force && exit 2"\n'  # 22
    "        }\n"
    "      }\n"
    "    ]\n"
    "  }\n"
    "}\n"
    "```\n"
)


def found(make_skill: MakeSkill, body: str) -> list[Finding]:
    folder = make_skill(frontmatter(DESCRIPTION, name="push-guard") + body, "push-guard")
    return [f for f in score(folder).findings if f.code == "PE310"]


def places(findings: list[Finding]) -> list[tuple[str, int | None, int | None]]:
    return [(f.path, f.line, f.column) for f in findings]


def test_a_single_hook_object_and_an_input_variable_are_each_reported(
    make_skill: MakeSkill,
) -> None:
    findings = found(make_skill, SINGULAR)
    assert places(findings) == [("push-guard/SKILL.md", 20, 9), ("push-guard/SKILL.md", 22, 30)]
    assert findings[0].message == (
        "hook configuration, event 'PreToolUse': matcher group 1 writes 'hook' where Claude "
        "Code reads a 'hooks' list, so the hook it holds never runs"
    )
    assert findings[0].fix.startswith('Give each matcher group a list: "hooks": [')
    assert findings[1].message == (
        "hook command reads $TOOL_INPUT, which Claude Code does not set: a hook gets its input "
        "as JSON on standard input, so the command sees an empty value"
    )
    assert "jq -r '.tool_input.command'" in findings[1].fix


def test_a_here_document_in_a_list_item_is_read_and_placed_in_its_indented_lines(
    make_skill: MakeSkill,
) -> None:
    body = (
        "\n## Setup\n\n"  # 9-11
        "1. Write the project's settings:\n\n"  # 12-13
        "   ```bash\n"  # 14
        "   mkdir -p .claude\n"  # 15
        "   cat > .claude/settings.json <<'EOF'\n"  # 16
        '   {"hooks": {"PreToolUse": [{"matcher": "Bash",\n'  # 17
        '     "hooks": [{"type": "command", "command": "guard --cmd ${TOOL_INPUT}"}]}]}}\n'  # 18
        "   EOF\n"
        "   ```\n"
    )
    findings = found(make_skill, body)
    assert places(findings) == [("push-guard/SKILL.md", 18, 60)]
    assert findings[0].message.startswith("hook command reads $TOOL_INPUT, which")


def test_a_configuration_as_documented_is_not_reported(make_skill: MakeSkill) -> None:
    good = SINGULAR.replace('"hook": {', '"hooks": [{').replace(
        "        }\n      }", "        }]\n      }"
    )
    good = good.replace('echo \\"$TOOL_INPUT\\"', "jq -r '.tool_input.command'")
    assert found(make_skill, good) == []
    # A command that sets the variable itself from standard input reads no unset variable.
    own = good.replace("jq -r '.tool_input.command'", 'TOOL_INPUT=$(cat); echo \\"$TOOL_INPUT\\"')
    assert found(make_skill, own) == []


def test_other_hooks_and_unreadable_text_are_not_a_claude_code_configuration(
    make_skill: MakeSkill,
) -> None:
    # git hooks in a husky configuration: no event Claude Code sends.
    husky = '\n```json\n{"hooks": {"pre-commit": "npm test", "pre-push": "npm run lint"}}\n```\n'
    # A sketch with a comment and a placeholder is not JSON: not read.
    sketch = SINGULAR.replace('"matcher": "Bash",', '"matcher": "Bash", // every shell call')
    # A Python block that builds the same dictionary is code, not a configuration to paste.
    python = '\n```python\nconfig = {"hooks": {"Stop": [{"hook": {}}]}}\n```\n'
    for body in (husky, sketch, python):
        assert found(make_skill, body) == []


def test_other_structural_problems_are_placed_at_the_event(make_skill: MakeSkill) -> None:
    body = (
        "\n```json\n"  # 9-10
        "{\n"  # 11
        '  "hooks": {\n'  # 12
        '    "Stop": [{"hooks": [{"type": "command"}]}],\n'  # 13
        '    "SessionStart": {"hooks": []}\n'  # 14
        "  }\n"
        "}\n"
        "```\n"
    )
    findings = found(make_skill, body)
    assert [(f.line, f.column, f.message) for f in findings] == [
        (
            13,
            5,
            "hook configuration, event 'Stop': hook 1 of matcher group 1 is of type 'command' "
            "but has no 'command', so the hook it holds never runs",
        ),
        (
            14,
            5,
            "hook configuration, event 'SessionStart': its value is not a list of matcher "
            "groups, so the hook it holds never runs",
        ),
    ]


def test_every_group_written_with_a_single_hook_is_reported_at_its_own_key(
    make_skill: MakeSkill,
) -> None:
    body = (
        "\n```json\n"  # 9-10
        '{"hooks": {"PreToolUse": [\n'  # 11
        '  {"matcher": "Bash", "hook": {"type": "command", "command": "guard push"}},\n'  # 12
        '  {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard rm"}]},\n'  # 13
        '  {"matcher": "Write", "hook": {"type": "command", "command": "guard write"}}\n'  # 14
        "]}}\n"
        "```\n"
    )
    findings = found(make_skill, body)
    assert [(f.line, f.column, f.message.split(": ")[1]) for f in findings] == [
        (
            12,
            23,
            "matcher group 1 writes 'hook' where Claude Code reads a 'hooks' list, so the "
            "hook it holds never runs",
        ),
        (
            14,
            24,
            "matcher group 3 writes 'hook' where Claude Code reads a 'hooks' list, so the "
            "hook it holds never runs",
        ),
    ]
