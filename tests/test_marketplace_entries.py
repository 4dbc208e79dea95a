"""Marketplace entries read as harnesses read them: `source`, `"strict": false`, explicit
`skills` lists; one report item per entry, named as the marketplace names it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.discovery import discover
from tests.conftest import write_files

runner = CliRunner()
SKILL = (
    "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# T\n\nSteps.\n"
)
DOCUMENTS = ["docx", "pdf", "xlsx"]
EXAMPLES = ["art", "brand"]


@pytest.fixture
def market(tmp_path: Path) -> Path:
    """Laid out like a public skills repository: every plugin is the root, its skills listed."""
    root = tmp_path / "skills-repo"
    entries = [
        {
            "name": "document-skills",
            "description": "Read and write office documents.",
            "source": "./",
            "strict": False,
            "skills": [f"./skills/{s}" for s in DOCUMENTS],
        },
        {
            "name": "example-skills",
            "description": "Examples of skills.",
            "source": "./",
            "strict": False,
            "skills": [f"./skills/{s}" for s in EXAMPLES],
        },
    ]
    marketplace = {"name": "skills", "owner": {"name": "Team"}, "plugins": entries}
    write_files(
        root,
        {
            ".claude-plugin/marketplace.json": json.dumps(marketplace, indent=2),
            **{
                f"skills/{s}/SKILL.md": SKILL.format(name=s)
                for s in [*DOCUMENTS, *EXAMPLES, "unlisted"]
            },
        },
    )
    return root


def _skills(report: dict[str, object]) -> list[str]:
    skills = report["skills"]
    assert isinstance(skills, list)
    return sorted(str(s["name"]) for s in skills)


def test_discovery_gives_one_item_per_entry_and_the_unlisted_skill_loose(market: Path) -> None:
    found = discover(market)
    assert [(i.kind, i.id) for i in found.items] == [
        ("plugin", "@document-skills"),
        ("plugin", "@example-skills"),
        ("skill", "skills/unlisted"),
    ]


def test_report_has_exactly_each_entrys_listed_skills(market: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(market), "--out", str(out), "--no-cache"])
    assert result.exit_code == 0, result.stderr
    rows = json.loads((out / "summary.json").read_text())["rows"]
    assert [(r["name"], r["path"], r["skills"]) for r in rows] == [
        ("document-skills", "@document-skills", 3),
        ("example-skills", "@example-skills", 2),
        ("unlisted", "skills/unlisted", None),
    ]
    documents = json.loads((out / "plugins" / "@document-skills.json").read_text())
    assert _skills(documents) == DOCUMENTS
    examples = json.loads((out / "plugins" / "@example-skills.json").read_text())
    assert _skills(examples) == EXAMPLES
    # Findings keep real paths: the entry's folder is the repository root.
    assert all(not f["path"].startswith("@") for f in documents["findings"])


def test_score_of_the_folder_scores_each_entry_as_report_does(
    market: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(market)
    scored = json.loads(runner.invoke(app, ["score", "-o", "json"]).stdout)["reports"]
    assert [(r["name"], _skills(r) if r["kind"] == "plugin" else None) for r in scored] == [
        ("document-skills", DOCUMENTS),
        ("example-skills", EXAMPLES),
        ("unlisted", None),
    ]
    out = tmp_path / "out"
    runner.invoke(app, ["report", ".", "--out", str(out), "--no-cache"])
    by_report = json.loads((out / "plugins" / "@document-skills.json").read_text())
    assert by_report["composite"] == scored[0]["composite"]


def test_a_changed_marketplace_manifest_scores_what_it_lists(
    market: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-commit hook passes a changed marketplace.json; it was skipped as "not a file of
    a skill or plugin", so a commit changing only the list passed unscored."""
    monkeypatch.chdir(market)
    result = runner.invoke(app, ["score", ".claude-plugin/marketplace.json", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    scored = json.loads(result.stdout)["reports"]
    assert [(r["name"], _skills(r) if r["kind"] == "plugin" else None) for r in scored] == [
        ("document-skills", DOCUMENTS),
        ("example-skills", EXAMPLES),
        ("unlisted", None),
    ]
    # Another JSON file of the same folder is still no file of a skill or plugin.
    (market / ".claude-plugin" / "other.json").write_text("{}")
    other = runner.invoke(app, ["score", ".claude-plugin/other.json"])
    assert other.exit_code == 2
    assert "skipped .claude-plugin/other.json: not a SKILL.md file" in other.stderr


def test_strict_false_makes_the_entry_the_manifest(market: Path) -> None:
    write_files(market, {".claude-plugin/plugin.json": json.dumps({"name": "whole-repo"})})
    names = [i.id for i in discover(market).items if i.kind == "plugin"]
    assert names == ["@document-skills", "@example-skills"]


def test_an_entry_with_a_plugin_json_and_no_list_is_the_walked_plugin(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps(
                {"name": "m", "plugins": [{"name": "csv", "source": "./plugins/csv"}]}
            ),
            "plugins/csv/.claude-plugin/plugin.json": json.dumps({"name": "csv"}),
            "plugins/csv/skills/clean/SKILL.md": SKILL.format(name="clean"),
        },
    )
    items = discover(tmp_path).items
    assert [(i.id, i.entry) for i in items] == [("plugins/csv", None)]


def test_a_listed_skill_anywhere_in_the_folder_is_part_of_the_cache_key(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    entry = {"name": "tools", "source": "./", "strict": False, "skills": ["./custom/x"]}
    write_files(
        root,
        {
            ".claude-plugin/marketplace.json": json.dumps({"name": "m", "plugins": [entry]}),
            "custom/x/SKILL.md": SKILL.format(name="x"),
        },
    )
    out, cache = tmp_path / "out", tmp_path / "cache"
    args = ["report", str(root), "--out", str(out), "--cache-dir", str(cache)]
    first = runner.invoke(app, args)
    assert "cache 0 hits, 1 miss" in first.stderr
    assert "cache 1 hit, 0 misses" in runner.invoke(app, args).stderr
    text = SKILL.format(name="x").replace("Steps.", "See [gone](references/gone.md).")
    (root / "custom" / "x" / "SKILL.md").write_text(text)
    third = runner.invoke(app, args)
    assert "cache 0 hits, 1 miss" in third.stderr
    report = json.loads((out / "plugins" / "repo.json").read_text())
    assert report["name"] == "tools"
    assert "PE201" in [f["code"] for f in report["findings"]]


def test_an_entry_whose_source_folder_is_missing_is_a_note(tmp_path: Path) -> None:
    """A listed plugin that is not there is said, not dropped: installing it would fail."""
    entries = [
        {"name": "csv-tools", "source": "./plugins/csv-tools"},
        {"name": "ghost", "source": "./plugins/ghost"},
    ]
    write_files(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": json.dumps({"name": "m", "plugins": entries}),
            "plugins/csv-tools/.claude-plugin/plugin.json": '{"name": "csv-tools"}',
            "plugins/csv-tools/skills/csv-merge/SKILL.md": SKILL.format(name="csv-merge"),
        },
    )
    found = discover(tmp_path)
    assert [item.rel for item in found.items] == ["plugins/csv-tools"]
    assert found.notes == [
        ".claude-plugin/marketplace.json: 1 plugin(s) have a source that is not a folder under "
        "the root; nothing to score, and installing them would fail: 'ghost (./plugins/ghost)'"
    ]
    result = runner.invoke(app, ["score", str(tmp_path), "--fail-on", "none"])
    assert result.exit_code == 0
    assert "'ghost (./plugins/ghost)'" in result.stderr


def test_a_marketplace_file_is_read_bounded_and_never_through_a_symlink(tmp_path: Path) -> None:
    """The file is a part like any other: a symlink to one outside the root is not read, a
    huge one is refused, and entries passed over are one note per reason, not one each."""
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"plugins": [{"name": "secret-name", "source": "./"}]}))
    root = tmp_path / "root"
    write_files(root, {"skills/csv-merge/SKILL.md": SKILL.format(name="csv-merge")})
    (root / ".claude-plugin").mkdir()
    (root / ".claude-plugin" / "marketplace.json").symlink_to(outside)
    found = discover(root)
    assert [i.rel for i in found.items] == ["skills/csv-merge"]
    assert found.notes == [
        ".claude-plugin/marketplace.json: not read (a symlink or special file, not followed); "
        "plugins found by walking the tree only"
    ]
    (root / ".claude-plugin" / "marketplace.json").unlink()
    remote = [{"name": f"r{i}", "source": {"source": "github"}} for i in range(5000)]
    (root / ".claude-plugin" / "marketplace.json").write_text(json.dumps({"plugins": remote}))
    assert discover(root).notes == [
        ".claude-plugin/marketplace.json: 5,000 plugin entries; the first 2,000 are read",
        ".claude-plugin/marketplace.json: 2,000 plugin(s) have a remote source; not fetched: "
        + ", ".join(f"'r{i}'" for i in range(40))
        + " and 1,960 more",
    ]
    (root / ".claude-plugin" / "marketplace.json").write_text(" " * (4 * 1024 * 1024 + 1))
    assert discover(root).notes == [
        ".claude-plugin/marketplace.json: not read (larger than 4,194,304 bytes); plugins "
        "found by walking the tree only"
    ]


