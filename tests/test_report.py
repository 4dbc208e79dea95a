"""`plugin-eval report`, discovery, the cache, and `compare`."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.config import Config
from plugin_eval.discovery import discover
from plugin_eval.marketplace import RunStats, run_report
from plugin_eval.report.model import SummaryRow
from plugin_eval.rules.plugin_base import good_plugin
from tests.conftest import CORPUS_REAL, REPO, write_files

runner = CliRunner()
SKILL = (
    "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, cleaning "
    "column names, or merging ledger files.\n---\n\n# {name}\n\n## Steps\n\nTrim cells.\n"
)


def skill(name: str) -> str:
    return SKILL.format(name=name)


@pytest.fixture
def market(tmp_path: Path) -> Path:
    root = tmp_path / "market"
    write_files(root / "plugins" / "csv-tools", good_plugin())
    write_files(
        root,
        {
            "loose/alpha/SKILL.md": skill("alpha"),
            "loose/beta/SKILL.md": skill("beta").replace(
                "Trim cells.", "See [x](references/x.md)."
            ),
            "loose/alpha/nested/gamma/SKILL.md": skill("gamma"),
            "node_modules/pkg/SKILL.md": skill("pkg"),
            ".hidden/delta/SKILL.md": skill("delta"),
            "inline/plain-plugin/skills/one/SKILL.md": skill("one"),
            ".claude-plugin/marketplace.json": json.dumps(
                {
                    "name": "m",
                    "plugins": [
                        {
                            "name": "plain-plugin",
                            "source": "./inline/plain-plugin",
                            "version": "1.0.0",
                        },
                        {"name": "remote", "source": {"source": "github", "repo": "x/y"}},
                    ],
                }
            ),
        },
    )
    return root


def test_discovery_finds_plugins_loose_and_nested_skills(market: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    write_files(outside, {"s/SKILL.md": skill("s")})
    (market / "linked").symlink_to(outside)
    found = discover(market)
    assert [(i.kind, i.rel) for i in found.items] == [
        ("skill", ".hidden/delta"),  # hidden folders are searched, as harnesses load them
        ("plugin", "inline/plain-plugin"),
        ("skill", "loose/alpha"),
        ("skill", "loose/alpha/nested/gamma"),
        ("skill", "loose/beta"),
        ("plugin", "plugins/csv-tools"),
    ]
    assert found.skipped == [("node_modules", "excluded")]
    notes = "\n".join(found.notes)
    assert "linked: symlink (outside the root) skipped" in notes
    assert "1 plugin(s) have a remote source; not fetched: 'remote'" in notes


def _report(
    root: Path, out: Path, cache: Path | None, jobs: int = 1
) -> tuple[list[SummaryRow], RunStats]:
    rows, stats = run_report(root, out, Config(), jobs, cache, "2026-01-01T00:00:00Z")
    return list(rows), stats


def _tree(out: Path) -> dict[str, str]:
    return {
        str(p.relative_to(out)): "\n".join(
            line
            for line in p.read_text().splitlines()
            if '"generated_at"' not in line and not line.startswith("Generated ")
        )
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name != ".plugin-eval-index.json"
    }


def test_report_writes_every_file_and_the_second_run_is_a_cache_hit(
    market: Path, tmp_path: Path
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    result = runner.invoke(
        app, ["report", str(market), "--out", str(out), "--cache-dir", str(cache)]
    )
    assert result.exit_code == 0, result.stderr
    assert "cache 0 hits, 6 misses" in result.stderr
    names = sorted(
        str(p.relative_to(out)) for p in out.rglob("*.json") if not p.name.startswith(".")
    )
    assert names == [
        "plugins/inline--plain-plugin.json",
        "plugins/plugins--csv-tools.json",
        "skills/dot-hidden--delta.json",
        "skills/loose--alpha--nested--gamma.json",
        "skills/loose--alpha.json",
        "skills/loose--beta.json",
        "summary.json",
    ]
    assert len(list((out / "badges").glob("*.svg"))) == 6
    first = {p: (out / p).read_bytes() for p in names if p != "summary.json"}
    again = runner.invoke(
        app, ["report", str(market), "--out", str(out), "--cache-dir", str(cache)]
    )
    assert "cache 6 hits, 0 misses" in again.stderr
    assert {p: (out / p).read_bytes() for p in first} == first


def test_output_does_not_depend_on_the_number_of_workers(market: Path, tmp_path: Path) -> None:
    _report(market, tmp_path / "one", None, jobs=1)
    _report(market, tmp_path / "two", None, jobs=2)
    assert _tree(tmp_path / "one") == _tree(tmp_path / "two")


def test_a_changed_skill_is_the_only_cache_miss(market: Path, tmp_path: Path) -> None:
    _report(market, tmp_path / "out", tmp_path / "cache")
    (market / "loose" / "beta" / "SKILL.md").write_text(skill("beta"))
    _, stats = _report(market, tmp_path / "out", tmp_path / "cache")
    assert (stats.cache_hits, stats.cache_misses) == (5, 1)


def test_a_cached_dead_link_is_rechecked(tmp_path: Path) -> None:
    root = tmp_path / "m"
    text = skill("a").replace("Trim cells.", "See [b](../b/SKILL.md).")
    write_files(root, {"a/SKILL.md": text})
    _report(root, tmp_path / "out", tmp_path / "cache")
    write_files(root, {"b/SKILL.md": skill("b")})
    rows, stats = _report(root, tmp_path / "out", tmp_path / "cache")
    assert stats.cache_misses == 2
    assert next(r for r in rows if r.path == "a").anti_patterns == {}


@pytest.mark.parametrize("damage", ["garbage", "version", "payload"])
def test_a_damaged_or_foreign_cache_is_rebuilt_never_trusted(
    damage: str, market: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    rows, _ = _report(market, tmp_path / "a", cache)
    db_file = cache / "cache.sqlite3"
    if damage == "garbage":
        db_file.write_bytes(b"this is not sqlite" * 100)
    else:
        db = sqlite3.connect(db_file)
        if damage == "version":
            db.execute("UPDATE meta SET value = 'old' WHERE key = 'version'")
        else:
            db.execute("UPDATE results SET payload = '{\"forged\": true}'")
        db.commit()
        db.close()
    again, stats = _report(market, tmp_path / "b", cache)
    assert stats.cache_hits == 0
    assert again == rows
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")


def test_previous_adds_what_changed(market: Path, tmp_path: Path) -> None:
    first = tmp_path / "week1"
    assert (
        runner.invoke(app, ["report", str(market), "--out", str(first), "--no-cache"]).exit_code
        == 0
    )
    (market / "loose" / "beta" / "SKILL.md").write_text(skill("beta"))
    write_files(market, {"loose/epsilon/SKILL.md": skill("epsilon")})
    second = tmp_path / "week2"
    result = runner.invoke(
        app, ["report", str(market), "--out", str(second), "--no-cache", "--previous", str(first)]
    )
    assert result.exit_code == 0, result.stderr
    changes = json.loads((second / "summary.json").read_text())["changes"]
    assert changes["added"] == ["loose/epsilon"]
    assert changes["fixed_findings"] == 1 and changes["new_findings"] == 0
    assert [c["path"] for c in changes["score_changes"]] == ["loose/beta"]
    md = (second / "summary.md").read_text()
    assert "## What changed" in md and "loose/epsilon" in md


def test_summary_and_badges(market: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    runner.invoke(
        app, ["report", str(market), "--out", str(out), "--no-cache", "--sarif", "--html"]
    )
    data = json.loads((out / "summary.json").read_text())
    assert data["counts"] == {"plugins": 2, "skills": 4, "errored": 0}
    beta = next(r for r in data["rows"] if r["path"] == "loose/beta")
    assert beta["anti_patterns"] == {"ORPHAN_REFERENCE": 1} and len(beta["weakest_dimensions"]) == 3
    md = (out / "summary.md").read_text()
    for heading in (
        "## Needs attention",
        "## Errors",
        "## Plugins ranked",
        "## Loose skills ranked",
    ):
        assert heading in md
    svg = ET.fromstring((out / "badges" / "loose--beta.svg").read_text())
    assert svg.tag.endswith("svg") and f"{beta['score']:.0f}" in "".join(svg.itertext())
    assert json.loads((out / "summary.sarif").read_text())["version"] == "2.1.0"
    assert (out / "report.html").read_text().startswith("<!DOCTYPE html>")


def test_stale_files_of_removed_items_go_but_nothing_else(market: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _report(market, out, None)
    mine = out / "skills" / "notes-by-the-user.json"
    mine.write_text("{}")
    (market / "loose" / "beta" / "SKILL.md").unlink()
    _report(market, out, None)
    assert not (out / "skills" / "loose--beta.json").exists()
    assert mine.exists()


def test_report_usage_errors(market: Path, tmp_path: Path) -> None:
    assert (
        runner.invoke(
            app, ["report", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]
        ).exit_code
        == 2
    )
    assert runner.invoke(app, ["report", str(market), "--out", str(market)]).exit_code == 2
    bad_previous = runner.invoke(
        app, ["report", str(market), "--out", str(tmp_path / "o"), "--previous", str(tmp_path)]
    )
    assert bad_previous.exit_code == 2


def test_compare_two_skills(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "a/SKILL.md": skill("a").replace("Trim cells.", "See [x](references/x.md)."),
            "b/SKILL.md": skill("b"),
        },
    )
    result = runner.invoke(app, ["compare", str(tmp_path / "a"), str(tmp_path / "b"), "-o", "json"])
    data = json.loads(result.stdout)
    composite = data["rows"][0]
    assert (
        composite["name"] == "composite" and composite["winner"] == "B" and composite["delta"] > 0
    )
    assert [f["code"] for f in data["only_in_a"]] == ["PE201"] and data["only_in_b"] == []
    assert {r["name"] for r in data["rows"] if r["winner"] == "—"} == {
        "output_quality",
        "scope_calibration",
        "robustness",
        "code_template_quality",
    }


def test_compare_lists_each_occurrence_of_a_repeated_finding_in_line_order(
    tmp_path: Path,
) -> None:
    """The same message on several lines is several findings: none is folded into another,
    one more occurrence in B is one finding only in B, and an edit that moves the others
    down a line changes nothing else."""
    dead = "See [x](references/x.md)."
    write_files(
        tmp_path,
        {
            "a/SKILL.md": skill("a").replace("Trim cells.", f"{dead}\n\n{dead}"),
            "b/SKILL.md": skill("a").replace(
                "Trim cells.", f"Intro.\n\n{dead}\n\n{dead}\n\n{dead}"
            ),
            "c/SKILL.md": skill("c").replace("Trim cells.", f"{dead}\n\n{dead}\n\n{dead}"),
        },
    )

    def only(a: str, b: str) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        result = runner.invoke(app, ["compare", str(tmp_path / a), str(tmp_path / b), "-o", "json"])
        data = json.loads(result.stdout)
        return (
            [(f["code"], f["line"]) for f in data["only_in_a"] if f["code"] == "PE201"],
            [(f["code"], f["line"]) for f in data["only_in_b"] if f["code"] == "PE201"],
        )

    # b is a with "Intro." above: its first two move down to lines 12 and 14; 16 is new.
    assert only("a", "b") == ([], [("PE201", 16)])
    assert only("b", "a") == ([("PE201", 16)], [])
    assert only("b", "c") == ([], [])
    clean = tmp_path / "clean"
    write_files(clean, {"SKILL.md": skill("clean")})
    assert only("clean", "c") == ([], [("PE201", 10), ("PE201", 12), ("PE201", 14)])


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@x",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@x",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env
    ).stdout


def test_compare_against_a_revision_never_touches_the_work_tree(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_files(
        repo, {"skills/a/SKILL.md": skill("a").replace("Trim cells.", "See [x](references/x.md).")}
    )
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    fixed = skill("a")
    (repo / "skills" / "a" / "SKILL.md").write_text(fixed)
    result = runner.invoke(
        app, ["compare", str(repo / "skills" / "a"), "--against", "HEAD", "-o", "json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["a"]["path"] == "skills/a@HEAD"
    assert [f["code"] for f in data["only_in_a"]] == ["PE201"]
    assert (repo / "skills" / "a" / "SKILL.md").read_text() == fixed
    assert _git(repo, "status", "--porcelain") == " M skills/a/SKILL.md\n"
    bad = runner.invoke(app, ["compare", str(repo / "skills" / "a"), "--against", "no-such-rev"])
    assert bad.exit_code == 2


def test_compare_against_a_revision_applies_per_path_ignores_to_the_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy read from the revision is configured as the folder it was read from: an
    unchanged skill whose finding a per-path-ignores pattern suppresses compares as a tie."""
    repo = tmp_path / "repo"
    write_files(
        repo,
        {
            "skills/pdf-a/SKILL.md": skill("pdf-a").replace("---\n\n", "version: 2\n---\n\n", 1),
            ".plugin-eval.toml": '[per-path-ignores]\n"skills/pdf-*" = ["PE108"]\n',
        },
    )
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    monkeypatch.chdir(repo)
    result = runner.invoke(app, ["compare", "skills/pdf-a", "--against", "HEAD", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["a"]["score"] == data["b"]["score"]
    assert data["only_in_a"] == data["only_in_b"] == []
    monkeypatch.chdir(tmp_path)  # the patterns are the configuration file's, from anywhere
    again = runner.invoke(app, ["compare", "repo/skills/pdf-a", "--against", "HEAD", "-o", "json"])
    assert json.loads(again.stdout)["only_in_a"] == []


def test_github_integration_files_are_valid_and_call_real_commands() -> None:
    commands = {c.name for c in app.registered_commands}
    files = [
        REPO / "action.yml",
        REPO / ".pre-commit-hooks.yaml",
        *sorted((REPO / ".github" / "workflows").glob("*.yml")),
    ]
    used: set[str] = set()
    for path in files:
        text = path.read_text()
        yaml.safe_load(text)
        used |= set(__import__("re").findall(r"plugin-eval (\w+)", text))
    assert used and used <= commands
    weekly = yaml.safe_load((REPO / ".github" / "workflows" / "weekly-report.yml").read_text())
    triggers = weekly[True]  # YAML 1.1 reads the key 'on' as true
    assert triggers["schedule"] == [{"cron": "0 6 * * 1"}]
    assert "path" in triggers["workflow_dispatch"]["inputs"]
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert (
        action["runs"]["using"] == "composite" and {"path", "threshold"} <= action["inputs"].keys()
    )


def test_the_weekly_workflow_keeps_last_weeks_baseline_when_no_report_was_written(
    tmp_path: Path,
) -> None:
    """`report` exits 2 and writes nothing on a usage or configuration error; the steps that
    run always then leave the baseline as it was and say in the summary why there is none."""
    weekly = yaml.safe_load((REPO / ".github" / "workflows" / "weekly-report.yml").read_text())
    steps = {s.get("name"): s["run"] for s in weekly["jobs"]["report"]["steps"] if "run" in s}
    write_files(tmp_path, {"previous-report/summary.json": "{}"})
    summary = tmp_path / "step-summary.md"
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(summary)}
    for name in ("Job summary", "Keep this report for next week"):
        done = subprocess.run(
            ["bash", "-eo", "pipefail", "-c", steps[name]], cwd=tmp_path, env=env, check=False
        )
        assert done.returncode == 0, name
    assert (tmp_path / "previous-report" / "summary.json").read_text() == "{}"
    assert "No report was written" in summary.read_text()
    write_files(tmp_path, {"plugin-eval-report/summary.json": "[]"})
    subprocess.run(
        ["bash", "-c", steps["Keep this report for next week"]], cwd=tmp_path, check=True
    )
    assert (tmp_path / "previous-report" / "summary.json").read_text() == "[]"


@pytest.mark.skipif(not CORPUS_REAL.exists(), reason="shared corpus-real not present")
def test_corpus_real_report_twice(tmp_path: Path) -> None:
    out, cache = tmp_path / "r", tmp_path / "cache"
    first = runner.invoke(
        app, ["report", str(CORPUS_REAL), "--out", str(out), "--cache-dir", str(cache)]
    )
    assert first.exit_code == 0
    assert len(list((out / "plugins").glob("*.json"))) == 91
    assert len(list((out / "skills").glob("*.json"))) == 693
    before = _tree(out)
    second = runner.invoke(
        app, ["report", str(CORPUS_REAL), "--out", str(out), "--cache-dir", str(cache)]
    )
    assert "784 hits, 0 misses" in second.stderr
    assert _tree(out) == before
    data = json.loads((out / "summary.json").read_text())
    weakest = {
        tuple(d["name"] for d in r["weakest_dimensions"])
        for r in data["rows"]
        if r["kind"] == "plugin"
    }
    assert len(weakest) > 5


def test_compare_against_a_revision_names_the_revision_not_its_temporary_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of two skills is not one to compare; the message said so with the paths of a
    temporary copy that was deleted before it was read."""
    repo = tmp_path / "repo"
    write_files(repo, {"skills/a/SKILL.md": skill("a"), "skills/b/SKILL.md": skill("b")})
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    monkeypatch.chdir(repo)
    result = runner.invoke(app, ["compare", "skills", "--against", "HEAD"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: skills@HEAD: holds 2 skills and plugins (skills@HEAD/a, skills@HEAD/b); compare "
        "one with one: give the folder of each\n"
    )


def test_compare_against_a_revision_ties_an_unchanged_skill_that_holds_a_symlink(
    tmp_path: Path,
) -> None:
    """The copy read from git left symlinks out, so its link to them was dead (PE201, an
    error) where the work tree's goes through a symlink (PE203): +2.9 for no change, enough to
    hide a real drop behind --max-drop 0. The copy now holds the symlink, never followed."""
    repo = tmp_path / "repo"
    text = skill("a").replace("Trim cells.", "See [guide](references/guide.md).")
    write_files(repo, {"skills/a/SKILL.md": text, "shared/guide.md": "# Guide\n"})
    (repo / "skills" / "a" / "references").mkdir()
    (repo / "skills" / "a" / "references" / "guide.md").symlink_to("../../../shared/guide.md")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    result = runner.invoke(
        app, ["compare", str(repo / "skills" / "a"), "--against", "HEAD", "-o", "json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["a"]["score"] == data["b"]["score"]
    assert data["only_in_a"] == data["only_in_b"] == []


def test_compare_refuses_a_revision_that_looks_like_an_option(tmp_path: Path) -> None:
    write_files(tmp_path, {"a/SKILL.md": skill("a")})
    result = runner.invoke(app, ["compare", str(tmp_path / "a"), "--against", "--output=/tmp/x"])
    assert result.exit_code == 2 and "not a revision" in result.stderr


def test_a_root_that_is_itself_a_plugin_has_the_path_dot(tmp_path: Path) -> None:
    """The root's row names it '.', as its own report does: never an empty path."""
    root = tmp_path / "csv-tools"
    write_files(root, good_plugin())
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(root), "--out", str(out), "--no-cache"])
    assert result.exit_code == 0, result.stderr
    [row] = json.loads((out / "summary.json").read_text())["rows"]
    [written] = (out / "plugins").glob("*.json")
    assert row["path"] == json.loads(written.read_text())["path"] == "."
    assert "``" not in (out / "summary.md").read_text()


