"""PE401: SKILL.md fits Codex's 8,000-byte cut, or links supporting files for the rest."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import CODEX_BYTES
from plugin_eval.document import Link, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting
from plugin_eval.textsearch import one_line


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    size = facts.skill_bytes
    if size <= CODEX_BYTES or facts.linked_detail:
        return
    cut = doc.raw[:CODEX_BYTES].count(b"\n") + 1
    if _only_repeats(doc, cut):
        return
    lost = size - CODEX_BYTES
    yield RULE.finding(
        f"SKILL.md is {size:,} bytes; Codex reads plugin skills to {CODEX_BYTES:,} bytes "
        f"(around line {cut}) and drops the rest, {_share(lost, size)} of the file"
        f"{_sections(doc, cut)}; SKILL.md links no supporting file that holds it",
        cut,
        None,
    )


def _only_repeats(doc: SkillDocument, cut: int) -> bool:
    """Whether every line from ``cut`` on (the line the cut falls in included) is blank, a
    code fence, a line that appears before the cut, or a recap of links given before it: then
    the cut loses nothing. Stops at the first line that says something new."""
    # Only lines before the cut are read whole, and the cut falls within 8,000 bytes.
    kept = {" ".join(line.split()) for line in doc.lines[: cut - 1]}
    targets = {link.target for link in doc.links if link.line < cut}
    links: dict[int, list[Link]] = {}
    for link in doc.links:
        if link.line >= cut:
            links.setdefault(link.line, []).append(link)
    for number in range(cut, len(doc.lines) + 1):
        line = " ".join(doc.lines[number - 1].split())
        if not line.strip("`~") or line in kept:
            continue
        given = links.get(number, ())
        if not given or any(link.target not in targets for link in given):
            return False
        for link in given:
            line = _without_link(line, link.target)
        if any(ch.isalpha() for ch in line):  # words besides the links (or another link form)
            return False
    return True


def _without_link(line: str, target: str) -> str:
    """``line`` without its first inline link ``[text](target)`` to ``target``, when it holds
    one in that plain form (else unchanged: its words then count as something new)."""
    end = line.find(f"]({target})")
    start = line.rfind("[", 0, end) if end >= 0 else -1
    if start < 0:
        return line
    return line[:start] + line[end + len(target) + 3 :]


def _share(lost: int, size: int) -> str:
    percent = 100 * lost / size
    return f"{percent:.0f} %" if percent >= 1 else "under 1 %"


def _sections(doc: SkillDocument, cut: int) -> str:
    """The sections the cut drops: the end of the one it falls in, and every one after it."""
    before = [h for h in doc.headings if h.line < cut]
    after = [h for h in doc.headings if h.line >= cut]
    parts = []
    if before and not (after and after[0].line == cut):  # a cut just before a heading ends none
        parts.append(f"the end of '{one_line(before[-1].text, 32)}'")
    if after:
        named = ", ".join(f"'{one_line(h.text, 32)}'" for h in after[:2])
        more = ", …" if len(after) > 2 else ""
        if len(after) == 1:
            parts.append(f"the section {named}")
        else:
            parts.append(f"{len(after)} sections ({named}{more})")
    return ": " + " and ".join(parts) if parts else ""


RULE = Rule(
    code="PE401",
    flag="CODEX_SIZE_CUT",
    name="codex-size-cut",
    severity=Severity.WARNING,
    subscore="harness_portability",
    summary="SKILL.md (frontmatter included) is at most 8,000 bytes, unless it links or names "
    "supporting text files that hold the detail (in references/, reference/, docs/ or beside "
    "SKILL.md). The finding names the line where Codex cuts, the share of the file it drops "
    "and the sections lost.",
    why="OpenAI Codex truncates plugin skills at 8,000 bytes with only a warning: instructions "
    "after the cut are never seen there.",
    fix="Move detail into references/ files and link them from SKILL.md.",
    bad=Example(
        {
            "SKILL.md": GOOD_SKILL
            + "".join(f"Column {i} keeps its CSV header.\n" for i in range(300))
        },
        expect=(Expect("PE401", "SKILL.md", 249, None),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="OpenAI Codex skill loader",
    limits="Bytes of SKILL.md are counted, frontmatter included; a linked supporting file "
    "silences it, whether or not the text after the cut also exists there. Text after the cut "
    "that only repeats lines before it, or recaps links given before it, is not a loss and is "
    "not reported; text that says the same thing in other words is.",
    settings=(Setting("CODEX_BYTES", "the bytes of SKILL.md Codex reads into its context"),),
    links=(sources.CODEX_SKILLS,),
    check=check,
)
