"""Find every plugin and loose skill under a marketplace root, without leaving it."""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from plugin_eval import budgets, json_input
from plugin_eval.config_files import config_in, unread_config
from plugin_eval.document import SKILL_FILE, misnamed_skill_file
from plugin_eval.findings import bounded as cut_middle
from plugin_eval.plugin import MANIFESTS, MARKETPLACE, listed_skills, manifest_skill_roots
from plugin_eval.textsearch import LazyRegex
from plugin_eval.vocabulary import Kind
from plugin_eval.walk import TOOL_FOLDERS, Walk, kind_within, read_file

if TYPE_CHECKING:  # pathspec loads when a folder is searched, not when one skill is scored
    import pathspec

SHOWN = 40  # names of passed-over marketplace entries a note shows, each cut to NAME_CHARS
NAME_CHARS = 80
MANIFEST_DIRS = frozenset(m.split("/")[0] for m in MANIFESTS)
PART_FOLDERS = frozenset(("skills", "agents", "commands"))
# Never searched (gitignore-style patterns from the searched root; `exclude` replaces them):
# version control, dependencies, caches, virtual environments and plugin-eval's own cache.
# Hidden folders are searched: harnesses load skills from .claude/skills, .codex/skills,
# .agents/skills and .github/skills.
DEFAULT_EXCLUDE = tuple(f"{name}/" for name in TOOL_FOLDERS)
GITIGNORE = ".gitignore"


@dataclass(frozen=True, repr=False)
class Scope:
    """What a search leaves out: exclude patterns (gitignore syntax, from the searched root)
    and, unless switched off, whatever the tree's own .gitignore files ignore."""

    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    respect_gitignore: bool = True

    def spec(self) -> pathspec.GitIgnoreSpec:
        return patterns(self.exclude)


@dataclass(frozen=True, repr=False)
class Item:
    """A plugin or a loose skill, named by its path relative to the root."""

    kind: Kind
    folder: Path
    rel: str
    # A marketplace.json entry (as JSON text): the plugin's manifest where it has no plugin.json
    # or says "strict": false, and its skills where it lists them.
    entry: str | None = None
    # A marketplace entry that shares its folder with another: its name tells them apart.
    label: str | None = None
    # Another item's file name would be the same (`a/b` and `a--b`, `A` and `a` on a file
    # system that ignores case, two entries of one name): a digest keeps each its own.
    unique: bool = False
    # A marketplace entry: where it is written, as (marketplace.json from the plugin's
    # folder, line), so findings on it point at that file and line.
    entry_at: tuple[str, int] | None = None

    @property
    def id(self) -> str:
        """The item in a report (its row, its files, its cache entry): the folder's path, or
        `folder/@name` for a marketplace entry sharing its folder with others."""
        if self.label is None:
            return self.rel or "."  # the root itself: its path in every report is "."
        return f"{self.rel}/@{self.label}" if self.rel else f"@{self.label}"

    @property
    def slug(self) -> str:
        """A file name unique within one report: the id with '/' turned to '--', and a
        leading '.' (.claude/skills/…) spelt 'dot-' so no report file is hidden."""
        slug = self.id.replace("/", "--") if self.id not in ("", ".") else self.folder.name
        slug = "dot-" + slug[1:] if slug.startswith(".") else slug
        key = f"{self.id}\0{self.entry or ''}"
        if self.unique:
            slug = f"{slug}-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}"
        return bounded(slug, key)


# Bytes of a report file's name before its extension: far under the 255 of most file systems.
SLUG_BYTES = 160


# Characters no report file name carries: controls, bidi marks, separators, lone surrogates
# (undecodable bytes), and the characters Windows or a shell treat specially. Compiled on
# first use: only a marketplace report names files after items.
_UNSAFE = LazyRegex(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff<>:\"|?*\\\\`$ ;&()'![\\]#={}^~%]"
)


