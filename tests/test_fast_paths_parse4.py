"""Parsing's fourth-round shortcuts give what the plain way gives (a guard for upgrades and edits).

The list guard answers the list rule's validation-mode calls itself (``_starts_list``): every
such call a parse makes is checked, in the state the parse is in, against markdown-it-py's own
``list_block(state, line, end, True)``, and neither may change the state. ``_may_underline``
finds what a plain regex over the lines finds.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.list import list_block

import plugin_eval.markdown_parser as markdown_parser
from plugin_eval.markdown_parser import FAST_STATE, _may_underline, _State
from tests.test_fast_paths_parse import CORPUS, TEXT
from tests.test_fast_paths_parse2 import BREAK_TEXT, UNDERLINE_TEXT
from tests.test_fast_paths_parse3 import BLOCK_TEXT, assert_parses_as_markdown_it

needs_fast_state = pytest.mark.skipif(
    not FAST_STATE, reason="markdown-it-py's own code parses on this release"
)


def snapshot(state: _State) -> dict[str, Any]:
    """Every attribute of ``state``, its tables and tokens copied (a change to one shows)."""
    found = {**vars(state), "_starts": state._starts, "_tabs": state._tabs}  # and _State's slots
    return {
        name: copy.copy(value) if isinstance(value, list | dict) else value
        for name, value in found.items()
    }


@contextmanager
def checked_silent_lists(answers: list[bool]) -> Iterator[None]:
    """``_starts_list`` made to check every call against the library's list rule in validation
    mode, on the same state, and to note its answers in ``answers``."""
    fast = markdown_parser._starts_list

    def both(state: StateBlock, start: int, src: str, at: int, after: int, stop: int) -> bool:
        assert isinstance(state, _State)
        before = snapshot(state)
        made = fast(state, start, src, at, after, stop)
        assert snapshot(state) == before
        # The rule reads no end line before it answers a validation-mode call.
        expected = list_block(state, start, state.lineMax, True)
        assert snapshot(state) == before
        assert made == expected, (src, start)
        answers.append(made)
        return made

    markdown_parser._starts_list = both
    try:
        yield
    finally:
        markdown_parser._starts_list = fast


def assert_silent_lists_are_the_rules(src: str, answers: list[bool]) -> None:
    with checked_silent_lists(answers):
        assert_parses_as_markdown_it(src)


# Lines of lists: nested, ordered from various numbers, empty items, markers without a space
# after them, indented far enough to be code or a paragraph's continuation, in blockquotes,
# after paragraphs' lines; and the paragraphs, code and quotes they interrupt.
LIST_LINE = st.sampled_from(
    [
        *("- a", "* b", "+ c", "-", "- ", "-\t", "*\tx", "-a", "+b", "--", "- - x", "-  "),
        *("1. a", "1) b", "0. c", "2. d", "01. e", "001) f", "9. g", "10. h", "123456789. i"),
        *("1234567890. j", "1.", "1. ", "2.", "1.x", "1 a", "1", ".", "3)", "1.\tt"),
        *("  - n", "   - m", "    - code", "     - far", "  1. o", "   2. p", "      - q"),
        *("  text", "   text", "    code", "\tcode", " \t- t", "\t- u", "  \t1. v"),
        *("> - r", "> 1. s", "> 2. s", ">", "> text", ">  - w", ">     - x", "> > - y"),
        *("text", "more text", "", "", "", "# h", "---", "***", "```", "| a |", "|-|"),
    ]
)
LIST_TEXT = st.tuples(st.lists(LIST_LINE, min_size=1, max_size=16), st.booleans()).map(
    lambda drawn: "\n".join(drawn[0]) + ("\n" if drawn[1] else "")
)


@needs_fast_state
@settings(max_examples=3000, deadline=None)
@given(st.one_of(LIST_TEXT, LIST_TEXT, BLOCK_TEXT, TEXT, UNDERLINE_TEXT, BREAK_TEXT))
def test_silent_lists_are_the_rules(src: str) -> None:
    assert_silent_lists_are_the_rules(src, [])


@needs_fast_state
def test_silent_lists_answer_both_ways() -> None:
    """The checks above see the shortcut answer True and False (and so are run at all)."""
    answers: list[bool] = []
    for src in [
        "text\n- item\n- item",
        "text\n2. item",
        "text\n1. item",
        "text\n-\n",
        "- a\n  - b\n- c",
        "- a\n\n       - b",
        "1. a\n2. b\n3) c",
        "> text\n> - item",
    ]:
        assert_silent_lists_are_the_rules(src, answers)
    assert True in answers and False in answers


@needs_fast_state
@pytest.mark.parametrize("index", range(0, len(CORPUS), 100))
def test_silent_lists_are_the_rules_on_the_corpus(index: int) -> None:
    for text in CORPUS[index : index + 100]:
        assert_silent_lists_are_the_rules(text, [])


# The plain reading: a line that ends in "-" or "=" then spaces and tabs.
UNDERLINE_END = re.compile(r"[-=][ \t]*$", re.MULTILINE)
# Lines ending in underline characters, blanks and words in every order, blank lines first.
ENDING_LINE = st.lists(
    st.sampled_from(["", " ", "  ", "\t", "-", "=", "--", "x", "- x", "a-b", "\u3000"]),
    max_size=5,
).map("".join)
ENDING_TEXT = st.tuples(st.lists(ENDING_LINE, min_size=1, max_size=8), st.booleans()).map(
    lambda drawn: "\n".join(drawn[0]) + ("\n" if drawn[1] else "")
)


@settings(max_examples=3000, deadline=None)
@given(ENDING_TEXT)
def test_may_underline_is_the_plain_regexs(text: str) -> None:
    assert _may_underline(text) == (UNDERLINE_END.search(text) is not None)


def test_may_underline_is_the_plain_regexs_on_the_corpus() -> None:
    found = [_may_underline(text) for text in CORPUS]
    assert found == [UNDERLINE_END.search(text) is not None for text in CORPUS]
