"""References come from the Markdown parse: code and URLs are never references."""

from __future__ import annotations

from pathlib import Path

import pytest

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.results import SkillResult
from tests.conftest import CORPUS_REAL, MakeSkill, codes, score, write_files

HEAD = "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, cleaning column names, or merging CSV files.\n---\n\n"


def test_paths_in_code_and_urls_are_not_references(make_skill: MakeSkill) -> None:
    body = (
        "# Title\n\n"
        "Inline `references/missing.md` and `[x](references/gone.md)` are code.\n\n"
        "```markdown\n[link](references/nope.md)\nsee skills/other/SKILL.md\n```\n\n"
        "    [indented](references/indented.md)\n\n"
        "A URL https://example.com/references/remote.md and [site](https://x.org/references/a.md).\n"
    )
    result = score(make_skill(HEAD + body))
    assert not {"PE201", "PE202", "PE203"} & set(codes(result))


def test_missing_link_image_and_prose_path_are_reported_with_lines(make_skill: MakeSkill) -> None:
    body = (
        "# Title\n\n"
        "See [guide](references/guide.md).\n\n"
        "![chart](assets/chart.png)\n\n"
        "Details live in references/extra.md for later.\n"
    )
    result = score(make_skill(HEAD + body))
    found = [(f.code, f.line, f.column) for f in result.findings if f.code == "PE201"]
    assert found == [("PE201", 8, 5), ("PE201", 10, 1), ("PE201", 12, 17)]


def test_a_link_in_a_row_of_an_output_template_is_an_example(make_skill: MakeSkill) -> None:
    """A placeholder beside the link makes the row part of the document the model writes; a
    task-list box, a reference-style link or a bracket with no letter does not."""
    body = (
        "# Title\n\n## Code Elements\n\n"
        "- [c4-code-file-1.md](./c4-code-file-1.md) - [Description]\n"
        "- [ ] [checklist](references/checklist.md)\n"
        "- [guide](references/guide.md) - see [the plan][plan] and [1]\n\n"
        "[plan]: references/plan.md\n"
    )
    result = score(make_skill(HEAD + body))
    found = [(f.code, f.path, f.line, f.column) for f in result.findings if f.code == "PE201"]
    assert found == [
        ("PE201", "example-skill/SKILL.md", 11, 7),
        ("PE201", "example-skill/SKILL.md", 12, 3),
        ("PE201", "example-skill/SKILL.md", 12, 38),
    ]


@pytest.mark.parametrize(
    ("target", "real"),
    [("FORMS.md", "forms.md"), ("References/Api.md", "references/api.md")],
)
def test_a_target_that_differs_only_in_case_names_the_real_file(
    make_skill: MakeSkill, target: str, real: str
) -> None:
    result = score(make_skill(HEAD + f"# T\n\nFill in [it]({target}).\n", files={real: "# F\n"}))
    found = [(f.code, f.line, f.column, f.fix) for f in result.findings if f.code == "PE201"]
    assert found == [("PE201", 8, 9, f"Write the path as the file is named: '{real}'.")]
    (finding,) = [f for f in result.findings if f.code == "PE201"]
    assert finding.message.startswith(f"link '{target}' matches '{real}' only in letter case")


def test_a_target_whose_file_is_in_another_folder_names_that_file_in_the_fix(
    make_skill: MakeSkill,
) -> None:
    # `reference/` for `references/`: the one file of that name is what the link meant; with
    # two of that name the fix cannot choose.
    body = "# T\n\nSee [the workflow](reference/workflow.md) and [the notes](notes/api.md).\n"
    files = {
        "references/workflow.md": "# W\n",
        "references/api.md": "# A\n",
        "docs/api.md": "# A\n",
    }
    result = score(make_skill(HEAD + body, files=files))
    found = [(f.line, f.column, f.fix) for f in result.findings if f.code == "PE201"]
    assert found == [
        (8, 5, "Write the path as the file is: 'references/workflow.md'."),
        (8, 47, "Create 'notes/api.md' or correct the path."),
    ]


def test_existing_targets_and_anchors_are_fine(make_skill: MakeSkill) -> None:
    body = (
        "# Title\n\n[guide](references/guide.md#part) and [top](#title) and [mail](mailto:a@b.c)\n"
    )
    result = score(make_skill(HEAD + body, files={"references/guide.md": "# Guide\n"}))
    assert "PE201" not in codes(result)


def test_link_out_of_the_folder_to_nothing_is_a_dead_cross_ref(make_skill: MakeSkill) -> None:
    result = score(make_skill(HEAD + "# T\n\nSee [other](../other-skill/SKILL.md).\n"))
    assert [(f.code, f.line) for f in result.findings if f.code.startswith("PE2")] == [("PE202", 8)]


