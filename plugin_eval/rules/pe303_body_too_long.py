"""PE303: the body stays under 500 lines and about 5,000 tokens."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import BODY_LINES, BODY_TOKENS
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    lines, tokens = doc.body_lines, facts.body_tokens
    over = []
    if lines >= BODY_LINES:  # the guide is "under" it: the budget itself is one too many
        over.append(f"{lines} lines (guide: under {BODY_LINES})")
    if tokens >= BODY_TOKENS:
        over.append(f"about {tokens} tokens (guide: under {BODY_TOKENS})")
    if over:
        yield RULE.finding("body is " + " and ".join(over), doc.body_start, None)


RULE = Rule(
    code="PE303",
    flag="BODY_TOO_LONG",
    name="body-too-long",
    severity=Severity.WARNING,
    subscore="progressive_disclosure",
    summary="The Markdown body is under 500 lines and about 5,000 tokens (estimated at four "
    "characters a token).",
    why="The body is loaded whole whenever the skill activates; the specification recommends "
    "these budgets and moving detail into references/.",
    fix="Move detail into references/ files linked from SKILL.md.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "".join(f"- step {i}\n" for i in range(520))},
        expect=(Expect("PE303", "SKILL.md", 5, None),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Agent Skills specification (progressive disclosure)",
    limits="Tokens are estimated at four characters each, not counted with a model's tokenizer; "
    "text in references/ is not counted.",
    settings=(
        Setting("BODY_LINES", "the specification's budget for the body, in lines"),
        Setting("BODY_TOKENS", "the recommended budget for the body, in estimated tokens"),
    ),
    links=(sources.SPEC,),
    check=check,
)
