"""PE206 names the sibling skill that ships a script the body runs, and the cache re-checks
that sibling's file."""

from __future__ import annotations

from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from tests.conftest import write_files

SKILL = (
    "---\nname: lab-report\ndescription: Writes lab reports. Use when turning assay results "
    "into a report.\n---\n\n# Lab report\n\nUse the `figure-maker` skill to draw each figure:\n"
    "\n```bash\npython scripts/draw_figure.py --out fig1.png\n```\n"
)
SIBLING = "---\nname: figure-maker\ndescription: Draws figures. Use when a chart is needed.\n---\n"


def test_the_finding_names_the_sibling_and_the_check_is_recorded(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "lab-report/SKILL.md": SKILL,
            "figure-maker/SKILL.md": SIBLING,
            "figure-maker/scripts/draw_figure.py": "print('ok')\n",
        },
    )
    result = score_skill(tmp_path / "lab-report", Config(), "lab-report")
    [finding] = [f for f in result.findings if f.code == "PE206"]
    assert (finding.path, finding.line, finding.column) == ("lab-report/SKILL.md", 11, 8)
    assert finding.message == (
        "runs 'scripts/draw_figure.py', which is not in the skill folder: it is the "
        "'figure-maker' skill's, and the command runs it from this skill's folder"
    )
    assert finding.fix == (
        "Point the command at the 'figure-maker' skill's copy, or ship the script in this "
        "skill's scripts/."
    )
    script = str(tmp_path / "figure-maker" / "scripts" / "draw_figure.py")
    assert (script, True) in result.outside_checks


def test_a_path_that_climbs_out_is_never_looked_for_in_a_sibling(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "lab-report/SKILL.md": SKILL.replace("scripts/draw_figure.py", "scripts/../../x.py"),
            "figure-maker/SKILL.md": SIBLING,
            "x.py": "print('outside')\n",
        },
    )
    result = score_skill(tmp_path / "lab-report", Config(), "lab-report")
    assert [f for f in result.findings if f.code == "PE206"] == []
    assert not any(path.endswith("x.py") for path, _ in result.outside_checks)


def test_a_script_is_looked_for_in_a_bounded_number_of_named_skills(tmp_path: Path) -> None:
    from plugin_eval import budgets

    many = budgets.NAMED_SKILLS_SEARCHED + 4
    names = "".join(f"Use the `helper-{i}` skill for step {i}.\n" for i in range(many))
    skill = SKILL.replace("Use the `figure-maker` skill to draw each figure:\n", names)
    files = {"lab-report/SKILL.md": skill}
    for i in range(many):
        files[f"helper-{i}/SKILL.md"] = SIBLING.replace("figure-maker", f"helper-{i}")
    files[f"helper-{many - 1}/scripts/draw_figure.py"] = "print('ok')\n"  # past the bound
    write_files(tmp_path, files)
    result = score_skill(tmp_path / "lab-report", Config(), "lab-report")
    looked = [path for path, _ in result.outside_checks if path.endswith("draw_figure.py")]
    assert len(looked) == budgets.NAMED_SKILLS_SEARCHED
    assert [f for f in result.findings if f.code == "PE206"] == []


def test_a_path_from_the_repository_root_is_reported_once_with_the_path_that_works(
    tmp_path: Path,
) -> None:
    # The collection's README runs every command from its root; installed, the skill sits in
    # ~/.claude/skills/lab-report/ and the user's project holds no skills/ folder.
    body = (
        "---\nname: lab-report\ndescription: Writes lab reports. Use when turning assay "
        "results into a report.\n---\n\n# Lab report\n\n```bash\n"
        "python skills/lab-report/scripts/summarise.py results.csv\n"  # line 9
        "python skills/lab-report/scripts/summarise.py --plot results.csv\n"  # the same path
        "python skills/lab-report/scripts/tabulate.py results.csv\n"  # not shipped
        "python skills/figure-maker/scripts/draw_figure.py --out fig1.png\n"  # line 12
        "```\n"
    )
    write_files(
        tmp_path,
        {"lab-report/SKILL.md": body, "lab-report/scripts/summarise.py": "print('ok')\n"},
    )
    result = score_skill(tmp_path / "lab-report", Config(), "lab-report")
    found = [f for f in result.findings if f.code == "PE206"]
    assert [(f.line, f.column) for f in found] == [(9, 8), (11, 8), (12, 8)]
    assert found[0].message == (
        "runs 'skills/lab-report/scripts/summarise.py', a path from the root of the repository "
        "that holds the skill: installed, the skill is not there, and the command fails"
    )
    assert found[0].fix == "Write the path from the skill's folder: 'scripts/summarise.py'."
    assert found[1].message.endswith("; 'scripts/tabulate.py' is not in the skill folder either")
    assert found[2].message == (
        "runs 'skills/figure-maker/scripts/draw_figure.py', the 'figure-maker' skill's script by "
        "a path from the root of the repository that holds both: installed, the skills are not "
        "there, and the command fails"
    )
    assert found[2].fix.startswith("Say that this skill needs the 'figure-maker' skill")
