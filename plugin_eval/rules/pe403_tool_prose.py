"""PE403: prose that says "the Read tool" and the like."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule
from plugin_eval.rules.pe402_claude_tool_names import (
    CLAUDE_CODE,
    CLAUDE_TOOLS,
    ONE_WORD,
    for_claude_code,
)
from plugin_eval.textsearch import Columns, at_word_starts
from plugin_eval.triggering import STOPWORDS

# Matched at word starts (see textsearch.at_word_starts): "the Read tool", not "bathe Read tool".
# "the Read tool" ("Use Task tool …" at a sentence's start too), and an instruction naming a
# tool by itself: "Use WebFetch to load the page", "run Bash". The tool's name is matched with
# its capital (a verb "read" is not the Read tool), and not before a hyphen ("Read-only").
_NAMES = "|".join(sorted(CLAUDE_TOOLS))
TOOL_PROSE = regexes.compile(
    r"(?:(?:[Tt]he|[Uu]se|[Uu]sing|[Cc]all|[Ww]ith)\s+(?:" + _NAMES + r")\s+tool\b"
    r"|(?:[Uu]se|[Uu]sing|[Cc]all|[Rr]un|[Ii]nvoke)[ \t]+(?:the[ \t]+)?(?:" + _NAMES + r")\b"
    r"(?![\w-]|\s+tool\b))"
)


# A tool's name as a word: where every match of TOOL_PROSE has one. Searched for with
# at_word_starts, without a leading \b, so that ``re`` skips to the names' capitals.
_NAME = regexes.compile(r"(?:" + _NAMES + r")\b")
# How far before a name its phrase can start ("using the ") and after it end (" tool").
_BEFORE, _AFTER = 16, 16
# The word after a phrase, on its line.
_NEXT_WORD = regexes.compile(r"[ \t]+([A-Za-z][\w'-]*)")


def modifies_next(match: re.Match[str], text: str) -> bool:
    """Whether the phrase ends in a one-word tool name (ONE_WORD: 'Bash', 'Read') that the
    next word on its line shows to be another word's modifier: 'use Bash built-ins', 'use Grep
    patterns' speak of the shell and of the search syntax, not of the tools. The name stands
    alone as an instruction when what follows is a function word ('use Bash to …', 'run Read
    on …'), punctuation or nothing; a compound name ('WebFetch') is a tool wherever it stands."""
    name = match.group(0).rsplit(None, 1)[-1]
    if name == "tool" or ONE_WORD.fullmatch(name) is None:
        return False
    following = _NEXT_WORD.match(text, match.end())
    return following is not None and following.group(1).lower() not in STOPWORDS


def matches(text: str) -> Iterator[re.Match[str]]:
    """``at_word_starts(TOOL_PROSE, text)``, searched only around each tool name: the names
    are rare and found by one scan, where the phrase's many openings are not."""
    done = 0
    for name in at_word_starts(_NAME, text):
        at = max(done, name.start() - _BEFORE)
        end = min(len(text), name.end() + _AFTER)
        for match in at_word_starts(TOOL_PROSE, text, at, end):
            if match.start() <= name.start() < match.end():
                done = match.end()
                yield match
                break


# Words just before a phrase that turn it into what not to do ("Don't use WebFetch", "never
# call Bash"), and headers of a table column that holds what not to do ("| Don't | Do |").
_NEGATED = regexes.compile(
    r"(?:\bdon['\u2019]t|\bdo\s+not|\bnever|\bavoid|\binstead\s+of|\brather\s+than|\bnot"
    r"|\u274c|\u2717|\u2718)[\s:*_]*\Z",
    re.IGNORECASE,
)
_NEGATIVE_HEADER = regexes.compile(
    r"^\W*(?:don['\u2019]t|do\s+not|never|avoid|bad|wrong|incorrect|anti-?patterns?|"
    r"instead\s+of|not\s+this|\u274c|\u2717|\u2718)",
    re.IGNORECASE,
)


# A table's delimiter row ("|----|:---:|"): the line before it is the table's header.
_DELIMITER_ROW = regexes.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


def _not_to_do(doc: SkillDocument) -> dict[int, tuple[list[str], list[str]]]:
    """The table cells, by line: those in a column whose header says what not to do, and
    the others."""
    cells: dict[int, tuple[list[str], list[str]]] = {}
    header: list[str] = []
    row_line = -1
    column = 0
    heads = False
    for prose in doc.prose:
        if prose.block != "table":
            continue
        if prose.line != row_line:
            row_line, column = prose.line, 0
            heads = _DELIMITER_ROW.match(doc.line_text(prose.line + 1)) is not None
            if heads:
                header = []  # a new table's header row
        if heads:
            header.append(prose.text)
        else:
            negative = column < len(header) and _NEGATIVE_HEADER.search(header[column])
            cells.setdefault(prose.line, ([], []))[0 if negative else 1].append(prose.text)
        column += 1
    return cells


def _negated(match: re.Match[str], text: str, cells: tuple[list[str], list[str]] | None) -> bool:
    """Whether the phrase says what not to do: a negation just before it, or a cell of a
    column headed "Don't" when no other cell of its line holds it."""
    if _NEGATED.search(text, max(0, match.start() - 24), match.start()) is not None:
        return True
    if cells is None:
        return False
    phrase = match.group(0)
    return any(phrase in cell for cell in cells[0]) and not any(phrase in c for c in cells[1])


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    # As PE402: a skill whose description names Claude Code is written for it, and a line
    # that names the harness states a fact about it; neither assumes every harness has the tool.
    if for_claude_code(doc):
        return
    text = facts.prose_text
    columns = Columns(doc.line_text)
    # Each line read once, however many phrases it holds (one line may hold them all).
    names_harness: dict[int, bool] = {}
    # Each tool's phrases, in the order they come: (line, phrase).
    found: dict[str, list[tuple[int, str]]] = {}
    not_to_do: dict[int, tuple[list[str], list[str]]] | None = None
    for match in matches(text):
        if modifies_next(match, text):
            continue
        line = facts.prose_line(match.start())
        if not_to_do is None:
            not_to_do = _not_to_do(doc)
        if _negated(match, text, not_to_do.get(line)):
            continue
        if line not in names_harness:
            names_harness[line] = CLAUDE_CODE.search(doc.line_text(line)) is not None
        if names_harness[line]:
            continue
        named = _NAME.search(match.group(0))
        tool = named.group(0) if named else match.group(0)
        found.setdefault(tool, []).append((line, match.group(0)))
    # One finding per tool: its first phrase, and where else the prose names it so.
    for places in sorted(found.values(), key=lambda places: places[0][0]):
        line, phrase = places[0]
        more = sorted({at for at, _ in places[1:]} - {line})
        also = ""
        if len(places) > 1:
            shown = ", ".join(map(str, more[:5])) + (", …" if len(more) > 5 else "")
            also = f" ({len(places):,} times in all" + (f"; also line(s) {shown})" if more else ")")
        yield RULE.finding(
            f"'{phrase}' assumes Claude Code's tool names{also}",
            line,
            columns.find(line, phrase),
        )


RULE = Rule(
    code="PE403",
    flag="TOOL_NAME_PROSE",
    name="tool-name-prose",
    severity=Severity.INFO,
    subscore="harness_portability",
    summary="Prose does not say 'the Read tool', 'use the Bash tool', 'Use WebFetch to load "
    "…' and so on.",
    why="Other harnesses have no tool by that name; the instruction becomes noise there.",
    fix="Say what to do ('read the file', 'run the command').",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "\nOpen the CSV with the Read tool.\n"},
        expect=(Expect("PE403", "SKILL.md", 10, 19),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL + "\nOpen the CSV and read its header row.\n"}),
    source="PluginEval harness portability",
    limits="It matches English phrasings ('the Read tool', 'use the Bash tool', and 'use', "
    "'using', 'call', 'run' or 'invoke' before a tool's name) with the tool's capitalised "
    "name; 'the read tool' in lower case, or other wordings ('fetch it with WebFetch'), are "
    "not seen. As for PE402, a skill whose description names Claude Code, and a line that "
    "names it, are left alone. A one-word name ('Bash', 'Read', 'Grep') named alone counts "
    "only when what follows it on its line is a function word ('use Bash to …', 'run Read on "
    "…'), punctuation or nothing: before another word it is taken for that word's modifier "
    "('use Bash built-ins', 'use Grep patterns') and not reported, so 'use Read first' is "
    "missed; a compound name ('use WebSearch fallback') is always reported. Each tool is "
    "reported once, at its first phrase, with the count and the other lines.",
    check=check,
)
