"""PE604: an agent's `model` is one Claude Code accepts."""

from __future__ import annotations

import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_AGENT, good_plugin
from plugin_eval.textsearch import one_line

# What Claude Code documents for a subagent's `model`: a model alias, `inherit` (the session's
# model), or a full model id. Leaving it out is documented too (the agent inherits). The
# aliases are those of Claude Code's model configuration page: a family's newest model, with
# the 1M-token context suffix `[1m]` for the families it documents one for, the account's
# default or best, and Opus to plan with Sonnet to act.
FAMILIES = frozenset({"sonnet", "opus", "haiku", "fable"})
LONG_CONTEXT = frozenset({f"{family}[1m]" for family in ("sonnet", "opus", "fable")})
ALIASES = FAMILIES | LONG_CONTEXT | {"default", "best", "opusplan", "inherit"}
# A full Claude model id, as Anthropic names it ("claude-sonnet-4-5") or a cloud provider does
# ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-opus-4-1@20250805").
MODEL_ID = regexes.compile(r"(?:[a-z0-9-]+\.)*claude-[a-z0-9][a-z0-9.@:_-]*", re.IGNORECASE)
SUGGESTED = (
    "an alias such as sonnet, opus, haiku or fable, inherit (the session's model), or a full "
    "model id"
)


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for agent in plugin.agents:
        if agent.file.problems:
            continue
        model = agent.meta.get("model")
        if model is None:
            continue  # not set: the agent runs on the model Claude Code picks for subagents
        if isinstance(model, str) and (
            model.strip().lower() in ALIASES or MODEL_ID.fullmatch(model.strip())
        ):
            continue
        said = f"'{one_line(str(model), 48)}'" + ("" if isinstance(model, str) else " (not text)")
        yield RULE.finding(
            f"model {said} is not one Claude Code accepts for an agent ({SUGGESTED}): the agent "
            "does not run on the model meant",
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
    summary="An agent's `model`, when set, is one Claude Code accepts: an alias (`sonnet`, "
    "`opus`, `haiku`, `fable`, `opusplan`, `best`, `default`, `sonnet[1m]` and the like), `inherit`, or "
    "a full model id (`claude-…`).",
    why="Claude Code documents those values for a subagent; another one (a model of another "
    "vendor, a made-up name) does not select the model the author meant. A plugin's agents "
    "are read by Claude Code only, so its own aliases are right there, and no portability "
    "note is given for them.",
    fix=f"Use {SUGGESTED}, or leave 'model' out to let the agent inherit.",
    bad=Example(
        good_plugin(
            **{"agents__csv-analyst.md": GOOD_AGENT.replace("model: inherit", "model: gpt-4o")}
        ),
        "csv-tools",
        expect=(Expect("PE604", "agents/csv-analyst.md", 5, 1),),
    ),
    good=Example(
        good_plugin(
            **{"agents__csv-analyst.md": GOOD_AGENT.replace("model: inherit", "model: sonnet")}
        ),
        "csv-tools",
    ),
    source="Claude Code subagents documentation",
    limits="A full model id is recognised by its form (`claude-` and what follows, with an "
    "optional provider prefix such as `us.anthropic.`), not checked against the models that "
    "exist; the aliases are compared without letter case, and are those Claude Code documented "
    "when this version was made: an alias added since is reported until the list is updated.",
    links=(sources.CLAUDE_AGENTS, sources.CLAUDE_MODELS),
    check=check,
)
