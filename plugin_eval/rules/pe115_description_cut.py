"""PE115: a description that looks cut off at a length limit."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, field_location
from plugin_eval.textsearch import one_line

# Lengths that tools and copy scripts cut text at: a description of exactly one of them that
# stops without closing its sentence was cut there, not written so.
CUT_LENGTHS = frozenset({100, 128, 150, 200, 250, 255, 256, 300, 500, 512, 1000, 1024})
# What a finished description ends with: a sentence's end, or a closing mark after one.
CLOSED = tuple(".!?)]}\"'`*>…。！？）」』")


def looks_cut(description: str | None) -> bool:
    """Whether ``description`` stops mid-sentence at a length tools cut text at."""
    text = (description or "").strip()
    return len(text) in CUT_LENGTHS and not text.endswith(CLOSED)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    value = doc.description
    if value is None or not looks_cut(value):
        return
    text = value.strip()
    line, column = field_location(doc, "description")
    yield RULE.finding(
        f"description is exactly {len(text)} characters and stops mid-sentence "
        f"('…{one_line(text[-30:], 30)}'): it looks cut at a length limit, and what followed "
        "(often when to use the skill) is lost",
        line,
        column,
    )


RULE = Rule(
    code="PE115",
    flag="DESCRIPTION_CUT",
    name="description-cut",
    severity=Severity.WARNING,
    subscore="frontmatter_quality",
    summary="The description does not stop mid-sentence at a length that tools cut text at "
    "(200, 250, 256, 500, 1,024 characters …).",
    why="A description copied or generated through a tool that truncates loses its end: "
    "usually the 'Use when …' clause a router picks the skill by. A description of exactly 200 "
    "or 500 characters that ends without closing its sentence was cut, not written so.",
    fix="Write the description out in full (at most 1,024 characters), ending its last sentence.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: "
            + (
                "Formats CSV reports with consistent headers, quoting and column order, "
                "and cleans column names for exports. Use when exporting tables to share, "
                "cleaning column names, or merging CSV files from several sourc"
            )[:200]
            + "\n---\n\n# Body\n"
        },
        expect=(Expect("PE115", "SKILL.md", 3, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="plugin-eval (descriptions cut at 200 and 500 characters in published collections)",
    limits="Only a description of exactly one of those lengths is read, and only its last "
    "character: one cut at another length, or cut right after a full stop, is not seen; one "
    "that ends a list without a full stop at exactly 200 characters is reported.",
    check=check,
)
