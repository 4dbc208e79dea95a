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

import re
from collections.abc import Callable, Iterable, Iterator, Sequence


def occurrences(
    text: str, literals: Iterable[str], pos: int = 0, endpos: int | None = None
) -> list[int]:
    """Every offset of ``text[pos:endpos]`` where one of ``literals`` begins, ascending and
    each once (one ``str.find`` scan per literal, overlapping occurrences included)."""
    end = len(text) if endpos is None else endpos
    found: set[int] = set()
    for literal in literals:
        at = text.find(literal, pos, end)
        while at >= 0:
            found.add(at)
            at = text.find(literal, at + 1, end)
    return sorted(found)


def from_starts(
    regex: re.Pattern[str], text: str, starts: Sequence[str]
) -> Iterator[re.Match[str]]:
    """``regex.finditer(text)`` for a regex every match of which begins with one of
    ``starts``: the regex is tried only where one of them occurs."""
    end = 0
    for at in occurrences(text, starts):
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
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled
