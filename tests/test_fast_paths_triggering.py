"""The trigger analysis's shortcuts find what the plain way finds (a guard for edits)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_eval.document import parse_skill
from plugin_eval.triggering import (
    _EDGES,
    _LEAD,
    _PAREN,
    _PROACTIVE,
    _QUANTIFIER,
    _SENTENCE_END,
    _SPLIT,
    _TERM,
    _WORD,
    ALTERNATIVE,
    NEGATIVE,
    PRECEDENCE,
    SITUATION,
    STOPWORDS,
    TRIGGER,
    TRIGGER_PATTERNS,
    Caseless,
    _context,
    _inner,
    _phrase,
    _stem,
    display_width,
    find_trigger,
    technical_terms,
    words_of,
)
from tests.conftest import CORPUS_REAL

# The plain ways: the patterns and functions as first written.
PLAIN_TRIGGER = re.compile("|".join(f"(?:{p})" for p in TRIGGER_PATTERNS), re.IGNORECASE)
PLAIN_SENTENCE_END = re.compile(
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\b[A-Z])[.!?。!?]"
    r"(?:(?=\s|$)|[\"'”’»]{1,3}(?=\s*$|\s+(?![a-z])))|\n\s*\n|[。!?]"
)
PLAIN_NEGATIVE = re.compile(
    r"\b(?:not\s+for|do\s+not\s+use|don't\s+use|never\s+use|not\s+when|instead\s+use|"
    r"use\s+\S+\s+instead|rather\s+than|not\s+intended\s+for|skip\s+(?:it|this)\s+(?:when|for))\b"
    r"|不适用|不要用于",
    re.IGNORECASE,
)
PLAIN_WORD_STARTS = {  # the patterns given to Caseless with word_start, as first written
    "PROACTIVE": re.compile(r"\b(?:proactively|automatically)\b", re.IGNORECASE),
    "SITUATION": re.compile(r"\bwhen(?:ever)?\b|\bif\s+you\b|\bwhile\b", re.IGNORECASE),
    "QUANTIFIER": re.compile(r"\b(?:any|all|every|anything|everything|whatever)\b", re.IGNORECASE),
    "NEGATIVE": re.compile(
        r"\b(?:not\s+for|do\s+not\s+use|don't\s+use|never\s+use|not\s+when|instead\s+use|"
        r"use\s+\S+\s+instead|rather\s+than|not\s+intended\s+for|skip\s+(?:it|this)\s+"
        r"(?:when|for))\b",
        re.IGNORECASE,
    ),
}
PLAIN_TERM = re.compile(
    r"(?<![\w`])(?=[\w+#./-]*(?:[A-Z0-9/.+#]|[^\x00-\x7f]))"
    r"(?:[A-Za-z0-9][\w+#.-]*(?:/[\w+#.-]+)*)(?![\w`])|`[^`\n]{1,60}`"
)
PLAIN_SPLIT = re.compile(
    r"\s*[;;,,、]\s*|(?i:\s+(?:or|and|and/or|as\s+well\s+as|plus)\s+(?=(?:when(?:ever)?|for|if|"
    r"while|during|to|before|after|you)\b|\w+ing\b)|\s+or\s+)|(?<=[\u4e00-\u9fff])(?:和|或|及|以及)"
)
CASELESS: dict[str, Caseless] = {
    "TRIGGER": TRIGGER,
    "PROACTIVE": _PROACTIVE,
    "NEGATIVE": NEGATIVE[0],
    "NEGATIVE_CJK": NEGATIVE[1],
    "SITUATION": SITUATION,
    "ALTERNATIVE": ALTERNATIVE,
    "PRECEDENCE": PRECEDENCE,
    "QUANTIFIER": _QUANTIFIER,
}


def plain_words_of(text: str) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(text):
        if "\u3040" <= w[0] <= "\u9fff":
            out += [w[i : i + 2] for i in range(0, len(w), 2)]
        else:
            out.append(w.lower().strip("'."))
    return out


def plain_technical_terms(text: str) -> set[str]:
    found: set[str] = set()
    for match in PLAIN_TERM.finditer(text):
        word = match.group(0)
        at = match.start() - 1
        while at >= 0 and text[at].isspace():
            at -= 1
        sentence_start = at < 0 or text[at] in ".!?:;\n(—–-\"'"
        core = word.strip("`.-")
        if not core:
            continue
        marked = (
            word.startswith("`")
            or (any(c.isdigit() for c in core) and any(c.isalpha() for c in core))
            or any(c in core[1:-1] for c in "/.+#")
            or (len(core) >= 2 and core.isupper() and core.isalpha())
            or any(c.isupper() for c in core[1:])
            or (core[0].isupper() and not sentence_start and core.lower() not in STOPWORDS)
        )
        if marked and len(core) >= 2 and core.lower() not in STOPWORDS:
            found.add(core.lower())
    return found


def plain_stem(word: str) -> str:
    for suffix in ("ies", "es", "s"):
        if len(word) > 4 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def plain_phrase(match: re.Match[str]) -> str:
    pre = match.groupdict().get("pre")
    if pre:
        return match.group(0)[match.end("pre") - match.start() :].lstrip(" ,")
    return match.group(0).strip()


def plain_inner(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    return groups.get("inner") or groups.get("inner2") or groups.get("pre")


def spans(matches: Any) -> list[tuple[tuple[int, int], ...]]:
    """Each match's span and the spans of its groups (read by span, never by text)."""
    return [tuple(m.span(g) for g in range(m.re.groups + 1)) for m in matches]


