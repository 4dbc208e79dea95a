"""The markdown-it parser every document is read with, set up to parse only what rules read.

Four savings, none of which changes a token or a view a rule reads:

- the block rules are tried through one function per chain that skips, by the first
  character of the line, the rules that cannot start there (a heading needs ``#``, a fence
  ``` ` ``` or ``~``), and a few more by a test of the line (``_GUARDS``), or, in a text
  without "|", the table rule, and in one without a line ending in "-" or "=", the search
  for a setext underline (``_variant``); each skipped rule would have returned False
  without touching the state;
- the inline parser runs per inline token, only on text that holds link, image, code span,
  autolink, HTML or escape syntax (``INLINE_SYNTAX``); the rest is text and line breaks,
  which ``plain_text`` reproduces;
- the block parser's line tables (where each line begins, ends and is indented) are computed
  from the document's lines by str methods (``_block_state``), not by StateBlock's own loop
  over them in Python, its tokens are made field by field (``_State.push``), and the text
  of a paragraph or code block is most often one slice of the document (``_State.getLines``),
  and whether a line starts a list, which a paragraph asks of each of its lines, is answered
  by the list guard itself (``_starts_list``), on the markdown-it-py releases all four were
  checked against.
"""

from __future__ import annotations

import copy
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate, repeat
from operator import add, sub
from typing import Any, Literal, NamedTuple

import markdown_it
from markdown_it import MarkdownIt
from markdown_it.parser_block import ParserBlock
from markdown_it.ruler import Rule, Ruler
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from plugin_eval import budgets, regexes

BlockRule = Callable[[StateBlock, int, int, bool], bool]
InlineRule = Callable[[StateInline, bool], bool]
# Where in its inline token's text a link or image begins: Token.meta[OFFSET].
OFFSET = "offset"

# The first characters a block rule can match at; any other makes it return False at once.
_STARTS = {
    "fence": frozenset("`~"),
    "blockquote": frozenset(">"),
    "hr": frozenset("*-_"),
    "list": frozenset("*-+0123456789"),
    "reference": frozenset("["),
    "html_block": frozenset("<"),
    "heading": frozenset("#"),
}
# A table's second line is its delimiter row: |, - or : and then only those, spaces and tabs,
# its second character not a space when the first is '-' (the table rule's own first test).
_DELIMITER_ROW = regexes.compile(r"(?!-[ \t])[|:-][|:\t -]+")
_ROW_STARTS = frozenset("|:-")


def _table_guard(rule: BlockRule) -> BlockRule:
    def table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        following = start + 1
        if following >= end:
            return False
        at = state.bMarks[following] + state.tShift[following]
        src = state.src
        # The row's first character, tested before the regex: most lines are not rows.
        if src[at : at + 1] not in _ROW_STARTS:
            return False
        stop = state.eMarks[following]
        if _DELIMITER_ROW.fullmatch(src, at, stop) is None:
            return False
        cells: _Cells | None = None if silent else state.env.get(_CELLS_LEFT)
        if cells is None:  # asked whether a table starts (a paragraph asks), or no budget
            return rule(state, start, end, silent)
        return _counted(rule, state, start, end, cells, src[at:stop])

    return table


