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


# A request the agent's prompt lists as one it is given ('- "Implement zero-trust auth …"'):
# a quoted list item whose first word asks for a change. An agent shown requests to build
# or implement changes things, whatever the first sentence of its description calls it.
ASKED_TO_CHANGE = regexes.compile(
    r"^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\*\*)?[\"“'‘](?:implement|build|write|create|"
    r"generate|fix|refactor|deploy|migrate|develop|configure|set\s+up|automate|scaffold|"
    r"edit|update|add|harden|patch|remediate)\b",
    re.IGNORECASE | re.MULTILINE,
)
# Tools an agent's own text names, so the list the fix proposes keeps them: a web researcher
# that says to use WebSearch needs it, not only Read, Grep and Glob.
NAMED_TOOLS = ("WebSearch", "WebFetch", "Bash", "NotebookEdit", "TodoWrite")
_NAMED = regexes.compile(r"\b(?:" + "|".join(NAMED_TOOLS) + r")\b")


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
            body = agent.body
            if role is None or ASKED_TO_CHANGE.search(body) is not None:
                continue  # it makes changes: the tools it inherits are the ones it needs
            description = agent.meta.get("description")
            text = body + (description if isinstance(description, str) else "")
            found = set(_NAMED.findall(text))
            named = [t for t in NAMED_TOOLS if t in found]
            proposed = ", ".join(["Read", "Grep", "Glob", *named])
            yield RULE.finding(
                f"agent's description says it reads and reports ('{one_line(role, 24)}') but "
                "it has no 'tools' list, so it inherits every tool of the session, Write, Edit "
                "and Bash included",
                1,
                1,
                path=agent.path,
                fix=f"Add 'tools: {proposed}' and only what else the work needs"
                + (
                    f" (it names {', '.join(named)}; narrow Bash to the commands it runs, e.g. "
                    "'Bash(git diff:*)')."
                    if "Bash" in named
                    else f" (it names {', '.join(named)})."
                    if named
                    else " (e.g. 'Bash(git diff:*)')."
                ),
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
    "and what it changes also from a verb in the rest ('Use PROACTIVELY for … building …') "
    "and from the requests its prompt lists as examples, quoted in a list ('- \"Implement "
    "zero-trust auth …\"'); a noun in the description ('configuration review') names what "
    "is read. The tools the fix proposes add those of WebSearch, WebFetch, Bash, NotebookEdit "
    "and TodoWrite that the agent's text names. An agent described otherwise "
    "('HR partner for hiring …') is not asked for a list. It checks "
    "that `tools` is present and well formed, not that the tools exist or fit the work. A "
    "missing `tools` has no line, so the finding points at line 1.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
