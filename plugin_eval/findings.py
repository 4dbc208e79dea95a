"""Findings: what a rule reports, with a location and a fix."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from plugin_eval.budgets import FINDINGS_PER_CODE, MESSAGE_CHARS


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


@dataclass(frozen=True, order=True, repr=False)
class Finding:
    """One problem at one place. Sorted by file, line, column, then code."""

    path: str
    line: int | None
    column: int | None
    code: str
    flag: str
    severity: Severity
    message: str
    fix: str

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line or 0, self.column or 0, self.code, self.message)


def bounded(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text`` cut to ``limit`` characters by its middle: the start (what was found) and the
    end (what to do) are kept, with "…" between; only quoted skill text makes one long."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def capped(findings: Iterable[Finding], limit: int = FINDINGS_PER_CODE) -> list[Finding]:
    """The findings, at most ``limit`` of one code in one file; the rest of that code and
    file become one finding of the same code and severity, at the first of them, saying how
    many were not listed. Findings come and go sorted (``Finding.sort_key``)."""
    out: list[Finding] = []
    unlisted: dict[tuple[str, str], list[Finding]] = {}
    seen: dict[tuple[str, str], int] = {}
    for finding in findings:
        key = (finding.path, finding.code)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= limit:
            out.append(finding)
        else:
            unlisted.setdefault(key, []).append(finding)
    for rest in unlisted.values():
        first = rest[0]
        out.append(
            replace(
                first,
                message=bounded(
                    f"{len(rest):,} more {first.flag} finding(s) in this file are not listed "
                    f"(a report lists {limit} of one code per file); the first: {first.message}"
                ),
            )
        )
    if unlisted:
        out.sort(key=Finding.sort_key)
    return out
