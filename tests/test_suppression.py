"""Suppression comments: every documented form works, the broken ones are reported."""

from __future__ import annotations

from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.results import SkillResult
from tests.conftest import MakeSkill

HEAD = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n"
)


def _score(folder: Path, config: Config | None = None) -> SkillResult:
    return score_skill(folder, config or Config(), "s")


def _found(result: SkillResult) -> list[tuple[str, int | None, int | None]]:
    return [(f.code, f.line, f.column) for f in result.findings]


def test_every_body_form_hides_the_link_on_its_line_or_the_next(make_skill: MakeSkill) -> None:
    body = (
        "---\n\n# S\n\n"
        "See [a](references/a.md). <!--plugin-eval:ignore PE201-->\n\n"  # 8: no spaces
        "See [b](references/b.md). <!-- plugin-eval: ignore -->\n\n"  # 10: every code
        "<!-- plugin-eval: ignore ORPHAN_REFERENCE -->\n"  # 12: a flag, covering line 13
        "See [c](references/c.md).\n\n"
        "<!-- plugin-eval: ignore: pe201, PE202 -->\n"  # 15: colon, lower case, a list
        "See [d](references/d.md).\n"
    )
    result = _score(make_skill(HEAD + body))
    assert _found(result) == [("PE009", 15, 34)]  # PE202 hid nothing
    assert result.suppressed == 4


def test_a_yaml_comment_covers_its_own_key_only(make_skill: MakeSkill) -> None:
    text = HEAD + "version: 2  # plugin-eval: ignore PE108\ncolour: red\n---\n\n# S\n\nSteps.\n"
    assert _found(_score(make_skill(text))) == [("PE108", 5, 1)]


def test_a_yaml_comment_alone_covers_the_key_below(make_skill: MakeSkill) -> None:
    text = HEAD + "# plugin-eval: ignore PE108\ncolour: red\n---\n\n# S\n\nSteps.\n"
    assert _found(_score(make_skill(text))) == []


def test_an_unknown_code_is_a_warning_at_the_code(make_skill: MakeSkill) -> None:
    text = HEAD + "---\n\n# S\n\nSee [a](references/a.md). <!-- plugin-eval: ignore PE2O1 -->\n"
    result = _score(make_skill(text))
    assert _found(result) == [("PE201", 8, 5), ("PE008", 8, 52)]
    assert result.findings[1].severity.value == "warning"


def test_a_suppression_that_hides_nothing_is_reported(make_skill: MakeSkill) -> None:
    text = HEAD + "---\n\n# S\n\n<!-- plugin-eval: ignore -->\nSteps.\n"
    result = _score(make_skill(text))
    assert _found(result) == [("PE009", 8, 6)]
    assert result.findings[0].severity.value == "info"


def test_codes_of_rules_that_did_not_run_are_never_unused(make_skill: MakeSkill) -> None:
    text = HEAD + "---\n\n# S\n\nSee [a](references/a.md). <!-- plugin-eval: ignore PE201 -->\n"
    folder = make_skill(text)
    assert _found(_score(folder, Config(ignore=["PE201"]))) == []
    assert _found(_score(folder, Config(ignore=["PE009"]))) == []


def test_suppression_codes_lower_no_score(make_skill: MakeSkill) -> None:
    folder = make_skill(HEAD + "---\n\n# S\n\n<!-- plugin-eval: ignore PE2O1 -->\nSteps.\n")
    reported, ignored = _score(folder), _score(folder, Config(ignore=["PE008"]))
    assert [f.code for f in reported.findings] == ["PE008"] and not ignored.findings
    assert reported.composite == ignored.composite
    assert reported.subscores == ignored.subscores