def test_a_link_to_a_sibling_skill_is_told_to_name_the_skill(tmp_path: Path) -> None:
    body = (
        "# Title\n\n## Related Skills\n\n- [testing](../testing-patterns/SKILL.md)\n"
        "- [shared notes](../shared/notes.md)\n"
    )
    write_files(
        tmp_path / "design-patterns",
        {"SKILL.md": HEAD.replace("example-skill", "design-patterns") + body},
    )
    write_files(tmp_path / "testing-patterns", {"SKILL.md": HEAD + "# T\n"})
    write_files(tmp_path / "shared", {"notes.md": "# N\n"})
    result = score_skill(tmp_path / "design-patterns", Config(), "design-patterns")
    found = [(f.path, f.line, f.column, f.fix) for f in result.findings if f.code == "PE203"]
    assert found == [
        (
            "design-patterns/SKILL.md",
            10,
            3,
            "Name the 'testing-patterns' skill in words (e.g. 'see the testing-patterns skill') "
            "instead of linking its file: each skill is installed in a folder of its own.",
        ),
        (
            "design-patterns/SKILL.md",
            11,
            3,
            "Copy what the skill needs into references/ or assets/ and link it there.",
        ),
    ]


def test_link_out_of_the_folder_to_a_sibling_warns_but_is_not_read(make_skill: MakeSkill) -> None:
    make_skill(HEAD.replace("example-skill", "other-skill") + "# Other\n", folder="other-skill")
    result = score(make_skill(HEAD + "# T\n\nSee [other](../other-skill/SKILL.md).\n"))
    assert [f.code for f in result.findings if f.code.startswith("PE2")] == ["PE203"]


def test_absolute_path_is_never_followed(make_skill: MakeSkill) -> None:
    result = score(make_skill(HEAD + "# T\n\nSee [passwd](/etc/passwd).\n"))
    assert [f.code for f in result.findings if f.code.startswith("PE2")] == ["PE203"]


ON_CALL = CORPUS_REAL / "wshobson-agents/incident-response/skills/on-call-handoff-patterns"


@pytest.mark.skipif(not ON_CALL.exists(), reason="shared corpus-real not present")
def test_on_call_handoff_reports_its_two_dead_links() -> None:
    result = score(ON_CALL)
    dead = [(f.flag, f.line) for f in result.findings if f.code in ("PE201", "PE202")]
    assert dead == [("DEAD_CROSS_REF", 69), ("DEAD_CROSS_REF", 70)]


def test_messages_and_columns_use_the_path_as_written(make_skill: MakeSkill) -> None:
    result = score(make_skill(HEAD + "# T\n\nSee the [notes](references/notés.md).\n"))
    (finding,) = [f for f in result.findings if f.code == "PE201"]
    assert "'references/notés.md'" in finding.message
    assert (finding.line, finding.column) == (8, 9)


def _unlinked(tmp_path: Path, body: str, files: dict[str, str]) -> list[str]:
    skill = (
        "---\nname: geo-tiles\ndescription: Builds map tiles. Use when rendering GeoJSON layers, "
        "cutting vector tiles, or styling basemaps.\n---\n\n# Geo tiles\n\n" + body
    )
    write_files(tmp_path / "geo-tiles", {"SKILL.md": skill, **files})
    result = score_skill(tmp_path / "geo-tiles", Config(select=["PE204"]), "g")
    return [f.message for f in result.findings]


def test_a_file_named_by_its_unique_file_name_is_not_unlinked(tmp_path: Path) -> None:
    body = "## References\n\n- `tippecanoe_flags.md`: every flag, with defaults\n"
    assert _unlinked(tmp_path, body, {"references/tippecanoe_flags.md": "# Flags\n"}) == []


def test_a_path_written_in_prose_is_not_unlinked(tmp_path: Path) -> None:
    body = "For styles, read references/styles/mapbox.md before editing a layer.\n"
    assert _unlinked(tmp_path, body, {"references/styles/mapbox.md": "# Styles\n"}) == []


def test_a_file_name_shared_by_two_files_names_neither(tmp_path: Path) -> None:
    body = "See `notes.md` for details.\n"
    files = {"references/a/notes.md": "a", "references/b/notes.md": "b"}
    assert _unlinked(tmp_path, body, files) == [
        "'references/a/notes.md' is never linked from SKILL.md, so the model never learns it "
        "exists",
        "'references/b/notes.md' is never linked from SKILL.md, so the model never learns it "
        "exists",
    ]


def _not_reached(result: SkillResult) -> list[tuple[str, str]]:
    return [(f.code, f.message) for f in result.findings if f.code in ("PE204", "PE208")]


