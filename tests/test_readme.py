"""The README's rule table matches the registry (regenerate: python -m tests.readme_rules --write)."""

from __future__ import annotations

import pytest

from plugin_eval.rules import ALL_RULES
from tests.readme_rules import END, README, START, generated_table, rewrite, split


def test_readme_rule_table_is_the_generated_one() -> None:
    _, table, _ = split(README.read_text(encoding="utf-8"))
    assert table == generated_table()


def test_the_table_lists_every_rule_once() -> None:
    rows = [line for line in generated_table().splitlines() if line.startswith("| PE")]
    assert [row.split(" | ")[0].removeprefix("| ") for row in rows] == [r.code for r in ALL_RULES]


def test_rewrite_replaces_only_the_text_between_the_markers() -> None:
    text = f"intro\n{START}\n| stale |\n{END}\noutro\n"
    assert rewrite(text) == f"intro\n{START}\n{generated_table()}{END}\noutro\n"


def test_a_readme_without_markers_is_an_error() -> None:
    with pytest.raises(ValueError, match="markers"):
        split("no table here\n")


def test_the_readme_names_no_path_outside_the_repository() -> None:
    # It is read by someone who has only the repository: no ../ path, no sibling folder.
    text = README.read_text(encoding="utf-8")
    assert "../" not in text and "shared/" not in text


def test_the_quick_start_begins_with_a_virtual_environment() -> None:
    text = README.read_text(encoding="utf-8")
    quick = text[text.index("## Quick start") : text.index("## Using it")]
    blocks = quick.split("```bash\n")[1:]
    commands = [block.split("```")[0].strip() for block in blocks]
    assert commands[0] == "python3 -m venv .venv && . .venv/bin/activate"
    assert commands[1].startswith("pip install . && python -m plugin_eval score corpus/")
    assert commands[2] == 'pip install -e ".[test]" && python -m pytest'
    assert len(commands) == 3


def _shown_runs() -> list[tuple[list[str], list[str]]]:
    """Each README example of a run that needs no model server: the command's arguments and
    the lines the README shows it print ("…" stands for lines left out)."""
    text = README.read_text(encoding="utf-8")
    runs = []
    for block in text.split("```text\n")[1:]:
        content = block.split("```", 1)[0]
        lines = content.splitlines()
        if not lines or not lines[0].startswith("$ plugin-eval ") or "PORT" in content:
            continue
        command = lines[0].removeprefix("$ plugin-eval ").split("#", 1)[0].split()
        runs.append((command, [line for line in lines[1:] if line.strip() != "…"]))
    return runs


@pytest.mark.parametrize(("command", "shown"), _shown_runs(), ids=lambda x: " ".join(x)[:40])
def test_an_example_run_in_the_readme_prints_what_it_shows(
    command: list[str], shown: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The examples once drifted from the tool (67.2 shown, 67.8 printed): each line shown is
    printed, in the order shown."""
    from typer.testing import CliRunner

    from plugin_eval.cli import app

    monkeypatch.chdir(README.parent)
    result = CliRunner().invoke(app, command)
    printed = iter((result.stdout + result.stderr).splitlines())
    for line in shown:
        assert any(line == got for got in printed), line


def test_the_readme_shows_the_runs_it_is_checked_on() -> None:
    assert [c[:2] for c, _ in _shown_runs()] == [
        ["score", "corpus/broken-dead-links"],
        ["score", "corpus/csv-cleanup"],
    ]
