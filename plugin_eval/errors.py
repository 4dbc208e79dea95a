"""Errors written for the user: their message says what went wrong and what to do."""

from __future__ import annotations


class Explained(Exception):
    """An error whose message is written for whoever runs the tool (an eval file that
    cannot be read, a backend that cannot be used): shown as it is, with no class name."""


def described(exc: BaseException) -> str:
    """How an error that stopped one item is said in its report: an ``Explained`` one by its
    message; any other (a crash) with its class, which a bug report needs."""
    return str(exc) if isinstance(exc, Explained) else f"{type(exc).__name__}: {exc}"