def bounded(slug: str, key: str) -> str:
    """The slug as a safe file name: unsafe characters become '_' and, when any did or the
    name is longer than SLUG_BYTES, a digest of ``key`` keeps it unique."""
    safe = _UNSAFE.rx.sub("_", slug)
    raw = os.fsencode(safe)
    if safe == slug and len(raw) <= SLUG_BYTES:
        return slug
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    head = raw[: SLUG_BYTES - len(digest) - 1].decode("utf-8", "ignore")
    return f"{head}-{digest}"


@dataclass
class Discovery:
    items: list[Item]
    notes: list[str]
    # Every folder or file passed over, with the reason (shown by --show-files).
    skipped: list[tuple[str, str]] = field(default_factory=list)


def discover(root: Path, scope: Scope | None = None) -> Discovery:
    """Plugins (a plugin.json, or a local marketplace.json entry) and loose skills, sorted."""
    root = root.resolve()
    notes: list[str] = []
    skipped: list[tuple[str, str]] = []
    walked = _walk(root, notes, skipped, scope or Scope())
    items = {item.rel: item for item in walked}
    entries = _once(list(_marketplace_entries(root, notes)), notes)
    sharing = Counter(e.rel for e in entries)
    for entry in entries:
        # The marketplace decides what an entry's folder is: it replaces the walked plugin.
        walked_item = items.get(entry.rel)
        if walked_item is not None and walked_item.kind is Kind.PLUGIN:
            del items[entry.rel]
    plugins = [i for i in items.values() if i.kind is Kind.PLUGIN]
    labels: Counter[tuple[str, str]] = Counter()
    for entry in entries:
        label = entry_name(entry) if sharing[entry.rel] > 1 else None
        if label is not None:
            # Two entries of one folder and one name (or none, which falls back to the
            # folder's): told apart by their place in the marketplace.
            labels[entry.rel, label] += 1
            label = (
                label if labels[entry.rel, label] == 1 else f"{label}~{labels[entry.rel, label]}"
            )
        plugins.append(replace(entry, label=label))
    # A skill a plugin scores is the plugin's, not loose: one in its skills/ folder, or, for an
    # entry with an explicit skills list, exactly those. Any other skill found inside a plugin
    # folder (the walk enters marketplace entries' folders) is loose and reported as such.
    # So is one in a folder its manifest's `skills` names.
    skill_roots: set[str] = set()
    listed: set[str] = set()
    for plugin in plugins:
        data = json.loads(plugin.entry) if plugin.entry else None
        chosen = listed_skills(data)
        if chosen is None:
            skill_roots |= {
                posixpath.normpath(posixpath.join(plugin.rel, r))
                for r in ["skills", *manifest_skill_roots(plugin.folder, data)]
            }
        else:
            listed |= {posixpath.normpath(posixpath.join(plugin.rel, s)) for s in chosen}

    def in_plugin(rel: str) -> bool:
        parent = rel.rpartition("/")[0]
        return rel in listed or parent in skill_roots or rel in skill_roots

    loose = [i for i in items.values() if i.kind is Kind.SKILL and not in_plugin(i.rel)]
    found = _distinct(sorted([*plugins, *loose], key=lambda i: (i.id, i.entry or "")))
    for item in found:
        inside = config_in(item.folder)
        if inside is not None:
            notes.append(unread_config(_shown(root, inside)))
    return Discovery(found, list(dict.fromkeys(notes)), sorted(skipped))


