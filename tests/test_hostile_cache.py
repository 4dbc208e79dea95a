"""The cache and the output folder stay sound, and a path that cannot be used is one clear
error: locked is not damaged, a kill leaves old or new files (never half of one) and a cache
that passes `PRAGMA integrity_check`, and a closed or full output, an unwritable folder or a
malformed --previous is one error line with exit 2, never a traceback.

Every case runs the real command line in a child process, so exit codes, standard output
and standard error are the real ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from plugin_eval.montecarlo.backends.base import Reply
from plugin_eval.montecarlo.cache import ResponseCache
from tests.conftest import REPO

SKILL = (
    "---\nname: {name}\ndescription: Cleans CSV exports number {n}. Use when the user asks to "
    "tidy column names or merge ledger files.\n---\n\n# {name}\n\n## Steps\n\n{body}\n"
)
PLUGIN_EVAL = [sys.executable, "-m", "plugin_eval"]
ROOT_IS_ALL_POWERFUL = hasattr(os, "geteuid") and os.geteuid() == 0


def make_tree(root: Path, count: int, body: str = "Trim cells.", start: int = 0) -> Path:
    for n in range(start, start + count):
        name = f"s{n:03d}"
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "SKILL.md").write_text(SKILL.format(name=name, n=n, body=body))
    return root


def cli(
    *args: str | Path,
    timeout: float = 120,
    patch: str = "",
    preexec: Callable[[], None] | None = None,
    stdout: int | None = subprocess.PIPE,
) -> subprocess.CompletedProcess[str]:
    """`plugin-eval ARGS` in a child process; ``patch`` is Python run before the CLI starts."""
    code = f"{patch}\nfrom plugin_eval.cli import main\nmain()"
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=REPO,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        preexec_fn=preexec,
    )


def one_error_line(result: subprocess.CompletedProcess[str], starts: str) -> str:
    """The run failed with exit 2 and a single `error: …` line on stderr, no traceback."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {starts}"), lines[0]
    return lines[0]


def integrity(db_file: Path) -> str:
    db = sqlite3.connect(db_file)
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


def damaged(db_file: Path) -> bool:
    try:
        return integrity(db_file) != "ok"
    except sqlite3.DatabaseError:
        return True


def cached_rows(db_file: Path) -> int:
    db = sqlite3.connect(db_file)
    try:
        return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    finally:
        db.close()


def every_json_parses(folder: Path) -> int:
    files = [p for p in folder.rglob("*.json")]
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))
    return len(files)


def written_since(folder: Path, moment: float) -> int:
    """Report files in ``folder`` written since ``moment`` (a run is writing beside us)."""
    count = 0
    for entry in os.scandir(folder):
        with contextlib.suppress(FileNotFoundError):  # a temporary file, renamed since
            count += entry.name.endswith(".json") and entry.stat().st_mtime >= moment
    return count


