"""PE201 ORPHAN_REFERENCE: a relative link inside the skill points at a missing file."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts, RefStatus
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule

BODY = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# Example skill\n\n"
    "Column rules are in [the naming guide](references/naming.md).\n"
)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    by_case: dict[str, str] | None = None
    template_rows: dict[int, bool] = {}
    for ref in facts.references:
        if ref.status is not RefStatus.MISSING:
            continue
        what = {"image": "image", "prose": "path"}.get(ref.kind, "link")
        if ref.path in doc.listing.others:
            yield RULE.finding(
                f"{what} '{ref.target}' points at a FIFO, socket or device, not a file: "
                "nothing can be read from it, and a harness installs only files",
                ref.line,
                ref.column,
                fix=f"Replace '{ref.path}' with a regular file.",
            )
            continue
        if ref.kind != "prose" and ref.line is not None:
            if ref.line not in template_rows:  # each line read once, however many it links
                template_rows[ref.line] = _template_row(doc.line_text(ref.line))
            if template_rows[ref.line]:
                continue
        if by_case is None:  # built once, for skills that have a missing target at all
            listing = doc.listing
            by_case = {p.casefold(): p for p in (*listing.files, *listing.folders)}
        real = by_case.get(ref.path.casefold())
        if real is not None:
            yield RULE.finding(
                f"{what} '{ref.target}' matches '{real}' only in letter case: it resolves on "
                "case-insensitive file systems (macOS, Windows) and is dead on Linux",
                ref.line,
                ref.column,
                fix=f"Write the path as the file is named: '{real}'.",
            )
            continue
        # A file of that name elsewhere in the skill is what the path most likely meant.
        near = facts.files_by_name.get(posixpath.basename(ref.path).casefold(), [])
        yield RULE.finding(
            f"{what} '{ref.target}' points at a file that does not exist in the skill folder",
            ref.line,
            ref.column,
            fix=f"Write the path as the file is: '{near[0]}'."
            if len(near) == 1
            else f"Create '{ref.path}' or correct the path.",
        )


# A placeholder written beside a link: a capitalised name in brackets that is not itself a
# link ("[Description]", "[Component Name]"; a shortcut reference such as "[guide]" is not
# capitalised); and a link (inline, or by reference: "[the plan][plan]"), which is taken out
# of the line before looking.
_PLACEHOLDER = regexes.compile(r"\[[A-Z][^\[\]\n]{1,40}\](?![(\[:])")
_LINK = regexes.compile(r"!?\[[^\[\]\n]*\](?:\([^()\n]*\)|\[[^\[\]\n]*\])")


def _template_row(text: str) -> bool:
    """Whether the line ``text`` is a row of a template for the document the model writes
    ("- [c4-code-file-1.md](./c4-code-file-1.md) - [Description]"): a placeholder beside its
    links says they are examples of the output, not files of the skill."""
    return "[" in text and _PLACEHOLDER.search(_LINK.sub("", text)) is not None


RULE = Rule(
    code="PE201",
    flag="ORPHAN_REFERENCE",
    name="orphan-reference",
    severity=Severity.ERROR,
    anti_pattern=True,
    summary="Every relative link, image and `references/…` path written in prose resolves to a "
    "file inside the skill folder. Text in fenced, indented or inline code and URLs is never "
    "read as a reference.",
    why="The model follows the link when it needs the detail and finds nothing: the skill "
    "promises instructions it does not ship.",
    fix="Add the missing file or fix the path (paths are relative to SKILL.md).",
    bad=Example({"SKILL.md": BODY}, expect=(Expect("PE201", "SKILL.md", 8, 21),)),
    good=Example({"SKILL.md": BODY, "references/naming.md": "# Naming\n\nUse snake_case.\n"}),
    source="PluginEval anti-patterns; Agent Skills specification (file references)",
    limits="A `references/…` path in prose without a link counts only when it names a file "
    "(has an extension) or something that exists: 'a references/citations section' is words. "
    "A target that differs from a file only in letter case is reported as dead (it is, "
    "on Linux), with the file's real name in the fix, and so is the one file of the same name "
    "in another folder of the skill (`reference/api.md` for `references/api.md`); a target that is a FIFO, socket or "
    "device is never opened and is reported as such. "
    "A link or image on a line that also holds a capitalised placeholder in brackets "
    "('- [x.md](./x.md) - [Description]') is a row of a template for the model's output, and "
    "is not checked. "
    "Links, images and `references/…` paths in prose are checked; other bare paths in "
    "prose (`scripts/run.py` without a link) are not. Links inside the files SKILL.md links "
    "are PE212's.",
    links=(sources.SPEC,),
    check=check,
)
