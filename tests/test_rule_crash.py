"""A rule that raises costs its own findings and one PE000 finding, never the skill."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from plugin_eval import engine, plugin_score
from plugin_eval.config import Config
from plugin_eval.findings import Finding
from plugin_eval.results import PluginResult, SkillResult
from plugin_eval.rules import PLUGIN_RULES, SKILL_RULES
from plugin_eval.rules.base import Example, PluginRule, Rule
from tests.conftest import write_files


def _boom(*_args: object) -> Iterator[Finding]:
    raise RuntimeError("rule exploded")


def _folder(tmp_path: Path, example: Example) -> Path:
    root = tmp_path / "skills" / example.folder
    root.mkdir(parents=True)
    write_files(root, example.files)
    return root


def _scores(result: SkillResult | PluginResult) -> tuple[object, ...]:
    return (
        {name: s.score for name, s in result.subscores.items()},
        result.static_score,
        result.composite,
    )


@pytest.mark.parametrize("rule", SKILL_RULES, ids=lambda r: r.code)
def test_a_crashing_skill_rule_leaves_the_rest_intact(
    rule: Rule, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path, rule.bad)
    without = engine.score_skill(folder, Config(ignore=[rule.code]), "s")
    crashing = tuple(replace(r, check=_boom) if r is rule else r for r in SKILL_RULES)
    monkeypatch.setattr(engine, "SKILL_RULES", crashing)
    result = engine.score_skill(folder, Config(), "s")

    internal = [f for f in result.findings if f.code == "PE000"]
    assert [(f.path, f.line, f.column, f.severity.value) for f in internal] == [
        ("s/SKILL.md", None, None, "error")
    ]
    assert f"rule {rule.code} crashed" in internal[0].message
    assert "RuntimeError: rule exploded" in internal[0].message
    assert [f for f in result.findings if f.code != "PE000"] == list(without.findings)
    assert _scores(result) == _scores(without)


@pytest.mark.parametrize("rule", PLUGIN_RULES, ids=lambda r: r.code)
def test_a_crashing_plugin_rule_leaves_the_rest_intact(
    rule: PluginRule, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / rule.bad.folder
    folder.mkdir()
    write_files(folder, rule.bad.files)
    without = plugin_score.score_plugin(folder, Config(ignore=[rule.code]), "p")
    crashing = tuple(replace(r, check=_boom) if r is rule else r for r in PLUGIN_RULES)
    monkeypatch.setattr(plugin_score, "PLUGIN_RULES", crashing)
    result = plugin_score.score_plugin(folder, Config(), "p")

    internal = [f for f in result.findings if f.code == "PE000"]
    assert len(internal) == 1 and internal[0].path.startswith("p/")
    assert f"rule {rule.code} crashed" in internal[0].message
    assert [f for f in result.findings if f.code != "PE000"] == list(without.findings)
    assert _scores(result) == _scores(without)


def test_the_traceback_goes_to_the_debug_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    rule = SKILL_RULES[0]
    crashing = tuple(replace(r, check=_boom) if r is rule else r for r in SKILL_RULES)
    monkeypatch.setattr(engine, "SKILL_RULES", crashing)
    with caplog.at_level(logging.DEBUG, logger="plugin_eval"):
        engine.score_skill(_folder(tmp_path, rule.good), Config(), "s")
    (record,) = [r for r in caplog.records if r.exc_info]
    assert record.exc_info is not None
    assert rule.code in record.getMessage() and "rule exploded" in str(record.exc_info[1])


def test_the_command_line_reports_the_crash_and_debug_prints_the_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from plugin_eval.cli import app

    rule = next(r for r in SKILL_RULES if r.code == "PE113")
    crashing = tuple(replace(r, check=_boom) if r is rule else r for r in SKILL_RULES)
    monkeypatch.setattr(engine, "SKILL_RULES", crashing)
    folder = str(_folder(tmp_path, rule.good))
    quiet = CliRunner().invoke(app, ["score", folder])
    assert quiet.exit_code == 1  # PE000 is an error: a skill not fully checked never passes
    assert "PE000 INTERNAL_ERROR rule PE113 crashed" in quiet.stdout
    assert "Traceback" not in quiet.stderr
    loud = CliRunner().invoke(app, ["score", folder, "--debug"])
    assert "rule PE113 raised on SKILL.md" in loud.stderr
    assert "Traceback" in loud.stderr and "RuntimeError: rule exploded" in loud.stderr


def test_debug_prints_the_traceback_of_a_skill_that_could_not_be_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the rules (a layer, the report): the skill is a failure in one line, and --debug
    prints where it came from."""
    from typer.testing import CliRunner

    from plugin_eval import api
    from plugin_eval.cli import app

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("layer exploded")

    monkeypatch.setattr(api, "score_target", broken)
    rule = next(r for r in SKILL_RULES if r.code == "PE113")
    folder = str(_folder(tmp_path, rule.good))
    quiet = CliRunner().invoke(app, ["score", folder])
    assert quiet.exit_code == 1
    assert "could not be scored: RuntimeError: layer exploded" in quiet.stderr
    assert "Traceback" not in quiet.stderr
    loud = CliRunner().invoke(app, ["score", folder, "--debug"])
    assert f"{folder} could not be scored" in loud.stderr
    assert "Traceback" in loud.stderr and "RuntimeError: layer exploded" in loud.stderr
