"""Mechanisms behind findings that read wrong on published skills, each in a small skill of
its own: a file named inside a longer path, a tool named in what not to do, a user's phrase
after "Use when:", a metadata value YAML reads as a date, a fix that would break another
rule, a description cut at a length limit, a suppression comment with no space before its
`-->`."""

from __future__ import annotations

from pathlib import Path

import pytest

from plugin_eval.findings import Finding
from plugin_eval.rules.pe105_name_folder_mismatch import _fix as name_fix
from tests.conftest import MakeSkill, frontmatter, score, write_files

DESCRIPTION = "Keeps a plan in files. Use when starting a long task, or recording findings."


def of(findings: tuple[Finding, ...], code: str) -> list[tuple[str, int | None, int | None]]:
    return [(f.path.rsplit("/", 1)[-1], f.line, f.column) for f in findings if f.code == code]


def test_a_file_name_inside_a_longer_path_does_not_name_the_skills_file(tmp_path: Path) -> None:
    # `docs/README.md` is the user's; the skill's README.md, which links on, is not named.
    write_files(
        tmp_path / "planner",
        {
            "SKILL.md": frontmatter(DESCRIPTION, name="planner")
            + "# Planner\n\nRead the user's `docs/README.md` first.\n",
            "README.md": "# Planner\n\nUpdate [the log](CHANGELOG.md) when done.\n",
            "CHANGELOG.md": "# Log\n",
        },
    )
    assert of(score(tmp_path / "planner").findings, "PE207") == []


def test_a_script_named_through_the_skill_folder_is_mentioned(tmp_path: Path) -> None:
    body = (
        "# Pusher\n\n```bash\nbash ~/.claude/skills/pusher/scripts/push.sh\n"
        "python ${CLAUDE_SKILL_DIR}/scripts/check.py\n```\n"
    )
    write_files(
        tmp_path / "pusher",
        {
            "SKILL.md": frontmatter(DESCRIPTION, name="pusher") + body,
            "scripts/push.sh": "echo push\n",
            "scripts/check.py": "print('ok')\n",
            "scripts/other.py": "print('unused')\n",
        },
    )
    unmentioned = [f.message for f in score(tmp_path / "pusher").findings if f.code == "PE208"]
    assert [m.split("'")[1] for m in unmentioned] == ["scripts/other.py"]


def test_a_script_imported_as_a_module_or_named_as_a_scripts_part_is_reached(
    tmp_path: Path,
) -> None:
    # `render_ai.py` is the backend of the `render.py` the body runs (its name and a suffix);
    # `layout.py` is imported as `scripts.layout`; `renderer.py` and `batch.py` are neither.
    body = (
        "# Posters\n\nDraw each poster:\n\n```bash\npython scripts/render.py poster.json\n```\n\n"
        "Or from Python:\n\n```python\nfrom scripts.layout import grid\n```\n"
    )
    files = {
        "scripts/render.py": "",
        "scripts/render_ai.py": "",
        "scripts/layout.py": "def grid():\n    return []\n",
        "scripts/renderer.py": "",
        "scripts/batch.py": "",
    }
    assert _unmentioned(tmp_path, "posters", body, files) == [
        "scripts/batch.py",
        "scripts/renderer.py",
    ]


def _unmentioned(tmp_path: Path, name: str, body: str, files: dict[str, str]) -> list[str]:
    """The scripts PE208 reports in the skill ``name``, each finding checked to be placed on
    SKILL.md with no line (the missing mention has no place)."""
    write_files(tmp_path / name, {"SKILL.md": frontmatter(DESCRIPTION, name=name) + body, **files})
    found = [f for f in score(tmp_path / name).findings if f.code == "PE208"]
    assert [(f.path, f.line, f.column) for f in found] == [(f"{name}/SKILL.md", None, None)] * len(
        found
    )
    return [f.message.split("'")[1] for f in found]


def test_a_script_whose_path_a_linked_guide_writes_or_a_command_misses_the_suffix_of_is_reached(
    tmp_path: Path,
) -> None:
    # forms.md (linked) runs `scripts/check_fields` without '.py' and shows `./scripts/export.sh`
    # in a code block; `scripts/prune.py` is named nowhere and `scripts/check_fieldsx.py` only
    # shares the start of a name.
    body = "# Forms\n\nFor fillable forms, read [forms.md](forms.md).\n"
    files = {
        "forms.md": "# Forms\n\nFirst run `python scripts/check_fields <file.pdf>`.\n\n"
        "```bash\n./scripts/export.sh out/\n```\n",
        "scripts/check_fields.py": "",
        "scripts/export.sh": "",
        "scripts/prune.py": "",
        "scripts/check_fieldsx.py": "",
    }
    assert _unmentioned(tmp_path, "forms", body, files) == [
        "scripts/check_fieldsx.py",
        "scripts/prune.py",
    ]


