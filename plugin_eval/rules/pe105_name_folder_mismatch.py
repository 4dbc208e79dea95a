"""PE105: `name` must equal the skill folder's name."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, field_location, folder_name
from plugin_eval.rules.pe104_invalid_name import RESERVED, name_problems, suggested


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    name = doc.frontmatter.get("name")
    if not isinstance(name, str) or not name.strip():
        return
    folder = folder_name(doc)
    if unicodedata.normalize("NFKC", name) != unicodedata.normalize("NFKC", folder):
        line, column = field_location(doc, "name")
        yield RULE.finding(
            f"name '{name}' differs from the folder name '{folder}'",
            line,
            column,
            fix=_fix(name, folder),
        )


def _fix(name: str, folder: str) -> str:
    """Make them one, to a name the specification allows (PE104 says what is wrong) that
    holds no reserved word (PE112)."""
    name_ok, folder_ok = _usable(name), _usable(folder)
    if name_ok and folder_ok:
        return f"Rename the folder to '{name}' or set 'name: {folder}'."
    if name_ok:
        return f"Rename the folder to '{name}' ('{folder}' {_why(folder)})."
    if folder_ok:
        return f"Set 'name: {folder}' ('{name}' {_why(name)})."
    example = suggested(name)
    reserved = RESERVED.search(name) or RESERVED.search(folder)
    without = " without 'claude' or 'anthropic'" if reserved else ""
    return f"Give the folder and 'name' one valid name{without}, e.g. '{example}'."


def _usable(name: str) -> bool:
    return not name_problems(name) and RESERVED.search(name) is None


def _why(name: str) -> str:
    return "is not a valid name, PE104" if name_problems(name) else "holds a reserved word, PE112"


RULE = Rule(
    code="PE105",
    flag="NAME_FOLDER_MISMATCH",
    name="name-folder-mismatch",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="The frontmatter `name` equals the name of the folder holding SKILL.md.",
    why="The reference validator reports a mismatch as an error; clients warn and may install "
    "the skill under a name its author did not choose.",
    fix="Rename the folder or the name so they match.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL}, folder="csv-helper", expect=(Expect("PE105", "SKILL.md", 2, 1),)
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Agent Skills specification; skills-ref validator",
    limits="Names are compared after Unicode NFKC normalisation, with the folder as found on disk: "
    "a skill checked from a renamed copy (a temporary checkout, a `-main` suffix) is reported.",
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