def _shown(root: Path, path: Path) -> str:
    """``path`` as notes name it: relative to the root, when it is inside it."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _once(entries: list[Item], notes: list[str]) -> list[Item]:
    """Each marketplace entry once: one written again, word for word, for the same folder is
    scored once, and one note names them all."""
    seen: set[tuple[str, str | None]] = set()
    kept: list[Item] = []
    twice: list[str] = []
    for entry in entries:
        if (entry.rel, entry.entry) in seen:
            twice.append(entry_name(entry))
            continue
        seen.add((entry.rel, entry.entry))
        kept.append(entry)
    if twice:
        notes.append(
            f"{MARKETPLACE}: {len(twice):,} plugin(s) listed again, word for word, and scored "
            f"once: {_names(twice)}"
        )
    return kept


def _distinct(items: list[Item]) -> list[Item]:
    """A file name of its own for each item, whatever the file system's letter case and
    Unicode normalisation (macOS takes 'café' composed and decomposed for one name)."""
    shared = Counter(_folded(item.slug) for item in items)
    return [
        replace(item, unique=True) if shared[_folded(item.slug)] > 1 else item for item in items
    ]


def _folded(slug: str) -> str:
    return unicodedata.normalize("NFC", slug).casefold()


def entry_name(item: Item) -> str:
    """The name a marketplace gives an entry."""
    data = json.loads(item.entry) if item.entry else {}
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else item.folder.name


# Each .gitignore read: the folder it is in, relative to the searched root ("" for the root
# and for the folders above it), the path from that folder down to the root (for a
# .gitignore above the root; "" for one inside), and its patterns.
Ignores = tuple[tuple[str, str, "pathspec.GitIgnoreSpec"], ...]


def _ignored(rel: str, is_dir: bool, ignores: Ignores) -> bool:
    """Git's answer: the deepest .gitignore with a matching pattern decides (``!`` re-includes)."""
    for base, above, spec in reversed(ignores):
        inside = rel[len(base) + 1 :] if base else rel
        if above:
            inside = f"{above}/{inside}"
        decided = spec.check_file(inside + "/" if is_dir else inside).include
        if decided is not None:
            return decided
    return False


def _above(root: Path, notes: list[str]) -> Ignores:
    """The .gitignore files of the folders above ``root`` up to the top of its git work tree
    (the nearest folder holding `.git`), as git applies them to what is below: a search of
    `skills/` leaves out what the repository's own .gitignore does. Outside a work tree,
    none (git reads none there)."""
    chain: list[Path] = []
    for folder in root.parents:
        chain.append(folder)
        if os.path.lexists(folder / ".git"):
            break
    else:
        return ()
    ignores: Ignores = ()
    for folder in reversed(chain):
        if os.path.isfile(folder / GITIGNORE):
            above = root.relative_to(folder).as_posix()
            ignores = _gitignore(folder, "", ignores, notes, above=above)
    return ignores


def _gitignore(
    folder: Path, rel: str, ignores: Ignores, notes: list[str], above: str = ""
) -> Ignores:
    """The search's patterns with this folder's .gitignore added: read as any file of the
    tree is (a regular file, bounded), and a line git would never match (one ending in a
    lone backslash) left out, as git leaves it; so is one too costly to match (too_wild).
    """
    shown = str(folder / GITIGNORE) if above else f"{rel + '/' if rel else ''}{GITIGNORE}"
    try:
        raw = read_file(folder / GITIGNORE, budgets.GITIGNORE_BYTES + 1)
    except OSError as err:
        notes.append(f"{shown}: unreadable ({err.strerror})")
        return ignores
    if len(raw) > budgets.GITIGNORE_BYTES:
        notes.append(
            f"{shown}: larger than {budgets.GITIGNORE_BYTES:,} bytes; the rest is not read"
        )
        raw = raw[: budgets.GITIGNORE_BYTES]
    # Lines as git splits them: at "\n" only, one "\r" before it dropped, a BOM skipped.
    lines = [line.removesuffix("\r") for line in raw.decode("utf-8-sig", "replace").split("\n")]
    kept: list[str] = []
    wild: list[tuple[int, str, str]] = []
    for number, line in enumerate(lines, 1):
        why = too_wild(line)
        if why is None:
            kept.append(line)
        else:
            wild.append((number, line, why))
    if wild:  # one note a file, however many of its lines are left out
        number, line, why = wild[0]
        more = f"; {len(wild) - 1:,} more line(s) left out the same way" if wild[1:] else ""
        notes.append(
            f"{shown}:{number}: pattern '{cut_middle(line, NAME_CHARS)}' not applied: {why}, "
            f"which could take minutes to match; what it would ignore is searched{more}"
        )
    return (*ignores, (rel, above, patterns(kept)))


