"""PE602: an agent's description says when to delegate to it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import Part, PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin
from plugin_eval.triggering import PROACTIVE, find_trigger

# The words around an agent's name where a body hands work to it: `subagent_type: "implement"`
# (up to four non-word characters between), "@implement", "invoke the `implement`" (or call,
# run, dispatch, spawn, launch, delegate to, hand off to), each ending where the name starts;
# "the `implement` agent" (or sub-agent, subagent), the word after the spaces the name ends
# before. The names are looked up from there in a trie, never searched for one by one.
_TYPE_KEY = regexes.compile(r"subagent_type", re.IGNORECASE)
_VERB = regexes.compile(
    r"\b(?:invoke|call|run|dispatch|spawn|launch|delegate\s+to|hand\s+(?:it\s+)?off\s+to)"
    r"\s+(?:the\s+)?`",
    re.IGNORECASE,
)
_AGENT_WORD = regexes.compile(r"(?<=\s)(?:sub-?)?agent\b", re.IGNORECASE)
_WORDISH = regexes.compile(r"[\w-]")
_NON_WORD = regexes.compile(r"\W")
_SPACE = regexes.compile(r"\s")
_GAP = 4  # the most characters between subagent_type and the name


def _fold(char: str) -> str:
    """A key shared by every character ``re.IGNORECASE`` matches to ``char`` (and by a few it
    does not, so a name is compared again where its key fits): its simple lowercase, upper-
    cased and case-folded, where 'ı', 'ſ' and the Kelvin sign meet 'i', 's' and 'k' (as do
    the other pairs ``re`` matches beyond lowercase, which share an uppercase)."""
    return char.lower()[:1].upper().casefold()


@dataclass
class _Node:
    """A trie of names by their characters' keys."""

    names: list[str] = field(default_factory=list)
    next: dict[str, _Node] = field(default_factory=dict)

    def add(self, name: str, chars: Iterable[str]) -> None:
        node = self
        for char in chars:
            node = node.next.setdefault(_fold(char), _Node())
        node.names.append(name)


def _walk(node: _Node, text: str, at: int, step: int) -> Iterator[tuple[str, int]]:
    """The names whose keys ``text`` spells from ``at`` on (``step`` 1) or back from it (-1),
    with where each stops."""
    while True:
        for name in node.names:
            yield name, at
        char = at if step > 0 else at - 1
        if not 0 <= char < len(text):
            return
        found = node.next.get(_fold(text[char]))
        if found is None:
            return
        node, at = found, at + step


def _unjoined(text: str, at: int) -> bool:
    """No letter, digit, '_' or '-' at ``at``: a name written up to there ends there."""
    return at >= len(text) or _WORDISH.match(text, at) is None


def _named(text: str, ahead: _Node, behind: _Node) -> Iterator[tuple[str, int, int]]:
    """Where ``text`` may hand work to one of the names: the name, its start and end, with
    what is around it checked and the name's characters only by their keys."""
    starts: list[tuple[int, bool]] = []  # where a name may start; whether a backtick ends it
    for match in _TYPE_KEY.finditer(text):
        gap = match.end()
        starts.append((gap, False))
        for at in range(gap, min(gap + _GAP, len(text))):
            if _NON_WORD.match(text, at) is None:
                break
            starts.append((at + 1, False))
    at = text.find("@")
    while at >= 0:
        starts.append((at + 1, False))
        at = text.find("@", at + 1)
    starts.extend((match.end(), True) for match in _VERB.finditer(text))
    for start, quoted in starts:
        for name, end in _walk(ahead, text, start, 1):
            if text.startswith("`", end) if quoted else _unjoined(text, end):
                yield name, start, end
    for match in _AGENT_WORD.finditer(text):
        # The name ends before one space or more (and a backtick) ahead of the word.
        spaces = match.start()
        while spaces > 0 and _SPACE.match(text, spaces - 1) is not None:
            spaces -= 1
        ends = list(range(spaces, match.start()))
        if spaces > 0 and text[spaces - 1] == "`":
            ends.append(spaces - 1)
        for end in ends:
            for name, start in _walk(behind, text, end, -1):
                if start == 0 or _WORDISH.match(text, start - 1) is None:
                    yield name, start, end