def test_a_tool_in_a_dont_column_or_after_a_negation_is_not_an_instruction(
    make_skill: MakeSkill,
) -> None:
    body = (
        "# Planning\n\n| Do | Don't |\n|----|-------|\n"
        "| Create task_plan.md | Use TodoWrite for persistence |\n"
        "| Use WebFetch to load the page | Guess |\n\n"
        "Don't use WebFetch for local files. Use WebFetch to load the docs.\n"
    )
    findings = [
        f for f in score(make_skill(frontmatter(DESCRIPTION) + body)).findings if f.code == "PE403"
    ]
    # The Do cell and the last sentence remain: one finding for the tool, at its first phrase.
    assert of(tuple(findings), "PE403") == [("SKILL.md", 14, 3)]
    assert findings[0].message == (
        "'Use WebFetch' assumes Claude Code's tool names (2 times in all; also line(s) 16)"
    )


def test_my_in_a_list_of_what_users_say_is_theirs(make_skill: MakeSkill) -> None:
    description = "Builds small command-line tools. Use when: build a tool, scratch my itch."
    assert (
        of(score(make_skill(frontmatter(description) + "# T\n\nSteps.\n")).findings, "PE113") == []
    )


@pytest.mark.parametrize(
    ("description", "quoted", "column"),
    [
        # The user's situation, after the word that makes it a condition, is not the voice.
        ("Recovers lost Git commits. Use when you can't find a commit after a reset.", None, 0),
        ("Bisects failing CI runs. Use if your build fails only on the merge queue.", None, 0),
        ("Plans rollbacks. Use after you must revert a migration in production.", None, 0),
        # Addressed to the reader, even beside a condition further on: at the words.
        ("You can't push binaries with it. Use when you need Git LFS.", "You can", 14),
        ("Tunes queries before they bring down your server.", "your", 51),
    ],
)
def test_a_condition_about_the_users_situation_is_not_the_second_person(
    make_skill: MakeSkill, description: str, quoted: str | None, column: int
) -> None:
    found = [
        f
        for f in score(make_skill(frontmatter(description) + "# T\n\nSteps.\n")).findings
        if f.code == "PE113"
    ]
    if quoted is None:
        assert found == []
    else:
        [finding] = found
        assert (finding.path, finding.line, finding.column) == ("example-skill/SKILL.md", 3, column)
        assert finding.message.endswith(f"('{quoted}')")


def test_the_first_person_or_second_quoted_is_the_first_written(make_skill: MakeSkill) -> None:
    description = "Your team's notes, sorted into folders. I can also tag them by project."
    [finding] = [
        f
        for f in score(make_skill(frontmatter(description) + "# T\n\nSteps.\n")).findings
        if f.code == "PE113"
    ]
    assert (finding.line, finding.column) == (3, 14)
    assert finding.message.endswith("('Your')")


def test_a_description_finding_points_at_its_words_in_a_folded_or_quoted_value(
    make_skill: MakeSkill,
) -> None:
    """Read across the folded value's line breaks and indentation, and past an earlier 'my'
    inside quotes (a user's words, not the voice), to the words themselves."""
    head = (
        '---\nname: example-skill\ndescription: >\n  Sorts notes into folders ("tag my notes").\n'
        "  Use when notes pile up. I can also\n  tag them by project. HIGHEST\n"
        "  PRIORITY for notes.\n---\n\n# T\n\nSteps.\n"
    )
    found = {
        f.code: (f.path, f.line, f.column, f.message, f.fix)
        for f in score(make_skill(head)).findings
        if f.code in ("PE113", "PE114")
    }
    assert found["PE113"][:4] == (
        "example-skill/SKILL.md",
        5,
        27,
        "description speaks in the first or second person ('I can')",
    )
    assert found["PE113"][4] == (
        "Reword 'I can' in the third person, as what the skill does ('Formats …', 'Use when "
        "the user …'), not as the model or the reader speaking."
    )
    assert found["PE114"][:3] == ("example-skill/SKILL.md", 6, 24)


