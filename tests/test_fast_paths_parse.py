"""Parsing's shortcuts give what the plain way gives (a guard for upgrades and edits)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import markdown_it
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from plugin_eval.analysis import _lines_matching, lines_naming, naming_lines
from plugin_eval.document import SkillDocument, _holds_text, parse_text, read_frontmatter_file
from plugin_eval.markdown_parser import (
    _CHECKED,
    _READ_WITH_DEFAULT,
    FAST_STATE,
    MD,
    _block_state,
    _spans_of_runs,
    _State,
    code_spans,
    parse_lines,
)
from tests.conftest import CORPUS_REAL

REPO = Path(__file__).resolve().parents[1]
TABLES = ("bMarks", "eMarks", "tShift", "sCount", "bsCount", "lineMax")


def corpus_texts() -> list[str]:
    """Every SKILL.md of the repository's corpus and the shared one, decoded as parsed."""
    paths = sorted((REPO / "corpus").rglob("*.md"))
    if CORPUS_REAL.exists():
        paths += sorted(CORPUS_REAL.rglob("SKILL.md"))
    return [read_frontmatter_file(path.read_bytes()).text for path in paths]


CORPUS = corpus_texts()


def body_lines(text: str) -> list[str] | None:
    """The body of a SKILL.md's text as lines, or None when it holds nothing to parse."""
    head = read_frontmatter_file(text.encode())
    body = list(head.lines[head.body_start - 1 :])
    return body if _holds_text(tuple(body)) else None


# Lines of spaces, tabs and text in every order, with and without a final line feed, with
# NUL (made U+FFFD by parse_lines), non-ASCII text and whitespace that is neither.
LINE = st.lists(
    st.sampled_from([" ", "  ", "\t", " \t", "\t ", "a", "- b", "# h", "é", "字", "\0", "\u3000"]),
    max_size=6,
).map("".join)
TEXT = st.tuples(st.lists(LINE, min_size=1, max_size=12), st.booleans()).map(
    lambda drawn: "\n".join(drawn[0]) + ("\n" if drawn[1] else "")
)


def assert_same_state(src: str) -> None:
    lines = src.split("\n")
    text = "\n".join(lines).replace("\0", "\ufffd")
    if not text:
        return
    fast = _block_state(text, lines, {}, [])
    plain = StateBlock(text, MD, {}, [])
    assert vars(fast).keys() == vars(plain).keys()
    for name, value in vars(plain).items():
        assert getattr(fast, name) == value, name


TOKEN_FIELDS = [field.name for field in dataclasses.fields(Token)]


def view(tokens: list[Token]) -> list[tuple[Any, ...]]:
    """Every field of every token (a field Token gains is compared too)."""
    return [tuple(getattr(t, name) for name in TOKEN_FIELDS) for t in tokens]


# On a markdown-it-py release the shortcuts were not checked against, the library's own code
# parses (FAST_STATE is False) and the tests of the shortcuts themselves have nothing to test.
# To take a new release on: add it to _CHECKED and run this file.
checked_release = pytest.mark.skipif(
    not FAST_STATE, reason=f"markdown-it-py {markdown_it.__version__} parses with its own code"
)


def test_the_shortcuts_are_used_only_on_a_checked_release() -> None:
    assert (markdown_it.__version__ in _CHECKED) == FAST_STATE
    assert (MD.options.get("tasklists") is not None) == FAST_STATE


@checked_release
@pytest.mark.parametrize("nesting", [1, 0, -1])
def test_push_makes_stateblocks_token(nesting: Any) -> None:
    fast, plain = _State("", MD, {}, []), StateBlock("", MD, {}, [])
    fast.level = plain.level = 3
    made = fast.push("paragraph_open", "p", nesting)
    assert made == plain.push("paragraph_open", "p", nesting)  # every field, none left unset
    assert (fast.tokens, fast.level) == (plain.tokens, plain.level)
    assert made.attrs is not made.meta  # dicts of its own, as the default factories give


