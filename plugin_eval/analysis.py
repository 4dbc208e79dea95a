"""Facts derived once from a parsed document and shared by rules and sub-scores."""

from __future__ import annotations

import os
import posixpath
import re
import stat
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, partial
from itertools import accumulate
from pathlib import Path
from urllib.parse import unquote

from plugin_eval import budgets, regexes
from plugin_eval.document import (
    SKILL_FILE,
    Heading,
    SkillDocument,
    is_external,
    link_path,
    parse_markdown,
    resolve_link,
)
from plugin_eval.plugin import CLAUDE_MANIFEST, CODEX_MANIFEST, read_manifest
from plugin_eval.textsearch import Columns, at_word_starts, newlines, occurrences
from plugin_eval.triggering import TriggerAnalysis, analyse
from plugin_eval.walk import kind_within, read_file

# A `references/…` path written in prose (not in code, not a link target).
_PROSE_REF = regexes.compile(r"(?<![\w/.@:-])references/[\w][\w./-]*[\w]")
_URLISH = regexes.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\bwww\.\S+")
# Searched for with at_word_starts, which adds the leading \b and lets ``re`` skip to capitals.
DIRECTIVE = regexes.compile(r"(?:MUST|NEVER|ALWAYS)\b")

# A file name as written in text: a stem and an extension, with no path before it.
_FILE_NAME = regexes.compile(r"(?<![\w/.-])[\w.-]+\.[A-Za-z0-9]{1,8}(?![\w/])")
_SEARCHED_ONE_BY_ONE = 64
# Files that hold a skill's detail in words, and those of them that are Markdown.
TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".rst")
MARKDOWN_SUFFIXES = (".md", ".markdown")
_PACKAGE_FILES = frozenset({"README", "LICENSE", "LICENCE", "CHANGELOG", "NOTICE"})
# Ways a body tells the model to search a folder, and a folder path as written ("docs/api/").
_SEARCH = regexes.compile(
    r"\b(?:grep|rg|ripgrep|find|ls|glob|search(?:es|ing)?|look(?:s|ing)?\s+(?:it\s+)?up|"
    r"browse|index|see|refer\s+to|consult|explore)\b",
    re.IGNORECASE,
)
_FOLDER_PATH = regexes.compile(r"(?<![\w/.-])(?:\./)?[\w.-]+(?:/[\w.-]+)*(?=/|\b)")
# _SEARCH without its leading \b and its flag: lowercase words, for lowered text.
_SEARCH_WORDS = regexes.compile(_SEARCH.pattern.removeprefix(r"\b"))


def names_a_search(text: str) -> bool:
    """Whether ``_SEARCH`` finds something in ``text``.

    In ASCII text it is looked for lowered, by a pattern without IGNORECASE and without its
    leading ``\b`` (at_word_starts tests that): ``re`` then skips to the first letters of its
    words instead of folding the case of every character it tries. lower() keeps every
    offset of ASCII text, and no ASCII character folds to a letter but the letter's other
    case; other text is searched by ``_SEARCH`` itself (with it, "ſ" matches "s").
    """
    if text.isascii():
        return next(at_word_starts(_SEARCH_WORDS, text.lower()), None) is not None
    return _SEARCH.search(text) is not None


def written(name: str, text: str, folder: str | None = None) -> bool:
    """``name`` occurs in ``text`` as a whole file name or path (not inside a longer one):
    neither a word character, '/', '.' nor '-' before it, nor a word character or '/' after.
    (A word character is what the regex ``\\w`` matches: ``isalnum()`` or '_'.) Given the
    skill's ``folder`` name, a path that reaches the file through the skill's folder counts:
    ``./``, a variable (``${CLAUDE_SKILL_DIR}/``, ``{baseDir}/``, ``$SKILL_DIR/``) or the
    folder's own name (``~/.claude/skills/FOLDER/``)."""
    at = text.find(name)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(name) : at + len(name) + 1] or " "
        if not (after.isalnum() or after in "_/") and (
            not (before.isalnum() or before in "_/.-")
            or (folder is not None and before == "/" and _through(text, at, folder))
        ):
            return True
        at = text.find(name, at + 1)
    return False


# A variable standing for a folder, just before the '/' at the end of the text searched.
_ROOT_VARIABLE = regexes.compile(r"(?:\}|\$\w+)/\Z")


