"""Parse a Claude Code / Codex plugin folder: manifests, agents, commands and its skills."""

from __future__ import annotations

import json
import posixpath
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from plugin_eval import budgets, json_input, regexes
from plugin_eval.document import (
    SKILL_FILE,
    FrontmatterFile,
    ParseProblem,
    Problem,
    misnamed_skill_file,
    read_frontmatter_file,
)
from plugin_eval.textsearch import newlines
from plugin_eval.walk import Listing, kind_within, list_folder, list_one, read_file

CLAUDE_MANIFEST = ".claude-plugin/plugin.json"
CODEX_MANIFEST = ".codex-plugin/plugin.json"
MANIFESTS = (CLAUDE_MANIFEST, CODEX_MANIFEST)
MARKETPLACE = ".claude-plugin/marketplace.json"
# Where Claude Code reads a plugin's hooks (a manifest's `hooks` may name other files).
HOOKS_FILE = "hooks/hooks.json"
TOO_LARGE = f"over {budgets.PART_BYTES // (1024 * 1024)} MiB ({budgets.PART_BYTES:,} bytes)"


@dataclass(frozen=True, repr=False)
class Manifest:
    """One plugin.json: its data when it parses, or why it does not."""

    path: str
    text: str
    data: Mapping[str, Any] | None
    error: str | None = None  # what is wrong, after "is": "not valid JSON: …"
    error_line: int | None = None
    error_column: int | None = None
    # When the file was not read at all there is no JSON to fix: what to do instead.
    fix: str | None = None
    # A marketplace entry standing in for plugin.json: where the entry starts in its file,
    # the line every finding on it points to.
    entry_line: int | None = None

    @property
    def shown(self) -> str:
        """How a message names it: its path, or the marketplace entry it is."""
        if self.entry_line is None:
            return self.path
        name = self.data.get("name") if self.data else None
        return (
            f"the marketplace entry '{name}'" if isinstance(name, str) else "the marketplace entry"
        )

    def line_of(self, key: str) -> int | None:
        """Line of a top-level key (JSON keeps no positions, so the text is searched)."""
        return self.position_of(key)[0]

    @cached_property
    def _keys(self) -> dict[str, tuple[int, int]]:
        """The line and column of each top-level key: the text is read once, however many
        findings ask."""
        ends = newlines(self.text)
        return {
            key: (line + 1, start - (ends[line - 1] if line else -1))
            for key, start in top_level_keys(self.text).items()
            for line in [bisect_left(ends, start)]
        }

    def position_of(self, key: str) -> tuple[int | None, int | None]:
        """Line and column (of its opening quote) of a top-level key; a marketplace entry's
        findings all point at the entry's line, with no column."""
        if self.entry_line is not None:
            return self.entry_line, None
        return self._keys.get(key, (None, None))


_TOKEN = regexes.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')
_COLON = regexes.compile(r"\s*:")


def top_level_keys(text: str) -> dict[str, int]:
    """Where each key of the outermost object of a JSON ``text`` is first written (not a key
    of an object inside it, as `userConfig`'s entries each have a "description")."""
    depth = 0
    found: dict[str, int] = {}
    for token in _TOKEN.finditer(text):
        lexeme = token.group()
        if lexeme in "{[":
            depth += 1
        elif lexeme in "}]":
            depth -= 1
        elif depth == 1 and _COLON.match(text, token.end()) is not None:
            try:
                key = json.loads(lexeme)
            except ValueError:  # an escape JSON does not have: no key it could mean
                continue
            found.setdefault(key, token.start())
    return found


@dataclass(frozen=True, repr=False)
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


@dataclass(frozen=True, repr=False)
class PluginDocument:
    folder: Path
    manifests: tuple[Manifest, ...]
    agents: tuple[Part, ...]
    commands: tuple[Part, ...]
    skills: tuple[Path, ...]
    listing: Listing
    # Part files not scored, with the reason: symlinks, FIFOs and devices, skills past the cap.
    passed_over: tuple[tuple[str, str], ...] = ()
    # Hook configuration files (hooks/hooks.json, and JSON files a manifest's `hooks` names),
    # read as a manifest is: their JSON, or why it cannot be read.
    hooks: tuple[Manifest, ...] = ()

    @property
    def name(self) -> str:
        for manifest in self.manifests:
            if manifest.data and isinstance(manifest.data.get("name"), str):
                return str(manifest.data["name"])
        return self.folder.name

    @property
    def empty(self) -> bool:
        """Nothing a harness loads from the plugin is scored: no skill, agent, command or
        hook file."""
        return not (self.skills or self.agents or self.commands or self.hooks)

    @property
    def claude(self) -> Manifest | None:
        return next((m for m in self.manifests if m.path == CLAUDE_MANIFEST), None)