def test_findings_on_an_entry_point_at_its_line_in_marketplace_json(tmp_path: Path) -> None:
    """An entry standing in for plugin.json is reported where it is written, so a GitHub
    annotation or a SARIF result lands on a real file and line."""
    marketplace = (
        '{\n  "name": "m",\n  "plugins": [\n    {"name": "other", "source": "./plugins/other"},\n'
        '    {"name": "csv-tools", "source": "./plugins/csv-tools"}\n  ]\n}\n'
    )
    write_files(
        tmp_path,
        {
            ".claude-plugin/marketplace.json": marketplace,
            "plugins/csv-tools/skills/csv-merge/SKILL.md": SKILL.format(name="csv-merge"),
            "plugins/other/skills/other/SKILL.md": SKILL.format(name="other"),
        },
    )
    result = runner.invoke(app, ["score", str(tmp_path), "-o", "github", "--fail-on", "none"])
    assert result.exit_code == 0
    lines = [ln for ln in result.stdout.splitlines() if "PE502" in ln and "csv-tools" in ln]
    where = f"file={tmp_path.as_posix()}/.claude-plugin/marketplace.json,line=5,"
    assert lines and all(where in ln for ln in lines), lines
    assert "the marketplace entry 'csv-tools' has no 'version'" in result.stdout