def test_a_skill_md_comment_never_hides_a_finding_in_another_file(make_skill: MakeSkill) -> None:
    # PE212 reports at line 3 of references/details.md; the comment covers lines 8-9 of
    # SKILL.md. A comment that covered line 3 of SKILL.md would not hide it either.
    body = (
        "---\n\n# S\n\n<!-- plugin-eval: ignore PE212 -->\n"  # 8, covering 8 and 9
        "Detail is in [the guide](references/details.md) and [more](references/more.md).\n"
    )
    details = "# Details\n\nSee [more](references/more.md).\n"  # the link on line 3
    folder = make_skill(
        HEAD + body, files={"references/details.md": details, "references/more.md": "# M\n"}
    )
    result = _score(folder)
    assert [(f.code, f.path, f.line) for f in result.findings] == [
        ("PE009", "s/SKILL.md", 8),
        ("PE212", "s/references/details.md", 3),
    ]
    assert result.suppressed == 0
    # Turned off by the configuration instead.
    assert "PE212" not in {f.code for f in _score(folder, Config(ignore=["PE212"])).findings}


def test_a_reason_after_the_codes_ends_them(make_skill: MakeSkill) -> None:
    """Words that cannot be codes end the list, so a reason may follow it; a mistyped code
    (`PE2O1`, with a letter O) is still read as one, and reported."""
    body = (
        "---\n\n# S\n\n"
        "<!-- plugin-eval: ignore PE201 because the file is written at release time -->\n"  # 8
        "See [a](references/a.md).\n\n"
        "<!-- plugin-eval: ignore PE2O1 draft -->\n"  # 11
        "See [b](references/b.md).\n"
    )
    result = _score(make_skill(HEAD + body))
    assert _found(result) == [("PE008", 11, 26), ("PE201", 12, 5)]
    assert result.suppressed == 1


def test_a_rule_name_suppresses_that_rule_only(make_skill: MakeSkill) -> None:
    body = (
        "---\n\n# S\n\n"
        "<!-- plugin-eval: ignore orphan-reference -->\n"  # 8: covers line 9
        "See [a](references/a.md).\n\n"
        "<!-- plugin-eval: ignore missing-script -->\n"  # 11: another rule's name
        "See [b](references/b.md).\n"
    )
    result = _score(make_skill(HEAD + body))
    # The link under a name of another rule stays reported; that name hid nothing.
    assert _found(result) == [("PE009", 11, 26), ("PE201", 12, 5)]
    assert result.suppressed == 1


def test_a_misspelt_flag_or_name_is_reported_and_hides_nothing(make_skill: MakeSkill) -> None:
    """Read as a reason, either would have made the comment one that hides every code (an
    error included), in silence."""
    body = (
        "---\n\n# S\n\n"
        "<!-- plugin-eval: ignore orphan_refernce -->\n"  # 8: a flag in lower case, misspelt
        "See [a](references/a.md).\n\n"
        "<!-- plugin-eval: ignore mising-script because it is a draft -->\n"  # 11
        "See [b](references/b.md).\n"
    )
    result = _score(make_skill(HEAD + body))
    assert _found(result) == [
        ("PE008", 8, 26),
        ("PE201", 9, 5),
        ("PE008", 11, 26),
        ("PE201", 12, 5),
    ]
    assert result.suppressed == 0
    unknown = [(f.message, f.fix) for f in result.findings if f.code == "PE008"]
    assert unknown == [
        (
            "'ORPHAN_REFERNCE' in a suppression comment is not a rule's code, flag or name",
            "Did you mean PE201 (ORPHAN_REFERENCE, orphan-reference)? Write that instead.",
        ),
        (
            "'mising-script' in a suppression comment is not a rule's code, flag or name",
            "Did you mean PE206 (MISSING_SCRIPT, missing-script)? Write that instead.",
        ),
    ]


def test_a_finding_with_no_line_is_pointed_to_per_path_ignores(make_skill: MakeSkill) -> None:
    """An unmentioned script is reported on SKILL.md without a line: no comment covers it,
    and the PE009 fix says what turns it off instead of only "remove the code"."""
    text = HEAD + "---\n\n<!-- plugin-eval: ignore PE208 -->\n# S\n\nSteps.\n"
    folder = make_skill(text, files={"scripts/tool.py": "print(1)\n"})
    result = _score(folder)
    assert _found(result) == [("PE208", None, None), ("PE009", 6, 26)]
    (unused,) = [f for f in result.findings if f.code == "PE009"]
    assert unused.fix == (
        "PE208's findings here have no line for a comment to cover: turn them off with the "
        "configuration's per-path-ignores (or --ignore PE208), and remove PE208 from the comment."
    )
