"""Hostile and broken trees (issue 10, classes 1, 3 and 4): nothing hangs, one item never
aborts a report, and nothing is dropped without a finding or a note."""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval import budgets
from plugin_eval.cli import app
from plugin_eval.config import Config
from plugin_eval.discovery import SLUG_BYTES, discover
from plugin_eval.engine import score_skill
from plugin_eval.marketplace import run_report
from plugin_eval.plugin_score import score_plugin
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, good_plugin
from tests.conftest import write_files

SKILL = (
    "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, cleaning "
    "column names, or merging ledger files.\n---\n\n# {name}\n\nTrim cells.\n"
)
MARKETPLACE = ".claude-plugin/marketplace.json"
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _findings(plugin: Path, code: str) -> list[tuple[str, str]]:
    result = score_plugin(plugin, Config(), "p")
    return [(f.path, f.message) for f in result.findings if f.code == code]


# --- class 1 and 4: part files that are not regular files, and parts past a cap ----------


@posix_only
@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "part", ["agents/a.md", "commands/c.md", "skills/fifo-skill/SKILL.md"], ids=str
)
def test_a_fifo_part_is_reported_and_never_opened(tmp_path: Path, part: str) -> None:
    plugin = tmp_path / "p"
    write_files(plugin, good_plugin())
    (plugin / part).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(plugin / part)
    found = _findings(plugin, "PE012")
    assert found == [
        (f"p/{part}", f"1 part file(s) not scored (not a regular file, never opened): {part}")
    ]


@pytest.mark.parametrize("part", ["agents/linked.md", "skills/linked"], ids=str)
def test_a_symlinked_part_is_reported_and_not_followed(tmp_path: Path, part: str) -> None:
    plugin = tmp_path / "p"
    write_files(plugin, good_plugin())
    write_files(tmp_path / "elsewhere", {"SKILL.md": SKILL.format(name="linked")})
    target = tmp_path / "elsewhere" / ("SKILL.md" if part.endswith(".md") else "")
    (plugin / part).symlink_to(target)
    result = score_plugin(plugin, Config(), "p")
    found = [(f.path, f.severity.value) for f in result.findings if f.code == "PE012"]
    assert found == [(f"p/{part}", "error")]
    assert [s.name for s in result.skills] == ["csv-clean"]