def test_report_of_a_folder_with_nothing_to_score_is_a_usage_error(tmp_path: Path) -> None:
    """A mistyped ROOT does not pass as an empty report, as with score; nothing is written."""
    (tmp_path / "root" / "notes").mkdir(parents=True)
    (tmp_path / "root" / "notes" / "skill.md").write_text("---\nname: x\n---\n")
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(tmp_path / "root"), "--out", str(out)])
    assert result.exit_code == 2
    assert "nothing to score: no skill (a folder with SKILL.md) or plugin under it" in " ".join(
        result.stderr.split()
    )
    assert not out.exists()


def test_sarif_and_html_are_the_same_cold_and_from_the_cache(tmp_path: Path) -> None:
    """Items come back from the cache before those scored: the order of SARIF results and
    HTML cards is the items' own, whatever the cache held."""
    root = tmp_path / "root"
    dead = "\nSee [the notes](missing.md).\n"
    write_files(
        root / "zz-plugin",
        good_plugin(**{"skills__csv-clean__SKILL.md": skill("csv-clean") + dead}),
    )
    write_files(root, {"aa/SKILL.md": skill("aa") + dead})
    cache = tmp_path / "cache"
    outs = [tmp_path / "cold", tmp_path / "warm"]
    for out in outs:
        args = ["report", str(root), "--out", str(out), "--cache-dir", str(cache), "--sarif"]
        assert runner.invoke(app, [*args, "--html", "-j", "1"]).exit_code == 0
    cold, warm = ((o / "summary.sarif").read_bytes() for o in outs)
    assert cold == warm
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(cold)["runs"][0]["results"]
    ]
    assert uris == sorted(uris) and len(uris) == 2