def is_plugin(folder: Path) -> bool:
    """A manifest is there as a regular file, reached through no symlink."""
    return any(kind_within(folder, manifest) == "file" for manifest in MANIFESTS)


def parse_plugin(
    folder: Path,
    manifest_override: Mapping[str, Any] | None = None,
    entry_at: tuple[str, int] | None = None,
) -> PluginDocument:
    """Read a plugin folder; symlinks are never followed and bad files become problems."""
    listing = list_folder(folder)
    entry = manifest_override
    manifests = _manifests(folder, entry, entry_at)
    # Each part folder is listed on its own: a listing cut short at its cap hides no part.
    chosen = plugin_files(folder, entry, [m.data for m in manifests if m.data is not None])
    agents = tuple(_part(folder, "agent", rel) for rel in chosen.agents)
    commands = tuple(_part(folder, "command", rel) for rel in chosen.commands)
    skills = tuple(folder / rel.rsplit("/", 1)[0] for rel in chosen.skill_files)
    hooks = tuple(
        _read_json(folder, rel, HOOKS_TOO_LARGE, repeats=True)
        for rel in _hook_files(folder, manifests)
    )
    return PluginDocument(
        folder, tuple(manifests), agents, commands, skills, listing, chosen.passed_over, hooks
    )


def _manifests(
    folder: Path, entry: Mapping[str, Any] | None, entry_at: tuple[str, int] | None = None
) -> list[Manifest]:
    """The manifests a harness reads for the plugin: its plugin.json files, or the
    marketplace entry, which stands in for a missing plugin.json and, with "strict": false,
    is the manifest even where one exists (as Claude Code reads it)."""
    manifests = [
        read_manifest(folder, rel) for rel in MANIFESTS if kind_within(folder, rel) == "file"
    ]
    if entry is not None and (not manifests or entry.get("strict") is False):
        text = json.dumps(entry, indent=2)
        path, line = entry_at or (MARKETPLACE, 1)
        manifests = [Manifest(path, text, MappingProxyType(dict(entry)), entry_line=line)]
    return manifests


HOOKS_TOO_LARGE = "Keep the hook configuration to its events; move scripts into files it runs."


def _hook_files(folder: Path, manifests: list[Manifest]) -> list[str]:
    """hooks/hooks.json when it is there, and each JSON file inside the plugin that a
    manifest's `hooks` names (a missing one is PE505's), each once, in that order."""
    data = [m.data for m in manifests if m.data is not None]
    named = [
        HOOKS_FILE,
        *(p for p in component_paths(data, "hooks") if p.lower().endswith(".json")),
    ]
    found: list[str] = []
    for rel in named:
        if rel not in found and kind_within(folder, rel) in ("file", "link", "other"):
            found.append(rel)
    return found


def _misnamed(folder: Path, rel: str) -> str | None:
    """``rel``'s skill file as it is written when only its letter case differs
    (`skill.md`): the folder is no skill to a harness, which looks for SKILL.md."""
    parent = rel.rpartition("/")[0]
    if kind_within(folder, parent) != "dir":
        return None
    found = misnamed_skill_file(list_one(folder / parent).files)
    return f"{parent}/{found}" if found else None


@dataclass(frozen=True, repr=False)
class PluginFiles:
    """The files a plugin parse reads, by their path in the plugin folder, and the part files
    it passed over (each with the reason), so that nothing is left out unsaid."""

    manifests: tuple[str, ...]
    agents: tuple[str, ...]
    commands: tuple[str, ...]
    skill_files: tuple[str, ...]
    passed_over: tuple[tuple[str, str], ...] = ()

    @property
    def read(self) -> tuple[str, ...]:
        return (*self.manifests, *self.agents, *self.commands, *self.skill_files)


