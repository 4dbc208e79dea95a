"""What the CI reporters read from a report: a skill's today, a plugin's as well."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from plugin_eval.report.model import Composite, FindingOut


class Scored(Protocol):
    """A scored unit (skill or plugin) with its composite and located findings."""

    @property
    def name(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def depth(self) -> str: ...

    @property
    def composite(self) -> Composite: ...

    @property
    def findings(self) -> Sequence[FindingOut]: ...


def badge_text(badge: str) -> str:
    """'Silver', or 'no badge' under 60."""
    return badge.capitalize() if badge != "none" else "no badge"


def location(finding: FindingOut) -> str:
    """path:line:column as the text reporter prints it, parts that are unknown left out."""
    line = f":{finding.line}" if finding.line else ""
    column = f":{finding.column}" if finding.line and finding.column else ""
    return finding.path + line + column
