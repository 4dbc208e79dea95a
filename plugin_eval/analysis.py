"""Facts derived once from a parsed document and shared by rules and sub-scores."""

from __future__ import annotations

import os
import posixpath
import re
import stat
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, partial
from pathlib import Path
from urllib.parse import unquote

from plugin_eval.document import Heading, SkillDocument, is_external
from plugin_eval.triggering import TriggerAnalysis, analyse

# A `references/…` path written in prose (not in code, not a link target).
_PROSE_REF = re.compile(r"(?<![\w/.@:-])references/[\w][\w./-]*[\w]")
_URLISH = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\bwww\.\S+")
DIRECTIVE = re.compile(r"\b(?:MUST|NEVER|ALWAYS)\b")

# A file name as written in text: a stem and an extension, with no path before it.
_FILE_NAME = re.compile(r"(?<![\w/.-])[\w.-]+\.[A-Za-z0-9]{1,8}(?![\w/])")
_SEARCHED_ONE_BY_ONE = 64


def _written(name: str, text: str) -> bool:
    """``name`` occurs in ``text`` as a whole file name or path (not inside a longer one)."""
    if name not in text:
        return False
    return re.search(r"(?<![\w/.-])" + re.escape(name) + r"(?![\w/])", text) is not None


_FILE_PATH = re.compile(r"(?<![\w/.-])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z0-9]{1,8}(?![\w/])")


class RefStatus(Enum):
    OK = "ok"
    MISSING = "missing"
    OUTSIDE = "outside"
    OUTSIDE_MISSING = "outside-missing"
    SYMLINK = "symlink"


@dataclass(frozen=True)
class Reference:
    """A relative link, image or prose path, resolved against the skill folder."""

    target: str
    path: str
    line: int
    column: int
    kind: str
    status: RefStatus


@dataclass(frozen=True)
class Exemption:
    reason: str | None


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
        except OSError:
            return RefStatus.MISSING
        if stat.S_ISLNK(mode):
            return RefStatus.SYMLINK
    return RefStatus.OK


class Facts:
    """Lazily computed views of one document; each is computed at most once."""

    def __init__(self, doc: SkillDocument) -> None:
        self.doc = doc

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
            for match in _PROSE_REF.finditer(text):
                before = text[: match.start()]
                line = prose.line + before.count("\n")
                target = match.group(0).rstrip(".")
                if (line, target) in linked:
                    continue
                source = doc.line_text(line)
                column = source.find(target) + 1 if target in source else 1
                ref = self._resolve(target, line, column, "prose")
                if ref is not None:
                    refs.append(ref)
        return tuple(refs)

    def _resolve(self, target: str, line: int, column: int, kind: str) -> Reference | None:
        raw = target.strip()
        if not raw or raw.startswith("#") or is_external(raw):
            return None
        path = unquote(raw.split("#", 1)[0].split("?", 1)[0])
        if not path:
            return None
        listing = self.doc.listing
        if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
            status = RefStatus.OUTSIDE if os.path.lexists(path) else RefStatus.OUTSIDE_MISSING
            return Reference(raw, path, line, column, kind, status)
        norm = posixpath.normpath(path.replace("\\", "/"))
        if norm == ".." or norm.startswith("../"):
            # Checked for existence only (never opened, never read): a cross-reference.
            outside = os.path.normpath(os.path.join(self.doc.folder, norm))
            status = RefStatus.OUTSIDE if os.path.lexists(outside) else RefStatus.OUTSIDE_MISSING
            return Reference(raw, norm, line, column, kind, status)
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
        named = {f for f in self.doc.listing.files if f in code}
        # A file name that names exactly one file of the folder points at it, wherever it is
        # written ("`api_reference.md` — the full API" under a References heading); so does a
        # path written out in prose ("see references/api.md"). Only files not linked already
        # are looked for: few, so each is one search in C, not a pass of a regex per skill.
        text = self.doc.text
        files = self.doc.listing.files
        by_name: dict[str, list[str]] = {}
        for f in files:
            by_name.setdefault(f.rsplit("/", 1)[-1], []).append(f)
        candidates = [f for f in files if f not in named and f not in self.linked_files]
        if len(candidates) > _SEARCHED_ONE_BY_ONE:
            written = set(_FILE_NAME.findall(text)) | set(_FILE_PATH.findall(text))
            is_written: Callable[[str], bool] = written.__contains__
        else:
            is_written = partial(_written, text=text)
        for f in candidates:
            name = f.rsplit("/", 1)[-1]
            if (len(by_name[name]) == 1 and is_written(name)) or ("/" in f and is_written(f)):
                named.add(f)
        found = set(self.linked_files) | named
        # A link to a folder covers the files in it.
        for path in self.linked_files:
            found.update(self.doc.listing.under(path))
        return frozenset(found)

    @cached_property
    def _joined(self) -> tuple[str, list[int]]:
        starts, offset = [], 0
        for p in self.doc.prose:
            starts.append(offset)
            offset += len(p.text) + 2
        return "\n\n".join(p.text for p in self.doc.prose), starts

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

    def prose_line(self, offset: int) -> int:
        """The file line of an offset into ``prose_text``."""
        starts = self._joined[1]
        i = bisect_right(starts, offset) - 1
        p = self.doc.prose[i]
        return p.line + p.text.count("\n", 0, offset - starts[i])

    @cached_property
    def directives(self) -> tuple[tuple[int, str], ...]:
        """Each MUST / NEVER / ALWAYS written in prose, with its line."""
        text = self.prose_text
        if "MUST" not in text and "NEVER" not in text and "ALWAYS" not in text:
            return ()
        return tuple((self.prose_line(m.start()), m.group(0)) for m in DIRECTIVE.finditer(text))

    @cached_property
    def prose_lines(self) -> int:
        return sum(p.text.count("\n") + 1 for p in self.doc.prose if p.text.strip())

    @cached_property
    def body_tokens(self) -> int:
        return estimate_tokens(self.doc.body_text)

    @cached_property
    def skill_bytes(self) -> int:
        return len(self.doc.raw)
