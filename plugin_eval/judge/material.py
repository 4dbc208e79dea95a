"""What the judge is shown: the whole SKILL.md and the list of its supporting files.

The skill goes to the model as data inside a fence it cannot close: the fence's name is
derived from a hash of the content, so no text in the skill can end it early. A SKILL.md
longer than ``SKILL_CHARS`` is shown as a deterministic excerpt, said in the prompt and in the
report: its first ``HEAD_CHARS`` characters, every Markdown heading of the part left out (so
the judge sees what it covers), and its last ``TAIL_CHARS`` characters.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from plugin_eval.document import SKILL_FILE, SkillDocument
from plugin_eval.walk import read_file

# About 15,000 tokens of skill at four characters a token: a typical SKILL.md (a few
# thousand tokens) is always shown whole; the bound keeps a judgement's cost predictable.
SKILL_CHARS = 60_000
HEAD_CHARS = 45_000
TAIL_CHARS = 10_000
LISTED_FILES = 60
FIRST_LINE_CHARS = 120
FIRST_LINE_BYTES = 512


@dataclass(frozen=True, repr=False)
class Material:
    text: str  # what goes between the fences
    fence: str
    # What a quote may come from: SKILL.md whole and the listing, whitespace normalised.
    quotable: str
    excerpt: str | None  # how SKILL.md was cut, when it was
    listed: int  # supporting files listed
    unlisted: int  # supporting files left off the list


def _first_line(doc: SkillDocument, rel: str) -> str:
    try:
        head = read_file(doc.folder / rel, FIRST_LINE_BYTES)
    except OSError:
        return ""
    if b"\0" in head:
        return "(binary)"
    for line in head.decode("utf-8", "replace").splitlines():
        if line.strip():
            line = " ".join(line.split())
            return line if len(line) <= FIRST_LINE_CHARS else line[: FIRST_LINE_CHARS - 1] + "…"
    return ""


def _excerpt(text: str) -> tuple[str, str | None]:
    if len(text) <= SKILL_CHARS:
        return text, None
    head, middle, tail = text[:HEAD_CHARS], text[HEAD_CHARS:-TAIL_CHARS], text[-TAIL_CHARS:]
    headings = [line for line in middle.splitlines() if line.lstrip().startswith("#")]
    how = (
        f"SKILL.md is {len(text):,} characters; the judge saw its first {HEAD_CHARS:,}, the "
        f"{len(headings)} heading(s) of the {len(middle):,} characters between, and its last "
        f"{TAIL_CHARS:,}"
    )
    gap = (
        f"\n[… {len(middle):,} characters left out; their headings follow …]\n"
        + "\n".join(headings)
        + "\n[… end of the left-out part …]\n"
    )
    return head + gap + tail, how


def material(doc: SkillDocument) -> Material:
    """The judge's view of one skill, the same for the same folder."""
    body, how = _excerpt(doc.text)
    others = [f for f in doc.listing.files if f != SKILL_FILE]
    shown = others[:LISTED_FILES]
    lines = [(rel, _first_line(doc, rel)) for rel in shown]
    listing = "\n".join(f"- {rel}: {first}" if first else f"- {rel}" for rel, first in lines)
    if len(others) > len(shown):
        listing += f"\n- … and {len(others) - len(shown)} more file(s)"
    text = f"=== {SKILL_FILE} ===\n{body}\n=== supporting files (first line of each) ===\n"
    text += listing or "(none)"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    quotable = normalised(doc.text) + "\n" + normalised(listing)
    return Material(text, f"SKILL-{digest}", quotable, how, len(shown), len(others) - len(shown))


def normalised(text: str) -> str:
    """Whitespace runs as one space, trimmed: how quotes and the skill are compared."""
    return " ".join(text.split())