def plugin_files(
    folder: Path,
    entry: Mapping[str, Any] | None,
    manifests: list[Mapping[str, Any]] | None = None,
) -> PluginFiles:
    """Which files a plugin parse reads: its manifests, agents and commands (every .md file
    under agents/ and commands/, namespace folders included, and under the files and folders
    the manifests' `agents` and `commands` name, which add to the defaults), and the SKILL.md
    of each of its skills (those an entry's `skills` list names, else skills/*/SKILL.md and
    the skills of the folders the manifests' `skills` names), at most budgets.PLUGIN_SKILLS.

    Each part folder is listed on its own, so a large data folder elsewhere in the plugin
    (which stops the folder's listing at its cap) never hides a part. Regular files only:
    a symlink is not followed and a FIFO or device is never opened; both are passed over
    with the reason, as are skills past the cap."""
    passed: list[tuple[str, str]] = []
    data = manifests or []

    def markdown_under(name: str, depth: int = PART_DEPTH) -> list[str]:
        if kind_within(folder, name) == "link":  # a linked folder holds nothing of the plugin's
            passed.append((name, LINKED))
            return []
        here = list_one(folder / name)
        for why, names in ((LINKED, here.links), (NOT_REGULAR, here.others)):
            passed.extend((f"{name}/{n}", why) for n in names if n.lower().endswith(".md"))
        found = [f"{name}/{n}" for n in here.files if n.lower().endswith(".md")]
        if depth > 0:
            for sub in here.dirs:
                if not sub.startswith("."):
                    found += markdown_under(f"{name}/{sub}", depth - 1)
        return found

    def parts(kind: str) -> tuple[str, ...]:
        found = markdown_under(kind)
        for rel in component_paths(data, kind):
            what = kind_within(folder, rel)
            if what == "dir":
                found += markdown_under(rel)
            elif what == "file" and rel.lower().endswith(".md"):
                found.append(rel)
            elif what in ("link", "other"):
                passed.append((rel, LINKED if what == "link" else NOT_REGULAR))
            # Nothing there: PE505 says so.
        return tuple(dict.fromkeys(found))

    listed = listed_skills(entry)
    if listed is not None:
        candidates = [f"{rel}/{SKILL_FILE}" for rel in listed]
    else:
        candidates = []
        for root in dict.fromkeys(["skills", *component_paths(data, "skills")]):
            kind = kind_within(folder, root)  # no folder on the way may be a symlink
            if kind == "link":
                passed.append((root, LINKED))
                continue
            if kind != "dir":
                continue  # nothing there: PE505 says so
            if kind_within(folder, f"{root}/{SKILL_FILE}") == "file":
                candidates.append(f"{root}/{SKILL_FILE}")  # the path names one skill
                continue
            here = list_one(folder / root)
            passed.extend((f"{root}/{n}", LINKED) for n in here.links)
            candidates += [f"{root}/{n}/{SKILL_FILE}" for n in here.dirs]
    skills = []
    for rel in dict.fromkeys(candidates):
        kind = kind_within(folder, rel)
        if kind == "file":
            skills.append(rel)
        elif kind in ("link", "other"):
            passed.append((rel, LINKED if kind == "link" else NOT_REGULAR))
        elif kind is None and (misnamed := _misnamed(folder, rel)) is not None:
            passed.append((misnamed, MISNAMED))
        # Nothing there (or a folder): not a skill; a listed path is checked by PE505.
    cap = budgets.PLUGIN_SKILLS
    passed += [(rel, "past the cap of skills per plugin") for rel in skills[cap:]]
    agents, commands = parts("agents"), parts("commands")
    return PluginFiles(
        tuple(m for m in MANIFESTS if kind_within(folder, m) == "file"),
        agents,
        commands,
        tuple(skills[:cap]),
        tuple(dict.fromkeys(passed)),  # a folder both a default and named: said once
    )


# How many namespace folders deep a command or agent is looked for (commands/git/sync.md is
# one: Claude Code names it by its folder).
PART_DEPTH = 3


def inside_path(raw: object) -> str | None:
    """A manifest's path as a path inside the plugin (normalised: `./a/../b` is `b`), or None
    where it names none: not a string, absolute, holding a variable, leaving the plugin, or
    the plugin's folder itself (a missing or outside path is PE505's)."""
    if not isinstance(raw, str) or "${" in raw or raw.startswith(("/", "\\")):
        return None
    path = posixpath.normpath(raw.replace("\\", "/"))
    return None if path in (".", "..") or path.startswith("../") else path


