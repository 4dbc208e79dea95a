"""Shared pieces of the plugin rules: a valid example plugin and small helpers."""

from __future__ import annotations

from plugin_eval import regexes

GOOD_MANIFEST = (
    '{\n  "name": "csv-tools",\n  "version": "1.2.0",\n'
    '  "description": "Skills and agents for cleaning CSV exports.",\n'
    '  "author": {"name": "Data Team"}\n}\n'
)
GOOD_AGENT = (
    "---\nname: csv-analyst\ndescription: Answers questions about CSV exports. Use PROACTIVELY "
    "when a user shares a CSV file, asks for column statistics, or needs two exports merged.\n"
    "tools: Read, Grep, Bash\nmodel: inherit\n---\n\nYou analyse CSV files and report findings.\n"
)
GOOD_COMMAND = (
    "---\ndescription: Clean a CSV file in place\nargument-hint: <path>\n"
    "allowed-tools: Bash(python:*)\n---\n\nClean the CSV file at $ARGUMENTS.\n"
)
GOOD_SKILL = (
    "---\nname: csv-clean\ndescription: Cleans CSV files. Use when fixing headers, removing "
    "blank rows, or normalising dates in CSV exports.\n---\n\n# CSV clean\n\nSteps.\n"
)


def good_plugin(**replace: str) -> dict[str, str | bytes]:
    """The example plugin's files, with some replaced (keys with '/' as in the folder)."""
    files: dict[str, str | bytes] = {
        ".claude-plugin/plugin.json": GOOD_MANIFEST,
        "agents/csv-analyst.md": GOOD_AGENT,
        "commands/csv-clean.md": GOOD_COMMAND,
        "skills/csv-clean/SKILL.md": GOOD_SKILL,
    }
    files.update({k.replace("__", "/"): v for k, v in replace.items()})
    return files


KEBAB = regexes.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SEMVER = regexes.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$"
)
