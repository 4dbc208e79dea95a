"""The labelled validation set (bench/validation/) is whole and consistent, and
bench/validate.py measures it from the repository alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import REPO

HERE = REPO / "bench" / "validation"
DIMENSIONS = ("triggering_accuracy", "orchestration_fitness", "scope_calibration")


def load(name: str) -> Any:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def test_the_split_is_two_disjoint_halves_made_of_the_rounds() -> None:
    split = load("split.json")
    tune, measure = set(split["tune"]), set(split["measure"])
    assert len(tune) == len(split["tune"]) and len(measure) == len(split["measure"])
    assert not tune & measure
    rounds = [set(r["ids"]) for r in split["rounds"]]
    assert sum(map(len, rounds)) == len(tune | measure) and set().union(*rounds) == tune | measure
    for ids in rounds:  # each round was split once, in halves of equal size
        assert len(ids & tune) == len(ids & measure)
    assert not set(split["context"]) & (tune | measure)
    for sid in tune | measure | set(split["context"]):
        assert (HERE / "skills" / sid / "SKILL.md").is_file(), sid
    for collection in {sid.split("/")[0] for sid in tune | measure}:
        assert (HERE / "skills" / collection / "LICENSE").is_file() or (
            HERE / "skills" / collection / "LICENSE.md"
        ).is_file(), collection


def test_every_skill_is_rated_in_both_passes_with_reasons() -> None:
    split = load("split.json")
    ids = set(split["tune"]) | set(split["measure"])
    for n in (1, 2):
        rows = load(f"ratings/pass{n}.json")
        assert [r["id"] for r in rows if r["id"] in ids] == [r["id"] for r in rows]
        assert {r["id"] for r in rows} == ids and len(rows) == len(ids)
        for row in rows:
            for dim in DIMENSIONS:
                assert 0.0 <= float(row[dim]) <= 1.0, (n, row["id"], dim)
                assert row["reasons"][dim].strip(), (n, row["id"], dim)


def test_every_finding_label_is_decided_with_a_reason() -> None:
    ids = set(load("split.json")["tune"]) | set(load("split.json")["measure"])
    labels: dict[tuple[str, str, str, int | None], str] = {}
    for row in load("findings_labels.json"):
        assert row["id"] in ids
        assert row["label"] in ("real", "false", "debatable") and row["reason"].strip()
        # validate.py finds a label by these four: findings that share them (several unlinked
        # files, reported on SKILL.md with no line) must agree.
        key = (row["id"], row["code"], row["file"], row["line"])
        assert labels.setdefault(key, row["label"]) == row["label"], key


def test_validate_py_measures_a_round_from_the_repository() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "validate.py"), "--half", "tune", "--round", "2"],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(REPO),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "validation set: 30 skills (tune half, round 2, of 190)"
    rows = {line.split()[0]: line.split()[1:] for line in lines[3:6]}
    assert set(rows) == set(DIMENSIONS)
    for dim in ("triggering_accuracy", "orchestration_fitness"):
        rho, mae = float(rows[dim][0]), float(rows[dim][1])
        assert -1.0 <= rho <= 1.0 and 0.0 <= mae <= 1.0
        low, dash, high = rows[dim][-3:]  # the 95 % bootstrap interval of rho
        assert dash == "–" and -1.0 <= float(low) <= rho <= float(high) <= 1.0
    assert rows["scope_calibration"][:2] == ["not", "measured"]
    assert "PE204" in done.stdout  # the precision table lists the rules that fired
