"""Parse a Claude Code / Codex plugin folder: manifests, agents, commands and its skills."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from plugin_eval.document import (
    SKILL_FILE,
    FrontmatterFile,
    Listing,
    ParseProblem,
    Problem,
    list_folder,
    read_frontmatter_file,
)

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
    # The listing skips hidden folders, so the manifests are looked up directly (no symlinks).
    manifests = [
        _manifest(folder, rel)
        for rel in MANIFESTS
        if (folder / rel).is_file() and not (folder / rel).is_symlink()
    ]
    if manifest_override is not None and not manifests:
        text = json.dumps(manifest_override, indent=2)
        manifests.append(
            Manifest("marketplace.json entry", text, MappingProxyType(dict(manifest_override)))
        )
    agents = tuple(_part(folder, "agent", rel) for rel in _markdown_under(listing, "agents"))
    commands = tuple(_part(folder, "command", rel) for rel in _markdown_under(listing, "commands"))
    skills = tuple(
        folder / rel.rsplit("/", 1)[0]
        for rel in listing.files
        if rel.startswith("skills/") and rel.count("/") == 2 and rel.endswith("/" + SKILL_FILE)
    )
    return PluginDocument(folder, tuple(manifests), agents, commands, skills, listing)


def _markdown_under(listing: Listing, folder: str) -> list[str]:
    return [f for f in listing.under(folder) if f.count("/") == 1 and f.lower().endswith(".md")]


def _manifest(folder: Path, rel: str) -> Manifest:
    raw = (folder / rel).read_bytes()[:MAX_PART_BYTES]
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
        raw = (folder / rel).read_bytes()[:MAX_PART_BYTES]
    except OSError as err:
        raw = b""
        problems.append(ParseProblem(Problem.NOT_TEXT, f"cannot be read: {err.strerror or err}"))
    name = rel.rsplit("/", 1)[-1]
    return Part(kind, rel, name[:-3], read_frontmatter_file(raw, problems, name))
