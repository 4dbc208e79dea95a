"""PE003: the frontmatter must be valid YAML."""

from __future__ import annotations

from collections.abc import Iterator

from plugin_eval.analysis import Facts
from plugin_eval.document import Problem, SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule, Setting


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    for problem in doc.problems:
        if problem.kind is Problem.INVALID_YAML:
            yield RULE.finding(problem.message, problem.line, problem.column, problem.fix)


RULE = Rule(
    code="PE003",
    flag="INVALID_YAML",
    name="invalid-yaml",
    severity=Severity.ERROR,
    subscore="frontmatter_quality",
    summary="The text between the `---` lines parses as YAML (safe loader). The finding gives "
    "YAML's own line and column, as lines of SKILL.md. Frontmatter whose aliases (`*name`) "
    "repeat more nodes than the cap, or repeat without end, is refused at that alias, never "
    "expanded.",
    why="Harnesses skip a skill whose YAML cannot be parsed, silently: it vanishes from the "
    "listing. A colon inside an unquoted description is the usual cause.",
    fix='Quote the value (description: "...") or use a block scalar (description: >-) and '
    "re-check indentation at the reported line.",
    bad=Example(
        {
            "SKILL.md": "---\nname: example-skill\ndescription: Formats CSV: use when exporting: "
            "tables\n---\n\n# Body\n"
        },
        expect=(Expect("PE003", "SKILL.md", 3, 25),),
    ),
    good=Example(
        {
            "SKILL.md": '---\nname: example-skill\ndescription: "Formats CSV reports. Use when '
            'exporting tables, cleaning column names, or merging CSV files."\n---\n\n# Body\n'
        }
    ),
    source="skills-ref validator; Agent Skills client guidance",
    limits="The frontmatter is parsed with PyYAML's safe loader (YAML 1.1); a harness with another "
    "parser can still disagree on edge cases such as `yes`/`no` or unquoted dates. Only the first "
    "error is reported: fix it and run again. Refusing an alias-heavy frontmatter is plugin-eval's "
    "choice, not the specification's: a harness may still load it (or exhaust its memory).",
    settings=(
        Setting(
            "YAML_ALIAS_NODES",
            "nodes aliases may repeat in one frontmatter, beyond the node each alias is written "
            "as, before it is refused",
        ),
    ),
    links=(sources.SPEC, sources.SKILLS_REF, sources.YAML),
    check=check,
)