# How far back a variable before a path is looked for: past any variable's name.
_VARIABLE_CHARS = 64


def _through(text: str, at: int, folder: str) -> bool:
    """Whether the path before ``at`` (which follows a '/') is the skill's folder: `./`, a
    variable, or a path whose last folder is named ``folder``."""
    if at >= 2 and text[at - 2] == "." and (at == 2 or not _in_path(text[at - 3])):
        return True  # "./scripts/run.py"
    if _ROOT_VARIABLE.search(text, max(0, at - _VARIABLE_CHARS), at) is not None:
        return True
    start = at - 1 - len(folder)
    return (
        start >= 0
        and text.startswith(folder, start)
        and (start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_.-"))
    )


def _in_path(char: str) -> bool:
    """Whether ``char`` can be part of a path before a '/' (a word character, '.', '-', '/')."""
    return char.isalnum() or char in "_.-/"


def lines_naming(raw: bytes, keys: Collection[bytes]) -> list[bytes]:
    """The lines of ``raw`` (without their line feeds) that a match of the regex
    ``key|key|…`` (longest key first) starts in, in order, each once.

    A match holds no line feed when no key does: then a line holds a match start exactly
    when it holds a key (a match over a key's start starts on the key's line), and each key
    is looked for by bytes.find, once per line holding it: for a few keys, faster than the
    regex reads the text (each find reads it once). Many keys, a key with a line feed (a file
    name can hold one), or none at all are left to the regex, whose matches can then span
    lines or be empty.
    """
    if not keys or len(keys) > _SEARCHED_ONE_BY_ONE or any(b"\n" in key for key in keys):
        return _lines_matching(raw, keys)
    starts: set[int] = set()
    for key in keys:
        at = raw.find(key)
        while at >= 0:
            starts.add(raw.rfind(b"\n", 0, at) + 1)
            end = raw.find(b"\n", at)
            if end < 0:
                break
            at = raw.find(key, end + 1)
    lines = []
    for start in sorted(starts):
        end = raw.find(b"\n", start)
        lines.append(raw[start : end if end >= 0 else len(raw)])
    return lines


def _lines_matching(raw: bytes, keys: Collection[bytes]) -> list[bytes]:
    """``lines_naming`` by the regex: each line a match starts in, up to the line feed after
    the match (one pass in C, each line taken once)."""
    # Names read from the skill: never kept between runs (plugin_eval.regexes).
    names = re.compile(b"|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True)))  # noqa: TID251
    lines: list[bytes] = []
    end = 0
    for match in names.finditer(raw):
        if match.start() < end:
            continue
        start = raw.rfind(b"\n", 0, match.start()) + 1
        end = raw.find(b"\n", match.end())
        end = len(raw) if end < 0 else end
        lines.append(raw[start:end])
    return lines


_FILE_PATH = regexes.compile(r"(?<![\w/.-])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z0-9]{1,8}(?![\w/])")


# How many folders up a link may climb and still be looked up: from a plugin's skill
# (plugins/p/skills/x) to the marketplace around it. A sibling skill is one.
MAX_CLIMB = 4


def _away(folder: Path, norm: str) -> bool:
    """Whether a relative path out of the skill folder (normalised: its '..' lead) names a
    file of the machine rather than of a collection around the skill: it climbs more than
    MAX_CLIMB folders, to the file system's root or to the user's home or above, or into a
    hidden folder or file (`.ssh`, `.aws`, `.env`). Such a path is never looked up."""
    parts = norm.split("/")
    climbs = sum(1 for part in parts if part == "..")
    if climbs > MAX_CLIMB or any(part.startswith(".") and part != ".." for part in parts):
        return True
    reached = Path(os.path.abspath(folder)).parents
    base = reached[climbs - 1] if climbs <= len(reached) else Path("/")
    home = Path(os.path.expanduser("~")).absolute()
    return base == base.parent or base == home or base in home.parents


class RefStatus(Enum):
    OK = "ok"
    MISSING = "missing"
    OUTSIDE = "outside"
    OUTSIDE_MISSING = "outside-missing"
    # An absolute path, or one that climbs more than MAX_CLIMB folders: a file on the machine
    # that scores the skill, never looked up (its existence would tell a report's reader
    # what that machine holds).
    AWAY = "away"
    SYMLINK = "symlink"


@dataclass(frozen=True, repr=False)
class Reference:
    """A relative link, image or prose path, resolved against the skill folder."""

    target: str
    path: str
    line: int
    column: int
    kind: str
    status: RefStatus


def estimate_tokens(text: str) -> int:
    """Rough token count (about four characters a token), used for budgets only."""
    return (len(text) + 3) // 4


def _on_disk(folder: Path, rel: str) -> RefStatus:
    """Whether ``rel`` exists inside ``folder``, each step checked without following links."""
    here = str(folder)
    for part in rel.split("/"):
        here = os.path.join(here, part)
        try:
            mode = os.lstat(here).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return RefStatus.MISSING
        except OSError:
            # A folder on the way that cannot be entered: whether the file is there cannot be
            # told, and PE011 already says the folder could not be read. Not called missing.
            return RefStatus.OK
        if stat.S_ISLNK(mode):
            return RefStatus.SYMLINK
    return RefStatus.OK


def _outside(folder: Path, norm: str) -> RefStatus:
    """The status of ``norm``, a path out of the skill folder (normalised: its '..' lead),
    checked for existence only: from the folder it climbs to, each part is looked at without
    following a symlink, and a symlink on the way is reported, never looked through (what
    exists where it leads is not for a report to tell)."""
    parts = norm.split("/")
    climbs = parts.count("..")
    if climbs == len(parts):  # a folder the skill is in
        return RefStatus.OUTSIDE
    base = Path(os.path.normpath(os.path.join(folder, *parts[:climbs])))
    found = kind_within(base, "/".join(parts[climbs:]))
    if found == "link":
        return RefStatus.SYMLINK
    return RefStatus.OUTSIDE_MISSING if found is None else RefStatus.OUTSIDE


def _lexists_unlinked(folder: str, path: str) -> bool:
    """Whether ``path`` (relative, normalised) is in ``folder`` with no symlink on the way: the
    folder and every part of the path are looked at with lstat, so no link is followed."""
    for at in accumulate(path.split("/"), os.path.join, initial=folder):
        try:
            if stat.S_ISLNK(os.lstat(at).st_mode):
                return False
        except OSError:
            return False
    return True


# A sibling skill's folder name as a body writes it: no separator, no "." or ".." alone.
_FOLDER_NAME = regexes.compile(r"[\w][\w.-]{0,127}")
# A name a skill folder may have that no common word has: words joined by hyphens.
_HYPHENATED = regexes.compile(r"(?<![\w.-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])")


class Facts:
    """Lazily computed views of one document; each is computed at most once."""

    def __init__(self, doc: SkillDocument) -> None:
        self.doc = doc

    @cached_property
    def dependencies(self) -> Dependencies:
        return dependencies(self.doc)

    @cached_property
    def sibling_files(self) -> dict[str, bool]:
        """Files in named sibling skills whose existence a rule checked (never opened): the
        path, and whether it is there. The cache re-checks them (engine._outside_checks)."""
        return {}

    def named_skill_holding(self, path: str) -> str | None:
        """The folder name of the first skill the body names or mentions, beside this one, whose
        folder has ``path`` (relative and normalised, e.g. 'scripts/plot.py'): checked for
        existence only, never opened."""
        return next((name for name in self._named_beside if self.sibling_has(name, path)), None)

    @cached_property
    def _named_beside(self) -> tuple[str, ...]:
        """Where a script or file is looked for, each once: the folder names of the named skills
        that are beside this one, the first few; then the first few hyphenated names the prose
        mentions at all ("Generate each element using scientific-schematics"), which are looked
        for beside it only when a path is (a body naming thousands costs no more)."""
        first = dict.fromkeys(Path(n.path).parent.name for n in self.dependencies.named if n.exists)
        named = tuple(first)[: budgets.NAMED_SKILLS_SEARCHED]
        mentioned: dict[str, None] = {}
        for match in _HYPHENATED.finditer(self.prose_lower):
            if match.group() not in first:
                mentioned[match.group()] = None
                if len(mentioned) == budgets.MENTIONED_SKILLS_SEARCHED:
                    break
        return named + tuple(mentioned)

    def sibling_has(self, skill: str, path: str) -> bool:
        """Whether the folder ``skill`` beside this skill's has ``path`` (relative and
        normalised): checked for existence only, never opened, and remembered for the cache."""
        if (
            path.startswith(("/", "../"))
            or path == ".."
            or not _FOLDER_NAME.fullmatch(skill)
            or skill == self.doc.folder.name
        ):
            return False
        folder = os.path.join(self.doc.folder.parent, skill)
        target = os.path.join(folder, path)
        found = self.sibling_files.get(target)
        if found is None:
            if len(self.sibling_files) >= budgets.SIBLING_FILE_CHECKS:
                return False  # a body naming thousands of skills costs no more than this
            found = self.sibling_files[target] = _lexists_unlinked(folder, path)
        return found

    @cached_property
    def codex_plugin(self) -> tuple[str, bool] | None:
        """Where the Codex plugin manifest would be when the skill sits in a folder named
        skills/, and whether it is there (checked for existence only, never opened; the cache
        re-checks it: engine._outside_checks). None for a skill outside any skills/ folder."""
        return manifest_beside(self.doc.folder, CODEX_MANIFEST)

    @cached_property
    def exempt(self) -> str | None:
        meta = self.doc.frontmatter
        if meta.get("disable-model-invocation") is True:
            return "disable-model-invocation: true"
        if meta.get("paths"):
            return "paths:"
        return None

    @cached_property
    def when_to_use(self) -> str | None:
        value = self.doc.frontmatter.get("when_to_use")
        return value if isinstance(value, str) else None

    @cached_property
    def trigger(self) -> TriggerAnalysis:
        return analyse(
            self.doc.description,
            self.when_to_use,
            name=self.doc.name,
            exempt=self.exempt,
        )

    @cached_property
    def references(self) -> tuple[Reference, ...]:
        doc = self.doc
        refs: list[Reference] = []
        linked: set[tuple[int, str]] = set()
        columns = Columns(doc.line_text)
        for link in doc.links:
            ref = self._resolve(
                link.target, link.line, link.column, "image" if link.image else "link"
            )
            if ref is not None:
                refs.append(ref)
                linked.add((link.line, ref.path))
        for prose in doc.prose:
            if "references/" not in prose.text:
                continue
            text = _URLISH.sub(" ", prose.text)
            line, counted = prose.line, 0
            for match in _PROSE_REF.finditer(text):
                # Lines counted from the last match on: one pass over the text, not one each.
                line += text.count("\n", counted, match.start())
                counted = match.start()
                target = match.group(0).rstrip(".")
                if (line, target) in linked:
                    continue
                ref = self._resolve(target, line, columns.find(line, target), "prose")
                # Prose with no link is a path only if it names a file ("references/api.md") or
                # something that is there: "add a references/citations section" is words.
                if ref is None or (
                    ref.status is RefStatus.MISSING and "." not in posixpath.basename(ref.path)
                ):
                    continue
                refs.append(ref)
        return tuple(refs)

    def _resolve(self, target: str, line: int, column: int, kind: str) -> Reference | None:
        raw = target.strip()
        if not raw or raw.startswith("#") or is_external(raw):
            return None
        path = unquote(link_path(raw))
        if not path:
            return None
        listing = self.doc.listing
        if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
            return Reference(raw, path, line, column, kind, RefStatus.AWAY)
        norm = posixpath.normpath(path.replace("\\", "/"))
        if (norm == ".." or norm.startswith("../")) and _away(self.doc.folder, norm):
            return Reference(raw, norm, line, column, kind, RefStatus.AWAY)
        if norm == ".." or norm.startswith("../"):
            return Reference(raw, norm, line, column, kind, _outside(self.doc.folder, norm))
        if norm == ".":
            return Reference(raw, norm, line, column, kind, RefStatus.OK)
        if norm in listing.symlinks or any(norm.startswith(s + "/") for s in listing.symlinks):
            return Reference(raw, norm, line, column, kind, RefStatus.SYMLINK)
        exists = norm in listing.files or listing.has_dir(norm)
        if not exists and not listing.complete:
            # The listing stopped short: ask the file system, never through a symlink.
            return Reference(raw, norm, line, column, kind, _on_disk(self.doc.folder, norm))
        return Reference(
            raw, norm, line, column, kind, RefStatus.OK if exists else RefStatus.MISSING
        )

    @cached_property
    def linked_files(self) -> frozenset[str]:
        return frozenset(r.path for r in self.references if r.status is RefStatus.OK)

    @cached_property
    def mentioned_files(self) -> frozenset[str]:
        """Files of the folder that SKILL.md links, or names in code (`references/x.md`)."""
        code = "\n".join(c.text for c in self.doc.inline_code)
        code += "\n".join(b.content for b in self.doc.code_blocks)
        # As a whole path, not inside a longer one: `docs/README.md` (the user's) does not
        # name the skill's README.md; `${CLAUDE_SKILL_DIR}/scripts/x.py` names scripts/x.py, and
        # so does `~/.claude/skills/FOLDER/scripts/x.py`.
        named = {
            f
            for f in self.doc.listing.files
            if f in code and written(f, code, self.doc.folder.name)
        }
        # A file name that names exactly one file of the folder points at it, wherever it is
        # written ("`api_reference.md` — the full API" under a References heading); so does a
        # path written out in prose ("see references/api.md"). Only files not linked already
        # are looked for: few, so each is one search in C, not a pass of a regex per skill.
        # Names are compared without letter case: "see FORMS.md" names forms.md (on a
        # case-sensitive file system the model then misses it; PE201 reports such links).
        files = self.doc.listing.files
        candidates = [
            f for f in files if f not in named and f not in self.linked_files and f != SKILL_FILE
        ]
        text = self.doc.text.casefold() if candidates else ""
        by_name = self.files_by_name
        if len(candidates) > _SEARCHED_ONE_BY_ONE:
            found_names = set(_FILE_NAME.findall(text)) | set(_FILE_PATH.findall(text))
            is_written: Callable[[str], bool] = found_names.__contains__
        else:
            is_written = partial(written, text=text)
        for f in candidates:
            name = f.rsplit("/", 1)[-1].casefold()
            if (len(by_name[name]) == 1 and is_written(name)) or (
                "/" in f and is_written(f.casefold())
            ):
                named.add(f)
        found = set(self.linked_files) | named
        # A link to a folder covers the files in it.
        for path in self.linked_files:
            found.update(self.doc.listing.under(path))
        return frozenset(found)

    @cached_property
    def detail_files(self) -> tuple[str, ...]:
        """Text files that can hold a skill's detail, wherever they are (references/,
        reference/, docs/, forms.md beside SKILL.md): Markdown, text and reStructuredText,
        less SKILL.md and a package's README, LICENSE and CHANGELOG."""
        return tuple(
            f
            for f in self.doc.listing.files
            if f.lower().endswith(TEXT_SUFFIXES)
            and f != SKILL_FILE
            and posixpath.basename(f).split(".")[0].upper() not in _PACKAGE_FILES
        )

    @cached_property
    def linked_detail(self) -> tuple[str, ...]:
        """The detail files SKILL.md links or names."""
        return tuple(f for f in self.detail_files if f in self.mentioned_files)

    @cached_property
    def searched_folders(self) -> frozenset[str]:
        """Folders of the skill the body tells the model to search ("grep references/ for the
        term", "`rg -l TERM docs/`", "see the `scripts/` folder"): a folder's path written in
        a code block, code span or paragraph that also names a way to search or look there."""
        folders = set(self.doc.listing.folders)
        if not folders:
            return frozenset()
        # A code span is read with the paragraph that holds it ("see `scripts/` for the
        # templates"): the paragraph's text has a space where the span was.
        spans = [c for c in self.doc.inline_code if "/" in c.text]
        looking = [p for p in self.doc.prose if ("/" in p.text or spans) and names_a_search(p.text)]
        lines = {n for p in looking for n in range(p.line, p.line + p.text.count("\n") + 1)}
        texts = [
            *(c.text for c in spans if c.line in lines or names_a_search(c.text)),
            *(
                b.content
                for b in self.doc.code_blocks
                if "/" in b.content and names_a_search(b.content)
            ),
            *(p.text for p in looking if "/" in p.text),
        ]
        found: set[str] = set()
        for text in texts:
            for match in _FOLDER_PATH.finditer(text):
                path = posixpath.normpath(match.group(0).removeprefix("./"))
                if path in folders:
                    found.add(path)
        return frozenset(found)

    @cached_property
    def files_by_name(self) -> dict[str, list[str]]:
        """The skill's files by file name, case folded: where a path that is not there names a
        file that is, in another folder ("reference/api.md" for "references/api.md")."""
        out: dict[str, list[str]] = {}
        for f in self.doc.listing.files:
            out.setdefault(posixpath.basename(f).casefold(), []).append(f)
        return out

    @cached_property
    def linked_texts(self) -> dict[str, bytes]:
        """The Markdown files SKILL.md links or names (the first few, each up to a cap), as
        read: what they point at is reached through them. Parsed only where needed."""
        out: dict[str, bytes] = {}
        wanted = sorted(f for f in self.mentioned_files if f.lower().endswith(MARKDOWN_SUFFIXES))
        for rel in wanted[: budgets.LINKED_FILES_READ]:
            try:
                out[rel] = read_file(self.doc.folder / rel, budgets.LINKED_FILE_BYTES)
            except OSError:
                continue
        return out

    def pointed_from(self, rel: str, wanted: Collection[str]) -> set[str]:
        """Of ``wanted`` (files of the skill), those the linked Markdown file ``rel`` links or
        names (by a path relative to it or to the skill folder)."""
        raw = self.linked_texts.get(rel)
        wanted = [f for f in wanted if f != rel]
        if raw is None or not wanted:
            return set()
        # A name that is not UTF-8 holds surrogate escapes: its own bytes, as the file has them.
        keys = {posixpath.basename(f).encode("utf-8", "surrogateescape") for f in wanted}
        keys |= {
            posixpath.basename(posixpath.dirname(f)).encode("utf-8", "surrogateescape")
            for f in wanted
            if "/" in f
        }
        # Only the lines that hold one of the names can point at these files: those lines are
        # parsed (each its own paragraph), not a whole reference file of thousands of lines.
        keys.discard(b"")
        lines = lines_naming(raw, keys)
        if not lines:
            return set()
        parsed = parse_markdown(b"\n\n".join(lines), posixpath.basename(rel))
        listing = self.doc.listing
        base = posixpath.dirname(rel)
        targets: set[str] = set()
        for link in parsed.links:
            target = resolve_link(link.target, base)
            if target is not None:
                targets.add(target)
        found = {f for f in wanted if f in targets}
        for folder in targets:
            if listing.has_dir(folder):
                found.update(f for f in wanted if f.startswith(folder + "/"))
        text = parsed.text
        rest = [f for f in wanted if f not in found]
        if len(rest) > _SEARCHED_ONE_BY_ONE:  # one regex pass, then set lookups
            found_names = set(_FILE_NAME.findall(text)) | set(_FILE_PATH.findall(text))
            is_written: Callable[[str], bool] = found_names.__contains__
        else:
            is_written = partial(written, text=text)
        for f in rest:
            inside = f[len(base) + 1 :] if base and f.startswith(base + "/") else None
            if is_written(f) or (inside is not None and is_written(inside)):
                found.add(f)
        return found

    def reached(self, wanted: Collection[str]) -> set[str]:
        """Of ``wanted``, the files the model can find from SKILL.md: those it links or names,
        those inside a folder it is told to search, and those a linked Markdown file (an
        index) points at."""
        reached = {f for f in wanted if f in self.mentioned_files}
        for folder in self.searched_folders:
            reached.update(f for f in wanted if f.startswith(folder + "/"))
        rest = [f for f in wanted if f not in reached]
        for rel in self.linked_texts:
            if not rest:
                break
            found = self.pointed_from(rel, rest)
            reached |= found
            rest = [f for f in rest if f not in found]
        return reached

    @cached_property
    def _joined(self) -> tuple[str, list[int]]:
        texts = [p.text for p in self.doc.prose]
        starts = [0, *accumulate(len(text) + 2 for text in texts)]
        starts.pop()  # the offset past the last block
        return "\n\n".join(texts), starts

    @property
    def prose_text(self) -> str:
        """All prose as one string, blocks separated by blank lines: one regex pass, not many."""
        return self._joined[0]

    @cached_property
    def _headings_joined(self) -> tuple[str, list[int]]:
        starts, offset = [], 0
        for h in self.doc.headings:
            starts.append(offset)
            offset += len(h.text) + 1
        return "\n".join(h.text for h in self.doc.headings), starts

    def headings_matching(self, regex: re.Pattern[str]) -> list[Heading]:
        """Headings whose text the regex finds something in (one search for all of them)."""
        text, starts = self._headings_joined
        hits = {bisect_right(starts, m.start()) - 1 for m in regex.finditer(text)}
        return [self.doc.headings[i] for i in sorted(hits)]

    @cached_property
    def prose_lower(self) -> str:
        return self.prose_text.lower()

    @cached_property
    def _prose_newlines(self) -> list[int]:
        return newlines(self.prose_text)

    def prose_line(self, offset: int) -> int:
        """The file line of an offset into ``prose_text``."""
        starts = self._joined[1]
        i = bisect_right(starts, offset) - 1
        breaks = self._prose_newlines
        # The block's own line ends before the offset, by bisection: no rescan of the block.
        return self.doc.prose[i].line + bisect_left(breaks, offset) - bisect_left(breaks, starts[i])

    @cached_property
    def directives(self) -> tuple[tuple[int, str], ...]:
        """Each MUST / NEVER / ALWAYS written in prose, with its line."""
        text = self.prose_text
        if "MUST" not in text and "NEVER" not in text and "ALWAYS" not in text:
            return ()
        return tuple(
            (self.prose_line(m.start()), m.group(0)) for m in at_word_starts(DIRECTIVE, text)
        )

    @cached_property
    def prose_lines(self) -> int:
        return sum(p.text.count("\n") + 1 for p in self.doc.prose if p.text.strip())

    @cached_property
    def body_tokens(self) -> int:
        return estimate_tokens(self.doc.body_text)

    @cached_property
    def skill_bytes(self) -> int:
        return len(self.doc.raw)


# A skill named as a dependency or hand-off: a verb of use, then the name (in code, in bold,
# hyphenated, or namespaced `plugin:skill`), then the word "skill" unless it is namespaced.
_SKILL_NAME = (
    r"(?:`(?P<code>[a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)?)`"
    r"|\*\*(?P<bold>[a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)?)\*\*"
    r"|(?P<plain>[a-z0-9][a-z0-9-]*:[a-z0-9][a-z0-9-]*|[a-z0-9]+(?:-[a-z0-9]+)+))"
)
DEPENDENCY = regexes.compile(
    r"(?i:\b(?:depends?\s+on|relies\s+on|requires?|needs?|use[sd]?|using|invoke[sd]?|load|"
    r"call|run|apply|follow|(?:hand|hands|handing)\s+(?:it\s+|this\s+|them\s+)?off\s+to|"
    r"defer\s+to|delegate\s+to|switch\s+to|continue\s+with)\s+(?:the\s+)?)"
    + _SKILL_NAME
    + r"(?P<skill>\s+(?i:skill)\b)?"
)


# Where a DEPENDENCY match can start in lowercased text: the start of one of its verbs.
_VERBS = (
    *("depend", "relies", "require", "need", "us", "invoke", "load", "call", "run", "apply"),
    *("follow", "hand", "defer", "delegate", "switch", "continue"),
)


# The only characters whose lowercase is not one character, or that ``(?i)`` matches with an
# ASCII letter though ``lower()`` does not make them one: 'İ', 'ı', 'ſ' and the Kelvin sign.
CASE_TRAPS = "\u0130\u0131\u017f\u212a"


def _dependency_lines(texts: Sequence[str]) -> Iterator[tuple[int, re.Match[str]]]:
    """Each ``DEPENDENCY.finditer(texts[i])`` match with its ``i``, line by line, the regex
    tried only where one of its verbs starts.

    Every match starts with one of its verbs at a word start: the places each is spelt are
    all the places a match can start. The verbs are looked for in the lines lowercased and
    joined by line feeds (no verb holds one, so each is found inside its line). Without
    CASE_TRAPS in them, lowercasing keeps every offset and ``(?i)`` matches a verb exactly
    where ``lower()`` spells it; with one, the regex reads each line."""
    joined = "\n".join(texts)
    if any(trap in joined for trap in CASE_TRAPS):
        for i, text in enumerate(texts):
            for each in DEPENDENCY.finditer(text):
                yield i, each
        return
    # Every place a verb is spelt, each found by str.find: faster than a regex whose first
    # letters are some of the commonest (a place more than the regex's is only tried more).
    places = occurrences(joined.lower(), _VERBS)
    starts = [0, *accumulate(len(text) + 1 for text in texts)]
    end = 0
    for at in places:
        # Inside the last match, or after a word character (a line feed is none): no match
        # starts there, as DEPENDENCY begins with \b.
        if at < end or (at and (joined[at - 1].isalnum() or joined[at - 1] == "_")):
            continue
        i = bisect_right(starts, at) - 1
        column = at - starts[i]
        match = DEPENDENCY.match(texts[i], column)
        if match is not None:
            # A match ends inside its line: the next line's verbs are all tried.
            end = starts[i] + (match.end() if match.end() > column else column + 1)
            yield i, match


@dataclass(frozen=True, repr=False)
class NamedSkill:
    """A skill the body names as a dependency or hand-off, and whether it is beside this one."""

    name: str  # as written (`plugin:skill` kept)
    line: int
    column: int
    path: str  # where its SKILL.md would be: the sibling folder of that name
    exists: bool


@dataclass(frozen=True, repr=False)
class Dependencies:
    named: tuple[NamedSkill, ...]
    # Where the plugin manifest would be when the skill sits in a folder named skills/, and
    # whether it is there: such a skill is in a plugin, whose skills/ ships its dependencies.
    manifest: tuple[str, bool] | None
    plugin: str | None  # the plugin's folder name, when it is one

    @property
    def in_collection(self) -> bool:
        """Whether the named skills are expected beside this one: it is in a plugin, or one
        of them is there (so the author ships what it names with it)."""
        return self.plugin is not None or any(n.exists for n in self.named)


def manifest_beside(skill: Path, manifest: str) -> tuple[str, bool] | None:
    """Where the plugin manifest ``manifest`` would be for a skill that sits in a folder named
    skills/ (the plugin's), and whether it is there: checked for existence only, never opened.
    None for a skill outside any skills/ folder."""
    skills = skill.parent
    if skills.name != "skills":
        return None
    path = skills.parent / manifest
    return str(path), path.is_file()


def _plugin_name(plugin: Path) -> str:
    """The plugin's name (what namespaces its skills): its manifest's, else its folder's."""
    data = read_manifest(plugin, CLAUDE_MANIFEST).data or {}
    name = data.get("name")
    return name if isinstance(name, str) and name else plugin.name


def naming_lines(doc: SkillDocument) -> list[int]:
    """The numbers of the body's lines outside code blocks that can name a skill as a
    dependency: those with a namespace colon or the word "skill" (a name without either is
    not kept). Taken between the code blocks, run by run: no set of code lines to look each
    line up in."""
    lines = doc.lines
    numbers: list[int] = []
    start = doc.body_start
    for first, last in sorted((b.line, b.end_line) for b in doc.code_blocks):
        numbers += _naming(lines, start, first)
        start = max(start, last + 1)
    numbers += _naming(lines, start, len(lines) + 1)
    return numbers


def _naming(lines: tuple[str, ...], start: int, stop: int) -> list[int]:
    return [
        number
        for number, line in enumerate(lines[start - 1 : stop - 1], start)
        if ":" in line or "skill" in line.lower()
    ]


def dependencies(doc: SkillDocument) -> Dependencies:
    """The skills the body names as dependencies or hand-offs, outside code blocks."""
    found: list[tuple[str, int, int, bool]] = []
    lines = doc.lines
    numbers = naming_lines(doc)
    for i, m in _dependency_lines([lines[number - 1] for number in numbers]):
        # The name's column as written: its backtick or its asterisks included.
        group, marks = next(
            (g, n) for g, n in (("code", 1), ("bold", 2), ("plain", 0)) if m.group(g)
        )
        column = m.start(group) - marks + 1
        found.append((m.group(group), numbers[i], column, bool(m.group("skill"))))
    if not found:
        return Dependencies((), None, None)
    skills = doc.folder.parent
    checked = manifest_beside(doc.folder, CLAUDE_MANIFEST)
    plugin = _plugin_name(skills.parent) if checked is not None and checked[1] else None
    named = []
    for name, line, column, said_skill in found:
        space, _, short = name.rpartition(":")
        if space and not said_skill and space != plugin:
            continue  # `alpine:latest`, `file:line`: a namespace that is not this plugin
        if not space and not said_skill:
            continue
        if short == doc.folder.name:
            continue
        path = skills / short / "SKILL.md"
        named.append(NamedSkill(name, line, column, str(path), path.is_file()))
    return Dependencies(tuple(named), checked, plugin)