def group_names(regex: re.Pattern[str]) -> dict[int, str]:
    return {number: name for name, number in regex.groupindex.items()}


def named_spans(match: re.Match[str] | None) -> Any:
    if match is None:
        return None
    names = group_names(match.re)
    return match.span(), {names[n]: match.span(n) for n in names}


# Words of every Caseless pattern, in every case, with what separates them and the
# characters re folds unlike lower() (ſ, K, İ, ı) or that are not ASCII at all.
PATTERN_WORDS = sorted(
    {w for c in CASELESS.values() for w in re.findall(r"[a-z][a-z'/-]+", c.cased.pattern)}
)
CASED_WORD = st.tuples(
    st.sampled_from(PATTERN_WORDS), st.sampled_from([str.lower, str.upper, str.title])
).map(lambda pair: pair[1](pair[0]))
SEPARATOR = st.sampled_from(
    [*(" ", "  ", "\n", "\t", ", ", ",", ".", ". ", ":", ";", "`", "-", "x", "ing ", "the ")]
)
ODD = st.sampled_from(
    [*("é", "ſ", "K", "İ", "ı", "当", "时使用", "适用于", "。", ":", "、", "不适用")]
)
CASELESS_TEXT = st.lists(st.one_of(CASED_WORD, SEPARATOR, SEPARATOR, ODD), max_size=16).map("".join)


def corpus_descriptions() -> list[str]:
    folders = sorted(p.parent for p in Path(CORPUS_REAL).rglob("SKILL.md"))
    return [parse_skill(f).description or "" for f in folders]


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    if not CORPUS_REAL.exists():
        pytest.skip("shared corpus-real not present")
    return corpus_descriptions()


def test_the_trigger_pattern_is_the_plain_alternation_with_its_word_boundaries_shared() -> None:
    assert TRIGGER.caseless.rx.groupindex.keys() == PLAIN_TRIGGER.groupindex.keys()


@settings(max_examples=800, deadline=None)
@given(CASELESS_TEXT, st.integers(0, 40))
def test_trigger_finds_what_the_plain_alternation_finds(text: str, pos: int) -> None:
    plain = PLAIN_TRIGGER.search(text, pos)
    assert named_spans(find_trigger(text, pos)) == named_spans(plain)
    fast = TRIGGER.search(text, pos)
    assert named_spans(fast) == named_spans(plain)
    if fast is not None and plain is not None:
        assert _phrase(fast, text) == plain_phrase(plain)
        assert _inner(fast, text) == plain_inner(plain)


