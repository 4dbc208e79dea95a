"""Bounds as the documentation words them: a body "under 500 lines" is 499 at most (PE303),
and `--ignore PE010` is refused, since the threshold's verdict is not a finding to ignore."""

from __future__ import annotations

from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from tests.conftest import REPO, MakeSkill

HEAD = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# S\n\n"
)
runner = CliRunner()


def _pe303(make_skill: MakeSkill, body_lines: int) -> list[tuple[int | None, str]]:
    # The body runs from the blank line after the frontmatter: two lines of it are above.
    text = HEAD + "".join(f"Step {n}.\n" for n in range(body_lines - 3))
    result = score_skill(make_skill(text), Config(), "s")
    return [(f.line, f.message) for f in result.findings if f.code == "PE303"]


def test_a_body_of_500_lines_is_not_under_500(make_skill: MakeSkill) -> None:
    assert _pe303(make_skill, 499) == []
    assert _pe303(make_skill, 500) == [(5, "body is 500 lines (guide: under 500)")]


def test_ignoring_the_threshold_verdict_is_refused() -> None:
    skill = str(REPO / "corpus/broken-dead-links")
    for selector in ("PE010", "below-threshold", "BELOW_THRESHOLD"):
        result = runner.invoke(app, ["score", skill, "--threshold", "99", "--ignore", selector])
        assert (result.exit_code, result.stdout) == (2, "")
        assert (
            f"--ignore: '{selector}' is the threshold's verdict, not a finding a rule makes, and "
            "is not ignored: to drop it, drop the threshold"
        ) in " ".join(result.stderr.split())
    # A prefix that holds other codes too stays usable.
    assert runner.invoke(app, ["score", skill, "-q", "--ignore", "PE0"]).exit_code == 1
