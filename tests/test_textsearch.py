"""The narrowed searches find exactly what ``finditer`` finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_eval.rules.pe403_tool_prose import TOOL_PROSE
from plugin_eval.rules.pe403_tool_prose import matches as tool_prose_matches
from plugin_eval.scoring.subscores import SIGNALS
from plugin_eval.textsearch import at_word_starts, from_starts, occurrences

WORDS = [
    "use",
    "the",
    "bathe",
    "reuse",
    "run",
    "call",
    "recall",
    "invoke",
    "csv-clean",
    "skill",
    "skills",
    "agent",
    "subagent",
    "sub-agents",
    "spawn",
    "orchestrate",
    "coordinates",
    "coordinate system",
    "delegate",
    "manage the workflow",
    "hand off to",
    "route it to",
    "loop until",
    "repeat until",
    "keep going until",
    "decide which",
    "you will first assess",
    "with",
    "using",
    "Read",
    "Bash",
    "WebFetch",
    "Use",
    "Run",
    "using the",
    "tool",
    "tools",
    "x",
    "_",
    "9",
]
SEPARATORS = [" ", "  ", "\n", "", "-", ".", "\n\n", "é"]
TEXT = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=30).map(
    lambda parts: "".join(word + sep for word, sep in parts)
)


def _spans(matches: object) -> list[tuple[int, int]]:
    return [m.span() for m in matches]  # type: ignore[attr-defined]


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_from_starts_equals_finditer_for_every_signal(text: str) -> None:
    for _kind, regex, starts, _keywords in SIGNALS:
        lower = text.lower()
        assert _spans(from_starts(regex, lower, starts)) == _spans(regex.finditer(lower))


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_at_word_starts_equals_a_leading_word_boundary(text: str) -> None:
    bounded = re.compile(r"\b" + TOOL_PROSE.pattern)
    assert _spans(at_word_starts(TOOL_PROSE, text)) == _spans(bounded.finditer(text))


def _split(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern."""
    depth, parts, current = 0, [], ""
    for char in pattern:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _leading(pattern: str) -> list[str]:
    """How each way of matching the pattern begins: a leading (?:…) group is opened."""
    out = []
    for alternative in _split(pattern):
        if alternative.startswith("(?:"):
            depth = 0
            for end, char in enumerate(alternative):
                depth += {"(": 1, ")": -1}.get(char, 0)
                if depth == 0:
                    out += _leading(alternative[3:end])
                    break
        else:
            out.append(alternative)
    return out


def test_every_signal_alternative_begins_with_a_listed_start() -> None:
    # Otherwise from_starts would miss the matches of that alternative.
    for _kind, regex, starts, _keywords in SIGNALS:
        beginnings = _leading(regex.pattern)
        assert len(beginnings) >= len(starts)
        for beginning in beginnings:
            assert beginning.startswith(tuple(starts)), beginning


def test_a_match_inside_a_word_is_skipped_and_the_next_one_found() -> None:
    found = _spans(at_word_starts(TOOL_PROSE, "bathe Read tool, then use Read tool"))
    assert found == [(22, 35)]
    assert _spans(from_starts(SIGNALS[1][1], "reuse the csv skill", SIGNALS[1][2])) == [(2, 19)]


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_pe403_searching_around_tool_names_finds_what_a_full_search_finds(text: str) -> None:
    assert _spans(tool_prose_matches(text)) == _spans(at_word_starts(TOOL_PROSE, text))


def test_occurrences_are_every_start_once_in_order_within_the_bounds() -> None:
    # "aa" overlaps itself; "aab" and "aa" share starts, counted once; the bounds cut both ends.
    assert occurrences("aaab aab", ["aa", "aab"]) == [0, 1, 5]
    assert occurrences("aaab aab", ["aa", "aab"], 1, 6) == [1]
    assert occurrences("abc", []) == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab \n", max_size=20),
    st.lists(st.sampled_from(["a", "ab", "ba", "b "]), min_size=1),
)
def test_occurrences_are_the_offsets_a_regex_of_lookaheads_finds(
    text: str, literals: list[str]
) -> None:
    found = re.compile("(?=" + "|".join(map(re.escape, literals)) + ")")
    assert occurrences(text, literals) == [m.start() for m in found.finditer(text)]