class _Cells:
    """The table cells a parse may still make (``parse_capped``), kept in its ``env``."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


# The key of ``env`` that holds a parse's _Cells (markdown-it gives ``env`` to every rule).
_CELLS_LEFT = "plugin_eval.table_cells_left"


class CellsSpent(NamedTuple):
    """Where ``parse_capped`` stopped (0-based lines of the text): the table row that would
    have passed the cells allowed (the table's header row when that alone would), the table's
    first line, and its columns."""

    line: int
    table: int
    columns: int


class NestingSpent(NamedTuple):
    """Where ``parse_capped`` stopped at markdown-it's nesting limit (0-based line of the text):
    the first line of a block nested deeper than its ``levels`` (a list and its item are two,
    a quote one), which markdown-it would skip, with the rest of the range that holds it, in
    silence."""

    line: int
    levels: int


class _Spent(Exception):
    """Raised by the table rule at a row past the cells allowed, or by the block parser at a
    range nested past ``maxNesting``; ``parse_capped`` catches it."""

    def __init__(self, spent: CellsSpent | NestingSpent) -> None:
        super().__init__(spent)
        self.spent = spent


class _Block(ParserBlock):
    """The block parser, which at its nesting limit skips the rest of the range it was given
    (to the end of a list that runs to the end of the file) without a word: under
    ``parse_capped`` it stops there instead, at the first line it would skip."""

    def tokenize(self, state: StateBlock, startLine: int, endLine: int) -> None:
        limit = state.md.options.maxNesting
        if state.level >= limit and _CELLS_LEFT in state.env:  # under parse_capped
            line = state.skipEmptyLines(startLine)
            if line < endLine and state.sCount[line] >= state.blkIndent:
                raise _Spent(NestingSpent(line, limit))
        super().tokenize(state, startLine, endLine)


def _counted(
    rule: BlockRule, state: StateBlock, start: int, end: int, cells: _Cells, delimiter: str
) -> bool:
    """The table rule at line ``start``, its cells counted off ``cells``.

    A table makes a cell per column (its delimiter row's, a missing one filled in empty, one
    past them dropped) in its header row and each row after the delimiter row, and each cell is
    three tokens of a few hundred bytes: a table that may pass what is left is made up to its
    last row that fits, and one row more, to learn whether it has one (that row's cells are no
    more than those that fit): when it does, the parse stops there (``_Spent``).
    """
    # The rule's column count: the delimiter row's cells, an empty one at either end not one.
    columns = (
        delimiter.count("|") + 1 - delimiter.startswith("|") - delimiter.rstrip(" \t").endswith("|")
    )
    if columns * (end - start - 1) <= cells.left:  # every line left a row: they all fit
        if not rule(state, start, end, False):
            return False
        cells.left -= columns * (state.line - start - 1)
        return True
    if not rule(state, start, end, True):  # not a table: no cells
        return False
    fits = cells.left // columns  # rows, the header row first
    if fits == 0:
        raise _Spent(CellsSpent(start, start, columns))
    past = start + 1 + fits  # the first row that does not fit (the delimiter row is no row)
    if not rule(state, start, past + 1, False):  # as the silent call said, it is a table
        return False
    if state.line > past:
        raise _Spent(CellsSpent(past, start, columns))
    cells.left -= columns * (state.line - start - 1)
    return True


def _code_guard(rule: BlockRule) -> BlockRule:
    def code(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if state.sCount[start] - state.blkIndent < 4:
            return False
        return rule(state, start, end, silent)

    return code


# A thematic break: three or more of one marker and nothing else but spaces and tabs (the hr
# rule's test); most `-` lines are list items, most `*` lines bold text.
_THEMATIC_BREAK = regexes.compile(r"([*_-])[ \t]*\1[ \t]*\1(?:[ \t]|\1)*")
# A list item's marker: `*`, `+`, `-`, or one to nine digits and `.` or `)`, then a space, a
# tab or the line's end (the list rule's skipBulletListMarker and skipOrderedListMarker).
_LIST_MARKER = regexes.compile(r"(?:[*+-]|[0-9]{1,9}[.)])(?![^ \t])")


# The last character of a thematic break's line: a marker, a space or a tab.
_BREAK_ENDS = frozenset("*_- \t")


def _hr_guard(rule: BlockRule) -> BlockRule:
    def hr(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        src, stop = state.src, state.eMarks[start]
        # Tested first: a list item's or bold text's line ends in a word (an empty line,
        # whatever the character before it, is no break either).
        if src[stop - 1] not in _BREAK_ENDS:
            return False
        at = state.bMarks[start] + state.tShift[start]
        if _THEMATIC_BREAK.fullmatch(src, at, stop) is None:
            return False
        return rule(state, start, end, silent)

    return hr


def _list_guard(rule: BlockRule) -> BlockRule:
    # Checked against the release: the rule's validation-mode answer (see _starts_list).
    answers_silent = _RELEASE_CHECKED

    def list_(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        # Without a marker the rule fails before it changes any state.
        src, stop = state.src, state.eMarks[start]
        at = state.bMarks[start] + state.tShift[start]
        marker = _LIST_MARKER.match(src, at, stop)
        if marker is None:
            return False
        if silent and answers_silent:
            return _starts_list(state, start, src, at, marker.end(), stop)
        return rule(state, start, end, silent)

    return list_


def _starts_list(state: StateBlock, start: int, src: str, at: int, after: int, stop: int) -> bool:
    """What markdown-it-py 4.3.0's list rule answers in validation mode (``silent``) for line
    ``start``, whose marker (``_LIST_MARKER``'s match) runs from ``at`` to ``after`` and whose
    text ends at ``stop``: everything the rule does before ``if silent: return True``, none of
    which changes the state. A paragraph checks each of its lines this way (about 45 per skill),
    at a third of the rule's cost."""
    count, indent = state.sCount[start], state.blkIndent
    # An indented code block's line (state.is_code_block).
    if count - indent >= 4 and state._code_enabled:
        return False
    # A line indented 4 or more past the enclosing list's marker but less than its items'
    # content continues a paragraph.
    outer = state.listIndent
    if outer >= 0 and count - outer >= 4 and count < indent:
        return False
    if state.parentType == "paragraph" and count >= indent:
        # Interrupting a paragraph: an ordered list must start at 1, and the item's first line
        # must hold more than spaces and tabs.
        if src[after - 1] in ".)" and int(src[at : after - 1]) != 1:
            return False
        if not src[after:stop].strip(" \t"):
            return False
    return True


# A setext underline: a run of one marker, then spaces and tabs only (the lheading rule's test).
_UNDERLINE = regexes.compile(r"(?:-+|=+)[ \t]*")


def _lheading_guard(rule: BlockRule) -> BlockRule:
    def lheading(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        # A setext heading needs an underline of `=` or `-` before the paragraph's first
        # empty line; without such a line, the rule fails. It fails after setting
        # `parentType` to "paragraph" (it restores it only on success), so that is kept.
        src, begins, shifts, ends = state.src, state.bMarks, state.tShift, state.eMarks
        line = start + 1
        while line < end:
            at = begins[line] + shifts[line]
            if at >= ends[line]:  # an empty line (StateBlock.isEmpty)
                break
            if src[at] in "-=" and _UNDERLINE.fullmatch(src, at, ends[line]) is not None:
                return rule(state, start, end, silent)
            line += 1
        if not state.is_code_block(start):
            state.parentType = "paragraph"
        return False

    return lheading


def _lheading_without_underlines(rule: BlockRule) -> BlockRule:
    """The lheading guard for a text none of whose lines ends in "-" or "=" then spaces and
    tabs: there no line is an underline, and the guard's search for one would find none."""

    def lheading(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if not state.is_code_block(start):
            state.parentType = "paragraph"
        return False

    return lheading


Guards = Mapping[str, Callable[[BlockRule], BlockRule]]

_GUARDS: Guards = {
    "table": _table_guard,
    "code": _code_guard,
    "hr": _hr_guard,
    "list": _list_guard,
    "lheading": _lheading_guard,
}


def _dispatch(rules: Sequence[Rule[BlockRule]], guards: Guards = _GUARDS) -> BlockRule:
    """One rule standing for a chain: the chain's rules that can match the line, in order."""
    guarded = [(r.name, guards[r.name](r.fn) if r.name in guards else r.fn) for r in rules]
    by_start: dict[str, tuple[BlockRule, ...]] = {}

    def candidates(start: str) -> tuple[BlockRule, ...]:
        found = tuple(fn for name, fn in guarded if name not in _STARTS or start in _STARTS[name])
        by_start[start] = found
        return found

    def chain(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        at = state.bMarks[start] + state.tShift[start]
        first = state.src[at : at + 1]
        rules = by_start.get(first)
        if rules is None:
            rules = candidates(first)
        # A loop, not any(): no generator frame on the parser's hottest path.
        for rule in rules:  # noqa: SIM110
            if rule(state, start, end, silent):
                return True
        return False

    return chain


class _FirstCharRuler(Ruler[BlockRule]):
    """The block ruler whose every chain is one dispatching rule (see ``_dispatch``).

    The parser and the rules call a chain's rules in order and stop at the first that
    matches; a single rule doing the same returns the same and changes the same state.
    """

    def __init__(
        self,
        rules: Ruler[BlockRule],
        left_out: frozenset[str] = frozenset(),
        guards: Guards = _GUARDS,
    ) -> None:
        super().__init__()
        self.__rules__ = rules.__rules__
        # Rules no chain holds, and the guards the rules are tried through (see _variant).
        self.left_out = left_out
        self.guards = guards

    def __compile__(self) -> None:
        super().__compile__()
        assert self.__cache__ is not None
        chains = _Chains()
        for name in self.__cache__:
            rules = [
                r
                for r in self.__rules__
                if r.enabled and r.name not in self.left_out and (not name or name in r.alt)
            ]
            chains[name] = [_dispatch(rules, self.guards)] if rules else []
        self.__cache__ = chains
        # The parser and the rules ask for a chain at every paragraph, list and nested block
        # (always naming it, as Ruler.getRules asks): the lookup is the dict's own, in C, until
        # a change to the rules empties the cache (see __setattr__).
        self.__dict__["getRules"] = chains.__getitem__

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "__cache__" and value is None:
            self.__dict__.pop("getRules", None)  # Ruler.getRules compiles the rules again


class _Chains(dict[str, list[BlockRule]]):
    """The compiled chains by name: a chain no rule is in has none (Ruler.getRules' ``[]``)."""

    def __missing__(self, name: str) -> list[BlockRule]:
        return []


def _located(rule: InlineRule) -> InlineRule:
    """The inline rule, noting on the link or image it makes where in the text it began.

    markdown-it maps block tokens to lines but inline ones to nothing; with the offset a link's
    column is read off, never searched for in its line (one search per link on a line of
    100,000 links is quadratic).
    """

    def located(state: StateInline, silent: bool) -> bool:
        start, before = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        # Text pending before the link is pushed first, so the link is one of two tokens.
        for tok in state.tokens[before : before + 2]:
            if tok.type in ("link_open", "image"):
                tok.meta[OFFSET] = start
                break
        return True

    return located


# The markdown-it-py releases this module's reading of markdown-it's internals was checked
# against (tests/test_fast_paths_parse.py, on the installed one): the line tables and tokens
# of ``_block_state`` and the option defaults of ``_READ_WITH_DEFAULT``. With any other
# release, the library's own code does all of it.
_CHECKED = ("4.3.0",)
_RELEASE_CHECKED = markdown_it.__version__ in _CHECKED
# Options the rules read as ``options.get(name, False)`` that the preset leaves out: set to
# that default, each read gives the same answer without raising and catching a KeyError
# (the list rule reads "tasklists" once per item).
_READ_WITH_DEFAULT = {
    "tasklists": False,
    "alerts": False,
    "inline_definitions": False,
    "store_labels": False,
}


def _parser() -> MarkdownIt:
    # `parse` normalizes instead of a regex pass over every line end (see there).
    # Emphasis and entities change no structure a rule reads; the inline pass runs per token
    # (see INLINE_SYNTAX), and text_join only renames escapes to text, which reads alike.
    md = MarkdownIt("commonmark").enable("table")
    md.block.__class__ = _Block  # kept by _variant's copies
    md.options["maxNesting"] = budgets.MARKDOWN_NESTING
    md.disable(["normalize", "emphasis", "entity", "inline", "text_join"])
    md.block.ruler = _FirstCharRuler(md.block.ruler)
    for name in ("link", "image", "autolink"):
        rule = next(r for r in md.inline.ruler.__rules__ if r.name == name)
        md.inline.ruler.at(name, _located(rule.fn))
    if _RELEASE_CHECKED:
        md.options.update(_READ_WITH_DEFAULT)
    return md


MD = _parser()


def _variant(md: MarkdownIt, tables: bool, underlines: bool) -> MarkdownIt:
    """``md`` with block chains for a text without "|" (``tables`` False) or without a line
    that ends in "-" or "=" then spaces and tabs (``underlines`` False), each rule of which
    then matches nothing: the table rule needs a "|" in a table's header row, and returns
    False before it changes any state, so it is left out; the lheading rule needs such a line
    for its underline, and is tried through a guard that does not look for one. Everything
    else is ``md``'s own (which is never changed after set-up)."""
    variant = copy.copy(md)
    variant.block = copy.copy(md.block)
    left_out = frozenset() if tables else frozenset({"table"})
    guards = _GUARDS if underlines else {**_GUARDS, "lheading": _lheading_without_underlines}
    variant.block.ruler = _FirstCharRuler(md.block.ruler, left_out, guards)
    return variant


# By (whether the text holds a "|", whether a line of it may be an underline).
_PARSERS = {
    (tables, underlines): MD if tables and underlines else _variant(MD, tables, underlines)
    for tables in (True, False)
    for underlines in (True, False)
}


# A line feed after "-", "=", a space or a tab: the end of every line but the last that may be
# an underline has one (what precedes it then decides). The line feed comes first in the
# pattern, where the regex engine's search for it is fast; the lookbehind reads back.
_AFTER_MARK_OR_BLANK = regexes.compile(r"\n(?<=[-= \t]\n)")


def _may_underline(src: str) -> bool:
    """Whether a line of ``src`` ends in "-" or "=" then spaces and tabs (or nothing): at a
    line feed after one of those characters, the characters before it, read back over spaces
    and tabs; at the end, the text's last line."""
    if src.rstrip(" \t").endswith(("-", "=")):
        return True
    for found in _AFTER_MARK_OR_BLANK.finditer(src):
        before = found.start()
        while before > 0 and src[before - 1] in " \t":
            before -= 1
        if before > 0 and src[before - 1] in "-=":
            return True
    return False


# The core chain must be the block rule alone, which is what ``_block_state`` and the block
# parser's ``tokenize`` stand for.
FAST_STATE = _RELEASE_CHECKED and MD.core.ruler.get_active_rules() == ["block"]


def parse(src: str, env: dict[str, Any]) -> list[Token]:
    """The block tokens of ``src``, whose lines must all end in a bare line feed already."""
    return parse_lines(src.split("\n"), env)


def parse_lines(lines: Sequence[str], env: dict[str, Any]) -> list[Token]:
    """The block tokens of ``lines`` joined by line feeds (none of them holding a line end).

    markdown-it's normalize rule would make every line end a line feed and every NUL a
    U+FFFD; the documents come with the first done, so only the second is left.
    """
    src = "\n".join(lines)
    if "\0" in src:
        src = src.replace("\0", "\ufffd")
    if not FAST_STATE:
        return MD.parse(src, env)
    tokens: list[Token] = []
    if src:  # the block parser makes no state for an empty text
        # Most lines are tried as a table's header row, and every paragraph is searched for a
        # setext underline: in a text without the characters these need, neither is.
        md = _PARSERS["|" in src, _may_underline(src)]
        state = _block_state(src, lines, env, tokens, md)
        md.block.tokenize(state, state.line, state.lineMax)
    return tokens


def parse_capped(
    lines: Sequence[str], env: dict[str, Any], cells: int
) -> tuple[list[Token], CellsSpent | NestingSpent | None]:
    """``parse_lines``, its tables making at most ``cells`` cells and its lists and quotes
    nested no deeper than markdown-it reads, and where it stopped (the earliest cut).

    At a table row that would make more, the lines before that row are parsed again, alone,
    and that row is returned (a table's header row that alone would make more is not made):
    the second parse makes the same tables before that row, and of its table the rows that
    fit, so it stops no more (each parse is shorter than the one before anyway). ``env`` is
    left as one parse of those lines leaves it.
    """
    given = dict(env)
    spent: CellsSpent | NestingSpent | None = None
    while True:
        env[_CELLS_LEFT] = _Cells(cells)
        try:
            tokens = parse_lines(lines, env)
        except _Spent as stop:
            spent = stop.spent
            lines = lines[: spent.line]
            env.clear()
            env.update(given)
            continue
        del env[_CELLS_LEFT]
        return tokens, spent


class _State(StateBlock):
    """StateBlock whose ``push`` makes its token without Token's generated ``__init__`` (and
    ``__post_init__``, which only turns attrs given as a list into a dict): every field is set
    to what ``Token(ttype, tag, nesting)`` and StateBlock.push give it, at about two thirds of
    the cost, on the few hundred tokens of a skill; and whose ``getLines`` cuts most
    paragraphs and code blocks out of the text as one slice, not line by line and character
    by character."""

    def push(self, ttype: str, tag: str, nesting: Literal[-1, 0, 1]) -> Token:
        token = Token.__new__(Token)
        token.type = ttype
        token.tag = tag
        token.nesting = nesting
        token.attrs = {}
        token.map = None
        if nesting < 0:
            self.level -= 1  # closing tag
        token.level = self.level
        if nesting > 0:
            self.level += 1  # opening tag
        token.children = None
        token.content = ""
        token.markup = ""
        token.info = ""
        token.meta = {}
        token.block = True
        token.hidden = False
        self.tokens.append(token)
        return token

    # What ``getLines`` reads besides StateBlock's own attributes (set by ``_block_state``),
    # in slots, out of the instance's dict that holds StateBlock's: where each line begins in
    # the text (``bMarks`` as made, before a blockquote moves a line's beginning past its
    # ">"), and whether the text holds a tab (without one, an indent's width is its length).
    __slots__ = ("_starts", "_tabs")
    _starts: list[int]
    _tabs: bool

    def getLines(self, begin: int, end: int, indent: int, keepLastLF: bool) -> str:
        """StateBlock.getLines, in two common cases, else its own.

        Without an indent to take off, lines that begin where the text's do (all but the first
        of them: its beginning may have moved) are one slice of the text; so is one line of a
        text without tabs (most paragraphs, most of them in list items), from where ``indent``
        columns of it are passed, a column being a character of the line's indent (``tShift``,
        which in a list item's first line holds its marker) or a space after it. The slice
        ends at the last line's line feed, which it holds if ``keepLastLF``.
        """
        begins = self.bMarks
        if indent == 0:
            if begin < end and begins[begin + 1 : end] == self._starts[begin + 1 : end]:
                return self.src[begins[begin] : self.eMarks[end - 1] + keepLastLF]
        elif end - begin == 1 and not self._tabs:
            src = self.src
            at = begins[begin]
            skip = self.tShift[begin]
            if skip >= indent:
                skip = indent
            else:
                # Spaces past the indent count up to ``indent`` too; the line's end (its line
                # feed, or the text's end) is no space, so the count stops inside the line.
                while skip < indent and src[at + skip : at + skip + 1] == " ":
                    skip += 1
            return src[at + skip : self.eMarks[begin] + keepLastLF]
        return StateBlock.getLines(self, begin, end, indent, keepLastLF)


def _block_state(
    src: str, lines: Sequence[str], env: dict[str, Any], tokens: list[Token], md: MarkdownIt = MD
) -> StateBlock:
    """markdown-it's StateBlock for ``src``, its line tables computed from ``lines``.

    Every attribute but the source and the tables comes from StateBlock's own ``__init__``
    (run on an empty text). A NUL made U+FFFD keeps every length and indent: the tables of the
    lines as read are those of ``src``.
    """
    state = _State("", md, env, tokens)
    state.src = src
    # A line begins at every line feed but the last's, which begins one only when what
    # follows it holds more than spaces and tabs (StateBlock gives no line to the rest).
    if not lines[-1].strip(" \t"):
        lines = lines[:-1]
    sizes = list(map(len, lines))
    # Indents: what lstrip(" \t") takes (StateBlock's isStrSpace is space or tab).
    shifts = list(map(sub, sizes, map(len, map(str.lstrip, lines, repeat(" \t")))))
    begins = [0, *accumulate(map(add, sizes, repeat(1)))]
    begins.pop()  # where a line after the last would begin
    ends = list(map(add, begins, sizes))
    state._tabs = "\t" in src
    if state._tabs:
        # A tab indents to the next multiple of four.
        counts = [
            _columns(line[:shift]) if shift else 0
            for line, shift in zip(lines, shifts, strict=True)
        ]
    else:
        counts = shifts.copy()
    # The fake line after the last, which spares the rules bounds checks.
    length = len(src)
    begins.append(length)
    ends.append(length)
    shifts.append(0)
    counts.append(0)
    state.bMarks, state.eMarks, state.tShift, state.sCount = begins, ends, shifts, counts
    state.bsCount = [0] * len(begins)
    state._starts = begins.copy()
    state.lineMax = len(begins) - 1
    return state


def _columns(indent: str) -> int:
    """The width of an indent of spaces and tabs, a tab reaching the next multiple of four."""
    width = 0
    for char in indent:
        width += 4 - width % 4 if char == "\t" else 1
    return width


# Without one of these, the active inline rules (text, newline, escape, backticks, link,
# image, autolink, html_inline) find nothing but text and line breaks.
INLINE_SYNTAX = regexes.compile(r"[\[`<\\]")


def plain_text(content: str) -> str:
    """What the inline parser shows of text in which ``INLINE_SYNTAX`` finds nothing.

    Its newline rule drops the spaces before a line break (one for a soft break, all of them
    for a hard one) and the spaces and tabs after it.
    """
    if "\n" not in content:
        return content
    # One space or all of them: either way, every space before the break goes.
    return _LINE_BREAK.sub("\n", content)


_LINE_BREAK = regexes.compile(r" *\n[ \t]*")


# Inline text with backticks but none of these holds code spans, text and line breaks only.
NOT_CODE_SPAN_ONLY = regexes.compile(r"[\[<\\]")
# What is left of NOT_CODE_SPAN_ONLY in text whose "[" opens no link (``brackets_inert``).
NOT_CODE_SPAN_BUT_BRACKETS = regexes.compile(r"[<\\]")


def brackets_inert(content: str, env: Mapping[str, Any]) -> bool:
    """Whether no "[" of ``content`` can open a link or image, so that the inline parser reads
    each as text: its link and image rules need "]" then "(" at once (an inline link) or a
    reference definition in ``env`` (a reference link), and return False without either."""
    return "](" not in content and "references" not in env


_BACKTICKS = regexes.compile(r"`+")


def code_spans(content: str) -> list[tuple[str, str]]:
    """What the inline parser makes of text whose only syntax is code spans.

    ``("text", …)``, ``("code", …)`` and ``("break", "\n")`` parts, as markdown-it gives them
    for content ``NOT_CODE_SPAN_ONLY`` finds nothing in: a run of backticks opens a code span
    closed by the next run of the same length (else it is text); a code span's line ends
    become spaces and one space is dropped from each end when both ends have one and it is
    not all spaces (a tab counts as content); a line end drops the spaces before it (one for a soft break, all for a
    hard one) and the spaces and tabs after it.
    """
    if "\n" in content or "``" in content:
        return _spans_of_runs(content)
    # One line whose backticks stand alone (most code spans): each closes the one before it,
    # so the text splits at them into text, code, text, …; an odd one out is text.
    pieces = content.split("`")
    if len(pieces) % 2 == 0:
        tail = pieces.pop()
        pieces[-1] += "`" + tail
    parts = [("text", pieces[0])] if pieces[0] else []
    for at in range(1, len(pieces), 2):
        code = pieces[at]
        if code.startswith(" ") and code.endswith(" ") and code.strip(" "):
            code = code[1:-1]
        parts.append(("code", code))
        if pieces[at + 1]:
            parts.append(("text", pieces[at + 1]))
    return parts


def _spans_of_runs(content: str) -> list[tuple[str, str]]:
    """``code_spans`` for any text: runs of backticks of any length, line ends."""
    parts: list[tuple[str, str]] = []
    pending: list[str] = []
    size = len(content)
    at = 0
    # Every run of backticks, found once: a closer is the next run of the opener's length,
    # looked up, not searched for (an opener that is never closed would read to the end).
    runs: dict[int, list[int]] = {}
    for run in _BACKTICKS.finditer(content):
        runs.setdefault(run.end() - run.start(), []).append(run.start())
    # The next backtick and line feed at or after ``at``, kept until passed; none is the
    # end of the text (find's -1 modulo size + 1).
    following = newline = -1

    def flush() -> None:
        if pending:
            text = "".join(pending)
            pending.clear()
            if text:
                parts.append(("text", text))

    while at < size:
        char = content[at]
        if char == "\n":
            text = "".join(pending)
            pending.clear()
            if text.endswith("  "):
                text = text.rstrip(" ")
            elif text.endswith(" "):
                text = text[:-1]
            if text:
                parts.append(("text", text))
            parts.append(("break", "\n"))
            at += 1
            while at < size and content[at] in " \t":
                at += 1
            continue
        if char != "`":
            if following < at:
                following = content.find("`", at) % (size + 1)
            if newline < at:
                newline = content.find("\n", at) % (size + 1)
            stop = min(following, newline)
            pending.append(content[at:stop])
            at = stop
            continue
        opener_end = at
        while opener_end < size and content[opener_end] == "`":
            opener_end += 1
        length = opener_end - at
        same = runs[length]
        later = bisect_right(same, at)
        if later == len(same):
            pending.append(content[at:opener_end])
            at = opener_end
            continue
        closer = same[later]
        flush()
        code = content[opener_end:closer].replace("\n", " ")
        if code.startswith(" ") and code.endswith(" ") and code.strip(" "):
            code = code[1:-1]
        parts.append(("code", code))
        at = closer + length
    flush()
    return parts
