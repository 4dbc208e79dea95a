"""PE504: the plugin version is a semantic version."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, SEMVER, good_plugin


def check(plugin: PluginDocument) -> Iterator[Finding]:
    for manifest in plugin.manifests:
        version = manifest.data.get("version") if manifest.data else None
        if version is not None and not (isinstance(version, str) and SEMVER.match(version)):
            line, column = manifest.position_of("version")
            yield RULE.finding(
                f"version {json_repr(version)} is not a semantic version (MAJOR.MINOR.PATCH)",
                line,
                column,
                path=manifest.path,
            )


def json_repr(value: object) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


RULE = PluginRule(
    code="PE504",
    flag="PLUGIN_VERSION_INVALID",
    name="plugin-version-invalid",
    severity=Severity.WARNING,
    subscore="ecosystem_coherence",
    summary="`version` is a string in semantic-versioning form (`1.2.0`, `2.0.0-beta.1`).",
    why="Marketplaces compare versions to offer updates; '1.2' or a number cannot be ordered "
    "reliably.",
    fix='Write the version as "MAJOR.MINOR.PATCH", in quotes.',
    bad=Example(
        good_plugin(**{".claude-plugin__plugin.json": GOOD_MANIFEST.replace('"1.2.0"', "1.2")}),
        "csv-tools",
        expect=(Expect("PE504", ".claude-plugin/plugin.json", 3, 3),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code plugin reference; semver.org",
    limits="It checks the form of the version, not that it increases from one release to the next.",
    links=(sources.CLAUDE_PLUGINS, sources.SEMVER),
    check=check,
)
