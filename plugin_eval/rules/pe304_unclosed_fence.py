"""PE304: every code fence is closed."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import CodeBlock, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule
from plugin_eval.rules.pe307_mispaired_fence import first_opener


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for block in doc.code_blocks:
        if block.fenced and not block.closed:
            wrapper = _wrapper_above(doc, block)
            if wrapper is not None:
                # The usual cause: an example that holds a fenced block was opened with as
                # many backticks as the block inside it, whose closing fence closed it.
                outer, inner = wrapper
                longer = block.marker[0] * (len(outer.marker) + 1)
                yield RULE.finding(
                    f"code fence opened here is never closed: the rest of the file renders as "
                    f"code (it was meant to close the block opened at line {outer.line}, which "
                    f"the fenced block inside it, line {inner}, closed early)",
                    block.line,
                    1,
                    fix=f"Open the block at line {outer.line} with {longer} and close it here "
                    f"with {longer}: a longer fence keeps the fenced block inside it.",
                )
                continue
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
                "lost, add that fence back; or, if it closes an example that holds fenced "
                "blocks, open and close that example with a longer fence (````): fences pair "
                "from the top of the file.",
            )


def _wrapper_above(doc: SkillDocument, block: CodeBlock) -> tuple[CodeBlock, int] | None:
    """For a bare fence left open at the end of the file, outside blockquotes: the last block
    above it that holds a line opening a fenced block, and that line (the example it was meant
    to close, which the inner block's closing fence closed), when that block opened with a
    language of the same fence character. A bare one there is itself a closer paired wrong
    further up (a doubled fence), and what it holds is not an example: None then."""
    if block.quotes or block.language or not block.marker:
        return None
    for outer in reversed([b for b in doc.code_blocks if b.line < block.line]):
        if not outer.fenced or outer.quotes or not outer.marker:
            continue
        found = first_opener(outer)
        if found is None:
            continue
        if outer.language and outer.marker[0] == block.marker[0]:
            return outer, outer.line + 1 + found[0]
        return None
    return None


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
    "checked. A bare fence left open at the end, after an example opened with a language whose "
    "fenced block inside closed it (PE307 reports that line), is named as that example's "
    "closer, with the longer fence that keeps the inner block in; when the fences above are "
    "paired wrong further up (a doubled fence), the fix stays general.",
    links=(sources.COMMONMARK,),
    check=check,
)
