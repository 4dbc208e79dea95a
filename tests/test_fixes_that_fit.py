"""Findings whose fix fits the case (a review of real skills' findings found each of these
wrong as written): a fix that a rule's own check would reject, one that makes a duplicate
key, one that runs a script with the wrong program, and a stray fence told to be closed.
And trigger phrasings that say when to use a skill without "Use when"."""

from __future__ import annotations

import pytest

from plugin_eval import triggering
from plugin_eval.results import SkillResult
from tests.conftest import MakeSkill, score

DESCRIPTION = "Scans Flask services for IDOR flaws. Use when auditing object ids, tenant checks, or API routes."


def _found(
    result: SkillResult, code: str
) -> list[tuple[str, str, int | None, int | None, str, str]]:
    return [
        (f.code, f.path, f.line, f.column, f.message, f.fix)
        for f in result.findings
        if f.code == code
    ]


def test_a_display_title_as_name_is_told_to_take_the_folders_valid_name(
    make_skill: MakeSkill,
) -> None:
    folder = make_skill(
        f"---\nname: IDOR Vulnerability Testing\ndescription: {DESCRIPTION}\n---\n\n# IDOR\n\nSteps.\n",
        folder="idor-testing",
    )
    result = score(folder)
    assert _found(result, "PE104") == [
        (
            "PE104",
            "idor-testing/SKILL.md",
            2,
            1,
            "name 'IDOR Vulnerability Testing' has uppercase letters; contains ' '",
            "Use the folder's name: 'name: idor-testing'.",
        )
    ]
    assert _found(result, "PE105") == [
        (
            "PE105",
            "idor-testing/SKILL.md",
            2,
            1,
            "name 'IDOR Vulnerability Testing' differs from the folder name 'idor-testing'",
            "Set 'name: idor-testing' ('IDOR Vulnerability Testing' is not a valid name, PE104).",
        )
    ]


def test_a_folder_whose_name_is_invalid_too_gets_one_valid_name_for_both(
    make_skill: MakeSkill,
) -> None:
    folder = make_skill(
        f"---\nname: IDOR Testing\ndescription: {DESCRIPTION}\n---\n\n# IDOR\n\nSteps.\n",
        folder="IDOR_Testing",
    )
    result = score(folder)
    (pe104,) = _found(result, "PE104")
    assert pe104[-1] == (
        "Use lowercase letters, digits and single hyphens, e.g. 'name: idor-testing' (and "
        "rename the folder to match)."
    )
    (pe105,) = _found(result, "PE105")
    assert pe105[-1] == "Give the folder and 'name' one valid name, e.g. 'idor-testing'."


def test_a_field_close_to_one_the_frontmatter_has_is_not_told_to_take_its_name(
    make_skill: MakeSkill,
) -> None:
    folder = make_skill(
        f"---\nname: example-skill\ndescription: {DESCRIPTION}\ndisplayName: IDOR scanner\n"
        "descripton: scans Flask\n---\n\n# IDOR\n\nSteps.\n"
    )
    assert _found(score(folder), "PE108") == [
        (
            "PE108",
            "example-skill/SKILL.md",
            4,
            1,
            "unknown frontmatter field 'displayName'",
            "Move it under 'metadata:' as a string value, or delete it.",
        ),
        (
            "PE108",
            "example-skill/SKILL.md",
            5,
            1,
            "unknown frontmatter field 'descripton' (a second 'description'?)",
            "Delete it, or move what it says into 'description'.",
        ),
    ]


@pytest.mark.parametrize(
    ("script", "command"),
    [
        ("scripts/scan.py", "python scripts/scan.py"),
        ("scripts/scan.sh", "bash scripts/scan.sh"),
        ("scripts/shots.js", "node scripts/shots.js"),
        ("scripts/report.R", "Rscript scripts/report.R"),
    ],
)
def test_an_unmentioned_script_is_run_by_its_own_program_in_the_fix(
    make_skill: MakeSkill, script: str, command: str
) -> None:
    folder = make_skill(
        f"---\nname: example-skill\ndescription: {DESCRIPTION}\n---\n\n# IDOR\n\nSteps.\n",
        files={script: "print('scan')\n"},
    )
    assert _found(score(folder), "PE208") == [
        (
            "PE208",
            "example-skill/SKILL.md",
            None,
            None,
            f"'{script}' is never mentioned in SKILL.md, so the model never runs it",
            f"Say when to run it (`{command} …`) and what it prints, or remove it.",
        )
    ]


def test_a_fence_with_nothing_after_it_is_called_stray_not_unclosed_code(
    make_skill: MakeSkill,
) -> None:
    body = "# IDOR\n\n## Steps\n\n```bash\ncurl /api/orders/2\n```\n\nDone.\n\n```\n"
    folder = make_skill(f"---\nname: example-skill\ndescription: {DESCRIPTION}\n---\n\n{body}")
    assert _found(score(folder), "PE304") == [
        (
            "PE304",
            "example-skill/SKILL.md",
            16,
            1,
            "stray code fence: it opens a block that holds nothing and is never closed",
            "Delete this fence, or, if a block above lost its opening fence, add that fence "
            "back: fences pair from the top of the file.",
        )
    ]


@pytest.mark.parametrize(
    ("description", "phrase"),
    [
        (
            "Edits Word documents. When Claude needs to work with .docx files for: creating "
            "reports, tracking changes, or adding comments.",
            "When Claude needs to",
        ),
        (
            "Shopify apps. TRIGGER: building Liquid themes, storefront APIs, checkout UI.",
            "TRIGGER:",
        ),
        (
            "Terraform plans. Activates when editing modules, reviewing plans, or drift.",
            "Activates when",
        ),
        (
            "Security review. Invoked when reviewing auth flows, secrets, or session handling.",
            "Invoked when",
        ),
    ],
)
def test_a_trigger_without_use_when_is_read_as_one(description: str, phrase: str) -> None:
    analysis = triggering.analyse(description)
    assert (analysis.has_trigger, analysis.trigger_phrase) == (True, phrase)
    assert len(analysis.contexts) >= 3
