"""Every rule's documented failing example fails it and its passing example passes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.rules import ALL_RULES, PLUGIN_RULES, SKILL_RULES
from plugin_eval.rules.base import Example, Rule, RuleDoc
from tests.conftest import write_files


def _materialise(tmp_path: Path, example: Example) -> Path:
    root = tmp_path / "skills" / example.folder
    root.mkdir(parents=True)
    write_files(root, example.files)
    return root


def _codes(folder: Path) -> set[str]:
    return {f.code for f in score_skill(folder, Config(), folder.name).findings}


@pytest.mark.parametrize("rule", SKILL_RULES, ids=lambda r: r.code)
def test_failing_example_fires(rule: Rule, tmp_path: Path) -> None:
    assert rule.code in _codes(_materialise(tmp_path, rule.bad))


@pytest.mark.parametrize("rule", SKILL_RULES, ids=lambda r: r.code)
def test_passing_example_is_clean_for_the_rule(rule: Rule, tmp_path: Path) -> None:
    assert rule.code not in _codes(_materialise(tmp_path, rule.good))


@pytest.mark.parametrize("rule", [*SKILL_RULES, *PLUGIN_RULES], ids=lambda r: r.code)
def test_documentation_has_every_section(rule: RuleDoc) -> None:
    doc = rule.documentation()
    for section in (
        "## What it checks",
        "## Why it matters",
        "## Failing example",
        "## Passing example",
        "## Fix",
    ):
        assert section in doc
    assert doc.startswith(f"# {rule.code} {rule.name} ({rule.flag})")


def test_codes_flags_and_names_are_unique() -> None:
    for attr in ("code", "flag", "name"):
        values = [getattr(r, attr) for r in ALL_RULES]
        assert len(values) == len(set(values)), attr


def test_exactly_the_six_seed_anti_patterns_count_toward_the_penalty() -> None:
    flags = {r.flag for r in ALL_RULES if r.anti_pattern}
    assert flags == {
        "OVER_CONSTRAINED",
        "EMPTY_DESCRIPTION",
        "MISSING_TRIGGER",
        "BLOATED_SKILL",
        "ORPHAN_REFERENCE",
        "DEAD_CROSS_REF",
    }
