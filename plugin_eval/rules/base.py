"""What every rule module declares: its code, flag, severity, documentation and examples."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, get_args

from plugin_eval import budgets
from plugin_eval.findings import Finding, Severity, bounded
from plugin_eval.vocabulary import SubScoreName

if TYPE_CHECKING:
    from plugin_eval.analysis import Facts
    from plugin_eval.document import SkillDocument
    from plugin_eval.plugin import PluginDocument

SUBSCORES: tuple[SubScoreName, ...] = get_args(SubScoreName)


@dataclass(frozen=True, repr=False)
class Expect:
    """A finding an example must produce: its code, file (relative to the example), line, column."""

    code: str
    path: str = "SKILL.md"
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True, repr=False)
class Example:
    """A small skill or plugin folder: relative paths to contents, and the findings it yields.

    ``expect`` lists every finding of the example's rule, located exactly; a passing example
    expects none.
    """

    files: Mapping[str, str | bytes]
    folder: str = "example-skill"
    expect: tuple[Expect, ...] = ()


@dataclass(frozen=True, repr=False)
class Setting:
    """A limit a rule reads from `plugin_eval.budgets`, by its name there, and what it bounds."""

    name: str
    meaning: str

    def __post_init__(self) -> None:
        if not isinstance(getattr(budgets, self.name, None), int):
            raise ValueError(f"plugin_eval.budgets has no limit named {self.name}")

    @property
    def value(self) -> int:
        value: int = getattr(budgets, self.name)
        return value


@dataclass(frozen=True, repr=False)
class DocLink:
    """A page of the specification or harness documentation a rule follows."""

    title: str
    url: str


@dataclass(frozen=True, repr=False)
class RuleDoc:
    """What every rule declares; subclasses add the check for what they inspect."""

    code: str
    flag: str
    name: str
    severity: Severity
    summary: str
    why: str
    fix: str
    bad: Example
    good: Example
    anti_pattern: bool = False
    subscore: SubScoreName | None = None
    source: str = ""
    limits: str = ""
    settings: tuple[Setting, ...] = ()
    links: tuple[DocLink, ...] = ()

    def __post_init__(self) -> None:
        if self.anti_pattern == (self.subscore is not None):
            raise ValueError(f"{self.code}: an anti-pattern has no sub-score, every other rule one")
        if self.subscore is not None and self.subscore not in SUBSCORES:
            raise ValueError(f"{self.code}: unknown sub-score {self.subscore}")

    def finding(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        fix: str | None = None,
        path: str = "SKILL.md",
        severity: Severity | None = None,
    ) -> Finding:
        """A finding of this rule; ``severity`` overrides the rule's for this one finding."""
        return Finding(
            path=path,
            line=line,
            column=column,
            code=self.code,
            flag=self.flag,
            severity=severity or self.severity,
            message=bounded(message),
            fix=bounded(fix or self.fix),
        )

    def counted(self) -> str:
        """What the rule's findings count toward, in words."""
        if self.anti_pattern:
            return "Counts toward the anti-pattern penalty."
        return f"Lowers the `{self.subscore}` sub-score."

    def example_sections(self) -> list[str]:
        """The failing and passing examples, as the rule's page shows them."""
        return [
            "## Failing example",
            "",
            *_example(self.bad),
            "## Passing example",
            "",
            *_example(self.good),
        ]

    def documentation(self) -> str:
        """The rule's page, as `plugin-eval rule CODE` prints it (Markdown)."""
        parts = [
            f"# {self.code} {self.name} ({self.flag})",
            "",
            f"Severity: {self.severity.value}. {self.counted()}",
            "",
            "## What it checks",
            "",
            self.summary,
            "",
            "## Why it matters",
            "",
            self.why,
            "",
            *self.example_sections(),
            "## Fix",
            "",
            self.fix,
            "",
            "## Known limits",
            "",
            self.limits,
        ]
        if self.settings:
            parts += ["", "## Settings", ""]
            parts += [f"- `{s.name}` = {s.value}: {s.meaning}" for s in self.settings]
        if self.source or self.links:
            parts += ["", "## Sources", ""]
            parts += [self.source, ""] if self.source else []
            parts += [f"- [{link.title}]({link.url})" for link in self.links]
        return "\n".join(parts).rstrip("\n") + "\n"


