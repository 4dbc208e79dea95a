"""Text output fits the terminal (issue 13, point 4): lines no wider than the width, paths
shortened in their middle, never cut; no trailing blanks; --statistics and --quiet."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from plugin_eval import api
from plugin_eval.cli import app
from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.model import Batch, PluginReport
from plugin_eval.report.text import shortened
from plugin_eval.rules import ALL_RULES
from tests.conftest import REPO, write_files

runner = CliRunner()
WIDTHS = (60, 80, 120)
SKILL = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging ledger files.\n{extra}---\n\n# CSV\n\n## Steps\n\n{body}\n"
)
# A location (path:line:column:) or a path as a table shows it, with what may follow it.
LOCATION = re.compile(r"(?::\d+)*:?$")
DIMENSION_ROW = re.compile(r"(\S+) +\d\.\d\d ")


@pytest.fixture(scope="module")
def corpus() -> Iterator[Batch]:
    """Every item of the bundled corpus, scored from the repository root (paths `corpus/…`)."""
    here = os.getcwd()
    os.chdir(REPO)
    try:
        yield api.score_paths(sorted(f"corpus/{p.name}" for p in Path("corpus").iterdir()))
    finally:
        os.chdir(here)


def _paths(batch: Batch) -> set[str]:
    """Every path the text output may show: items, their findings, a plugin's skills."""
    reports = [*batch.reports]
    reports += [s for r in batch.reports if isinstance(r, PluginReport) for s in r.skills]
    return {r.path for r in reports} | {f.path for r in reports for f in r.findings}


def _recognisable(shown: str, paths: set[str]) -> bool:
    """``shown`` is a path whole, or its start and at least its last two parts."""
    if shown in paths:
        return True
    start, sep, tail = shown.partition("/…/")
    return (
        bool(sep)
        and "/" in tail
        and any(p.startswith(f"{start}/") and p.endswith(f"/{tail}") for p in paths)
    )


def _shown_paths(text: str) -> list[str]:
    """Each path the output shows (every word starting `corpus/`), location left off."""
    words = (w.strip("'\",()") for line in text.splitlines() for w in line.split())
    return [LOCATION.sub("", w) for w in words if w.startswith("corpus/")]


def _assert_fits(text: str, width: int, paths: set[str]) -> None:
    lines = text.splitlines()
    assert [line for line in lines if cell_len(line) > width] == []
    unknown = [p for p in _shown_paths(text) if not _recognisable(p, paths)]
    assert unknown == []


@pytest.mark.parametrize("width", WIDTHS)
def test_score_text_fits_the_width_and_every_path_keeps_its_start_and_end(
    corpus: Batch, width: int
) -> None:
    text = api.render(corpus, "text", "batch", RenderOptions(width=width))
    paths = _paths(corpus)
    _assert_fits(text, width, paths)
    shown = set(_shown_paths(text))
    for report in corpus.reports:  # each item is named, whole or recognisably
        assert any(_recognisable(s, {report.path}) for s in shown), report.path
    # The dimension tables give up padding, never a letter of a dimension's name.
    rows = [m.group(1) for m in map(DIMENSION_ROW.match, text.splitlines()) if m]
    assert len(rows) == 10 * len(corpus.reports)
    assert set(rows) == {d.name for d in corpus.reports[0].composite.dimensions}


@pytest.mark.parametrize("width", WIDTHS)
def test_explain_text_fits_the_width(corpus: Batch, width: int) -> None:
    few = Batch(corpus.generated_at, corpus.reports[:8])
    text = api.render(few, "text", "batch", RenderOptions(width=width, explain=True))
    _assert_fits(text, width, _paths(few))


