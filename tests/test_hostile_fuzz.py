"""A marketplace report over random hostile trees (issue 10): it exits, its summary lists
every item, no output carries a raw control character or a line a CI runner would execute,
and the cache it leaves passes SQLite's integrity check.

Each tree mixes folder names and frontmatter built from pieces known to do harm (escape
sequences, newlines followed by workflow commands, backticks, Markdown and HTML), very long
names, FIFOs, symlinks into and out of the tree, and huge or deep JSON and YAML. The seed
makes every tree reproducible: a failure names it.
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HARMFUL = (
    "\x1b[2J",
    "\x1b]0;owned\x07",
    "\x07",
    "\x9b31m",
    "\u202e",
    "\r",
    "\n::error file=x::owned\n",
    "\n::stop-commands::tok\n",
    "::warning::w",
    "`",
    "``",
    "<b>bold</b>",
    "![i](http://example.invalid/x.png)",
    "[l](javascript:alert(1))",
    "@someone",
    "|",
    "%0A",
    "$(touch owned)",
    "{{x}}",
    ":smile:",
    "[bold]rich[/bold]",
)
# C0 controls other than tab and newline, DEL, and C1 controls: none may reach an output raw.
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _name(rng: random.Random) -> str:
    """A folder name: letters mixed with harmful pieces, sometimes near the 255-byte limit."""
    parts = [rng.choice("abcdefgh") * rng.randint(1, 4)]
    for _ in range(rng.randint(1, 3)):
        parts.append(rng.choice(HARMFUL))
        parts.append(rng.choice("xyz"))
    name = "".join(parts).replace("/", "").replace("\0", "")
    if rng.random() < 0.2:
        name = (name + "l" * 250)[:240]
    return name if name not in (".", "..") else "dots"


def _skill(rng: random.Random, name: str) -> str:
    description = " ".join(rng.choice(HARMFUL) for _ in range(3))
    shape = rng.random()
    if shape < 0.15:  # an alias bomb in the frontmatter, kept small
        return '---\nname: s\na: &a ["x","x","x"]\nb: &b [*a,*a,*a]\nc: [*b,*b,*b]\n---\n\nbody\n'
    if shape < 0.3:  # YAML nested deep
        return "---\nname: s\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n\nbody\n"
    return (
        f"---\nname: {json.dumps(name)}\ndescription: {json.dumps(description)}\n---\n\n"
        f"# {name}\n\nUse `{name}` and see [{name}]({name}.md).\n"
    )


def _tree(root: Path, outside: Path, seed: int) -> set[str]:
    """A hostile tree; the ids of the items `report` must list."""
    rng = random.Random(seed)
    expected: set[str] = set()
    root.mkdir()
    for _ in range(8):
        name = _name(rng)
        folder = root / name
        if folder.exists():
            continue
        folder.mkdir()
        kind = rng.random()
        if kind < 0.1 and hasattr(os, "mkfifo"):
            os.mkfifo(folder / "SKILL.md")
        elif kind < 0.2:
            (folder / "real.md").write_text(_skill(rng, name), encoding="utf-8")
            (folder / "SKILL.md").symlink_to("real.md")
        else:
            (folder / "SKILL.md").write_text(_skill(rng, name), encoding="utf-8")
        if rng.random() < 0.3:
            (folder / f"{_name(rng)}.md").symlink_to(outside)
        expected.add(name)
    plugin = root / f"plugin{_name(rng)}"[:200]
    (plugin / ".claude-plugin").mkdir(parents=True)
    manifest = (
        '{"name": "p", "x": ' + "[" * 50_000 + "]" * 50_000 + "}"
        if rng.random() < 0.5
        else json.dumps({"name": _name(rng), "description": rng.choice(HARMFUL)})
    )
    (plugin / ".claude-plugin" / "plugin.json").write_text(manifest, encoding="utf-8")
    (plugin / "agents").mkdir()
    (plugin / "agents" / f"{_name(rng)}.md").write_text(_skill(rng, "agent"), encoding="utf-8")
    if hasattr(os, "mkfifo"):
        os.mkfifo(plugin / "agents" / "fifo.md")
    (plugin / "skills" / "inner").mkdir(parents=True)
    (plugin / "skills" / "inner" / "SKILL.md").write_text(_skill(rng, "inner"), encoding="utf-8")
    expected.add(plugin.name)
    (root / "escape").symlink_to(outside)  # a folder symlink out of the tree: not followed
    return expected


def _outputs(out: Path) -> dict[str, str]:
    """Every text file the report wrote, by its path in the output folder."""
    return {
        p.relative_to(out).as_posix(): p.read_text(encoding="utf-8", errors="surrogateescape")
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.suffix in (".json", ".md", ".html", ".svg", ".sarif")
    }


@pytest.mark.timeout(240)
@pytest.mark.parametrize("seed", range(6))
def test_report_over_a_hostile_tree(tmp_path: Path, seed: int) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "SKILL.md").write_text("---\nname: outside\n---\n\nsecret\n", encoding="utf-8")
    root, out, cache = tmp_path / "root", tmp_path / "out", tmp_path / "cache"
    expected = _tree(root, outside, seed)
    options = ["--out", str(out), "--cache-dir", str(cache), "--jobs", "2", "--html", "--sarif"]
    done = subprocess.run(
        [sys.executable, "-m", "plugin_eval", "report", str(root), *options],
        capture_output=True,
        timeout=200,
        check=False,
    )
    stdout = done.stdout.decode("utf-8", "surrogateescape")
    stderr = done.stderr.decode("utf-8", "surrogateescape")
    assert done.returncode in (0, 1), f"seed {seed}: exit {done.returncode}\n{stderr[-3000:]}"
    assert "Traceback" not in stderr, f"seed {seed}:\n{stderr[-3000:]}"

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    listed = {row["path"] for row in summary["rows"]}
    assert listed == expected, (
        f"seed {seed}: missing {expected - listed}, extra {listed - expected}"
    )
    assert "outside" not in {row["name"] for row in summary["rows"]}

    for where, text in {"stdout": stdout, "stderr": stderr, **_outputs(out)}.items():
        raw = RAW_CONTROL.search(text)
        assert raw is None, f"seed {seed}: raw {raw.group()!r} in {where}"
        starts = [line for line in text.splitlines() if line.lstrip().startswith("::")]
        assert starts == [], f"seed {seed}: a workflow command in {where}: {starts[:3]}"

    db = sqlite3.connect(cache / "cache.sqlite3")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        db.close()
