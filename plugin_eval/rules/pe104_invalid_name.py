"""PE104: `name` must be 1–64 lowercase letters, digits and single hyphens."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.budgets import NAME_CHARS
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import (
    GOOD_SKILL,
    Example,
    Expect,
    Rule,
    Setting,
    field_location,
    folder_name,
)

# The words Anthropic reserves in skill names (PE112).
RESERVED = regexes.compile(r"anthropic|claude", re.IGNORECASE)


def name_problems(name: str) -> list[str]:
    """Why a name breaks the specification's format (empty list when it is fine)."""
    problems = []
    if len(name) > NAME_CHARS:
        problems.append(f"is {len(name)} characters (max {NAME_CHARS})")
    if name != name.lower():
        problems.append("has uppercase letters")
    if name.startswith("-") or name.endswith("-"):
        problems.append("starts or ends with '-'")
    if "--" in name:
        problems.append("contains '--'")
    bad = sorted({ch for ch in name if not (ch.isalnum() or ch == "-")})
    if bad:
        problems.append("contains " + " ".join(repr(ch) for ch in bad))
    return problems


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    name = doc.frontmatter.get("name")
    if not isinstance(name, str) or not name.strip():
        return
    problems = name_problems(name)
    if problems:
        folder = folder_name(doc)
        line, column = field_location(doc, "name")
        yield RULE.finding(
            f"name '{name}' " + "; ".join(problems),
            line,
            column,
            # The folder's own name, when it is a valid one with no reserved word: nothing
            # else to rename.
            fix=f"Use the folder's name: 'name: {folder}'."
            if folder and not name_problems(folder) and RESERVED.search(folder) is None
            else "Use lowercase letters, digits and single hyphens, e.g. "
            f"'name: {suggested(name)}' (and rename the folder to match).",
        )


def slug(name: str) -> str:
    """``name`` as the specification allows one: lowercase words joined by single hyphens."""
    words = "".join(ch if ch.isalnum() else " " for ch in name.lower()).split()
    return "-".join(words)[:NAME_CHARS].strip("-")


def suggested(name: str) -> str:
    """A name to propose for ``name``: its slug without the reserved words (or a placeholder
    when nothing is left)."""
    return "-".join(w for w in RESERVED.sub("", slug(name)).split("-") if w) or "csv-tools"


RULE = Rule(
    code="PE104",
    flag="NAME_INVALID",
    name="invalid-name",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="`name` is at most 64 characters of lowercase letters (Unicode letters allowed), "
    "digits and hyphens, with no leading, trailing or double hyphen.",
    why="The reference validator rejects other names, and harnesses use the name as a command "
    "and a folder name.",
    fix="Rename to lowercase-with-hyphens and rename the folder to match.",
    bad=Example(
        {
            "SKILL.md": "---\nname: Example_Skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\n---\n\n# Body\n"
        },
        folder="Example_Skill",
        expect=(Expect("PE104", "SKILL.md", 2, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Agent Skills specification; skills-ref validator",
    limits="It checks the characters and the length the specification allows, not whether the name "
    "says what the skill does.",
    settings=(Setting("NAME_CHARS", "the longest name allowed, in characters"),),
    links=(sources.SPEC, sources.SKILLS_REF),
    check=check,
)
