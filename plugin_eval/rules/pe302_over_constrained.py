"""PE302 OVER_CONSTRAINED: more than 15 MUST / NEVER / ALWAYS in the prose."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.budgets import MAX_DIRECTIVES
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, Setting


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    found = facts.directives
    if len(found) > MAX_DIRECTIVES:
        counts = Counter(word for _, word in found)
        detail = ", ".join(f"{word} ×{n}" for word, n in sorted(counts.items()))
        yield RULE.finding(
            f"{len(found)} absolute directives in the prose ({detail}); more than "
            f"{MAX_DIRECTIVES} over-constrains the model",
            found[MAX_DIRECTIVES][0],
            None,
        )


RULE = Rule(
    code="PE302",
    flag="OVER_CONSTRAINED",
    name="over-constrained",
    severity=Severity.WARNING,
    anti_pattern=True,
    summary="The prose (code blocks excluded) uses MUST, NEVER and ALWAYS in capitals at most "
    "15 times in all. The finding points at the first directive over the limit.",
    why="When everything is absolute nothing is: the model cannot tell the hard constraints "
    "from preferences, and rigid rules misfire on cases the author did not foresee.",
    fix="Keep capitals for the few real invariants; explain the reason for the rest in plain "
    "words ('prefer X because …').",
    bad=Example(
        {"SKILL.md": GOOD_SKILL + "".join(f"- You MUST do step {i}.\n" for i in range(16))},
        expect=(Expect("PE302", "SKILL.md", 24, None),),
    ),
    good=Example(
        {"SKILL.md": GOOD_SKILL + "- Check the header row first: later steps rely on it.\n"}
    ),
    source="PluginEval anti-patterns",
    limits="Only MUST, NEVER and ALWAYS in capitals are counted; other absolute wording (REQUIRED, "
    "DO NOT, 'under no circumstances') and lower-case use are not. The finding has a line but no "
    "column.",
    settings=(Setting("MAX_DIRECTIVES", "the most capitalised directives allowed in the prose"),),
    check=check,
)