def named_paths(value: object) -> list[str]:
    """A manifest key's value as the paths it names: a string, or the strings of a list."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def component_paths(manifests: list[Mapping[str, Any]], key: str) -> list[str]:
    """The paths inside the plugin that the manifests' ``key`` (a string or a list of them)
    names (``inside_path``), each once."""
    found = (inside_path(raw) for data in manifests for raw in named_paths(data.get(key)))
    return list(dict.fromkeys(path for path in found if path is not None))


def manifest_skill_roots(folder: Path, entry: Mapping[str, Any] | None = None) -> list[str]:
    """The skill folders the plugin's manifests (as ``parse_plugin`` reads them, the
    marketplace ``entry`` included) name in `skills`, besides skills/: read for discovery,
    which must know these skills are the plugin's, not loose."""
    data = [m.data for m in _manifests(folder, entry) if m.data is not None]
    return [p for p in component_paths(data, "skills") if p != "skills"]


LINKED = "a symlink, not followed"
NOT_REGULAR = "not a regular file, never opened"
MISNAMED = "named in other letter case than SKILL.md: harnesses do not load it"


def listed_skills(entry: Mapping[str, Any] | None) -> list[str] | None:
    """A marketplace entry's explicit `skills` list, as normalised paths inside its folder."""
    value = entry.get("skills") if entry is not None else None
    if not isinstance(value, list):
        return None
    return [path for raw in value if (path := inside_path(raw)) is not None]


def read_manifest(folder: Path, rel: str) -> Manifest:
    """The manifest at ``rel`` in a plugin folder, read bounded; why not, when it cannot be."""
    fix = "Keep plugin.json to the manifest's own fields; a harness reads nothing else there."
    return _read_json(folder, rel, fix)


def _read_json(folder: Path, rel: str, too_large: str, repeats: bool = False) -> Manifest:
    """A JSON object of a plugin (a manifest, a hook configuration) at ``rel``, read bounded;
    why not, when it cannot be (``too_large``: the fix for a file over PART_BYTES). With
    ``repeats`` its objects say which keys they write twice (json_input.Keyed)."""
    kind = kind_within(folder, rel)
    if kind == "link":  # it, or its folder, is a symlink: never followed
        fix = "Put the file itself in the plugin folder, not a symlink to it."
        return Manifest(rel, "", None, "reached through a symlink, not followed", 1, 1, fix)
    if kind == "other":
        fix = "Make it a regular file; a FIFO or device is never opened."
        return Manifest(rel, "", None, "not a regular file, never opened", 1, 1, fix)
    try:
        raw = read_file(folder / rel, budgets.PART_BYTES + 1)
    except OSError as err:
        fix = (
            f"Make the file readable by whoever installs the plugin (for example: chmod a+r {rel})."
        )
        return Manifest(rel, "", None, f"not readable: {err.strerror or err}", 1, 1, fix)
    if len(raw) > budgets.PART_BYTES:  # cut, it would only read as JSON that stops short
        return Manifest(rel, "", None, f"{TOO_LARGE}; it was not read", 1, 1, too_large)
    text = raw.decode("utf-8-sig", errors="replace")
    try:
        data = json_input.parse(text, repeats)
    except json_input.JsonInputError as err:
        return Manifest(rel, text, None, f"not valid JSON: {err.message}", err.line, err.column)
    if not isinstance(data, dict):
        return Manifest(rel, text, None, "not a JSON object", 1, 1)
    return Manifest(rel, text, MappingProxyType(data))


def _part(folder: Path, kind: str, rel: str) -> Part:
    problems: list[ParseProblem] = []
    try:
        raw = read_file(folder / rel, budgets.PART_BYTES + 1)
    except OSError as err:
        raw = b""
        problems.append(ParseProblem(Problem.NOT_TEXT, f"cannot be read: {err.strerror or err}"))
    if len(raw) > budgets.PART_BYTES:
        raw = raw[: budgets.PART_BYTES]
        problems.append(
            ParseProblem(
                Problem.TOO_LARGE,
                f"{rel.rsplit('/', 1)[-1]} is {TOO_LARGE}; only the start was read",
                1,
                1,
                fix="Keep the file to its frontmatter and instructions; move reference material "
                "into files it points to.",
            )
        )
    name = rel.rsplit("/", 1)[-1]
    return Part(kind, rel, name[:-3], read_frontmatter_file(raw, problems, name))
