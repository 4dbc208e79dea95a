"""PE211: a file of the skill that the body names in a code span is in the folder."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.textsearch import Columns

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
SPAN_PATH = regexes.compile(r"(?:\./)?(?P<path>(?P<top>[\w-][\w.-]*)/[\w./-]*[\w])")
# Words that make the path on their line an illustration, not a file the skill ships.
EXAMPLE = regexes.compile(
    r"\be\.g\.|\b(?:for\s+(?:example|instance)|examples?|such\s+as|like)\b", re.IGNORECASE
)
# A word that points the reader at a file, with no sentence end between it and the path.
POINTER = regexes.compile(
    r"(?:\b(?:see|refer(?:s|red)?|read|load|open|consult|reference)\b|→|->)[^.!?]*$",
    re.IGNORECASE,
)
# What may come before a path that heads a list item or a table cell: the marker, emphasis.
LEADING = regexes.compile(r"\s*(?:[-*+]|\d{1,9}[.)]|\|)?\s*(?:\*\*|__|\*|_)?\s*")
# Folders that hold a skill's own files whether or not this skill has one (the first two are
# the specification's references/ and a common variant); any folder the skill has counts too.
SKILL_FOLDERS = frozenset({"references", "reference"})


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    listing = doc.listing
    seen: set[str] = set()
    columns = Columns(doc.line_text)
    # Built at the first path that is missing (most skills have none): links, and the code
    # spans by line (a sibling skill named near a path).
    linked: set[tuple[int, str]] | None = None
    names: dict[int, list[str]] = {}
    for span in doc.inline_code:
        if "/" not in span.text:
            continue  # no path: the cheap test before the pattern
        match = SPAN_PATH.fullmatch(span.text.strip())
        if match is None:
            continue
        top = match.group("top")
        if top not in SKILL_FOLDERS and not listing.has_dir(top):
            continue  # a folder the skill does not have: it may be the user's project's
        path = posixpath.normpath(match.group("path"))
        if path.startswith("../") or path in seen or path in listing.files:
            continue
        if listing.has_dir(path):
            continue
        if linked is None:
            linked = {(link.line, link.target) for link in doc.links}
            for other in doc.inline_code:
                names.setdefault(other.line, []).append(other.text.strip())
        if (span.line, match.group(0)) in linked:
            continue
        line = doc.line_text(span.line)
        if EXAMPLE.search(line.replace(f"`{span.text}`", " ")):
            continue
        before = line[: max(0, line.find(f"`{span.text}`"))]
        # Named as a file to open: after a word that points at it in the same sentence ("See
        # `…`", "refer to `…`", "→ `…`"), or heading an item of a list or table of files. A
        # path in a sentence about layout ("keeps its detail in `references/…`") is not.
        if not POINTER.search(before) and not (
            span.block in ("list", "table") and LEADING.fullmatch(before)
        ):
            continue
        # "`lora-recipes`'s `references/mapping.md`": a file of a sibling skill named with it.
        near_names = [n for at in range(span.line - 2, span.line + 1) for n in names.get(at, ())]
        if any(facts.sibling_has(name, path) for name in near_names if "/" not in name):
            continue
        seen.add(path)
        column = columns.find(span.line, f"`{span.text}`") + 1
        name = posixpath.basename(path).lower()
        near = [f for f in listing.files if posixpath.basename(f).lower() == name]
        if len(near) == 1:
            yield RULE.finding(
                f"names '{path}', which is not in the skill folder; the file is '{near[0]}'",
                span.line,
                column,
                fix=f"Write the file's path as it is: '{near[0]}'.",
            )
        else:
            yield RULE.finding(
                f"names '{path}' as a file of the skill, and it is not in the skill folder",
                span.line,
                column,
            )


RULE = Rule(
    code="PE211",
    flag="MISSING_NAMED_FILE",
    name="missing-named-file",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary='A file that the body points to in a code span ("See `references/api.md`", '
    '"refer to `assets/dashboard.json`", or heading an item of a list or table of files) is '
    "in the skill folder: the span is only a relative path, under references/ (or "
    "reference/) or under a folder the skill has. Each missing path is reported once, at its "
    "first mention; where a file of that name is elsewhere in the skill, the finding names it.",
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
    "`cat references/api.md`; commands that run scripts are MISSING_SCRIPT's, PE206). A path "
    "under a folder the skill does not have (other than references/) may be the user's "
    "project's, and is not checked: `assets/logo.png` in a skill with no assets/ is missed. "
    "A line that calls the path an example ('e.g.', 'such as', 'for example') is not read, "
    "nor a path in a sentence that does not point to it (no 'see', 'refer to', 'read', "
    "'open', 'load', 'consult', '→' before it, and not heading a list item or table "
    "cell). A path that a sibling skill named in a code span on its line or the two before holds is that skill's ('`lora-recipes`'s `references/mapping.md`'), checked for "
    "existence only.",
    links=(sources.SPEC,),
    check=check,
)