def summary_rows(out: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads((out / "summary.json").read_text())["rows"]
    return rows


def item_files(out: Path) -> dict[str, Any]:
    """Every per-item file and badge, reports without their generated_at."""
    files: dict[str, Any] = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if rel.startswith(("skills/", "plugins/")) and path.suffix == ".json":
            data = json.loads(path.read_text())
            data.pop("generated_at", None)
            files[rel] = data
        elif rel.startswith("badges/"):
            files[rel] = path.read_text()
    return files


@pytest.fixture
def holder() -> Iterator[Callable[[Path, str], subprocess.Popen[str]]]:
    """Another process holding a cache's lock until the test ends (or it is told to stop)."""
    started: list[subprocess.Popen[str]] = []

    def hold(db_file: Path, how: str) -> subprocess.Popen[str]:
        code = (
            "import sqlite3, sys\n"
            f"db = sqlite3.connect({str(db_file)!r}, isolation_level=None)\n"
            f"{how}\n"
            "print('held', flush=True)\n"
            "sys.stdin.readline()\n"
        )
        proc = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        started.append(proc)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        return proc

    yield hold
    for proc in started:
        proc.kill()
        proc.wait()


# -- Locked is not damaged ------------------------------------------------------------------


WRITE_LOCK = "db.execute('BEGIN IMMEDIATE'); db.execute('DELETE FROM meta WHERE 0')"


@pytest.mark.timeout(120)
def test_a_run_waits_for_another_runs_write_and_then_saves_its_results(
    tmp_path: Path, holder: Callable[[Path, str], subprocess.Popen[str]]
) -> None:
    tree, cache = make_tree(tmp_path / "tree", 20), tmp_path / "cache"
    assert cli("report", tree, "--out", tmp_path / "a", "--cache-dir", cache).returncode == 0
    make_tree(tree, 5, body="Trim cells, then sort rows.")  # five results to save
    lock = holder(cache / "cache.sqlite3", WRITE_LOCK)
    release = subprocess.Popen(  # the other run's write ends two seconds from now
        [sys.executable, "-c", "import time; time.sleep(2)"]
    )
    run = subprocess.Popen(
        [
            *PLUGIN_EVAL,
            "report",
            str(tree),
            "--out",
            str(tmp_path / "b"),
            "--cache-dir",
            str(cache),
        ],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    release.wait()
    assert lock.stdin is not None
    lock.stdin.write("\n")
    lock.stdin.flush()
    lock.wait()
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 0, stderr
    assert "note:" not in stderr
    assert "cache 15 hits, 5 misses" in stderr
    assert integrity(cache / "cache.sqlite3") == "ok"
    assert cached_rows(cache / "cache.sqlite3") == 20
    again = cli("report", tree, "--out", tmp_path / "b", "--cache-dir", cache)
    assert "cache 20 hits, 0 misses" in again.stderr


@pytest.mark.timeout(120)
def test_a_cache_locked_for_writing_past_the_wait_is_read_and_kept(
    tmp_path: Path, holder: Callable[[Path, str], subprocess.Popen[str]]
) -> None:
    tree, cache = make_tree(tmp_path / "tree", 20), tmp_path / "cache"
    cli("report", tree, "--out", tmp_path / "a", "--cache-dir", cache)
    db_file = cache / "cache.sqlite3"
    inode = db_file.stat().st_ino
    make_tree(tree, 5, body="Trim cells, then sort rows.")
    holder(db_file, WRITE_LOCK)
    result = cli(
        "report",
        tree,
        "--out",
        tmp_path / "b",
        "--cache-dir",
        cache,
        patch="import plugin_eval.sqlite_files as c; c.BUSY_TIMEOUT = 0.5",
    )
    assert result.returncode == 0, result.stderr
    assert "cache 15 hits, 5 misses" in result.stderr
    assert "results could not be saved (still locked by another run after 0.5 s)" in (result.stderr)
    assert "rebuilt" not in result.stderr
    assert db_file.stat().st_ino == inode and cached_rows(db_file) == 20
    assert integrity(db_file) == "ok"


@pytest.mark.timeout(120)
def test_a_cache_another_process_holds_outright_is_left_alone_and_the_run_goes_on(
    tmp_path: Path, holder: Callable[[Path, str], subprocess.Popen[str]]
) -> None:
    tree, cache = make_tree(tmp_path / "tree", 20), tmp_path / "cache"
    cli("report", tree, "--out", tmp_path / "a", "--cache-dir", cache)
    db_file = cache / "cache.sqlite3"
    inode = db_file.stat().st_ino
    holder(
        db_file,
        "db.execute('PRAGMA locking_mode = EXCLUSIVE'); db.execute('BEGIN EXCLUSIVE'); "
        "db.execute('DELETE FROM meta WHERE 0'); db.execute('COMMIT')",
    )
    result = cli(
        "report",
        tree,
        "--out",
        tmp_path / "b",
        "--cache-dir",
        cache,
        patch="import plugin_eval.sqlite_files as c; c.BUSY_TIMEOUT = 0.5",
    )
    assert result.returncode == 0, result.stderr
    assert "is in use by another run (still locked after 0.5 s): this run went on without it" in (
        result.stderr
    )
    assert "cache 0 hits, 20 misses" in result.stderr
    assert summary_rows(tmp_path / "b") == summary_rows(tmp_path / "a")
    assert db_file.stat().st_ino == inode


# -- Damaged is rebuilt, with a note ----------------------------------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize("damage", ["not a database", "fails quick_check", "empty"])
def test_a_damaged_cache_is_noticed_on_opening_and_rebuilt(tmp_path: Path, damage: str) -> None:
    tree, cache = make_tree(tmp_path / "tree", 60), tmp_path / "cache"
    cli("report", tree, "--out", tmp_path / "a", "--cache-dir", cache)
    db_file = cache / "cache.sqlite3"
    if damage == "not a database":
        db_file.write_bytes(b"plugin-eval? no, a photo of a cat" * 200)
    elif damage == "empty":
        db_file.write_bytes(b"")
    else:
        data = bytearray(db_file.read_bytes())
        page = 4096
        assert len(data) > 6 * page
        data[2 * page : 5 * page] = os.urandom(3 * page)  # b-tree pages, header intact
        db_file.write_bytes(bytes(data))
        assert damaged(db_file)
    result = cli("report", tree, "--out", tmp_path / "b", "--cache-dir", cache)
    assert result.returncode == 0, result.stderr
    if damage != "empty":  # an empty file is an empty database, not a damaged one
        assert f"note: cache {db_file} was damaged (" in result.stderr
        assert "): rebuilt" in result.stderr
    assert integrity(db_file) == "ok" and cached_rows(db_file) == 60
    assert summary_rows(tmp_path / "b") == summary_rows(tmp_path / "a")


# -- A kill mid-run ---------------------------------------------------------------------------


def linked_body(seed: int) -> str:
    """A body with a hundred links that lead nowhere: a large report (one finding per link)
    that compresses badly, so a run's cache writes outgrow SQLite's page cache."""
    rng = random.Random(seed)
    return "\n\n".join(
        f"Step {i}: see [{rng.randbytes(8).hex()}](references/{rng.randbytes(12).hex()}.md)."
        for i in range(100)
    )


@pytest.mark.timeout(300)
def test_a_report_killed_mid_run_leaves_a_sound_cache_and_folder_and_the_next_run_is_right(
    tmp_path: Path,
) -> None:
    tree, cache, out = tmp_path / "tree", tmp_path / "cache", tmp_path / "out"
    for n in range(300):
        make_tree(tree, 1, linked_body(n), start=n)
    assert cli("report", tree, "--out", out, "--cache-dir", cache, "--jobs", "2").returncode == 0
    # Every result changes and a hundred items are new: the killed run overwrites cached
    # entries and output files, and writes files for new items.
    for n in range(400):
        make_tree(tree, 1, linked_body(n) + "\n\nAt the end, sort the rows.", start=n)
    started = time.time()
    run = subprocess.Popen(
        [
            *PLUGIN_EVAL,
            "report",
            str(tree),
            "--out",
            str(out),
            "--cache-dir",
            str(cache),
            "-j",
            "2",
        ],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while run.poll() is None:
            if written_since(out / "skills", started) >= 300:  # three quarters of the way
                break
            time.sleep(0.005)
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # the main process and its workers
        run.wait()
    assert run.returncode == -signal.SIGKILL, "the run ended before it could be killed"

    assert integrity(cache / "cache.sqlite3") == "ok"
    assert every_json_parses(out) >= 300

    # Fifty items go away before the next run: files the killed run wrote for them go too.
    for n in range(350, 400):
        (tree / f"s{n:03d}" / "SKILL.md").unlink()
        (tree / f"s{n:03d}").rmdir()
    again = cli("report", tree, "--out", out, "--cache-dir", cache, "--jobs", "2")
    assert again.returncode == 0, again.stderr
    fresh_out = tmp_path / "fresh"
    assert cli("report", tree, "--out", fresh_out, "--no-cache", "--jobs", "2").returncode == 0
    assert summary_rows(out) == summary_rows(fresh_out)
    assert item_files(out) == item_files(fresh_out)
    assert integrity(cache / "cache.sqlite3") == "ok"
    assert not list(out.rglob(".plugin-eval-*.tmp")) and not (out / ".plugin-eval-unsure").exists()


@pytest.mark.timeout(120)
def test_the_run_after_a_stopped_one_rewrites_what_it_may_have_changed(tmp_path: Path) -> None:
    """The state a kill leaves, built by hand: a file rewritten behind the index's back, a
    file for an item that is gone, and a temporary file of a process that no longer runs."""
    tree, out = make_tree(tmp_path / "tree", 10), tmp_path / "out"
    assert cli("report", tree, "--out", out, "--no-cache").returncode == 0
    before = item_files(out)
    changed, gone = out / "skills" / "s003.json", out / "skills" / "s777.json"
    # Same length, other bytes: only the stopped run's list of names can tell.
    changed.write_text(changed.read_text().replace("s003", "s00X"))
    gone.write_text("{}")
    mine = out / "skills" / "notes-by-the-user.json"
    mine.write_text("{}")
    (out / ".plugin-eval-unsure").write_text('"skills/s003.json"\n"skills/s777.json"\n"skil')
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], text=True, capture_output=True
    ).stdout.strip()
    leftover = out / "skills" / f".plugin-eval-{dead}.tmp"
    leftover.write_text('{"half": ')
    assert cli("report", tree, "--out", out, "--no-cache").returncode == 0
    after = item_files(out)
    after.pop("skills/notes-by-the-user.json")
    assert after == before
    assert not gone.exists() and not leftover.exists() and mine.exists()
    assert not (out / ".plugin-eval-unsure").exists()


@pytest.mark.timeout(120)
def test_files_are_replaced_whole_never_rewritten_in_place(tmp_path: Path) -> None:
    """A hard link made before a run keeps the old bytes: each file was renamed into place."""
    tree, out = make_tree(tmp_path / "tree", 3), tmp_path / "out"
    result = cli("report", tree, "--out", out, "--no-cache", "--html", "--sarif")
    assert result.returncode == 0
    text = (tree / "s001" / "SKILL.md").read_text()
    (tree / "s001" / "SKILL.md").write_text(text.replace("name: s001", "name: s001-renamed"))
    names = [
        "summary.json",
        "summary.md",
        "summary.sarif",
        "report.html",
        ".plugin-eval-index.json",
        "skills/s001.json",
        "badges/s001.svg",
    ]
    links = tmp_path / "links"
    links.mkdir()
    for i, name in enumerate(names):
        os.link(out / name, links / str(i))
    old = {name: (links / str(i)).read_bytes() for i, name in enumerate(names)}
    result = cli("report", tree, "--out", out, "--no-cache", "--html", "--sarif")
    assert result.returncode == 0
    rewritten = set()
    for i, name in enumerate(names):
        assert (links / str(i)).read_bytes() == old[name], name
        if (out / name).read_bytes() != old[name]:  # unchanged files are not written again
            assert (out / name).stat().st_ino != (links / str(i)).stat().st_ino, name
            rewritten.add(name)
    assert {"summary.json", "summary.md", ".plugin-eval-index.json", "skills/s001.json"} <= (
        rewritten
    )
    target = tmp_path / "score.json"
    cli("score", tree / "s000", "--output-file", f"json={target}", "--fail-on", "none")
    os.link(target, links / "score")
    cli("score", tree / "s001", "--output-file", f"json={target}", "--fail-on", "none")
    assert json.loads((links / "score").read_text())["path"].endswith("s000")
    assert json.loads(target.read_text())["path"].endswith("s001")


# -- Paths that cannot be used ----------------------------------------------------------------


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "a-file"
    path.write_text("not a folder\n")
    return path


@pytest.mark.timeout(60)
@pytest.mark.parametrize("where", ["is a file", "is under a file"])
def test_a_cache_dir_that_cannot_be_a_folder_is_one_error(tmp_path: Path, where: str) -> None:
    tree = make_tree(tmp_path / "tree", 2)
    cache = _file(tmp_path) if where == "is a file" else _file(tmp_path) / "cache"
    result = cli("report", tree, "--out", tmp_path / "out", "--cache-dir", cache)
    line = one_error_line(result, f"--cache-dir {cache}: cannot be written (")
    assert line.endswith("; give --cache-dir a folder plugin-eval can write, or --no-cache")


@pytest.mark.timeout(60)
def test_an_out_folder_under_a_file_is_one_error(tmp_path: Path) -> None:
    out = _file(tmp_path) / "out"
    result = cli("report", make_tree(tmp_path / "tree", 2), "--out", out, "--no-cache")
    one_error_line(result, f"--out {out}: cannot be written (Not a directory); give --out")


@pytest.mark.timeout(60)
@pytest.mark.skipif(ROOT_IS_ALL_POWERFUL, reason="root writes into read-only folders")
@pytest.mark.parametrize("option", ["--out", "--cache-dir"])
def test_a_read_only_folder_is_one_error(tmp_path: Path, option: str) -> None:
    tree = make_tree(tmp_path / "tree", 2)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert cli("report", tree, "--out", out, "--cache-dir", cache).returncode == 0
    make_tree(tree, 2, body="Trim cells, then sort rows.")
    locked = out if option == "--out" else cache
    for folder in [locked, *[p for p in locked.rglob("*") if p.is_dir()]]:
        folder.chmod(0o555)
    try:
        result = cli("report", tree, "--out", out, "--cache-dir", cache)
    finally:
        for folder in [locked, *[p for p in locked.rglob("*") if p.is_dir()]]:
            folder.chmod(0o755)
    one_error_line(result, f"{option} {locked}: cannot be written (")


def _file_size_limit(limit: int) -> Callable[[], None]:
    """A disk that fills after ``limit`` bytes of any one file (EFBIG, as ENOSPC would)."""

    def limit_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_files


@pytest.mark.timeout(120)
def test_a_full_disk_under_the_out_folder_is_one_error(tmp_path: Path) -> None:
    tree, out = make_tree(tmp_path / "tree", 5), tmp_path / "out"
    result = cli("report", tree, "--out", out, "--no-cache", preexec=_file_size_limit(1000))
    line = one_error_line(result, f"--out {out}: cannot be written (File too large)")
    assert line.endswith("free some space, or give --out a folder on another disk")
    assert not list(out.rglob(".plugin-eval-*.tmp"))


@pytest.mark.timeout(120)
def test_a_full_disk_under_the_cache_costs_only_speed(tmp_path: Path) -> None:
    tree, cache = make_tree(tmp_path / "tree", 60), tmp_path / "cache"
    result = cli(
        "report",
        tree,
        "--out",
        tmp_path / "out",
        "--cache-dir",
        cache,
        preexec=_file_size_limit(64 * 1024),
    )
    assert result.returncode == 0, result.stderr
    assert f"note: cache {cache / 'cache.sqlite3'}: results could not be saved (" in result.stderr
    assert len(summary_rows(tmp_path / "out")) == 60
    assert integrity(cache / "cache.sqlite3") == "ok"


@pytest.mark.timeout(60)
def test_an_output_file_that_cannot_be_written_is_one_error(tmp_path: Path) -> None:
    skill = make_tree(tmp_path / "tree", 1) / "s000"
    target = _file(tmp_path) / "report.json"
    result = cli("score", skill, "--fail-on", "none", "--output-file", f"json={target}")
    one_error_line(result, f"--output-file json={target}: cannot be written (")
    full = cli(
        "score",
        skill,
        "--fail-on",
        "none",
        "--output-file",
        f"json={tmp_path / 'r.json'}",
        preexec=_file_size_limit(200),
    )
    one_error_line(full, f"--output-file json={tmp_path / 'r.json'}: cannot be written (")
    assert not (tmp_path / "r.json").exists()


# -- Standard output closed or full -----------------------------------------------------------


COMMANDS = [["score", "{skill}"], ["score", "{skill}", "-o", "json"], ["rules"], ["schema"]]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_closed_standard_output_is_one_error(tmp_path: Path, command: Sequence[str]) -> None:
    skill = make_tree(tmp_path / "tree", 1) / "s000"
    args = [a.format(skill=skill) for a in command]
    result = cli(*args, preexec=lambda: os.close(1), stdout=None)
    one_error_line(result, "standard output: cannot be written (it is closed)")


@pytest.mark.timeout(60)
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_full_standard_output_is_one_error(tmp_path: Path, command: Sequence[str]) -> None:
    skill = make_tree(tmp_path / "tree", 1) / "s000"
    args = [a.format(skill=skill) for a in command]
    with open("/dev/full", "w") as full:
        result = cli(*args, stdout=full.fileno())
    one_error_line(result, "standard output: cannot be written (No space left on device)")


@pytest.mark.timeout(60)
def test_a_report_runs_with_standard_output_closed(tmp_path: Path) -> None:
    """`report` writes nothing there, and no file it opens takes the closed stream's number."""
    tree, out = make_tree(tmp_path / "tree", 3), tmp_path / "out"
    result = cli(
        "report", tree, "--out", out, "--no-cache", preexec=lambda: os.close(1), stdout=None
    )
    assert result.returncode == 0, result.stderr
    assert len(summary_rows(out)) == 3


@pytest.mark.timeout(60)
def test_a_closed_standard_error_stops_nothing(tmp_path: Path) -> None:
    tree = make_tree(tmp_path / "tree", 3)
    result = subprocess.run(
        [*PLUGIN_EVAL, "score", str(tree / "s000"), "-o", "json"],
        cwd=REPO,
        capture_output=False,
        stdout=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(2),
    )
    assert result.returncode == 0 and json.loads(result.stdout)["path"].endswith("s000")
    report = cli(
        "report", tree, "--out", tmp_path / "out", "--no-cache", preexec=lambda: os.close(2)
    )
    assert report.returncode == 0 and len(summary_rows(tmp_path / "out")) == 3


# -- A malformed --previous -------------------------------------------------------------------


BROKEN_PREVIOUS: dict[str, tuple[bytes | None, str]] = {
    "truncated": (b'{"rows": [{"path": "s000", "sco', "summary.json is not valid JSON ("),
    "not an object": (b"[1, 2, 3]", "summary.json is not a plugin-eval summary"),
    "rows not a list": (b'{"rows": {"s000": 1}}', "summary.json is not a plugin-eval summary"),
    "nested too deep": (b"[" * 100_000, "summary.json is not valid JSON (nested too deeply"),
    "not text": (b"\xff\xfe\x00garbage", "summary.json is not UTF-8 text"),
    "no summary": (None, "no summary.json in it"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", BROKEN_PREVIOUS, ids=str)
def test_a_previous_folder_without_a_readable_summary_is_one_error(
    tmp_path: Path, case: str
) -> None:
    content, reason = BROKEN_PREVIOUS[case]
    previous = tmp_path / "last-week"
    previous.mkdir()
    if content is not None:
        (previous / "summary.json").write_bytes(content)
    result = cli(
        "report",
        make_tree(tmp_path / "tree", 2),
        "--out",
        tmp_path / "out",
        "--no-cache",
        "--previous",
        previous,
    )
    line = one_error_line(result, f"--previous {previous}: {reason}")
    assert line.endswith("; give the output folder of an earlier report")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("what", ["a file", "missing"])
def test_a_previous_that_is_not_a_folder_is_one_error(tmp_path: Path, what: str) -> None:
    previous = _file(tmp_path) if what == "a file" else tmp_path / "nowhere"
    result = cli(
        "report",
        make_tree(tmp_path / "tree", 2),
        "--out",
        tmp_path / "out",
        "--no-cache",
        "--previous",
        previous,
    )
    reason = "not a folder" if what == "a file" else "no such folder"
    one_error_line(result, f"--previous {previous}: {reason}")


@pytest.mark.timeout(60)
def test_malformed_rows_and_report_files_of_a_previous_run_are_noted_not_fatal(
    tmp_path: Path,
) -> None:
    tree = make_tree(tmp_path / "tree", 8)
    previous = tmp_path / "last-week"
    assert cli("report", tree, "--out", previous, "--no-cache").returncode == 0
    summary = json.loads((previous / "summary.json").read_text())
    summary["rows"][0]["score"] = "ninety"
    summary["rows"][1]["score"] = 10**400
    summary["rows"][2]["badge"] = ["gold"]
    summary["rows"].append(7)
    (previous / "summary.json").write_text(json.dumps(summary))
    skills = previous / "skills"
    (skills / "s000.json").write_text('{"findings": [')
    (skills / "s001.json").write_text("[1, 2]")
    (skills / "s002.json").write_text('{"findings": 3}')
    (skills / "s003.json").write_text('{"findings": [1]}')
    (skills / "s004.json").write_bytes(b"\xff\xfe")
    (skills / "s005.json").unlink()
    os.mkfifo(skills / "s005.json")  # never opened for reading: it would block
    (skills / "s006.json").unlink()
    (skills / "s006.json").mkdir()
    result = cli("report", tree, "--out", tmp_path / "out", "--no-cache", "--previous", previous)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert f"note: --previous {previous}: 7 file(s) could not be read as reports" in result.stderr
    assert f"note: --previous {previous}: 4 row(s) of summary.json lack a usable" in result.stderr
    data = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert len(data["rows"]) == 8 and data["changes"]["added"] == []
    assert "changes" not in data["rows"][0] and data["rows"][7]["changes"]["existed"] is True


@pytest.mark.timeout(60)
def test_previous_may_be_the_out_folder_itself(tmp_path: Path) -> None:
    tree, out = make_tree(tmp_path / "tree", 3, body="See [x](references/x.md)."), tmp_path / "o"
    assert cli("report", tree, "--out", out, "--no-cache").returncode == 0
    make_tree(tree, 1, body="Trim cells.")  # s000 no longer points at a missing file
    result = cli("report", tree, "--out", out, "--no-cache", "--previous", out)
    assert result.returncode == 0, result.stderr
    changes = json.loads((out / "summary.json").read_text())["changes"]
    assert changes["fixed_findings"] >= 1 and changes["new_findings"] == 0


# -- The response cache of the Monte Carlo layer ----------------------------------------------


REPLY = Reply(text="hello", tool=None, input_tokens=1, output_tokens=1)


@pytest.mark.timeout(60)
def test_a_locked_response_cache_is_kept_and_the_run_goes_on_without_it(
    tmp_path: Path, holder: Callable[[Path, str], subprocess.Popen[str]]
) -> None:
    db_file = tmp_path / "responses.sqlite3"
    first = ResponseCache(db_file)
    first.put("k", REPLY)
    first.close()
    holder(db_file, "db.execute('PRAGMA locking_mode = EXCLUSIVE'); db.execute('BEGIN EXCLUSIVE')")
    cache = ResponseCache(db_file, timeout=0.2)
    assert cache.get("k") is None
    cache.put("k2", REPLY)
    cache.close()
    assert "still locked by another run after 0.2 s" in cache.notes[0]
    assert db_file.exists()


@pytest.mark.timeout(60)
def test_a_damaged_response_cache_is_rebuilt_with_a_note(tmp_path: Path) -> None:
    db_file = tmp_path / "responses.sqlite3"
    db_file.write_bytes(b"not a database at all" * 100)
    cache = ResponseCache(db_file)
    cache.put("k", REPLY)
    assert cache.get("k") == REPLY
    cache.close()
    assert "was damaged" in cache.notes[0] and integrity(db_file) == "ok"


# -- Another build of the same version is not trusted ---------------------------------------


def test_the_code_digest_follows_the_code_and_nothing_else(tmp_path: Path) -> None:
    from plugin_eval.cache import code_digest

    package = tmp_path / "pkg"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text("VERSION = '1'\n")
    (package / "rules" / "r1.py").write_text("X = 1\n")
    (package / "data.json").write_text("{}\n")
    first = code_digest(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "r1.cpython-311.pyc").write_bytes(b"\0compiled")
    (package / "notes.txt").write_text("not code\n")
    assert code_digest(package) == first
    (package / "rules" / "r1.py").write_text("X = 2\n")
    assert code_digest(package) != first
    (package / "rules" / "r1.py").write_text("X = 1\n")
    assert code_digest(package) == first
    (package / "data.json").write_text('{"a": 1}\n')
    assert code_digest(package) != first


def test_a_cache_from_another_build_is_rebuilt_with_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plugin_eval import cache

    monkeypatch.setattr(cache, "installed_code", lambda: "build-a")
    first = cache.Cache(tmp_path, "config")
    assert first.notes == []
    assert first.db is not None
    first.db.close()
    again = cache.Cache(tmp_path, "config")
    assert again.notes == []  # the same build: trusted
    assert again.db is not None
    again.db.close()
    monkeypatch.setattr(cache, "installed_code", lambda: "build-b")
    other = cache.Cache(tmp_path, "config")
    assert other.notes == [
        f"cache {tmp_path / cache.NAME} was written by another version, build or "
        "configuration: rebuilt"
    ]
    assert other.db is not None
    other.db.close()


def _summary_rows(out: Path) -> Any:
    return json.loads((out / "summary.json").read_text())["rows"]


def _report(root: Path, out: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return cli("report", root, "--out", out, "--cache-dir", cache)


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("outside", "[1]"),
        ("outside", '{"a": 1}'),
        ("outside", "[[null, true]]"),
        ("reads", "5"),
        ("reads", '[["SKILL.md", "abc", "x"]]'),
        ("reads", '[["SKILL.md", 1e400, "x"]]'),
        ("stamp", None),
    ],
)
def test_a_damaged_cache_entry_is_recomputed_never_a_crash(
    tmp_path: Path, column: str, value: str | None
) -> None:
    """Every column of an entry is sealed: one changed in place is a miss, and the report
    is the one a cold run writes."""
    root = make_tree(tmp_path / "tree", 1)
    cache = tmp_path / "cache"
    assert _report(root, tmp_path / "a", cache).returncode == 0
    db = sqlite3.connect(cache / "cache.sqlite3")
    db.execute(f"UPDATE results SET {column} = ?", (value,))
    db.commit()
    db.close()
    done = _report(root, tmp_path / "b", cache)
    assert done.returncode == 0, done.stderr
    assert "0 hits, 1 miss" in done.stderr
    assert _summary_rows(tmp_path / "a") == _summary_rows(tmp_path / "b")


def test_a_cache_written_with_another_key_is_not_trusted(tmp_path: Path) -> None:
    """A cache someone else wrote (committed into the tree being scored, its scores edited
    and its checksums recomputed) is sealed with another key: every entry is recomputed."""
    root = make_tree(tmp_path / "tree", 2)
    cache = tmp_path / "cache"
    theirs = {**os.environ, "PLUGIN_EVAL_CACHE_KEY": "someone else"}
    args = ["report", str(root), "--out", str(tmp_path / "a"), "--cache-dir", str(cache)]
    assert subprocess.run([*PLUGIN_EVAL, *args], env=theirs, check=False).returncode == 0
    db = sqlite3.connect(cache / "cache.sqlite3")
    db.execute('UPDATE results SET row = replace(row, \'"badge":"\', \'"badge":"platinum-\')')
    db.commit()
    db.close()
    done = _report(root, tmp_path / "b", cache)
    assert done.returncode == 0 and "0 hits, 2 misses" in done.stderr, done.stderr
    assert "platinum-" not in (tmp_path / "b" / "summary.json").read_text()
    done = _report(root, tmp_path / "c", cache)
    assert "2 hits, 0 misses" in done.stderr  # its own entries, sealed with its key, are used


def test_the_sealing_key_is_made_once_per_user_and_kept_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plugin_eval import cache

    monkeypatch.delenv("PLUGIN_EVAL_CACHE_KEY")
    monkeypatch.delenv("PLUGIN_EVAL_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    cache.sealing_key.cache_clear()
    try:
        key = cache.sealing_key()
        path = tmp_path / "home-cache" / "plugin-eval" / "cache-key"
        assert path.read_bytes() == key and len(key) == 32
        assert path.stat().st_mode & 0o777 == 0o600
        cache.sealing_key.cache_clear()
        assert cache.sealing_key() == key  # read back, not made again
    finally:
        cache.sealing_key.cache_clear()


def test_two_trees_scored_into_one_cache_never_share_an_entry(tmp_path: Path) -> None:
    """Same relative ids, same files, other places: B's skill links out of its folder to a
    file only A has, so B must get its own dead link, not A's cached clean report."""
    skill = SKILL.format(name="s000", n=0, body="See [notes](../notes.md).")
    for side in ("A", "B"):
        (tmp_path / side / "s000").mkdir(parents=True)
        (tmp_path / side / "s000" / "SKILL.md").write_text(skill)
    (tmp_path / "A" / "notes.md").write_text("# Notes\n")
    cache = tmp_path / "cache"
    assert _report(tmp_path / "A", tmp_path / "a", cache).returncode == 0
    cached = _report(tmp_path / "B", tmp_path / "b", cache)
    assert "0 hits, 1 miss" in cached.stderr
    fresh = cli("report", tmp_path / "B", "--out", tmp_path / "c", "--no-cache")
    assert fresh.returncode == cached.returncode
    assert _summary_rows(tmp_path / "b") == _summary_rows(tmp_path / "c")


def test_a_reply_with_a_lone_surrogate_is_cached_and_read_back_as_it_was(tmp_path: Path) -> None:
    """Half an emoji cut at max_tokens is text SQLite cannot encode: the reply is still
    cached (as a \\u escape), read back the same, and no note says the cache failed."""
    from plugin_eval.montecarlo.backends.base import Reply

    cache = ResponseCache(tmp_path / "responses.sqlite")
    reply = Reply(text="cut \ud83d", tool="pick", tool_input={"why": "\udcff"})
    cache.put("k", reply)
    assert cache.get("k") == reply
    assert cache.notes == []
    cache.close()


def test_a_rebuilt_cache_is_said_on_stderr_never_in_the_reports_files(tmp_path: Path) -> None:
    """The files a report writes are the same whatever state the cache was in: a cache
    rebuilt for a new configuration is a note on stderr, not in summary.json or summary.md."""
    import shutil

    from typer.testing import CliRunner

    from plugin_eval.cli import app

    root = tmp_path / "tree"
    shutil.copytree(REPO / "corpus" / "csv-cleanup", root / "csv-cleanup")
    runner = CliRunner()

    def report(out: str, *more: str) -> tuple[dict[str, Any], str, str]:
        args = ["report", str(root), "--out", str(tmp_path / out), "-j", "1", *more]
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
        summary = json.loads((tmp_path / out / "summary.json").read_text())
        del summary["generated_at"]
        return summary, (tmp_path / out / "summary.md").read_text(), done.stderr

    cache = ("--cache-dir", str(tmp_path / "cache"))
    report("first", *cache)
    (root / ".plugin-eval.toml").write_text('ignore = ["PE108"]\n')
    warm, warm_md, said = report("warm", *cache)
    assert "rebuilt" in said
    cold, cold_md, _ = report("cold", "--no-cache")
    stamped = ("Generated ",)
    assert [x for x in warm_md.splitlines() if not x.startswith(stamped)] == [
        x for x in cold_md.splitlines() if not x.startswith(stamped)
    ]
    assert warm == cold and warm["notes"] == []
    assert "another version" not in warm_md and "## Skipped" not in warm_md


def test_a_sibling_file_that_turns_into_a_symlink_is_noticed_by_the_cache(tmp_path: Path) -> None:
    """A skill runs a script its sibling ships (PE206 names the sibling while the file is
    there). Once that file is a symlink, the rule no longer counts it: a warm run must give
    what a run without the cache gives, though the path still exists."""
    from typer.testing import CliRunner

    from plugin_eval.cli import app

    def skill(name: str, body: str) -> str:
        return (
            f"---\nname: {name}\ndescription: Plots CSV columns. Use when charting sales, "
            f"comparing weeks, or exporting PNG charts.\n---\n\n# {name}\n\n{body}\n"
        )

    root = tmp_path / "tree"
    for name, body in (
        ("a", "Use the `b` skill to plot:\n\n```bash\npython scripts/plot.py data.csv\n```"),
        ("b", "Run `scripts/plot.py` to plot."),
    ):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(skill(name, body))
    (root / "b" / "scripts").mkdir()
    (root / "b" / "scripts" / "plot.py").write_text("print(1)\n")
    (root / "b" / "other.py").write_text("print(1)\n")
    runner = CliRunner()

    def findings(out: str, *more: str) -> list[str]:
        args = ["report", str(root), "--out", str(tmp_path / out), "-j", "1", *more]
        assert runner.invoke(app, args).exit_code in (0, 1)
        data = json.loads((tmp_path / out / "skills" / "a.json").read_text())
        return [f["code"] for f in data["findings"]]

    cache = ("--cache-dir", str(tmp_path / "cache"))
    assert "PE206" in findings("first", *cache)
    (root / "b" / "scripts" / "plot.py").unlink()
    (root / "b" / "scripts" / "plot.py").symlink_to("../other.py")
    assert findings("warm", *cache) == findings("cold", "--no-cache")
    assert "PE206" not in findings("cold", "--no-cache")
