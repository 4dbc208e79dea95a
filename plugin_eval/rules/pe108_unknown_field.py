"""PE108: frontmatter fields must be ones the specification or Claude Code defines."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Iterator, Mapping

from plugin_eval.analysis import Facts
from plugin_eval.document import FieldInfo, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.plugin import Part
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, PluginRule, Rule

SPEC_FIELDS = frozenset(
    {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)
CLAUDE_FIELDS = frozenset(
    {
        "when_to_use",
        "argument-hint",
        "arguments",
        "disable-model-invocation",
        "user-invocable",
        "disallowed-tools",
        "model",
        "effort",
        "context",
        "agent",
        "hooks",
        "paths",
        "shell",
    }
)
KNOWN_FIELDS = SPEC_FIELDS | CLAUDE_FIELDS


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    fallback = "Move it under 'metadata:' as a string value, or delete it."
    for key, line, column, hint, fix in unknown_fields(doc.fields, KNOWN_FIELDS, fallback):
        yield RULE.finding(f"unknown frontmatter field '{key}'{hint}", line, column, fix)


# What other tools call a field Claude Code has: the field meant.
OTHER_NAMES = {
    "tool-access": "allowed-tools",
    "allowed-tool": "allowed-tools",
    "tools-allowed": "allowed-tools",
    # Cursor's rules activate on file patterns; Claude Code's field for them is paths.
    "globs": "paths",
}
# What a rename to a field does that its new name does not say.
RENAMED_MEANS = {
    "allowed-tools": " It pre-approves the tools it lists, so they run without asking; it "
    "restricts no other tool. Keep only the tools the task needs, scoped where they can be "
    "('Bash(git:*)', not 'Bash').",
}


def unknown_fields(
    fields: Mapping[str, FieldInfo], known: Collection[str], fallback: str
) -> Iterator[tuple[str, int, int, str, str]]:
    """Each key of ``fields`` that is not ``known``: its place, a hint ("did you mean …") and
    a fix, ``fallback`` when no known field is close."""
    ordered = sorted(known)
    for key, info in fields.items():
        if key in known:
            continue
        spelt = difflib.get_close_matches(key.lower().replace("_", "-"), ordered, 1, 0.75)
        alias = OTHER_NAMES.get(key.lower().replace("_", "-"))
        if alias is not None and alias in known:
            spelt = [alias]
        # A field the frontmatter already has is no rename target: the rename would make a
        # duplicate key. A misspelling of it is a second copy; a longer name that holds it
        # ('displayName' beside 'name') is a field of its own.
        if spelt and spelt[0] in fields:
            hint, fix = (
                f" (a second '{spelt[0]}'?)",
                f"Delete it, or move what it says into '{spelt[0]}'.",
            )
        else:
            near = spelt or [k for k in ordered if _close(key, k)]
            near = [k for k in near if k not in fields]
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            fix = f"Rename it to '{near[0]}'.{RENAMED_MEANS.get(near[0], '')}" if near else fallback
        yield key, info.line, info.column, hint, fix


def unknown_part_fields(
    rule: PluginRule, parts: Iterable[Part], known: Collection[str], where: str
) -> Iterator[Finding]:
    """PE606 and PE704: each key of an agent's or a command's frontmatter that Claude Code
    does not read (``where``: the body's name for what the model reads, "body" or "prompt")."""
    fallback = (
        f"Delete it: Claude Code ignores it (say it in the {where} if the model should know)."
    )
    for part in parts:
        if part.file.problems:
            continue
        for key, line, column, hint, fix in unknown_fields(part.file.fields, known, fallback):
            yield rule.finding(
                f"'{key}' is not a field Claude Code reads for "
                f"{'an' if part.kind[0] in 'aeiou' else 'a'} {part.kind}{hint}: it is ignored",
                line,
                column,
                fix=fix,
                path=part.path,
            )


def _close(a: str, b: str) -> bool:
    a, b = a.lower().replace("_", "-"), b.lower().replace("_", "-")
    return a == b or (len(a) > 3 and (a in b or b in a))


RULE = Rule(
    code="PE108",
    flag="UNKNOWN_FIELD",
    name="unknown-field",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="Every frontmatter key is a field of the open specification (name, description, "
    "license, compatibility, metadata, allowed-tools) or one Claude Code reads (when_to_use, "
    "argument-hint, disable-model-invocation, paths, …).",
    why="The reference validator rejects unexpected fields; a typo such as 'descripton' leaves "
    "the real field missing.",
    fix="Put custom data under 'metadata:' (string keys and values) or delete the field.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\nversion: 2.0.0\n---"
            "\n\n# Body\n"
        },
        expect=(Expect("PE108", "SKILL.md", 4, 1),),
    ),
    good=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV reports. Use when "
            "exporting tables, cleaning column names, or merging CSV files.\nmetadata:\n  "
            'version: "2.0.0"\n---\n\n# Body\n'
        }
    ),
    source="skills-ref validator; Claude Code skill docs",
    limits="It knows the fields of the open specification and of Claude Code only: a field another "
    "harness reads is reported as unknown. Keys inside `metadata:` are not checked.",
    links=(sources.SPEC, sources.CLAUDE_SKILLS),
    check=check,
)
