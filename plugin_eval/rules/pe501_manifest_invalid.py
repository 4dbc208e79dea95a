"""PE501: plugin.json must be a JSON object."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import TOO_LARGE, Manifest, PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for manifest in plugin.manifests:
        if manifest.error:
            yield RULE.finding(
                f"{manifest.shown} is {manifest.error}",
                manifest.error_line,
                manifest.error_column,
                _unread_fix(manifest),
                path=manifest.path,
            )


def _unread_fix(manifest: Manifest) -> str | None:
    """The fix of a manifest that was not read: there is no JSON to fix."""
    if manifest.error is None or manifest.data is not None or manifest.text:
        return None
    if manifest.error.startswith("not readable"):
        return (
            "Make the file readable by whoever installs the plugin (for example: chmod a+r "
            f"{manifest.path})."
        )
    if "symlink" in manifest.error:
        return "Put the manifest itself in the plugin folder, not a symlink to it."
    if manifest.error.startswith(TOO_LARGE):
        return "Keep plugin.json to the manifest's own fields; a harness reads nothing else there."
    return None


RULE = PluginRule(
    code="PE501",
    flag="PLUGIN_MANIFEST_INVALID",
    name="plugin-manifest-invalid",
    severity=Severity.ERROR,
    subscore="ecosystem_coherence",
    summary="`.claude-plugin/plugin.json` (and `.codex-plugin/plugin.json`) parse as a JSON object.",
    why="A manifest that does not parse makes the harness skip the whole plugin: none of its "
    "skills, agents or commands load.",
    fix="Fix the JSON at the reported line (trailing commas and comments are not allowed).",
    bad=Example(
        good_plugin(**{".claude-plugin__plugin.json": '{"name": "csv-tools",}\n'}),
        "csv-tools",
        expect=(Expect("PE501", ".claude-plugin/plugin.json", 1, 22),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code plugin reference",
    limits="Only the first JSON error is reported; JSON with comments, which some tools accept, is "
    "reported as invalid.",
    links=(sources.CLAUDE_PLUGINS, sources.JSON),
    check=check,
)
