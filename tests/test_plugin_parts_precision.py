"""What real plugins' agents and commands write, read as Claude Code reads it: a delegation
condition phrased another way is a trigger (PE602); a command's arguments are the ones Claude
Code replaces, and a sum of money is not one (PE702); a manifest path is placed at its key
and its fix fits what is missing (PE505). Each case is a small plugin of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from plugin_eval.config import Config
from plugin_eval.plugin_score import score_plugin
from plugin_eval.rules.base import GOOD_SKILL
from plugin_eval.rules.plugin_base import GOOD_AGENT, GOOD_COMMAND, GOOD_MANIFEST, good_plugin
from tests.conftest import write_files

Found = tuple[str, int | None, int | None, str, str | None]


def findings(tmp_path: Path, code: str, **files: str) -> list[Found]:
    folder = tmp_path / "notes-kit"
    write_files(folder, good_plugin(**files))
    return [
        (f.path, f.line, f.column, f.message, f.fix)
        for f in score_plugin(folder, Config(), "notes-kit").findings
        if f.code == code
    ]


def _agent(description: str) -> str:
    return GOOD_AGENT.replace(GOOD_AGENT.split("\n")[2], "description: " + description, 1)


# --- PE602: when to delegate, however it is said ----------------------------------------------


@pytest.mark.parametrize(
    "description",
    [
        "Opens the day's notes and lists open tasks. Use at the start of every work session.",
        "Checks the migration for lock-heavy statements. Invoke after any change to schema/.",
        "Writes release notes from merged PRs. Delegate to this agent whenever a tag is pushed.",
        "Finds reference images and mood boards. Delegates here when the user wants styles.",
    ],
)
def test_a_delegation_condition_phrased_otherwise_is_a_trigger(
    tmp_path: Path, description: str
) -> None:
    assert findings(tmp_path, "PE602", **{"agents__csv-analyst.md": _agent(description)}) == []


@pytest.mark.parametrize(
    "description",
    [
        "Writes release notes from merged PRs.",
        "Wraps callbacks; uses delegates for event handlers in C#.",  # no delegation to it
        "Summarises logs. Use at least two sources.",  # a quantity, not a moment
    ],
)
def test_a_description_that_says_no_condition_still_has_no_trigger(
    tmp_path: Path, description: str
) -> None:
    ((path, line, column, message, _),) = findings(
        tmp_path, "PE602", **{"agents__csv-analyst.md": _agent(description)}
    )
    assert (path, line, column) == ("notes-kit/agents/csv-analyst.md", 3, 1)
    assert message.startswith("agent description never says when to use it")


# --- PE702: the arguments Claude Code replaces --------------------------------------------------


def _command(body: str) -> str:
    return GOOD_COMMAND.replace("argument-hint: <path>\n", "").replace(
        "Clean the CSV file at $ARGUMENTS.\n", body
    )


def test_a_sum_of_money_is_not_an_argument(tmp_path: Path) -> None:
    body = "Draft the pitch:\n\n```text\nTotal raise: $5.0M, burn $1,200 a month\n```\n"
    assert findings(tmp_path, "PE702", **{"commands__csv-clean.md": _command(body)}) == []


def test_the_zero_based_argument_is_found_and_the_fix_names_each_one(tmp_path: Path) -> None:
    body = "Greet $0 warmly, then mention $1 and $0 again.\n"
    ((path, line, column, message, fix),) = findings(
        tmp_path, "PE702", **{"commands__csv-clean.md": _command(body)}
    )
    assert (path, line, column) == ("notes-kit/commands/csv-clean.md", 6, 7)
    assert message == "command /csv-clean uses $0 but has no 'argument-hint'"
    assert fix == (
        "Add an 'argument-hint' that names what $0 and $1 stand for, in order: "
        "'argument-hint: [arg1] [arg2]'."
    )


def test_all_the_arguments_at_once_get_one_placeholder(tmp_path: Path) -> None:
    body = "Review pull request $ARGUMENTS and list blocking issues.\n"
    ((_, line, column, _, fix),) = findings(
        tmp_path, "PE702", **{"commands__csv-clean.md": _command(body)}
    )
    assert (line, column) == (6, 21)
    assert fix == (
        "Add an 'argument-hint' that names what $ARGUMENTS stands for: "
        "'argument-hint: [what to pass]'."
    )


# --- PE505: placed at its key, with a fix that fits ---------------------------------------------


def test_a_missing_manifest_folder_is_placed_at_its_key_and_may_be_dropped(
    tmp_path: Path,
) -> None:
    manifest = GOOD_MANIFEST.replace('"author"', '"skills": "./skills-extra/",\n  "author"')
    ((path, line, column, message, fix),) = findings(
        tmp_path, "PE505", **{".claude-plugin__plugin.json": manifest}
    )
    assert (path, line, column) == ("notes-kit/.claude-plugin/plugin.json", 5, 3)
    assert message == "'skills' path './skills-extra/' does not exist"
    assert fix == (
        "Correct the path (relative to the plugin root, starting with './'), create the folder "
        "with the plugin's skills in it, or remove 'skills' if the plugin has none."
    )


def test_a_skills_path_in_a_plugin_with_no_skill_anywhere_is_a_warning(tmp_path: Path) -> None:
    # A generator wrote "skills" into the Codex manifest of a plugin of commands only.
    folder = tmp_path / "audit-kit"
    files = good_plugin(
        **{".codex-plugin__plugin.json": '{\n  "name": "audit-kit",\n  "skills": "./skills/"\n}\n'}
    )
    del files["skills/csv-clean/SKILL.md"]
    write_files(folder, files)
    [finding] = [
        f for f in score_plugin(folder, Config(), "audit-kit").findings if f.code == "PE505"
    ]
    assert (finding.path, finding.line, finding.column) == (
        "audit-kit/.codex-plugin/plugin.json",
        3,
        3,
    )
    assert finding.severity.value == "warning"
    assert finding.message == (
        "'skills' path './skills/' does not exist, and the plugin has no skills anywhere: "
        "nothing is lost, but the manifest names what is not there"
    )
    assert finding.fix == (
        "Remove 'skills' from .codex-plugin/plugin.json, or create './skills/' with the "
        "plugin's skills in it."
    )
    # With a skill in another folder, the path may be the one meant: an error, as before.
    write_files(folder, {"skill/csv-clean/SKILL.md": GOOD_SKILL})
    [finding] = [
        f for f in score_plugin(folder, Config(), "audit-kit").findings if f.code == "PE505"
    ]
    assert finding.severity.value == "error"


# --- PE606, PE704: keys Claude Code ignores ----------------------------------------------------


def test_an_agent_key_claude_code_ignores_is_named_with_the_field_meant(tmp_path: Path) -> None:
    agent = GOOD_AGENT.replace("model: inherit\n", "modle: sonnet\ndisallowed-tools: Bash\n")
    found = findings(tmp_path, "PE606", **{"agents__csv-analyst.md": agent})
    assert found == [
        (
            "notes-kit/agents/csv-analyst.md",
            5,
            1,
            "'modle' is not a field Claude Code reads for an agent (did you mean 'model'?): it "
            "is ignored",
            "Rename it to 'model'.",
        ),
        (
            "notes-kit/agents/csv-analyst.md",
            6,
            1,
            "'disallowed-tools' is not a field Claude Code reads for an agent (did you mean "
            "'disallowedTools'?): it is ignored",
            "Rename it to 'disallowedTools'.",
        ),
    ]


def test_every_field_documented_for_a_plugin_agent_passes(tmp_path: Path) -> None:
    extra = (
        "disallowedTools: Write\nmaxTurns: 5\nskills: [csv-clean]\n"
        "memory: project\nbackground: false\nisolation: worktree\ncolor: blue\neffort: high\n"
    )
    agent = GOOD_AGENT.replace("model: inherit\n", "model: inherit\n" + extra)
    assert findings(tmp_path, "PE606", **{"agents__csv-analyst.md": agent}) == []


def test_subagent_fields_a_plugin_agent_cannot_use_are_each_reported_where_written(
    tmp_path: Path,
) -> None:
    # Claude Code ignores hooks, mcpServers and permissionMode in an agent a plugin ships.
    extra = "permissionMode: plan\nmcpServers: [db]\nhooks:\n  Stop: []\n"
    agent = GOOD_AGENT.replace("model: inherit\n", "model: inherit\n" + extra)
    found = findings(tmp_path, "PE606", **{"agents__csv-analyst.md": agent})
    start = GOOD_AGENT.splitlines().index("model: inherit") + 2
    assert [(path, line, column) for path, line, column, _, _ in found] == [
        ("notes-kit/agents/csv-analyst.md", start, 1),
        ("notes-kit/agents/csv-analyst.md", start + 1, 1),
        ("notes-kit/agents/csv-analyst.md", start + 2, 1),
    ]
    assert [message.split("'")[1] for _, _, _, message, _ in found] == [
        "permissionMode",
        "mcpServers",
        "hooks",
    ]
    assert all("Claude Code ignores it there" in message for _, _, _, message, _ in found)


def test_a_command_key_of_another_tool_is_reported_and_its_own_fields_pass(
    tmp_path: Path,
) -> None:
    command = GOOD_COMMAND.replace(
        "argument-hint: <path>\n",
        "argument-hint: <path>\nmodel: haiku\ndisable-model-invocation: true\nglobs: '*.csv'\n",
    )
    ((path, line, column, message, fix),) = findings(
        tmp_path, "PE704", **{"commands__csv-clean.md": command}
    )
    assert (path, line, column) == ("notes-kit/commands/csv-clean.md", 6, 1)
    # Cursor's activation patterns are Claude Code's `paths`.
    assert message == (
        "'globs' is not a field Claude Code reads for a command (did you mean 'paths'?): "
        "it is ignored"
    )
    assert fix == "Rename it to 'paths'."


def test_every_plugin_rule_lowers_a_sub_score_its_part_measures(tmp_path: Path) -> None:
    """A finding on an agent, a command or a manifest that lowered no sub-score of its part
    would count for nothing: each rule's sub-score is one its part is scored on."""
    from plugin_eval.rules import PLUGIN_RULES

    measured = {
        "PE5": {"ecosystem_coherence"},
        "PE6": {"frontmatter_quality", "orchestration_wiring"},
        "PE7": {"structural_completeness"},
        "PE8": {"orchestration_wiring"},
    }
    wrong = [(r.code, r.subscore) for r in PLUGIN_RULES if r.subscore not in measured[r.code[:3]]]
    assert wrong == []
    agent = GOOD_AGENT.replace("model: inherit\n", "modle: inherit\n")
    folder = tmp_path / "notes-kit"
    write_files(folder, good_plugin(**{"agents__csv-analyst.md": agent}))
    result = score_plugin(folder, Config(), "notes-kit")
    (part,) = [p for p in result.parts if p.kind == "agent"]
    assert part.subscores["orchestration_wiring"].score == 0.9  # one warning: 0.10 off


