"""PE211: a file of the skill that the body names in a code span is in the folder."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import Prose, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.rules.pe212_dead_link_in_reference import FENCE
from plugin_eval.walk import Listing

HEAD = (
    "---\nname: example-skill\ndescription: Builds Grafana dashboards. Use when adding a "
    "panel, templating a variable, or provisioning a dashboard.\n---\n\n# Dashboards\n\n"
)
BODY = HEAD + (
    "Start from the panel layout in `references/panels.md`.\n\n"
    "**Reference:** see `references/variables.md` for templated variables.\n"
)
PANELS = "# Panels\n\nOne row per service.\n"

# A code span that is only a relative path: a first folder, then at least one more part.
# A final "/" (`assets/templates/`) names a folder.
SPAN_PATH = regexes.compile(r"(?:\./)?(?P<path>(?P<top>[\w-][\w.-]*)/[\w./-]*[\w])(?P<folder>/)?")
# Words that make the path an illustration, not a file the skill ships (read around it).
EXAMPLE = regexes.compile(
    r"\be\.g\.|\b(?:for\s+(?:example|instance)|such\s+as|like)\b", re.IGNORECASE
)
# "example" or "examples" right before the path ("an example: `x`"): it illustrates; the
# word further off names what a file holds ("if detailed examples are needed, open `x`").
JUST_EXAMPLE = regexes.compile(r"\bexamples?\W{0,3}\Z", re.IGNORECASE)
# A word that points the reader at a file (read in the path's sentence, before it).
# "Reference" points only as a label right before the path ("**Reference:** `…`"): "sees the
# reference to `…`" tells of one.
POINTER = regexes.compile(
    r"\b(?:see|refer(?:s|red)?|read|load|open|consult)\b|\breference\W{0,6}\Z|→|->",
    re.IGNORECASE,
)
# What may come before a path that heads a list item or a table cell: the marker, emphasis.
LEADING = regexes.compile(r"\s*(?:[-*+]|\d{1,9}[.)]|\|)?\s*(?:\*\*|__|\*|_)?\s*")
# Folders that hold a skill's own files whether or not this skill has one: the
# specification's references/, assets/ and scripts/, and two common variants of the first
# (reference/, resources/); any folder the skill has counts too.
SKILL_FOLDERS = frozenset({"references", "reference", "resources", "assets", "scripts"})
# How far around a path its words are read, in characters: a line of any length costs no more.
AROUND = 200
# Code spans looked at for a sibling skill's name before a path it holds (on the path's line
# or the two before it): at most this many names, among at most this many spans back.
NEAR_NAMES = 4
NEAR_SPANS = 16
# Parts of a path read for a skill beside this one in it (`a/b/pptx/SKILL.md`): at most this
# many, each part a look for that skill's file (existence only, within SIBLING_FILE_CHECKS).
STALE_PARTS = 6


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    listing = doc.listing
    seen: set[str] = set()
    stale_seen: set[tuple[str, str]] = set()
    # Built at the first path that is missing (most skills have none).
    linked: set[tuple[int, str]] | None = None
    # Where each span stands on its line: found from where the last one ended, so a line
    # holding thousands of spans is read once, not once per span.
    after: dict[int, int] = {}
    spans = doc.inline_code
    for index, span in enumerate(spans):
        line = doc.line_text(span.line)
        at = line.find("`" + span.text, after.get(span.line, 0))
        at = at + 1 if at >= 0 else line.find(span.text, after.get(span.line, 0))
        if at >= 0:
            after[span.line] = at + len(span.text)
        if "/" not in span.text or at < 0:
            continue  # no path (the cheap test before the pattern), or not found as written
        match = SPAN_PATH.fullmatch(span.text.strip())
        if match is None:
            continue
        if not _in_skill_folder(match.group("top"), listing):
            # A folder the skill does not have: it may be the user's project's, unless what
            # follows it is a skill beside this one ("`document-skills/pptx/SKILL.md`").
            stale = _stale_sibling_path(facts, match.group("path"), stale_seen)
            if stale is not None and _points_to(
                line, at, at + len(span.text), span.block in ("list", "table")
            ):
                yield _stale(stale, span.line, at + 1)
            continue
        path = posixpath.normpath(match.group("path"))
        if path.startswith("../") or path in seen or _there(path, listing):
            continue
        if linked is None:
            linked = {(link.line, link.target) for link in doc.links}
        if (span.line, match.group(0)) in linked:
            continue
        if not _points_to(line, at, at + len(span.text), span.block in ("list", "table")):
            continue
        # "`lora-recipes`'s `references/mapping.md`": a file of a sibling skill named with it.
        if any(facts.sibling_has(name, path) for name in _names_before(spans, index)):
            continue
        seen.add(path)
        yield _missing(path, span.line, at + 1, facts.files_by_name, bool(match["folder"]))
    # A heading that is only a path titles the file it describes ("### reference/api.md").
    for heading in doc.headings:
        match = SPAN_PATH.fullmatch(heading.text.strip().strip("`"))
        if match is None:
            continue
        path = posixpath.normpath(match.group("path"))
        if not _in_skill_folder(match.group("top"), listing):
            continue
        if path.startswith("../") or path in seen or _there(path, listing):
            continue
        seen.add(path)
        text = doc.line_text(heading.line)
        at = text.find(match.group(0))
        yield _missing(
            path,
            heading.line,
            at + 1 if at >= 0 else None,
            facts.files_by_name,
            bool(match["folder"]),
        )
    yield from _in_linked_files(doc, facts, seen)


def _in_skill_folder(top: str, listing: Listing) -> bool:
    """Whether a path whose first folder is ``top`` names a file of the skill: a folder the
    skill has, or one that holds a skill's own files whether or not it has it."""
    return top in SKILL_FOLDERS or listing.has_dir(top)


