"""Parsing's second-round shortcuts give what the plain way gives (a guard for upgrades and edits)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.ruler import Ruler
from markdown_it.token import Token

import plugin_eval.document as document
from plugin_eval.analysis import _SEARCH, _SEARCH_WORDS, names_a_search
from plugin_eval.document import (
    Heading,
    Prose,
    _heading,
    _prose,
    _Walk,
    read_frontmatter_file,
)
from plugin_eval.markdown_parser import (
    _PARSERS,
    FAST_STATE,
    MD,
    _block_state,
    _may_underline,
    _parser,
    parse_lines,
)
from plugin_eval.triggering import GENERIC_VERBS, STOPWORDS, _vague, words_of
from tests.test_fast_paths_parse import CORPUS, body_lines, view


@contextmanager
def full_inline_parse() -> Iterator[None]:
    """Every inline token read by markdown-it's own inline parser: no shortcut taken."""
    replacements: dict[str, Any] = {
        # Every text holds "": no token is taken for plain text.
        "_SYNTAX_1": "",
        "brackets_inert": lambda content, env: False,
        "NOT_CODE_SPAN_ONLY": re.compile("."),
    }
    saved = {name: getattr(document, name) for name in replacements}
    for name, value in replacements.items():
        setattr(document, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(document, name, value)


def walked(lines: list[str]) -> tuple[Any, ...]:
    """What the walk collects from ``lines`` (fresh tokens each time: the walk gives an inline
    token parsed in full its children), the parser's env (its references) passed on."""
    env: dict[str, Any] = {}
    walk = _Walk(tuple(lines), 0, env)
    walk.run(tuple(parse_lines(lines, env)))
    return walk.prose, walk.links, walk.inline_code, walk.comments, walk.headings


def both_ways(lines: list[str]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """What the walk collects with its shortcuts, and without."""
    fast = walked(lines)
    with full_inline_parse():
        plain = walked(lines)
    return fast, plain


# Text around brackets: links and images, whole and broken, reference labels, code spans, and
# the syntax that leaves text to the inline parser whatever its brackets.
BRACKET_PIECES = st.sampled_from(
    [
        *("[", "]", "(", ")", "](", "![", "!", "[x]", "[ ] ", "[a](b)", "](b)", "[x][x]"),
        *("`", "``", "`[`", "a", "b c", " ", "  ", "\n", "\n  ", "\t", "<", "<a>", "\\", "é"),
    ]
)
# A paragraph line per piece list, so that block syntax does not swallow the text.
BRACKET_TEXT = st.lists(BRACKET_PIECES, min_size=1, max_size=14).map(lambda p: "x " + "".join(p))
# A reference definition makes "[x]" a link: with one, brackets are read by the parser.
DEFINITION = ["", "[x]: /target"]


@settings(max_examples=1500, deadline=None)
@given(BRACKET_TEXT, st.sampled_from(DEFINITION))
def test_inert_brackets_read_as_markdown_it_reads_them(text: str, definition: str) -> None:
    lines = [*text.split("\n"), "", definition]
    fast, plain = both_ways(lines)
    assert fast == plain


@pytest.mark.parametrize("text", CORPUS[::7])
def test_corpus_walks_as_with_the_inline_parser(text: str) -> None:
    body = body_lines(text)
    if body is None:
        return
    fast, plain = both_ways(body)
    assert fast == plain


MADE = st.tuples(st.integers(), st.text(max_size=8), st.integers())


@given(MADE)
def test_made_prose_and_headings_are_their_classes(values: tuple[int, str, int]) -> None:
    number, text, line = values
    for made, plain in (
        (_prose(text, line, "list"), Prose(text, line, "list")),
        (_heading(number, text, line), Heading(number, text, line)),
    ):
        assert type(made) is type(plain)
        assert made == plain
        # Every field set (a field the class gains and the maker misses fails here).
        for field in dataclasses.fields(plain):
            assert getattr(made, field.name) == getattr(plain, field.name)


def plain_vague(text: str, name: str | None) -> bool:
    content = set(words_of(text)).difference(STOPWORDS)
    named = set(words_of((name or "").replace("-", " ")))
    # A verb that says nothing of the task names nothing beyond the name.
    return content - GENERIC_VERBS <= named or len(content) < 3


VAGUE_TEXT = st.lists(
    st.sampled_from(
        ["pdf", "PDF", "tools", "the", "of", "a", "x", "é", "字", "-", " ", ", ", "ſ", "working"]
    ),
    max_size=10,
).map(" ".join)


@settings(max_examples=1500, deadline=None)
@given(VAGUE_TEXT, st.sampled_from([None, "", "pdf-tools", "pdf", "x-the"]))
def test_vague_reads_as_its_plain_form(text: str, name: str | None) -> None:
    assert _vague(text, name) == plain_vague(text, name)


def test_vague_reads_corpus_descriptions_as_its_plain_form() -> None:
    for text in CORPUS:
        head = read_frontmatter_file(text.encode())
        description = str(head.frontmatter.get("description", ""))
        name = str(head.frontmatter.get("name", ""))
        assert _vague(description, name) == plain_vague(description, name)


def tokens_with(md: MarkdownIt, text: str) -> list[tuple[Any, ...]]:
    lines = text.split("\n")
    tokens: list[Token] = []
    state = _block_state(text, lines, {}, tokens, md)
    md.block.tokenize(state, state.line, state.lineMax)
    return view(tokens)


# Lines that start tables, lists, quotes and headings but for their pipes.
TABLE_LINE = st.sampled_from(
    ["a ! b", "---", "- x", "-:-", ":-:", "--- ---", "> q", "# h", "", "  ---", "\t-", "x"]
)


@pytest.mark.skipif(not FAST_STATE, reason="markdown-it-py's own code parses on this release")
@settings(max_examples=800, deadline=None)
@given(st.lists(TABLE_LINE, min_size=1, max_size=12).map("\n".join))
def test_text_without_pipes_parses_alike_without_the_table_rule(text: str) -> None:
    assert "|" not in text
    assert tokens_with(_PARSERS[False, True], text) == tokens_with(MD, text)


@pytest.mark.skipif(not FAST_STATE, reason="markdown-it-py's own code parses on this release")
@pytest.mark.parametrize("text", CORPUS[::5])
def test_corpus_without_pipes_parses_alike_without_the_table_rule(text: str) -> None:
    text = text.replace("|", "!")  # its tables' rows become text
    assert tokens_with(_PARSERS[False, True], text) == tokens_with(MD, text)


def test_chains_are_looked_up_as_ruler_looks_them_up() -> None:
    md = _parser()
    ruler = md.block.ruler
    for name in ("", "paragraph", "reference", "blockquote", "list", "no such chain"):
        assert ruler.getRules(name) == Ruler.getRules(ruler, name)
        assert "getRules" in vars(ruler)  # the shortcut, once compiled
    # A change to the rules drops the shortcut; the next lookup compiles them again.
    ruler.disable("table")
    assert "getRules" not in vars(ruler)
    assert ruler.getRules("paragraph") == Ruler.getRules(ruler, "paragraph")
    assert "getRules" in vars(ruler)


SEARCH_TEXT = st.lists(
    st.sampled_from(
        [
            *("grep", "GREP", "Rg", "ls", "look", "LOOKS", "up", "it", "index", "searching"),
            *(" ", "\n", "_", "-", "/", "x", "ſ", "K", "İ", "é", "2", "lookup", "look  it\tup"),
        ]
    ),
    max_size=10,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(SEARCH_TEXT)
def test_names_a_search_is_the_regexs_search(text: str) -> None:
    assert names_a_search(text) == (_SEARCH.search(text) is not None)


def test_search_words_are_lowercase() -> None:
    # Searched in lowered text: a capital in the pattern (outside an escape) would never match.
    assert re.sub(r"\\.", "", _SEARCH_WORDS.pattern).islower()


def test_names_a_search_in_corpus_blocks() -> None:
    for text in CORPUS:
        for block in text.split("\n\n"):
            assert names_a_search(block) == (_SEARCH.search(block) is not None)


# Lines ending, or nearly, in the characters of an underline, and paragraphs around them.
UNDERLINE_LINE = st.sampled_from(
    [
        *("a", "b c", "", "===", "---", "- x", "x -", "x =", "x - ", "x =\t", "= x", "-- x"),
        *("> -", "a  ", "  ---  ", "\t=", "# h", "    code", "x-y", "x=y", "- - -", "1. x"),
        *("| a |", "|-|", "*"),
    ]
)
UNDERLINE_TEXT = st.lists(UNDERLINE_LINE, min_size=1, max_size=12).map("\n".join)
_UNDERLINE_END = re.compile(r"[-=][ \t]*$", re.MULTILINE)


@settings(max_examples=1500, deadline=None)
@given(UNDERLINE_TEXT)
def test_may_underline_is_a_line_ending_in_an_underline_character(text: str) -> None:
    assert _may_underline(text) == (_UNDERLINE_END.search(text) is not None)


@pytest.mark.skipif(not FAST_STATE, reason="markdown-it-py's own code parses on this release")
@settings(max_examples=1500, deadline=None)
@given(UNDERLINE_TEXT)
def test_each_parser_variant_parses_what_it_is_for_alike(text: str) -> None:
    tables, underlines = "|" in text, _may_underline(text)
    assert tokens_with(_PARSERS[tables, underlines], text) == tokens_with(MD, text)
    # A variant for less than the text holds is allowed no different tokens either: without
    # the text's characters, its rules would have found nothing.
    if not tables:
        assert tokens_with(_PARSERS[False, True], text) == tokens_with(MD, text)
    if not underlines:
        assert tokens_with(_PARSERS[True, False], text) == tokens_with(MD, text)


@pytest.mark.skipif(not FAST_STATE, reason="markdown-it-py's own code parses on this release")
@pytest.mark.parametrize("text", CORPUS[::5])
def test_corpus_parses_alike_with_its_variant(text: str) -> None:
    variant = _PARSERS["|" in text, _may_underline(text)]
    assert tokens_with(variant, text) == tokens_with(MD, text)


STOCK = MarkdownIt("commonmark").enable("table").disable(["emphasis", "entity"])
# Lines that are thematic breaks or nearly: one marker, spaces and tabs in any order, and at
# times a word at the end.
BREAK_LINE = st.tuples(
    st.sampled_from("*-_"),
    st.lists(st.sampled_from(["m", " ", "\t"]), max_size=7).map("".join),
    st.sampled_from(["", "", "x", " x", "**b**"]),
).map(lambda drawn: drawn[1].replace("m", drawn[0]) + drawn[2])
BREAK_TEXT = st.lists(BREAK_LINE.map("".join), min_size=1, max_size=8).map("\n".join)


@settings(max_examples=1500, deadline=None)
@given(BREAK_TEXT)
def test_thematic_breaks_are_markdown_its(text: str) -> None:
    fields = ("type", "map", "markup", "content")

    def blocks(tokens: list[Token]) -> list[tuple[Any, ...]]:
        return [tuple(getattr(t, name) for name in fields) for t in tokens]

    assert blocks(parse_lines(text.split("\n"), {})) == blocks(STOCK.parse(text))
