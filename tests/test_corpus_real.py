"""Robustness over the 874 real skills of ../shared/corpus-real (not a labelled set)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.results import SkillResult
from tests.conftest import CORPUS_REAL

pytestmark = pytest.mark.skipif(not CORPUS_REAL.exists(), reason="shared corpus-real not present")

REFERENCE_CODES = {"PE201", "PE202", "PE203", "PE205", "PE404"}


@pytest.fixture(scope="module")
def scored() -> list[tuple[Path, SkillResult]]:
    folders = sorted(p.parent for p in CORPUS_REAL.rglob("SKILL.md"))
    assert len(folders) == 874
    return [(f, score_skill(f, Config(), f.name)) for f in folders]


def _yaml_broken(text: str) -> bool:
    """An independent look: does the frontmatter between the first two '---' lines load?"""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "---":
        return False
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        return True
    try:
        data = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        return True
    return data is not None and not isinstance(data, dict)


def test_every_skill_gets_a_score_in_range(scored: list[tuple[Path, SkillResult]]) -> None:
    for _, result in scored:
        assert 0 <= result.composite.score <= 100


def test_every_yaml_problem_is_a_finding(scored: list[tuple[Path, SkillResult]]) -> None:
    for folder, result in scored:
        text = (folder / "SKILL.md").read_text(encoding="utf-8", errors="replace")
        if _yaml_broken(text):
            assert {"PE002", "PE003", "PE004"} & {f.code for f in result.findings}, folder


def _fenced_lines(lines: list[str]) -> set[int]:
    """Lines inside ``` or ~~~ fences, by a simple independent scan (1-based)."""
    inside: set[int] = set()
    fence: str | None = None
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if fence is None and marker and len(line) - len(stripped) < 4:
            fence = marker.group(1)
            inside.add(number)
        elif fence is not None:
            inside.add(number)
            if stripped.startswith(fence) and not stripped[len(fence) :].strip():
                fence = None
    return inside


def test_no_reference_finding_points_into_code_or_at_a_url(
    scored: list[tuple[Path, SkillResult]],
) -> None:
    checked = 0
    for folder, result in scored:
        lines = (folder / "SKILL.md").read_text(encoding="utf-8", errors="replace").splitlines()
        fenced = _fenced_lines(lines)
        for f in result.findings:
            if f.code not in REFERENCE_CODES or f.line is None:
                continue
            checked += 1
            target = f.message.split("'")[1]
            assert f.line not in fenced, (folder, f)
            assert not re.match(r"[a-z]+://", target), (folder, f)
            source = lines[f.line - 1]
            outside_code = re.sub(r"`[^`]*`", "", source)
            assert target in outside_code or target in source.replace("%20", " "), (folder, f)
    assert checked > 50
