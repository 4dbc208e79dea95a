"""The bundled corpus: the README's main command runs, and every rule fires somewhere."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.rules import (
    ALL_RULES,
    BELOW_THRESHOLD,
    INTERNAL_ERROR,
    LISTING_INCOMPLETE,
    NOT_SCORED,
)
from tests.conftest import REPO

CORPUS = REPO / "corpus"


def _folders() -> list[str]:
    return sorted(str(p) for p in CORPUS.iterdir() if p.is_dir())


def test_main_command_scores_the_whole_corpus() -> None:
    result = CliRunner().invoke(app, ["score", *_folders(), "--fail-on", "none"])
    assert result.exit_code == 0, result.stderr
    assert "skills" in result.stdout and "mean score" in result.stdout


def test_every_rule_fires_on_some_corpus_skill() -> None:
    result = CliRunner().invoke(app, ["score", *_folders(), "-o", "json", "--fail-on", "none"])
    reports = json.loads(result.stdout)["reports"]
    fired = {f["code"] for r in reports for f in r["findings"]}
    # Met only by trees no corpus folder should be: a symlinked or FIFO part, 1,000+ skills.
    engine_only = (INTERNAL_ERROR, BELOW_THRESHOLD, LISTING_INCOMPLETE, NOT_SCORED)
    assert fired == {r.code for r in ALL_RULES if r not in engine_only}


def test_the_plugin_in_the_corpus_scores_its_skills() -> None:
    result = CliRunner().invoke(app, ["score", str(CORPUS / "csv-toolkit"), "-o", "json"])
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["skills"]) == 2