# --- PE603: a tool list where the agent's work is to read and report ---------------------------


@pytest.mark.parametrize(
    ("description", "reported"),
    [
        ("Reviews pull requests for unsafe SQL and missing indexes. Use after a migration.", True),
        ("Audits IAM policies for wildcard actions. Use PROACTIVELY on policy changes.", True),
        ("Analyzes flaky test runs and explains the likely cause. Use when CI fails twice.", True),
        # It makes changes: the tools it inherits are the ones it needs (the default).
        ("Builds and deploys the preview environment. Use when a branch is pushed.", False),
        ("Reviews and fixes lint errors in changed files. Use before a commit.", False),
        # What it is used for, after the first sentence, says it builds (a verb, not a noun).
        ("Reviews threat models. Use PROACTIVELY when building secure-by-design systems.", False),
        ("Reviews schemas for unsafe defaults. Provides fix recommendations.", True),
        ("HR partner for hiring, onboarding and leave policies.", False),
    ],
)
def test_an_agent_without_tools_is_reported_only_when_its_work_is_reading(
    tmp_path: Path, description: str, reported: bool
) -> None:
    agent = _agent(description).replace("tools: Read, Grep, Bash\n", "")
    found = findings(tmp_path, "PE603", **{"agents__csv-analyst.md": agent})
    if not reported:
        assert found == []
        return
    [(path, line, column, message, fix)] = found
    assert (path, line, column) == ("notes-kit/agents/csv-analyst.md", 1, 1)
    word = description.split()[0]
    assert message == (
        f"agent's description says it reads and reports ('{word}') but it has no 'tools' "
        "list, so it inherits every tool of the session, Write, Edit and Bash included"
    )
    assert fix == (
        "Add 'tools: Read, Grep, Glob' and only what else the work needs (e.g. 'Bash(git diff:*)')."
    )


