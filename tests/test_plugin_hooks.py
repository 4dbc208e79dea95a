"""A plugin's hook configuration, read as Claude Code reads it: a file it cannot read or an
event it never sends is PE801, a command that reads its input from variables Claude Code
never sets is PE802. Each case is a small plugin of its own."""

from __future__ import annotations

import json
from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.plugin_score import score_plugin
from plugin_eval.results import PluginResult
from plugin_eval.rules.pe801_hooks_invalid import GOOD_HOOK_FILES, GOOD_HOOKS
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, good_plugin
from tests.conftest import write_files

Found = tuple[str, str, int | None, int | None, str]


def _score(tmp_path: Path, files: dict[str, str | bytes]) -> PluginResult:
    folder = tmp_path / "csv-tools"
    write_files(folder, files)
    return score_plugin(folder, Config(), "csv-tools")


def hook_findings(tmp_path: Path, **files: str) -> list[Found]:
    result = _score(tmp_path, good_plugin(**files))
    return [
        (f.code, f.path, f.line, f.column, f.message)
        for f in result.findings
        if f.code in ("PE801", "PE802", "PE803")
    ]


def _hooks(events: object) -> str:
    return json.dumps({"hooks": events}, indent=2) + "\n"


def _command(command: str) -> list[object]:
    return [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]


def test_a_configuration_as_documented_passes_and_counts_as_wiring(tmp_path: Path) -> None:
    result = _score(tmp_path, good_plugin(**GOOD_HOOK_FILES))
    assert [f.code for f in result.findings if f.code.startswith("PE8")] == []
    (part,) = [p for p in result.parts if p.kind == "hooks"]
    assert (part.path, part.subscores["orchestration_wiring"].score) == ("hooks/hooks.json", 1.0)


def test_a_file_that_is_not_json_is_placed_at_the_error(tmp_path: Path) -> None:
    # Another file in hooks/ is not the configuration: not read.
    assert hook_findings(tmp_path / "a", **{"hooks__notes.txt": "{"}) == []
    text = '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n'
    ((code, path, line, column, message),) = hook_findings(tmp_path, **{"hooks__hooks.json": text})
    assert (code, path, line, column) == ("PE801", "csv-tools/hooks/hooks.json", 3, 14)
    assert message.startswith("hooks/hooks.json is not valid JSON: ")


def test_no_hooks_object_and_broken_entries_say_what_is_missing(tmp_path: Path) -> None:
    assert hook_findings(tmp_path, **{"hooks__hooks.json": '{"PreToolUse": []}\n'}) == [
        (
            "PE801",
            "csv-tools/hooks/hooks.json",
            1,
            1,
            "has no 'hooks' object mapping events to their hooks, so no hook runs",
        )
    ]
    events = {
        "PreToolUse": [{"matcher": "Bash"}],
        "PostToolUse": [{"hooks": [{"type": "command"}]}],
        "Stop": {"hooks": []},
    }
    found = hook_findings(tmp_path / "b", **{"hooks__hooks.json": _hooks(events)})
    assert [(line, column, message) for _, _, line, column, message in found] == [
        (
            3,
            5,
            "event 'PreToolUse': matcher group 1 has no 'hooks' list, so Claude Code cannot run it",
        ),
        (
            8,
            5,
            "event 'PostToolUse': hook 1 of matcher group 1 is of type 'command' but has no "
            "'command', so Claude Code cannot run it",
        ),
        (
            17,
            5,
            "event 'Stop': its value is not a list of matcher groups, so Claude Code cannot run it",
        ),
    ]


def test_a_misspelt_event_is_named_and_an_unknown_one_left_alone(tmp_path: Path) -> None:
    events = {"SessionStrat": _command("echo hi"), "TeamHandoff": _command("echo later")}
    found = hook_findings(tmp_path, **{"hooks__hooks.json": _hooks(events)})
    assert found == [
        (
            "PE801",
            "csv-tools/hooks/hooks.json",
            3,
            5,
            "event 'SessionStrat' is not one Claude Code sends (did you mean 'SessionStart'?), "
            "so its hooks never run",
        )
    ]


def test_an_event_in_the_wrong_case_and_a_newer_event(tmp_path: Path) -> None:
    events = {"pretooluse": _command("echo hi"), "PostCompact": _command("echo compacted")}
    found = hook_findings(tmp_path, **{"hooks__hooks.json": _hooks(events)})
    assert [(code, line, column, message) for code, _, line, column, message in found] == [
        (
            "PE801",
            3,
            5,
            "event 'pretooluse' is not one Claude Code sends (did you mean 'PreToolUse'?), "
            "so its hooks never run",
        )
    ]