@pytest.mark.parametrize("width", WIDTHS)
def test_compare_and_rules_fit_the_width(width: int) -> None:
    here = os.getcwd()
    os.chdir(REPO)
    try:
        data = api.compare_paths(Path("corpus/csv-toolkit"), Path("corpus/broken-plugin"))
    finally:
        os.chdir(here)
    options = RenderOptions(width=width)
    paths = {data[side]["path"] for side in ("a", "b")}
    paths |= {f["path"] for key in ("only_in_a", "only_in_b") for f in data[key]}
    _assert_fits(api.render(data, "text", "comparison", options), width, paths)
    _assert_fits(api.render(ALL_RULES, "text", "rules", options), width, set())


def test_a_location_loses_folders_from_its_middle_to_keep_code_and_flag_on_its_line(
    corpus: Batch,
) -> None:
    text = api.render(corpus, "text", "batch", RenderOptions(width=60))
    assert "  corpus/…/agents/checker.md:1:1: info PE603 AGENT_TOOLS" in text.splitlines()
    # With room, the same location is whole.
    wide = api.render(corpus, "text", "batch", RenderOptions(width=120))
    assert "  corpus/broken-plugin/agents/checker.md:1:1: info PE603 AGENT_TOOLS agent's" in wide


def test_a_long_message_wraps_under_its_location_and_the_fix_under_its_label(
    corpus: Batch,
) -> None:
    text = api.render(corpus, "text", "batch", RenderOptions(width=80))
    lines = text.splitlines()
    start = lines.index("  corpus/Broken_Invalid_Name/SKILL.md:2:1: error PE104 NAME_INVALID name")
    assert lines[start + 1 : start + 4] == [
        "      'Broken_Invalid_Name' has uppercase letters; contains '_'",
        "      fix: Use lowercase letters, digits and single hyphens, e.g. 'name:",
        "           broken-invalid-name' (and rename the folder to match).",
    ]


def test_shortened_drops_whole_folders_from_the_middle_only() -> None:
    path = "corpus/csv-toolkit/skills/csv-merge/SKILL.md"
    assert shortened(path, 60) == path
    assert shortened(path, 34) == "corpus/…/skills/csv-merge/SKILL.md"
    assert shortened(path, 30) == "corpus/…/csv-merge/SKILL.md"
    assert shortened(path, 10) == "corpus/…/csv-merge/SKILL.md"  # never shorter than this
    assert shortened("/tmp/a/b/c/d", 10) == "/tmp/…/c/d"
    assert shortened("corpus/a-very-long-skill-name", 10) == "corpus/a-very-long-skill-name"


def test_a_name_wider_than_the_line_is_folded_never_cut(tmp_path: Path) -> None:
    name = "n" + "-x" * 40
    folder = tmp_path / name
    write_files(folder, {"SKILL.md": SKILL.format(extra="", body="Trim cells.")})
    batch = api.score_paths([folder])
    text = api.render(batch, "text", "batch", RenderOptions(width=40))
    lines = text.splitlines()
    assert max(cell_len(line) for line in lines) <= 40
    assert name in "".join(line.strip() for line in lines[:6])


