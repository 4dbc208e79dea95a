"""The sub-scores' and rules' shortcuts find what the plain way finds (a guard for edits)."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_eval.analysis import CASE_TRAPS, Facts
from plugin_eval.document import CodeBlock, Heading, SkillDocument, parse_skill, parse_text
from plugin_eval.rules import pe306_evaluator_directed as pe306
from plugin_eval.rules.pe113_third_person import FIRST_PERSON, QUOTED
from plugin_eval.scoring import subscores
from plugin_eval.textsearch import Lowered, _first, _needs, _starts, led, needed, word_openings
from plugin_eval.triggering import display_width
from tests.conftest import CORPUS_REAL

PARSER: Any = importlib.import_module("re._parser")
REPO = Path(__file__).resolve().parents[1]

# Every case-insensitive regex the sub-scores search lower-cased.
LOWERED = {name: value for name, value in vars(subscores).items() if isinstance(value, Lowered)}


def test_every_heading_regex_is_searched_lower_cased() -> None:
    assert set(LOWERED) == {
        *("INPUT_HEADING", "OUTPUT_HEADING", "EXAMPLE_HEADING", "USAGE_HEADING"),
        *("EDGE_HEADING", "SEE_ALSO"),
    }


def _atoms(items: Any) -> Iterator[str]:
    """Each one-character test of a parsed pattern, as a pattern of its own; an operator the
    proof does not know fails it, so that a new one is looked at."""
    for op, av in items:
        if op is PARSER.LITERAL:
            yield re.escape(chr(av))
        elif op is PARSER.NOT_LITERAL:
            yield "[^" + re.escape(chr(av)) + "]"
        elif op is PARSER.IN:
            yield "[" + "".join(_set_item(o, a) for o, a in av) + "]"
        elif op is PARSER.AT:
            # \b reads \w, ^ and $ the line feed: both proved below whatever the pattern.
            assert av in (PARSER.AT_BOUNDARY, PARSER.AT_BEGINNING, PARSER.AT_END), av
        elif op is PARSER.SUBPATTERN:
            assert not av[1] and not av[2], "an inline flag changes the case folding"
            yield from _atoms(av[3])
        elif op is PARSER.BRANCH:
            for branch in av[1]:
                yield from _atoms(branch)
        elif op in (PARSER.MAX_REPEAT, PARSER.MIN_REPEAT):
            yield from _atoms(av[2])
        else:
            raise AssertionError(f"not proved for {op}")


def _set_item(op: Any, av: Any) -> str:
    if op is PARSER.NEGATE:
        return "^"
    if op is PARSER.LITERAL:
        return re.escape(chr(av))
    if op is PARSER.CATEGORY:
        names = {
            PARSER.CATEGORY_WORD: r"\w",
            PARSER.CATEGORY_NOT_WORD: r"\W",
            PARSER.CATEGORY_SPACE: r"\s",
            PARSER.CATEGORY_NOT_SPACE: r"\S",
            PARSER.CATEGORY_DIGIT: r"\d",
            PARSER.CATEGORY_NOT_DIGIT: r"\D",
        }
        return names[av]
    raise AssertionError(f"not proved for {op} in a class")


def _every_character() -> str:
    """Every character whose lower case is one character, and not a case trap."""
    chars = (chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    return "".join(c for c in chars if c not in CASE_TRAPS)


def test_lowering_keeps_offsets_except_at_case_traps() -> None:
    everything = _every_character()
    assert all(len(c.lower()) == 1 for c in everything)
    # The one lower case that depends on its neighbours (a final sigma) is one character too.
    assert "ΑΣ".lower() == "ας"


def test_each_lowered_regex_tests_a_character_as_its_lower_case() -> None:
    """What makes Lowered exact: every one-character test of the pattern, case-insensitive,
    holds of a character exactly when the case-sensitive test holds of its lower case (the
    final sigma too); \\w (read by \\b) and the line feed (read by ^ and $) likewise."""
    everything = _every_character()
    lowered = "".join(c.lower() for c in everything)
    atoms = {r"\w", r"\n"}
    for lowered_regex in LOWERED.values():
        regex = lowered_regex.regex
        assert regex.flags & re.IGNORECASE
        atoms.update(_atoms(PARSER.parse(regex.pattern, regex.flags).data))
    for atom in sorted(atoms):
        folding = re.compile(atom, re.IGNORECASE)
        plain = re.compile(atom)
        found = [m.start() for m in folding.finditer(everything)]
        assert found == [m.start() for m in plain.finditer(lowered)], atom
        assert bool(plain.fullmatch("ς")) == bool(plain.fullmatch("σ")), atom


def test_starts_and_needs_read_from_the_parse() -> None:
    def read(pattern: str) -> tuple[Any, Any]:
        items = list(PARSER.parse(pattern, 0).data)
        return _starts(items), _needs(items)

    assert read(r"\b(?:ab|cd?)\b|ef") == (({"ab", "c", "ef"}, False), {"ab", "c", "ef"})
    assert read(r"(?:xa|yb)z") == (({"xaz", "ybz"}, False), {"xa", "yb"})
    assert read(r"(?:x|y)z") == (None, {"z"})  # one character each: parsed as a class
    assert read(r"\w+ab|cd") == (None, {"ab", "cd"})
    assert read(r"^\W*(?:ab)?cd|\bef") == (({"ef"}, True), {"cd", "ef"})
    assert read(r"a?b") == (None, {"b"})
    assert read(r"(?:a|\d)b") == (None, {"b"})
    assert read(r"(?:a|\d)") == (None, None)
    assert read(r"(?i:ab)c") == (None, {"c"})
    # A run is carried on through the group after it: longer literals, each still a start.
    assert read(r"\bwhat (?:it|you) (?:get|go)\b") == (
        ({"what it get", "what it go", "what you get", "what you go"}, False),
        {"what it get", "what it go", "what you get", "what you go"},
    )


def test_the_reading_keeps_only_literals_not_found_by_another() -> None:
    plan = Lowered(r"\b(?:output|output format|outputs?:)|return").plan
    assert plan[1:] == (("output", "return"), False, ())
    plan = Lowered(r"^\s*(?:ab|xaby)|\bcd", re.M).plan
    assert plan[1:] == (("cd",), True, ("ab", "cd"))


@pytest.mark.parametrize("flags", [0, re.MULTILINE])
def test_a_match_at_a_line_start_is_tried_at_each_or_at_the_first(flags: int) -> None:
    regex = Lowered(r"^\W*ab|\bcd", flags)
    text = "ab\n- ab cd\n\nab"
    assert [m.span() for m in regex.finditer(text)] == [
        m.span() for m in regex.regex.finditer(text)
    ]


HEADING_WORDS = [
    *("Input", "INPUTS", "input", "Parameters", "args", "Arguments", "Prerequisites"),
    *("Output", "Outputs", "Returns", "output format", "Response Format", "Deliverables"),
    *("Result format", "What you need", "what it returns", "What You Get", "输入", "返回"),
    *("Examples", "USAGE", "sample", "Demo", "walkthrough", "示例", "When to use", "how to"),
    *("Workflow", "Steps", "Instruction", "Quick start", "quickstart", "Process", "步骤"),
    *("Getting Started", "use cases", "Troubleshooting", "Pitfalls", "Edge cases", "FAQ"),
    *("Common mistakes", "gotcha", "Limitations", "caveats", "errors", "Failure modes"),
    *("anti-patterns", "Don'ts", "注意", "See also", "Related", "Further reading", "Next Steps"),
    *("Companion", "Format", "schema", "Fields", "spec", "Template", "and", "&", "/", ":"),
    *("(json)", "1.", "2)", "## ", "Validate", "Model", "Tuning", "x", "é", "-"),
    *CASE_TRAPS,
    *("ınput", "Arġs", "errorſ", "İnput"),
]
HEADING_TEXT = st.lists(
    st.tuples(st.sampled_from(HEADING_WORDS), st.sampled_from([" ", "", "  ", ": ", "\t"])),
    max_size=5,
).map(lambda parts: "".join(word + sep for word, sep in parts))


def _matching_both_ways(texts: list[str]) -> None:
    headings = [Heading(2, text, line) for line, text in enumerate(texts, 1)]
    doc = cast(SkillDocument, SimpleNamespace(headings=headings))
    found = subscores._Headings(doc, Facts(doc))
    for name, regex in LOWERED.items():
        plain = Facts(doc).headings_matching(regex.regex)
        assert found.matching(regex) == plain, name
        assert found.first(regex) == (plain[0] if plain else None), name


@settings(max_examples=800, deadline=None)
@given(st.lists(HEADING_TEXT, max_size=6))
def test_headings_searched_lower_cased_are_those_the_regex_finds(texts: list[str]) -> None:
    _matching_both_ways(texts)


@settings(max_examples=500, deadline=None)
@given(HEADING_TEXT)
def test_a_lowered_regex_finds_the_regexs_spans(text: str) -> None:
    if any(trap in text for trap in CASE_TRAPS):
        return  # never searched lower-cased (see _Headings)
    for name, regex in LOWERED.items():
        found = [m.span() for m in regex.finditer(text.lower())]
        assert found == [m.span() for m in regex.regex.finditer(text)], name


def _corpus() -> list[Path]:
    roots = [REPO / "corpus", CORPUS_REAL]
    return [md.parent for root in roots if root.exists() for md in sorted(root.rglob("SKILL.md"))]


@pytest.fixture(scope="module")
def corpus_docs() -> list[SkillDocument]:
    return [parse_skill(folder) for folder in _corpus()]


def test_corpus_headings_searched_lower_cased(corpus_docs: list[SkillDocument]) -> None:
    for doc in corpus_docs:
        _matching_both_ways([h.text for h in doc.headings])


def test_first_characters_read_from_the_parse() -> None:
    def first(pattern: str) -> Any:
        return _first(list(PARSER.parse(pattern, 0).data))

    assert first(r"(?<!\w)(?:ab|[Cc]d)|\bx") == {"a", "C", "c", "x"}
    assert first(r"(?=q)a?b*c") == {"a", "b", "c"}
    assert first(r"(?:ab)+|e{2,3}") == {"a", "e"}
    assert first(r"a?") is None  # may be empty
    assert first(r"\wa|b") is None
    assert first(r"[^a]b") is None
    assert first(r"(?i:a)b") is None


def test_a_led_regex_is_the_regex_where_nothing_is_known() -> None:
    for regex in (re.compile(r"\w+"), re.compile("ab", re.I), re.compile("a?")):
        assert led(regex) is regex
    assert led(FIRST_PERSON).pattern.startswith("(?=[IMOWmouw])")
    assert needed(QUOTED) == ('"', "'", "`", "“")
    assert needed(re.compile("ab", re.I)) == ()


PERSON_WORDS = [
    *("I ", "I'm", "I can", "Type I ", "Me", "me", "my", "mine", "We", "we", "our", "ours", "us"),
    *("US", "use", "You can", "your", "helps you", "HELPS you", "for you", "Mr ", "Ms ", "Ann "),
    *('"', "'", "`", "“", "”", "\n", " ", "/", "-", "x", "é", ".", "I/O", "it's", "me/"),
]
PERSON_TEXT = st.lists(st.sampled_from(PERSON_WORDS), max_size=12).map("".join)


@settings(max_examples=800, deadline=None)
@given(PERSON_TEXT)
def test_pe113_shortcuts_find_what_its_regexes_find(text: str) -> None:
    def span(match: re.Match[str] | None) -> tuple[int, int] | None:
        return None if match is None else match.span()

    assert span(led(FIRST_PERSON).search(text)) == span(FIRST_PERSON.search(text))
    if not any(mark in text for mark in needed(QUOTED)):
        assert QUOTED.search(text) is None


def test_corpus_descriptions_by_the_pe113_shortcuts(corpus_docs: list[SkillDocument]) -> None:
    for doc in corpus_docs:
        text = doc.description or ""
        first = led(FIRST_PERSON).search(text)
        assert (first and first.span()) == ((m := FIRST_PERSON.search(text)) and m.span()), (
            doc.folder
        )
        if not any(mark in text for mark in needed(QUOTED)):
            assert QUOTED.search(text) is None


def test_word_openings_are_the_word_starts_a_match_can_begin_at() -> None:
    assert word_openings(re.compile(r"\b(?:ab|cd)")).pattern == r"\b[ac]"
    assert word_openings(re.compile(r"\w+")).pattern == r"\b\w"  # nothing known
    assert word_openings(re.compile(r"\b(?:-a|b)")).pattern == r"\b\w"  # '-' opens no word


def _pe306_lowered(docs: list[SkillDocument]) -> Iterator[str]:
    for doc in docs[::3]:
        yield pe306.lower(doc.text)


def test_corpus_pe306_matches_begin_where_word_openings_say(
    corpus_docs: list[SkillDocument],
) -> None:
    for text in _pe306_lowered(corpus_docs):
        for lazy in (pe306.RATING, pe306.RATING_TO, pe306.OVERRIDE, pe306.ADDRESS):
            openings = {m.start() for m in word_openings(lazy.rx).finditer(text)}
            assert all(m.start() in openings for m in lazy.rx.finditer(text))


def _plain_template(doc: SkillDocument, block: CodeBlock) -> bool:
    """subscores._template as first written: every test in turn, every placeholder counted."""
    content = block.content
    if ":" not in content or not ("[" in content or "<" in content or "{" in content):
        return False
    ends = subscores._PLACEHOLDER_END.findall(content)
    if len(ends) < 2 or len(subscores._PLACEHOLDER_LINE.findall(content)) < 2:
        return False
    line = block.line - 1
    while line > doc.body_start and not doc.line_text(line).strip():
        line -= 1
    return subscores._TEMPLATE_INTRO.search(doc.line_text(line)) is not None


def test_corpus_templates_as_first_written(corpus_docs: list[SkillDocument]) -> None:
    for doc in corpus_docs:
        for block in doc.code_blocks:
            assert subscores._template(doc, block) == _plain_template(doc, block)


TEMPLATE_BLOCKS = st.lists(
    st.sampled_from(["- **Risk**: <x>", "Position: [one]", "a: {b}", "x", ":", "[", "", "  "]),
    max_size=5,
).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["Reply in this format:", "Run it:", "", "OUTPUT"]), TEMPLATE_BLOCKS)
def test_templates_as_first_written(intro: str, block: str) -> None:
    doc = parse_text(Path("t"), f"# T\n\n{intro}\n\n```\n{block}\n```\n".encode())
    for code in doc.code_blocks:
        assert subscores._template(doc, code) == _plain_template(doc, code)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \t中文ア한😀İ"), max_size=30))
def test_a_width_is_never_below_the_length(text: str) -> None:
    # PE101 measures the width only of a description shorter than the minimum.
    assert display_width(text) >= len(text)
