"""What the CI reporters read from a report: a skill's today, a plugin's as well."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from plugin_eval.report.model import Composite, FindingOut
from plugin_eval.rules import BELOW_THRESHOLD


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


def main_file(report: Scored) -> str:
    """The file a verdict about the whole item points at: SKILL.md, or a plugin's manifest."""
    parts = getattr(report, "parts", [])
    manifest = next((p.path for p in parts if p.kind == "manifest"), None)
    name = manifest or "SKILL.md"
    return name if report.path in ("", ".") else f"{report.path}/{name}"


def below_threshold(
    reports: Sequence[Scored], threshold: float | None
) -> list[tuple[Scored, FindingOut]]:
    """A PE010 finding for each report whose composite is under ``threshold``."""
    if threshold is None:
        return []
    rule = BELOW_THRESHOLD
    return [
        (
            r,
            FindingOut(
                code=rule.code,
                flag=rule.flag,
                severity=rule.severity.value,
                message=f"{r.name}: composite {r.composite.score:.1f} is below the threshold "
                f"{threshold:g}",
                fix=rule.fix,
                path=main_file(r),
                line=None,
                column=None,
                anti_pattern=False,
            ),
        )
        for r in reports
        if r.composite.score < threshold
    ]
