"""Find every plugin and loose skill under a marketplace root, without leaving it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from plugin_eval.document import SKILL_FILE
from plugin_eval.plugin import MANIFESTS
from plugin_eval.vocabulary import Kind

MARKETPLACE = ".claude-plugin/marketplace.json"
MANIFEST_DIRS = frozenset(m.split("/")[0] for m in MANIFESTS)
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})


@dataclass(frozen=True)
class Item:
    """A plugin or a loose skill, named by its path relative to the root."""

    kind: Kind
    folder: Path
    rel: str
    # A marketplace.json entry (as JSON text) standing in for a missing plugin.json.
    entry: str | None = None
    # For a skill: every entry below it ("f:", "d:", "l:" + relative path), from the walk
    # that found it, so the cache key needs no second walk.
    names: tuple[str, ...] | None = None

    @property
    def slug(self) -> str:
        """A file name unique within one report: the relative path with '/' turned to '--'."""
        return self.rel.replace("/", "--") if self.rel not in ("", ".") else self.folder.name


@dataclass
class Discovery:
    items: list[Item]
    notes: list[str]


def discover(root: Path) -> Discovery:
    """Plugins (a plugin.json, or a local marketplace.json entry) and loose skills, sorted."""
    root = root.resolve()
    notes: list[str] = []
    items = {item.rel: item for item in _walk(root, notes)}
    for item in _marketplace_entries(root, notes):
        items.setdefault(item.rel, item)
    # A skill inside a plugin's skills/ is the plugin's, not loose.
    plugin_roots = {i.rel for i in items.values() if i.kind is Kind.PLUGIN}

    def in_plugin(rel: str) -> bool:
        parts = rel.split("/")
        return any("/".join(parts[:n]) in plugin_roots for n in range(len(parts) - 1, -1, -1))

    loose = {rel: i for rel, i in items.items() if i.kind is Kind.PLUGIN or not in_plugin(rel)}
    return Discovery(sorted(loose.values(), key=lambda i: i.rel), notes)


def _walk(root: Path, notes: list[str]) -> Iterator[Item]:
    """Depth-first over scandir entries (their cached types cost no extra system calls)."""
    tree: dict[str, list[tuple[str, str]]] = {}
    skills: list[tuple[Path, str]] = []
    stack = [(str(root), "")]
    while stack:
        path, rel = stack.pop()
        try:
            with os.scandir(path) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as err:
            notes.append(f"{rel or '.'}: cannot be listed ({err.strerror})")
            continue
        names = {e.name for e in entries}
        folder = Path(path)
        if any(m.split("/")[0] in names and (folder / m).is_file() for m in MANIFESTS):
            yield Item(Kind.PLUGIN, folder, rel)  # a plugin is one unit: its skills/ go with it
            continue
        if SKILL_FILE in names:
            skills.append((folder, rel))  # and keep walking: skills may nest skills
        listed: list[tuple[str, str]] = []
        children = []
        for entry in entries:
            shown = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_symlink():
                listed.append((entry.name, "l"))
                if os.path.isdir(entry.path):
                    target = os.path.realpath(entry.path)
                    where = "inside" if target.startswith(str(root) + os.sep) else "outside"
                    notes.append(f"{shown}: symlink ({where} the root) skipped, not followed")
            elif not entry.is_dir():
                listed.append((entry.name, "f"))
            elif entry.name.startswith("."):
                # Hidden folders (.git, caches) are not searched; the manifest folders of a
                # marketplace root are read where they are needed, so they need no note.
                if entry.name not in MANIFEST_DIRS:
                    notes.append(f"{shown}: hidden folder skipped")
            elif entry.name in SKIPPED_DIRS:
                notes.append(f"{shown}: {entry.name} skipped")
            else:
                listed.append((entry.name, "d"))
                children.append((entry.path, shown))
        tree[rel] = listed
        stack.extend(reversed(children))
    for folder, rel in skills:
        yield Item(Kind.SKILL, folder, rel, names=_subtree(tree, rel))


def _subtree(tree: dict[str, list[tuple[str, str]]], rel: str) -> tuple[str, ...]:
    out: list[str] = []
    stack = [(rel, "")]
    while stack:
        here, prefix = stack.pop()
        for name, kind in tree.get(here, ()):
            out.append(f"{kind}:{prefix}{name}")
            if kind == "d":
                stack.append((f"{here}/{name}" if here else name, f"{prefix}{name}/"))
    return tuple(sorted(out))


def _marketplace_entries(root: Path, notes: list[str]) -> Iterator[Item]:
    """Local plugins a marketplace.json lists that have no plugin.json of their own."""
    path = root / MARKETPLACE
    if not path.is_file():
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        notes.append(f"{MARKETPLACE}: unreadable ({err}); plugins found by walking the tree only")
        return
    plugins = data.get("plugins") if isinstance(data, dict) else None
    for entry in plugins if isinstance(plugins, list) else []:
        source = entry.get("source") if isinstance(entry, dict) else None
        name = entry.get("name", "?") if isinstance(entry, dict) else "?"
        if not isinstance(source, str):
            notes.append(f"{MARKETPLACE}: plugin '{name}' has a remote source; not fetched")
            continue
        folder = (root / source).resolve()
        if folder != root and root not in folder.parents:
            notes.append(f"{MARKETPLACE}: plugin '{name}' points outside the root; skipped")
            continue
        if folder.is_dir() and not any((folder / m).is_file() for m in MANIFESTS):
            rel = folder.relative_to(root).as_posix()
            yield Item(
                Kind.PLUGIN, folder, "" if rel == "." else rel, json.dumps(entry, sort_keys=True)
            )
