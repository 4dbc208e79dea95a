"""Parsing's third-round shortcuts give what the plain way gives (a guard for upgrades and edits).

Each override of a StateBlock method on ``_State`` is checked on every call a parse makes of it,
in the states the rules leave the tables in mid-parse (list items and blockquotes move a line's
beginning and indent), against StateBlock's own method; and the tokens of a whole parse against
those of markdown-it-py's own parser.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from plugin_eval.markdown_parser import FAST_STATE, _block_state, _State, parse_lines
from tests.test_fast_paths_parse import CORPUS, TEXT, view
from tests.test_fast_paths_parse2 import BREAK_TEXT, UNDERLINE_TEXT

pytestmark = pytest.mark.skipif(
    not FAST_STATE, reason="markdown-it-py's own code parses on this release"
)

# markdown-it-py's own parser, with the rules ours leaves out left out too.
STOCK = (
    MarkdownIt("commonmark")
    .enable("table")
    .disable(["normalize", "emphasis", "entity", "inline", "text_join"])
)

# Lines of nested lists, blockquotes, fences and code, indented by spaces and tabs: the states
# in which lines' beginnings and indents are moved.
BLOCK_LINE = st.sampled_from(
    [
        *("- a", "  - b", "    - c", "* x", "+ y", "1. o", "2) p", "10. q", "-", "- ", "-\tt"),
        *("  text", "    code", "\tcode", " \t x", "> q", ">  q", ">\tq", "> - l", "> > n", ">"),
        *("```", "~~~ py", "  ```", "- ```", "> ```", "   -   wide", "-     far", "  1. z"),
        *("a", "b c", "", "", "# h", "---", "| a | b |", "|---|---|", "x  ", "  ", "\t"),
    ]
)
BLOCK_TEXT = st.tuples(st.lists(BLOCK_LINE, min_size=1, max_size=14), st.booleans()).map(
    lambda drawn: "\n".join(drawn[0]) + ("\n" if drawn[1] else "")
)
ANY_TEXT = st.one_of(BLOCK_TEXT, TEXT, UNDERLINE_TEXT, BREAK_TEXT)


@contextmanager
def checked(name: str, compare: Callable[[Any, Any], None]) -> Iterator[None]:
    """``_State.name`` made to check every call against StateBlock's own method."""
    fast, plain = getattr(_State, name), getattr(StateBlock, name)

    def both(self: _State, *args: Any) -> Any:
        made = fast(self, *args)
        compare(made, plain(self, *args))
        return made

    setattr(_State, name, both)
    try:
        yield
    finally:
        setattr(_State, name, fast)


def equal(made: Any, expected: Any) -> None:
    assert made == expected


def assert_parses_as_markdown_it(src: str) -> None:
    lines = src.split("\n")
    expected = STOCK.parse("\n".join(lines).replace("\0", "\ufffd"), {})
    with checked("getLines", equal):
        assert view(parse_lines(lines, {})) == view(expected)


@settings(max_examples=2000, deadline=None)
@given(ANY_TEXT)
def test_parses_as_markdown_it(src: str) -> None:
    assert_parses_as_markdown_it(src)


@pytest.mark.parametrize("index", range(0, len(CORPUS), 100))
def test_corpus_parses_as_markdown_it(index: int) -> None:
    for text in CORPUS[index : index + 100]:
        assert_parses_as_markdown_it(text)


@settings(max_examples=1000, deadline=None)
@given(BLOCK_TEXT, st.data())
def test_get_lines_is_stateblocks_for_any_range(src: str, data: st.DataObject) -> None:
    lines = src.split("\n")
    state = _block_state(src, lines, {}, [])
    begin = data.draw(st.integers(0, state.lineMax))
    end = data.draw(st.integers(0, state.lineMax))
    indent = data.draw(st.integers(0, 6))
    keep = data.draw(st.booleans())
    assert state.getLines(begin, end, indent, keep) == StateBlock.getLines(
        state, begin, end, indent, keep
    )
