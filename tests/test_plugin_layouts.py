"""Plugin layouts Claude Code documents and loads, read as it reads them: commands in
namespace folders, parts at the paths the manifest names, a manifest's own skills folder, a
plugin of MCP servers only, a marketplace's `metadata.pluginRoot`; and the forms it does not
load, reported where they are written (a part folder inside `.claude-plugin/`, a manifest
path without `./`, an agent field a plugin agent cannot use)."""

from __future__ import annotations

import json
from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.discovery import discover
from plugin_eval.plugin import parse_plugin, top_level_keys
from plugin_eval.plugin_score import score_plugin
from plugin_eval.rules.plugin_base import GOOD_AGENT, GOOD_COMMAND, GOOD_MANIFEST, GOOD_SKILL
from tests.conftest import write_files

MANIFEST = ".claude-plugin/plugin.json"


def manifest(**extra: object) -> str:
    data = json.loads(GOOD_MANIFEST)
    data.update(extra)
    return json.dumps(data, indent=2) + "\n"


def found(folder: Path, code: str) -> list[tuple[str, int | None, int | None, str]]:
    return [
        (f.path, f.line, f.column, f.message)
        for f in score_plugin(folder, Config(), "kit").findings
        if f.code == code
    ]


def test_commands_in_namespace_folders_are_scored_and_the_plugin_is_not_empty(
    tmp_path: Path,
) -> None:
    write_files(
        tmp_path,
        {
            MANIFEST: GOOD_MANIFEST,
            "commands/git/sync.md": GOOD_COMMAND,
            "commands/git/deep/tag.md": "Tag the release.\n",
        },
    )
    plugin = parse_plugin(tmp_path)
    assert [c.path for c in plugin.commands] == ["commands/git/sync.md", "commands/git/deep/tag.md"]
    assert found(tmp_path, "PE507") == []
    # The nested command without frontmatter is linted like any other (PE701, its own file).
    assert [(p, line) for p, line, _, _ in found(tmp_path, "PE701")] == [
        ("kit/commands/git/deep/tag.md", 1)
    ]


def test_agents_and_commands_at_manifest_paths_add_to_the_default_folders(
    tmp_path: Path,
) -> None:
    write_files(
        tmp_path,
        {
            MANIFEST: manifest(agents=["./specialists/reviewer.md"], commands="./custom/"),
            "specialists/reviewer.md": GOOD_AGENT.replace("model: inherit", "model: worker"),
            "custom/clean.md": GOOD_COMMAND,
            "commands/csv-clean.md": GOOD_COMMAND,
        },
    )
    plugin = parse_plugin(tmp_path)
    assert [a.path for a in plugin.agents] == ["specialists/reviewer.md"]
    assert [c.path for c in plugin.commands] == ["commands/csv-clean.md", "custom/clean.md"]
    # The agent at the manifest's path is linted: its model is not one Claude Code accepts.
    assert [(p, line, col) for p, line, col, _ in found(tmp_path, "PE604")] == [
        ("kit/specialists/reviewer.md", 5, 1)
    ]


def test_a_skills_folder_the_manifest_names_holds_the_plugins_skills_not_loose_ones(
    tmp_path: Path,
) -> None:
    plugin_dir = tmp_path / "kit"
    write_files(
        plugin_dir,
        {
            MANIFEST: manifest(skills="./extra-skills/"),
            "extra-skills/csv-clean/SKILL.md": GOOD_SKILL,
            "skills/csv-clean/SKILL.md": GOOD_SKILL,
        },
    )
    plugin = parse_plugin(plugin_dir)
    assert sorted(p.relative_to(plugin_dir).as_posix() for p in plugin.skills) == [
        "extra-skills/csv-clean",
        "skills/csv-clean",
    ]
    items = discover(tmp_path).items
    assert [(i.kind.value, i.rel) for i in items] == [("plugin", "kit")]


