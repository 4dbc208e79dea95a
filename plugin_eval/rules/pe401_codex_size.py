"""PE401: SKILL.md fits Codex's 8,000-byte cut, or links supporting files for the rest."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.budgets import CODEX_BYTES
from plugin_eval.document import Link, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting
from plugin_eval.textsearch import one_line

CODEX_MANIFEST = '{"name": "csv-tools", "version": "1.0.0"}\n'


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    size = facts.skill_bytes
    # The cut Codex documents is for plugin skills; it is no loss for a skill outside one.
    if size <= CODEX_BYTES or facts.linked_detail or not _in_codex_plugin(facts):
        return
    cut = doc.raw[:CODEX_BYTES].count(b"\n") + 1
    if _only_repeats(doc, facts, cut):
        return
    lost = size - CODEX_BYTES
    yield RULE.finding(
        f"SKILL.md is {size:,} bytes; Codex reads plugin skills to {CODEX_BYTES:,} bytes "
        f"(around line {cut}) and drops the rest, {_share(lost, size)} of the file"
        f"{_sections(doc, cut)}; SKILL.md links no supporting file that holds it",
        cut,
        None,
    )


def _in_codex_plugin(facts: Facts) -> bool:
    """Whether the skill sits in a Codex plugin's skills/ folder (a .codex-plugin/plugin.json
    beside it)."""
    return facts.codex_plugin is not None and facts.codex_plugin[1]


# A list item that points to another skill: "- [name](../name/SKILL.md) — gloss" or
# "- `name` - For gloss", the name in a link, code span or bold, then at most a short gloss.
_SKILL_ITEM = regexes.compile(
    r"(?:[-*+]|\d{1,3}[.)])\s+(?:\[[^\]]{1,128}\]\((?P<target>[^)\s]{1,256})\)"
    r"|`(?P<code>[^`]{1,128})`|\*\*(?P<bold>[^*]{1,128})\*\*)\s*(?:[-–—:]\s*)?(?P<gloss>.{0,300})"
)
_SKILL_TARGET = regexes.compile(r"\.\./(?P<name>[^/]{1,128})(?:/(?:SKILL\.md)?)?")
GLOSS_WORDS = 25


def _only_repeats(doc: SkillDocument, facts: Facts, cut: int) -> bool:
    """Whether every line from ``cut`` on (the line the cut falls in included) is blank, a
    code fence, a line that appears before the cut, a recap of links given before it, or an
    item of a list of other skills beside this one, or its heading ("Related skills"): then
    the cut loses nothing (the harness lists every installed skill by itself). Stops at the
    first line that says something new."""
    # Only lines before the cut are read whole, and the cut falls within 8,000 bytes.
    kept = {" ".join(line.split()) for line in doc.lines[: cut - 1]}
    headings = {h.line for h in doc.headings if h.line >= cut}
    targets = {link.target for link in doc.links if link.line < cut}
    links: dict[int, list[Link]] = {}
    for link in doc.links:
        if link.line >= cut:
            links.setdefault(link.line, []).append(link)
    for number in range(cut, len(doc.lines) + 1):
        line = " ".join(doc.lines[number - 1].split())
        if not line.strip("`~") or line in kept or _names_a_skill_beside(line, facts):
            continue
        if number in headings and _heads_a_skill_list(doc, facts, number):
            continue
        given = links.get(number, ())
        if not given or any(link.target not in targets for link in given):
            return False
        for link in given:
            line = _without_link(line, link.target)
        if any(ch.isalpha() for ch in line):  # words besides the links (or another link form)
            return False
    return True


def _heads_a_skill_list(doc: SkillDocument, facts: Facts, heading: int) -> bool:
    """Whether the first line with text after the heading on line ``heading`` names a skill
    beside this one (the heading titles a "Related skills" list, and says nothing itself)."""
    following = (line for line in doc.lines[heading:] if line.strip())
    first = next(following, None)
    return first is not None and _names_a_skill_beside(" ".join(first.split()), facts)


def _names_a_skill_beside(line: str, facts: Facts) -> bool:
    """Whether ``line`` (white space folded) is a list item that names a skill beside this one,
    by a link to its folder or SKILL.md, or by its name in a code span or bold, with at most a
    short gloss after it."""
    match = _SKILL_ITEM.fullmatch(line)
    if match is None or len(match["gloss"].split()) > GLOSS_WORDS:
        return False
    if match["target"] is not None:
        target = _SKILL_TARGET.fullmatch(match["target"])
        name = target["name"] if target is not None else None
    else:
        name = match["code"] or match["bold"]
    return name is not None and facts.sibling_has(name, "SKILL.md")


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
    "and the sections lost. Only for a skill in a Codex plugin (a .codex-plugin/plugin.json "
    "beside its skills/ folder): the cut Codex documents is for plugin skills.",
    why="OpenAI Codex truncates plugin skills at 8,000 bytes with only a warning: instructions "
    "after the cut are never seen there.",
    fix="Move detail into references/ files and link them from SKILL.md.",
    bad=Example(
        {
            "SKILL.md": GOOD_SKILL
            + "".join(f"Column {i} keeps its CSV header.\n" for i in range(300)),
            "../../.codex-plugin/plugin.json": CODEX_MANIFEST,
        },
        expect=(Expect("PE401", "SKILL.md", 249, None),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL, "../../.codex-plugin/plugin.json": CODEX_MANIFEST}),
    source="OpenAI Codex skill loader",
    limits="Bytes of SKILL.md are counted, frontmatter included; a linked supporting file "
    "silences it, whether or not the text after the cut also exists there. Text after the cut "
    "that only repeats lines before it, or recaps links given before it, is not a loss and is "
    'not reported, nor is a list of other skills beside it ("Related skills": the harness '
    "lists every installed skill by itself); text that says the same thing in other words is.",
    settings=(Setting("CODEX_BYTES", "the bytes of SKILL.md Codex reads into its context"),),
    links=(sources.CODEX_SKILLS,),
    check=check,
)
