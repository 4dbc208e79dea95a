"""PE803: a file a hook command runs from the plugin is one the plugin ships."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import PluginDocument
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule
from plugin_eval.rules.pe801_hooks_invalid import GOOD_HOOK_FILES, located_commands
from plugin_eval.rules.plugin_base import good_plugin
from plugin_eval.walk import TOOL_FOLDERS, kind_within

# A path under the plugin's root as a hook command writes it: `${CLAUDE_PLUGIN_ROOT}/x.sh`,
# `"${CLAUDE_PLUGIN_ROOT}"/x.sh` or `$CLAUDE_PLUGIN_ROOT/x.sh`. The path stops at white space,
# a quote, a shell operator or another variable.
PLUGIN_PATH = regexes.compile(
    r"\$(?:\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT(?![\w]))[\"']?/(?P<path>[\w@%+=:,./-]*)",
    re.ASCII,
)
# What may follow a path that is only the start of one (`…/run-$NAME.sh`, `…/lib/*.sh`):
# the file it names is not known, so it is not checked.
_COMPUTED = frozenset("$*?[{`")


def check(plugin: PluginDocument) -> Iterator[Finding]:
    shipped = _Shipped(plugin)
    for hooks in plugin.hooks:
        for command, line, column in located_commands(hooks):
            # How far into the command as the file writes it (escaped) each match starts,
            # counted on from the match before: one pass over the command.
            done = escaped = 0
            for match in PLUGIN_PATH.finditer(command):
                escaped += len(json.dumps(command[done : match.start()], ensure_ascii=False)) - 2
                done = match.start()
                end = match.end()
                if end < len(command) and command[end] in _COMPUTED:
                    continue
                raw = match["path"].rstrip(".,:")
                rel = posixpath.normpath(raw) if raw else "."
                where = None if column is None else column + escaped
                shown = f"${{CLAUDE_PLUGIN_ROOT}}/{raw}"
                if rel == ".." or rel.startswith("../"):
                    yield RULE.finding(
                        f"hook command runs '{shown}', which is outside the plugin folder: an "
                        "installed plugin is copied without it, so the hook fails each time",
                        line,
                        where,
                        fix="Ship the file inside the plugin and run it from there.",
                        path=hooks.path,
                    )
                    continue
                if shipped.has(rel):
                    continue
                named = shipped.meant(rel)
                yield RULE.finding(
                    f"hook command runs '{shown}', which the plugin does not ship, so the "
                    "hook fails each time it fires",
                    line,
                    where,
                    fix=f"Run '${{CLAUDE_PLUGIN_ROOT}}/{named}', the file the plugin has."
                    if named
                    else f"Add '{rel}' to the plugin, or correct the path in the command.",
                    path=hooks.path,
                )


class _Shipped:
    """What the plugin's listing holds, by path, lowered path and name."""

    def __init__(self, plugin: PluginDocument) -> None:
        listing = plugin.listing
        self.folder = plugin.folder
        self.complete = listing.complete
        self.links = frozenset(listing.symlinks)
        self.entries = frozenset((".", *listing.files, *listing.folders, *listing.others))
        self.lowered: dict[str, str] = {}
        self.named: dict[str, list[str]] = {}
        for f in listing.files:
            self.lowered.setdefault(f.lower(), f)
            self.named.setdefault(posixpath.basename(f), []).append(f)

    def has(self, rel: str) -> bool:
        """Whether ``rel`` is there: a file, a folder, or a symlink (never followed) on its
        way; looked up on disk only past a capped or partly unreadable listing."""
        if rel in self.entries or rel in self.links:
            return True
        parts = rel.split("/")
        if any("/".join(parts[:n]) in self.links for n in range(1, len(parts))):
            return True
        # A tool's folder (node_modules/, .venv/) is never listed: looked up on disk.
        skipped = any(part in TOOL_FOLDERS for part in parts[:-1])
        return (skipped or not self.complete) and kind_within(self.folder, rel) is not None

    def meant(self, rel: str) -> str | None:
        """The file ``rel`` names with other letter case, or else the only file of the same
        name elsewhere in the plugin (`scripts/guard.sh` for `hooks/guard.sh`)."""
        same_case = self.lowered.get(rel.lower())
        if same_case is not None:
            return same_case
        same_name = self.named.get(posixpath.basename(rel), [])
        return same_name[0] if len(same_name) == 1 else None


RULE = PluginRule(
    code="PE803",
    flag="HOOK_SCRIPT_MISSING",
    name="hook-script-missing",
    severity=Severity.ERROR,
    subscore="orchestration_wiring",
    summary="Every file a hook command runs from the plugin (`${CLAUDE_PLUGIN_ROOT}/…`) is in "
    "the plugin folder.",
    why="Claude Code runs the command as written each time the event fires; a script the "
    "plugin does not ship fails every time, and the check it was meant to make never happens.",
    fix="Ship the script at the path the command names, or correct the path.",
    bad=Example(
        good_plugin(**{"hooks__hooks.json": GOOD_HOOK_FILES["hooks__hooks.json"]}),
        "csv-tools",
        expect=(Expect("PE803", "hooks/hooks.json", 7, 43),),
    ),
    good=Example(good_plugin(**GOOD_HOOK_FILES), "csv-tools"),
    source="Claude Code hooks and plugins reference (${CLAUDE_PLUGIN_ROOT})",
    limits="Only paths written under ${CLAUDE_PLUGIN_ROOT} are checked; a path built from "
    "another variable or a glob (`…/run-$NAME.sh`, `…/*.sh`) is not, nor is a program found "
    "on the PATH. A symlink in the plugin counts as there (it is never followed), and a file "
    "in a folder the listing skips (`node_modules/`, `.venv/` …) is looked up on disk, for its "
    "existence only.",
    links=(sources.CLAUDE_HOOKS, sources.CLAUDE_PLUGINS),
    check=check,
)
