"""PE011: the skill folder could not be listed in full, so some checks saw part of it."""

from __future__ import annotations

from plugin_eval.findings import Severity
from plugin_eval.rules.base import GOOD_SKILL, EngineRule, Example, Setting

RULE = EngineRule(
    code="PE011",
    flag="LISTING_INCOMPLETE",
    name="listing-incomplete",
    severity=Severity.WARNING,
    summary="The skill folder is listed in full: no more than the listing cap of files, and "
    "every subfolder readable. Reported by the engine, naming what was cut or unreadable.",
    why="Checks over the folder's files (unlinked and orphan references) then see only part "
    "of it; plugin-eval checks each link's target on disk instead of calling it missing, "
    "but files past the cap are not checked for being unlinked.",
    fix="Move bulk data out of the skill folder (a harness loads the folder as it is), or "
    "make the unreadable folder readable.",
    bad=Example({"SKILL.md": GOOD_SKILL}),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="plugin-eval",
    examples=False,
    settings=(Setting("LISTED_FILES", "files listed per skill folder before the listing stops"),),
    limits="It does not say which files were left out; `ls -R` does. It lowers no score: the "
    "size of a folder is reported by the body and reference rules where it matters.",
)