def test_a_metadata_date_gets_a_fix_that_quotes_it(make_skill: MakeSkill) -> None:
    head = frontmatter(DESCRIPTION, extra="metadata:\n  updated: 2024-01-05\n")
    [finding] = [
        f for f in score(make_skill(head + "# T\n\nSteps.\n")).findings if f.code == "PE109"
    ]
    # At the entry, a warning: the reference validator reads it as text, other loaders as a date.
    assert (finding.line, finding.column, finding.severity.value) == (5, 3, "warning")
    assert finding.fix == 'Quote the value so that YAML reads it as text: updated: "2024-01-05".'
    # A list under metadata is never text: an error, at its entry.
    head = frontmatter(DESCRIPTION, extra="metadata:\n  author: Ann\n  tags:\n    - csv\n")
    [finding] = [
        f for f in score(make_skill(head + "# T\n\nSteps.\n")).findings if f.code == "PE109"
    ]
    assert (finding.line, finding.column, finding.severity.value) == (6, 3, "error")


def test_a_name_fix_never_proposes_a_reserved_word() -> None:
    assert name_fix("Claude Code Guide", "claude-code-guide") == (
        "Give the folder and 'name' one valid name without 'claude' or 'anthropic', e.g. "
        "'code-guide'."
    )
    assert name_fix("csv-tools", "claude-csv") == (
        "Rename the folder to 'csv-tools' ('claude-csv' holds a reserved word, PE112)."
    )


def test_the_name_fixes_agree_when_the_folder_holds_a_reserved_word(tmp_path: Path) -> None:
    """PE104 no longer proposes the folder's name when it holds 'claude' (PE112 would then
    fire on it); PE112 proposes the same name, and says to rename the folder too."""
    head = "---\nname: Claude Code Guide\ndescription: " + DESCRIPTION + "\n---\n\n# T\n\nSteps.\n"
    write_files(tmp_path / "claude-code-guide", {"SKILL.md": head})
    found = {
        f.code: (f.path, f.line, f.column, f.fix)
        for f in score(tmp_path / "claude-code-guide").findings
        if f.code in ("PE104", "PE112")
    }
    assert found == {
        "PE104": (
            "claude-code-guide/SKILL.md",
            2,
            1,
            "Use lowercase letters, digits and single hyphens, e.g. 'name: code-guide' (and "
            "rename the folder to match).",
        ),
        "PE112": (
            "claude-code-guide/SKILL.md",
            2,
            1,
            "Name the skill after what it does, e.g. 'name: code-guide', and rename the folder "
            "to match.",
        ),
    }


def test_a_description_cut_at_200_characters_is_reported(make_skill: MakeSkill) -> None:
    """Cut before any trigger, PE102's fix says to restore it: the cut most likely took it."""
    cut = (
        "Scaffolds TypeScript projects with strict settings, path aliases, test "
        "runners, linting, formatting and release scripts, set up the way modern tooling "
        "expects them (pnpm, Vite, Node 22, Vitest, ESLint"
    )
    text = (
        "Triages service incidents from alerts and logs, ranks likely causes, drafts the "
        "timeline and the status update for stakeholders, and proposes the next checks "
        "when an incident is open and its cause and"
    )
    assert len(cut) == len(text) == 200
    found = score(make_skill(frontmatter(cut) + "# T\n\nSteps.\n")).findings
    [missing] = [f for f in found if f.code == "PE102"]
    assert (missing.path, missing.line, missing.column) == ("example-skill/SKILL.md", 3, 1)
    assert missing.fix == (
        "Restore the description in full (it stops at 200 characters, where tools cut text): "
        "what was cut is often the 'Use when …' clause; add one if not."
    )
    assert of(found, "PE115") == [("SKILL.md", 3, 1)]
    found = score(make_skill(frontmatter(text) + "# T\n\nSteps.\n")).findings
    assert of(found, "PE115") == [("SKILL.md", 3, 1)]
    closed = text[:199] + "."
    assert of(score(make_skill(frontmatter(closed) + "# T\n\nSteps.\n")).findings, "PE115") == []


def test_a_suppression_closed_without_a_space_names_its_code(make_skill: MakeSkill) -> None:
    body = "# T\n\nSee [the plan](references/plan.md). <!--plugin-eval:ignore ORPHAN_REFERENCE-->\n"
    found = score(make_skill(frontmatter(DESCRIPTION) + body)).findings
    assert [f.code for f in found if f.code in ("PE201", "PE008", "PE009")] == []
    assert score(make_skill(frontmatter(DESCRIPTION) + body)).suppressed == 1