def test_a_plugin_of_mcp_servers_only_is_told_so_in_a_note_not_an_error(tmp_path: Path) -> None:
    servers = {"mcpServers": {"db": {"command": "npx", "args": ["@company/db-mcp"]}}}
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, ".mcp.json": json.dumps(servers)})
    [finding] = [f for f in score_plugin(tmp_path, Config(), "kit").findings if f.code == "PE507"]
    assert (finding.path, finding.line, finding.column) == ("kit/" + MANIFEST, 1, None)
    assert finding.severity.value == "info"
    assert finding.message.startswith("the plugin holds only MCP servers (.mcp.json)")


def test_an_empty_plugin_is_still_an_error(tmp_path: Path) -> None:
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST})
    [finding] = [f for f in score_plugin(tmp_path, Config(), "kit").findings if f.code == "PE507"]
    assert finding.severity.value == "error"


def test_a_part_folder_inside_the_manifest_folder_is_reported_once_with_its_count(
    tmp_path: Path,
) -> None:
    write_files(
        tmp_path,
        {
            MANIFEST: GOOD_MANIFEST,
            ".claude-plugin/commands/a.md": GOOD_COMMAND,
            ".claude-plugin/commands/b.md": GOOD_COMMAND,
            "skills/csv-clean/SKILL.md": GOOD_SKILL,
        },
    )
    assert found(tmp_path, "PE508") == [
        (
            "kit/.claude-plugin/commands/",
            None,
            None,
            "'.claude-plugin/commands/' holds 2 file(s), but Claude Code reads commands/ from "
            "the plugin's root, never from .claude-plugin/: none of them is loaded",
        )
    ]


def test_a_manifest_path_without_a_leading_dot_slash_is_a_warning_at_its_key(
    tmp_path: Path,
) -> None:
    write_files(
        tmp_path,
        {
            MANIFEST: manifest(commands="custom/clean.md"),
            "custom/clean.md": GOOD_COMMAND,
        },
    )
    [(path, line, column, message)] = found(tmp_path, "PE505")
    assert (path, line, column) == ("kit/" + MANIFEST, 8, 3)
    assert message.startswith("'commands' path 'custom/clean.md' does not start with './'")


def test_a_top_level_key_is_placed_at_itself_not_at_a_nested_key_of_that_name(
    tmp_path: Path,
) -> None:
    text = (
        '{\n  "userConfig": {"commands": {"description": "decoy"}},\n'
        '  "name": "kit",\n  "description": "",\n  "commands": "./missing.md"\n}\n'
    )
    assert top_level_keys(text)["commands"] == text.index('"commands": "./')
    write_files(tmp_path, {MANIFEST: text, "skills/csv-clean/SKILL.md": GOOD_SKILL})
    assert [(line, column) for _, line, column, _ in found(tmp_path, "PE505")] == [(5, 3)]
    assert [line for _, line, _, m in found(tmp_path, "PE502") if "description" in m] == [4]


def test_an_agent_without_a_name_is_a_note_naming_the_file_it_is_named_after(
    tmp_path: Path,
) -> None:
    # The agent of Claude Code's own plugins reference: a description, no name.
    agent = "---\ndescription: What this agent specializes in\n---\n\nBody.\n"
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, "agents/doc-example.md": agent})
    [finding] = [f for f in score_plugin(tmp_path, Config(), "kit").findings if f.code == "PE601"]
    assert (finding.path, finding.line, finding.column) == ("kit/agents/doc-example.md", 1, 1)
    assert finding.severity.value == "info"
    assert "names a plugin agent after its file ('doc-example')" in finding.message


def test_a_built_in_role_name_is_a_warning_not_an_error(tmp_path: Path) -> None:
    agent = GOOD_AGENT.replace("name: csv-analyst", "name: worker")
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, "agents/worker.md": agent})
    [finding] = [f for f in score_plugin(tmp_path, Config(), "kit").findings if f.code == "PE605"]
    assert (finding.path, finding.line, finding.severity.value) == (
        "kit/agents/worker.md",
        2,
        "warning",
    )