def test_entries_are_found_at_their_own_line_and_two_of_one_name_stay_apart(
    tmp_path: Path,
) -> None:
    """The owner's "name" is not the entry's; an entry with no name and one named after the
    folder share a folder and a label, and are still two rows."""
    from plugin_eval.discovery import _entry_lines

    text = (
        '{"name": "m", "owner": {"name": "csv-tools"},\n "plugins": [\n'
        '  {"name": "csv-tools",\n   "source": "./p"},\n  {"name": "", "source": "./p"},\n'
        '  {"name": "p", "source": "./p"}\n ]}\n'
    )
    assert _entry_lines(text) == [3, 5, 6]
    assert _entry_lines("[1, 2]") == [] and _entry_lines('{"plugins": [1, ') == [1]
    write_files(
        tmp_path,
        {".claude-plugin/marketplace.json": text, "p/skills/s/SKILL.md": SKILL.format(name="s")},
    )
    found = discover(tmp_path)
    assert [(i.id, i.entry_at) for i in found.items] == [
        ("p/@csv-tools", ("../.claude-plugin/marketplace.json", 3)),
        ("p/@p", ("../.claude-plugin/marketplace.json", 5)),
        ("p/@p~2", ("../.claude-plugin/marketplace.json", 6)),
    ]
    assert len({i.slug for i in found.items}) == 3


def test_entries_sharing_a_folder_each_have_their_own_card_in_html(
    market: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both entries' reports have the path '.': cards keyed by path once all had one id, and
    every link of the ranked table and the heat map went to the last card."""
    import re

    monkeypatch.chdir(market)
    page = runner.invoke(app, ["score", "-o", "html", "--fail-on", "none"]).stdout
    ids = re.findall(r'<section class="card" id="(report-\d+)"', page)
    assert ids == ["report-1", "report-2", "report-3"]
    links = re.findall(r'href="#(report-\d+)"', page)
    assert sorted(set(links)) == ids and len(links) == 2 * len(ids)  # heat map and ranking


def test_entries_sharing_a_folder_are_told_apart_in_the_text_summary(
    market: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both entries' path is '.': the summary table named each row '.' alone."""
    monkeypatch.chdir(market)
    text = runner.invoke(app, ["score", "--fail-on", "none"], env={"COLUMNS": "120"}).stdout
    items = [line.split("  ")[0] for line in text.splitlines()[-4:-1]]
    assert sorted(items) == [". @document-skills", ". @example-skills", "skills/unlisted"]
