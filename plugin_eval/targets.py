"""Turn the paths a user gives into the skill folders to score."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from plugin_eval.document import SKILL_FILE
from plugin_eval.plugin import is_plugin
from plugin_eval.vocabulary import Kind


class TargetError(Exception):
    """A path that is neither a skill nor a plugin: a usage error (exit 2)."""


@dataclass(frozen=True)
class Target:
    folder: Path
    display: str
    kind: Kind = Kind.SKILL


def _display(path: Path) -> str:
    text = path.as_posix()
    return text[:-1] if text.endswith("/") and len(text) > 1 else text


def resolve(path: Path) -> tuple[list[Target], list[str]]:
    """The skill or plugin a path names, plus notes on what was skipped (and why)."""
    if not path.exists():
        raise TargetError(f"{path}: no such file or folder")
    if path.is_file():
        if path.name != SKILL_FILE:
            raise TargetError(f"{path}: not a SKILL.md file or a skill folder")
        return [Target(path.parent, _display(path.parent))], []
    if (path / SKILL_FILE).is_file():
        return [Target(path, _display(path))], []
    if is_plugin(path):
        return [Target(path, _display(path), Kind.PLUGIN)], []
    raise TargetError(
        f"{path}: not a skill folder (no {SKILL_FILE}) or a plugin folder "
        "(no .claude-plugin/plugin.json)"
    )
