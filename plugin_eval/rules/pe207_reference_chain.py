"""PE207: supporting files are one link from SKILL.md, not reached through another file."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import MARKDOWN_SUFFIXES, Facts
from plugin_eval.document import SKILL_FILE, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule, Setting

HEAD = (
    "---\nname: example-skill\ndescription: Writes error responses for an HTTP API. Use when "
    "adding an endpoint, mapping exceptions to status codes, or reviewing error bodies.\n---\n\n"
    "# Example skill\n\n"
)
BODY = HEAD + "Status codes and bodies are in [the error guide](references/errors.md).\n"
GUIDE = "# Errors\n\nThe problem document fields are listed in [fields](fields.md).\n"
SHOWN = 3


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    candidates = [
        f for f in doc.listing.files if f.lower().endswith(MARKDOWN_SUFFIXES) and f != SKILL_FILE
    ]
    # What SKILL.md mentions is read only where there is such a file (about half the skills).
    if candidates:
        direct = facts.mentioned_files
        candidates = [f for f in candidates if f not in direct]
    if not candidates:
        return
    lines = {r.path: (r.line, r.column) for r in reversed(facts.references)}
    for rel in facts.linked_texts:
        further = sorted(facts.pointed_from(rel, candidates))
        if not further:
            continue
        shown = ", ".join(further[:SHOWN]) + (" …" if len(further) > SHOWN else "")
        line, column = lines.get(rel, (None, None))
        yield RULE.finding(
            f"'{rel}' links {len(further):,} file(s) SKILL.md does not ({shown}): the model "
            "reaches them two steps from SKILL.md and may read only part of them",
            line,
            column,
        )


RULE = Rule(
    code="PE207",
    flag="REFERENCE_CHAIN",
    name="reference-chain",
    severity=Severity.INFO,
    subscore="progressive_disclosure",
    summary="Supporting text files are linked from SKILL.md itself, one level deep: a file "
    "that SKILL.md links does not link on to further files of the skill that SKILL.md never "
    "names. One finding per linking file, at SKILL.md's link to it.",
    why="A model opens a file reached through another file less reliably, and may read only "
    "its start; the skill's detail is found when SKILL.md says where it is.",
    fix="Link the files the model needs from SKILL.md directly, each with what it holds; keep "
    "an index only for a tree too large to list.",
    bad=Example(
        {"SKILL.md": BODY, "references/errors.md": GUIDE, "references/fields.md": "# Fields\n"},
        expect=(Expect("PE207", "SKILL.md", 8, 32),),
    ),
    good=Example(
        {
            "SKILL.md": BODY + "The fields are in [the field list](references/fields.md).\n",
            "references/errors.md": GUIDE,
            "references/fields.md": "# Fields\n",
        }
    ),
    source="Anthropic skill authoring best practices (keep references one level deep)",
    settings=(
        Setting("LINKED_FILES_READ", "linked Markdown files read for the files they link"),
        Setting("LINKED_FILE_BYTES", "bytes read of each"),
    ),
    limits="Only the first LINKED_FILES_READ Markdown files SKILL.md links or names are read, "
    "and only Markdown files they point at count (not SKILL.md itself); scripts, assets and other files they name do not. A file "
    "that SKILL.md only names (no link) is reported without a line.",
    links=(sources.BEST_PRACTICES,),
    check=check,
)