def test_many_unlinked_files_of_one_folder_are_one_finding(make_skill: MakeSkill) -> None:
    files = {f"references/api/r{i}.md": "# R\n" for i in range(5)}
    result = score(make_skill(HEAD + "# T\n\nSteps.\n", files=files))
    assert _not_reached(result) == [
        (
            "PE204",
            "5 files under 'references/api/' (r0.md, r1.md, r2.md …) are never linked from "
            "SKILL.md, so the model never learns they exist",
        )
    ]


def test_files_an_index_links_or_a_searched_folder_holds_are_reached(
    make_skill: MakeSkill,
) -> None:
    files = {f"references/api/r{i}.md": "# R\n" for i in range(5)}
    files["references/INDEX.md"] = "# Index\n\n" + "".join(
        f"- [r{i}](api/r{i}.md)\n" for i in range(3)
    )
    files["references/guides/g.md"] = "# G\n"
    body = (
        "# T\n\nFind the endpoint in [the index](references/INDEX.md).\n\n"
        "For anything else, `grep -rl TERM references/api/` and read the hit.\n"
    )
    result = score(make_skill(HEAD + body, files=files))
    assert _not_reached(result) == [
        (
            "PE204",
            "'references/guides/g.md' is never linked from SKILL.md, so the model never "
            "learns it exists",
        )
    ]


def test_a_folder_the_body_points_to_in_a_code_span_reaches_its_files(
    make_skill: MakeSkill,
) -> None:
    files = {
        "scripts/pcr_template.py": "print('pcr')\n",
        "scripts/dilution_template.py": "print('dilution')\n",
        "references/plates.md": "# Plates\n",
    }
    # A code span written as a folder, in a paragraph that says to look there.
    body = "# T\n\nSteps.\n\nFor protocol templates to start from, see the `scripts/` folder.\n"
    result = score(make_skill(HEAD + body, files=files))
    assert _not_reached(result) == [
        (
            "PE204",
            "'references/plates.md' is never linked from SKILL.md, so the model never "
            "learns it exists",
        )
    ]
    # The same folder named with no word of looking there points nowhere.
    body = "# T\n\nSteps.\n\nThe `scripts/` folder was added in 2024.\n"
    assert [code for code, _ in _not_reached(score(make_skill(HEAD + body, files=files)))] == [
        "PE204",
        "PE208",
        "PE208",
    ]


def test_a_script_a_mentioned_script_uses_is_not_unmentioned(make_skill: MakeSkill) -> None:
    files = {
        "scripts/check.py": "from dates import parse\n\nprint(parse('x'))\n",
        "scripts/dates.py": "def parse(text):\n    return text\n",
        "scripts/fix.py": "print('fix')\n",
        "scripts/test_check.py": "def test_it():\n    pass\n",
    }
    body = "# T\n\n```bash\npython scripts/check.py in.csv\n```\n"
    result = score(make_skill(HEAD + body, files=files))
    assert _not_reached(result) == [
        ("PE208", "'scripts/fix.py' is never mentioned in SKILL.md, so the model never runs it")
    ]


def test_an_absolute_link_is_reported_the_same_whether_or_not_it_exists_here(
    make_skill: MakeSkill, tmp_path: Path
) -> None:
    # Never looked up: a report must not tell its reader which files the scoring machine has.
    here = tmp_path / "present.md"
    here.write_text("x")
    body = HEAD + f"See [the notes]({here}) and [the rules](/home/me/notes/csv-rules.md).\n"
    found = [f for f in score(make_skill(body)).findings if f.code in ("PE202", "PE203")]
    assert [(f.code, f.line, f.column) for f in found] == [
        ("PE203", 6, 5),
        ("PE203", 6, 5 + len(f"[the notes]({here}) and ")),
    ]
    assert found[0].message == found[1].message.replace("/home/me/notes/csv-rules.md", str(here))
    assert "an absolute path" in found[0].message and "never looked up" in found[0].message
    assert found[0].fix == "Write the path relative to the skill folder and ship the file in it."


def test_a_link_climbing_past_the_collection_is_never_looked_up(make_skill: MakeSkill) -> None:
    body = (
        HEAD + "See [shadow](../../../../../etc/shadow) and [sibling](../json-export/SKILL.md).\n"
    )
    found = [f for f in score(make_skill(body)).findings if f.code in ("PE202", "PE203")]
    assert [(f.code, f.line, f.column) for f in found] == [("PE203", 6, 5), ("PE202", 6, 45)]
    assert "more than 4 folders up" in found[0].message


def test_a_link_into_a_hidden_folder_or_to_the_home_folder_is_never_looked_up(
    make_skill: MakeSkill,
) -> None:
    body = HEAD + "See [keys](../.ssh/id_rsa) and [env](../other/.env).\n"
    found = [f for f in score(make_skill(body)).findings if f.code in ("PE202", "PE203")]
    assert [(f.code, f.line, f.column) for f in found] == [("PE203", 6, 5), ("PE203", 6, 32)]
    assert all("into a hidden folder" in f.message for f in found)
