"""Parse a skill folder once into an immutable document that rules and scores read."""

from __future__ import annotations

import codecs
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote

import yaml
from markdown_it.token import Token

from plugin_eval import budgets, regexes
from plugin_eval.markdown_parser import (
    INLINE_SYNTAX,
    MD,
    NOT_CODE_SPAN_BUT_BRACKETS,
    NOT_CODE_SPAN_ONLY,
    OFFSET,
    NestingSpent,
    brackets_inert,
    code_spans,
    parse_capped,
    parse_lines,
    plain_text,
)
from plugin_eval.textsearch import one_of
from plugin_eval.walk import Listing, NotRegularFile, list_folder, read_file
from plugin_eval.yaml_input import LOADER as YAML_LOADER
from plugin_eval.yaml_input import AliasError, check_aliases

SKILL_FILE = "SKILL.md"


def misnamed_skill_file(names: Iterable[str]) -> str | None:
    """Of a folder's file names, the one that is SKILL.md in other letter case (`skill.md`),
    when the folder has no SKILL.md: harnesses look for that exact name."""
    found = sorted(n for n in names if n.lower() == SKILL_FILE.lower())
    return None if not found or SKILL_FILE in found else found[0]


MAX_SKILL_BYTES = 4 * 1024 * 1024

# The fence python-frontmatter recognises (its YAMLHandler.FM_BOUNDARY). The package itself is
# not used: it yields no line or column for a key, which PyYAML's composer does, and importing
# it for this one pattern cost about 24 ms of every start.
_FENCE_LINE = regexes.compile(r"^-{3,}\s*$", re.MULTILINE)


class Problem(Enum):
    """What can be wrong with a SKILL.md before any rule looks at it."""

    NOT_TEXT = "not-text"
    NOT_UTF8 = "not-utf8"
    EMPTY_FILE = "empty-file"
    NO_FRONTMATTER = "no-frontmatter"
    COLLAPSED_FRONTMATTER = "collapsed-frontmatter"
    UNCLOSED_FRONTMATTER = "unclosed-frontmatter"
    INVALID_YAML = "invalid-yaml"
    NOT_A_MAPPING = "not-a-mapping"
    DUPLICATE_KEY = "duplicate-key"
    TOO_LARGE = "too-large"


@dataclass(frozen=True, repr=False)
class ParseProblem:
    kind: Problem
    message: str
    line: int | None = None
    column: int | None = None
    fix: str | None = None  # when the rule's own fix does not fit this case


@dataclass(frozen=True, repr=False)
class FieldInfo:
    """Where a frontmatter key sits in the file (1-based line and column)."""

    line: int
    column: int
    value_line: int


@dataclass(frozen=True, slots=True, repr=False)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True, slots=True, repr=False)
class CodeBlock:
    language: str
    content: str
    line: int
    end_line: int
    fenced: bool
    closed: bool
    # How many blockquotes hold it: an unclosed fence there ends with the innermost quote.
    quotes: int = 0
    # The fence that opened it ("```", "~~~~"); empty for an indented block.
    marker: str = ""


@dataclass(frozen=True, slots=True, repr=False)
class Link:
    target: str
    text: str
    line: int
    column: int
    image: bool


@dataclass(frozen=True, slots=True, repr=False)
class Prose:
    """Text of one paragraph, list item, table cell or heading, outside any code."""

    text: str
    line: int
    block: str


# Prose and Heading made by their slots' own setters: a frozen dataclass's ``__init__`` sets
# each field through ``object.__setattr__``, about twice the time, on the hundred or more of
# each skill (tests/test_fast_paths_parse2.py checks both ways give equal objects).
_new = object.__new__
_PROSE_TEXT, _PROSE_LINE, _PROSE_BLOCK = (
    getattr(Prose, name).__set__ for name in ("text", "line", "block")
)
_HEADING_LEVEL, _HEADING_TEXT, _HEADING_LINE = (
    getattr(Heading, name).__set__ for name in ("level", "text", "line")
)


def _prose(text: str, line: int, block: str) -> Prose:
    """``Prose(text, line, block)``."""
    prose = _new(Prose)
    _PROSE_TEXT(prose, text)
    _PROSE_LINE(prose, line)
    _PROSE_BLOCK(prose, block)
    return prose


def _heading(level: int, text: str, line: int) -> Heading:
    """``Heading(level, text, line)``."""
    heading = _new(Heading)
    _HEADING_LEVEL(heading, level)
    _HEADING_TEXT(heading, text)
    _HEADING_LINE(heading, line)
    return heading


