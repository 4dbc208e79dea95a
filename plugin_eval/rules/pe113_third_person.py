"""PE113: the description is written in the third person."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, value_location
from plugin_eval.textsearch import led, needed

# Quoted text is what a user might say ("help me pick"), not the description's own voice.
QUOTED = regexes.compile(r'"[^"\n]*"|“[^”\n]*”|(?<!\w)\'[^\'\n]*\'(?!\w)|`[^`\n]*`')
# The description's own voice in the first person: I (as a subject: followed by a verb, not
# "Type I errors" or "I/O"), me, my, mine, we, our, us. Matched case-sensitively, so "US"
# (the country) and "IT" are not pronouns; a capital starts a sentence only.
FIRST_PERSON = regexes.compile(
    r"(?<![\w/])(?<![A-Z][a-z] )(?<![A-Z][a-z][a-z] )(?<![A-Z][a-z]{3} )(?<![A-Z][a-z]{4} )"
    r"I(?:'m|'ll|'ve|'d| (?:am|can|will|help|have|do|need|want|would|should|could|may|might|"
    r"write|build|create|generate|review|turn|make|handle|analy[sz]e|format|convert|draft|"
    r"provide|guide|know|use|run)\b)"
    r"|(?<![\w'])(?:[Mm]e|[Mm]y|[Mm]ine|[Ww]e|[Oo]ur|[Oo]urs|us)(?![\w'/-])"
)
# The reader addressed in the second person about using the skill: "You can …", "Your …",
# "helps you", "you should use this skill when". A condition about the user's situation
# inside a trigger ("Use when you need to export tables") is the usual idiom and passes.
SECOND_PERSON = regexes.compile(
    r"(?<![\w'])(?:[Yy]ou (?:can|should|could|will|may|might|must)\b|[Yy]our\b|[Yy]ou'll\b"
    r"|(?i:helps?|lets?|allows?|enables?|gives?|shows?|teaches?|guides?|for) you\b)"
)
# The word that makes what follows the user's situation: "Use when you can't find a commit",
# "if your build fails", "after you must roll back" state when to use the skill, in the
# user's words, and do not address the reader about it.
CONDITION = regexes.compile(
    r"(?i:\b(?:when|whenever|if|once|after|before|until|unless|while|where|because)\s+)$"
)


# "Use when: build a tool, scratch my itch." or "Triggers: …": a list of what users say, to
# the end of its sentence.
PHRASE_LIST = regexes.compile(
    r"(?i:\b(?:use (?:it |this skill )?(?:when|for|on)|triggers?(?: on| phrases?| words?)?"
    r"|trigger (?:phrases|words)|keywords?|when the user says|e\.g\.)\s*:)[^.!?\n]*"
)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    value = doc.description
    if not value:
        return
    # Text that holds no quote mark has no quotation to blank out.
    quoted = any(mark in value for mark in needed(QUOTED))
    own = QUOTED.sub(_blank, value) if quoted else value
    # A list of what users say, after "Use when:" or "Triggers:", is theirs, quoted or not.
    if ":" in own:
        own = PHRASE_LIST.sub(_blank, own)
    addressed = next(
        (
            m
            for m in SECOND_PERSON.finditer(own)
            if not CONDITION.search(own, max(0, m.start() - 16), m.start())
        ),
        None,
    )
    found = [m for m in (led(FIRST_PERSON).search(own), addressed) if m]
    match = min(found, key=lambda m: m.start()) if found else None
    if match:
        words = match.group(0).strip()
        line, column = value_location(doc, "description", words, value[: match.start()])
        yield RULE.finding(
            f"description speaks in the first or second person ('{words}')",
            line,
            column,
            fix=f"Reword '{words}' in the third person, as what the skill does ('Formats …', "
            "'Use when the user …'), not as the model or the reader speaking.",
        )


RULE = Rule(
    code="PE113",
    flag="DESCRIPTION_NOT_THIRD_PERSON",
    name="description-person",
    severity=Severity.INFO,
    subscore="frontmatter_quality",
    summary="The description says what the skill does in the third person ('Formats CSV "
    "reports'), not 'I can …' or 'You can …'.",
    why="The description is injected into the system prompt; first- and second-person text "
    "reads as if the model or the user were speaking and weakens discovery.",
    fix="Reword it in the third person, as what the skill does: 'Formats …', 'Reviews …', "
    "'Use when the user …'.",
    bad=Example(
        {"SKILL.md": GOOD_SKILL.replace("description: Formats", "description: I can help format")},
        expect=(Expect("PE113", "SKILL.md", 3, 14),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Anthropic skill authoring guidance",
    limits="It reads English only, anywhere in the description except inside quotes (a "
    'quoted request such as "help me pick a chart" is what a user says): first-person '
    "pronouns (me, my, we, our, us, and 'I' followed by a verb), and the reader addressed about "
    "using the skill ('You can', 'you should', 'Your', 'helps you'). A condition about the "
    "user's situation ('Use when you need to …', 'when you can't find …', 'if your build "
    "fails') passes, as does a description in another language.",
    links=(sources.BEST_PRACTICES,),
    check=check,
)