@dataclass(frozen=True, repr=False)
class EngineRule(RuleDoc):
    """A code the engine reports itself (a crash, a suppression comment, a threshold): it
    runs no check of its own and lowers no score. Without ``examples`` it has no example
    skill, because any skill can meet it."""

    examples: bool = True

    def __post_init__(self) -> None:
        if self.anti_pattern or self.subscore is not None:
            raise ValueError(f"{self.code}: an engine code counts toward nothing")

    def counted(self) -> str:
        return "Counts toward no sub-score and no penalty."

    def example_sections(self) -> list[str]:
        return super().example_sections() if self.examples else []


@dataclass(frozen=True, repr=False)
class Rule(RuleDoc):
    """A rule over one skill document."""

    check: Callable[[SkillDocument, Facts], Iterator[Finding]] = field(
        default=lambda doc, facts: iter(()), compare=False, repr=False
    )


@dataclass(frozen=True, repr=False)
class PluginRule(RuleDoc):
    """A rule over a plugin's manifest, agents or commands."""

    check: Callable[[PluginDocument], Iterator[Finding]] = field(
        default=lambda plugin: iter(()), compare=False, repr=False
    )


def _example(example: Example) -> list[str]:
    out: list[str] = []
    for path, content in example.files.items():
        if isinstance(content, bytes):
            out += [f"`{example.folder}/{path}` (bytes): `{content!r}`", ""]
            continue
        out += [f"`{example.folder}/{path}`:", "", "````markdown", content.rstrip("\n"), "````", ""]
    return out


# More files of one folder than this are one finding that names the folder and the count.
ONE_BY_ONE = 3


def per_folder(paths: Iterable[str]) -> Iterator[tuple[str, list[str], str | None]]:
    """The paths grouped by folder, folders in order: each folder, its paths, and, where there
    are more than ONE_BY_ONE of them, the first few file names to show in one finding (None
    when each path is reported alone)."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(posixpath.dirname(path), []).append(path)
    for folder, found in sorted(groups.items()):
        shown = (
            ", ".join(posixpath.basename(p) for p in found[:ONE_BY_ONE]) + " …"
            if len(found) > ONE_BY_ONE
            else None
        )
        yield folder, found, shown


def field_location(doc: SkillDocument, key: str) -> tuple[int, int]:
    """Line and column of a frontmatter key, or of the opening fence when the key is absent."""
    info = doc.fields.get(key)
    return (info.line, info.column) if info else (1, 1)


def field_end(doc: SkillDocument, line: int) -> int:
    """The line after the frontmatter field that starts at ``line``: the next key's, or the
    closing fence's."""
    return min((f.line for f in doc.fields.values() if f.line > line), default=doc.body_start)


def folder_name(doc: SkillDocument) -> str:
    """The skill folder's own name, also when it was given as '.'."""
    return doc.folder.resolve().name if doc.folder.name in ("", ".") else doc.folder.name


def value_location(doc: SkillDocument, key: str, words: str, before: str = "") -> tuple[int, int]:
    """Where ``words`` of a top-level key's value are written in the file: line and column of
    their first character, read across the line breaks and indentation of a folded or quoted
    value; the occurrence after as many as ``before`` (the value up to them) holds. The key's
    own place when they are not found as written (an escape, a word split by the YAML)."""
    info = doc.fields.get(key)
    if info is None:
        return 1, 1
    parts = words.split()
    if not parts:
        return info.line, info.column
    # The value's lines: from the key to the line before the next key or the closing fence.
    lines = doc.lines[info.line - 1 : max(info.line, field_end(doc, info.line) - 1)]
    start = info.column - 1 + len(key) + 1
    text = "\n".join(lines)[: budgets.LISTING_CHARS * 4]
    # As whole words where they begin or end with one: 'us' is not the end of 'focus'.
    head = r"(?<!\w)" if (parts[0][0].isalnum() or parts[0][0] == "_") else ""
    tail = r"(?!\w)" if (parts[-1][-1].isalnum() or parts[-1][-1] == "_") else ""
    pattern = re.compile(  # noqa: TID251 - built from the value's words
        head + r"\s+".join(map(re.escape, parts)) + tail
    )
    at = start
    for _ in range(len(pattern.findall(before)) + 1):
        match = pattern.search(text, at)
        if match is None:
            return info.line, info.column
        found, at = match.start(), match.end()
    row = text.count("\n", 0, found)
    column = found - (text.rfind("\n", 0, found) + 1) + 1
    return info.line + row, column


GOOD_SKILL = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n# Example skill\n\nSteps.\n"
)
