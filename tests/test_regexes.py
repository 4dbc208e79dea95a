"""plugin_eval.regexes: patterns made from kept code are re.compile's, and the file is safe."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from plugin_eval import regexes
from plugin_eval.config import Config
from plugin_eval.engine import score_skill

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"

supported = pytest.mark.skipif(not regexes.SUPPORTED, reason="kept code is for CPython 3.11-3.13")


@pytest.fixture
def kept_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The file in a temporary folder, and a fresh table: the tests leave the real ones be."""
    file = tmp_path / "cache" / "regexes.marshal"
    monkeypatch.setattr(regexes, "path", lambda: file)
    monkeypatch.setattr(regexes, "_kept", None)
    monkeypatch.setattr(regexes, "_added", {})
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    yield file


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(pattern: str, flags: int = 0) -> re.Pattern[str]:
        raise AssertionError(f"re.compile was called for {pattern!r}")

    monkeypatch.setattr(re, "compile", refuse)


# Run in a process of its own, with no kept code (its bytecode under an empty prefix), so
# that every module-level pattern is compiled there, by re.
_EVERY_PATTERN = """
import re, sys
from pathlib import Path
from plugin_eval import regexes
import plugin_eval.cli
from plugin_eval.config import Config
from plugin_eval.engine import score_skill

assert regexes._table() == {}
for folder in sorted(p.parent for p in Path(sys.argv[1]).glob("*/SKILL.md")):
    score_skill(folder, Config(), folder.name)
for (pattern, flags), compiled in regexes._added.items():
    entry = regexes._entry(pattern, flags, compiled)
    assert entry is not None, pattern
    made = regexes._SRE.compile(pattern, *entry)
    again = re.compile(pattern, flags)
    assert made == again, pattern
    assert (made.pattern, made.flags, made.groups) == (again.pattern, again.flags, again.groups)
    assert made.groupindex == again.groupindex, pattern
print(len(regexes._added))
"""


@supported
def test_every_pattern_of_a_run_is_kept_as_what_re_compiles(tmp_path: Path) -> None:
    # Every pattern the command line and a scoring of the bundled corpus (the lazy ones
    # too) compile is one whose code can be read so that _sre makes exactly re.compile's
    # pattern from it.
    done = subprocess.run(
        [sys.executable, "-X", f"pycache_prefix={tmp_path}", "-c", _EVERY_PATTERN, str(CORPUS)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 80


@supported
def test_a_saved_pattern_is_made_without_compiling(
    kept_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, flags = r"(?P<verb>use|run)\s+(?P<tool>`[^`]+`)", re.IGNORECASE
    first = regexes.compile(source, flags)
    assert regexes.save() is True
    assert kept_in.is_file()
    monkeypatch.setattr(regexes, "_kept", None)  # as a new process would read it
    _no_compiling(monkeypatch)
    second = regexes.compile(source, flags)
    assert second == first
    assert second.groupindex == {"verb": 1, "tool": 2}
    match = second.search("Then RUN `make test`.")
    assert match is not None and match["tool"] == "`make test`"
    assert regexes.save() is False  # nothing new: the file is not written again


@supported
def test_a_damaged_or_foreign_file_is_not_read(kept_in: Path) -> None:
    kept_in.parent.mkdir(parents=True)
    source = r"\bdepends?\s+on\b"
    for content in (
        b"\x00not marshal",
        marshal.dumps((("another", "stamp"), {(source, 0): (0, [1, 2, 3], 0, {}, (None,))})),
        marshal.dumps("just a string"),
    ):
        kept_in.write_bytes(content)
        regexes._kept = None
        assert regexes._table() == {}
        assert regexes.compile(source) == re.compile(source)


@supported
def test_code_that_sre_refuses_gives_re_compile_s_pattern_and_is_replaced(
    kept_in: Path,
) -> None:
    source = r"[A-Z]{2,}\d+"
    kept_in.parent.mkdir(parents=True)
    # Code _sre's validation refuses: the pattern is compiled, and the file written anew.
    kept_in.write_bytes(marshal.dumps((regexes.STAMP, {(source, 0): (0, [999], 0, {}, (None,))})))
    made = regexes.compile(source)
    assert made == re.compile(source)
    assert made.fullmatch("PE123") is not None
    assert regexes.save() is True
    stamp, table = marshal.loads(kept_in.read_bytes())
    assert stamp == regexes.STAMP
    assert table[source, 0][1] != [999]


@supported
def test_nothing_is_written_when_bytecode_is_not(
    kept_in: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    regexes.compile(r"plain\s+text")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert regexes.save() is False
    assert not kept_in.exists()


@supported
@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_folder_that_cannot_be_written_is_passed_over(kept_in: Path) -> None:
    kept_in.parent.mkdir(parents=True)
    kept_in.parent.chmod(0o500)
    try:
        regexes.compile(r"read\s+only")
        assert regexes.save() is False
        assert list(kept_in.parent.iterdir()) == []
    finally:
        kept_in.parent.chmod(0o700)


@supported
def test_an_unwritable_place_is_passed_over(kept_in: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A file where the folder should be: the write fails, and the run is not told so.
    kept_in.parent.write_text("not a folder")
    regexes.compile(r"nowhere\s+to\s+go")
    assert regexes.save() is False


def test_the_file_stays_bounded(kept_in: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regexes, "MOST", 3)
    for i in range(10):
        assert regexes.compile(f"word{i}").fullmatch(f"word{i}") is not None
    assert len(regexes._added) <= 3


@supported
def test_the_command_line_keeps_its_patterns_and_reports_alike(tmp_path: Path) -> None:
    # Two runs with the bytecode (and so the kept code) under a prefix of their own: the
    # first writes the file, the second reads it, and both give the same bytes.
    prefix = tmp_path / "pycache"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [
        sys.executable,
        "-X",
        f"pycache_prefix={prefix}",
        "-m",
        "plugin_eval",
        "score",
        str(CORPUS / "csv-cleanup"),
        "--no-cache",
        "-o",
        "json",
    ]
    runs = [
        subprocess.run(command, capture_output=True, check=False, env=env, cwd=tmp_path)
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    kept = list(prefix.rglob("regexes.*.marshal"))
    assert len(kept) == 1
    stamp, table = marshal.loads(kept[0].read_bytes())
    assert stamp == regexes.STAMP and len(table) > 80
    first, second = (r.stdout for r in runs)
    timestamp = re.compile(rb'"(?:generated_at|timestamp)": "[^"]*"')
    assert timestamp.sub(b"", first) == timestamp.sub(b"", second)


def test_score_results_do_not_depend_on_the_kept_code(kept_in: Path) -> None:
    folder = CORPUS / "csv-cleanup"
    plain = score_skill(folder, Config(), "csv-cleanup")
    regexes.save()
    regexes._kept = None
    kept = score_skill(folder, Config(), "csv-cleanup")
    assert kept == plain
