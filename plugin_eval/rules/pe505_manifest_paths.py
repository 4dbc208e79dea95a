"""PE505: paths named in the manifest exist inside the plugin."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import CODEX_MANIFEST, PluginDocument, named_paths
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_MANIFEST, good_plugin
from plugin_eval.walk import kind_within

PATH_KEYS = ("commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    files = plugin.listing.files
    for manifest in plugin.manifests:
        if manifest.data is None:
            continue
        for key in PATH_KEYS:
            for raw in named_paths(manifest.data.get(key)):
                if raw.startswith(("http://", "https://")) or "${" in raw:
                    continue
                path = posixpath.normpath(raw.replace("\\", "/"))
                if path.startswith("../") or path == ".." or raw.startswith("/"):
                    problem = "leaves the plugin folder"
                elif path in files or plugin.listing.has_dir(path) or path == ".":
                    if raw.startswith("./") or manifest.path == CODEX_MANIFEST:
                        continue
                    # There, but written as Claude Code's reference says a path must not be.
                    line, column = manifest.position_of(key)
                    yield RULE.finding(
                        f"'{key}' path '{raw}' does not start with './', which Claude Code's "
                        "plugins reference says every path in the manifest must",
                        line,
                        column,
                        path=manifest.path,
                        fix=f"Write it as './{path}'.",
                        severity=Severity.WARNING,
                    )
                    continue
                elif not plugin.listing.complete and kind_within(plugin.folder, path):
                    continue  # past the listing's cap: looked up on disk, never opened
                else:
                    problem = "does not exist"
                line, column = manifest.position_of(key)
                if problem == "does not exist" and key == "skills" and not _holds_a_skill(plugin):
                    # A path a generator wrote into every manifest: nothing is dropped.
                    yield RULE.finding(
                        f"'{key}' path '{raw}' does not exist, and the plugin has no {key} "
                        "anywhere: nothing is lost, but the manifest names what is not there",
                        line,
                        column,
                        path=manifest.path,
                        fix=f"Remove '{key}' from {manifest.path}, or create '{raw}' with the "
                        f"plugin's {key} in it.",
                        severity=Severity.WARNING,
                    )
                    continue
                yield RULE.finding(
                    f"'{key}' path '{raw}' {problem}",
                    line,
                    column,
                    path=manifest.path,
                    fix=_fix(key, raw, problem),
                )


def _holds_a_skill(plugin: PluginDocument) -> bool:
    """Whether any folder of the plugin holds a SKILL.md: a skill is known by that file
    wherever it is (a command or an agent is a Markdown file like any other)."""
    return bool(plugin.skills) or any(
        f.rsplit("/", 1)[-1] == "SKILL.md" for f in plugin.listing.files
    )


def _fix(key: str, raw: str, problem: str) -> str:
    """A path that leaves the plugin is moved in; a missing one is corrected, or what it names
    made, or the key dropped (a Codex manifest's "skills" where the plugin has none)."""
    start = "Correct the path (relative to the plugin root, starting with './')"
    if problem != "does not exist":
        return f"{start}: copy what it names into the plugin folder."
    if raw.endswith("/") or not posixpath.splitext(raw.rstrip("/"))[1]:
        return f"{start}, create the folder with the plugin's {key} in it, or remove '{key}' if the plugin has none."
    return f"{start}, add the file, or remove it from '{key}'."


RULE = PluginRule(
    code="PE505",
    flag="PLUGIN_PATH_MISSING",
    name="plugin-path-missing",
    severity=Severity.ERROR,
    subscore="ecosystem_coherence",
    summary="Every path the manifest names (`commands`, `agents`, `skills`, `hooks`, "
    "`mcpServers`, …) exists inside the plugin folder, and is written from the plugin root "
    "with a leading `./` (a warning when it is not; a Codex manifest is not held to it). Paths "
    "are checked, never opened. A missing `skills` path is a warning when no folder of the "
    "plugin holds a SKILL.md (nothing is dropped).",
    why="A missing path silently drops the components it should load; a path outside the "
    "plugin is not there once the plugin is installed.",
    fix="Correct the path (relative to the plugin root, starting with './') or add the file.",
    bad=Example(
        good_plugin(
            **{
                ".claude-plugin__plugin.json": GOOD_MANIFEST.replace(
                    '"author"', '"commands": ["./commands/missing.md"],\n  "author"'
                )
            }
        ),
        "csv-tools",
        expect=(Expect("PE505", ".claude-plugin/plugin.json", 5, 3),),
    ),
    good=Example(
        good_plugin(
            **{
                ".claude-plugin__plugin.json": GOOD_MANIFEST.replace(
                    '"author"', '"commands": ["./commands/csv-clean.md"],\n  "author"'
                )
            }
        ),
        "csv-tools",
    ),
    source="Claude Code plugin reference",
    limits="Paths are checked for existence only; what the files hold (valid agents, commands, "
    "hook JSON) is not. URLs and paths with `${…}` variables are skipped.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