def dispatchers(texts: Iterable[tuple[str, str]], names: Iterable[str]) -> dict[str, set[str]]:
    """For each of ``names``, the paths of the ``texts`` (path and body of the commands and
    agents) that hand work to an agent of that name by the name (`subagent_type: "implement"`,
    "the `implement` agent", "invoke the `playwright` skill"): a pipeline stage is picked by
    its caller, not by its description. One pass over each body, whatever the number of
    names; a name is compared with ``re.IGNORECASE``, as a search for it would."""
    ahead, behind = _Node(), _Node()
    exact: dict[str, re.Pattern[str]] = {}
    for name in set(names):
        ahead.add(name, name)
        behind.add(name, reversed(name))
        exact[name] = re.compile(re.escape(name), re.IGNORECASE)  # noqa: TID251 - an agent's name
    found: dict[str, set[str]] = {}
    for path, body in texts:
        seen: set[str] = set()
        for name, start, end in _named(body, ahead, behind):
            if name not in seen and exact[name].fullmatch(body, start, end) is not None:
                seen.add(name)
                found.setdefault(name, set()).add(path)
    return found


def _name(agent: Part) -> str:
    name = agent.meta.get("name")
    return name if isinstance(name, str) else agent.stem


def _described(agent: Part) -> str | None:
    description = agent.meta.get("description")
    return description if isinstance(description, str) and description.strip() else None


def check(plugin: PluginDocument) -> Iterator[Finding]:
    agents = [agent for agent in plugin.agents if not agent.file.problems]
    untriggered = {
        agent.path
        for agent in agents
        if (description := _described(agent)) is not None
        and not find_trigger(description)
        and not PROACTIVE.search(description)
    }
    callers = (
        dispatchers(
            ((part.path, part.body) for part in (*plugin.commands, *plugin.agents)),
            (_name(agent) for agent in agents if agent.path in untriggered),
        )
        if untriggered
        else {}
    )
    for agent in agents:
        if _described(agent) is None:
            yield RULE.finding(
                "agent has no description", agent.line_of("description"), 1, path=agent.path
            )
        elif agent.path in untriggered and not callers.get(_name(agent), set()) - {agent.path}:
            yield RULE.finding(
                "agent description never says when to use it (no 'Use PROACTIVELY when …' or "
                "'Use when …')",
                agent.line_of("description"),
                1,
                path=agent.path,
            )


RULE = PluginRule(
    code="PE602",
    flag="AGENT_DESCRIPTION_TRIGGER",
    name="agent-description-trigger",
    severity=Severity.WARNING,
    subscore="frontmatter_quality",
    summary="The agent's `description` states when to delegate to it, ideally proactively "
    "('Use PROACTIVELY when …').",
    why="The main agent delegates by matching the task against subagent descriptions; a "
    "description without a trigger is rarely chosen.",
    fix="Append 'Use PROACTIVELY when …' with the situations it handles.",
    bad=Example(
        good_plugin(
            **{
                "agents__csv-analyst.md": GOOD_AGENT.replace(
                    " Use PROACTIVELY when a user shares a CSV file, asks for column statistics, or needs "
                    "two exports merged.",
                    "",
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE602", "agents/csv-analyst.md", 3, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation",
    limits="It recognises the trigger phrases of PE102 plus 'PROACTIVELY'; whether the situations "
    "named are the right ones is not judged. An agent that one of the plugin's commands or "
    'other agents hands work to by name (`subagent_type: "implement"`, \'the `implement` '
    "agent', '@implement') is a stage its caller picks, and needs no trigger.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
