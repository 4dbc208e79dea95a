"""Distractors: the skills a router could pick instead of the target.

By default the target's siblings (the other skills of its plugin's ``skills/``, or of the
folder it sits in); with ``--against DIR``, every skill under DIR. Skills a router could
not list are left out and counted: unreadable frontmatter, no description,
``disable-model-invocation: true``. The nearest MAX_DISTRACTORS (by BM25 between
descriptions) are kept, so a model is never offered hundreds of tools.
"""

from __future__ import annotations

import os
import posixpath
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SKILL_FILE, SkillDocument, parse_skill
from plugin_eval.montecarlo.backends.base import NONE_TOOL
from plugin_eval.montecarlo.lexical import Index

MAX_DISTRACTORS = 20
MAX_SCANNED = 5000
_UNSAFE = regexes.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True, repr=False)
class Candidate:
    key: str  # the tool name offered to a model: unique, [A-Za-z0-9_-]{1,64}
    name: str
    listing: str  # what a router reads: description (+ when_to_use)
    path: str
    doc: SkillDocument
    target: bool


@dataclass(frozen=True, repr=False)
class CandidateSet:
    target: Candidate
    candidates: tuple[Candidate, ...]  # target included, ordered by key
    source: str
    found: int
    skipped: dict[str, int]

    @property
    def distractors(self) -> tuple[Candidate, ...]:
        return tuple(c for c in self.candidates if not c.target)

    @property
    def names(self) -> dict[str, str]:
        return {c.key: c.name for c in self.candidates}


def listing_of(doc: SkillDocument) -> str:
    parts = [doc.description or "", Facts(doc).when_to_use or ""]
    return " ".join(" ".join(p.split()) for p in parts if p.strip())


def find_candidates(doc: SkillDocument, display: str, against: Path | None = None) -> CandidateSet:
    target_folder = doc.folder.resolve()
    if against is not None:
        source = f"--against {against.as_posix()}"
        found = [
            (f, _join(against.as_posix(), f.relative_to(against).as_posix()))
            for f in _walk(against)
        ]
    else:
        parent = doc.folder.parent
        source = f"siblings in {_parent_display(display)}"
        found = [
            (child, _join(_parent_display(display), child.name))
            for child in sorted(parent.iterdir())
            if not child.name.startswith(".")
            and child.is_dir()
            and not child.is_symlink()
            and (child / SKILL_FILE).is_file()
        ]
    others = [(folder, shown) for folder, shown in found if folder.resolve() != target_folder]
    skipped: Counter[str] = Counter()
    usable: list[tuple[SkillDocument, str]] = []
    for folder, shown in others:
        other = parse_skill(folder)
        reason = unlisted(other)
        if reason:
            skipped[reason] += 1
        else:
            usable.append((other, shown))
    query = f"{doc.name} {listing_of(doc)}"
    closeness = Index.build([f"{d.name} {listing_of(d)}" for d, _ in usable]).match(query)
    ranked = sorted(range(len(usable)), key=lambda i: (-closeness[i], usable[i][1]))
    if len(ranked) > MAX_DISTRACTORS:
        skipped[f"beyond the {MAX_DISTRACTORS} nearest"] += len(ranked) - MAX_DISTRACTORS
    kept = [usable[i] for i in ranked[:MAX_DISTRACTORS]]

    used = {NONE_TOOL}
    target = Candidate(_key(doc.name, used), doc.name, listing_of(doc), display, doc, True)
    members = [target] + [
        Candidate(_key(d.name, used), d.name, listing_of(d), shown, d, False) for d, shown in kept
    ]
    return CandidateSet(
        target=target,
        candidates=tuple(sorted(members, key=lambda c: c.key)),
        source=source,
        found=len(others),
        skipped=dict(sorted(skipped.items())),
    )


def nearest_first(candidates: CandidateSet) -> list[Candidate]:
    """Distractors, the closest to the target's listing first."""
    others = list(candidates.distractors)
    closeness = Index.build([f"{c.name} {c.listing}" for c in others]).match(
        f"{candidates.target.name} {candidates.target.listing}"
    )
    order = sorted(range(len(others)), key=lambda i: (-closeness[i], others[i].key))
    return [others[i] for i in order]


def unlisted(doc: SkillDocument) -> str | None:
    """Why a harness would not list the skill for a router, if it would not."""
    if not doc.frontmatter_ok:
        return "frontmatter not readable"
    if not (doc.description or "").strip():
        return "no description"
    if doc.frontmatter.get("disable-model-invocation") is True:
        return "disable-model-invocation"
    return None


def _key(name: str, used: set[str]) -> str:
    base = _UNSAFE.sub("-", name).strip("-")[:60] or "skill"
    key, n = base, 2
    while key in used:
        key, n = f"{base}-{n}", n + 1
    used.add(key)
    return key


def _walk(root: Path) -> list[Path]:
    """Skill folders under root, without following symlinks or entering hidden folders."""
    out: list[Path] = []
    for current, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if SKILL_FILE in files:
            out.append(Path(current))
        if len(out) >= MAX_SCANNED:
            break
    return sorted(out)


def _parent_display(display: str) -> str:
    return posixpath.dirname(display.rstrip("/")) or "."


def _join(parent: str, child: str) -> str:
    return posixpath.normpath(posixpath.join(parent, child))
