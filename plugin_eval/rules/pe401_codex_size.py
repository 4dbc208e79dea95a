"""PE401: SKILL.md fits Codex's 8,000-byte cut, or links supporting files for the rest."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import CODEX_BYTES
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    size = facts.skill_bytes
    if size <= CODEX_BYTES or facts.linked_detail:
        return
    cut = doc.raw[:CODEX_BYTES].count(b"\n") + 1
    yield RULE.finding(
        f"SKILL.md is {size:,} bytes; Codex cuts plugin skills at {CODEX_BYTES:,} bytes "
        f"(around line {cut}) and SKILL.md links no supporting file that holds the detail",
        cut,
        None,
    )


RULE = Rule(
    code="PE401",
    flag="CODEX_SIZE_CUT",
    name="codex-size-cut",
    severity=Severity.WARNING,
    subscore="harness_portability",
    summary="SKILL.md (frontmatter included) is at most 8,000 bytes, unless it links or names "
    "supporting text files that hold the detail (in references/, reference/, docs/ or beside "
    "SKILL.md). The finding names the line where Codex cuts.",
    why="OpenAI Codex truncates plugin skills at 8,000 bytes with only a warning: instructions "
    "after the cut are never seen there.",
    fix="Move detail into references/ files and link them from SKILL.md.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "Detail line for the CSV exporter.\n" * 260},
        expect=(Expect("PE401", "SKILL.md", 239, None),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="OpenAI Codex skill loader",
    limits="Bytes of SKILL.md are counted, frontmatter included; a linked supporting file "
    "silences it, whether or not the text after the cut also exists there.",
    settings=(Setting("CODEX_BYTES", "the bytes of SKILL.md Codex reads into its context"),),
    links=(sources.CODEX_SKILLS,),
    check=check,
)
