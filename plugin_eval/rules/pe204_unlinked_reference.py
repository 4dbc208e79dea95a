"""PE204: every file in references/ is pointed at from SKILL.md."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import TEXT_SUFFIXES, Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule, Setting, per_folder
from plugin_eval.rules.pe201_orphan_reference import BODY


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    candidates = [p for p in doc.listing.under("references") if p.lower().endswith(TEXT_SUFFIXES)]
    # What SKILL.md mentions is read only where there is such a file (most skills have none).
    if candidates:
        mentioned = facts.mentioned_files
        candidates = [path for path in candidates if path not in mentioned]
    if not candidates:
        return
    reached = facts.reached(candidates)  # files are read only when something is unlinked
    for folder, paths, shown in per_folder(p for p in candidates if p not in reached):
        if shown is not None:
            yield RULE.finding(
                f"{len(paths):,} files under '{folder}/' ({shown}) are never linked from "
                "SKILL.md, so the model never learns they exist",
                None,
                None,
                fix=f"Link an index of '{folder}/' from SKILL.md, or tell the model to search "
                f"it (`grep -rl TERM {folder}/`).",
            )
            continue
        for path in paths:
            yield RULE.finding(
                f"'{path}' is never linked from SKILL.md, so the model never learns it exists",
                None,
                None,
                fix=f"Link it where it helps: '[what it covers]({path})', or delete it.",
            )


RULE = Rule(
    code="PE204",
    flag="UNLINKED_REFERENCE",
    name="unlinked-reference",
    severity=Severity.INFO,
    subscore="progressive_disclosure",
    summary="Each Markdown or text file under references/ can be found from SKILL.md: linked "
    "or named there, inside a folder the body tells the model to search or look in (`grep "
    '-rl TERM references/api/`, "see the `references/` folder"), or linked from a Markdown file SKILL.md links (an index). More than '
    "three such files in one folder are one finding naming the folder and the count.",
    why="Progressive disclosure works only if SKILL.md says which file holds what; an unlinked "
    "reference is dead weight in the package.",
    fix="Link the file from the section that needs it.",
    bad=Example(
        {
            "SKILL.md": BODY.replace(
                "[the naming guide](references/naming.md)", "the naming guide"
            ),
            "references/naming.md": "# Naming\n",
        },
        expect=(Expect("PE204", "SKILL.md", None, None),),
    ),
    good=Example({"SKILL.md": BODY, "references/naming.md": "# Naming\n"}),
    source="Agent Skills specification (progressive disclosure); skill-validator orphan files",
    limits="A file named anywhere in SKILL.md counts as linked, even if nothing says what it "
    "holds. An index is followed one step, and only the first LINKED_FILES_READ linked "
    "Markdown files are read (each up to LINKED_FILE_BYTES). Files under scripts/ are PE208's; "
    "assets/ are not checked. The finding has no line, since the "
    "missing link has no place yet.",
    settings=(
        Setting("LINKED_FILES_READ", "linked Markdown files read for the files they link"),
        Setting("LINKED_FILE_BYTES", "bytes read of each"),
    ),
    links=(sources.SPEC,),
    check=check,
)
