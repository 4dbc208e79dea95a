"""Turn the paths a user gives into the skill folders to score."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from plugin_eval.document import SKILL_FILE
from plugin_eval.plugin import is_plugin
from plugin_eval.vocabulary import Kind


class TargetError(Exception):
    """A path that names no skill or plugin. ``missing`` when it cannot be read at all (a
    failure for that path); otherwise it is something else, skipped with a note."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


@dataclass(frozen=True, repr=False)
class Target:
    folder: Path
    display: str
    kind: Kind = Kind.SKILL
    # A marketplace.json entry (JSON text) that is, or stands in for, the plugin's manifest,
    # and where it is written (marketplace.json from the folder, line).
    entry: str | None = None
    entry_at: tuple[str, int] | None = None


def _display(path: Path) -> str:
    text = path.as_posix()
    return text[:-1] if text.endswith("/") and len(text) > 1 else text


def enclosing(folder: Path) -> Target | None:
    """The nearest skill or plugin that holds ``folder`` (a changed reference, script, agent
    or manifest belongs to it), looking no higher than the working folder when inside it."""
    here = Path.cwd().resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / SKILL_FILE).is_file():
            return Target(candidate, _display(candidate))
        if is_plugin(candidate):
            return Target(candidate, _display(candidate), Kind.PLUGIN)
        resolved = candidate.resolve()
        if resolved == here or resolved == resolved.parent:
            return None
    return None


def resolve(path: Path) -> tuple[list[Target], list[str]]:
    """The skill or plugin a path names, plus notes on what was skipped (and why)."""
    try:
        # A SKILL.md that is a symlink (dangling, or to a device) still names its skill,
        # which reports the symlink (PE005), as when its folder is given.
        exists = path.exists() or (path.name == SKILL_FILE and path.is_symlink())
    except OSError as err:  # a name too long, a folder that cannot be entered
        raise TargetError(f"{path}: cannot be read ({err.strerror or err})", missing=True) from err
    if not exists:
        raise TargetError(f"{path}: no such file or folder", missing=True)
    try:
        return _resolve(path)
    except OSError as err:  # a folder that cannot be entered, a file that cannot be looked at
        raise TargetError(f"{path}: cannot be read ({err.strerror or err})", missing=True) from err


def _resolve(path: Path) -> tuple[list[Target], list[str]]:
    if path.name == SKILL_FILE and (path.is_symlink() or not path.is_dir()):
        return [Target(path.parent, _display(path.parent))], []
    if path.is_file():
        owner = enclosing(path.parent)
        if owner is None:
            raise TargetError(f"{path}: not a SKILL.md file, or a file of a skill or plugin")
        return [owner], []
    if (path / SKILL_FILE).is_file():
        return [Target(path, _display(path))], []
    if is_plugin(path):
        return [Target(path, _display(path), Kind.PLUGIN)], []
    raise TargetError(
        f"{path}: not a skill folder (no {SKILL_FILE}) or a plugin folder "
        "(no .claude-plugin/plugin.json or .codex-plugin/plugin.json)"
    )
