"""JSON from a tree strangers wrote (manifests, marketplace.json): parsed with bounded cost,
and every way it can fail reported as one error with a line and column.

The standard decoder raises more than JSONDecodeError on hostile input: RecursionError for
an array nested 100,000 deep, ValueError for an integer of more digits than Python converts
(4,300 by default). Both become the same error as a syntax error, so one bad file is one
finding, never a crash of the run that read it.
"""

from __future__ import annotations

import json
from typing import Any

from plugin_eval import regexes


class JsonInputError(ValueError):
    """Why a JSON text could not be read, and where (1-based line and column)."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class Keyed(dict[str, Any]):
    """A JSON object as read with ``parse(..., repeats=True)``: with each key it writes more
    than once (a JSON reader keeps the last) and how many times more."""

    repeated: dict[str, int]


def _keyed(pairs: list[tuple[str, Any]]) -> Keyed:
    out = Keyed()
    out.repeated = {}
    for key, value in pairs:
        if key in out:
            out.repeated[key] = out.repeated.get(key, 0) + 1
        out[key] = value
    return out


def parse(text: str, repeats: bool = False) -> Any:
    """The value of a JSON text; raises JsonInputError (never anything else) on bad input.
    With ``repeats`` every object is a Keyed, which says what keys it wrote twice.

    A string escape of half a surrogate pair (`"\\ud800"`) decodes to text no output can
    encode: each such character becomes U+FFFD, as an undecodable byte of a file does."""
    try:
        value = json.loads(
            text, object_pairs_hook=_keyed if repeats else None, parse_constant=_no_constant
        )
        return _whole(value) if _SURROGATE_ESCAPE.search(text) else value
    except _Constant as err:
        line, column = _bare(text, err.args[0])
        raise JsonInputError(f"{err.args[0]} is not a JSON value", line, column) from None
    except json.JSONDecodeError as err:
        raise JsonInputError(err.msg, err.lineno, err.colno) from None
    except RecursionError:
        raise JsonInputError("nested too deeply to read") from None
    except ValueError:  # an integer with more digits than Python converts
        raise JsonInputError("holds a number too long to read") from None


class _Constant(Exception):
    """NaN, Infinity or -Infinity, which Python's decoder takes and JSON.parse, the reader of
    the harnesses, rejects: a plugin whose manifest holds one does not load."""


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def _bare(text: str, name: str) -> tuple[int, int]:
    """The line and column of the first ``name`` written as a value, outside every string
    (the decoder does not say where it met it); read once along the text."""
    inside = escaped = False
    for at, char in enumerate(text):
        if escaped:
            escaped = False
        elif inside:
            escaped = char == "\\"
            inside = char != '"'
        elif char == '"':
            inside = True
        elif text.startswith(name, at):
            line = text.count("\n", 0, at) + 1
            return line, at - text.rfind("\n", 0, at)
    return 1, 1


_SURROGATE_ESCAPE = regexes.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = regexes.compile("[\ud800-\udfff]")


def _whole(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) made U+FFFD; iterative,
    since the decoder's own nesting limit is the only bound on depth."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        holder, key = stack.pop()
        item = holder[key]
        if isinstance(item, str):
            holder[key] = _SURROGATE.sub("\ufffd", item)
        elif isinstance(item, list):
            stack.extend((item, i) for i in range(len(item)))
        elif isinstance(item, dict):
            fixed = {
                _SURROGATE.sub("\ufffd", k) if isinstance(k, str) else k: v for k, v in item.items()
            }
            item.clear()
            item.update(fixed)
            stack.extend((item, k) for k in item)
    return root[0]