def test_a_file_to_open_is_missing_even_when_the_sentence_speaks_of_examples(
    make_skill: MakeSkill,
) -> None:
    body = (
        "# T\n\n- If detailed examples are required, open `resources/implementation-playbook.md`.\n"
        "- **`references/chart_types.md`** - catalogue of chart types with examples\n"
        "- For example: `references/sample.md`.\n"
    )
    found = score(make_skill(frontmatter(DESCRIPTION) + body)).findings
    assert of(found, "PE211") == [("SKILL.md", 11, 44), ("SKILL.md", 12, 6)]


def test_an_argument_hint_in_brackets_is_a_note_with_the_quoted_form(
    make_skill: MakeSkill,
) -> None:
    head = frontmatter(DESCRIPTION, extra="argument-hint: [file]\n")
    [finding] = [
        f for f in score(make_skill(head + "# T\n\nSteps.\n")).findings if f.code == "PE109"
    ]
    assert (finding.line, finding.column, finding.severity.value) == (4, 1, "info")
    assert finding.fix == 'Quote it so that every reader gets the text: argument-hint: "[file]".'
    # With a colon the brackets hold a mapping, which strict YAML rejects: a warning.
    head = frontmatter(DESCRIPTION, extra="argument-hint: [optional: date]\n")
    [finding] = [
        f for f in score(make_skill(head + "# T\n\nSteps.\n")).findings if f.code == "PE109"
    ]
    assert (finding.line, finding.column, finding.severity.value) == (4, 1, "warning")
    assert finding.message == (
        "'argument-hint' is read by YAML as a list ([optional: date]), not the text it shows, "
        "and as a list holding a mapping, which the reference validator's strict YAML rejects "
        "with the whole frontmatter"
    )
    assert (
        finding.fix
        == 'Quote it so that every reader gets the text: argument-hint: "[optional: date]".'
    )


def test_a_dont_column_is_read_per_table_and_never_hides_a_do_cell(
    make_skill: MakeSkill,
) -> None:
    body = (
        "# T\n\n| Don't | Do |\n|---|---|\n| guess | check |\n\n"
        "| Step | Action |\n|---|---|\n| Use WebFetch to load the page | then parse |\n"
    )
    found = score(make_skill(frontmatter(DESCRIPTION) + body)).findings
    assert of(found, "PE403") == [("SKILL.md", 17, 3)]


def test_an_argument_hint_written_as_a_block_list_is_an_error_of_its_type(
    make_skill: MakeSkill,
) -> None:
    head = frontmatter(DESCRIPTION, extra="argument-hint:\n  - file\n")
    [finding] = [
        f for f in score(make_skill(head + "# T\n\nSteps.\n")).findings if f.code == "PE109"
    ]
    assert (finding.line, finding.severity.value) == (4, "error")
    assert finding.message == "'argument-hint' should be a string, got a list"


def test_a_file_named_from_the_current_folder_is_mentioned(tmp_path: Path) -> None:
    body = "# Runner\n\n```bash\npython ./scripts/run.py\ncat ./references/api.md\n```\n"
    write_files(
        tmp_path / "runner",
        {
            "SKILL.md": frontmatter(DESCRIPTION, name="runner") + body,
            "scripts/run.py": "print('ok')\n",
            "references/api.md": "# API\n",
        },
    )
    found = score(tmp_path / "runner").findings
    assert [f.code for f in found if f.code in ("PE204", "PE208")] == []


def test_a_tool_phrase_at_a_sentences_start_is_read_as_in_one(make_skill: MakeSkill) -> None:
    # "Use Task tool …" and "The Read tool …" open a sentence with a capital and no "the".
    body = (
        "# Planner\n\n"
        '- Use Task tool with subagent_type="database-architect" to draft the schema.\n'
        "- The Read tool loads each migration first.\n"
        "- Review the draft against the query patterns.\n"
    )
    found = score(make_skill(frontmatter(DESCRIPTION) + body)).findings
    assert of(found, "PE403") == [("SKILL.md", 11, 3), ("SKILL.md", 12, 3)]


def test_a_pronoun_is_found_as_a_whole_word_and_a_bracket_inside_a_word(
    make_skill: MakeSkill,
) -> None:
    """'us' at the end of 'focus' is not the pronoun written later; a '>' right after a
    letter is found where it is written."""
    description = "Keeps the focus on tests for us. Use when a>b checks fail, or tests flake."
    found = {
        f.code: (f.line, f.column)
        for f in score(make_skill(frontmatter(description) + "# T\n\nSteps.\n")).findings
        if f.code in ("PE113", "PE107")
    }
    assert found == {"PE113": (3, 43), "PE107": (3, 57)}