@dataclass(frozen=True, repr=False)
class Section:
    heading: Heading
    end_line: int


@dataclass(frozen=True, repr=False)
class SkillDocument:
    """One parsed SKILL.md and its folder listing.

    ``tokens`` is markdown-it's block stream; an inline token has children only when its text
    holds HTML or escape syntax, or a "[" that can open a link (see markdown_parser): read
    text from ``prose``.
    """

    folder: Path
    raw: bytes
    text: str
    lines: tuple[str, ...]
    frontmatter: Mapping[str, Any]
    fields: Mapping[str, FieldInfo]
    frontmatter_ok: bool
    body_start: int
    tokens: tuple[Token, ...]
    headings: tuple[Heading, ...]
    code_blocks: tuple[CodeBlock, ...]
    links: tuple[Link, ...]
    prose: tuple[Prose, ...]
    comments: tuple[Prose, ...]
    inline_code: tuple[Prose, ...]
    tables: int
    list_items: int
    blockquotes: int
    listing: Listing
    problems: tuple[ParseProblem, ...] = field(default=())

    @property
    def name(self) -> str:
        value = self.frontmatter.get("name")
        return value if isinstance(value, str) and value.strip() else self.folder.name

    @property
    def description(self) -> str | None:
        value = self.frontmatter.get("description")
        return value if isinstance(value, str) else None

    @property
    def body_lines(self) -> int:
        return max(0, len(self.lines) - self.body_start + 1)

    @property
    def body_text(self) -> str:
        return "\n".join(self.lines[self.body_start - 1 :])

    def sections(self) -> tuple[Section, ...]:
        """Each heading with the last line its section covers."""
        ends = [len(self.lines)] * len(self.headings)
        # Headings whose section is still open, by ascending level: one pass, not one per heading.
        open_: list[int] = []
        for i, h in enumerate(self.headings):
            while open_ and self.headings[open_[-1]].level >= h.level:
                ends[open_.pop()] = h.line - 1
            open_.append(i)
        return tuple(Section(h, end) for h, end in zip(self.headings, ends, strict=True))

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


def parse_skill(folder: Path) -> SkillDocument:
    """Read ``folder/SKILL.md`` and its listing; never raises on bad content."""
    skill_file = folder / SKILL_FILE
    problems: list[ParseProblem] = []
    link = skill_file.is_symlink()
    if link and not _inside(skill_file.resolve(), folder.resolve()):
        raw = b""
        problems.append(
            ParseProblem(
                Problem.NOT_TEXT,
                "SKILL.md is a symlink that leaves the skill folder",
                fix="Put the file itself in the skill folder: a harness installs the folder, "
                "not what its links point to.",
            )
        )
    else:
        if link:  # a link inside the folder is read where it points
            skill_file = skill_file.resolve()
        try:
            raw = _read_capped(skill_file, problems)
        except OSError as err:
            raw = b""
            fix = (
                "Make SKILL.md a regular file: a FIFO, socket or device is never opened, "
                "and a harness installs only files."
                if isinstance(err, NotRegularFile)
                else "Make SKILL.md readable by whoever installs the skill (for example: "
                "chmod a+r SKILL.md)."
            )
            problems.append(
                ParseProblem(
                    Problem.NOT_TEXT, f"SKILL.md cannot be read: {err.strerror or err}", fix=fix
                )
            )
    return parse_text(folder, raw, problems)


@dataclass(frozen=True, repr=False)
class FrontmatterFile:
    """A Markdown file with YAML frontmatter: SKILL.md, an agent or a command."""

    raw: bytes
    text: str
    lines: tuple[str, ...]
    frontmatter: Mapping[str, Any]
    fields: Mapping[str, FieldInfo]
    frontmatter_ok: bool
    body_start: int
    problems: tuple[ParseProblem, ...]


