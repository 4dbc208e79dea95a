"""The reference table of description words and the script that builds it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from plugin_eval.reference_words import description_digest, reference_counts, reference_digests
from plugin_eval.triggering import description_stems

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "bench" / "build_description_words.py"


def _skill(root: Path, name: str, text: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(text, encoding="utf-8")


def test_build_counts_each_word_once_per_description_and_skips_broken_files(
    tmp_path: Path,
) -> None:
    skills = tmp_path / "skills"
    _skill(skills, "a", "---\nname: a\ndescription: Tune Grafana dashboards and dashboards.\n---\n")
    _skill(skills, "b", "---\nname: b\ndescription: Review dashboards for alerts.\n---\n")
    _skill(skills, "broken", "---\nname: [unclosed\n---\n")
    _skill(skills, "empty", "---\nname: empty\n---\nNo description.\n")
    out = tmp_path / "table.json"
    run = subprocess.run(
        [sys.executable, str(BUILD), str(skills), "--out", str(out), "--source", "test"],
        capture_output=True,
        text=True,
        check=True,
    )
    table = json.loads(out.read_text(encoding="utf-8"))
    assert table["source"] == "test"
    assert table["licence"] is None
    assert table["descriptions"] == 2
    assert table["counts"] == {
        "alert": 1,
        "dashboard": 2,
        "grafana": 1,
        "review": 1,
        "tune": 1,
    }
    assert list(table["counts"]) == sorted(table["counts"])
    assert f"{skills / 'broken' / 'SKILL.md'}: skipped" in run.stderr
    assert "2 descriptions, 5 words" in run.stdout
    # A digest of each description counted, sorted: never the description itself.
    assert table["digests"] == sorted(
        description_digest(d)
        for d in ("Tune Grafana dashboards and dashboards.", "Review dashboards for alerts.")
    )


def test_description_stems_are_the_words_contexts_hold() -> None:
    assert description_stems("Use it for Grafana dashboards, or for the alerts.") == {
        "grafana",
        "dashboard",
        "alert",
    }


def test_shipped_table_is_well_formed() -> None:
    total, counts = reference_counts()
    assert total == 439
    assert all(0 < n <= total for n in counts.values())
    assert all(w == w.lower() and w.isascii() for w in counts)
    shipped = json.loads((REPO / "plugin_eval" / "description_words.json").read_text("utf-8"))
    assert list(shipped["counts"]) == sorted(shipped["counts"])
    assert len(reference_digests()) <= total
    assert shipped["digests"] == sorted(reference_digests())
    assert "antigravity" in shipped["source"]
    assert shipped["licence"].startswith("MIT License")
