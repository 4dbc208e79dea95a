"""PE603: an agent lists the tools it may use."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import budgets, regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin
from plugin_eval.textsearch import one_line
from plugin_eval.triggering import first_sentence

# What an agent's first sentence says its work is. One that reviews, audits, analyses or
# advises reads and reports; one that also builds, writes, fixes or deploys needs the tools it
# inherits when `tools` is left out, which is Claude Code's documented default.
READS = regexes.compile(
    r"\b(?:review(?:s|ing|er)?|audit(?:s|ing|or)?|analy[sz](?:e|es|ing)|analyst|analysis|"
    r"inspect\w*|assess\w*|evaluat\w*|investigat\w*|diagnos\w*|detect\w*|advis\w*|advice|"
    r"consult\w*|research\w*|explain\w*)\b",
    re.IGNORECASE,
)
CHANGES = regexes.compile(
    r"\b(?:build(?:s|ing|er)?|implement\w*|writ(?:e|es|ing)|creat(?:e|es|ing)|generat\w*|"
    r"fix(?:es|ing)?|refactor\w*|deploy\w*|migrat\w*|develop\w*|engineer\w*|configur\w*|"
    r"set(?:s|ting)?\s+up|automat\w*|scaffold\w*|debug\w*|edit\w*|updat(?:e|es|ing))\b",
    re.IGNORECASE,
)
# The same work said with a verb (not a noun: "configuration review", "security automation"
# name what is read): read in the whole description, where the trigger says what the agent is
# used for ("Use PROACTIVELY for … building secure-by-design systems").
DOES = regexes.compile(
    r"\b(?:build(?:s|ing)?|implement(?:s|ing)?|writ(?:e|es|ing)|creat(?:e|es|ing)|"
    r"generat(?:e|es|ing)|fix(?:es|ing)|refactor(?:s|ing)?|deploy(?:s|ing)?|"
    r"migrat(?:e|es|ing)|develop(?:s|ing)?|configur(?:e|es|ing)|set(?:s|ting)?\s+up|"
    r"automat(?:e|es|ing)|scaffold(?:s|ing)?|edit(?:s|ing)?|updat(?:e|es|ing))\b",
    re.IGNORECASE,
)


def reads_only(description: object) -> str | None:
    """The word of the description's first sentence that makes the agent's work reading and
    reporting (reviewing, auditing, analysing, advising), when no word of that sentence, and no
    verb of the rest, says the agent changes anything (an expert "in threat modeling … security
    architecture review" used "for … building secure-by-design systems" writes); else None."""
    if not isinstance(description, str):
        return None
    text = description[: budgets.LISTING_CHARS]
    first = first_sentence(text)
    found = READS.search(first)
    if found is None or CHANGES.search(first) is not None or DOES.search(text) is not None:
        return None
    return found.group(0)


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        if agent.file.problems:
            continue
        tools = agent.meta.get("tools")
        if tools is None:
            role = reads_only(agent.meta.get("description"))
            if role is None:
                continue  # it makes changes: the tools it inherits are the ones it needs
            yield RULE.finding(
                f"agent's description says it reads and reports ('{one_line(role, 24)}') but "
                "it has no 'tools' list, so it inherits every tool of the session, Write, Edit "
                "and Bash included",
                1,
                1,
                path=agent.path,
                fix="Add 'tools: Read, Grep, Glob' and only what else the work needs (e.g. "
                "'Bash(git diff:*)').",
            )
        elif not (
            isinstance(tools, str)
            or (isinstance(tools, list) and all(isinstance(t, str) for t in tools))
        ):
            yield RULE.finding(
                "'tools' should be a comma-separated string or a list of tool names",
                agent.line_of("tools"),
                1,
                path=agent.path,
            )


RULE = PluginRule(
    code="PE603",
    flag="AGENT_TOOLS",
    name="agent-tools",
    severity=Severity.INFO,
    subscore="orchestration_wiring",
    summary="An agent whose description says it reads and reports (reviews, audits, analyses, "
    "advises) and nothing that changes things has a `tools` list; every `tools` is a string or "
    "a list of names.",
    why="Without it the agent inherits every tool, Write, Edit and Bash included: a reviewer "
    "that can edit and run anything is not the read-only step its caller delegated. An agent "
    "that builds, writes or deploys needs those tools, and leaving `tools` out is Claude Code's "
    "documented default for it.",
    fix="Add 'tools: Read, Grep, …' with only what the agent needs.",
    bad=Example(
        good_plugin(
            **{
                "agents__csv-analyst.md": GOOD_AGENT.replace(
                    "tools: Read, Grep, Bash\n", ""
                ).replace(
                    "Answers questions about CSV exports.",
                    "Reviews CSV exports for blank rows and mismatched headers.",
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE603", "agents/csv-analyst.md", 1, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation",
    limits="The agent's work is read from the first sentence of its description, in English, "
    "and what it changes also from a verb in the rest ('Use PROACTIVELY for … building …'); a "
    "noun there ('configuration review') names what is read. An agent described otherwise "
    "('HR partner for hiring …') is not asked for a list. It checks "
    "that `tools` is present and well formed, not that the tools exist or fit the work. A "
    "missing `tools` has no line, so the finding points at line 1.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
