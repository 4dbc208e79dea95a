"""SARIF 2.1.0 output, for GitHub code scanning and other SARIF viewers."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from typing import Any, Protocol
from urllib.parse import quote

from plugin_eval import __version__
from plugin_eval.findings import Severity
from plugin_eval.report.formats import RenderOptions
from plugin_eval.report.model import Batch, Failure, FindingOut
from plugin_eval.report.neutral import json_text
from plugin_eval.report.scored import Scored, below_threshold
from plugin_eval.rules import ALL_RULES, lookup

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
FINGERPRINT = "pluginEval/v1"


class RuleInfo(Protocol):
    """What a rule descriptor is made of: any rule of the registry, skill or plugin."""

    @property
    def code(self) -> str: ...
    @property
    def flag(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def summary(self) -> str: ...
    @property
    def why(self) -> str: ...
    @property
    def fix(self) -> str: ...
    @property
    def anti_pattern(self) -> bool: ...
    @property
    def subscore(self) -> str | None: ...
    def documentation(self) -> str: ...


def render(
    reports: Sequence[Scored],
    rules: Iterable[RuleInfo] = ALL_RULES,
    threshold: float | None = None,
    failures: Sequence[Failure] = (),
) -> str:
    """The SARIF log as JSON text: the same reports give the same bytes."""
    log = sarif_log(reports, rules, threshold, failures)
    return json_text(json.dumps(log, indent=2, ensure_ascii=False)) + "\n"


def sarif_log(
    reports: Sequence[Scored],
    rules: Iterable[RuleInfo] = ALL_RULES,
    threshold: float | None = None,
    failures: Sequence[Failure] = (),
) -> dict[str, Any]:
    """One run listing `rules`, then the rule of any other finding, and one result per finding;
    a path that could not be scored is an error notification of the run's invocation."""
    descriptors = [_descriptor(rule) for rule in rules]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    # Every finding's rule gets a descriptor, so ruleIndex holds: from the registry when the
    # code is known there, else from the finding itself.
    for report in reports:
        for f in report.findings:
            if f.code not in index:
                index[f.code] = len(descriptors)
                rule = lookup(f.code)
                descriptors.append(_descriptor(rule) if rule else _bare_descriptor(f))
    results: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for report in reports:
        for f in report.findings:
            results.append(_result(f, index[f.code], report, seen))
    for report, f in below_threshold(reports, threshold):
        results.append(_result(f, index[f.code], report, seen))
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "plugin-eval",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": descriptors,
                    }
                },
                "originalUriBaseIds": {
                    SRCROOT: {"description": {"text": "The folder plugin-eval was run from."}}
                },
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {
                        "executionSuccessful": not failures,
                        "toolExecutionNotifications": [
                            {
                                "level": "error",
                                "message": {
                                    "text": plain(f"{f.path}: could not be scored: {f.error}")
                                },
                            }
                            for f in failures
                        ],
                    }
                ],
                "results": results,
                "properties": {"scores": [_score(r) for r in reports]},
            }
        ],
    }


def _descriptor(rule: RuleInfo) -> dict[str, Any]:
    where = ["anti-pattern"] if rule.anti_pattern else [rule.subscore] if rule.subscore else []
    tags = ["plugin-eval", *where]
    return {
        "id": rule.code,
        "name": rule.flag,
        "shortDescription": {"text": plain(_first_sentence(rule.summary))},
        "fullDescription": {"text": plain(f"{rule.summary} {rule.why}")},
        "help": {"text": plain(rule.fix), "markdown": rule.documentation()},
        "defaultConfiguration": {"level": LEVEL[rule.severity.value]},
        "properties": {
            "tags": tags,
            "ruleName": rule.name,
            "antiPattern": rule.anti_pattern,
            "subscore": rule.subscore,
        },
    }


def _bare_descriptor(f: FindingOut) -> dict[str, Any]:
    return {
        "id": f.code,
        "name": f.flag,
        "shortDescription": {"text": f.flag},
        "defaultConfiguration": {"level": LEVEL[f.severity]},
        "properties": {"tags": ["plugin-eval"], "antiPattern": f.anti_pattern},
    }


def _result(f: FindingOut, rule_index: int, report: Scored, seen: Counter[str]) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": _artifact(f.path)}
    # SARIF regions start at line 1: a finding about the whole file has no region.
    if f.line is not None and f.line >= 1:
        region: dict[str, int] = {"startLine": f.line}
        if f.column is not None and f.column >= 1:
            region["startColumn"] = f.column
        physical["region"] = region
    # Stable across edits that only move the finding: code, file and message, not the line;
    # the occurrence number keeps two identical findings in one file apart.
    digest = hashlib.sha256(
        f"{f.code}\0{f.path}\0{f.message}".encode("utf-8", "surrogatepass")
    ).hexdigest()[:32]
    seen[digest] += 1
    return {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": LEVEL[f.severity],
        "message": {"text": plain(f"{_sentence(f.message)} Fix: {f.fix}")},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {FINGERPRINT: f"{digest}:{seen[digest]}"},
        "properties": {"flag": f.flag, "antiPattern": f.anti_pattern, "skill": report.name},
    }


def _artifact(path: str) -> dict[str, str]:
    """A relative path stays relative to %SRCROOT%; an absolute one becomes a file: URI."""
    # A name that is not UTF-8 holds lone surrogates: its bytes are percent-encoded as they
    # are on disk (or, for a surrogate no byte made, as UTF-8 would have written it).
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = path.encode("utf-8", "surrogatepass")
    if PurePosixPath(path).is_absolute():
        return {"uri": "file://" + quote(raw, safe="/")}
    return {"uri": quote(raw, safe="/"), "uriBaseId": SRCROOT}


def _score(report: Scored) -> dict[str, Any]:
    c = report.composite
    return {
        "name": report.name,
        "path": report.path,
        "score": c.score,
        "badge": c.badge,
        "grade": c.grade,
        "confidenceLabel": c.confidence_label,
    }


def plain(text: str) -> str:
    """A plain-text SARIF message: its square brackets escaped, as SARIF asks of brackets that
    open no embedded link (§3.11.6), so that text a skill wrote ('[Fix it](https://…)') is
    never shown by a viewer as a link of its choosing."""
    return text.replace("[", "\\[").replace("]", "\\]")


def _first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + dot.strip() if dot else text


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def render_batch(batch: Batch, options: RenderOptions) -> str:
    """Every report of the batch, a failing result for each item under the threshold, and
    an error notification for each path that could not be scored."""
    return render(batch.reports, threshold=options.verdict.threshold, failures=batch.failures)