def _there(path: str, listing: Listing) -> bool:
    return path in listing.files or listing.has_dir(path)


def _stale_sibling_path(
    facts: Facts, path: str, seen: set[tuple[str, str]]
) -> tuple[str, str, str] | None:
    """Where ``path`` (which does not start in a folder of this skill) runs through a folder
    named for a skill beside this one whose rest that skill holds
    (`document-skills/pptx/SKILL.md` with a `pptx` skill holding `SKILL.md`): the path, that
    skill and the rest. Once per layout and skill; None otherwise."""
    parts = posixpath.normpath(path).split("/")
    if ".." in parts or len(parts) > STALE_PARTS:
        return None
    for at in range(1, len(parts) - 1):
        name, rest = parts[at], "/".join(parts[at + 1 :])
        key = ("/".join(parts[:at]), name)
        if key in seen:
            return None
        if facts.sibling_has(name, rest):
            seen.add(key)
            return path, name, rest
    return None


def _stale(found: tuple[str, str, str], line: int, column: int) -> Finding:
    path, name, rest = found
    return RULE.finding(
        f"names '{path}', which is not a path from this skill's folder; the '{name}' skill "
        f"beside it holds '{rest}'",
        line,
        column,
        fix=f"Name the '{name}' skill rather than a path into it: here its file is "
        f"'../{name}/{rest}', and no path works once the skills are installed apart.",
    )


def _missing(
    path: str,
    line: int,
    column: int | None,
    by_name: Mapping[str, Sequence[str]],
    folder: bool = False,
) -> Finding:
    """The finding for ``path``, named at ``line``: with the file of that name elsewhere in the
    skill (``by_name``: Facts.files_by_name), where there is exactly one. A path written with
    a final '/' names a folder."""
    if folder:
        return RULE.finding(
            f"names '{path}/' as a folder of the skill, and it is not in the skill folder",
            line,
            column,
            fix=f"Add the folder '{path}/' and what it should hold, or remove the mention.",
        )
    near = by_name.get(posixpath.basename(path).casefold(), ())
    if len(near) == 1:
        return RULE.finding(
            f"names '{path}', which is not in the skill folder; the file is '{near[0]}'",
            line,
            column,
            fix=f"Write the file's path as it is: '{near[0]}'.",
        )
    return RULE.finding(
        f"names '{path}' as a file of the skill, and it is not in the skill folder", line, column
    )


def _points_to(line: str, at: int, end: int, in_list: bool) -> bool:
    """Whether the path at ``line[at:end]`` is named as a file to open: after a word that
    points at it in the same sentence ("See `…`", "refer to `…`", "→ `…`"), or heading an item
    of a list or table of files; never where the line calls it an example. A path in a
    sentence about layout ("keeps its detail in `references/…`") is not."""
    start = max(0, at - AROUND)
    if (
        EXAMPLE.search(line, start, at)
        or EXAMPLE.search(line, end, end + AROUND)
        or JUST_EXAMPLE.search(line, start, max(start, at - 1)) is not None
    ):
        return False
    sentence = max(line.rfind(mark, start, at) for mark in ".!?") + 1
    return POINTER.search(line, max(start, sentence), at) is not None or (
        in_list and LEADING.fullmatch(line, 0, max(0, at - 1)) is not None
    )


# In a supporting file's raw text: a code span that is only a path (fence lines are
# DEAD_LINK_IN_REFERENCE's FENCE, read the same way).
RAW_SPAN = regexes.compile(r"(?<!`)`(?P<span>(?:\./)?[\w-][\w.-]*/[\w./-]*[\w])`(?!`)")
# A line that is an item of a list or a row of a table.
LIST_OR_ROW = regexes.compile(r"\s*(?:[-*+]\s|\d{1,9}[.)]\s|\|)")