def test_a_large_data_folder_hides_no_skill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder's listing stops at its cap inside data/ (listed before skills/); the parts
    are listed on their own, so every skill is scored and the cut listing is reported."""
    monkeypatch.setattr(budgets, "LISTED_FILES", 20)
    plugin = tmp_path / "p"
    write_files(plugin, {".claude-plugin/plugin.json": GOOD_MANIFEST})
    write_files(plugin, {f"skills/s{i}/SKILL.md": SKILL.format(name=f"s{i}") for i in range(3)})
    write_files(plugin, {f"data/f{i:03d}.txt": "x" for i in range(52)})
    result = score_plugin(plugin, Config(), "p")
    assert [s.name for s in result.skills] == ["s0", "s1", "s2"]
    incomplete = [(f.code, f.path) for f in result.findings if f.code == "PE011"]
    assert incomplete == [("PE011", "p/.claude-plugin/plugin.json")]


def test_skills_past_the_cap_are_one_error_naming_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budgets, "PLUGIN_SKILLS", 5)
    plugin = tmp_path / "p"
    write_files(plugin, {".claude-plugin/plugin.json": GOOD_MANIFEST})
    write_files(plugin, {f"skills/s{i}/SKILL.md": SKILL.format(name=f"s{i}") for i in range(8)})
    result = score_plugin(plugin, Config(), "p")
    assert len(result.skills) == 5
    found = [(f.path, f.severity.value, f.message) for f in result.findings if f.code == "PE012"]
    assert found == [
        (
            "p/skills/s5/SKILL.md",
            "error",
            "3 part file(s) not scored (past the cap of skills per plugin): "
            "skills/s5/SKILL.md, skills/s6/SKILL.md, skills/s7/SKILL.md",
        )
    ]


def test_a_marketplace_entry_at_the_root_hides_no_loose_skill(tmp_path: Path) -> None:
    root = tmp_path / "m"
    entry = {"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "root", "source": "./"}]}
    write_files(
        root,
        {
            MARKETPLACE: json.dumps(entry),
            "s1/SKILL.md": SKILL.format(name="s1"),
            "s2/SKILL.md": "no frontmatter here\n",
            "skills/own/SKILL.md": SKILL.format(name="own"),
        },
    )
    found = discover(root)
    assert [(i.kind.value, i.id) for i in found.items] == [
        ("plugin", "."),
        ("skill", "s1"),
        ("skill", "s2"),
    ]


def test_a_symlinked_skill_file_is_rescored_when_its_target_changes(tmp_path: Path) -> None:
    root = tmp_path / "r"
    write_files(root, {"s/real.md": SKILL.format(name="s")})
    (root / "s" / "SKILL.md").symlink_to("real.md")

    def score() -> float:
        rows, _ = run_report(root, tmp_path / "out", Config(), 1, tmp_path / "cache", "t")
        (row,) = list(rows)
        assert row.score is not None
        return row.score

    before = score()
    (root / "s" / "real.md").write_text("---\nname: s\n---\n\nx\n", encoding="utf-8")
    assert score() != before


# --- class 3: one item never aborts the report ---------------------------------------------


def test_a_folder_name_too_long_for_a_report_file_name(tmp_path: Path) -> None:
    root = tmp_path / "r"
    long = "a" * 252
    write_files(
        root, {f"{long}/SKILL.md": SKILL.format(name="a"), "ok/SKILL.md": SKILL.format(name="ok")}
    )
    rows, _ = run_report(root, tmp_path / "out", Config(), 1, None, "t")
    by_path = {row.path: row for row in rows}
    assert set(by_path) == {long, "ok"}
    slug = by_path[long].slug
    assert len(os.fsencode(slug)) <= SLUG_BYTES and slug.startswith("a" * 100)
    assert (tmp_path / "out" / "skills" / f"{slug}.json").is_file()


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("marketplace", "note"),
    [
        (
            json.dumps({"name": "m", "plugins": [{"name": "x", "source": "./a\u0000b"}]}),
            "1 plugin(s) have a source that is not a path; skipped: 'x'",
        ),
        (
            '{"name": "m", "plugins": ' + "[" * 100_000 + "]" * 100_000 + "}",
            ":1:1: not valid JSON (nested too deeply to read)",
        ),
        (
            '{"name": "m", "n": ' + "9" * 10_000 + ', "plugins": []}',
            ":1:1: not valid JSON (holds a number too long to read)",
        ),
        ('{"name": "m", "plugins": [', ":1:27: not valid JSON (Expecting value)"),
    ],
    ids=["nul-in-source", "nested-100000-deep", "10000-digit-number", "cut-short"],
)
def test_a_broken_marketplace_file_is_a_note_and_the_tree_is_still_scored(
    tmp_path: Path, marketplace: str, note: str
) -> None:
    root = tmp_path / "m"
    write_files(root, {MARKETPLACE: marketplace, "ok/SKILL.md": SKILL.format(name="ok")})
    found = discover(root)
    assert [i.id for i in found.items] == ["ok"]
    assert [n for n in found.notes if note in n] != [], found.notes


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "manifest",
    ['{"name": "p", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", '{"x": ' + "9" * 10_000 + "}"],
    ids=["nested-100000-deep", "10000-digit-number"],
)
def test_a_hostile_plugin_manifest_is_a_finding_not_a_crash(tmp_path: Path, manifest: str) -> None:
    plugin = tmp_path / "p"
    write_files(plugin, good_plugin(**{".claude-plugin__plugin.json": manifest}))
    result = score_plugin(plugin, Config(), "p")
    found = [(f.code, f.path, f.line) for f in result.findings if f.code == "PE501"]
    assert found == [("PE501", "p/.claude-plugin/plugin.json", 1)]
    assert [s.name for s in result.skills] == ["csv-clean"]


def test_items_whose_file_names_would_clash_each_keep_their_own_report(tmp_path: Path) -> None:
    """`a/b` and `a--b` (the '/' is written '--'), `A` and `a` (one name where letter case is
    ignored), `café` composed and decomposed (one name where normalisation is ignored, as on
    macOS), and a marketplace entry written twice: every row has its own report file."""
    skill = "---\nname: x\ndescription: Formats CSV reports. Use when exporting tables.\n---\n# T\n"
    root = tmp_path / "root"
    for rel in ("a/b", "a--b", "A", "a", "c", "caf\u00e9", "cafe\u0301"):
        write_files(root / rel, {"SKILL.md": skill})
    entry = {"name": "dup", "source": "./plug", "strict": False}
    write_files(
        root,
        {
            ".claude-plugin/marketplace.json": json.dumps({"name": "m", "plugins": [entry, entry]}),
            "plug/skills/one/SKILL.md": skill,
        },
    )
    found = discover(root)
    slugs = [item.slug for item in found.items]
    assert len({unicodedata.normalize("NFC", s).casefold() for s in slugs}) == len(slugs) == 8
    assert "c" in slugs  # a name that clashes with none stays as it was
    assert found.notes == [
        ".claude-plugin/marketplace.json: 1 plugin(s) listed again, word for word, and scored "
        "once: 'dup'"
    ]
    out = tmp_path / "out"
    rows, _ = run_report(root, out, Config(), 1, None, "2026-01-01T00:00:00Z")
    assert len(list(rows)) == 8
    written = {p.stem for p in (out / "skills").glob("*.json")}
    written |= {p.stem for p in (out / "plugins").glob("*.json")}
    assert written == set(slugs)
    assert {
        json.loads((out / "skills" / f"{i.slug}.json").read_text())["path"]
        for i in found.items
        if i.kind.value == "skill"
    } == {"a/b", "a--b", "A", "a", "c", "caf\u00e9", "cafe\u0301"}


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            '{\n  "name": "p",\n  "note": "NaN or \\" NaN",\n  "x": NaN\n}',
            (4, 8),
            "not valid JSON: NaN is not a JSON value",
        ),
        ('{"name": "p", "t": -Infinity}', (1, 20), "not valid JSON: -Infinity is not a JSON value"),
    ],
    ids=["nan", "minus-infinity"],
)
def test_nan_and_infinity_are_not_json_in_a_manifest_or_hooks(
    tmp_path: Path, text: str, where: tuple[int, int], message: str
) -> None:
    """Python's decoder takes them and JSON.parse, which harnesses read manifests with, does
    not: such a plugin does not load. Each is PE501 (PE801 in hooks.json) at the bare token,
    never at a string that holds the same letters."""
    plugin = tmp_path / "p"
    hooks = text.replace('"name": "p", ', "")
    write_files(
        plugin,
        good_plugin(**{".claude-plugin__plugin.json": text, "hooks__hooks.json": hooks}),
    )
    found = sorted(
        (f.code, f.path, f.line, f.column, f.message)
        for f in score_plugin(plugin, Config(), "p").findings
        if f.code in ("PE501", "PE801")
    )
    assert [(code, path, (line, column)) for code, path, line, column, _ in found] == [
        ("PE501", "p/.claude-plugin/plugin.json", where),
        ("PE801", "p/hooks/hooks.json", where if "\n" in text else (where[0], where[1] - 13)),
    ]
    assert all(message in m for *_, m in found), found


def test_half_a_surrogate_pair_in_json_is_a_replacement_character_not_a_crash(
    tmp_path: Path,
) -> None:
    """`"\\ud800"` decodes to text no output can encode: in a plugin.json, a marketplace
    entry or an eval file it becomes U+FFFD, and every output of every item is written."""
    from plugin_eval.json_input import parse

    assert parse('{"name": "a\\ud800b", "x": ["\\udfff"], "ok": "\\ud83d\\ude00"}') == {
        "name": "a\ufffdb",
        "x": ["\ufffd"],
        "ok": "\U0001f600",
    }
    skill = "---\nname: s\ndescription: Formats CSV reports. Use when exporting tables.\n---\n# T\n"
    root = tmp_path / "root"
    write_files(
        root,
        {
            "p/.claude-plugin/plugin.json": '{"name": "\\ud800"}',
            "p/skills/s/SKILL.md": skill,
            "ok/SKILL.md": skill,
            ".claude-plugin/marketplace.json": '{"plugins": [{"name": "\\udfff", "source": "./q"}]}',
            "q/skills/t/SKILL.md": skill,
        },
    )
    runner = CliRunner()
    for output in ("json", "sarif", "github", "markdown", "html"):
        result = runner.invoke(app, ["score", str(root), "-o", output, "--fail-on", "none"])
        assert result.exit_code == 0 and result.exception is None, (output, result.output)
    out = tmp_path / "out"
    done = runner.invoke(app, ["report", str(root), "--out", str(out), "--sarif", "--html"])
    assert done.exception is None
    rows = json.loads((out / "summary.json").read_text())["rows"]
    assert sorted(r["path"] for r in rows) == ["ok", "p", "q"]
    assert not any(r.get("errored") for r in rows)


def test_a_symlinked_manifest_makes_no_plugin_and_is_said(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text('{"name": "from-outside", "version": "1.0.0"}')
    root = tmp_path / "root"
    skill = "---\nname: s\ndescription: Formats CSV reports. Use when exporting tables.\n---\n# T\n"
    write_files(root, {"q/skills/s/SKILL.md": skill})
    (root / "q" / ".claude-plugin").mkdir()
    (root / "q" / ".claude-plugin" / "plugin.json").symlink_to(outside)
    found = discover(root)
    assert [(i.kind.value, i.rel) for i in found.items] == [("skill", "q/skills/s")]
    assert found.notes == [
        "q/.claude-plugin/plugin.json: a symlink or special file, not followed; the folder is "
        "not read as a plugin by it"
    ]


def test_names_that_are_not_utf8_are_escaped_in_json_sarif_and_the_report(
    tmp_path: Path,
) -> None:
    """A folder or file name with bytes that are not UTF-8 (read as lone surrogates) is
    carried as JSON \\u escapes and as the bytes' percent-encoding in a SARIF URI; it never
    costs the skill beside it its report."""
    root = tmp_path / "root"
    skill = (
        "---\nname: {0}\ndescription: Formats CSV reports. Use when exporting tables.\n---\n# T\n"
    )
    write_files(root, {"good/SKILL.md": skill.format("good")})
    bad = os.fsencode(root) + b"/skill-\xff\xfe"
    os.mkdir(bad)
    with open(bad + b"/SKILL.md", "w", encoding="utf-8") as handle:
        handle.write(skill.format("skill-x"))
    os.mkdir(bad + b"/references")
    with open(bad + b"/references/\xfe.md", "w", encoding="utf-8") as handle:
        handle.write("# R\n")
    runner = CliRunner()
    shown = "skill-\udcff\udcfe"
    result = runner.invoke(app, ["score", str(root), "-o", "json", "--fail-on", "none"])
    assert result.exception is None, result.output
    assert "\\udcff\\udcfe" in result.stdout
    paths = [r["path"] for r in json.loads(result.stdout)["reports"]]
    assert paths == [f"{root}/good", f"{root}/{shown}"]
    result = runner.invoke(app, ["score", str(root), "-o", "sarif", "--fail-on", "none"])
    assert result.exception is None, result.output
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(result.stdout)["runs"][0]["results"]
    }
    assert f"file://{root}/skill-%FF%FE/SKILL.md" in uris
    out = tmp_path / "out"
    for _ in range(2):  # cold, then from the cache
        done = runner.invoke(app, ["report", str(root), "--out", str(out), "--sarif", "--html"])
        assert done.exception is None, done.output
        rows = json.loads((out / "summary.json").read_text())["rows"]
        assert sorted(r["path"] for r in rows) == ["good", shown]
        assert not any(r.get("errored") for r in rows)


@pytest.mark.parametrize("linked", [".", "badges", "skills"])
def test_report_never_writes_or_removes_through_a_symlinked_out_folder(
    tmp_path: Path, linked: str
) -> None:
    """An --out folder inside the scored checkout (as the weekly workflow has it) whose folder
    or subfolder is a committed symlink, with an index naming a 'stale' file: the run stops
    before scoring (exit 2) and the file the link reaches is left alone."""
    root = tmp_path / "root"
    write_files(root, {"sk/SKILL.md": SKILL.format(name="sk")})
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep")
    out = root / "report"
    if linked == ".":
        out.symlink_to(victim)
    else:
        out.mkdir()
        (out / linked).symlink_to(victim)
    (victim / ".plugin-eval-index.json").write_text('{"badges/precious.txt": ["x"]}')
    (out / ".plugin-eval-index.json").write_text('{"badges/precious.txt": ["x"]}')
    done = CliRunner().invoke(app, ["report", str(root), "--out", str(out), "--no-cache"])
    assert done.exit_code == 2
    where = out if linked == "." else out / linked
    assert f"--out {where}: cannot be written (a symlink; " in done.stderr
    assert sorted(p.name for p in victim.iterdir()) == [".plugin-eval-index.json", "precious.txt"]


def test_a_stale_name_below_a_report_subfolder_is_not_removed(tmp_path: Path) -> None:
    """The index of a previous run names files this tool writes: one level below plugins/,
    skills/ or badges/. A forged entry deeper than that removes nothing."""
    root = tmp_path / "root"
    write_files(root, {"sk/SKILL.md": SKILL.format(name="sk")})
    out = tmp_path / "out"
    keep = out / "badges" / "deep" / "keep.txt"
    keep.parent.mkdir(parents=True)
    keep.write_text("keep")
    (out / ".plugin-eval-index.json").write_text('{"badges/deep/keep.txt": ["x"]}')
    done = CliRunner().invoke(app, ["report", str(root), "--out", str(out), "--no-cache"])
    assert done.exit_code == 0, done.output
    assert keep.read_text() == "keep"


def test_a_manifest_or_part_past_its_cap_is_said_not_misread(tmp_path: Path) -> None:
    """A plugin.json or agent file over PART_BYTES is not read as JSON or frontmatter that
    stops short ("Unterminated string"): the finding says it is too large."""
    pad = "pad " * (budgets.PART_BYTES // 4)
    manifest = json.dumps({"name": "csv-tools", "version": "1.0.0", "description": pad})
    agent = f"---\nname: a\ndescription: Reviews CSV files.\n---\n\n{pad}\n"
    write_files(
        tmp_path / "p",
        good_plugin(**{".claude-plugin__plugin.json": manifest, "agents__big.md": agent}),
    )
    found = [
        (f.code, f.path, f.line, f.column, f.message)
        for f in score_plugin(tmp_path / "p", Config(), "p").findings
        if f.code in ("PE501", "PE601")
    ]
    assert found == [
        (
            "PE501",
            "p/.claude-plugin/plugin.json",
            1,
            1,
            ".claude-plugin/plugin.json is over 1 MiB (1,048,576 bytes); it was not read",
        ),
        (
            "PE601",
            "p/agents/big.md",
            1,
            1,
            "big.md is over 1 MiB (1,048,576 bytes); only the start was read",
        ),
    ]


@posix_only
@pytest.mark.timeout(30)
def test_a_link_to_a_fifo_says_it_is_not_a_file_and_never_opens_it(tmp_path: Path) -> None:
    folder = tmp_path / "csv-report"
    write_files(
        folder,
        {"SKILL.md": SKILL.format(name="csv-report") + "\nSee [the rules](references/rules.md).\n"},
    )
    (folder / "references").mkdir()
    os.mkfifo(folder / "references" / "rules.md")
    result = score_skill(folder, Config(), "csv-report")
    found = [(f.code, f.path, f.line, f.column, f.message, f.fix) for f in result.findings]
    assert found == [
        (
            "PE201",
            "csv-report/SKILL.md",
            10,
            5,
            "link 'references/rules.md' points at a FIFO, socket or device, not a file: nothing "
            "can be read from it, and a harness installs only files",
            "Replace 'references/rules.md' with a regular file.",
        )
    ]
