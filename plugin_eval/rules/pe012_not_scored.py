"""PE012: part files of a plugin were passed over, so the plugin was not scored in full."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import MISNAMED
from plugin_eval.rules.base import EngineRule, Example, Setting
from plugin_eval.rules.plugin_base import good_plugin

SHOWN = 3


@dataclass(frozen=True, repr=False)
class NotScoredRule(EngineRule):
    """Reported by plugin scoring for the parts it found and did not read."""

    def passed_over(self, parts: Iterable[tuple[str, str]]) -> Iterator[Finding]:
        """One finding per reason, at the first part passed over for it."""
        by_reason: dict[str, list[str]] = {}
        for path, reason in parts:
            by_reason.setdefault(reason, []).append(path)
        for reason, paths in by_reason.items():
            shown = ", ".join(paths[:SHOWN]) + (" …" if len(paths) > SHOWN else "")
            yield self.finding(
                f"{len(paths):,} part file(s) not scored ({reason}): {shown}",
                path=paths[0],
                fix="Rename each file SKILL.md, in capitals." if reason == MISNAMED else None,
            )


RULE = NotScoredRule(
    code="PE012",
    flag="PARTS_NOT_SCORED",
    name="parts-not-scored",
    severity=Severity.ERROR,
    summary="Every agent, command and skill of a plugin is scored. Reported by plugin scoring, "
    "one finding per reason, when a part file was found and not read: a symlink (never "
    "followed), a FIFO, socket or device (never opened), a skill file named in other letter "
    "case than SKILL.md (`skill.md`), or a skill past the cap of skills per plugin.",
    why="A plugin whose parts were not all read must not pass on the parts that were: its "
    "score describes less than the plugin, so the run fails at the default --fail-on error.",
    fix="Make each agent, command and SKILL.md a regular file inside the plugin (copy rather "
    "than link it), or split a plugin with more skills than the cap into several.",
    bad=Example(good_plugin(), folder="csv-tools"),
    good=Example(good_plugin(), folder="csv-tools"),
    source="plugin-eval",
    examples=False,
    settings=(Setting("PLUGIN_SKILLS", "skills scored per plugin; the rest are reported here"),),
    limits="Only the places a harness loads parts from are looked at (agents/*.md, "
    "commands/*.md, skills/*/SKILL.md or the skills a marketplace entry lists); a SKILL.md "
    "elsewhere in a plugin is not a part of it. A symlink that stays inside the plugin is "
    "still not followed.",
)
