"""Findings: what a rule reports, with a location and a fix."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


@dataclass(frozen=True, order=True)
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
