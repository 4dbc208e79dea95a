"""The static layer's shortcuts find what the plain way finds (a guard for upgrades and edits)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from plugin_eval.analysis import DEPENDENCY, _dependency_matches
from plugin_eval.markdown_parser import parse
from plugin_eval.rules.pe306_evaluator_directed import (
    _ADDRESS_STEMS,
    _ADDRESS_WORDS,
    _word_starts,
)

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

    assert spans(_dependency_matches(text)) == spans(DEPENDENCY.finditer(text))


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
