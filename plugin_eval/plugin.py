"""Parse a Claude Code / Codex plugin folder: manifests, agents, commands and its skills."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from plugin_eval.document import (
    SKILL_FILE,
    FrontmatterFile,
    ParseProblem,
    Problem,
    read_frontmatter_file,
)
from plugin_eval.walk import Listing, list_folder, read_file

CLAUDE_MANIFEST = ".claude-plugin/plugin.json"
CODEX_MANIFEST = ".codex-plugin/plugin.json"
MANIFESTS = (CLAUDE_MANIFEST, CODEX_MANIFEST)
MAX_PART_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Manifest:
    """One plugin.json: its data when it parses, or why it does not."""

    path: str
    text: str
    data: Mapping[str, Any] | None
    error: str | None = None
    error_line: int | None = None
    error_column: int | None = None

    def line_of(self, key: str) -> int | None:
        """Line of a top-level key (JSON keeps no positions, so the text is searched)."""
        match = re.search(r'"' + re.escape(key) + r'"\s*:', self.text)
        return self.text.count("\n", 0, match.start()) + 1 if match else None


@dataclass(frozen=True)
class Part:
    """An agent or a command: a Markdown file with frontmatter."""

    kind: str
    path: str
    stem: str
    file: FrontmatterFile

    @property
    def meta(self) -> Mapping[str, Any]:
        return self.file.frontmatter

    @property
    def body(self) -> str:
        return "\n".join(self.file.lines[self.file.body_start - 1 :])

    def line_of(self, key: str) -> int:
        info = self.file.fields.get(key)
        return info.line if info else 1


@dataclass(frozen=True)
class PluginDocument:
    folder: Path
    manifests: tuple[Manifest, ...]
    agents: tuple[Part, ...]
    commands: tuple[Part, ...]
    skills: tuple[Path, ...]
    listing: Listing

    @property
    def name(self) -> str:
        for manifest in self.manifests:
            if manifest.data and isinstance(manifest.data.get("name"), str):
                return str(manifest.data["name"])
        return self.folder.name

    @property
    def claude(self) -> Manifest | None:
        return next((m for m in self.manifests if m.path == CLAUDE_MANIFEST), None)


def is_plugin(folder: Path) -> bool:
    return any((folder / manifest).is_file() for manifest in MANIFESTS)


def parse_plugin(
    folder: Path, manifest_override: Mapping[str, Any] | None = None
) -> PluginDocument:
    """Read a plugin folder; symlinks are never followed and bad files become problems."""
    listing = list_folder(folder)
    # Looked up directly, so a listing cut short at its cap cannot hide them (no symlinks).
    manifests = [
        _manifest(folder, rel)
        for rel in MANIFESTS
        if (folder / rel).is_file() and not (folder / rel).is_symlink()
    ]
    entry = manifest_override
    # A marketplace entry stands in for a missing plugin.json, and with "strict": false it is
    # the manifest even where one exists (as Claude Code reads it).
    if entry is not None and (not manifests or entry.get("strict") is False):
        text = json.dumps(entry, indent=2)
        manifests = [Manifest("marketplace.json entry", text, MappingProxyType(dict(entry)))]
    # An explicit `skills` list decides the plugin's skills (a listed path that is not a
    # skill of the folder is reported by PE505); see plugin_files.
    chosen = plugin_files(listing.files, entry)
    agents = tuple(_part(folder, "agent", rel) for rel in chosen.agents)
    commands = tuple(_part(folder, "command", rel) for rel in chosen.commands)
    skills = tuple(folder / rel.rsplit("/", 1)[0] for rel in chosen.skill_files)
    return PluginDocument(folder, tuple(manifests), agents, commands, skills, listing)


@dataclass(frozen=True)
class PluginFiles:
    """The files a plugin parse reads, by their path in the plugin folder."""

    manifests: tuple[str, ...]
    agents: tuple[str, ...]
    commands: tuple[str, ...]
    skill_files: tuple[str, ...]

    @property
    def read(self) -> tuple[str, ...]:
        return (*self.manifests, *self.agents, *self.commands, *self.skill_files)


def plugin_files(files: Collection[str], entry: Mapping[str, Any] | None) -> PluginFiles:
    """Which of ``files`` a plugin parse reads: its manifests, agents, commands, and the
    SKILL.md of each of its skills (those an entry's `skills` list names, else skills/*).

    The parser reads exactly these, and the result cache hashes exactly these, so what is
    scored and what the cache checks never drift apart."""
    present = set(files)

    def markdown_under(folder: str) -> tuple[str, ...]:
        return tuple(
            sorted(
                f
                for f in present
                if f.startswith(folder + "/") and f.count("/") == 1 and f.lower().endswith(".md")
            )
        )

    listed = listed_skills(entry)
    if listed is not None:
        skills = tuple(f"{rel}/{SKILL_FILE}" for rel in listed if f"{rel}/{SKILL_FILE}" in present)
    else:
        skills = tuple(
            sorted(
                f
                for f in present
                if f.startswith("skills/") and f.count("/") == 2 and f.endswith("/" + SKILL_FILE)
            )
        )
    manifests = tuple(m for m in MANIFESTS if m in present)
    return PluginFiles(manifests, markdown_under("agents"), markdown_under("commands"), skills)


def listed_skills(entry: Mapping[str, Any] | None) -> list[str] | None:
    """A marketplace entry's explicit `skills` list, as normalised paths inside its folder."""
    value = entry.get("skills") if entry is not None else None
    if not isinstance(value, list):
        return None
    out = []
    for raw in value:
        if isinstance(raw, str):
            path = posixpath.normpath(raw.replace("\\", "/"))
            if path != "." and not path.startswith("../") and not raw.startswith("/"):
                out.append(path)
    return out


def _manifest(folder: Path, rel: str) -> Manifest:
    try:
        raw = read_file(folder / rel, MAX_PART_BYTES)
    except OSError as err:
        return Manifest(rel, "", None, f"cannot be read: {err.strerror or err}", 1, 1)
    text = raw.decode("utf-8-sig", errors="replace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return Manifest(rel, text, None, f"not valid JSON: {err.msg}", err.lineno, err.colno)
    if not isinstance(data, dict):
        return Manifest(rel, text, None, "must be a JSON object", 1, 1)
    return Manifest(rel, text, MappingProxyType(data))


def _part(folder: Path, kind: str, rel: str) -> Part:
    problems: list[ParseProblem] = []
    try:
        raw = read_file(folder / rel, MAX_PART_BYTES)
    except OSError as err:
        raw = b""
        problems.append(ParseProblem(Problem.NOT_TEXT, f"cannot be read: {err.strerror or err}"))
    name = rel.rsplit("/", 1)[-1]
    return Part(kind, rel, name[:-3], read_frontmatter_file(raw, problems, name))
