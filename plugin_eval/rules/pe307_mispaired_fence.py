"""PE307: no fence with a language sits inside a code block it was meant to close or nest in."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import CodeBlock, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule
from plugin_eval.textsearch import one_line

# A line of a block's content that would open a fence: up to three spaces, a run of three or
# more backticks or tildes, then, after spaces or tabs, an info string (a language). Only
# spaces and tabs are stripped before it, as CommonMark does (a no-break space is info); a
# backtick fence's info holds no backtick (```` ```x``` ```` is a code span, not a fence).
OPENER = regexes.compile(
    r"^( {0,3})(`{3,}(?!`)[ \t]*[^` \t\n][^`\n]*|~{3,}(?!~)[ \t]*[^ \t\n][^\n]*)$", re.MULTILINE
)


def first_opener(block: CodeBlock) -> tuple[int, int, str] | None:
    """The first line of ``block`` that would open a fence of its own kind and at least its
    length: its offset in the content (in lines), its column and its text."""
    marker = block.marker
    for match in OPENER.finditer(block.content):
        fence = match.group(2)
        run = len(fence) - len(fence.lstrip(fence[0]))  # the whole run: (?!`) and (?!~)
        if fence[0] == marker[0] and run >= len(marker):
            row = block.content.count("\n", 0, match.start())
            return row, len(match.group(1)) + 1, fence.strip()
    return None


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    # Fences pair from the top of the file: after the first line reported, a block "opened"
    # at a fence may be one the author meant to close, paired wrong by what is above it.
    first: int | None = None
    for block in doc.code_blocks:
        if not block.fenced or not block.marker or block.quotes:
            continue
        found = first_opener(block)
        if found is None:
            continue
        row, column, text = found
        line = block.line + 1 + row
        # The column in the file: a block in a list item has its content de-indented.
        if line <= len(doc.lines) and (at := doc.lines[line - 1].find(text)) >= 0:
            column = at + 1
        char, size = block.marker[0], len(block.marker)
        if row == 0:
            fix = f"Delete the fence at line {block.line}: the block is opened twice."
        else:
            fix = (
                f"If the block at line {block.line} is an example that holds fenced blocks, "
                f"open and close it with more {'backticks' if char == '`' else 'tildes'} than "
                f"they use ('{char * (size + 1)}markdown' … '{char * (size + 1)}'); otherwise "
                f"close it before this line, or delete the fence at line {block.line} if it "
                "is a stray one."
            )
        if first is not None:
            fix = (
                f"Fix the first fence reported above (line {first}) and read again: fences "
                "pair from the top of the file, so this block may have been opened by a fence "
                f"meant to close one. If it still is reported: {fix[0].lower()}{fix[1:]}"
            )
        else:
            first = line
        # Right after the opening fence, it is a doubled opener: read as the code's first
        # line, and the block still closes where it was meant to.
        effect = (
            "so it shows as the first line of the code (a doubled opening fence)"
            if row == 0
            else "so it is read as code and the fences below pair up wrong (code renders as "
            "text, text as code)"
        )
        yield RULE.finding(
            f"'{one_line(text, 40)}' sits inside the code block opened at line {block.line}: a "
            f"fence with a language never closes a block, {effect}",
            line,
            column,
            fix=fix,
        )


RULE = Rule(
    code="PE307",
    flag="MISPAIRED_CODE_FENCE",
    name="mispaired-code-fence",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="No line inside a fenced code block opens a fence of its kind with a language "
    "(```` ```bash ```` inside a block opened by ```` ``` ````): such a line is the sign of a "
    "template whose nested blocks close it early, or of a block left open where the author "
    "meant to close it.",
    why="A fence closes a block only without a language. From the first such line on, each "
    "fence pairs with the wrong one wherever the skill is rendered (its repository page, a "
    "marketplace, any Markdown viewer or tool that parses it): examples show as prose, their "
    "`#` comments as headings, and the instructions between them as code. A model reading the "
    "raw text is left to guess where each example ends. The file can still end with every "
    "fence closed, which is why PE304 does not see it.",
    fix="Open a block that holds fenced examples with a longer fence (````` ````markdown `````), "
    "delete a doubled opening fence, or close the block before the next one opens.",
    bad=Example(
        # A doubled opening fence: the second is the first line of the code.
        {"SKILL.md": GOOD_SKILL + "\n```python\n```python\nprint('hi')\n```\n"},
        expect=(Expect("PE307", "SKILL.md", 11, 1),),
    ),
    good=Example(
        {
            "SKILL.md": GOOD_SKILL
            + "\n````markdown\n# Runbook\n\n```bash\nkubectl get pods\n```\n\n## Escalate\n````\n"
        }
    ),
    source="CommonMark: fenced code blocks",
    limits="Reported once per block, at the first such line; after the first of the file the fix "
    "says to fix that one first. A block inside a blockquote is "
    "not read. A fence with no language inside a block closes it, as CommonMark says, and is "
    "not reported here (PE304 reports a fence left open at the end).",
    links=(sources.COMMONMARK,),
    check=check,
)
