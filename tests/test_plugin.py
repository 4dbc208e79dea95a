"""Plugins: manifest, agent and command rules, and per-dimension aggregation."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.plugin import parse_plugin
from plugin_eval.plugin_score import score_plugin
from plugin_eval.rules.base import Example
from plugin_eval.rules.plugin_base import GOOD_SKILL, good_plugin
from tests.conftest import write_files


def _materialise(tmp_path: Path, example: Example) -> Path:
    root = tmp_path / example.folder
    write_files(root, example.files)
    return root


def _codes(folder: Path) -> set[str]:
    return {f.code for f in score_plugin(folder, Config(), folder.name).findings}


def test_the_example_plugin_is_clean(tmp_path: Path) -> None:
    assert _codes(_materialise(tmp_path, Example(good_plugin(), "csv-tools"))) == set()


def test_invalid_manifest_json_is_located(tmp_path: Path) -> None:
    folder = _materialise(
        tmp_path,
        Example(good_plugin(**{".claude-plugin__plugin.json": '{\n  "name": "x",\n}\n'}), "x"),
    )
    (finding,) = [f for f in score_plugin(folder, Config(), "x").findings if f.code == "PE501"]
    assert finding.path == "x/.claude-plugin/plugin.json" and finding.line == 3


def test_one_skill_plugin_scores_what_its_skill_scores(tmp_path: Path) -> None:
    files = {
        ".claude-plugin/plugin.json": '{"name": "solo", "version": "1.0.0", "description": "d"}',
        "skills/csv-clean/SKILL.md": GOOD_SKILL.replace(
            "Steps.", "See [x](references/missing.md)."
        ),
    }
    folder = _materialise(tmp_path, Example(files, "solo"))
    plugin = score_plugin(folder, Config(), "solo")
    skill = score_skill(folder / "skills" / "csv-clean", Config(), "s")
    # The manifest adds its own (clean) part to ecosystem_coherence only.
    assert plugin.anti_patterns_per_skill == 1.0
    assert plugin.composite.penalty == skill.composite.penalty == 0.95
    dims = {d.name: d.score for d in plugin.composite.dimensions}
    for d in skill.composite.dimensions:
        if d.name != "ecosystem_coherence":
            assert dims[d.name] == d.score


def test_weakest_dimensions_come_from_the_parts(tmp_path: Path) -> None:
    bad_agent = "---\nname: worker\ndescription: Helps.\nmodel: sonnet\n---\n\nDo things.\n"
    folder = _materialise(
        tmp_path, Example(good_plugin(**{"agents__csv-analyst.md": bad_agent}), "p")
    )
    plugin = score_plugin(folder, Config(), "p")
    assert plugin.subscores["orchestration_wiring"].score < 0.95
    lowest = min(plugin.subscores["frontmatter_quality"].evidence, key=lambda e: e.points)
    assert lowest.label.startswith("agent csv-analyst")


def test_plugin_json_report_embeds_skills_and_parts(tmp_path: Path) -> None:
    folder = _materialise(tmp_path, Example(good_plugin(), "csv-tools"))
    result = CliRunner().invoke(app, ["score", str(folder), "-o", "json"])
    report = json.loads(result.stdout)
    assert report["kind"] == "plugin" and report["name"] == "csv-tools"
    assert [s["name"] for s in report["skills"]] == ["csv-clean"]
    assert sorted(p["kind"] for p in report["parts"]) == ["agent", "command", "manifest"]
    assert report["composite"]["anti_patterns_per_skill"] == 0.0


def test_manifests_are_read_even_though_hidden(tmp_path: Path) -> None:
    folder = _materialise(tmp_path, Example(good_plugin(), "csv-tools"))
    assert [m.path for m in parse_plugin(folder).manifests] == [".claude-plugin/plugin.json"]


def test_plugin_at_deep_depth_is_scored_static_and_says_so_never_silently(tmp_path: Path) -> None:
    folder = _materialise(tmp_path, Example(good_plugin(), "csv-tools"))
    result = CliRunner().invoke(app, ["score", str(folder), "--depth", "deep", "-o", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["depth"] == "quick"
    assert "plugin folders are scored at depth quick" in result.stderr
    assert "skills/NAME" in result.stderr


def test_plugin_text_output_lists_its_skills_and_parts(tmp_path: Path) -> None:
    folder = _materialise(tmp_path, Example(good_plugin(), "csv-tools"))
    out = CliRunner().invoke(app, ["score", str(folder)]).stdout
    assert "skills: csv-clean " in out
    assert "agent csv-analyst" in out and "command csv-clean" in out


def test_an_agent_model_is_checked_against_what_claude_code_accepts(tmp_path: Path) -> None:
    """Claude Code's own aliases and full model ids pass, with no portability note: a plugin's
    agents are read by Claude Code only. Another vendor's model or a made-up name is a
    warning at the line of `model`; leaving it out is documented (the agent inherits)."""
    from plugin_eval.rules.plugin_base import GOOD_AGENT

    def agent_model(line: str) -> list[tuple[str, int | None, int | None, str, str]]:
        agent = GOOD_AGENT.replace("model: inherit\n", line)
        folder = _materialise(
            tmp_path / str(len(list(tmp_path.iterdir()))),
            Example(good_plugin(**{"agents__csv-analyst.md": agent}), "p"),
        )
        return [
            (f.path, f.line, f.column, f.severity.value, f.message)
            for f in score_plugin(folder, Config(), "p").findings
            if f.code == "PE604"
        ]

    accepted = ["sonnet", "Opus", "haiku", "fable", "opusplan", "best", "default", "sonnet[1m]"]
    accepted += ["inherit", "claude-opus-4-1", "claude-sonnet-4-5"]
    accepted += ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-opus-4-1@20250805"]
    for model in accepted:
        assert agent_model(f"model: {model}\n") == [], model
    assert agent_model("") == []
    assert agent_model("model:\n") == []  # empty: not set
    ((path, line, column, severity, message),) = agent_model("model: sonet\n")
    assert (path, line, column, severity) == ("p/agents/csv-analyst.md", 5, 1, "warning")
    assert message == (
        "model 'sonet' is not one Claude Code accepts for an agent (an alias such as sonnet, "
        "opus, haiku or fable, inherit (the session's model), or a full model id): the agent "
        "does not run on the model meant"
    )
    assert len(agent_model("model: haiku[1m]\n")) == 1  # no 1M-context Haiku is documented
    ((*_, message),) = agent_model("model: 4\n")
    assert message.startswith("model '4' (not text) is not one Claude Code accepts")
    assert len(agent_model("model: gpt-4o\n")) == 1


def test_a_command_without_a_description_is_named_by_what_the_menu_shows_instead(
    tmp_path: Path,
) -> None:
    """Claude Code shows the first line of the prompt in place of a missing description: a
    title heading still names the command (info); a title made of the command's own name, a
    line of the prompt or nothing does not (warning). Each at line 1 of its own file."""
    commands = {
        "commands__review.md": "\n# Multi-Agent Code Review\n\nReview $ARGUMENTS.\n",
        "commands__on-board.md": "# On Board\n\nOnboard $ARGUMENTS.\n",
        "commands__debug.md": "You are an expert debugging specialist.\n\nFix $ARGUMENTS.\n",
        "commands__empty.md": "---\nargument-hint: <path>\n---\n",
    }
    folder = _materialise(tmp_path / "p", Example(good_plugin(**commands), "p"))
    found = sorted(
        (f.path, f.line, f.column, f.severity.value, f.message)
        for f in score_plugin(folder, Config(), "p").findings
        if f.code == "PE701"
    )
    assert found == [
        (
            "p/commands/debug.md",
            1,
            1,
            "warning",
            "command /debug has no description: the / menu shows the first line of its prompt "
            "('You are an expert debugging specialist.'), not what it does",
        ),
        (
            "p/commands/empty.md",
            1,
            1,
            "warning",
            "command /empty has no description: the / menu shows nothing: its prompt is empty",
        ),
        (
            "p/commands/on-board.md",
            1,
            1,
            "warning",
            "command /on-board has no description: the / menu shows its title heading "
            "'On Board', which only repeats its name",
        ),
        (
            "p/commands/review.md",
            1,
            1,
            "info",
            "command /review has no description: the / menu shows its title heading "
            "'Multi-Agent Code Review'",
        ),
    ]


def test_a_plugin_whose_only_skill_is_a_symlink_is_empty_and_earns_no_score(
    tmp_path: Path,
) -> None:
    """Its manifest alone once made it Platinum (ecosystem coherence, 2 % of the weight,
    standing for the whole): now nothing is measured, the composite is 0, no badge."""
    outside = tmp_path / "outside" / "csv-clean"
    write_files(outside, {"SKILL.md": good_plugin()["skills/csv-clean/SKILL.md"]})
    plugin = tmp_path / "csv-tools"
    write_files(plugin, {".claude-plugin/plugin.json": good_plugin()[".claude-plugin/plugin.json"]})
    (plugin / "skills").mkdir()
    (plugin / "skills" / "csv-clean").symlink_to(outside, target_is_directory=True)
    result = score_plugin(plugin, Config(), "csv-tools")
    codes = {f.code: f for f in result.findings}
    assert (codes["PE507"].path, codes["PE507"].line) == ("csv-tools/.claude-plugin/plugin.json", 1)
    assert codes["PE507"].message.endswith(
        "to score; 1 part(s) were not read (PE012): it has nothing to measure and no score"
    )
    assert "PE012" in codes
    assert result.composite.score == 0.0 and result.composite.badge == "none"
    assert all(d.score is None for d in result.composite.dimensions)


def test_a_command_without_allowed_tools_gets_a_fix_naming_what_it_runs(tmp_path: Path) -> None:
    command = (
        "---\ndescription: Lists the release tags of this repository, newest first.\n---\n\n"
        "Tags: !`git tag --list --sort=-creatordate`\n"
    )
    plugin = tmp_path / "csv-tools"
    write_files(plugin, good_plugin(**{"commands__tags.md": command}))
    [finding] = [
        f for f in score_plugin(plugin, Config(), "csv-tools").findings if f.code == "PE703"
    ]
    assert (finding.path, finding.line) == ("csv-tools/commands/tags.md", 5)
    assert finding.fix == (
        "Add 'allowed-tools: Bash(git tag:*)' naming exactly what the command runs."
    )
