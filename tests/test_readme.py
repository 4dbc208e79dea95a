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
