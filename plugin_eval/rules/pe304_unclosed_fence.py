"""PE304: every code fence is closed."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for block in doc.code_blocks:
        if block.fenced and not block.closed:
            if not block.content.strip():
                # Nothing after it: a stray fence (often the closer of a block whose opener was
                # lost, so that every fence above pairs one off), not lost instructions.
                yield RULE.finding(
                    "stray code fence: it opens a block that holds nothing and is never closed",
                    block.line,
                    1,
                    fix="Delete this fence, or, if a block above lost its opening fence, add "
                    "that fence back: fences pair from the top of the file.",
                )
                continue
            # In a blockquote, the fence ends where the quote does, not at the end of the file.
            rest = "the rest of the blockquote" if block.quotes else "the rest of the file"
            yield RULE.finding(
                f"code fence opened here is never closed: {rest} renders as code",
                block.line,
                1,
                fix="Add the closing fence (the same characters, at least as many) where the "
                "code ends; or, if this fence closes a block above whose opening fence was "
                "lost, add that fence back: fences pair from the top of the file.",
            )


RULE = Rule(
    code="PE304",
    flag="UNCLOSED_CODE_FENCE",
    name="unclosed-code-fence",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="Each ``` or ~~~ fence has a closing fence.",
    why="An unclosed fence turns every following heading and instruction into code; the model "
    "reads the rest of the skill as a literal block.",
    fix="Add the closing fence (the same characters, at least as many) after the code.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "\n```python\nprint('hi')\n\n## Next step\n"},
        expect=(Expect("PE304", "SKILL.md", 10, 1),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL + "\n```python\nprint('hi')\n```\n\n## Next step\n"}),
    source="skill-validator (unclosed code fences)",
    limits="Fences are read as CommonMark reads them (markdown-it-py): a fence is closed only by "
    "the same character at least as many times, after the '>' markers of the blockquotes that "
    "hold it ('> ```' closes a fence opened in a quote). What a closed block holds is not "
    "checked.",
    links=(sources.COMMONMARK,),
    check=check,
)
