"""PE508: no part folder (commands/, agents/, skills/, hooks/) inside .claude-plugin/."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import MANIFESTS, PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.plugin_base import GOOD_COMMAND, good_plugin

# The folders a harness reads from the plugin's root, never from its manifest folder.
PART_FOLDERS = ("commands", "agents", "skills", "hooks")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    manifest_dirs = sorted({m.rsplit("/", 1)[0] for m in MANIFESTS})
    for manifest_dir in manifest_dirs:
        for part in PART_FOLDERS:
            inside = f"{manifest_dir}/{part}"
            held = plugin.listing.under(inside)
            if not held:
                continue
            moved = "" if plugin.listing.has_dir(part) else f" (there is no {part}/ there yet)"
            yield RULE.finding(
                f"'{inside}/' holds {len(held):,} file(s), but Claude Code reads {part}/ from "
                f"the plugin's root, never from {manifest_dir}/: none of them is loaded",
                None,
                None,
                fix=f"Move '{inside}/' to '{part}/' at the plugin's root{moved}; keep only "
                f"plugin.json in {manifest_dir}/.",
                path=f"{inside}/",
            )


RULE = PluginRule(
    code="PE508",
    flag="PART_IN_MANIFEST_FOLDER",
    name="part-in-manifest-folder",
    severity=Severity.ERROR,
    subscore="ecosystem_coherence",
    summary="No `commands/`, `agents/`, `skills/` or `hooks/` folder sits inside "
    "`.claude-plugin/` (or `.codex-plugin/`): parts live at the plugin's root.",
    why="Claude Code's plugins reference: only plugin.json goes in `.claude-plugin/`; every other "
    "folder must be at the plugin root. Parts placed beside the manifest are never loaded, and "
    "the plugin installs without them (its common issues list 'commands not appearing').",
    fix="Move the folder to the plugin's root.",
    bad=Example(
        good_plugin(**{".claude-plugin__commands__csv-sort.md": GOOD_COMMAND}),
        "csv-tools",
        expect=(Expect("PE508", ".claude-plugin/commands/", None, None),),
    ),
    good=Example(good_plugin(), "csv-tools"),
    source="Claude Code plugins reference (plugin directory structure)",
    limits="Only the four part folders are checked; other files beside plugin.json (a README, "
    "an icon) are left alone.",
    links=(sources.CLAUDE_PLUGINS,),
    check=check,
)
