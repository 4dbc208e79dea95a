"""PE212: the links inside the supporting files SKILL.md links resolve, relative to the file."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from urllib.parse import unquote

from plugin_eval import budgets, regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument, link_path, parse_markdown, resolve_link
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule, Setting
from plugin_eval.textsearch import one_line

HEAD = (
    "---\nname: example-skill\ndescription: Writes error responses for an HTTP API. Use when "
    "adding an endpoint, mapping exceptions to status codes, or reviewing error bodies.\n---\n\n"
    "# Example skill\n\nStatus codes are in [the error guide](references/errors.md), fields in "
    "[the field list](references/fields.md).\n"
)
# Written from the skill folder, as SKILL.md would write it: from references/ it is
# references/references/fields.md.
GUIDE = "# Errors\n\nEach body carries the fields of [the field list](references/fields.md).\n"
# An inline link's destination, at a first guess ("[x](<a b>)" or "a(b).md" are guessed wrong,
# and so parsed); and a line that opens or closes a fence, at any indentation (a fence in a
# list item is indented with the item).
_LINK = regexes.compile(r"\]\(\s*([^)\s]*)")
FENCE = regexes.compile(r"^[ \t]*(```|~~~)", re.MULTILINE)


def _dead(target: str, base: str, present: set[str]) -> str | None:
    """Where ``target``, a link destination in a file of folder ``base``, resolves inside the
    skill when nothing is there; None when it is there, leaves the folder, or is no path."""
    resolved = resolve_link(target, base)
    if resolved is None or resolved == ".." or resolved.startswith("../") or resolved in present:
        return None  # no path, outside the folder (another rule's), or there
    return resolved


def _suspects(raw: bytes, base: str, present: set[str]) -> list[tuple[int, int, str]]:
    """The lines of ``raw`` outside fenced code with a link whose destination, at a first
    guess, is not there: (line number, indentation taken off, the line without it). Only
    these are parsed, each on its own; a file whose links all resolve is never parsed, and
    its fences are looked for only when one may not."""
    if b"](" not in raw:
        return []
    source = raw.decode("utf-8", "replace")
    hits = [
        m.start()
        for m in _LINK.finditer(source)
        if m[1].startswith("<") or _dead(m[1], base, present) is not None
    ]
    if not hits:
        return []
    # Fence lines and suspect links in order: a link between an opening fence and the next
    # fence of the same characters is code.
    marks = sorted([(m.start(), m[1]) for m in FENCE.finditer(source)] + [(h, "") for h in hits])
    found: list[tuple[int, int, str]] = []
    fence: str | None = None
    line, at, last = 1, 0, 0
    for offset, kind in marks:
        if kind:
            if fence is None:
                fence = kind
            elif kind == fence:
                fence = None
            continue
        line += source.count("\n", at, offset)
        at = offset
        if fence is not None or line == last:
            continue
        start = source.rfind("\n", 0, offset) + 1
        end = source.find("\n", offset)
        whole = source[start : end if end >= 0 else len(source)]
        text = whole.lstrip()
        found.append((line, len(whole) - len(text), text))
        last = line
        if len(found) >= budgets.LINKS_READ_PER_FILE:
            break
    return found


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    listing = doc.listing
    texts = facts.linked_texts
    if not texts or not listing.complete:
        return
    present = {*listing.files, *listing.symlinks, *listing.others, *listing.folders}
    present.update(
        posixpath.dirname(f) for f in listing.files if "/" in f
    )  # folders that hold files, if the listing did not name them
    room = budgets.LINK_BYTES_READ
    for rel, raw in texts.items():
        base = posixpath.dirname(rel)
        lines: list[tuple[int, int, str]] = []
        for number, indent, text in _suspects(raw, base, present):
            if room <= 0:
                break
            lines.append((number, indent, text[:room]))
            room -= len(text.encode())
        if not lines:
            continue
        joined = "\n\n".join(text for _, _, text in lines).encode("utf-8", "surrogateescape")
        parsed = parse_markdown(joined, posixpath.basename(rel))
        seen: set[str] = set()
        for link in parsed.links:
            resolved = _dead(link.target, base, present)
            target = link_path(link.target)
            if resolved is None or target in seen:
                continue
            seen.add(target)
            number, indent, _ = lines[(link.line - 1) // 2]
            from_root = posixpath.normpath(unquote(target))
            if from_root in present and base:
                fix = f"Write it relative to '{rel}': '{posixpath.relpath(from_root, base)}'."
                why = f"; '{from_root}' is there: the link is written from the skill folder"
            elif base:
                fix = (
                    f"Correct the link: it resolves from '{base}/', the folder of '{rel}' "
                    f"(or add '{resolved}')."
                )
                why = ""
            else:
                fix = f"Correct the link, or add '{resolved}'."
                why = ""
            yield RULE.finding(
                f"link '{one_line(target, 80)}' in '{rel}' resolves to "
                f"'{one_line(resolved, 80)}', which is not in the skill folder{why}",
                number,
                indent + link.column,
                fix=fix,
                path=rel,
            )


RULE = Rule(
    code="PE212",
    flag="DEAD_LINK_IN_REFERENCE",
    name="dead-link-in-reference",
    severity=Severity.WARNING,
    subscore="progressive_disclosure",
    summary="Every relative link inside the Markdown files SKILL.md links or names resolves, "
    "relative to the file that holds it, to something in the skill folder. A link written "
    "from the skill folder (references/x.md inside references/) is named as such, with the "
    "path that works.",
    why="A model that opens a reference and follows its link finds nothing: relative links "
    "resolve from the file that holds them, not from SKILL.md.",
    fix="Correct the link relative to the file that holds it, or add the missing file.",
    bad=Example(
        {
            "SKILL.md": HEAD,
            "references/errors.md": GUIDE,
            "references/fields.md": "# Fields\n\n- `type`: a URI\n",
        },
        expect=(Expect("PE212", "references/errors.md", 3, 33),),
    ),
    good=Example(
        {
            "SKILL.md": HEAD,
            "references/errors.md": GUIDE.replace("(references/fields.md)", "(fields.md)"),
            "references/fields.md": "# Fields\n\n- `type`: a URI\n",
        }
    ),
    source="CommonMark (relative link destinations); skill-validator (broken relative links)",
    settings=(
        Setting("LINKED_FILES_READ", "linked Markdown files read"),
        Setting("LINKED_FILE_BYTES", "bytes read of each"),
        Setting("LINKS_READ_PER_FILE", "lines holding a link read in each"),
        Setting("LINK_BYTES_READ", "bytes of such lines parsed, in all the files of a skill"),
    ),
    limits="Only the first LINKED_FILES_READ Markdown files SKILL.md links or names are read, "
    "and in each only inline links outside fenced code, on the first LINKS_READ_PER_FILE "
    "lines that hold one that may be dead, up to LINK_BYTES_READ bytes of them in all; a link that leaves the skill folder, "
    "a URL and an anchor are not checked, nor are paths written in code. One finding per "
    "target per file, at its first link.",
    links=(sources.COMMONMARK,),
    check=check,
)
