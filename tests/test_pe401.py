"""PE401 CODEX_SIZE_CUT on small realistic skills: what the 8,000-byte cut drops, and when it
drops nothing new (lines that only repeat earlier ones, or a recap of links already given)."""

from __future__ import annotations

from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.findings import Finding, Severity
from tests.conftest import write_files

FRONT = (
    "---\n"
    "name: invoice-export\n"
    "description: Exports invoices from the billing database to CSV. Use when a finance team "
    "asks for a monthly invoice export or a reconciliation file.\n"
    "---\n"
)
# Each step line is 100 bytes with its line feed, so where the cut falls is known by hand.
STEP = "- Step {n:03}: check that invoice column {n:03} is present and typed before the export runs.{pad}\n"


def step(n: int) -> str:
    line = STEP.format(n=n, pad="")
    return STEP.format(n=n, pad="." * (100 - len(line.encode())))


# FRONT is 177 bytes and 4 lines; HEAD 207 bytes and 9 lines. 78 steps end at byte
# 207 + 7,800 = 8,007: the cut (after byte 8,000) falls in step 78, on line 9 + 78 = 87.
HEAD = FRONT + "\n# Invoice export\n\n## Checks\n\n"
CHECKS = "".join(step(n) for n in range(1, 79))
CUT_LINE = 87


def in_plugin(root: Path) -> Path:
    """The skill's folder in a Codex plugin (a .codex-plugin/plugin.json beside skills/), where
    Codex cuts SKILL.md at 8,000 bytes."""
    write_files(root / "billing", {".codex-plugin/plugin.json": '{"name": "billing"}\n'})
    return root / "billing" / "skills" / "invoice-export"


def pe401(tmp_path: Path, body_tail: str) -> list[Finding]:
    folder = in_plugin(tmp_path)
    write_files(folder, {"SKILL.md": HEAD + CHECKS + body_tail})
    result = score_skill(folder, Config(), "invoice-export")
    return [f for f in result.findings if f.code == "PE401"]


def test_layout_is_as_computed_by_hand() -> None:
    text = (HEAD + CHECKS).encode()
    assert (len(FRONT.encode()), len(HEAD.encode()), HEAD.count("\n")) == (177, 207, 9)
    assert all(len(step(n).encode()) == 100 for n in range(1, 79))
    assert len(text) == 8_007
    assert text[:8_000].count(b"\n") + 1 == CUT_LINE


def test_a_cut_that_drops_new_sections_is_reported_at_the_cut_line(tmp_path: Path) -> None:
    tail = (
        "\n## Rounding\n\nRound every amount half-even to two decimals.\n"
        "\n## Currency\n\nWrite amounts in the invoice's own currency, never converted.\n"
        "\n## Delivery\n\nUpload the file to the finance share and post its checksum.\n"
    )
    [finding] = pe401(tmp_path, tail)
    assert (finding.path, finding.line, finding.column) == ("invoice-export/SKILL.md", 87, None)
    size = len((HEAD + CHECKS + tail).encode())
    assert finding.message == (
        f"SKILL.md is {size:,} bytes; Codex reads plugin skills to 8,000 bytes (around line 87) "
        f"and drops the rest, {100 * (size - 8000) / size:.0f} % of the file: the end of "
        "'Checks' and 3 sections ('Rounding', 'Currency', …); SKILL.md links no supporting "
        "file that holds it"
    )


