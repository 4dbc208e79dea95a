"""Output formats: the one table that every command's ``--output`` and ``--output-file`` read.

Every format module offers a renderer per subject it can render, all with one signature,
``render_<subject>(data, options) -> str``: ``batch`` (what ``score`` scored), ``comparison``
(what ``compare`` found) and ``rules`` (the rule list). A command accepts exactly the formats
that can render its subject, and its ``--help`` lists them. Modules load only when used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

Subject = Literal["batch", "comparison", "rules"]
Renderer = Callable[[Any, "RenderOptions"], str]


@dataclass(frozen=True, repr=False)
class Verdict:
    """What makes a run fail, counted by kind; a run that counts nothing passes."""

    unscored: int = 0
    # The run's threshold (items under it are shown as failing) and how many are under it.
    threshold: float | None = None
    below_threshold: int = 0
    findings: int = 0
    fail_on: str = "error"

    @property
    def failed(self) -> bool:
        return bool(self.unscored or self.below_threshold or self.findings)

    def reasons(self, items_listed: bool = False) -> list[str]:
        """Each reason in words; ``items_listed`` leaves out the count of items under the
        threshold, for an output that lists them one by one."""
        out = []
        if self.unscored:
            out.append(f"{self.unscored} path(s) could not be scored")
        if self.below_threshold and not items_listed:
            out.append(f"{self.below_threshold} item(s) under the threshold {self.threshold:g}")
        if self.findings:
            out.append(f"{self.findings} finding(s) at {self.fail_on} or worse (--fail-on)")
        return out


@dataclass(frozen=True, repr=False)
class RenderOptions:
    """What a renderer may be told besides the data."""

    explain: bool = False
    # Text output: columns and colour (a terminal's own width; 240 and no colour off one).
    width: int = 240
    colour: bool = False
    # Why the run fails (the text output ends with it), and its threshold.
    verdict: Verdict = Verdict()
    # Text output: the findings counted by rule code instead of the report (--statistics),
    # or the findings alone (--quiet).
    statistics: bool = False
    quiet: bool = False


@dataclass(frozen=True, repr=False)
class Format:
    name: str
    summary: str
    module: str
    subjects: frozenset[Subject]


_ALL: frozenset[Subject] = frozenset({"batch", "comparison", "rules"})
_BATCH: frozenset[Subject] = frozenset({"batch"})

FORMATS: tuple[Format, ...] = (
    Format("text", "for a terminal (Rich)", "plugin_eval.report.text", _ALL),
    Format("markdown", "GitHub-flavoured Markdown", "plugin_eval.report.markdown", _ALL),
    Format(
        "json", "the report schema (`plugin-eval schema`)", "plugin_eval.report.json_report", _ALL
    ),
    Format("sarif", "SARIF 2.1.0 for code scanning", "plugin_eval.report.sarif", _BATCH),
    Format("github", "GitHub Actions annotations", "plugin_eval.report.github", _BATCH),
    Format("html", "one self-contained page", "plugin_eval.report.html", _BATCH),
)
BY_NAME: dict[str, Format] = {f.name: f for f in FORMATS}


def names(subject: Subject) -> tuple[str, ...]:
    """The formats that can render ``subject``, in table order."""
    return tuple(f.name for f in FORMATS if subject in f.subjects)


def renderer(name: str, subject: Subject) -> Renderer:
    """The function that renders ``subject`` as format ``name`` (its module loads now)."""
    fmt = BY_NAME[name]
    if subject not in fmt.subjects:
        raise ValueError(
            f"format {name} cannot render a {subject}; use {', '.join(names(subject))}"
        )
    module = importlib.import_module(fmt.module)
    return cast(Renderer, getattr(module, f"render_{subject}"))


def render(name: str, subject: Subject, data: object, options: RenderOptions) -> str:
    """``data`` rendered as format ``name``."""
    return renderer(name, subject)(data, options)