def read_frontmatter_file(
    raw: bytes, problems: list[ParseProblem] | None = None, name: str = SKILL_FILE
) -> FrontmatterFile:
    """Decode and split one file; every problem becomes a ParseProblem, never an exception."""
    problems = list(problems or [])
    text = _decode(raw, problems, name)
    lines = tuple(text.split("\n"))
    if text.endswith("\n"):
        lines = lines[:-1]
    meta: dict[str, Any] = {}
    fields: dict[str, FieldInfo] = {}
    body_start = 1
    frontmatter_ok = False
    if text and not text.isspace():  # text.strip(), without copying the text
        body_start, frontmatter_ok = _frontmatter(lines, meta, fields, problems)
    elif not any(p.kind is Problem.NOT_TEXT for p in problems):
        problems.append(ParseProblem(Problem.EMPTY_FILE, f"{name} is empty", 1, 1))
    return FrontmatterFile(
        raw,
        text,
        lines,
        MappingProxyType(meta),
        MappingProxyType(fields),
        frontmatter_ok,
        body_start,
        tuple(problems),
    )


def parse_text(
    folder: Path, raw: bytes, problems: list[ParseProblem] | None = None
) -> SkillDocument:
    head = read_frontmatter_file(raw, problems)
    lines, body_start = head.lines, head.body_start
    body = lines[body_start - 1 :]
    cut: tuple[ParseProblem, ...] = ()
    if len(body) > budgets.MARKDOWN_LINES:  # each line can make a few parser tokens
        cut = (
            ParseProblem(
                Problem.TOO_LARGE,
                f"the body has {len(body):,} lines; the first {budgets.MARKDOWN_LINES:,} are "
                "read as Markdown, the rest only as lines of text",
                body_start + budgets.MARKDOWN_LINES,
            ),
        )
        body = body[: budgets.MARKDOWN_LINES]
    env: dict[str, Any] = {}
    tokens: tuple[Token, ...] = ()
    if _holds_text(body):
        # Each table cell makes a few parser tokens: past TABLE_CELLS of them the body is cut
        # at the row that passes them, as it is at MARKDOWN_LINES lines.
        parsed, spent = parse_capped(body, env, budgets.TABLE_CELLS)
        tokens = tuple(parsed)
        if spent is not None:
            where = body_start + spent.line
            said = (
                f"lists or quotes at line {where} nest deeper than the Markdown parser reads "
                f"({spent.levels} levels of blocks: a list and its item are two, a quote one)"
                if isinstance(spent, NestingSpent)
                else f"the body's tables pass {budgets.TABLE_CELLS:,} cells at line {where} (the "
                f"table at line {body_start + spent.table} has {spent.columns:,} columns)"
            )
            cut += (
                ParseProblem(
                    Problem.TOO_LARGE,
                    f"{said}; the lines before it are read as Markdown, the rest only as lines "
                    "of text",
                    where,
                    fix="Nest the lists and quotes there fewer levels deep."
                    if isinstance(spent, NestingSpent)
                    else "Split the table, or move it to a file in references/ and link it.",
                ),
            )
    walk = _Walk(lines, body_start - 1, env)
    walk.run(tokens)
    return SkillDocument(
        folder=folder,
        raw=raw,
        text=head.text,
        lines=lines,
        frontmatter=head.frontmatter,
        fields=head.fields,
        frontmatter_ok=head.frontmatter_ok,
        body_start=body_start,
        tokens=tokens,
        headings=tuple(walk.headings),
        code_blocks=tuple(walk.code_blocks),
        links=tuple(walk.links),
        prose=tuple(walk.prose),
        comments=tuple(walk.comments),
        inline_code=tuple(walk.inline_code),
        tables=walk.tables,
        list_items=walk.list_items,
        blockquotes=walk.blockquotes,
        listing=list_folder(folder),
        problems=head.problems + cut + tuple(walk.problems),
    )


@dataclass(frozen=True, repr=False)
class MarkdownFile:
    """What a supporting Markdown file (a reference, an index) points at: its links, and the
    text of its code and prose, where file names can be written."""

    links: tuple[Link, ...]
    text: str


def parse_markdown(raw: bytes, name: str) -> MarkdownFile:
    """The links and text of a supporting Markdown file (a reference, an index)."""
    head = read_frontmatter_file(raw, [], name)
    body = head.lines[head.body_start - 1 :]
    env: dict[str, Any] = {}
    walk = _Walk(head.lines, head.body_start - 1, env)
    walk.run(tuple(parse_lines(body, env)) if _holds_text(body) else ())
    code = [c.text for c in walk.inline_code] + [b.content for b in walk.code_blocks]
    return MarkdownFile(tuple(walk.links), "\n".join([*code, *(p.text for p in walk.prose)]))


def _holds_text(lines: tuple[str, ...]) -> bool:
    """Whether the lines joined hold more than whitespace (``"\\n".join(lines).strip()``),
    without joining them: the first line that does ends the search."""
    return any(line and not line.isspace() for line in lines)