def to_the_cut(head: str) -> str:
    """``head``, steps, and a closing paragraph padded so the text ends at byte 8,000 exactly:
    whatever is added after it starts on the first line Codex drops."""
    steps = "".join(step(n) for n in range(1, (8_000 - len(head.encode())) // 100 + 1))
    room = 8_000 - len((head + steps).encode())
    if room < 40:  # too little for a sentence: one step fewer
        steps, room = steps[: -len(step(1))], room + 100
    paragraph = "Run the checks in order; a failed check stops the export."
    text = head + steps + paragraph + "." * (room - len(paragraph) - 1) + "\n"
    assert len(text.encode()) == 8_000
    return text


def test_a_tail_that_only_repeats_earlier_lines_is_not_a_loss(tmp_path: Path) -> None:
    folder = in_plugin(tmp_path)
    # A closing recap that copies two checks word for word, after a blank line.
    write_files(folder, {"SKILL.md": to_the_cut(HEAD) + "\n" + step(3) + step(41)})
    assert [f for f in score_skill(folder, Config(), "x").findings if f.code == "PE401"] == []
    # With a heading of its own, the recap says something new: reported where it starts.
    write_files(folder, {"SKILL.md": to_the_cut(HEAD) + "## Summary\n\n" + step(3)})
    [finding] = [f for f in score_skill(folder, Config(), "x").findings if f.code == "PE401"]
    assert (finding.line, finding.column) == (88, None)  # 9 + 77 steps + the paragraph + 1
    assert ": the section 'Summary'; SKILL.md links" in finding.message


def test_a_recap_of_links_already_given_is_not_a_loss(tmp_path: Path) -> None:
    links = (
        "- [Billing API](https://billing.example.com/api)\n"
        "- [CSV dialect](https://www.rfc-editor.org/rfc/rfc4180)\n"
    )
    head = HEAD.replace("## Checks\n", "See:\n\n" + links + "\n## Checks\n")
    assert (len(head.encode()), head.count("\n")) == (319, 14)
    folder = in_plugin(tmp_path)
    # 76 steps (to byte 7,919) and an 81-byte paragraph: lines 15–91; the cut line is 92.
    recap = "\n" + links.replace("- ", "* ")  # the same links, another list marker
    write_files(folder, {"SKILL.md": to_the_cut(head) + recap})
    assert [f for f in score_skill(folder, Config(), "x").findings if f.code == "PE401"] == []
    # A recap that names a page not given before the cut is new.
    more = "* [Refunds](https://billing.example.com/refunds)\n"
    write_files(folder, {"SKILL.md": to_the_cut(head) + recap + more})
    [finding] = [f for f in score_skill(folder, Config(), "x").findings if f.code == "PE401"]
    assert (finding.line, finding.column) == (92, None)


def test_the_same_thing_in_other_words_is_still_a_loss(tmp_path: Path) -> None:
    tail = "\n- Before the export runs, make sure column 003 exists and has its type.\n"
    [finding] = pe401(tmp_path, tail)
    assert finding.line == CUT_LINE


def test_a_cut_just_before_a_heading_ends_no_section(tmp_path: Path) -> None:
    # 77 steps end at byte 7,907; a 93-byte paragraph then ends at 8,000 exactly, so the cut
    # falls on the line after it (9 + 77 + 2 = 88): the heading.
    paragraph = "Run the checks in order; a failed check stops the export and names the col.\n"
    paragraph = paragraph[:-1] + "." * (93 - len(paragraph.encode())) + "\n"
    text = HEAD + "".join(step(n) for n in range(1, 78)) + paragraph
    assert len(text.encode()) == 8_000
    text += "## Delivery\n\nUpload the file to the finance share and post its checksum.\n"
    folder = in_plugin(tmp_path)
    write_files(folder, {"SKILL.md": text})
    [finding] = [f for f in score_skill(folder, Config(), "x").findings if f.code == "PE401"]
    assert finding.line == 88
    assert ": the section 'Delivery'; SKILL.md links" in finding.message
    assert "the end of" not in finding.message


def test_a_linked_supporting_file_still_silences_it(tmp_path: Path) -> None:
    folder = in_plugin(tmp_path)
    tail = "\n## More\n\nEdge cases are in [references/edge-cases.md](references/edge-cases.md).\n"
    write_files(
        folder,
        {
            "SKILL.md": HEAD + CHECKS + tail,
            "references/edge-cases.md": "# Edge cases\n\nCredit notes carry negative amounts.\n",
        },
    )
    assert [f for f in score_skill(folder, Config(), "x").findings if f.code == "PE401"] == []


RELATED = (
    "\n## Related Skills\n\n"
    "- `invoice-reconcile` - For matching exports against bank statements\n"
    "- [ledger-close](../ledger-close/SKILL.md) — Close the month once every export is filed\n"
)


def _with_siblings(tmp_path: Path, tail: str, siblings: tuple[str, ...]) -> list[Finding]:
    skills = in_plugin(tmp_path).parent
    for name in siblings:
        write_files(skills / name, {"SKILL.md": f"---\nname: {name}\ndescription: x\n---\n"})
    write_files(skills / "invoice-export", {"SKILL.md": to_the_cut(HEAD) + tail})
    result = score_skill(skills / "invoice-export", Config(), "invoice-export")
    return [f for f in result.findings if f.code == "PE401"]


def test_a_list_of_related_skills_beside_it_is_not_a_loss(tmp_path: Path) -> None:
    # The harness lists every installed skill by itself: the pointers lose nothing.
    assert _with_siblings(tmp_path, RELATED, ("invoice-reconcile", "ledger-close")) == []


def test_a_related_list_naming_a_skill_that_is_not_beside_it_is_a_loss(tmp_path: Path) -> None:
    # ledger-close is not there: its line is new, and the cut is reported at the cut line
    # (9 + 77 steps + the paragraph + 1 = 88).
    [finding] = _with_siblings(tmp_path, RELATED, ("invoice-reconcile",))
    assert (finding.path, finding.line, finding.column) == ("invoice-export/SKILL.md", 88, None)
    assert ": the end of 'Checks' and the section 'Related Skills'; SKILL" in finding.message


def test_instructions_after_a_related_skill_are_a_loss(tmp_path: Path) -> None:
    tail = RELATED + "\nAfter the export, post the file's checksum in the finance channel.\n"
    [finding] = _with_siblings(tmp_path, tail, ("invoice-reconcile", "ledger-close"))
    assert finding.line == 88
    # A long gloss is instruction, not a pointer.
    long = (
        "\n## Related Skills\n\n- `invoice-reconcile` - "
        + " ".join(["run it"] * 13)
        + " before the export\n"
    )
    [finding] = _with_siblings(tmp_path / "b", long, ("invoice-reconcile",))
    assert finding.line == 88


def test_outside_a_codex_plugin_there_is_no_finding(tmp_path: Path) -> None:
    """Codex documents its cut for plugin skills: a skill with no Codex plugin manifest beside
    its skills/ folder (a standalone skill, or a Claude Code plugin alone) loses nothing."""
    tail = "\n## Delivery\n\nUpload the file to the finance share and post its checksum.\n"
    standalone = tmp_path / "invoice-export"
    claude_only = tmp_path / "billing" / "skills" / "invoice-export"
    write_files(tmp_path / "billing", {".claude-plugin/plugin.json": '{"name": "billing"}\n'})
    for folder in (standalone, claude_only):
        write_files(folder, {"SKILL.md": HEAD + CHECKS + tail})
        result = score_skill(folder, Config(), "invoice-export")
        assert [f for f in result.findings if f.code == "PE401"] == []
    # The manifest looked for is recorded, so a cached result is dropped once it appears.
    manifest = str(tmp_path / "billing" / ".codex-plugin" / "plugin.json")
    assert (manifest, False) in result.outside_checks
    write_files(tmp_path / "billing", {".codex-plugin/plugin.json": '{"name": "billing"}\n'})
    [finding] = [f for f in score_skill(claude_only, Config(), "x").findings if f.code == "PE401"]
    assert (finding.line, finding.column, finding.severity) == (CUT_LINE, None, Severity.WARNING)


def test_in_a_codex_plugin_it_is_a_warning(tmp_path: Path) -> None:
    [finding] = pe401(tmp_path, "\n## Delivery\n\nUpload the file to the finance share.\n")
    assert finding.severity == Severity.WARNING
    assert "Codex reads plugin skills to 8,000 bytes (around line 87)" in finding.message
