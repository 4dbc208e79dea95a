"""The commands whose output the golden files pin, and how to run them.

`python -m tests.golden.cases --write` records the outputs of the code as it is; the test
`tests/test_golden.py` runs the same commands and compares byte for byte (timestamps and
elapsed times masked). Re-record only when an output is meant to change, and say why in the
commit.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "out"
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _corpus() -> list[str]:
    return sorted(f"corpus/{p.name}" for p in (REPO / "corpus").iterdir() if p.is_dir())


def cases() -> Iterator[tuple[str, list[str]]]:
    """(name, arguments) of every recorded command, run from the repository root."""
    every = _corpus()
    for fmt in ("text", "markdown", "json", "sarif", "github", "html"):
        yield f"score-all.{fmt}", ["score", *every, "--fail-on", "none", "-o", fmt]
    few = ["corpus/csv-cleanup", "corpus/csv-toolkit", "corpus/zh-review-summary"]
    for fmt in ("text", "markdown", "json"):
        yield f"score-explain.{fmt}", ["score", *few, "--explain", "-o", fmt]
    yield "score-skill.json", ["score", "corpus/csv-cleanup", "-o", "json"]
    yield "score-plugin.json", ["score", "corpus/csv-toolkit", "-o", "json"]
    yield "score-broken.text", ["score", "corpus/broken-dead-links", "corpus/broken-plugin"]
    for fmt in ("text", "markdown", "json"):
        yield f"score-deep.{fmt}", ["score", "corpus/csv-cleanup", "--depth", "deep", "-o", fmt]
    for fmt in ("text", "markdown", "json"):
        yield f"rules.{fmt}", ["rules", "-o", fmt]
    yield "rule-PE201.md", ["rule", "PE201"]
    yield "rule-PE604.md", ["rule", "PE604"]
    yield "schema.json", ["schema"]
    yield "schema-batch.json", ["schema", "--batch"]
    for fmt in ("text", "markdown", "json"):
        yield f"compare.{fmt}", ["compare", "corpus/csv-cleanup", "corpus/log-triage", "-o", fmt]
    plugins = ["corpus/csv-toolkit", "corpus/broken-plugin"]
    yield "compare-plugins.json", ["compare", *plugins, "-o", "json"]


def mask(text: str) -> str:
    return STAMP.sub("<stamp>", text)


def run(args: list[str]) -> tuple[int, str]:
    """Exit code and standard output of one command, run in the repository root."""
    from plugin_eval.cli import app

    here = os.getcwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(app, args, env={"PLUGIN_EVAL_CACHE": ""})
    finally:
        os.chdir(here)
    return result.exit_code, mask(result.stdout)


def report_files() -> dict[str, str]:
    """Every file `report corpus` writes (with SARIF and HTML), by path in the output folder."""
    from plugin_eval.cli import app

    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        os.chdir(REPO)
        try:
            result = CliRunner().invoke(
                app,
                [
                    "report",
                    "corpus",
                    "--out",
                    str(out),
                    "--no-cache",
                    "-j",
                    "1",
                    "--sarif",
                    "--html",
                ],
            )
        finally:
            os.chdir(here)
        files = {"exit": str(result.exit_code)}
        for path in sorted(out.rglob("*")):
            # The write index hashes the stamped files: it differs on every run by design.
            if path.is_file() and not path.name.startswith("."):
                files[path.relative_to(out).as_posix()] = mask(path.read_text(encoding="utf-8"))
        return files


def write() -> None:
    HERE.mkdir(exist_ok=True)
    for name, args in cases():
        code, out = run(args)
        (HERE / name).write_text(f"exit {code}\n{out}", encoding="utf-8")
    report_dir = HERE / "report"
    for rel, text in report_files().items():
        target = report_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.golden.cases --write")
    write()