def test_a_path_wrapped_onto_a_line_of_its_own_opens_no_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder name with a blank wraps there; the part after it would start a line with
    '::', an Actions command: its first ':' is shown as '\\x3a'."""
    monkeypatch.chdir(tmp_path)
    hostile = "k-" + "a" * 50 + " ::error::wrapped"
    for folder in (hostile, "plain"):
        write_files(tmp_path / folder, {"SKILL.md": SKILL.format(extra="", body="Trim cells.")})
    batch = api.score_paths([hostile, "plain"])
    lines = api.render(batch, "text", "batch", RenderOptions(width=60)).splitlines()
    assert [line for line in lines if line.lstrip().startswith("::")] == []
    assert "\\x3a:error::wrapped" in lines  # the summary's line for it, wrapped


def test_piped_text_output_has_no_trailing_whitespace() -> None:
    here = os.getcwd()
    os.chdir(REPO)
    try:
        outputs = [
            runner.invoke(app, ["score", "corpus/csv-toolkit", "corpus/broken-dead-links"]),
            runner.invoke(app, ["score", "corpus/csv-cleanup", "--explain", "--depth", "deep"]),
            runner.invoke(app, ["compare", "corpus/csv-cleanup", "corpus/log-triage"]),
            runner.invoke(app, ["rules"]),
        ]
    finally:
        os.chdir(here)
    for result in outputs:
        assert result.stdout.count("\n") > 10
        assert [line for line in result.stdout.split("\n") if line != line.rstrip()] == []


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_a_terminal_of_80_columns_gets_lines_of_at_most_80() -> None:
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "80"}
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "plugin_eval", "score", "corpus/csv-toolkit"]
    process = subprocess.Popen(
        [*command, "corpus/broken-dead-links"], cwd=REPO, env=env, stdout=follower
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait()
    os.close(leader)
    shown = re.sub(r"\x1b\[[0-9;]*m", "", b"".join(chunks).decode()).replace("\r\n", "\n")
    assert "\x1b" not in shown and "corpus/broken-dead-links" in shown
    assert max(cell_len(line) for line in shown.split("\n")) == 80


def _skill_tree(tmp_path: Path) -> Path:
    """A skill with two dead links and an unknown field."""
    body = "See [x](references/x.md) and [y](references/y.md)."
    write_files(
        tmp_path / "skills" / "example-skill",
        {"SKILL.md": SKILL.format(extra="colour: blue\n", body=body)},
    )
    return tmp_path


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_statistics_print_one_line_per_code_most_found_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _skill_tree(tmp_path)
    args = ("score", "skills/example-skill", "--statistics", "--threshold", "99")
    code, out, _ = _run(tmp_path, monkeypatch, *args)
    assert code == 1
    assert out == (
        "    2  PE201  ORPHAN_REFERENCE\n"
        "    1  PE010  BELOW_THRESHOLD\n"  # a tie goes by code
        "    1  PE108  UNKNOWN_FIELD\n"
    )


def test_quiet_prints_the_findings_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _skill_tree(tmp_path)
    code, out, _ = _run(tmp_path, monkeypatch, "score", "skills/example-skill", "-q")
    assert code == 1
    missing = "points at a file that does not exist in the skill folder (anti-pattern)"
    assert out.splitlines() == [
        "skills/example-skill/SKILL.md:4:1: warning PE108 UNKNOWN_FIELD unknown frontmatter field 'colour'",
        "    fix: Move it under 'metadata:' as a string value, or delete it.",
        f"skills/example-skill/SKILL.md:11:5: error PE201 ORPHAN_REFERENCE link 'references/x.md' {missing}",
        "    fix: Create 'references/x.md' or correct the path.",
        f"skills/example-skill/SKILL.md:11:30: error PE201 ORPHAN_REFERENCE link 'references/y.md' {missing}",
        "    fix: Create 'references/y.md' or correct the path.",
    ]


def test_quiet_with_nothing_found_prints_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = SKILL.format(extra="", body="Trim cells.")
    write_files(tmp_path / "example-skill", {"SKILL.md": clean})
    assert _run(tmp_path, monkeypatch, "score", "example-skill", "--quiet") == (0, "", "")


def test_report_statistics_count_what_score_counts_and_quiet_drops_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _skill_tree(tmp_path)
    write_files(tmp_path / "skills" / "other", {"SKILL.md": "no frontmatter\n"})
    _, scored, _ = _run(tmp_path, monkeypatch, "score", "skills", "--statistics")
    code, out, err = _run(
        tmp_path, monkeypatch, "report", "skills", "--out", "out", "--statistics", "-q"
    )
    assert code == 0 and err == ""
    assert out == scored and out.startswith("    2  PE201  ORPHAN_REFERENCE\n")
    _, _, err = _run(tmp_path, monkeypatch, "report", "skills", "--out", "out")
    assert err.startswith("scored 2 items")


@pytest.mark.parametrize("command", ["score", "report"])
def test_help_names_statistics_and_quiet(command: str) -> None:
    out = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
    assert "--statistics" in out and "--quiet" in out and "-q" in out