@checked_release
@pytest.mark.parametrize("index", range(0, len(CORPUS), 50))
def test_line_tables_are_stateblocks_on_the_corpus(index: int) -> None:
    for text in CORPUS[index : index + 50]:
        assert_same_state(text)
        # The body as parse_text gives it: from any line on.
        lines = text.split("\n")
        assert_same_state("\n".join(lines[len(lines) // 3 :]))


@checked_release
@settings(max_examples=1500, deadline=None)
@given(TEXT)
def test_line_tables_are_stateblocks(src: str) -> None:
    assert_same_state(src)


@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_parse_lines_gives_markdown_its_tokens(src: str) -> None:
    lines = src.split("\n")
    plain = MD.parse("\n".join(lines).replace("\0", "\ufffd"), {})
    assert view(parse_lines(lines, {})) == view(plain)


def test_parse_lines_gives_markdown_its_tokens_on_the_corpus() -> None:
    for text in CORPUS:
        lines = text.split("\n")
        assert view(parse_lines(lines, {})) == view(MD.parse(text.replace("\0", "\ufffd"), {}))


def option_defaults() -> dict[str, set[Any]]:
    """Every ``….options.get("name", default)`` in markdown-it's source: the defaults by name."""
    found: dict[str, set[Any]] = {}
    for path in Path(markdown_it.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "options"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                default = ast.literal_eval(node.args[1]) if len(node.args) > 1 else None
                found.setdefault(node.args[0].value, set()).add(default)
    return found


@checked_release
def test_options_set_are_the_defaults_markdown_it_reads_them_with() -> None:
    defaults = option_defaults()
    stock = MarkdownIt("commonmark").options
    for name, value in _READ_WITH_DEFAULT.items():
        assert name not in stock, name  # the preset sets none of them
        assert defaults.get(name) == {value}, name
        assert MD.options[name] == value


# File names and text around them: names that hold others ("a.md", "aa.md"), that end where
# another begins, that hold a line feed; lines with none, one or several of them.
NAME_PART = st.sampled_from(["a", "aa", ".md", "b", "s/", "\n", " ", "é"])
KEYS = st.sets(
    st.lists(NAME_PART, min_size=1, max_size=4).map(lambda parts: "".join(parts).encode()),
    max_size=5,
)
RAW = st.lists(st.sampled_from(["a", "aa", ".md", "b", "x", " ", "\n", "\n\n", "é"]), max_size=30)


@settings(max_examples=1500, deadline=None)
@given(RAW.map(lambda parts: "".join(parts).encode()), KEYS)
def test_lines_naming_are_the_regexs(raw: bytes, keys: set[bytes]) -> None:
    assert lines_naming(raw, keys) == _lines_matching(raw, keys)


# Text of one line with lone backticks (code_spans' own path), and with what leaves it to
# _spans_of_runs: runs of two or more, line ends.
SPAN_TEXT = st.lists(
    st.sampled_from(["`", "a", "b c", " ", "  ", "\t", "é", "x`y", "` `", "`  `", "``", "\n"]),
    max_size=14,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(SPAN_TEXT)
def test_code_spans_of_lone_backticks_are_those_of_runs(content: str) -> None:
    assert code_spans(content) == _spans_of_runs(content)


def naming_lines_plainly(doc: SkillDocument) -> list[int]:
    in_code: set[int] = set()
    for block in doc.code_blocks:
        in_code.update(range(block.line, block.end_line + 1))
    lines = doc.lines
    return [
        number
        for number in range(doc.body_start, len(lines) + 1)
        if number not in in_code
        and (":" in lines[number - 1] or "skill" in lines[number - 1].lower())
    ]


# Bodies of fences (closed, unclosed, indented, in lists) between lines that name skills.
BODY_LINE = st.sampled_from(
    ["```", "~~~", "    code: x", "- ```", "  ```", "a: b", "Uses the SKILL", "x", "", "> ```"]
)
SKILL_TEXT = st.lists(BODY_LINE, max_size=14).map(
    lambda lines: "---\nname: x\n---\n" + "\n".join(lines)
)


@settings(max_examples=800, deadline=None)
@given(SKILL_TEXT)
def test_naming_lines_are_those_outside_code_blocks(text: str) -> None:
    doc = parse_text(Path("x"), text.encode())
    assert naming_lines(doc) == naming_lines_plainly(doc)


def test_naming_lines_are_those_outside_code_blocks_on_the_corpus() -> None:
    for text in CORPUS:
        doc = parse_text(Path("x"), text.encode())
        assert naming_lines(doc) == naming_lines_plainly(doc)
