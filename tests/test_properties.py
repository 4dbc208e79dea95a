"""Any text as SKILL.md: no crash, a score in [0, 100], the same result twice."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plugin_eval.analysis import written
from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.report.model import build_report

MARKDOWNISH = st.lists(
    st.sampled_from(
        [
            "---",
            "name: x",
            "description: Use when a, b, or c.",
            "# H",
            "## Input",
            "```",
            "```json",
            "[l](references/a.md)",
            "![i](../x.png)",
            "`code`",
            "MUST",
            "- item",
            "| a | b |",
            "|---|---|",
            "<!-- plugin-eval: ignore -->",
            "    indented",
            "",
            ":",
            "- [",
            "\t",
            "\r",
        ]
    )
    | st.text(max_size=40),
    max_size=40,
).map("\n".join)


def _score(content: bytes) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "x"
        folder.mkdir()
        (folder / "SKILL.md").write_bytes(content)
        report = build_report(score_skill(folder, Config(), "x"), "T")
    return report.model_dump_json()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        MARKDOWNISH.map(lambda s: s.encode("utf-8", "surrogatepass")), st.binary(max_size=300)
    )
)
def test_any_bytes_score_in_range_and_deterministically(content: bytes) -> None:
    first = _score(content)
    report = json.loads(first)
    assert 0 <= report["composite"]["score"] <= 100
    for dim in report["composite"]["dimensions"]:
        assert dim["score"] is None or 0 <= dim["score"] <= 1
    assert _score(content) == first


PATH_TEXT = st.lists(
    st.sampled_from(["a.md", "a", "b", "/", ".", "-", "_", " ", "é", "2", "\n", "x/a.md"]),
    max_size=10,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["a.md", "a", "x/a.md", "é"]), PATH_TEXT)
def test_written_is_the_boundary_regex(name: str, text: str) -> None:
    """``written`` scans with str.find; it answers as the regex it replaced."""
    regex = r"(?<![\w/.-])" + re.escape(name) + r"(?![\w/])"
    assert written(name, text) is (re.search(regex, text) is not None)