def test_a_score_read_back_from_disk_is_one_a_report_could_hold() -> None:
    """--previous and --history files are JSON anyone can write: a mean of 1e308 is no
    score, and is drawn nowhere."""
    from plugin_eval.report.summary import _score

    assert [_score(v) for v in (0, 57.5, 100, 100.01, -1, 1e308, "50", True, float("nan"))] == [
        0.0,
        57.5,
        100.0,
        None,
        None,
        None,
        None,
        None,
        None,
    ]


def test_a_shown_delta_is_the_difference_of_the_shown_scores() -> None:
    from plugin_eval.compare import delta_text, number_text
    from plugin_eval.scoring.composite import shown_delta

    a, b = 71.45, 52.62  # shown as 71.5 and 52.6
    assert (number_text(a), number_text(b)) == ("71.5", "52.6")
    assert delta_text(shown_delta(a, b)) == "-18.9"
    assert shown_delta(None, b) is None
    assert delta_text(shown_delta(34.6, 47.35)) == "+12.8"


def test_a_composite_resting_on_a_sliver_of_the_weight_says_so(tmp_path: Path) -> None:
    """Seed 002 renormalises over the measured dimensions, so a plugin of one short command
    can score 98: the report and a comparison say what the composite rests on."""
    write_files(
        tmp_path / "tiny",
        {
            ".claude-plugin/plugin.json": '{"name": "tiny", "version": "1.0.0"}',
            "commands/notes.md": "---\ndescription: Write release notes\n---\n\nWrite notes.\n",
        },
    )
    note = (
        "the composite rests on 5% of the dimension weight (structural_completeness, "
        "ecosystem_coherence): the other dimensions are unmeasured, and the badge says little"
    )
    result = runner.invoke(app, ["score", str(tmp_path / "tiny"), "-o", "json"])
    assert json.loads(result.stdout)["notes"] == [note]
    assert f"note: {tmp_path / 'tiny'}: {note}" in " ".join(result.stderr.split())
    write_files(tmp_path / "a", {"SKILL.md": skill("a")})
    compared = runner.invoke(app, ["compare", str(tmp_path / "a"), str(tmp_path / "tiny")])
    assert f"note: {note}" in " ".join(compared.stdout.split())
    assert (
        json.loads(runner.invoke(app, ["score", str(tmp_path / "a"), "-o", "json"]).stdout)["notes"]
        == []
    )


def test_a_repeated_finding_fixed_or_added_once_is_counted(tmp_path: Path) -> None:
    """Two links to one missing file are two findings: fixing one is one fixed finding, and
    adding two is two new ones (matched by code, file and message, counted)."""
    from plugin_eval.marketplace import _finding_changes

    dead = {"code": "PE201", "path": "s/SKILL.md", "message": "link 'references/x.md' …"}
    other = {"code": "PE102", "path": "s/SKILL.md", "message": "no trigger"}
    before = tmp_path / "before.json"
    before.write_text(json.dumps({"findings": [dead, dead, other]}))
    one_fixed = _finding_changes(before, json.dumps({"findings": [dead, other]}))
    assert one_fixed is not None and (one_fixed.new, len(one_fixed.fixed)) == ([], 1)
    two_new = _finding_changes(before, json.dumps({"findings": [dead] * 4 + [other]}))
    assert two_new is not None and (len(two_new.new), two_new.fixed) == (2, [])
