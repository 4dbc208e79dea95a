"""PE203: links should stay inside the skill folder."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from plugin_eval.analysis import MAX_CLIMB, Facts, RefStatus
from plugin_eval.document import SKILL_FILE, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.rules.pe201_orphan_reference import BODY


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for ref in facts.references:
        if ref.status is RefStatus.OUTSIDE:
            # Another skill's SKILL.md beside this one: a pointer to that skill, not content.
            parts = posixpath.normpath(ref.path).split("/")
            sibling = parts[1] if len(parts) == 3 and parts[0] == ".." else None
            yield RULE.finding(
                f"link '{ref.target}' leaves the skill folder; it breaks when the skill is "
                "installed on its own (not followed)",
                ref.line,
                ref.column,
                fix=f"Name the '{sibling}' skill in words (e.g. 'see the {sibling} skill') "
                "instead of linking its file: each skill is installed in a folder of its own."
                if sibling is not None and parts[2] == SKILL_FILE
                else None,
            )
        elif ref.status is RefStatus.AWAY:
            where = (
                "an absolute path"
                if not ref.path.startswith("..")
                else f"past the collection around the skill: more than {MAX_CLIMB} folders up, "
                "to the home folder or the root, or into a hidden folder"
            )
            yield RULE.finding(
                f"link '{ref.target}' leaves the skill folder for a file on the machine it is "
                f"read on ({where}); it breaks when the skill is installed (never looked up)",
                ref.line,
                ref.column,
                fix="Write the path relative to the skill folder and ship the file in it.",
            )
        elif ref.status is RefStatus.SYMLINK:
            yield RULE.finding(
                f"link '{ref.target}' goes through a symlink; symlinks are not followed",
                ref.line,
                ref.column,
                fix="Copy the file into the skill folder instead of linking it.",
            )


RULE = Rule(
    code="PE203",
    flag="LINK_OUTSIDE_SKILL",
    name="link-outside-skill",
    severity=Severity.WARNING,
    subscore="harness_portability",
    summary="Relative links and images stay inside the skill folder and do not go through "
    "symlinks. Targets outside are never read.",
    why="Skills are installed by copying one folder; anything outside it is missing on the "
    "user's machine.",
    fix="Copy what the skill needs into references/ or assets/ and link it there.",
    bad=Example(
        {
            "SKILL.md": BODY.replace("references/naming.md", "../shared/naming.md"),
            "../shared/naming.md": "# Naming\n",
        },
        expect=(Expect("PE203", "SKILL.md", 8, 21),),
    ),
    good=Example({"SKILL.md": BODY, "references/naming.md": "# Naming\n\nUse snake_case.\n"}),
    source="Agent Skills specification (file references)",
    limits="Every existing target outside the folder is reported, even a sibling that is always "
    "installed with the skill (a shared file in the same plugin). An absolute path, or a "
    "relative one past the collection around the skill (more than 4 folders up, up to the "
    "home folder or the root, or into a hidden folder such as `.ssh`), is reported whether or "
    "not it exists, and never looked up: whether a file exists on the machine that scores a "
    "skill is not the skill's to learn.",
    links=(sources.SPEC,),
    check=check,
)