def test_caseless_patterns_have_no_capital_and_nothing_that_folds_to_ascii() -> None:
    # Why searching lowercased ASCII text case-sensitively finds what IGNORECASE finds.
    ascii_chars = [chr(c) for c in range(128)]
    for name, caseless in CASELESS.items():
        source = caseless.cased.pattern
        assert not caseless.cased.flags & re.IGNORECASE, name
        assert caseless.caseless.flags & re.IGNORECASE, name
        # Escapes (\s, \S, \b, \u4e00) and group names keep their meaning whatever the case.
        bare = re.sub(r"\\.|\(\?P<\w+>", "", source)
        assert not re.search("[A-Z]", bare), name
        assert not re.search(r"\[[^\]]*[^\\\]]-[^\]]", bare), name  # no range to fold
        for char in {c for c in source if not c.isascii()}:
            folds = re.compile(re.escape(char), re.IGNORECASE)
            assert not any(folds.fullmatch(a) for a in ascii_chars), (name, char)


@settings(max_examples=800, deadline=None)
@given(CASELESS_TEXT)
def test_word_start_patterns_are_the_plain_ones(text: str) -> None:
    for name, plain in PLAIN_WORD_STARTS.items():
        caseless = CASELESS[name]
        assert caseless.word_start, name
        assert spans(caseless.caseless.rx.finditer(text)) == spans(plain.finditer(text)), name


@settings(max_examples=800, deadline=None)
@given(CASELESS_TEXT)
def test_a_negative_is_found_by_one_of_the_two_patterns_or_by_neither(text: str) -> None:
    found = any(pattern.search(text) is not None for pattern in NEGATIVE)
    assert found == (PLAIN_NEGATIVE.search(text) is not None)


@settings(max_examples=800, deadline=None)
@given(CASELESS_TEXT, st.integers(0, 30))
def test_caseless_searches_find_what_ignorecase_finds(text: str, pos: int) -> None:
    for name, caseless in CASELESS.items():
        plain = caseless.caseless.rx
        assert spans(caseless.finditer(text)) == spans(plain.finditer(text)), name
        found = caseless.search(text, pos)
        expected = plain.search(text, pos)
        assert (found and spans([found])) == (expected and spans([expected])), name


