"""PE506: the Claude and Codex manifests agree on name and version."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import CODEX_MANIFEST, PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    parsed = [m for m in plugin.manifests if m.data is not None]
    if len(parsed) < 2:
        return
    first, second = parsed[0], parsed[1]
    assert first.data is not None and second.data is not None
    for key in ("name", "version"):
        a, b = first.data.get(key), second.data.get(key)
        if a is not None and b is not None and a != b:
            line, column = second.position_of(key)
            yield RULE.finding(
                f"'{key}' is '{a}' in {first.shown} but '{b}' in {second.shown}",
                line,
                column,
                path=second.path,
            )


RULE = PluginRule(
    code="PE506",
    flag="PLUGIN_MANIFESTS_DISAGREE",
    name="plugin-manifests-disagree",
    severity=Severity.WARNING,
    subscore="ecosystem_coherence",
    summary="When both `.claude-plugin/plugin.json` and `.codex-plugin/plugin.json` exist, "
    "their `name` and `version` match.",
    why="Users of the two harnesses would install differently named or versioned copies of the "
    "same plugin; updates drift apart.",
    fix="Keep the two manifests in step (generate one from the other).",
    bad=Example(
        good_plugin(**{CODEX_MANIFEST.replace("/", "__"): GOOD_MANIFEST.replace("1.2.0", "1.1.0")}),
        "csv-tools",
        expect=(Expect("PE506", ".codex-plugin/plugin.json", 3, 3),),
    ),
    good=Example(good_plugin(**{CODEX_MANIFEST.replace("/", "__"): GOOD_MANIFEST}), "csv-tools"),
    source="Claude Code and Codex plugin manifests",
    limits="Only `name` and `version` are compared, and only between the first two manifests that "
    "parse.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
