"""PE208: every script shipped in scripts/ is one the skill tells the model about."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from plugin_eval import budgets, regexes
from plugin_eval.analysis import Facts, written
from plugin_eval.document import SkillDocument
from plugin_eval.findings import Finding, Severity
from plugin_eval.rules import sources
from plugin_eval.rules.base import Example, Expect, Rule, Setting, per_folder
from plugin_eval.walk import read_file

# The scripts read, by suffix, and the program that runs each (the command a body would
# write for it, which a fix suggests).
PROGRAMS = {
    ".py": "python",
    ".sh": "bash",
    ".bash": "bash",
    ".js": "node",
    ".mjs": "node",
    ".cjs": "node",
    ".ts": "npx tsx",
    ".rb": "ruby",
    ".pl": "perl",
    ".r": "Rscript",
    ".ps1": "pwsh -File",
}
SCRIPT_SUFFIXES = tuple(PROGRAMS)
# `_private.py`, `__init__.py`, `test_x.py`, `x_test.py`, `x.test.js`, `x.spec.ts`.
_TEST = regexes.compile(r"/(?:_|test_)|[_.](?:test|spec)\.[a-z0-9]+$", re.IGNORECASE)
HEAD = (
    "---\nname: example-skill\ndescription: Validates CSV exports. Use when checking column "
    "names, finding blank rows, or comparing two exports.\n---\n\n# Example skill\n\n"
)
BODY = HEAD + "Check the header:\n\n```bash\npython scripts/check_fields.py data.csv\n```\n"
CHECK = "import sys\n\nprint(sys.argv[1])\n"


def shipped_scripts(doc: SkillDocument) -> list[str]:
    """The scripts the model is meant to run: programs (by suffix) in scripts/ itself.
    Subfolders hold their libraries, and tests are run by the author, not by the model."""
    return [
        f
        for f in doc.listing.under("scripts")
        if f.count("/") == 1 and f.lower().endswith(SCRIPT_SUFFIXES) and not _TEST.search(f)
    ]


def check(doc: SkillDocument, facts: Facts) -> Iterator[Finding]:
    scripts = shipped_scripts(doc)
    unreached = [f for f in scripts if f not in facts.mentioned_files]
    if not unreached:
        return
    reached = facts.reached(unreached)
    # A script whose file name SKILL.md writes is known to the model, even where the name is
    # shared (`python research_lookup.py` with a copy at the top and one in scripts/).
    text = doc.text
    unreached = [
        f
        for f in unreached
        if f not in reached and not written(posixpath.basename(f), text) and not _imported(f, text)
    ]
    if not unreached:
        return
    # A helper a mentioned script imports or calls is used through it, and so is one named as
    # its part (`render_ai.py` beside `render.py`: the wrapper the body runs and its backend).
    mentioned = [f for f in scripts if f not in unreached]
    used = _named_by(doc, mentioned, unreached) | _parts_of(mentioned, unreached)
    used |= _written_as_path(facts, [f for f in unreached if f not in used])
    for folder, paths, shown in per_folder(f for f in unreached if f not in used):
        if shown is not None:
            yield RULE.finding(
                f"{len(paths):,} scripts under '{folder}/' ({shown}) are never mentioned in "
                "SKILL.md, so the model never runs them",
                fix=f"Say in SKILL.md when to run each script in '{folder}/' and what it prints, "
                "or remove the ones no step needs.",
            )
            continue
        for path in paths:
            yield RULE.finding(
                f"'{path}' is never mentioned in SKILL.md, so the model never runs it",
                fix=f"Say when to run it (`{PROGRAMS[posixpath.splitext(path)[1].lower()]} "
                f"{path} …`) and what it prints, or remove it.",
            )


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


def _imported(path: str, text: str) -> bool:
    """Whether ``text`` imports the Python script at ``path`` as a module: ``scripts.render``
    (``from scripts.render import …``), or ``import render`` / ``from render import …``."""
    if not path.lower().endswith(".py"):
        return False
    stem = re.escape(_stem(path))
    dotted = re.escape(posixpath.splitext(path)[0].replace("/", "."))
    return (
        re.search(rf"(?<![\w.]){dotted}(?![\w-])|\b(?:from|import)\s+{stem}(?![\w.-])", text)
        is not None
    )


def _written_as_path(facts: Facts, wanted: list[str]) -> set[str]:
    """Of ``wanted``, the scripts whose path SKILL.md or a Markdown file it links writes, in
    code or prose, with or without the suffix (`./scripts/export.sh` in a linked guide's code
    block; `python scripts/check_fields <file>`, whose missing suffix PE206 reports in
    SKILL.md): the model is told to run them. Each text is read once, for the names written
    after `scripts/`, however many scripts are wanted."""
    if not wanted:
        return set()
    written_names: set[str] = set()
    texts = [facts.doc.text] + [
        raw.decode("utf-8", "replace") for raw in facts.linked_texts.values()
    ]
    for text in texts:
        if "scripts/" in text:
            written_names.update(m.group(1).rstrip(".") for m in _SCRIPT_NAME.finditer(text))
    return {
        f for f in wanted if posixpath.basename(f) in written_names or _stem(f) in written_names
    }


# A name written right after `scripts/`, as a path or a command writes it: from the skill's
# folder, `./` or a variable for it (`${CLAUDE_SKILL_DIR}/`), not inside another path
# (`skills/other/scripts/x.py` is another skill's).
_SCRIPT_NAME = regexes.compile(
    r"(?:(?<![\w/.$-])|(?<=(?<![\w.])\./)|(?<=\}/))scripts/([\w.-]+)(?![\w/-])"
)


def _parts_of(mentioned: list[str], wanted: list[str]) -> set[str]:
    """Of ``wanted``, the scripts whose name is a mentioned script's name and a suffix after
    ``_`` or ``-`` (``render_ai.py``, ``render-worker.sh`` for ``render.py``)."""
    stems = {_stem(f).lower() for f in mentioned}
    return {
        f
        for f in wanted
        if any(
            _stem(f).lower().startswith(s) and _stem(f)[len(s) : len(s) + 1] in ("_", "-")
            for s in stems
        )
    }


def _named_by(doc: SkillDocument, readers: list[str], wanted: list[str]) -> set[str]:
    """Of ``wanted``, the scripts whose name (without extension) the ``readers`` write."""
    stems = {f: re.escape(_stem(f)) for f in wanted}
    found: set[str] = set()
    for rel in readers[: budgets.LINKED_FILES_READ]:
        try:
            text = read_file(doc.folder / rel, budgets.LINKED_FILE_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        for f, stem in stems.items():
            if f not in found and re.search(rf"(?<![\w-]){stem}(?![\w-])", text):
                found.add(f)
    return found


RULE = Rule(
    code="PE208",
    flag="UNMENTIONED_SCRIPT",
    name="unmentioned-script",
    severity=Severity.INFO,
    subscore="progressive_disclosure",
    summary="Each script directly in scripts/ (Python, shell, JavaScript, TypeScript, Ruby, "
    "Perl, R, PowerShell; not tests, not `_private` files) can be found from SKILL.md: named there, in a folder the body tells the model "
    "to search or look in, in a Markdown file SKILL.md links, or used by a script that is (its name "
    "written in that script, or that script's name and a suffix: `render_ai.py` beside "
    "`render.py`). More than three in one folder are one finding.",
    why="The model runs what SKILL.md tells it about; a script nobody mentions is never run, "
    "and the step it was written for is done by hand instead.",
    fix="Name the script where the step needs it, with its arguments and what it prints.",
    bad=Example(
        {"SKILL.md": BODY, "scripts/check_fields.py": CHECK, "scripts/fix_dates.py": CHECK},
        expect=(Expect("PE208", "SKILL.md", None, None),),
    ),
    good=Example(
        {
            "SKILL.md": BODY,
            "scripts/check_fields.py": "from dates import parse\n" + CHECK,
            "scripts/dates.py": "def parse(text):\n    return text\n",
        }
    ),
    source="plugin-eval; Agent Skills specification (scripts/)",
    settings=(
        Setting("LINKED_FILES_READ", "mentioned scripts read for the helpers they use"),
        Setting("LINKED_FILE_BYTES", "bytes read of each"),
    ),
    limits="A script counts as mentioned when SKILL.md or a Markdown file it links writes its "
    "path, with or without the suffix, in code or prose. "
    "A helper counts as used when a mentioned script writes its file name without the "
    "extension (`from dates import parse`, `./dates.sh`), or when its name is a mentioned "
    "script's and a suffix after `_` or `-` (`render_ai.py`, `render-worker.sh` beside "
    "`render.py`: the wrapper the body runs and the backend it loads); a helper used only through another "
    "helper, or loaded by a computed name, is reported. Subfolders of scripts/ (libraries), tests and files starting with `_` are "
    "never reported. The finding has no "
    "line, since the missing mention has no place yet.",
    links=(sources.SPEC,),
    check=check,
)
