"""PE205: referenced files sit one level deep below SKILL.md."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts, RefStatus
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.rules.pe201_orphan_reference import BODY


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for ref in facts.references:
        if ref.status is RefStatus.OK and ref.path.count("/") >= 2:
            yield RULE.finding(
                f"'{ref.path}' is {ref.path.count('/')} folders deep; keep references one level "
                "below SKILL.md",
                ref.line,
                ref.column,
            )


RULE = Rule(
    code="PE205",
    flag="REFERENCE_TOO_DEEP",
    name="deep-reference",
    severity=Severity.INFO,
    subscore="progressive_disclosure",
    summary="Files linked from SKILL.md are at most one folder deep (references/x.md, not "
    "references/a/b/x.md).",
    why="The specification asks for references one level deep: deep chains are read partially "
    "or not at all.",
    fix="Move the file up to references/ and update the link.",
    bad=Example(
        {
            "SKILL.md": BODY.replace("references/naming.md", "references/style/csv/naming.md"),
            "references/style/csv/naming.md": "# Naming\n",
        },
        expect=(Expect("PE205", "SKILL.md", 8, 21),),
    ),
    good=Example({"SKILL.md": BODY, "references/naming.md": "# Naming\n"}),
    source="Agent Skills specification (file references)",
    limits="Only the depth of paths linked from SKILL.md is counted; a chain SKILL.md → a.md → "
    "b.md through reference files is not seen, since reference files are not parsed.",
    links=(sources.SPEC, sources.BEST_PRACTICES),
    check=check,
)
