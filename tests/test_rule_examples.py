"""Every rule's failing example yields exactly the findings it declares, where it declares them.

Skill rules run through the engine on the example built as a skill folder; plugin rules run
through the plugin scorer on the example built as a plugin folder. A finding that moves by one
line or one column, an extra finding or a missing one fails the rule's test.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from plugin_eval import budgets
from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.findings import Finding
from plugin_eval.plugin_score import score_plugin
from plugin_eval.rules import (
    ALL_RULES,
    ENGINE_RULES,
    INTERNAL_ERROR,
    PLUGIN_RULES,
    SKILL_RULES,
)
from plugin_eval.rules.base import EngineRule, Example, Expect, RuleDoc
from tests.conftest import write_files

PLUGIN_CODES = frozenset(r.code for r in PLUGIN_RULES)
# Every rule with an example: those that run on a skill or plugin, and the engine's own
# suppression codes. PE000 (a crash) and PE010 (a threshold) have no example skill.
CHECKED: tuple[RuleDoc, ...] = (
    *SKILL_RULES,
    *PLUGIN_RULES,
    *(rule for rule in ENGINE_RULES if not isinstance(rule, EngineRule) or rule.examples),
)


def findings_of(rule: RuleDoc, example: Example, tmp_path: Path) -> Counter[Expect]:
    """The rule's findings on the example, located relative to the example's folder."""
    if rule.code in PLUGIN_CODES:
        root = tmp_path / example.folder
        write_files(root, example.files)
        found: tuple[Finding, ...] = score_plugin(root, Config(), "").findings
    else:
        root = tmp_path / "skills" / example.folder
        write_files(root, example.files)
        found = score_skill(root, Config(), "").findings
    return Counter(Expect(f.code, f.path, f.line, f.column) for f in found if f.code == rule.code)


@pytest.mark.parametrize("rule", CHECKED, ids=lambda r: r.code)
def test_failing_example_yields_exactly_the_declared_findings(
    rule: RuleDoc, tmp_path: Path
) -> None:
    assert rule.bad.expect, f"{rule.code}: the failing example declares no finding"
    assert findings_of(rule, rule.bad, tmp_path) == Counter(rule.bad.expect)


@pytest.mark.parametrize("rule", CHECKED, ids=lambda r: r.code)
def test_passing_example_yields_no_finding_of_the_rule(rule: RuleDoc, tmp_path: Path) -> None:
    assert rule.good.expect == ()
    assert findings_of(rule, rule.good, tmp_path) == Counter()


@pytest.mark.parametrize("rule", CHECKED, ids=lambda r: r.code)
def test_declared_findings_carry_the_rule_code(rule: RuleDoc) -> None:
    assert {e.code for e in rule.bad.expect} == {rule.code}


@pytest.mark.parametrize("rule", CHECKED, ids=lambda r: r.code)
def test_documentation_has_every_section(rule: RuleDoc) -> None:
    doc = rule.documentation()
    for section in (
        "## What it checks",
        "## Why it matters",
        "## Failing example",
        "## Passing example",
        "## Fix",
        "## Known limits",
    ):
        assert section in doc
    assert doc.startswith(f"# {rule.code} {rule.name} ({rule.flag})")
    assert rule.limits.strip() and rule.limits in doc
    assert ("## Settings" in doc) == bool(rule.settings)
    assert ("## Sources" in doc) == bool(rule.source or rule.links)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_settings_name_budgets_with_their_current_value(rule: RuleDoc) -> None:
    doc = rule.documentation()
    for setting in rule.settings:
        assert f"- `{setting.name}` = {getattr(budgets, setting.name)}: " in doc


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_links_are_https_pages_shown_on_the_rule_page(rule: RuleDoc) -> None:
    doc = rule.documentation()
    for link in rule.links:
        assert link.url.startswith("https://")
        assert f"[{link.title}]({link.url})" in doc


def test_rules_that_cite_a_harness_or_the_specification_link_to_it() -> None:
    cited = ("specification", "Claude Code", "Codex")
    unlinked = [r.code for r in ALL_RULES if any(c in r.source for c in cited) and not r.links]
    assert unlinked == []


def test_codes_flags_and_names_are_unique() -> None:
    for attr in ("code", "flag", "name"):
        values = [getattr(r, attr) for r in ALL_RULES]
        assert len(values) == len(set(values)), attr


def test_the_six_seed_anti_patterns_and_one_more_count_toward_the_penalty() -> None:
    """Seed 002's six, and CLAIMS_EVERY_REQUEST (PE114), which the validation on real skills
    added: a description claiming precedence over every skill harms all its neighbours."""
    flags = {r.flag for r in ALL_RULES if r.anti_pattern}
    assert flags == {
        "OVER_CONSTRAINED",
        "EMPTY_DESCRIPTION",
        "MISSING_TRIGGER",
        "BLOATED_SKILL",
        "ORPHAN_REFERENCE",
        "DEAD_CROSS_REF",
        "CLAIMS_EVERY_REQUEST",
    }


def test_the_internal_error_page_says_what_it_is_and_its_limits() -> None:
    doc = INTERNAL_ERROR.documentation()
    assert doc.startswith("# PE000 internal-error (INTERNAL_ERROR)")
    assert "## Known limits" in doc and INTERNAL_ERROR.limits in doc
    assert "## Failing example" not in doc
