"""PE404: file references use forward slashes."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.rules.pe201_orphan_reference import BODY


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for ref in facts.references:
        if "\\" in unquote(ref.target):
            yield RULE.finding(
                f"'{unquote(ref.target)}' uses backslashes",
                ref.line,
                ref.column,
                fix=f"Write '{unquote(ref.target).replace(chr(92), '/')}'.",
            )


RULE = Rule(
    code="PE404",
    flag="WINDOWS_PATH",
    name="windows-path",
    severity=Severity.WARNING,
    subscore="harness_portability",
    summary="Relative links use forward slashes, never backslashes.",
    why="Backslash paths resolve only on Windows; on macOS and Linux the link is dead.",
    fix="Replace backslashes with '/'.",
    bad=Example(
        {
            "SKILL.md": BODY.replace("references/naming.md", "references\\naming.md"),
            "references/naming.md": "# Naming\n",
        },
        expect=(Expect("PE404", "SKILL.md", 8, 21),),
    ),
    good=Example({"SKILL.md": BODY, "references/naming.md": "# Naming\n"}),
    source="oxlint-plugin-agent-skills (Windows paths)",
    limits="Link targets and `references/…` paths in prose are checked; backslash paths in code "
    "or elsewhere in prose are not.",
    links=(sources.BEST_PRACTICES,),
    check=check,
)
