"""PE210: a skill the body depends on or hands off to is among the skills beside it."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule

HEAD = (
    "---\nname: example-skill\ndescription: Writes release notes. Use when tagging a release, "
    "summarising merged pull requests, or drafting a changelog entry.\n---\n\n# Release notes\n\n"
)
BODY = HEAD + (
    "Collect the merged pull requests since the last tag.\n\n"
    "This skill depends on the `changelog-format` skill for the entry layout; when the notes "
    "are done, hand off to the **release-publish** skill.\n"
)
SIBLING = (
    "---\nname: {name}\ndescription: Formats changelog entries. Use when writing a changelog "
    "entry or checking one against Keep a Changelog.\n---\n\n# {name}\n\nFormat entries.\n"
)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    deps = facts.dependencies
    if not deps.in_collection:
        return  # nothing it names ships beside it: what it names may be installed elsewhere
    for named in deps.named:
        if named.exists:
            continue
        where = f"plugin '{deps.plugin}'" if deps.plugin else "its folder"
        yield RULE.finding(
            f"names the skill '{named.name}' as a dependency or hand-off, and no skill of that "
            f"name is beside it in {where}",
            named.line,
            named.column,
            fix=f"Add the '{named.name.rpartition(':')[2]}' skill beside this one, or correct "
            "the name.",
        )


RULE = Rule(
    code="PE210",
    flag="MISSING_DEPENDENCY",
    name="missing-dependency",
    severity=Severity.WARNING,
    subscore="ecosystem_coherence",
    summary='A skill the body names as a dependency or hand-off ("depends on the `plan` '
    'skill", "hand off to the **review** skill", "use `my-plugin:plan`") is a skill folder '
    "beside this one: in the same plugin's skills/, or the same folder of skills.",
    why="The model looks for the named skill when it reaches that step; when the collection "
    "does not ship it, the step is skipped or improvised, and the hand-off the author designed "
    "never happens.",
    fix="Ship the named skill beside this one, or correct the name to the folder name.",
    bad=Example(
        {
            "SKILL.md": BODY,
            "../changelog-format/SKILL.md": SIBLING.format(name="changelog-format"),
        },
        expect=(Expect("PE210", "SKILL.md", 10, 115),),
    ),
    good=Example(
        {
            "SKILL.md": BODY,
            "../changelog-format/SKILL.md": SIBLING.format(name="changelog-format"),
            "../release-publish/SKILL.md": SIBLING.format(name="release-publish"),
        }
    ),
    source="plugin-eval",
    limits="Only a name in code, in bold, hyphenated, or namespaced is read as a skill "
    "('the testing skill' is a phrase, not a name), after a verb of use (use, invoke, load, "
    "depends on, requires, hand off to, …) and before the word 'skill'; a namespaced name "
    "(`plugin:skill`) needs no 'skill' after it when the namespace is this skill's plugin. "
    "Names in code blocks are examples and are not read. Names are checked when the skill is "
    "in a plugin's skills/, or when at least one skill it names is beside it (the author ships "
    "what it names with it); otherwise what it names may be installed elsewhere. The name is "
    "compared with the folder "
    "names of the skills beside it (the specification makes the name the folder's), not with "
    "skills of other plugins of a marketplace.",
    links=(sources.SPEC,),
    check=check,
)
