"""PE109: frontmatter values must have the type their field expects."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import GOOD_SKILL, Example, Expect, Rule, field_end

EFFORTS = ("low", "medium", "high", "xhigh", "max")


def _str_or_list(value: Any) -> bool:
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    )


def expected_type(key: str, value: Any) -> str | None:
    """What ``value`` should have been, or None when it is fine."""
    if value is None and key in ("name", "description"):
        return None  # PE101 and PE103 report an empty name or description
    if key in (
        "name",
        "description",
        "license",
        "compatibility",
        "when_to_use",
        "argument-hint",
        "model",
        "agent",
    ):
        return None if isinstance(value, str) else "a string"
    if key == "metadata":
        if not isinstance(value, dict):
            return "a mapping of string keys to string values"
        for k, v in value.items():
            if not isinstance(k, str) or not isinstance(v, str):
                return (
                    f"a mapping of string keys to string values, but '{k}' holds "
                    f"{_describe(v)} (quote numbers and dates)"
                )
        return None
    if key in ("allowed-tools", "disallowed-tools", "paths"):
        return None if _str_or_list(value) else "a string or a list of strings"
    if key in ("disable-model-invocation", "user-invocable"):
        return None if isinstance(value, bool) else "true or false"
    if key == "effort":
        return None if value in EFFORTS else "one of " + ", ".join(EFFORTS)
    if key == "context":
        return None if value == "fork" else "'fork'"
    if key == "shell":
        return None if value in ("bash", "powershell") else "'bash' or 'powershell'"
    return None


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for key, info in doc.fields.items():
        value = doc.frontmatter.get(key)
        expected = expected_type(key, value)
        raw = doc.line_text(info.line).split(":", 1)[-1].strip() if expected else ""
        if key == "argument-hint" and isinstance(value, list) and raw.startswith("["):
            # Claude Code's own examples write `argument-hint: [message]`, which YAML reads as
            # a list: a note, with the quoted form, not an error. One that holds a colon
            # (`[optional: date]`) is a list of a mapping, which the reference validator's
            # strict YAML rejects, and the whole frontmatter with it: a warning.
            quoted = raw.replace("\\", "\\\\").replace('"', '\\"')
            mapping = any(isinstance(v, dict) for v in value)
            yield RULE.finding(
                f"'{key}' is read by YAML as a list ({raw}), not the text it shows"
                + (
                    ", and as a list holding a mapping, which the reference validator's strict "
                    "YAML rejects with the whole frontmatter"
                    if mapping
                    else ""
                ),
                info.line,
                info.column,
                fix=f'Quote it so that every reader gets the text: {key}: "{quoted}".',
                severity=Severity.WARNING if mapping else Severity.INFO,
            )
        elif expected is not None:
            line, column, severity = info.line, info.column, None
            if key == "metadata" and isinstance(value, dict):
                entry = _odd_entry(value)
                if entry is not None:
                    line, column = _entry_location(doc, info.line, entry[0])
                    # A number, date or boolean is text to the reference validator, which reads
                    # every metadata value as a string; other loaders give it a type.
                    if isinstance(entry[1], (int, float, bool, date)):
                        severity = Severity.WARNING
            yield RULE.finding(
                f"'{key}' should be {expected}"
                + (
                    ""
                    if key == "metadata" and isinstance(value, dict)
                    else f", got {_describe(value)}"
                ),
                line,
                column,
                fix=_fix(key, value, expected),
                severity=severity,
            )


def _odd_entry(metadata: dict[Any, Any]) -> tuple[Any, Any] | None:
    """The first metadata entry whose key or value is not a string."""
    return next(
        ((k, v) for k, v in metadata.items() if not isinstance(k, str) or not isinstance(v, str)),
        None,
    )


def _entry_location(doc: SkillDocument, start: int, key: object) -> tuple[int, int]:
    """The line and column of ``key`` among the indented lines under the field at ``start``;
    the field's own place when it is written inline (`metadata: {version: 2}`)."""
    wanted = str(key).lower() if isinstance(key, bool) else str(key)
    for number in range(start + 1, max(start + 1, field_end(doc, start))):
        text = doc.line_text(number)
        stripped = text.lstrip()
        name = stripped.split(":", 1)[0].strip().strip("\"'")
        if text[:1].isspace() and ":" in stripped and name == wanted:
            return number, len(text) - len(stripped) + 1
    return start, 1


def _fix(key: str, value: Any, expected: str) -> str:
    """Write the field as expected; in metadata, quote the value that is not a string; a
    string field written in brackets (a YAML list) is quoted."""
    if expected == "a string" and isinstance(value, list):
        return f'Quote it so that YAML reads the brackets as text: {key}: "[…]".'
    if key == "metadata" and isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and not isinstance(v, (str, dict, list)) and v is not None:
                shown = str(v).lower() if isinstance(v, bool) else str(v)
                return f'Quote the value so that YAML reads it as text: {k}: "{shown}".'
            if not isinstance(k, str) or not isinstance(v, str):
                return (
                    f"Make metadata '{k}' a string key with a string value (metadata holds no "
                    "lists, mappings or empty values)."
                )
    return f"Write '{key}' as {expected}."


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    kind = {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a mapping",
        str: "a string",
    }.get(type(value), f"a {type(value).__name__}")
    return kind


RULE = Rule(
    code="PE109",
    flag="FIELD_TYPE",
    name="field-type",
    severity=Severity.ERROR,
    subscore="structural_completeness",
    summary="Each known field has its type: name, description, license and compatibility are "
    "strings; metadata maps strings to strings; allowed-tools and paths are a string or a list; "
    "disable-model-invocation and user-invocable are booleans; effort, context and shell take "
    "their documented values.",
    why="A value of the wrong type is dropped or rejected by loaders; an empty 'description:' "
    "is null, not text.",
    fix="Give the field a value of the expected type (quote numbers and dates meant as text).",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\nmetadata:\n  "
            "version: 2\n---\n\n# Body\n"
        },
        expect=(Expect("PE109", "SKILL.md", 5, 3),),
    ),
    good=Example({"SKILL.md": GOOD_SKILL}),
    source="Agent Skills specification; skills-ref validator; Claude Code skill docs",
    limits="Only known fields are checked (unknown ones are PE108's). For a wrong value inside "
    "`metadata:` the finding points at the nested entry; a number, date or boolean there is a "
    "warning (the reference validator reads every metadata value as text, other loaders do "
    "not), a list, mapping or empty value an error. An "
    "`argument-hint` in brackets (`[file]`, as Claude Code's own examples write it) is read by "
    "YAML as a list: an info note with the quoted form, not an error; a warning when the "
    "brackets hold a colon (`[optional: date]`), a mapping the reference validator rejects.",
    links=(sources.SPEC, sources.CLAUDE_SKILLS),
    check=check,
)