def patterns(lines: list[str] | tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    """Gitignore-style patterns, leaving out the lines that are none (git ignores them)."""
    import pathspec

    lines = [collapsed(line) for line in lines]
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:  # GitIgnorePatternError: one bad line; keep every other
        return pathspec.GitIgnoreSpec.from_lines([line for line in lines if is_pattern(line)])


# One piece of a pattern's path component as pathspec and git read it: an escaped character,
# a bracket expression (a "]" first is one of its characters, a "\\" inside is itself), a
# run of wildcards, or any other character. Possessive, so an unclosed "[" is a character.
_GLOB_PIECE = LazyRegex(r"\\.|\[[!^]?+\]?+[^\]]*+\]|[*?]+|.", re.DOTALL)


def _body(line: str) -> tuple[str, str]:
    """A pattern line as ("!" or "", the pattern), trailing spaces cut as pathspec cuts
    them; ("", "") for a blank line or a comment."""
    body = line if line.endswith("\\ ") else line.rstrip()
    if not body or body.startswith("#"):
        return "", ""
    return ("!", body[1:]) if body.startswith("!") else ("", body)


def _is_run(piece: str) -> bool:
    """Whether a piece of a component is a run of wildcards holding a `*`."""
    return piece[0] in "*?" and "*" in piece


def collapsed(line: str) -> str:
    """The line with each run of `*` written as git's wildmatch reads it: alone in a path
    component it is `**` (`***` too), inside one it is one `*` after the run's `?`s (`a**b`
    is `a*b`, `*?*` is `?*`). pathspec makes a regular expression that backtracks over each
    `*` it is given: a run of ten took 37 s to check one folder."""
    bang, body = _body(line)
    if "*" not in body:
        return line

    def component(text: str) -> str:
        if len(text) > 1 and not text.strip("*"):
            return "**"
        pieces = _GLOB_PIECE.rx.findall(text)
        return "".join("?" * p.count("?") + "*" if _is_run(p) else p for p in pieces)

    return bang + "/".join(component(c) for c in body.split("/"))


def too_wild(line: str) -> str | None:
    """Why matching the line could take minutes, or None: more `**` with more of the pattern
    after them, or more `*` groups after the first of a name, than budgets allow."""
    components = [c for c in _body(collapsed(line))[1].split("/") if c]
    # `**/**` is one `**`; the last component's `**` is matched without a search.
    spanning = sum(
        c == "**" and i + 1 < len(components) and components[i + 1] != "**"
        for i, c in enumerate(components)
    )
    most = budgets.GITIGNORE_SPANNING_STARS
    if spanning > most:
        return f"too many `**` ({spanning} before its end, at most {most})"
    runs = [sum(map(_is_run, _GLOB_PIECE.rx.findall(c))) for c in components if c != "**"]
    extra = sum(max(n - 1, 0) for n in runs)
    most = budgets.GITIGNORE_EXTRA_STARS
    if extra > most:
        return f"too many `*` groups ({extra} beyond one a name, at most {most})"
    return None


def is_pattern(line: str) -> bool:
    """Whether a gitignore line is a pattern git can match (one ending in a lone backslash
    is not)."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error):  # "[z-a]": a character range that runs backwards
        return False
    return True


def _walk(
    root: Path, notes: list[str], skipped: list[tuple[str, str]], scope: Scope
) -> Iterator[Item]:
    """The one walk (walk.Walk), pruned by the search's excludes and .gitignore files."""
    excluded = scope.spec()
    ignores_of: dict[str, Ignores] = {}
    outer = _above(root, notes) if scope.respect_gitignore else ()

    def prune(rel: str, name: str) -> str | None:
        if excluded.match_file(rel + "/"):
            return "excluded"
        ignores = ignores_of.get(rel.rpartition("/")[0], ())
        if ignores and _ignored(rel, True, ignores):
            return "ignored by .gitignore"
        return None

    walk = Walk(root, prune)
    skills: list[tuple[Path, str]] = []
    for here in walk:
        folder = Path(here.path)
        names = set(here.files)
        manifests = [m for m in MANIFESTS if m.split("/")[0] in here.dirs]
        kinds = [kind_within(folder, m) for m in manifests]
        for manifest, kind in zip(manifests, kinds, strict=True):
            if kind in ("link", "other"):
                notes.append(
                    f"{here.child(manifest)}: a symlink or special file, not followed; the "
                    "folder is not read as a plugin by it"
                )
        if "file" in kinds:
            # A plugin is one unit with the skills it loads (skills/*); the walk goes on
            # inside it, so a skill kept elsewhere in its folder (a project's .claude/skills,
            # an examples folder) is found and scored as loose, never hidden by the plugin.
            yield Item(Kind.PLUGIN, folder, here.rel)
            # Its skills/, agents/ and commands/ are its own, read with it: not searched.
            here.dirs[:] = [d for d in here.dirs if d not in PART_FOLDERS]
        ignores = ignores_of.get(here.rel.rpartition("/")[0], ()) if here.rel else outer
        if scope.respect_gitignore and GITIGNORE in names:
            ignores = _gitignore(folder, here.rel, ignores, notes)
        ignores_of[here.rel] = ignores
        if SKILL_FILE in names or SKILL_FILE in here.links or SKILL_FILE in here.others:
            skills.append((folder, here.rel))  # and keep walking: skills may nest skills
        elif (misnamed := misnamed_skill_file(names)) is not None:
            notes.append(
                f"{here.child(misnamed)}: not scored; a skill's file is named {SKILL_FILE}, "
                "in capitals, or harnesses do not load it"
            )
        elif SKILL_FILE in here.dirs:
            notes.append(
                f"{here.child(SKILL_FILE)}: a folder, not a file; not scored (a skill's "
                f"{SKILL_FILE} is a Markdown file beside its folders)"
            )
        for name in here.links:
            if os.path.isdir(os.path.join(here.path, name)):
                target = os.path.realpath(os.path.join(here.path, name))
                where = "inside" if target.startswith(str(root) + os.sep) else "outside"
                notes.append(
                    f"{here.child(name)}: symlink ({where} the root) skipped, not followed"
                )
        # Manifest folders are read where they are needed, never searched for skills.
        here.dirs[:] = [d for d in here.dirs if d not in MANIFEST_DIRS]
    for rel, reason in walk.unreadable:
        notes.append(f"{rel}: cannot be listed ({reason})")
    skipped.extend(walk.skipped)
    for folder, rel in skills:
        yield Item(Kind.SKILL, folder, rel)


def _marketplace_entries(root: Path, notes: list[str]) -> Iterator[Item]:
    """Local plugins a marketplace.json lists that have no plugin.json of their own. The file
    is read as every part is (a regular file, reached through no symlink, bounded), and the
    entries that are not scored are said in one note per reason."""
    kind = kind_within(root, MARKETPLACE)
    if kind is None or kind == "dir":
        return
    try:
        if kind != "file":
            raise OSError(0, "a symlink or special file, not followed")
        raw = read_file(root / MARKETPLACE, budgets.MARKETPLACE_BYTES + 1)
        if len(raw) > budgets.MARKETPLACE_BYTES:
            raise OSError(0, f"larger than {budgets.MARKETPLACE_BYTES:,} bytes")
        text = raw.decode("utf-8-sig")
        data = json_input.parse(text)
    except json_input.JsonInputError as err:
        notes.append(
            f"{MARKETPLACE}:{err.line}:{err.column}: not valid JSON ({err.message}); plugins "
            "found by walking the tree only"
        )
        return
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else err
        notes.append(f"{MARKETPLACE}: not read ({reason}); plugins found by walking the tree only")
        return
    plugins = data.get("plugins") if isinstance(data, dict) else None
    entries = plugins if isinstance(plugins, list) else []
    if len(entries) > budgets.MARKETPLACE_ENTRIES:
        notes.append(
            f"{MARKETPLACE}: {len(entries):,} plugin entries; the first "
            f"{budgets.MARKETPLACE_ENTRIES:,} are read"
        )
    passed: dict[str, list[str]] = {}
    lines = _entry_lines(text)
    # `metadata.pluginRoot` is put before every relative source ("formatter" in "./plugins").
    metadata = data.get("metadata") if isinstance(data, dict) else None
    base = metadata.get("pluginRoot") if isinstance(metadata, dict) else None
    base = base if isinstance(base, str) and not base.startswith(("/", "\\")) else ""
    for index, entry in enumerate(entries[: budgets.MARKETPLACE_ENTRIES]):
        source = entry.get("source") if isinstance(entry, dict) else None
        name = str(entry.get("name", "?")) if isinstance(entry, dict) else "?"
        if isinstance(source, dict) and isinstance(source.get("source"), str):
            passed.setdefault("have a remote source; not fetched", []).append(name)
            continue
        if not isinstance(source, str):
            # Not an object, or a source that is neither a path nor a remote source object.
            passed.setdefault("have a source that is not a path; skipped", []).append(name)
            continue
        try:
            folder = (root / base / source).resolve()
            if base and not folder.is_dir():  # written from the root, as many do
                folder = (root / source).resolve()
        except (OSError, ValueError):  # a NUL in the path, a name too long, a loop
            passed.setdefault("have a source that is not a path; skipped", []).append(name)
            continue
        if folder != root and root not in folder.parents:
            passed.setdefault("point outside the root; skipped", []).append(name)
            continue
        if not folder.is_dir():
            passed.setdefault(
                "have a source that is not a folder under the root; nothing to score, and "
                "installing them would fail",
                [],
            ).append(f"{name} ({source})")
            continue
        # An entry is its own item where it has no plugin.json, is its own manifest
        # ("strict": false), or lists its skills; otherwise the walk finds the plugin.
        own = entry.get("strict") is False or listed_skills(entry) is not None
        if own or not any((folder / m).is_file() for m in MANIFESTS):
            rel = folder.relative_to(root).as_posix()
            at = Path(os.path.relpath(root / MARKETPLACE, folder)).as_posix()
            yield Item(
                Kind.PLUGIN,
                folder,
                "" if rel == "." else rel,
                json.dumps(entry, sort_keys=True),
                entry_at=(at, lines[index] if index < len(lines) else 1),
            )
    for why, names in passed.items():
        notes.append(f"{MARKETPLACE}: {len(names):,} plugin(s) {why}: {_names(names)}")


def _names(names: list[str]) -> str:
    """Names of passed-over entries as a note shows them: the first SHOWN, each cut short."""
    shown = ", ".join(f"'{cut_middle(n, NAME_CHARS)}'" for n in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN:,} more" if len(names) > SHOWN else "")


def _entry_lines(text: str) -> list[int]:
    """The line each element of the top-level "plugins" array starts on (JSON keeps no
    positions: the object is walked with the decoder's own raw_decode); [] when the text is
    not laid out as a marketplace."""
    decode = json.JSONDecoder().raw_decode
    n = len(text)

    def skip(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    lines: list[int] = []
    try:
        i = skip(0)
        if text[i] != "{":
            return []
        i = skip(i + 1)
        line, counted = 1, 0
        while text[i] != "}":
            key, i = decode(text, i)
            i = skip(skip(i) + 1)  # past the ':'
            if key == "plugins" and text[i] == "[":
                lines = []
                i = skip(i + 1)
                while text[i] != "]":
                    line += text.count("\n", counted, i)
                    counted = i
                    lines.append(line)
                    _, i = decode(text, i)
                    i = skip(i)
                    i = skip(i + 1) if text[i] == "," else i
                i += 1
            else:
                _, i = decode(text, i)
            i = skip(i)
            i = skip(i + 1) if text[i] == "," else i
    except (ValueError, IndexError):
        return lines
    return lines