def test_an_http_hook_needs_its_url(tmp_path: Path) -> None:
    events = {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:8080/stop"}]}]}
    assert hook_findings(tmp_path / "a", **{"hooks__hooks.json": _hooks(events)}) == []
    events = {"Stop": [{"hooks": [{"type": "http"}]}]}
    found = hook_findings(tmp_path, **{"hooks__hooks.json": _hooks(events)})
    assert [(code, line, column, message) for code, _, line, column, message in found] == [
        (
            "PE801",
            3,
            5,
            "event 'Stop': hook 1 of matcher group 1 is of type 'http' but has no 'url', so "
            "Claude Code cannot run it",
        )
    ]


def test_input_read_from_variables_is_placed_at_the_first_of_them(tmp_path: Path) -> None:
    events = {
        "PreToolUse": _command('policy-check --tool "$TOOL_NAME" --input "${TOOL_INPUT}"'),
        "PostToolUse": _command('jq -r .tool_input.file_path | "$CLAUDE_PROJECT_DIR"/fmt.sh'),
        "Stop": _command('"${CLAUDE_PLUGIN_ROOT}"/notify.sh'),
    }
    found = hook_findings(
        tmp_path, **{"hooks__hooks.json": _hooks(events), "notify.sh": "#!/bin/sh\n"}
    )
    text = _hooks(events).splitlines()
    ((code, _, line, column, message),) = found
    assert (code, line) == ("PE802", 9)
    assert column is not None and text[8][column - 1 :].startswith("$TOOL_NAME")
    assert message.startswith("hook command reads $TOOL_INPUT, $TOOL_NAME, which Claude Code")
    # The fix names the variables it replaces, and nothing the command does not do.
    [fix] = [
        f.fix
        for f in score_plugin(tmp_path / "csv-tools", Config(), "csv-tools").findings
        if f.code == "PE802"
    ]
    assert fix == (
        "Read the input from standard input in place of $TOOL_INPUT, $TOOL_NAME: a program "
        "the command runs gets it there as it is, and a shell line takes one field with jq, "
        "e.g. `jq -r '.tool_input.command'` (.tool_name, .tool_response …)."
    )


def test_a_manifest_may_name_another_hook_file(tmp_path: Path) -> None:
    manifest = GOOD_MANIFEST.replace('"author"', '"hooks": "./config/hooks.json",\n  "author"')
    events = _hooks({"PreToolUse": _command('guard "$TOOL_INPUT"')})
    found = hook_findings(
        tmp_path, **{".claude-plugin__plugin.json": manifest, "config__hooks.json": events}
    )
    assert [(code, path) for code, path, *_ in found] == [("PE802", "csv-tools/config/hooks.json")]


def test_a_symlinked_hook_file_is_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_text(_hooks({"PreToolUse": _command('guard "$TOOL_INPUT"')}))
    folder = tmp_path / "csv-tools"
    write_files(folder, good_plugin())
    (folder / "hooks").mkdir()
    (folder / "hooks" / "hooks.json").symlink_to(outside)
    result = score_plugin(folder, Config(), "csv-tools")
    found = [
        (f.code, f.line, f.column, f.message)
        for f in result.findings
        if f.code in ("PE801", "PE802")
    ]
    assert found == [("PE801", 1, 1, "hooks/hooks.json is reached through a symlink, not followed")]


def test_a_plugin_of_hooks_only_is_not_empty(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        ".claude-plugin/plugin.json": GOOD_MANIFEST,
        "hooks/hooks.json": GOOD_HOOKS,
    }
    result = _score(tmp_path, files)
    assert [f.code for f in result.findings if f.code == "PE507"] == []
    assert [p.kind for p in result.parts] == ["hooks", "manifest"]


def _script_findings(tmp_path: Path, command: str, **files: str) -> list[Found]:
    events = _hooks({"PreToolUse": _command(command)})
    return hook_findings(tmp_path, **{"hooks__hooks.json": events, **files})


def test_a_script_the_plugin_does_not_ship_is_placed_at_its_path(tmp_path: Path) -> None:
    command = 'test -n "$CI" || "${CLAUDE_PLUGIN_ROOT}"/scripts/guard.sh --strict'
    ((code, path, line, column, message),) = _script_findings(tmp_path, command)
    text = _hooks({"PreToolUse": _command(command)}).splitlines()
    assert (code, path, line) == ("PE803", "csv-tools/hooks/hooks.json", 9)
    assert column is not None and text[8][column - 1 :].startswith('${CLAUDE_PLUGIN_ROOT}\\"/')
    assert message == (
        "hook command runs '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh', which the plugin does not "
        "ship, so the hook fails each time it fires"
    )


def test_the_fix_names_the_file_the_plugin_has(tmp_path: Path) -> None:
    command = "$CLAUDE_PLUGIN_ROOT/scripts/Guard.sh; ${CLAUDE_PLUGIN_ROOT}/hooks/notify.sh"
    files = {
        "hooks__hooks.json": _hooks({"PreToolUse": _command(command)}),
        "scripts__guard.sh": "#!/bin/sh\n",
        "scripts__notify.sh": "#!/bin/sh\n",
    }
    found = [
        (f.code, f.line, f.column, f.fix)
        for f in _score(tmp_path, good_plugin(**files)).findings
        if f.code == "PE803"
    ]
    assert found == [
        ("PE803", 9, 25, "Run '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh', the file the plugin has."),
        ("PE803", 9, 63, "Run '${CLAUDE_PLUGIN_ROOT}/scripts/notify.sh', the file the plugin has."),
    ]


def test_paths_that_are_there_or_computed_pass_and_one_outside_fails(tmp_path: Path) -> None:
    command = (
        'cd "${CLAUDE_PLUGIN_ROOT}/server" && node ${CLAUDE_PLUGIN_ROOT}/server/run.js '
        "${CLAUDE_PLUGIN_ROOT}/checks/$EVENT.sh ${CLAUDE_PLUGIN_ROOT}/lib/*.sh"
    )
    assert _script_findings(tmp_path / "a", command, **{"server__run.js": "run()\n"}) == []
    found = _script_findings(tmp_path, "${CLAUDE_PLUGIN_ROOT}/../shared/guard.sh")
    assert [(code, line, column, message) for code, _, line, column, message in found] == [
        (
            "PE803",
            9,
            25,
            "hook command runs '${CLAUDE_PLUGIN_ROOT}/../shared/guard.sh', which is outside the "
            "plugin folder: an installed plugin is copied without it, so the hook fails each time",
        )
    ]


def test_events_past_the_budget_are_said_and_not_read(tmp_path: Path) -> None:
    events: dict[str, object] = {f"Custom{i:03d}": _command("echo hi") for i in range(300)}
    events["Stopp"] = _command("${CLAUDE_PLUGIN_ROOT}/missing.sh")  # the 301st: not read
    found = hook_findings(tmp_path, **{"hooks__hooks.json": _hooks(events)})
    assert [(code, line, column, message) for code, _, line, column, message in found] == [
        (
            "PE801",
            2,
            3,
            "names 301 events, where Claude Code sends 26: only the first 256 were read",
        )
    ]


def test_a_variable_the_command_sets_itself_is_no_finding(tmp_path: Path) -> None:
    events = {
        "PreToolUse": _command('TOOL_INPUT=$(cat); echo "$TOOL_INPUT" | jq -r .tool_name'),
        "PostToolUse": _command('read -r HOOK_DATA; export TOOL_OK=1; guard "$TOOL_OK" "$TOOL_X"'),
    }
    found = hook_findings(tmp_path, **{"hooks__hooks.json": _hooks(events)})
    text = _hooks(events).splitlines()
    assert [(code, line, message[:32]) for code, _, line, _, message in found] == [
        ("PE802", 20, "hook command reads $TOOL_X, whic")
    ]
    ((_, _, _, column, _),) = found
    assert column is not None and text[19][column - 1 :].startswith("$TOOL_X")


def test_an_event_written_twice_is_placed_at_the_second(tmp_path: Path) -> None:
    group = '[{"hooks": [{"type": "command", "command": "echo %s"}]}]'
    text = (
        '{\n  "hooks": {\n    "Stop": '
        + group % "first"
        + ',\n    "PreToolUse": '
        + group % "guard"
        + ',\n    "Stop": '
        + group % "second"
        + "\n  }\n}\n"
    )
    found = hook_findings(tmp_path, **{"hooks__hooks.json": text})
    assert [(code, line, column, message) for code, _, line, column, message in found] == [
        (
            "PE801",
            5,
            5,
            "event 'Stop' is written 2 times: Claude Code keeps only the last, so the hooks of "
            "the others never run",
        )
    ]


def test_an_event_name_written_with_letters_beyond_ascii_is_placed(tmp_path: Path) -> None:
    text = '{\n  "hooks": {\n    "PreToolUsé": [{"hooks": [{"type": "command", "command": "x"}]}]\n  }\n}\n'
    found = hook_findings(tmp_path, **{"hooks__hooks.json": text})
    assert [(code, line, column) for code, _, line, column, _ in found] == [("PE801", 3, 5)]


def test_a_path_through_a_symlink_in_the_plugin_counts_as_there(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    folder = tmp_path / "csv-tools"
    command = "${CLAUDE_PLUGIN_ROOT}/lib/guard.sh; ${CLAUDE_PLUGIN_ROOT}/bin/run.sh"
    write_files(folder, good_plugin(**{"hooks__hooks.json": _hooks({"Stop": _command(command)})}))
    (folder / "lib").symlink_to(tmp_path / "shared")  # never followed, so never called missing
    result = score_plugin(folder, Config(), "csv-tools")
    found = [(f.code, f.line, f.column) for f in result.findings if f.code == "PE803"]
    assert found == [("PE803", 9, 61)]


def test_a_single_hook_object_is_named_and_its_command_still_read(tmp_path: Path) -> None:
    events = {
        "PreToolUse": [
            {"matcher": "Bash", "hook": {"type": "command", "command": 'guard "$TOOL_INPUT"'}}
        ]
    }
    found = hook_findings(tmp_path, **{"hooks__hooks.json": _hooks(events)})
    assert [(code, line, column, message) for code, _, line, column, message in found] == [
        (
            "PE801",
            3,
            5,
            "event 'PreToolUse': matcher group 1 writes 'hook' where Claude Code reads a "
            "'hooks' list, so Claude Code cannot run it",
        ),
        (
            "PE802",
            8,
            31,
            "hook command reads $TOOL_INPUT, which Claude Code does not set: a hook gets its "
            "input as JSON on standard input, so the command sees an empty value",
        ),
    ]
