"""PE211's messages, and the sibling files it looks at are re-checked by the cache."""

from __future__ import annotations

from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from tests.conftest import write_files

HEAD = (
    "---\nname: spike-sorting\ndescription: Sorts Neuropixels spikes. Use when a recording "
    "needs sorting or curation.\n---\n\n# Spike sorting\n\n"
)


def test_a_file_in_another_folder_of_the_skill_is_named_in_the_fix(tmp_path: Path) -> None:
    write_files(
        tmp_path / "spike-sorting",
        {
            "SKILL.md": HEAD + "For the steps, read `reference/standard_workflow.md`.\n",
            "references/standard_workflow.md": "# Workflow\n",
        },
    )
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    [finding] = [f for f in result.findings if f.code == "PE211"]
    assert (finding.line, finding.column) == (8, 22)
    assert finding.message == (
        "names 'reference/standard_workflow.md', which is not in the skill folder; the file is "
        "'references/standard_workflow.md'"
    )
    assert finding.fix == "Write the file's path as it is: 'references/standard_workflow.md'."


def test_a_missing_file_and_the_sibling_check_behind_a_silence(tmp_path: Path) -> None:
    body = (
        "**Reference:** See `references/curation.md`\n\n"
        "Probe maps follow `probe-maps`'s `references/layouts.md`.\n"
        "For the layouts, see `probe-maps`'s `references/layouts.md`.\n"
    )
    write_files(
        tmp_path,
        {
            "spike-sorting/SKILL.md": HEAD + body,
            "probe-maps/SKILL.md": "---\nname: probe-maps\ndescription: Probe maps.\n---\n",
            "probe-maps/references/layouts.md": "# Layouts\n",
        },
    )
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    found = [(f.line, f.column, f.message) for f in result.findings if f.code == "PE211"]
    assert found == [
        (
            8,
            21,
            "names 'references/curation.md' as a file of the skill, and it is not in the "
            "skill folder",
        )
    ]
    layouts = str(tmp_path / "probe-maps" / "references" / "layouts.md")
    assert (layouts, True) in result.outside_checks


def test_a_body_naming_thousands_of_siblings_costs_a_bounded_number_of_checks(
    tmp_path: Path,
) -> None:
    from plugin_eval import budgets

    # One line: 3,000 pairs of a sibling's name and a path, none of them there.
    line = " ".join(f"see `sib-{i}`'s `references/r{i}.md`;" for i in range(3000))
    write_files(tmp_path, {"spike-sorting/SKILL.md": HEAD + line + "\n"})
    for i in range(3):
        write_files(tmp_path, {f"sib-{i}/SKILL.md": "---\nname: x\ndescription: y\n---\n"})
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    pe211 = [f for f in result.findings if f.code == "PE211"]
    assert len(pe211) == budgets.FINDINGS_PER_CODE + 1  # the cap's own "more" finding
    sibling = [path for path, _ in result.outside_checks if "sib-" in path]
    assert len(sibling) == budgets.SIBLING_FILE_CHECKS