@pytest.mark.parametrize(
    ("examples", "reported"),
    [
        # The requests its prompt lists ask it to review: it reads and reports.
        ('- "Review this login flow for session fixation"\n- "Assess the CSP header"\n', True),
        # One asks it to implement: it changes things, whatever its description calls it.
        ('- "Audit the IAM policies"\n- "Implement zero-trust access for the admin API"\n', False),
        ('1. **"Harden the OCI buckets of the staging account"**\n', False),
        # Unquoted, a list item is the agent's own checklist for its report, not a request.
        ("- Implement canonical tags (recommend to the author)\n", True),
    ],
)
def test_an_agent_shown_requests_to_change_things_needs_the_tools_it_inherits(
    tmp_path: Path, examples: str, reported: bool
) -> None:
    agent = (
        _agent("Security auditor for compliance frameworks and vulnerability assessment.").replace(
            "tools: Read, Grep, Bash\n", ""
        )
        + "\n## Example interactions\n\n"
        + examples
    )
    found = findings(tmp_path, "PE603", **{"agents__csv-analyst.md": agent})
    assert [(p, line, column) for p, line, column, _, _ in found] == (
        [("notes-kit/agents/csv-analyst.md", 1, 1)] if reported else []
    )


def test_the_tools_an_agent_proposes_keep_the_ones_its_text_names(tmp_path: Path) -> None:
    """A web researcher that says to use WebSearch and WebFetch needs them, not only Read,
    Grep and Glob; Bash, when named, is to be narrowed to its commands."""
    agent = _agent("Research specialist for vendor documentation.").replace(
        "tools: Read, Grep, Bash\n", ""
    )
    web = agent + "\nUse WebSearch with allowed_domains, then WebFetch each hit.\n"
    [(path, line, column, _, fix)] = findings(
        tmp_path / "a", "PE603", **{"agents__csv-analyst.md": web}
    )
    assert (path, line, column) == ("notes-kit/agents/csv-analyst.md", 1, 1)
    assert fix == (
        "Add 'tools: Read, Grep, Glob, WebSearch, WebFetch' and only what else the work needs "
        "(it names WebSearch, WebFetch)."
    )
    shell = agent + "\nRun `git log` with Bash to date each change.\n"
    [(*_, fix)] = findings(tmp_path / "b", "PE603", **{"agents__csv-analyst.md": shell})
    assert fix == (
        "Add 'tools: Read, Grep, Glob, Bash' and only what else the work needs (it names Bash; "
        "narrow Bash to the commands it runs, e.g. 'Bash(git diff:*)')."
    )


def test_a_malformed_tools_value_is_reported_whatever_the_agent_does(tmp_path: Path) -> None:
    agent = _agent("Builds the preview environment.").replace(
        "tools: Read, Grep, Bash\n", "tools: 3\n"
    )
    [(path, line, column, message, _)] = findings(
        tmp_path, "PE603", **{"agents__csv-analyst.md": agent}
    )
    assert (path, line, column) == ("notes-kit/agents/csv-analyst.md", 4, 1)
    assert message == "'tools' should be a comma-separated string or a list of tool names"
