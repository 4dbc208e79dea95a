"""The static layer's shortcuts find what the plain way finds (a guard for upgrades and edits)."""

from __future__ import annotations

import re
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from plugin_eval.analysis import (
    CASE_TRAPS,
    DEPENDENCY,
    _dependency_lines,
)
from plugin_eval.markdown_parser import parse
from plugin_eval.rules.pe306_evaluator_directed import (
    _ADDRESS_STEMS,
    _ADDRESS_WORDS,
    _word_starts,
)
from plugin_eval.scoring import subscores
from plugin_eval.textsearch import from_starts

STOCK = MarkdownIt("commonmark").enable("table").disable(["emphasis", "entity"])

# Line starts near what the hr, list and lheading guards test: markers with and without the
# space after them, runs of markers, ten-digit numbers, bold text.
LINE_STARTS = [
    *("", " ", "   ", "    ", "\t", " \t", "  \t"),
    *("- ", "-", "* ", "*", "**", "+ ", "+", "-1. ", "1.", "1. ", "2) ", "1)x", "0. "),
    *("123456789. ", "1234567890. ", "- - -", "* * *", "_ _ _", "***", "___", "--", "-- -x"),
    *("==", "=", "= =", "# ", "> ", "```", "| ", "a "),
]
LINE_ENDS = ["", " b", "-", "---", " -", "\t", "x", "*", " |", "|---|", "  "]
MARKDOWN = st.lists(
    st.tuples(st.sampled_from(LINE_STARTS), st.sampled_from(LINE_ENDS)), min_size=1, max_size=14
).map(lambda lines: "\n".join(start + end for start, end in lines))


def block_view(tokens: list[Token]) -> list[tuple[Any, ...]]:
    fields = "type tag nesting map content markup info level attrs meta block hidden".split()
    return [tuple(getattr(t, name) for name in fields) for t in tokens]


@settings(max_examples=800, deadline=None)
@given(MARKDOWN, st.booleans())
def test_guarded_rules_give_markdown_its_tokens(source: str, final_newline: bool) -> None:
    source += "\n" if final_newline else ""
    assert block_view(parse(source, {})) == block_view(STOCK.parse(source))


DEPENDENCY_TEXT = st.lists(
    st.sampled_from(
        [
            *("uses ", "Use ", "USING ", "run ", "needs ", "depends on ", "hand it off to "),
            *("the ", "`pdf-tools`", "**my-skill**", "acme:lint", "csv-helper", " skill", "ſ"),
            *("re", "call", " ", "\t", "-", "é", "İ", "K", "bus ", "rerun "),
        ]
    ),
    max_size=10,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(DEPENDENCY_TEXT)
def test_dependency_matches_are_the_regexs(text: str) -> None:
    def spans(matches: Any) -> list[tuple[int, int]]:
        return [m.span() for m in matches]

    assert spans(m for _, m in _dependency_lines([text])) == spans(DEPENDENCY.finditer(text))


ADDRESS_TEXT = st.lists(
    st.sampled_from([*_ADDRESS_WORDS, "rat", "rate", "grad", "being", " ", "_", "x", "é"]),
    max_size=10,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(ADDRESS_TEXT, st.integers(0, 6), st.integers(0, 6))
def test_word_starts_by_stem_are_those_by_word(text: str, cut: int, trim: int) -> None:
    end = max(cut, len(text) - trim)
    by_stem = _word_starts(text, _ADDRESS_WORDS, cut, end, _ADDRESS_STEMS)
    assert by_stem == _word_starts(text, _ADDRESS_WORDS, cut, end)


@settings(max_examples=300, deadline=None)
@given(st.lists(DEPENDENCY_TEXT, max_size=6))
def test_dependency_lines_are_each_lines_matches(texts: list[str]) -> None:
    def spans(found: Any) -> list[tuple[int, int, int]]:
        return [(i, *m.span()) for i, m in found]

    each = [(i, m) for i, text in enumerate(texts) for m in DEPENDENCY.finditer(text)]
    assert spans(_dependency_lines(texts)) == spans(each)


def test_case_traps_are_all_the_characters_lower_does_not_fold_as_re_does() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    traps = {
        char
        for char in map(chr, range(0x80, sys.maxunicode + 1))
        if not "\ud800" <= char <= "\udfff"
        and (len(char.lower()) != 1 or char.lower().isascii() or letter.fullmatch(char))
    }
    assert traps == set(CASE_TRAPS)


IO_TEXT = st.lists(
    st.sampled_from(
        [
            *subscores.IO_PROSE_STARTS,
            *("s ", "es ", " with ", " a ", " the ", " json", " as its input", " as input"),
            *("input:", "output:", ":", "x", "re", " ", "\n", ".", "_", "é"),
        ]
    ),
    max_size=10,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(IO_TEXT)
def test_io_prose_from_its_starts_is_the_regexs(text: str) -> None:
    def spans(matches: Any) -> list[tuple[int, int]]:
        return [m.span() for m in matches]

    found = from_starts(subscores.IO_PROSE, text, subscores.IO_PROSE_STARTS)
    assert spans(found) == spans(subscores.IO_PROSE.finditer(text))


PLACEHOLDER_TEXT = st.lists(
    st.sampled_from(
        [*("- ", "**", "Name", "Risk", " ", ":", ": ", "[", "<", "{", "\n", "\n\n", "#", "x")]
    ),
    max_size=14,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(PLACEHOLDER_TEXT)
def test_placeholder_lines_are_no_more_than_their_ends(text: str) -> None:
    ends = subscores._PLACEHOLDER_END.findall(text)
    assert len(ends) >= len(subscores._PLACEHOLDER_LINE.findall(text))
