"""Fast paths of the token walk, each against its plain way, on generated text and the corpus."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_eval import document
from plugin_eval.document import _Walk
from plugin_eval.markdown_parser import (
    INLINE_SYNTAX,
    NOT_CODE_SPAN_BUT_BRACKETS,
    NOT_CODE_SPAN_ONLY,
    parse_lines,
)
from plugin_eval.textsearch import one_of
from tests.test_fast_paths_parse import CORPUS, body_lines
from tests.test_fast_paths_parse2 import full_inline_parse

CLASSES = [
    INLINE_SYNTAX,
    NOT_CODE_SPAN_ONLY,
    NOT_CODE_SPAN_BUT_BRACKETS,
    re.compile("[ab]"),
    re.compile("x"),
    re.compile(r"[\]\\^-]"),
    re.compile("a|b"),  # re's parser makes these a class and a literal
    re.compile("(?:a)"),
]
# Regexes that are not one class of literal characters: one_of knows no characters for them.
OTHERS = ["[^a]", "ab", "[a-z]", "[ab]c", r"\w", r"[\w]", "a|bc", "a*", "^a"]

TEXT = st.text(alphabet=st.sampled_from(list("ab x[]`<\\^-é\n")), max_size=30)


@settings(max_examples=1500, deadline=None)
@given(TEXT)
def test_one_of_gives_the_characters_a_text_must_hold(text: str) -> None:
    for regex in CLASSES:
        chars = one_of(regex)
        assert chars
        assert (regex.search(text) is None) == (not any(c in text for c in chars))


def test_one_of_knows_nothing_of_other_regexes() -> None:
    for pattern in OTHERS:
        assert one_of(re.compile(pattern)) is None
    assert one_of(re.compile("[ab]", re.IGNORECASE)) is None
    assert one_of(INLINE_SYNTAX) == "".join(
        (document._SYNTAX_1, document._SYNTAX_2, document._SYNTAX_3, document._SYNTAX_4)
    )


def walked(lines: list[str]) -> tuple[Any, ...]:
    env: dict[str, Any] = {}
    tokens = tuple(parse_lines(lines, env))
    # The walk reads a line only from the inline and html_block tokens' own maps.
    assert all(t.map is not None for t in tokens if t.type in ("inline", "html_block"))
    walk = _Walk(tuple(lines), 3, env)
    walk.run(tokens)
    return (
        walk.prose,
        walk.links,
        walk.inline_code,
        walk.comments,
        walk.headings,
        walk.code_blocks,
        walk.tables,
        walk.list_items,
        walk.blockquotes,
    )


def both_ways(lines: list[str]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    fast = walked(lines)
    with full_inline_parse():  # every token read by markdown-it's inline parser
        plain = walked(lines)
    return fast, plain


PIECES = st.sampled_from(
    [
        *("a", "b c", " ", "  ", "\n", "\n\n", "\t", "é", "[", "]", "[a](b)", "`", "`c`"),
        *("<", "<a>", "<!-- x -->", "\\", "\\*", "# ", "## ", "- ", "1. ", "> ", "| a | b |\n"),
        *("|---|---|\n", "```\n", "    ", "x\n===\n", "***\n", "<div>\n"),
    ]
)
MARKDOWN = st.lists(PIECES, max_size=24).map("".join)


@settings(max_examples=1500, deadline=None)
@given(MARKDOWN)
def test_walk_reads_inline_text_as_the_inline_parser_does(text: str) -> None:
    fast, plain = both_ways(text.split("\n"))
    assert fast == plain


@pytest.mark.parametrize("text", CORPUS[::3])
def test_corpus_walks_as_with_the_inline_parser(text: str) -> None:
    body = body_lines(text)
    if body is None:
        return
    fast, plain = both_ways(body)
    assert fast == plain
