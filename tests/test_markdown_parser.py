"""The parser's shortcuts give what markdown-it itself gives (a guard for markdown-it upgrades)."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from plugin_eval.markdown_parser import INLINE_SYNTAX, MD, parse, plain_text

# markdown-it as it comes, with the same rules on: every block rule tried on every line,
# the inline parser run on every inline token.
STOCK = MarkdownIt("commonmark").enable("table").disable(["emphasis", "entity"])

LINE_STARTS = [
    "",
    " ",
    "   ",
    "    ",
    "\t",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "> ",
    "# ",
    "```",
    "~~~",
    "---",
    "***",
    "___",
    "| ",
    "[a]: /x",
    "<div>",
    "<!-- ",
    "===",
    "a ",
    "-",
]
LINE_ENDS = ["", " b", " | c |", "|---|---|", "  ", " *d*", " `e`", " <f>", "\\", " [g]", " -->"]
# Delimiter-row look-alikes: a table needs its second line made of |, -, : and blanks only.
LINE_ENDS += [":-", "-:|", "\t|", "|-x", " :---: "]
MARKDOWN = st.lists(
    st.tuples(st.sampled_from(LINE_STARTS), st.sampled_from(LINE_ENDS)), max_size=12
).map(lambda lines: "\n".join(start + end for start, end in lines))
WORDS = st.text(alphabet=st.sampled_from(list("ab *_#-!&|:.")), max_size=8)
PLAIN = st.lists(
    st.tuples(
        st.sampled_from(["", " ", "  ", "\t "]), WORDS, st.sampled_from(["", " ", "  ", "\t"])
    ),
    min_size=1,
    max_size=5,
).map(lambda lines: "\n".join(lead + words + tail for lead, words, tail in lines).strip())


def block_view(tokens: list[Token]) -> list[tuple[Any, ...]]:
    return [(t.type, t.map, t.content, t.markup, t.info, t.level, t.attrs) for t in tokens]


@settings(max_examples=400, deadline=None)
@given(MARKDOWN)
def test_block_tokens_are_markdown_its(source: str) -> None:
    assert block_view(parse(source, {})) == block_view(STOCK.parse(source))


@settings(max_examples=400, deadline=None)
@given(PLAIN)
def test_plain_text_is_what_the_inline_parser_shows(text: str) -> None:
    assert INLINE_SYNTAX.search(text) is None
    children = MD.inline.parse(text, MD, {}, [])
    shown = "".join("\n" if c.type in ("softbreak", "hardbreak") else c.content for c in children)
    assert plain_text(text) == shown


def test_nul_becomes_the_replacement_character() -> None:
    assert block_view(parse("a\0b", {})) == block_view(STOCK.parse("a\0b"))


CODE_PIECES = st.sampled_from(
    ["`", "``", "```", "a", "b c", " ", "  ", "\t", "\n", "\n  ", "x`y", "` `", "``a`b``", "é"]
)
CODE_TEXT = st.lists(CODE_PIECES, max_size=16).map("".join)


def _walked(content: str, fast: bool) -> tuple[Any, ...]:
    from plugin_eval.document import _Walk

    walk = _Walk(("",) * 40, 0, {})
    token = Token("inline", "", 0)
    token.content = content
    text = walk._code_spans(content, 3, "paragraph") if fast else _full_inline(walk, token)
    return text, walk.prose, walk.inline_code


def _full_inline(walk: Any, token: Token) -> str:
    # The general path: markdown-it's own inline parser.
    import plugin_eval.document as document

    original = getattr(document, "NOT_CODE_SPAN_ONLY")  # noqa: B009
    setattr(document, "NOT_CODE_SPAN_ONLY", re.compile("."))  # noqa: B010
    try:
        return str(walk._inline(token, 3, "paragraph"))
    finally:
        setattr(document, "NOT_CODE_SPAN_ONLY", original)  # noqa: B010


@settings(max_examples=1500, deadline=None)
@given(CODE_TEXT)
def test_code_span_text_reads_as_markdown_it_reads_it(raw: str) -> None:
    # Inline content reaches the walk trimmed, as block rules leave it.
    content = raw.strip()
    assert _walked(content, fast=True) == _walked(content, fast=False)


def test_code_spans_by_hand() -> None:
    from plugin_eval.markdown_parser import code_spans

    assert code_spans("run `a  b` then ``x`y``") == [
        ("text", "run "),
        ("code", "a  b"),
        ("text", " then "),
        ("code", "x`y"),
    ]
    assert code_spans("``not closed` here") == [("text", "``not closed` here")]
    assert code_spans("a  \n  `` b ``\nc") == [
        ("text", "a"),
        ("break", "\n"),
        ("code", "b"),
        ("break", "\n"),
        ("text", "c"),
    ]
