"""Turn the paths a user gives into the skill folders to score."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from plugin_eval.document import SKILL_FILE

PLUGIN_MANIFESTS = (".claude-plugin/plugin.json", ".codex-plugin/plugin.json")


class TargetError(Exception):
    """A path that is neither a skill nor a plugin: a usage error (exit 2)."""


@dataclass(frozen=True)
class Target:
    folder: Path
    display: str
    plugin: str | None = None


def is_plugin(folder: Path) -> bool:
    return any((folder / manifest).is_file() for manifest in PLUGIN_MANIFESTS)


def _display(path: Path) -> str:
    text = path.as_posix()
    return text[:-1] if text.endswith("/") and len(text) > 1 else text


def resolve(path: Path) -> tuple[list[Target], list[str]]:
    """Skill folders for one path, plus notes on what was skipped (and why)."""
    if not path.exists():
        raise TargetError(f"{path}: no such file or folder")
    if path.is_file():
        if path.name != SKILL_FILE:
            raise TargetError(f"{path}: not a SKILL.md file or a skill folder")
        return [Target(path.parent, _display(path.parent))], []
    if (path / SKILL_FILE).is_file():
        return [Target(path, _display(path))], []
    if is_plugin(path):
        notes: list[str] = []
        targets: list[Target] = []
        skills = path / "skills"
        if skills.is_dir():
            for child in sorted(skills.iterdir()):
                if child.name.startswith("."):
                    continue
                if child.is_symlink():
                    notes.append(
                        f"{_display(child)}: symlinked skill folder skipped (not followed)"
                    )
                    continue
                if (child / SKILL_FILE).is_file():
                    targets.append(Target(child, _display(path / "skills" / child.name), path.name))
        if not targets:
            notes.append(f"{_display(path)}: plugin has no skills/*/SKILL.md to score")
        return targets, notes
    raise TargetError(
        f"{path}: not a skill folder (no {SKILL_FILE}) or a plugin folder "
        "(no .claude-plugin/plugin.json)"
    )
