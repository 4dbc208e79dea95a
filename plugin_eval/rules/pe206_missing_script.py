"""PE206: a script the body tells the model to run is in the skill folder."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from plugin_eval import regexes
from plugin_eval.analysis import Facts
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule
from plugin_eval.textsearch import Columns

HEAD = (
    "---\nname: example-skill\ndescription: Validates CSV exports. Use when checking column "
    "names, finding blank rows, or comparing two exports.\n---\n\n# Example skill\n\n"
)
BODY = HEAD + "Check the file first:\n\n```bash\npython scripts/check_fields data.csv\n```\n"
SCRIPT = "import sys\n\nprint(sys.argv[1])\n"

# A path under scripts/ in code, optionally after a prefix naming the skill's folder
# (${CLAUDE_SKILL_DIR}/, {baseDir}/): the way a body tells the model to run a script.
# `./scripts/` is relative to the working directory, which is the user's project.
SKILL_DIR = r"(?:\$\{?CLAUDE_SKILL_DIR\}?/|\{baseDir\}/|<skill[-_ ]?dir>/)"
# Or after `skills/NAME/` (`python skills/infographics/scripts/render.py`): written from the
# root of a repository that holds the skills, where the command works only in that checkout.
SCRIPT_PATH = regexes.compile(
    r"(?<![\w/.$-])(?:(?P<prefix>" + SKILL_DIR + r")|(?P<root>(?:\./)?skills/(?P<skill>[\w.-]+)/))?"
    r"(?P<path>scripts/[\w.-]+(?:/[\w.-]+)*)"
)

COMMAND = regexes.compile(
    r"\s*(?:" + SKILL_DIR + r"|(?:python3?|uv\s+run|bash|sh|zsh|node|deno\s+run|bun|ruby|perl|"
    r"Rscript|pwsh|tsx|npx\s+tsx)\s)"
)


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    listing = doc.listing
    own_scripts = listing.has_dir("scripts")
    seen: set[str] = set()
    columns = Columns(doc.line_text)
    for text, line in _code(doc):
        at_line, counted = line, 0
        for match in SCRIPT_PATH.finditer(text):
            # Lines counted from the last match on: one pass over the block, not one each.
            at_line += text.count("\n", counted, match.start())
            counted = match.start()
            path = posixpath.normpath(match.group("path").rstrip("."))
            if match.group("root"):
                written = match.group("root").removeprefix("./") + path
                if written in listing.files or listing.has_dir(written):
                    continue  # the skill's own skills/ folder: the path is one of its files
                if written not in seen:
                    seen.add(written)
                    yield _from_root(doc, written, match.group("skill"), path, at_line, columns)
                continue
            if path in seen or path in listing.files or listing.has_dir(path):
                continue
            # A skill the body names that ships the script: the command is that skill's.
            owner = facts.named_skill_holding(path)
            if not (own_scripts or match.group("prefix") or owner):
                continue  # no scripts/ folder here: it may be the project's own scripts/
            seen.add(path)
            column = columns.find(at_line, match.group(0))
            near = [f for f in listing.under("scripts") if f.startswith(path + ".")]
            if owner is not None:
                yield RULE.finding(
                    f"runs '{path}', which is not in the skill folder: it is the '{owner}' "
                    "skill's, and the command runs it from this skill's folder",
                    at_line,
                    column,
                    fix=f"Point the command at the '{owner}' skill's copy, or ship the script "
                    "in this skill's scripts/.",
                )
            elif len(near) == 1:
                yield RULE.finding(
                    f"runs '{path}', which is not in the skill folder; the script is '{near[0]}'",
                    at_line,
                    column,
                    fix=f"Write the script's full name: '{near[0]}'.",
                )
            else:
                yield RULE.finding(
                    f"runs '{path}', which is not in the skill folder",
                    at_line,
                    column,
                    fix=f"Add '{path}' to the skill, or correct the path.",
                )


def _from_root(
    doc: SkillDocument, written: str, skill: str, path: str, line: int, columns: Columns
) -> Finding:
    """A command that runs ``written`` (``skills/SKILL/scripts/…``) from a repository's root."""
    column = columns.find(line, written)
    if skill in {doc.folder.name, doc.name}:
        there = path in doc.listing.files or doc.listing.has_dir(path)
        return RULE.finding(
            f"runs '{written}', a path from the root of the repository that holds the skill: "
            "installed, the skill is not there, and the command fails"
            + ("" if there else f"; '{path}' is not in the skill folder either"),
            line,
            column,
            fix=f"Write the path from the skill's folder: '{path}'"
            + ("." if there else f", and ship '{path}' in the skill."),
        )
    return RULE.finding(
        f"runs '{written}', the '{skill}' skill's script by a path from the root of the "
        "repository that holds both: installed, the skills are not there, and the command fails",
        line,
        column,
        fix=f"Say that this skill needs the '{skill}' skill and run the script from that skill's "
        "folder, or ship a copy in this skill's scripts/.",
    )