def test_no_symlink_is_followed_into_or_out_of_a_sibling(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_files(outside, {"references/layouts.md": "# Layouts\n"})
    body = "For the layouts, see `probe-maps`'s `references/layouts.md`.\n"
    write_files(tmp_path / "tree", {"spike-sorting/SKILL.md": HEAD + body})
    (tmp_path / "tree" / "probe-maps").symlink_to(outside, target_is_directory=True)
    result = score_skill(tmp_path / "tree" / "spike-sorting", Config(), "spike-sorting")
    # The sibling is a link out of the tree: not looked into, so the path is this skill's.
    assert [f.line for f in result.findings if f.code == "PE211"] == [8]
    layouts = str(tmp_path / "tree" / "probe-maps" / "references" / "layouts.md")
    assert (layouts, False) in result.outside_checks


def test_a_file_a_linked_reference_points_to_is_looked_for_from_the_skill_and_the_file(
    tmp_path: Path,
) -> None:
    # The skill's detail moved to references/details.md, which still points to files that
    # were never shipped; one it writes from its own folder (`queries.md`) is there.
    details = (
        "# Details\n\n"
        "**Reference:** See `references/jaeger-setup.md`\n\n"  # line 3: written from the skill
        "For recording rules, read `queries.md`.\n\n"  # no folder: not a path of the skill
        "Queries are in `references/queries.md`; see `examples/alerts.yaml`.\n\n"  # 7: there
        "```yaml\n# See `assets/collector.yaml`\n```\n\n"  # in code: not read
        "- `assets/jaeger-config.yaml.template`\n"  # line 13: heads a list item
        "- See `references/jaeger-setup.md` again\n"  # the same path: reported once
        "Tracing as told in the reference to `reference/finance.md`.\n"  # tells of a file
    )
    write_files(
        tmp_path / "spike-sorting",
        {
            "SKILL.md": HEAD + "Detail is in [the details](references/details.md).\n",
            "references/details.md": details,
            "references/queries.md": "# Queries\n",
            "references/examples/alerts.yaml": "groups: []\n",
        },
    )
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    found = [f for f in result.findings if f.code == "PE211"]
    assert [(f.path, f.line, f.column) for f in found] == [
        ("spike-sorting/references/details.md", 3, 21),
        ("spike-sorting/references/details.md", 13, 4),
    ]
    assert found[0].message == (
        "'references/details.md' names 'references/jaeger-setup.md' as a file of the skill, and "
        "it is not in the skill folder"
    )


def test_a_heading_that_is_only_a_path_names_that_file(tmp_path: Path) -> None:
    body = (
        "## Resources\n\n"  # line 8
        "### reference/standard_workflow.md\n"  # line 10: the folder is references/
        "Each stage, explained.\n\n"
        "### `scripts/run_sorting.py`\n"  # line 13: shipped
        "Runs Kilosort.\n\n"
        "### assets/report_template.md\n"  # line 16: nowhere
        "A report to fill in.\n\n"
        "### Workflow notes\n"  # not a path
    )
    write_files(
        tmp_path / "spike-sorting",
        {
            "SKILL.md": HEAD + body,
            "references/standard_workflow.md": "# Workflow\n",
            "scripts/run_sorting.py": "print('sorted')\n",
        },
    )
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    found = [f for f in result.findings if f.code == "PE211"]
    assert [(f.line, f.column) for f in found] == [(10, 5), (16, 5)]
    assert found[0].fix == "Write the file's path as it is: 'references/standard_workflow.md'."
    assert found[1].message == (
        "names 'assets/report_template.md' as a file of the skill, and it is not in the skill "
        "folder"
    )


def test_a_path_through_a_layout_the_collection_lacks_to_a_sibling_skill_names_it(
    tmp_path: Path,
) -> None:
    # The collection once kept its skills under document-skills/; now they sit side by side.
    body = (
        "See `document-skills/pptx/SKILL.md` for building the deck.\n"  # line 8
        "- `document-skills/pptx/editing.md` - editing an existing deck\n"  # same layout: once
        "See `vendor/tools/SKILL.md` for the rest.\n"  # no skill of that name beside it
    )
    write_files(
        tmp_path,
        {
            "spike-sorting/SKILL.md": HEAD + body,
            "pptx/SKILL.md": "---\nname: pptx\ndescription: Builds decks.\n---\n",
            "pptx/editing.md": "# Editing\n",
        },
    )
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    found = [f for f in result.findings if f.code == "PE211"]
    assert [(f.line, f.column) for f in found] == [(8, 6)]
    assert found[0].message == (
        "names 'document-skills/pptx/SKILL.md', which is not a path from this skill's folder; "
        "the 'pptx' skill beside it holds 'SKILL.md'"
    )
    assert found[0].fix.startswith("Name the 'pptx' skill rather than a path into it")
    checked = {path for path, _ in result.outside_checks}
    assert str(tmp_path / "pptx" / "SKILL.md") in checked


def test_a_folder_named_with_a_final_slash_must_be_there(tmp_path: Path) -> None:
    body = (
        "## Templates\n\n"  # lines 8-9
        "- `assets/probe_maps/`: one map per probe type\n"  # 10: a folder the skill lacks
        "- `assets/curation/`: curation sheets\n"  # 11: a folder it has
        "- `assets/`: everything above\n"  # 12: the top folder alone is layout
    )
    write_files(
        tmp_path / "spike-sorting",
        {"SKILL.md": HEAD + body, "assets/curation/sheet.csv": "unit,label\n"},
    )
    result = score_skill(tmp_path / "spike-sorting", Config(), "spike-sorting")
    found = [(f.line, f.column, f.message, f.fix) for f in result.findings if f.code == "PE211"]
    assert found == [
        (
            10,
            4,
            "names 'assets/probe_maps/' as a folder of the skill, and it is not in the skill "
            "folder",
            "Add the folder 'assets/probe_maps/' and what it should hold, or remove the mention.",
        )
    ]