def test_positional_arguments_only_in_code_say_claude_code_replaces_them_there(
    tmp_path: Path,
) -> None:
    command = "---\ndescription: Print the first column\n---\n\n```bash\nawk '{print $1}' f\n```\n"
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, "commands/col.md": command})
    [(path, line, column, message)] = found(tmp_path, "PE702")
    assert (path, line, column) == ("kit/commands/col.md", 6, 13)
    assert message.startswith("command /col has $1 in a code block and no 'argument-hint'")


def test_a_marketplace_plugin_root_is_put_before_a_bare_source(tmp_path: Path) -> None:
    market = {
        "name": "tools",
        "owner": {"name": "Team"},
        "metadata": {"pluginRoot": "./plugins"},
        "plugins": [
            {"name": "formatter", "source": "formatter", "strict": False},
            {"name": "linter", "source": "./plugins/linter"},
        ],
    }
    write_files(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps(market, indent=2),
            "plugins/formatter/commands/format.md": GOOD_COMMAND,
            "plugins/linter/" + MANIFEST: GOOD_MANIFEST,
            "plugins/linter/commands/lint.md": GOOD_COMMAND,
        },
    )
    found_items = discover(tmp_path)
    assert sorted(i.rel for i in found_items.items) == ["plugins/formatter", "plugins/linter"]
    assert not any("not a folder under the root" in n for n in found_items.notes)


def test_a_hook_tool_in_node_modules_is_looked_up_on_disk(tmp_path: Path) -> None:
    command = "${CLAUDE_PLUGIN_ROOT}/node_modules/.bin/prettier --write"
    hooks = {"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": command}]}]}}
    write_files(
        tmp_path,
        {
            MANIFEST: GOOD_MANIFEST,
            "hooks/hooks.json": json.dumps(hooks, indent=2),
            "skills/csv-clean/SKILL.md": GOOD_SKILL,
        },
    )
    # Not shipped: reported at the command, on its line.
    assert [(p, line) for p, line, _, _ in found(tmp_path, "PE803")] == [
        ("kit/hooks/hooks.json", 8)
    ]
    # Shipped in a folder the listing skips: there.
    write_files(tmp_path, {"node_modules/.bin/prettier": "#!/bin/sh\n"})
    assert found(tmp_path, "PE803") == []


def test_an_agent_a_command_dispatches_by_name_needs_no_trigger(tmp_path: Path) -> None:
    stage = (
        "---\nname: implement\ndescription: Writes the code for one planned task.\n---\n\nDo it.\n"
    )
    loose = stage.replace("implement", "polish")
    # Invoked by its name in code, even when the command calls it a skill; "run the polish
    # step" names no agent.
    browser = stage.replace("implement", "playwright")
    command = (
        "---\ndescription: Ship a change\n---\n\nPlan it, then run the Task tool with "
        'subagent_type: "implement" for each task.\n\nFor frontend tasks, invoke the '
        "`playwright` skill. Then run the polish step.\n"
    )
    write_files(
        tmp_path,
        {
            MANIFEST: GOOD_MANIFEST,
            "agents/implement.md": stage,
            "agents/polish.md": loose,
            "agents/playwright.md": browser,
            "commands/ship.md": command,
        },
    )
    assert [(p, line, col) for p, line, col, _ in found(tmp_path, "PE602")] == [
        ("kit/agents/polish.md", 3, 1)
    ]


