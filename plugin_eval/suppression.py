"""Suppression comments: `<!-- plugin-eval: ignore PE201 -->` in the body, `# plugin-eval:
ignore PE108` in the frontmatter.

A body comment covers the lines it stands on and the next one; a frontmatter comment covers
its own key (a comment alone on a line covers the key below it). A comment without codes
covers every code. Codes are the words after `ignore`, separated by spaces or commas; they
end at anything else, such as the `-->` that closes the comment. Each code is a rule's code,
flag or name: an unknown one is reported (PE008), and so is a suppression that hides nothing
(PE009), as ruff reports an unused `# noqa`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from plugin_eval import regexes
from plugin_eval.document import SKILL_FILE, SkillDocument
from plugin_eval.findings import Finding
from plugin_eval.rules import (
    ALL_RULES,
    BY_CODE,
    BY_FLAG,
    UNKNOWN_SUPPRESSION,
    UNUSED_SUPPRESSION,
)
from plugin_eval.textsearch import Columns

DIRECTIVE = regexes.compile(r"plugin-eval:\s*ignore(?![\w-])\s*:?")
CODE = regexes.compile(r"[\s,]*([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)")


@dataclass
class Suppression:
    """One suppression comment: where it is, the lines it covers, the codes it names."""

    line: int
    column: int
    covers: frozenset[int]
    # Each code as written (upper-cased) with its column; empty: every code.
    codes: tuple[tuple[str, int], ...]
    used: set[str] = field(default_factory=set)
    used_blanket: bool = False

    def hides(self, finding: Finding) -> bool:
        """Whether this comment suppresses ``finding``; remembers what it was used for. A
        comment in SKILL.md covers SKILL.md's lines only, never the same line numbers of a
        supporting file (PE212 reports in the file that holds the link)."""
        if finding.line is None or finding.line not in self.covers or finding.path != SKILL_FILE:
            return False
        if not self.codes:
            self.used_blanket = True
            return True
        for code, _column in self.codes:
            if code in (finding.code, finding.flag):
                self.used.add(code)
                return True
        return False


# A word that can be meant as a code: `PE` and a digit, then letters or digits (`PE2O1`, a
# code mistyped, still counts, and is reported), a flag or words joined by underscores in any
# case (`orphan_refernce`, a flag mistyped), or a rule's name (`missing-script`) or a word
# close to one (`mising-script`). Any other word ("because it is a draft") ends the codes:
# a misspelt code never turns the comment into one that hides every code.
CODE_LIKE = regexes.compile(r"(?i:pe[0-9][0-9a-z]*|[a-z0-9]+(?:_[a-z0-9]+)+)")
NAMES = {rule.name: rule for rule in ALL_RULES}


def _code_like(word: str) -> bool:
    if CODE_LIKE.fullmatch(word) is not None or word.upper() in BY_FLAG:
        return True
    return "-" in word and bool(difflib.get_close_matches(word.lower(), NAMES, 1, 0.8))


def _key(word: str) -> str:
    """How a code is compared: a rule's name stands for its code; codes and flags are upper-
    cased; an unknown name is kept as written (PE008 quotes it)."""
    rule = NAMES.get(word.lower())
    if rule is not None:
        return rule.code
    return word if "-" in word else word.upper()


def _parse(text: str, line: int, offset: int, covers: frozenset[int]) -> Suppression | None:
    """The suppression in ``text`` (one source line from column ``offset``), if any."""
    directive = DIRECTIVE.search(text)
    if directive is None:
        return None
    codes = []
    at = directive.end()
    while (match := CODE.match(text, at)) is not None and _code_like(match.group(1)):
        codes.append((_key(match.group(1)), offset + match.start(1) + 1))
        at = match.end()
    return Suppression(line, offset + directive.start() + 1, covers, tuple(codes))


def find(doc: SkillDocument) -> list[Suppression]:
    """Every suppression comment of a skill, in line order."""
    found: list[Suppression] = []
    columns = Columns(doc.line_text)
    for comment in doc.comments:
        for step, text in enumerate(comment.text.split("\n")):
            line = comment.line + step
            offset = columns.find(line, text) - 1 if text else 0
            parsed = _parse(text, line, offset, frozenset({line, line + 1}))
            if parsed is not None:
                found.append(parsed)
    for line in range(2, doc.body_start - 1):
        source = doc.lines[line - 1]
        if "#" not in source:
            continue
        key_part, _, remark = source.partition("#")
        # A comment after a key covers that key; a comment alone covers the key below.
        covers = frozenset({line} if key_part.strip() else {line + 1})
        parsed = _parse(remark, line, len(key_part) + 1, covers)
        if parsed is not None:
            found.append(parsed)
    return sorted(found, key=lambda s: (s.line, s.column))


def apply(findings: Iterable[Finding], table: list[Suppression]) -> tuple[list[Finding], int]:
    """The findings no comment hides, and how many were hidden."""
    kept: list[Finding] = []
    hidden = 0
    # Only the comments covering a finding's line can hide it: looked up, not all tried.
    by_line: dict[int, list[Suppression]] = {}
    for s in table:
        for line in s.covers:
            by_line.setdefault(line, []).append(s)
    for finding in findings:
        if finding.line is not None and any(
            s.hides(finding) for s in by_line.get(finding.line, ())
        ):
            hidden += 1
        else:
            kept.append(finding)
    return kept, hidden


def problems(
    table: list[Suppression],
    enabled: Callable[[str], bool],
    lineless: frozenset[str] | set[str] = frozenset(),
) -> list[Finding]:
    """PE008 for each unknown code, PE009 for each code (or blanket comment) that hid nothing.

    A code whose rule did not run is never reported as unused: it may hide findings when it
    runs. ``lineless``: codes with findings on SKILL.md that have no line (an unlinked file,
    an unmentioned script), which no comment can cover: the fix says how to turn them off.
    """
    out: list[Finding] = []
    for s in table:
        if not s.codes and not s.used_blanket and enabled(UNUSED_SUPPRESSION.code):
            out.append(
                UNUSED_SUPPRESSION.finding(
                    "suppression of every code hides no finding here",
                    s.line,
                    s.column,
                    fix="Remove the comment.",
                    path=SKILL_FILE,
                )
            )
        for code, column in s.codes:
            rule = BY_CODE.get(code) or BY_FLAG.get(code)
            if rule is None:
                if enabled(UNKNOWN_SUPPRESSION.code):
                    out.append(
                        UNKNOWN_SUPPRESSION.finding(
                            f"'{code}' in a suppression comment is not a rule's code, flag or name",
                            s.line,
                            column,
                            path=SKILL_FILE,
                            fix=_meant(code),
                        )
                    )
            elif code not in s.used and enabled(rule.code) and enabled(UNUSED_SUPPRESSION.code):
                fix = f"Remove {code} from the comment (or the comment, if it is the last)."
                if rule.code in lineless:
                    fix = (
                        f"{rule.code}'s findings here have no line for a comment to cover: turn "
                        f"them off with the configuration's per-path-ignores (or --ignore "
                        f"{rule.code}), and remove {code} from the comment."
                    )
                out.append(
                    UNUSED_SUPPRESSION.finding(
                        f"suppression of {code} hides no finding here",
                        s.line,
                        column,
                        fix=fix,
                        path=SKILL_FILE,
                    )
                )
    return out


_LOOK_ALIKE = str.maketrans("OIL", "011")


def _meant(word: str) -> str | None:
    """The code, flag or name closest to an unknown one, as a fix ("did you mean")."""
    names = [*BY_CODE, *BY_FLAG, *NAMES]
    wanted = word.lower() if "-" in word else word.upper()
    # A code's digits typed as the letters they look like (PE2O1, PE1l2): that code.
    digits = wanted[2:].translate(_LOOK_ALIKE)
    if wanted[:2] == "PE" and digits.isdigit() and "PE" + digits in BY_CODE:
        wanted = "PE" + digits
    close = difflib.get_close_matches(wanted, names, 1, 0.75)
    if not close:
        return None
    rule = BY_CODE.get(close[0]) or BY_FLAG.get(close[0]) or NAMES[close[0]]
    return f"Did you mean {rule.code} ({rule.flag}, {rule.name})? Write that instead."