def _in_linked_files(doc: SkillDocument, facts: Facts, seen: set[str]) -> Iterator[Finding]:
    """The same paths in the Markdown files SKILL.md links (read as PE212 reads them: the
    first few, each to a cap, code blocks left out), written from the skill folder or from
    the file's own; each path reported once over the skill, at its first mention."""
    listing = doc.listing
    if not listing.complete:
        return
    for rel, raw in facts.linked_texts.items():
        if b"`" not in raw or b"/" not in raw:
            continue
        base = posixpath.dirname(rel)
        fence: str | None = None
        for number, line in enumerate(raw.decode("utf-8", "replace").split("\n"), 1):
            opener = FENCE.match(line)
            if opener is not None:
                fence = None if fence == opener[1] else fence or opener[1]
                continue
            if fence is not None or "`" not in line:
                continue
            for match in RAW_SPAN.finditer(line):
                path = posixpath.normpath(match["span"].removeprefix("./"))
                if not _in_skill_folder(path.split("/", 1)[0], listing):
                    continue
                if path.startswith("../") or path in seen:
                    continue
                beside = posixpath.normpath(posixpath.join(base, path))
                if _there(path, listing) or _there(beside, listing):
                    continue
                if not _points_to(
                    line,
                    match.start("span"),
                    match.end("span"),
                    LIST_OR_ROW.match(line) is not None,
                ):
                    continue
                seen.add(path)
                yield RULE.finding(
                    f"'{rel}' names '{path}' as a file of the skill, and it is not in the skill "
                    "folder",
                    number,
                    match.start("span") + 1,
                    path=rel,
                )


def _names_before(spans: Sequence[Prose], index: int) -> list[str]:
    """The code spans just before ``spans[index]``, on its line or the two before it, that
    could name a sibling skill (no "/"): at most NEAR_NAMES of them, from the nearest, looking
    back over at most NEAR_SPANS spans."""
    line = spans[index].line
    found: list[str] = []
    for other in reversed(spans[max(0, index - NEAR_SPANS) : index]):
        if other.line < line - 2 or len(found) == NEAR_NAMES:
            break
        text = other.text.strip()
        if "/" not in text:
            found.append(text)
    return found


RULE = Rule(
    code="PE211",
    flag="MISSING_NAMED_FILE",
    name="missing-named-file",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary='A file that the body points to in a code span ("See `references/api.md`", '
    '"refer to `assets/dashboard.json`", or heading an item of a list or table of files) is '
    "in the skill folder: the span is only a relative path, under references/, assets/ or "
    "scripts/ (or reference/, resources/), or under another folder the skill has. The Markdown "
    "files SKILL.md links are read the same way, their paths written from the skill folder or "
    "from the file's own. A heading of SKILL.md that is only such a path (`### "
    "reference/api.md`) titles that file and is read too. Each missing path is reported once, "
    "at its first mention; where a file of that name is elsewhere in the skill, the finding "
    "names it (in SKILL.md). A path through folders the skill does not have to a skill beside "
    "it (`document-skills/pptx/SKILL.md` where a `pptx` skill sits beside this one) is a "
    "layout the collection no longer has, and the finding names that skill. A path written "
    "with a final '/' (`assets/biosketches/`) names a folder, which must be there.",
    why="The model opens the file the body points to when it needs the detail, and finds "
    "nothing. Links and prose paths are ORPHAN_REFERENCE's (PE201), which leaves code alone.",
    fix="Add the file, correct the path, or drop the mention.",
    bad=Example(
        {"SKILL.md": BODY, "references/panels.md": PANELS},
        expect=(Expect("PE211", "SKILL.md", 10, 21),),
    ),
    good=Example(
        {
            "SKILL.md": BODY,
            "references/panels.md": PANELS,
            "references/variables.md": "# Variables\n\nOne per data source.\n",
        }
    ),
    source="plugin-eval; Agent Skills specification (references/, assets/)",
    limits="Only a span that is a path and nothing else is read (`references/api.md`, not "
    "`cat references/api.md`; commands that run scripts are MISSING_SCRIPT's, PE206), and "
    "only where its sentence points to it (no 'see', 'refer to', 'read', 'open', 'load', "
    "'consult', '→', or a 'Reference:' label right before it, and not heading a list item or "
    "table cell: a path in a sentence about layout is not a claim). A span written with a final "
    "'/' (`assets/templates/`) names a folder, checked in SKILL.md only. In a linked file, spans "
    "are found in its text outside fenced code (one backtick each side), the first files and "
    "bytes only (as DEAD_LINK_IN_REFERENCE, PE212, reads them), and a sibling skill's name "
    "before a path is not looked for. A path into a skill beside this one is looked for "
    "only through a folder named as that skill, at most six parts deep, once per layout, and "
    "checked for existence only. A path under a folder other than references/, "
    "assets/, scripts/, reference/ or resources/ that the skill does not have (`docs/`, `src/`) may be the user's "
    "project's and is not checked; 'See `scripts/setup.sh` in your repository' is reported. "
    "A line that calls the path an example ('e.g.', 'such as', 'for example', or 'example:' "
    "right before it) is not read; 'examples' further off names what the file holds ('open "
    "`x.md` for detailed examples' is read). A "
    "path that a sibling skill named in a code span just before it holds is that skill's "
    "('`lora-recipes`'s `references/mapping.md`'), checked for existence only.",
    links=(sources.SPEC,),
    check=check,
)
