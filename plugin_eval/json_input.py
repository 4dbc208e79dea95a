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


class JsonInputError(ValueError):
    """Why a JSON text could not be read, and where (1-based line and column)."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def parse(text: str) -> Any:
    """The value of a JSON text; raises JsonInputError (never anything else) on bad input."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise JsonInputError(err.msg, err.lineno, err.colno) from None
    except RecursionError:
        raise JsonInputError("nested too deeply to read") from None
    except ValueError:  # an integer with more digits than Python converts
        raise JsonInputError("holds a number too long to read") from None