def _read_capped(path: Path, problems: list[ParseProblem]) -> bytes:
    raw = read_file(path, MAX_SKILL_BYTES + 1)
    if len(raw) > MAX_SKILL_BYTES:
        problems.append(
            ParseProblem(
                Problem.TOO_LARGE,
                f"SKILL.md is over {MAX_SKILL_BYTES // (1024 * 1024)} MiB; only the start was read",
            )
        )
        raw = raw[:MAX_SKILL_BYTES]
    return raw


# Byte-order marks of the encodings whose text holds NUL bytes, longest first (UTF-32's
# little-endian mark begins with UTF-16's).
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _decode(raw: bytes, problems: list[ParseProblem], name: str = SKILL_FILE) -> str:
    wide = next((enc for bom, enc in _WIDE_BOMS if raw.startswith(bom)), None)
    if wide is not None:
        problems.append(
            ParseProblem(
                Problem.NOT_TEXT,
                f"{name} is {wide} text (it opens with a {wide} byte-order mark)",
                fix=f"Save {name} as UTF-8: harnesses read it as UTF-8 and find no frontmatter "
                f"in {wide}.",
            )
        )
        return ""
    if b"\x00" in raw[:8192]:
        problems.append(
            ParseProblem(Problem.NOT_TEXT, f"{name} is not a text file (it contains NUL bytes)")
        )
        return ""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        problems.append(
            ParseProblem(
                Problem.NOT_UTF8,
                f"{name} is not valid UTF-8 (byte 0x{raw[err.start]:02x})",
                line,
                column,
            )
        )
        text = raw.decode("utf-8-sig", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _frontmatter(
    lines: tuple[str, ...],
    meta: dict[str, Any],
    fields: dict[str, FieldInfo],
    problems: list[ParseProblem],
) -> tuple[int, bool]:
    """Fill ``meta`` and ``fields``; return the body's first line and whether YAML was read."""
    first = lines[0]
    if not _FENCE_LINE.fullmatch(first):
        if first.startswith("---"):
            problems.append(
                ParseProblem(
                    Problem.COLLAPSED_FRONTMATTER,
                    "line 1 starts with '---' but has text after it: the frontmatter "
                    "seems collapsed onto one line",
                    1,
                    4,
                )
            )
        else:
            problems.append(
                ParseProblem(
                    Problem.NO_FRONTMATTER,
                    "file does not start with a '---' frontmatter block",
                    1,
                    1,
                )
            )
        return 1, False
    close = next(
        (i for i in range(1, len(lines)) if _FENCE_LINE.fullmatch(lines[i])),
        None,
    )
    if close is None:
        problems.append(
            ParseProblem(
                Problem.UNCLOSED_FRONTMATTER,
                "frontmatter opened on line 1 is never closed with '---'",
                1,
                1,
            )
        )
        return len(lines) + 1, False
    source = "\n".join(lines[1:close])
    ok = _load_yaml(source, meta, fields, problems)
    return close + 2, ok


def _load_yaml(
    source: str,
    meta: dict[str, Any],
    fields: dict[str, FieldInfo],
    problems: list[ParseProblem],
) -> bool:
    loader = YAML_LOADER(source)
    try:
        check_aliases(source)
        node = loader.get_single_node()
        if node is None:
            return True
        if not isinstance(node, yaml.MappingNode):
            problems.append(
                ParseProblem(
                    Problem.NOT_A_MAPPING,
                    f"frontmatter is a YAML {_node_kind(node)}, not a mapping of fields",
                    node.start_mark.line + 2,
                    node.start_mark.column + 1,
                )
            )
            return False
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            value = loader.construct_object(value_node, deep=True)
            key_text = str(key)
            if key_text in fields:
                problems.append(
                    ParseProblem(
                        Problem.DUPLICATE_KEY,
                        f"frontmatter key '{key_text}' is given twice; YAML keeps the last",
                        key_node.start_mark.line + 2,
                        key_node.start_mark.column + 1,
                    )
                )
            meta[key_text] = value
            fields[key_text] = FieldInfo(
                line=key_node.start_mark.line + 2,
                column=key_node.start_mark.column + 1,
                value_line=value_node.start_mark.line + 2,
            )
    except AliasError as err:
        meta.clear()
        fields.clear()
        mark = err.problem_mark
        problems.append(
            ParseProblem(
                Problem.INVALID_YAML,
                f"frontmatter refused, not expanded: {err.problem}",
                mark.line + 2 if mark else None,
                mark.column + 1 if mark else None,
                fix="Write the values out instead of aliasing them: frontmatter needs no "
                "anchors (&name) or aliases (*name).",
            )
        )
        return False
    except yaml.MarkedYAMLError as err:
        meta.clear()
        fields.clear()
        mark = err.problem_mark or err.context_mark
        reason = err.problem or err.context or "invalid YAML"
        fix = None
        if mark is not None and _tab_at(source, mark.line, mark.column):
            # YAML's own words ("found character that cannot start any token") hide the cause.
            reason = f"a tab character ({reason}); YAML indents with spaces only"
            fix = "Replace the tab with spaces (two per level), as in the lines around it."
        problems.append(
            ParseProblem(
                Problem.INVALID_YAML,
                f"frontmatter is not valid YAML: {reason}",
                mark.line + 2 if mark else None,
                mark.column + 1 if mark else None,
                fix=fix,
            )
        )
        return False
    except (yaml.YAMLError, TypeError, ValueError, RecursionError) as err:
        meta.clear()
        fields.clear()
        problems.append(
            ParseProblem(Problem.INVALID_YAML, f"frontmatter is not valid YAML: {err}", 2, 1)
        )
        return False
    finally:
        loader.dispose()
    return True


def _tab_at(source: str, line: int, column: int) -> bool:
    """Whether YAML's error points at a tab, or at a line whose indentation holds one."""
    start = 0
    for _ in range(line):
        start = source.find("\n", start) + 1
        if start == 0:
            return False
    end = source.find("\n", start)
    text = source[start : end if end != -1 else len(source)]
    indent = text[: len(text) - len(text.lstrip(" \t"))]
    return "\t" in indent or text[column : column + 1] == "\t"


def _node_kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return "scalar"


# Tokens that open or close nothing a view reads.
_PASSIVE = frozenset(
    {
        "paragraph_open",
        "paragraph_close",
        "bullet_list_open",
        "bullet_list_close",
        "ordered_list_open",
        "ordered_list_close",
        "thead_open",
        "thead_close",
        "tbody_open",
        "tbody_close",
        "tr_open",
        "tr_close",
        "th_open",
        "th_close",
        "td_open",
        "td_close",
        "hr",
    }
)
# INLINE_SYNTAX's characters, each looked for by ``in`` (a ``memchr``): in the short text of
# an inline token, faster than the regex's class tested at every character. The class is four
# characters; another added fails this unpacking at import rather than going unread.
_SYNTAX_1, _SYNTAX_2, _SYNTAX_3, _SYNTAX_4 = tuple(one_of(INLINE_SYNTAX) or "")


class _Walk:
    """One pass over the token stream collecting what rules and scores read."""

    def __init__(self, lines: tuple[str, ...], offset: int, env: dict[str, Any]) -> None:
        self.lines = lines
        self.offset = offset
        self.env = env
        self.headings: list[Heading] = []
        self.code_blocks: list[CodeBlock] = []
        self.links: list[Link] = []
        self.prose: list[Prose] = []
        self.comments: list[Prose] = []
        self.inline_code: list[Prose] = []
        self.tables = 0
        self.list_items = 0
        self.blockquotes = 0
        self.problems: list[ParseProblem] = []
        # Per line of a table: where the cells found so far end.
        self._cells: dict[int, int] = {}

    def run(self, tokens: tuple[Token, ...]) -> None:
        heading_level = 0
        in_table = in_list = in_quote = 0
        list_items = tables = blockquotes = 0
        # Lines as the file counts them: the body's offset and markdown-it's 0-based start.
        first = self.offset + 1
        last_line = first
        prose = self.prose.append
        headings = self.headings.append
        env = self.env
        syntax_1, syntax_2, syntax_3, syntax_4 = _SYNTAX_1, _SYNTAX_2, _SYNTAX_3, _SYNTAX_4
        passive = _PASSIVE
        # ``_prose`` inlined for plain text, the commonest inline token: no call per token.
        new, set_text, set_line, set_block = _new, _PROSE_TEXT, _PROSE_LINE, _PROSE_BLOCK
        for tok in tokens:
            kind = tok.type
            # Most tokens are the paragraphs, lists and rows around inline text: skipped first.
            if kind in passive:
                continue
            # The other kinds by how often they come: inline text, list items, headings, then
            # the rest. Only the inline and html_block tokens read ``last_line``, and this
            # parser's rules (paragraph, heading, lheading, table, html_block) give each of
            # them a map: no other token's map is read.
            if kind == "inline":
                span = tok.map
                if span is not None:
                    last_line = first + span[0]
                block = (
                    "heading"
                    if heading_level
                    else "table"
                    if in_table
                    else "list"
                    if in_list
                    else "quote"
                    if in_quote
                    else "paragraph"
                )
                content = tok.content
                # ``INLINE_SYNTAX.search(content) is None``
                if not (
                    syntax_1 in content
                    or syntax_2 in content
                    or syntax_3 in content
                    or syntax_4 in content
                ):
                    # ``plain_text(content)``, not called for one line (its own shortcut).
                    text = content if "\n" not in content else plain_text(content)
                    item = new(Prose)
                    set_text(item, text)
                    set_line(item, last_line)
                    set_block(item, block)
                    prose(item)
                elif (
                    brackets_inert(content, env)
                    and NOT_CODE_SPAN_BUT_BRACKETS.search(content) is None
                ):
                    # Its "[" are text: the rest is text and line breaks, or code spans too.
                    if "`" in content:
                        text = self._code_spans(content, last_line, block)
                    else:
                        text = plain_text(content)
                        prose(_prose(text, last_line, block))
                else:
                    text = self._inline(tok, last_line, block)
                if heading_level:
                    headings(_heading(heading_level, text.strip(), last_line))
            elif kind == "list_item_open":
                list_items += 1
                in_list += 1
            elif kind == "list_item_close":
                in_list -= 1
            elif kind == "heading_open":
                heading_level = int(tok.tag[1:])
            elif kind == "heading_close":
                heading_level = 0
            elif kind in ("fence", "code_block"):
                self._code(tok, in_quote)
            elif kind == "table_open":
                tables += 1
                in_table += 1
            elif kind == "table_close":
                in_table -= 1
            elif kind == "blockquote_open":
                blockquotes += 1
                in_quote += 1
            elif kind == "blockquote_close":
                in_quote -= 1
            elif kind == "html_block":
                span = tok.map
                if span is not None:
                    last_line = first + span[0]
                self.comments.append(_prose(tok.content, last_line, "html"))
        self.list_items += list_items
        self.tables += tables
        self.blockquotes += blockquotes

    def _code(self, tok: Token, quotes: int = 0) -> None:
        """Record a code block; ``quotes`` is how many blockquotes it is inside (each of its
        lines, the closing fence's too, then begins with that many '>' markers)."""
        assert tok.map is not None
        start = self.offset + tok.map[0] + 1
        end = self.offset + tok.map[1]
        fenced = tok.type == "fence"
        closed = True
        if fenced:
            closing = self.lines[end - 1].strip() if end - 1 < len(self.lines) else ""
            for _ in range(quotes):  # "> ```" closes a fence opened in a blockquote
                closing = closing.removeprefix(">").lstrip()
            marker = tok.markup
            closed = end > start and closing.startswith(marker) and set(closing) <= {marker[0]}
        language = tok.info.strip().split()[0].lower() if tok.info.strip() else ""
        self.code_blocks.append(
            CodeBlock(
                language,
                tok.content,
                start,
                end,
                fenced,
                closed,
                quotes,
                tok.markup if fenced else "",
            )
        )

    def _inline(self, tok: Token, line: int, block: str) -> str:
        """Collect links and prose from one inline token; return its visible text."""
        content = tok.content
        if NOT_CODE_SPAN_ONLY.search(content) is None:
            return self._code_spans(content, line, block)
        rest = ""
        if len(content) > budgets.INLINE_MARKS:  # a hostile paragraph: its marks are counted
            content, rest = self._capped(content, line)
        # Children are read here and dropped: a document keeps no inline token.
        children = MD.inline.parse(content, MD, self.env, [])
        parts: list[str] = []
        start_line = line
        # The text's line holding the last link: where it starts in the text and in the file.
        row_start, scanned, origin = 0, 0, -1
        for child in children:
            kind = child.type
            if kind in ("softbreak", "hardbreak"):
                parts.append("\n")
                line += 1
            elif kind in ("text", "text_special"):
                parts.append(child.content)
            elif kind == "code_inline":
                parts.append(" ")
                self.inline_code.append(_prose(child.content, line, block))
            elif kind == "html_inline":
                self.comments.append(_prose(child.content, line, "html"))
            elif kind in ("link_open", "image"):
                attr = "href" if kind == "link_open" else "src"
                # markdown-it percent-encodes destinations; keep what the author wrote
                target = unquote(str(child.attrs.get(attr, "")))
                offset: int = child.meta.get(OFFSET, scanned)
                newline = content.rfind("\n", scanned, offset)
                if newline >= 0 or origin < 0:
                    row_start = newline + 1 if newline >= 0 else row_start
                    end = content.find("\n", row_start)
                    row = content[row_start : end if end >= 0 else len(content)]
                    origin = self._origin(line, row, block == "table")
                scanned = offset
                column = origin + offset - row_start + 1
                text = child.content if kind == "image" else ""
                self.links.append(Link(target, text, line, column, kind == "image"))
                if kind == "image":
                    parts.append(child.content)
        parts.append(rest)
        text = "".join(parts)
        self.prose.append(_prose(text, start_line, block))
        return text

    def _capped(self, content: str, line: int) -> tuple[str, str]:
        """``content`` cut after its first ``INLINE_MARKS`` marks (the characters links, code
        spans and HTML open with), at a line end when there is one before: each mark can make
        a few tokens, and one paragraph of a million would hold gigabytes of them. The rest
        is read as plain text, and a problem says where links stopped being read."""
        marks = sum(content.count(c) for c in (_SYNTAX_1, _SYNTAX_2, _SYNTAX_3, _SYNTAX_4))
        if marks <= budgets.INLINE_MARKS:
            return content, ""
        at = 0
        for seen, found in enumerate(INLINE_SYNTAX.finditer(content), 1):
            if seen > budgets.INLINE_MARKS:
                at = found.start()
                break
        newline = content.rfind("\n", 0, at)
        at = newline + 1 if newline > 0 else at
        where = line + content.count("\n", 0, at)
        self.problems.append(
            ParseProblem(
                Problem.TOO_LARGE,
                f"the paragraph at line {line} holds {marks:,} link, code and HTML marks; "
                f"from line {where} on, past {budgets.INLINE_MARKS:,}, it is read as plain "
                "text and its links are not checked",
                where,
            )
        )
        return content[:at], content[at:]

    def _code_spans(self, content: str, line: int, block: str) -> str:
        """``_inline`` for text whose only syntax is code spans, without the inline parser."""
        parts: list[str] = []
        start_line = line
        for kind, value in code_spans(content):
            if kind == "break":
                parts.append("\n")
                line += 1
            elif kind == "code":
                parts.append(" ")
                self.inline_code.append(_prose(value, line, block))
            else:
                parts.append(value)
        text = "".join(parts)
        self.prose.append(_prose(text, start_line, block))
        return text

    def _origin(self, line: int, row: str, in_table: bool) -> int:
        """Where one line of an inline token's text starts in the file's line (0-based).

        A paragraph's, list item's or quote's line is the file's line with its indent and
        markers cut (and the spaces of a partly used tab added); a table cell is found after
        the cells before it on the line. Text not found there (a cell with an escaped pipe)
        counts from the line's start.
        """
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        text = row.strip()
        lead = len(row) - len(row.lstrip())
        if not in_table:
            kept = source.rstrip()
            if kept.endswith(text):
                return len(kept) - len(text) - lead
        after = self._cells.get(line, 0)
        at = source.find(text, after) if in_table else source.find(text)
        if at < 0:
            return 0
        self._cells[line] = at + len(text)
        return at - lead


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


URL_RE = regexes.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//|^www\.")


def is_external(target: str) -> bool:
    """True for URLs, mail links and other schemes: never resolved as files."""
    return bool(URL_RE.match(target))


def link_path(target: str) -> str:
    """A link destination's path: without its #fragment and ?query, stripped (still quoted)."""
    return target.split("#", 1)[0].split("?", 1)[0].strip()


def resolve_link(target: str, base: str) -> str | None:
    """Where a relative link ``target`` in a file of folder ``base`` (relative to the skill
    folder, "" for SKILL.md's) points, normalised; None for a URL, an anchor alone, an
    absolute path or nothing. A result may leave the folder ("../x")."""
    path = link_path(target)
    if not path or is_external(path) or path.startswith("/"):
        return None
    return posixpath.normpath(posixpath.join(base, unquote(path)))
