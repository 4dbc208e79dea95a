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
