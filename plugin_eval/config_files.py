"""Where configuration files are, and which folders they are never read from."""

from __future__ import annotations

from pathlib import Path

CONFIG_FILES = (".plugin-eval.toml", "pyproject.toml")


# What makes a folder one that is scored: a skill's file or a plugin's manifest.
ITEM_FILES = ("SKILL.md", ".claude-plugin/plugin.json", ".codex-plugin/plugin.json")


def is_item_folder(folder: Path) -> bool:
    """Whether ``folder`` is a skill or a plugin (which config files are never read from)."""
    return any(is_file(folder / name) for name in ITEM_FILES)


def _chain(folder: Path) -> tuple[list[Path], list[Path]]:
    """``folder`` and the folders above it, split at the highest that is a skill or a
    plugin: those at or inside one (a plugin's `skills/`, between a skill and its plugin, is
    inside the plugin too), and those above."""
    chain = [folder, *folder.parents]
    highest = max((i for i, f in enumerate(chain) if is_item_folder(f)), default=-1)
    return chain[: highest + 1], chain[highest + 1 :]


def above_items(folder: Path) -> list[Path]:
    """``folder`` and the folders above it, less any inside or at a skill or a plugin."""
    return _chain(folder)[1]


def unread_configs(folder: Path) -> list[Path]:
    """The config files at or above ``folder`` that ``above_items`` leaves out: inside a
    skill or a plugin, never read."""
    return [found for f in _chain(folder)[0] if (found := config_in(f)) is not None]


def config_in(folder: Path) -> Path | None:
    """The config file with plugin-eval settings directly in ``folder``, if any."""
    for name in CONFIG_FILES:
        candidate = folder / name
        if is_file(candidate) and (name != "pyproject.toml" or _has_section(candidate)):
            return candidate
    return None


def is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False where it cannot be looked at (a folder on the way
    that cannot be entered): the search goes on above it, as if nothing were there."""
    try:
        return path.is_file()
    except OSError:
        return False


def _has_section(pyproject: Path) -> bool:
    import tomllib  # imported on use: a run that finds no configuration file never loads it

    try:
        raw = pyproject.read_bytes()
    except OSError:
        return False
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        # Not UTF-8, as TOML must be: one that names the table is still the user's
        # configuration (its error is said when it is loaded), never passed over in silence.
        return b"tool.plugin-eval" in raw
    try:
        tool = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        # Broken TOML that names the table is the user's configuration, and its error is
        # said when it is loaded; a broken file that does not is someone else's.
        return "tool.plugin-eval" in text
    return isinstance(tool, dict) and "plugin-eval" in tool


def unread_config(path: Path | str) -> str:
    """The note for a config file inside a skill or plugin folder that is scored."""
    shown = path.as_posix() if isinstance(path, Path) else path
    return (
        f"{shown}: configuration inside a folder that is scored is never read (what is scored "
        "does not choose its rules); put it above the folder, or pass --config"
    )