SENTENCE_TEXT = st.lists(
    st.sampled_from(
        [
            *("e.g", "i.e", "etc", "A", "Ab", "x", "ze.g", ".", "!", "?", "。", "!", "?", "\n"),
            *(" ", "\n\n", " \n \n", "\t", "é", "ab", "_", '"', "'", "”", "’", "»", "B"),
        ]
    ),
    max_size=16,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(SENTENCE_TEXT, st.integers(0, 20))
def test_sentence_ends_are_the_plain_patterns(text: str, pos: int) -> None:
    assert _SENTENCE_END.split(text) == PLAIN_SENTENCE_END.split(text)
    assert spans(_SENTENCE_END.finditer(text, pos)) == spans(PLAIN_SENTENCE_END.finditer(text, pos))


SPLIT_TEXT = st.lists(
    st.sampled_from(
        [
            *(" ", "  ", "\t", "\n", ";", "；", ",", "，", "、", "or", "OR", "Or", "and", "AND"),
            *("and/or", "as well as", "plus", "when", "Whenever", "for", "you", "building", "ing"),
            *("x", "和", "或", "及", "以", "以及", "中", "文", "a", "é", "\u3000", "ſ"),
        ]
    ),
    max_size=14,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(SPLIT_TEXT)
def test_context_splits_are_the_plain_patterns(text: str) -> None:
    assert _SPLIT.split(text) == PLAIN_SPLIT.split(text)


WORD_TEXT = st.lists(
    st.sampled_from(
        [
            *(
                "Foo",
                "bar",
                "C++",
                "c#",
                "it's",
                "e.g.",
                "v2.0",
                "'",
                ".",
                "-",
                " ",
                "\n",
                "x",
                "A",
            ),
            *("日本語", "ひらがな", "中文", "é", "K", "İ", "ſ", "ǅ", "Ab-", "'a'", "1"),
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(WORD_TEXT)
def test_words_are_the_plain_ways(text: str) -> None:
    assert words_of(text) == plain_words_of(text)
    assert display_width(text) == len(text) + sum(1 for ch in text if "\u3040" <= ch <= "\u9fff")


TERM_TEXT = st.lists(
    st.sampled_from(
        [
            *"aZ9 .-/+#_`\n:(é²Ä—–\"'ǅⅫ٣のª",
            "Foo",
            "bar",
            "JSON",
            "v2",
            "e.g.",
            "the",
            "The",
            "API",
            "Aの",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(TERM_TEXT)
def test_technical_terms_are_the_plain_ways(text: str) -> None:
    assert spans(_TERM.finditer(text)) == spans(PLAIN_TERM.finditer(text))
    assert technical_terms(text) == plain_technical_terms(text)


def test_no_character_is_both_a_letter_and_a_digit() -> None:
    # technical_terms skips the digit test for a word of letters only.
    assert not [c for c in map(chr, range(sys.maxunicode + 1)) if c.isalpha() and c.isdigit()]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="aeisyS", max_size=8))
def test_stems_are_the_plain_ways(word: str) -> None:
    assert _stem(word) == plain_stem(word)


FRAGMENT_TEXT = st.lists(
    st.sampled_from(
        [
            *(" ", "\t", "\n", "\r", "\u3000", ":", "-", "–", "—", '"', "'", "`", "*", "(", ")"),
            *("the user", "wants to", "when", "designing", "building", "APIs", "work", "code"),
            *("results", "LedgerDB", "audio", "traceable", "x", "asks for", "e.g.", "中文", "é"),
        ]
    ),
    max_size=10,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(FRAGMENT_TEXT, st.lists(st.sampled_from(["api", "ledger", "x"]), max_size=2))
def test_a_context_from_the_words_read_is_the_one_read_again(
    fragment: str, borrowed: list[str]
) -> None:
    trimmed = fragment.strip()
    if fragment.strip(_EDGES) != trimmed:
        return  # extract_contexts reads the words again then
    lead = _LEAD.sub("", trimmed)
    core = [w for w in words_of(lead) if w not in STOPWORDS]
    assert _context(fragment, borrowed, (lead, core)) == _context(fragment, borrowed)


@settings(max_examples=300, deadline=None)
@given(FRAGMENT_TEXT)
def test_a_clause_without_an_opening_parenthesis_has_no_parenthesis(clause: str) -> None:
    if "(" not in clause and "（" not in clause:
        assert _PAREN.search(clause) is None


def test_corpus_descriptions_read_as_the_plain_ways(corpus: list[str]) -> None:
    checks: list[tuple[Callable[[str], Any], Callable[[str], Any]]] = [
        (words_of, plain_words_of),
        (technical_terms, plain_technical_terms),
        (_SENTENCE_END.split, PLAIN_SENTENCE_END.split),
        (_SPLIT.split, PLAIN_SPLIT.split),
        (_TERM.findall, PLAIN_TERM.findall),
        (lambda t: spans(TRIGGER.finditer(t)), lambda t: spans(PLAIN_TRIGGER.finditer(t))),
    ]
    for text in corpus:
        for fast, plain in checks:
            assert fast(text) == plain(text), text
        negative = any(pattern.search(text) is not None for pattern in NEGATIVE)
        assert negative == (PLAIN_NEGATIVE.search(text) is not None), text
        for name, caseless in CASELESS.items():
            assert spans(caseless.finditer(text)) == spans(caseless.caseless.rx.finditer(text)), (
                name,
                text,
            )
