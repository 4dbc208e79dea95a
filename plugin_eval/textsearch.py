"""Searches that try fewer positions, or read a text once, whatever it holds.

Python's ``re`` tries a pattern at every position whose first character could start it.
Patterns whose alternatives all begin with a known word (``call|invoke|run …``) or that
must begin at a word start (``\\b(?:the|use) …``) can be tried at far fewer positions; these
helpers do that and return the same matches, in the same order, as ``regex.finditer``.
``newlines`` and ``Columns`` turn offsets into lines and find columns without searching a
text again from its start for each thing found in it: one skill of 4 MB on one line stays
one read, not one per match.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from plugin_eval import regexes


def occurrences(
    text: str, literals: Iterable[str], pos: int = 0, endpos: int | None = None
) -> list[int]:
    """Every offset of ``text[pos:endpos]`` where one of ``literals`` begins, ascending and
    each once (overlapping occurrences included): ``found_one_by_one``'s answer, found by
    fewer reads of a long text (see ``_Anchored``)."""
    end = len(text) if endpos is None else endpos
    words = literals if isinstance(literals, tuple) else tuple(literals)
    if end - pos < _LONG:
        return found_one_by_one(text, words, pos, end)
    plan = _ANCHORED.get(words)
    if plan is None:
        plan = _Anchored(words)
        if len(_ANCHORED) < _MOST_PLANS:
            _ANCHORED[words] = plan
    found: set[int] = set()
    for regex, offsets in plan.groups:
        for match in regex.finditer(text, pos, end):
            at = match.start() - offsets[match.lastindex or 0]
            if at >= pos:  # the part before the anchor is read before ``pos`` too
                found.add(at)
    if plan.rest:
        found.update(found_one_by_one(text, plan.rest, pos, end))
    return sorted(found)


def found_one_by_one(text: str, literals: Iterable[str], pos: int, end: int) -> list[int]:
    """``occurrences`` by one ``str.find`` scan of ``text[pos:end]`` for each literal."""
    found: set[int] = set()
    for literal in literals:
        at = text.find(literal, pos, end)
        while at >= 0:
            found.add(at)
            at = text.find(literal, at + 1, end)
    return sorted(found)


# Texts shorter than this are read once for each literal: a regex's start costs more there.
_LONG = 500
# About how often each letter stands in lower-cased skills (per cent of all characters), for
# choosing rare ones: what a search costs, never what it finds. Any other character: _OTHER.
_SHARES = {
    **dict.fromkeys("e", 8.4),
    **dict.fromkeys("tiasrno", 5.0),
    **dict.fromkeys("cl", 3.0),
    **dict.fromkeys("dpmu", 2.4),
    **dict.fromkeys("gfh", 1.5),
    **dict.fromkeys("ybvw", 0.9),
    **dict.fromkeys("kx", 0.5),
    **dict.fromkeys("qzj", 0.2),
}
_OTHER = 5.0
# What reading a text costs, in nanoseconds a character (measured): ``str.find`` for one
# literal; a regex that ``re`` skips through to one character; and at each such character,
# a cost of its own and one for each literal tried there.
_FIND, _SCAN, _STOP, _TRY = 0.56, 0.35, 10.0, 8.0
_MOST_PLANS = 256
_ANCHORED: dict[tuple[str, ...], _Anchored] = {}


def _clash(a: str, i: int, b: str, j: int) -> bool:
    """Whether ``a`` anchored at its ``i``-th character and ``b`` at its ``j``-th can both
    stand at one anchor: they agree wherever they overlap."""
    lo = -min(i, j)
    hi = min(len(a) - i, len(b) - j)
    return all(a[i + k] == b[j + k] for k in range(lo, hi))


class _Anchored:
    """How ``occurrences`` finds a set of literals in one read of a text for several of them.

    A literal stands at an offset exactly where one of its characters (its anchor) stands
    with the literal's text before it (a lookbehind) and after it (a lookahead). Literals
    anchored at one character are searched together by one regex that begins with it:
    ``re`` skips to that character, and tries the literals only there. Two literals that
    could stand at one anchor (they agree wherever they overlap) are never in one regex,
    so each match is of one literal, which its empty group names. The characters are chosen
    by how rare they are in English (a guess of the cost, not of what is found); literals no
    rare character serves are searched one by one (``rest``)."""

    __slots__ = ("groups", "rest")

    def __init__(self, literals: tuple[str, ...]) -> None:
        self.groups: list[tuple[re.Pattern[str], tuple[int, ...]]] = []
        left = sorted({literal for literal in literals if literal})
        while True:
            best: tuple[float, list[tuple[str, int]]] | None = None
            for char in sorted({c for literal in left for c in literal}):
                chosen: list[tuple[str, int]] = []
                for literal in left:
                    if char in literal:
                        i = literal.index(char)
                        if not any(_clash(literal, i, b, j) for b, j in chosen):
                            chosen.append((literal, i))
                stops = _SHARES.get(char, _OTHER) / 100
                saving = _FIND * len(chosen) - _SCAN - stops * (_STOP + _TRY * len(chosen))
                if saving > 0 and (best is None or saving > best[0]):
                    best = (saving, chosen)
            if best is None:
                break
            self.groups.append(_anchored(best[1]))
            taken = {literal for literal, _ in best[1]}
            left = [literal for literal in left if literal not in taken]
        # An empty literal stands everywhere: found one by one, as it is written.
        self.rest = (*left, "") if "" in literals else tuple(left)


def _anchored(chosen: list[tuple[str, int]]) -> tuple[re.Pattern[str], tuple[int, ...]]:
    """The regex for literals anchored at one character (the ``i``-th of each), and how far
    before its anchor each begins, by the number of its group (the 0th unused)."""
    char = chosen[0][0][chosen[0][1]]
    branches = []
    for literal, i in chosen:
        before = f"(?<={re.escape(literal[: i + 1])})" if i else ""
        after = f"(?={re.escape(literal[i + 1 :])})" if i + 1 < len(literal) else ""
        branches.append(before + after + "()")
    regex = regexes.compile(re.escape(char) + "(?:" + "|".join(branches) + ")")
    return regex, (0, *(i for _, i in chosen))


def from_starts(
    regex: re.Pattern[str], text: str, starts: Sequence[str]
) -> Iterator[re.Match[str]]:
    """``regex.finditer(text)`` for a regex every match of which begins with one of
    ``starts``: the regex is tried only where one of them occurs."""
    return _tried_at(regex, text, occurrences(text, starts))


def _tried_at(regex: re.Pattern[str], text: str, places: list[int]) -> Iterator[re.Match[str]]:
    """``regex.finditer(text)`` for a regex every match of which begins at one of
    ``places`` (ascending offsets): the regex is tried only there."""
    end = 0
    for at in places:
        if at < end:
            continue
        match = regex.match(text, at)
        if match is not None:
            yield match
            end = match.end() if match.end() > at else at + 1


def at_word_starts(
    regex: re.Pattern[str], text: str, pos: int = 0, endpos: int | None = None
) -> Iterator[re.Match[str]]:
    """``re.compile(r"\\b" + regex.pattern).finditer(text, pos, endpos)`` for a regex whose
    matches begin with a word character: searched without the ``\\b``, which lets ``re`` skip
    ahead by the first character, and a match not at a word start is retried one character
    later."""
    size = len(text) if endpos is None else endpos
    at = pos
    while at <= size:
        match = regex.search(text, at, size)
        if match is None:
            return
        begin = match.start()
        if begin == 0 or not _word(text[begin - 1]):
            yield match
            at = match.end() if match.end() > begin else begin + 1
        else:
            at = begin + 1


def _word(char: str) -> bool:
    """What ``re`` counts as a word character in a str pattern."""
    return char.isalnum() or char == "_"


def one_line(text: str, width: int) -> str:
    """``text`` on one line (runs of white space made one space), cut to ``width`` characters
    with "…": how a finding quotes a skill's text."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def newlines(text: str) -> list[int]:
    """The offset of every line feed of ``text``, ascending: bisect it for the line of an
    offset instead of counting line feeds from the start each time."""
    found: list[int] = []
    at = text.find("\n")
    while at >= 0:
        found.append(at)
        at = text.find("\n", at + 1)
    return found


