"""PE204: every file in references/ is pointed at from SKILL.md."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.rules.pe201_orphan_reference import BODY

TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".rst")


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    mentioned = facts.mentioned_files
    for path in doc.listing.under("references"):
        if not path.lower().endswith(TEXT_SUFFIXES) or path in mentioned:
            continue
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
    summary="Each Markdown or text file under references/ is linked (or named) from SKILL.md.",
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
    "holds; files under scripts/ and assets/ are not checked. The finding has no line, since the "
    "missing link has no place yet.",
    links=(sources.SPEC,),
    check=check,
)
