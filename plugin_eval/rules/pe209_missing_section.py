"""PE209: a pointer to a section of SKILL.md names a section that is there."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.textsearch import occurrences

HEAD = (
    "---\nname: example-skill\ndescription: Reviews database migrations for locking problems. "
    "Use when a migration alters a large table or adds an index.\n---\n\n# Migration review\n\n"
)
BODY = HEAD + (
    "Check each statement against the list in **Locking Rules** below.\n\n"
    "## Steps\n\n1. Read the migration.\n2. Flag each statement that locks a table.\n"
)

# Pointers written in prose, on the raw line so that bold and quotes delimit the name:
# "see **Common Tasks** below", "as described in the Configuration section", "see the
# 'Setup' section", and a same-file link to an anchor, "[the rules](#locking-rules)".
POINTERS = regexes.compile(
    r"\b(?i:see|in|under|check|follow|per|from|read|consult|refer\s+to)\s+(?:the\s+)?"
    r"\*\*(?P<bold>[^*\n]{3,60})\*\*"
    r"(?:\s+section)?\s+(?:below|above)\b"
    r"|\b(?i:in|see|under|check|follow|per|from|read|consult|refer\s+to)\s+the\s+(?:\*\*|[\"“'`])"
    r"(?P<quoted>[^*\"”'`\n]{3,60})(?:\*\*|[\"”'`])\s+section\b"
    r"|\b(?i:in|see|under|check|follow|per|from|read|consult|refer\s+to)\s+the\s+"
    r"(?P<titled>(?:[A-Z][\w&/-]*\s+){0,4}[A-Z][\w&/-]*)\s+section\b"
    r"|\]\(#(?P<anchor>[^)\s]+)\)"
)


def _plain(text: str) -> str:
    """A heading or name as compared: lower case, letters, digits and single spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(re.sub(r"[^\w\s-]", " ", text).replace("-", " ").split())


def _within(part: str, whole: str) -> bool:
    """Whether ``part`` is ``whole`` or a run of its whole words: "setup" is within "setup
    and install", "api" is not within "rapid start"."""
    return bool(part) and f" {part} " in f" {whole} "


def _slug(text: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", text).lower().strip()
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))


def _may_point(text: str) -> bool:
    """Cheap test of a line before the pattern runs: what every pointer must contain."""
    return (
        "section" in text
        or "](#" in text
        or ("**" in text and ("below" in text or "above" in text))
    )


# A line that _may_point at holds one of these: "section", "](#", or "below" or "above".
_WORDS = ("section", "](#", "below", "above")


def _lines_holding(text: str, words: tuple[str, ...]) -> list[int]:
    """The lines of ``text`` (1-based, ascending) that hold one of ``words`` (none holding a
    line feed): one search of the text for each, where most lines hold none."""
    lines: list[int] = []
    line, counted = 1, 0
    for at in occurrences(text, words):
        line += text.count("\n", counted, at)
        counted = at
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    # Only the lines that hold one of the words are read: most files hold none.
    candidates = [
        (n, t) for n in _lines_holding(doc.text, _WORDS) if _may_point(t := doc.line_text(n))
    ]
    if candidates:  # a pointer is read on the first line of a paragraph, list item or cell
        starts = {p.line for p in doc.prose if p.block != "heading"}
        candidates = [(n, t) for n, t in candidates if n in starts]
    if not candidates:
        return
    names: list[str] | None = None
    slugs: set[str] = set()
    for line, text in candidates:
        for match in POINTERS.finditer(text):
            if _elsewhere(text, match):
                continue
            if names is None:  # the headings, compared only when a pointer is found
                names, slugs = _headings(doc)
            anchor = match.group("anchor")
            if anchor is not None:
                if anchor.lower() in slugs or _slug(anchor) in slugs:
                    continue
                shown, what = f"#{anchor}", "links to the anchor"
            else:
                name = match.group("bold") or match.group("quoted") or match.group("titled")
                wanted = _plain(name)
                if not wanted or any(_within(wanted, h) or _within(h, wanted) for h in names):
                    continue
                shown, what = name.strip(), "points to a section"
            yield RULE.finding(
                f"{what} '{shown}', but SKILL.md has no heading by that name",
                line,
                match.start() + 1,
                fix="Add the section, or point to the heading as it is written.",
            )


# After the name: "… section of the paper", "… section in your report": another document's.
_OTHER_DOCUMENT = regexes.compile(r"\s+(?:of|in|from)\s+(?!this\b|the\s+skill\b)\S")


def _elsewhere(text: str, match: re.Match[str]) -> bool:
    """Whether a pointer is about another document: quoted as an example ('"In the Methods
    section…"' in a list of phrases to write), or a section of something else."""
    if match.group("anchor") is not None:
        return False
    if match.start() > 0 and text[match.start() - 1] in "\"“'":
        return True
    return _OTHER_DOCUMENT.match(text, match.end()) is not None


def _headings(doc: SkillDocument) -> tuple[list[str], set[str]]:
    """Each heading as compared with a name, and every anchor GitHub gives the headings
    (a repeated heading gets -1, -2 …)."""
    names = [_plain(h.text) for h in doc.headings]
    slugs: set[str] = set()
    seen: dict[str, int] = {}
    for h in doc.headings:
        slug = _slug(h.text)
        slugs.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return names, slugs


RULE = Rule(
    code="PE209",
    flag="MISSING_SECTION",
    name="missing-section",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="A pointer to a section of SKILL.md names a heading that exists: 'see **Locking "
    "Rules** below', 'as described in the Configuration section', 'see the \"Setup\" "
    "section', or a link to an anchor in the same file (`[rules](#locking-rules)`, matched "
    "with GitHub's heading anchors).",
    why="The model looks for the section it was sent to, finds nothing, and works without the "
    "rules the author meant to give it.",
    fix="Add the section, or point to the heading as it is written.",
    bad=Example({"SKILL.md": BODY}, expect=(Expect("PE209", "SKILL.md", 8, 39),)),
    good=Example(
        {
            "SKILL.md": BODY
            + "\n## Locking Rules\n\n- `ALTER TABLE … ADD COLUMN … DEFAULT` rewrites the table.\n"
        }
    ),
    source="plugin-eval",
    limits="English pointers only, and only to SKILL.md's own headings: a name in bold before "
    "'below' or 'above', a quoted or Title Case name before 'section', or a `#anchor` link. "
    "A name that is whole words of a heading (or contains one) counts as found, so a loose "
    "pointer ('the Setup section' for '## Setup and install') passes, while letters inside a "
    "word do not ('## API' is not 'Rapid start'). The pointer opens with see, "
    "read, refer to, consult, check, follow, in, under, per or from, on the first line of a "
    "paragraph, list item or cell; one inside quotation marks (an example of what to "
    "write: '\"In the Methods section…\"') or naming a section of something else ('the "
    "Methods section of the manuscript') is not read as a pointer.",
    check=check,
)