def _code(doc: SkillDocument) -> Iterator[tuple[str, int]]:
    """Code the model may run: fenced and indented blocks, then code spans; each with the line
    its text starts on."""
    for block in doc.code_blocks:
        if "scripts/" in block.content:
            yield block.content, block.line + (1 if block.fenced else 0)
    for span in doc.inline_code:
        # A span that is only a path names a file ("`scripts/rotate.py` for rotation"); one
        # that runs it starts with an interpreter or the skill's folder.
        if "scripts/" in span.text and COMMAND.match(span.text):
            yield span.text, span.line


RULE = Rule(
    code="PE206",
    flag="MISSING_SCRIPT",
    name="missing-script",
    severity=Severity.WARNING,
    subscore="structural_completeness",
    summary="Every `scripts/…` path that code in the body runs (a fenced or indented block, or "
    "a code span) is a file or folder of the skill. Where the path lacks only its extension "
    "(`scripts/check_fields` for `scripts/check_fields.py`), the finding names the real file; "
    "where a sibling skill the body names ships it, the finding names that skill. A path "
    "written from the root of a repository that holds the skills (`skills/NAME/scripts/…`) "
    "works only in that checkout, and is reported with the path from the skill's folder.",
    why="The model runs the command as written; a script that is not there fails the step, and "
    "the model improvises instead of following the skill.",
    fix="Ship the script in the skill's scripts/ folder, or correct the path.",
    bad=Example(
        {"SKILL.md": BODY, "scripts/check_fields.py": SCRIPT},
        expect=(Expect("PE206", "SKILL.md", 11, 8),),
    ),
    good=Example(
        {
            "SKILL.md": BODY.replace("scripts/check_fields ", "scripts/check_fields.py "),
            "scripts/check_fields.py": SCRIPT,
        }
    ),
    source="plugin-eval; Agent Skills specification (scripts/)",
    limits="Only paths under scripts/ are checked, and only in code: any code block, and code "
    "spans that run the path (an interpreter first, or the skill's folder); a span that only "
    "names a file is a mention. A placeholder (`scripts/script_name.py`) is reported like any "
    "other path. When the skill has no "
    "scripts/ folder at all, a path is checked only if it is written from the skill's folder "
    "(`${CLAUDE_SKILL_DIR}/scripts/…`, `{baseDir}/scripts/…`) or a sibling skill the body "
    "names ships it (the finding then names that skill): otherwise it may name the user's "
    "project's own scripts/. A script built or downloaded by an earlier step is reported too. "
    "A `skills/NAME/` (or `./skills/NAME/`) before `scripts/` is read as a repository's root, "
    "whether NAME is this skill or another; one after another folder "
    "(`~/.claude/skills/NAME/`, `.claude/skills/NAME/`) is an installed skill's folder and is "
    "not.",
    links=(sources.SPEC,),
    check=check,
)
