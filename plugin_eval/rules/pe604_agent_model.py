"""PE604: an agent names its model precisely."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin

# Aliases Claude Code documents for an agent's `model` (with `inherit`): valid there, so only
# a portability note (other harnesses may not resolve them).
CLAUDE_ALIASES = frozenset({"sonnet", "opus", "haiku"})
BARE_ALIASES = CLAUDE_ALIASES | frozenset({"gpt", "gpt-4", "gpt-5", "mini", "fast", "best"})


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        if agent.file.problems:
            continue
        model = agent.meta.get("model")
        if model is None:
            yield RULE.finding(
                "agent sets no 'model'",
                1,
                1,
                fix="Add 'model: inherit' (use the session's model) or a full model id.",
                path=agent.path,
            )
        elif isinstance(model, str) and model.strip().lower() in CLAUDE_ALIASES:
            yield RULE.finding(
                f"model '{model}' is a Claude Code alias, valid there; for portability: other "
                "harnesses may not resolve it, and it follows whatever model the alias names",
                agent.line_of("model"),
                1,
                fix="Nothing to fix for Claude Code. For other harnesses, use 'model: inherit' "
                "or a full model id.",
                path=agent.path,
                severity=Severity.INFO,
            )
        elif isinstance(model, str) and model.strip().lower() in BARE_ALIASES:
            yield RULE.finding(
                f"model '{model}' is a bare alias no harness documents: it changes meaning over "
                "time and harnesses do not know it",
                agent.line_of("model"),
                1,
                path=agent.path,
            )


RULE = PluginRule(
    code="PE604",
    flag="AGENT_MODEL",
    name="agent-model",
    severity=Severity.WARNING,
    subscore="orchestration_wiring",
    summary="The agent sets `model`, either `inherit` or a full model id, not a bare alias such "
    "as `sonnet` or `opus`.",
    why="A bare alias resolves to whatever model the harness maps it to today (results drift). "
    "Claude Code documents `sonnet`, `opus`, `haiku` and `inherit` for agents, so those are "
    "reported as an info-level portability note only (other harnesses may reject them); an "
    "alias no harness documents (`gpt`, `fast`, …) is a warning.",
    fix="Use 'model: inherit' or a full model id.",
    bad=Example(
        good_plugin(
            **{"agents__csv-analyst.md": GOOD_AGENT.replace("model: inherit", "model: sonnet")}
        ),
        "csv-tools",
        expect=(Expect("PE604", "agents/csv-analyst.md", 5, 1),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code subagents documentation; Codex agent roles",
    limits="A fixed list of bare aliases is known (sonnet, opus, haiku, …); any other string, "
    "including a misspelt model id, passes.",
    links=(sources.CLAUDE_AGENTS,),
    check=check,
)
