"""PE602 finds the agents a command or another agent hands work to in one pass over each body:
the same agents as a search for each agent's name, whatever the number of agents."""

from __future__ import annotations

import random
import re
from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.plugin_score import score_plugin
from plugin_eval.rules.pe602_agent_description import dispatchers
from plugin_eval.rules.plugin_base import GOOD_MANIFEST
from tests.conftest import write_files

MANIFEST = ".claude-plugin/plugin.json"


def searched(body: str, name: str) -> bool:
    """The search PE602 made for one agent's name, one body at a time (the reference)."""
    named = re.escape(name)
    wanted = re.compile(
        r"subagent_type\W{0,4}" + named + r"(?![\w-])"
        r"|(?<![\w-])`?" + named + r"`?\s+(?:sub-?)?agent\b"
        r"|@" + named + r"(?![\w-])"
        r"|\b(?:invoke|call|run|dispatch|spawn|launch|delegate\s+to|hand\s+(?:it\s+)?off\s+to)"
        r"\s+(?:the\s+)?`" + named + r"`",
        re.IGNORECASE,
    )
    return wanted.search(body) is not None


# Names and the pieces of text around them, with the characters re.IGNORECASE matches to
# another ('ı' to 'I', 'ſ' to 'S', the Kelvin sign to 'k', 'ẞ' to 'ß') and names that hold
# spaces, punctuation, backticks, or nothing.
NAMES = ["implement", "code-review", "a", "a.b", "a.b.c", "x y", "", "sort", "kit", "ß", "`q", "b "]
PIECES = [
    *NAMES,
    "IMPLEMENT",
    "Code-Review",
    "ſort",
    "\u212ait",
    "ẞ",
    "A.B",
    "subagent_type",
    "SubAgent_Type",
    ": ",
    '"',
    "'",
    "=",
    "`",
    "@",
    " ",
    "  ",
    "\n",
    "\t",
    "-",
    "_",
    ".",
    "agent",
    " agent",
    "sub-agent",
    " subagent",
    " Agent",
    "invoke ",
    "Invoke the ",
    "call",
    "run ",
    "hand it off to ",
    "delegate  to ",
    "the ",
    "word",
    "ı",
    "İ",
]


def test_one_pass_finds_what_a_search_for_each_name_finds() -> None:
    draw = random.Random(602)
    texts = [
        (f"agents/t{i}.md", "".join(draw.choices(PIECES, k=draw.randrange(1, 40))))
        for i in range(3000)
    ]
    found = dispatchers(texts, NAMES)
    expected = {name: {path for path, body in texts if searched(body, name)} for name in NAMES}
    assert {name: found.get(name, set()) for name in NAMES} == expected
    assert all(expected.values())  # every name is found somewhere: the cases are not empty


def _agent(name: str, body: str = "Work.\n") -> str:
    return f"---\nname: {name}\ndescription: Reviews code.\n---\n\n{body}"


def test_an_agent_handed_work_by_name_in_any_case_needs_no_trigger(tmp_path: Path) -> None:
    files = {f"agents/a{i}.md": _agent(f"agent-{i}") for i in range(60)}
    files.update(
        {
            # Each hands work to the next by one of the ways a body writes it, cased otherwise.
            "agents/a1.md": _agent("agent-1", "Then hand off to the `AGENT-2`.\n"),
            "agents/a2.md": _agent("agent-2", 'Task(subagent_type: "Agent-3")\n'),
            "agents/a3.md": _agent("agent-3", "Ask @agent-4 for a review.\n"),
            "agents/a4.md": _agent("agent-4", "The `agent-5` sub-agent checks it.\n"),
            # An agent that names itself, or a name run into another word, is not handed work.
            "agents/a6.md": _agent("agent-6", "I am the agent-6 agent; see @agent-60.\n"),
            "commands/ship.md": "---\ndescription: Ship\n---\n\nInvoke the `agent-7`.\n",
        }
    )
    write_files(tmp_path, {MANIFEST: GOOD_MANIFEST, **files})
    reported = [
        (f.code, f.path, f.line, f.column, f.message)
        for f in score_plugin(tmp_path, Config(), "kit").findings
        if f.code == "PE602"
    ]
    handed = {"agent-2", "agent-3", "agent-4", "agent-5", "agent-7"}
    message = (
        "agent description never says when to use it (no 'Use PROACTIVELY when …' or 'Use when …')"
    )
    assert reported == [
        ("PE602", f"kit/agents/a{i}.md", 3, 1, message)
        for i in sorted(range(60), key=str)
        if f"agent-{i}" not in handed
    ]