def test_arguments_in_prose_are_the_fix_and_a_positional_in_code_is_said_apart(
    tmp_path: Path,
) -> None:
    command = (
        "---\ndescription: Audit deps\n---\n\nAudit the $ARGUMENTS ecosystem.\n\n"
        '```bash\nECOSYSTEM="$1"\n```\n'
    )
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, "commands/deps.md": command})
    [finding] = [f for f in score_plugin(tmp_path, Config(), "kit").findings if f.code == "PE702"]
    assert (finding.path, finding.line, finding.column) == ("kit/commands/deps.md", 5, 11)
    assert finding.message.endswith(
        "($1 in a code block, line 8, is replaced with an argument too: move that code into a script if it is the code's own)"
    )
    assert finding.fix == (
        "Add an 'argument-hint' that names what $ARGUMENTS stands for: "
        "'argument-hint: [what to pass]'."
    )


def test_a_field_by_another_tools_name_is_renamed_to_the_one_claude_code_reads(
    tmp_path: Path,
) -> None:
    command = "---\ndescription: Audit deps\ntool_access: Read\n---\n\nAudit.\n"
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, "commands/deps.md": command})
    fixes = [
        (f.line, f.column, f.fix)
        for f in score_plugin(tmp_path, Config(), "kit").findings
        if f.code == "PE704"
    ]
    # The fix says what the field it names does: pre-approve, not restrict.
    assert fixes == [
        (
            3,
            1,
            "Rename it to 'allowed-tools'. It pre-approves the tools it lists, so they run "
            "without asking; it restricts no other tool. Keep only the tools the task needs, "
            "scoped where they can be ('Bash(git:*)', not 'Bash').",
        )
    ]


def test_a_marketplace_entrys_skills_folder_is_the_plugins_in_discovery_too(
    tmp_path: Path,
) -> None:
    # The entry is the manifest (no plugin.json): its `skills` folder holds the plugin's
    # skills, and none of them is scored again as a loose skill.
    market = {
        "name": "tools",
        "owner": {"name": "Team"},
        "plugins": [{"name": "kit", "source": "./kit", "skills": "./extra"}],
    }
    write_files(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps(market),
            "kit/extra/csv-clean/SKILL.md": GOOD_SKILL,
        },
    )
    assert [(i.kind.value, i.rel) for i in discover(tmp_path).items] == [("plugin", "kit")]


def test_a_strict_false_entry_replaces_the_plugin_json_in_discovery_too(tmp_path: Path) -> None:
    market = {
        "name": "tools",
        "owner": {"name": "Team"},
        "plugins": [{"name": "kit", "source": "./kit", "strict": False}],
    }
    write_files(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps(market),
            "kit/" + MANIFEST: manifest(skills="./extra"),
            "kit/extra/csv-clean/SKILL.md": GOOD_SKILL,
        },
    )
    # The entry names no skills folder, so the skill is loose: scored, never lost.
    assert sorted((i.kind.value, i.rel) for i in discover(tmp_path).items) == [
        ("plugin", "kit"),
        ("skill", "kit/extra/csv-clean"),
    ]


def test_a_skills_path_through_a_symlinked_folder_lists_nothing_outside(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    write_files(outside, {"sub/secret-project/SKILL.md": GOOD_SKILL})
    plugin_dir = tmp_path / "kit"
    write_files(plugin_dir, {MANIFEST: manifest(skills="./lnk/sub")})
    (plugin_dir / "lnk").symlink_to(outside, target_is_directory=True)
    plugin = parse_plugin(plugin_dir)
    assert plugin.skills == ()
    assert plugin.passed_over == (("lnk/sub", "a symlink, not followed"),)


def test_a_folder_both_default_and_named_is_passed_over_once(tmp_path: Path) -> None:
    write_files(tmp_path / "elsewhere", {"x.md": GOOD_AGENT})
    write_files(tmp_path / "kit", {MANIFEST: manifest(agents=["./agents/"])})
    (tmp_path / "kit" / "agents").mkdir()
    (tmp_path / "kit" / "agents" / "linked.md").symlink_to(tmp_path / "elsewhere" / "x.md")
    assert parse_plugin(tmp_path / "kit").passed_over == (
        ("agents/linked.md", "a symlink, not followed"),
    )