class Columns:
    """Columns of things found one after another on the lines of a file.

    Each search on a line starts where the last one ended, so the n-th of n equal things on
    one line gets its own column, and n searches on a line read it once in all, not n times.
    Searches must come in the order the things stand in the line. A search that finds
    nothing ends the line's searches (it read to the end): it and those after it give column 1.
    """

    def __init__(self, line_text: Callable[[int], str]) -> None:
        self._line_text = line_text
        self._after: dict[int, int] = {}

    def find(self, line: int, needle: str) -> int:
        """The 1-based column of ``needle`` after the last one found on ``line``, else 1."""
        source = self._line_text(line)
        start = self._after.get(line, 0)
        at = source.find(needle, start) if needle and start <= len(source) else -1
        if at < 0:
            self._after[line] = len(source) + 1
            return 1
        self._after[line] = at + len(needle)
        return at + 1


class LazyRegex:
    """A regex compiled the first time it is used (``rx``), not when its module loads.

    Compiling a long pattern costs milliseconds at every start of the command line; a rule
    that tries its patterns only where their words occur pays that only for the skills
    that hold them. ``source`` is the pattern, for composing others from it."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = regexes.compile(self.source, self.flags)
        return self._compiled


# ``re``'s own parser (the one ``re.compile`` runs), read for what every match of a pattern
# begins with or holds. Private, so reached by name; the tests pin what it gives.
_PARSER: Any = importlib.import_module("re._parser")
Parsed = list[tuple[Any, Any]]


# The most literals a run is carried on into (each a separate search).
_MOST_STARTS = 16


def _starts(items: Parsed) -> tuple[frozenset[str], bool] | None:
    """Literals one of which every match of ``items`` (a parsed sequence) begins with, and
    whether a match may begin at a line start instead (a ``^``); None when a match may begin
    anywhere else. A word boundary before the literals takes no text."""
    i = 0
    while i < len(items) and items[i] == (_PARSER.AT, _PARSER.AT_BOUNDARY):
        i += 1
    if i < len(items) and items[i] == (_PARSER.AT, _PARSER.AT_BEGINNING):
        return frozenset(), True
    run = ""
    while i + len(run) < len(items) and items[i + len(run)][0] is _PARSER.LITERAL:
        run += chr(items[i + len(run)][1])
    if run:
        # Carried on through a group that follows ("what (?:it|you)"): longer, rarer literals.
        rest = items[i + len(run) :]
        more = (
            _starts(rest) if rest and rest[0][0] in (_PARSER.SUBPATTERN, _PARSER.BRANCH) else None
        )
        if more is not None and not more[1] and len(more[0]) <= _MOST_STARTS:
            return frozenset(run + literal for literal in more[0]), False
        return frozenset((run,)), False
    if i == len(items):
        return None
    op, av = items[i]
    rest = items[i + 1 :]
    if op is _PARSER.SUBPATTERN and not av[1] and not av[2]:
        return _starts([*av[3], *rest])
    if op is _PARSER.BRANCH:
        found: set[str] = set()
        lines = False
        for branch in av[1]:
            starts = _starts([*branch, *rest])
            if starts is None:
                return None
            found |= starts[0]
            lines = lines or starts[1]
        return frozenset(found), lines
    return None


def _needs(items: Parsed) -> frozenset[str] | None:
    """Literals one of which every match of ``items`` holds, or None when none is known."""
    i = 0
    while i < len(items):
        op, av = items[i]
        if op is _PARSER.LITERAL:
            starts = _starts(items[i:])  # a literal run and what carries it on
            assert starts is not None
            return starts[0]
        needs: frozenset[str] | None = None
        if op is _PARSER.SUBPATTERN and not av[1] and not av[2]:
            needs = _needs(av[3])
        elif op in (_PARSER.MAX_REPEAT, _PARSER.MIN_REPEAT) and av[0] >= 1:
            needs = _needs(av[2])
        elif op is _PARSER.BRANCH:
            each = [_needs(branch) for branch in av[1]]
            needs = None if None in each else frozenset().union(*each)  # type: ignore[arg-type]
        if needs is not None:
            return needs
        i += 1
    return None


def one_of(regex: re.Pattern[str]) -> str | None:
    """The characters of a regex that is one class of literal characters (``[abc]``) or one
    character, sorted: a text holds a match exactly when it holds one of them (``in`` finds
    each by ``memchr``, faster on a short text than the regex's test at every character).
    None for any other regex, or one that folds case."""
    if regex.flags & re.IGNORECASE:
        return None
    items = list(_PARSER.parse(regex.pattern, regex.flags).data)
    if len(items) != 1:
        return None
    op, av = items[0]
    if op is _PARSER.LITERAL:
        return chr(av)
    if op is _PARSER.IN and all(kind is _PARSER.LITERAL for kind, _ in av):
        return "".join(sorted({chr(value) for _, value in av}))
    return None


def _first(items: Parsed) -> frozenset[str] | None:
    """The characters every match of ``items`` begins with, or None when unknown (a category,
    any character, a case-folded group, or a match that may be empty)."""
    for i, (op, av) in enumerate(items):
        if op in (_PARSER.AT, _PARSER.ASSERT, _PARSER.ASSERT_NOT):
            continue  # takes no text
        rest = items[i + 1 :]
        if op is _PARSER.LITERAL:
            return frozenset(chr(av))
        if op is _PARSER.IN:
            if any(kind is not _PARSER.LITERAL for kind, _ in av):
                return None
            return frozenset(chr(value) for _, value in av)
        if op is _PARSER.SUBPATTERN and not av[1] and not av[2]:
            return _first([*av[3], *rest])
        if op is _PARSER.BRANCH:
            each = [_first([*branch, *rest]) for branch in av[1]]
            return None if None in each else frozenset().union(*each)  # type: ignore[arg-type]
        if op in (_PARSER.MAX_REPEAT, _PARSER.MIN_REPEAT):
            inner = _first([*av[2], *rest])
            skipped = frozenset() if av[0] >= 1 else _first(rest)
            return None if inner is None or skipped is None else inner | skipped
        return None
    return None


_T = TypeVar("_T")
_Store = dict[int, tuple[re.Pattern[str], _T]]


def _once(store: _Store[_T], regex: re.Pattern[str], make: Callable[[re.Pattern[str]], _T]) -> _T:
    """``make(regex)``, made once for each regex object. Looked up by identity, not by the
    pattern's own hash, which reads its whole compiled code (microseconds for a long one);
    ``store`` keeps the regex, so its identity is never another's."""
    kept = store.get(id(regex))
    if kept is None:
        kept = store[id(regex)] = (regex, make(regex))
    return kept[1]


def _first_of(regex: re.Pattern[str]) -> frozenset[str] | None:
    if regex.flags & re.IGNORECASE:
        return None
    return _first(list(_PARSER.parse(regex.pattern, regex.flags).data))


def _needed(regex: re.Pattern[str]) -> tuple[str, ...]:
    if regex.flags & re.IGNORECASE:
        return ()
    needs = _needs(list(_PARSER.parse(regex.pattern, regex.flags).data))
    return () if needs is None else _fewest(needs, str.__contains__)


def _led(regex: re.Pattern[str]) -> re.Pattern[str]:
    first = _first_of(regex)
    if first is None:
        return regex
    chars = "".join(sorted(map(re.escape, first)))
    return regexes.compile(f"(?=[{chars}])(?:{regex.pattern})", regex.flags)


_WORD_START = regexes.compile(r"\b\w")


def _word_openings(regex: re.Pattern[str]) -> re.Pattern[str]:
    first = _first_of(regex)
    if first is None or not all(map(_word, first)):
        return _WORD_START
    return regexes.compile(r"\b[" + "".join(sorted(map(re.escape, first))) + "]")


_NEEDED: _Store[tuple[str, ...]] = {}
_LED: _Store[re.Pattern[str]] = {}
_OPENINGS: _Store[re.Pattern[str]] = {}


def needed(regex: re.Pattern[str]) -> tuple[str, ...]:
    """Literals one of which every match of ``regex`` holds, read from its parse: text that
    holds none has no match. Empty when none is known (or the regex folds case)."""
    return _once(_NEEDED, regex, _needed)


def led(regex: re.Pattern[str]) -> re.Pattern[str]:
    """``regex`` with a test of the characters its matches begin with (read from its parse)
    in front: a search passes other positions with that one test, not with the pattern's
    own opening (lookbehinds, say). The same matches; ``regex`` itself when unknown."""
    return _once(_LED, regex, _led)


def word_openings(regex: re.Pattern[str]) -> re.Pattern[str]:
    """Where a match of ``regex`` that begins at a word start can begin: a word start at one
    of the characters its matches begin with (read from its parse), else any word start."""
    return _once(_OPENINGS, regex, _word_openings)


def _fewest(literals: frozenset[str], holds: Callable[[str, str], bool]) -> tuple[str, ...]:
    """``literals`` less each that ``holds`` another (found wherever that one is)."""
    return tuple(sorted(a for a in literals if not any(b != a and holds(a, b) for b in literals)))


class Lowered:
    """A case-insensitive regex searched as its case-sensitive self in text lower-cased, and
    only where its matches can begin, in text that holds what every match holds: both read
    from the pattern by ``re``'s parser.

    Exact for text whose lowering keeps every offset and folds as ``re`` does (no
    analysis.CASE_TRAPS in it), given a pattern whose literals are lower case and whose
    classes hold a character exactly when they hold its lower case (tests prove this of each
    pattern used so). Nothing is compiled before first use, the case-insensitive regex only
    for text lowering would change (``regex``)."""

    __slots__ = ("_plan", "_regex", "flags", "source")

    def __init__(self, source: str, flags: int = re.IGNORECASE) -> None:
        self.source = source
        self.flags = flags | re.IGNORECASE
        self._regex: re.Pattern[str] | None = None
        self._plan: Plan | None = None

    @property
    def regex(self) -> re.Pattern[str]:
        """The regex itself, case-insensitive."""
        if self._regex is None:
            self._regex = regexes.compile(self.source, self.flags)
        return self._regex

    @property
    def plan(self) -> Plan:
        """The case-sensitive regex; the literals its matches begin with (None when they may
        begin anywhere) and whether they may begin at a line start; the literals one of which
        every match holds, when that is not what the first two say."""
        if self._plan is None:
            items = list(_PARSER.parse(self.source, self.flags).data)
            starts, needs = _starts(items), _needs(items)
            literals = None if starts is None else _fewest(starts[0], str.startswith)
            lines = starts is not None and starts[1]
            self._plan = (
                regexes.compile(self.source, self.flags & ~re.IGNORECASE),
                literals,
                lines,
                ()
                if needs is None or (literals and not lines)
                else _fewest(needs, str.__contains__),
            )
        return self._plan

    def finditer(self, lowered: str) -> Iterator[re.Match[str]]:
        """``regex.finditer(text)`` where ``lowered`` is ``text.lower()``: the same spans (the
        groups in lower case)."""
        plain, starts, lines, needs = self.plan
        if needs and not any(literal in lowered for literal in needs):
            return
        if starts is None:
            yield from plain.finditer(lowered)
            return
        places = occurrences(lowered, starts)
        if lines:
            breaks = newlines(lowered) if plain.flags & re.MULTILINE else []
            places = sorted({0, *places, *(at + 1 for at in breaks)})
        yield from _tried_at(plain, lowered, places)


Plan = tuple[re.Pattern[str], tuple[str, ...] | None, bool, tuple[str, ...]]
