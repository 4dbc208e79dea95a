"""PE308: every section below a heading says something."""

from __future__ import annotations

from collections.abc import Iterator

from markdown_it.token import Token

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule
from plugin_eval.textsearch import one_line


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    tokens = doc.tokens
    # The end of a body cut short by a limit (PE005) is not the end of the file.
    whole = not any(p.kind is Problem.TOO_LARGE for p in doc.problems)
    for i, tok in enumerate(tokens):
        # Sections of the body itself: a heading in a list or a quote is that block's.
        if tok.type != "heading_open" or tok.level or tok.map is None:
            continue
        level = int(tok.tag[1:])
        if level == 1:  # the title: what follows it is the whole skill
            continue
        if _paragraph_made_heading(tokens, i):
            # A paragraph made a heading by a '---' right under it (a rule meant, with no
            # blank line before it): its text is the content, not an empty section's title.
            continue
        title = one_line(tokens[i + 1].content, 48) if i + 1 < len(tokens) else ""
        after = i + 3  # heading_open, inline, heading_close
        if after < len(tokens):
            nxt = tokens[after]
            if (
                nxt.type != "heading_open"
                or int(nxt.tag[1:]) > level
                or nxt.map is None
                or _paragraph_made_heading(tokens, after)  # content, as above
            ):
                continue
            heading = one_line(tokens[after + 1].content, 48)
            then = (
                f"the heading '{heading}' (line {doc.body_start + nxt.map[0]}) follows it, with "
                "nothing between them"
            )
        elif whole:
            then = "nothing follows it before the end of the file"
        else:
            continue
        line = doc.body_start + tok.map[0]
        text = doc.lines[line - 1] if line <= len(doc.lines) else ""
        yield RULE.finding(
            f"section '{title}' is empty: {then}",
            line,
            len(text) - len(text.lstrip(" \t")) + 1,  # where the heading starts
        )


def _paragraph_made_heading(tokens: tuple[Token, ...], at: int) -> bool:
    """Whether the heading opened at ``tokens[at]`` is a paragraph of several lines that a
    '---' or '===' line under it turned into a heading."""
    return (
        tokens[at].markup in ("-", "=") and at + 1 < len(tokens) and "\n" in tokens[at + 1].content
    )


RULE = Rule(
    code="PE308",
    flag="EMPTY_SECTION",
    name="empty-section",
    severity=Severity.INFO,
    subscore="structural_completeness",
    summary="Every heading below the title has something under it before the next heading of "
    "its level or higher (or the end of the file).",
    why="An empty section is a promise the skill does not keep: the model reads a heading such "
    "as '❌ Skipping Signature Verification' or 'Sharp Edges' with no explanation, fix or "
    "example under it, and has only the words of the title to act on.",
    fix="Write what the section should say, or delete the heading.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "\n## Anti-patterns\n\n## Sharp edges\n\nQuote every field.\n"},
        expect=(Expect("PE308", "SKILL.md", 10, 1),),
    ),
    good=Example(
        {
            "SKILL.md": GOOD_SKILL + "\n## Anti-patterns\n\n### Unquoted fields\n\nQuote every "
            "field.\n"
        }
    ),
    source="Anthropic skill authoring guidance (concise, complete instructions)",
    limits="A heading followed by a deeper one is a parent, not empty; the title (level 1) is "
    "not read, nor a paragraph of several lines that a '---' under it makes a heading; a "
    "section that holds only an HTML comment or a blank table counts as holding something. "
    "Headings inside lists and blockquotes are not read.",
    check=check,
)
