"""Sub-scores read the parse and explain themselves with evidence."""

from __future__ import annotations

import pytest

from tests.conftest import MakeSkill, score

HEAD = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n"
)

ORCHESTRATOR = (
    HEAD
    + """# Release manager

You will first assess the situation, then dispatch work. Delegate the build to the
build-agent, coordinate the reviewers, and orchestrate the deploy. Call the qa-runner agent
and loop until every check passes.
"""
)

WORKER_PROSE = (
    HEAD
    + """# CSV cleanup

Clean the file. Trim spaces in every cell and lowercase the header names.
Then write the cleaned file next to the original.
"""
)

WORKER_CONTRACT = (
    HEAD
    + """# CSV cleanup

## Input

- `path`: the CSV file to clean.

## Steps

```bash
csvclean data.csv
```

```python
rows = read(path)
```

## Output

```json
{"cleaned_path": "string", "rows": 0, "renamed_columns": ["string"]}
```
"""
)


def _orchestration(folder_text: str, make_skill: MakeSkill) -> float:
    return score(make_skill(folder_text)).subscores["orchestration_wiring"].score


def test_orchestration_bands_follow_the_rubric(make_skill: MakeSkill) -> None:
    agent = _orchestration(ORCHESTRATOR, make_skill)
    prose_worker = _orchestration(WORKER_PROSE, make_skill)
    contract = _orchestration(WORKER_CONTRACT, make_skill)
    assert agent < 0.20
    assert 0.40 <= prose_worker < 0.60
    assert 0.80 <= contract <= 1.0


def test_orchestration_evidence_names_the_signals_and_lines(make_skill: MakeSkill) -> None:
    result = score(make_skill(ORCHESTRATOR))
    evidence = result.subscores["orchestration_wiring"].evidence
    signals = [e for e in evidence if e.label.startswith("orchestrator signals")]
    assert signals and signals[0].points < 0 and signals[0].line == 8


def test_orchestration_words_in_code_do_not_count(make_skill: MakeSkill) -> None:
    text = WORKER_PROSE + "\n```bash\norchestrate --dispatch --delegate\n```\n"
    assert _orchestration(text, make_skill) >= 0.40


def test_short_complete_skill_is_not_punished_as_a_stub(make_skill: MakeSkill) -> None:
    result = score(make_skill(WORKER_CONTRACT))
    assert result.subscores["progressive_disclosure"].score == 1.0


def test_long_body_without_references_loses_progressive_disclosure(make_skill: MakeSkill) -> None:
    long_text = WORKER_PROSE + "".join(
        f"- step {i}: trim the cells of column {i}\n" for i in range(600)
    )
    result = score(make_skill(long_text))
    assert result.subscores["progressive_disclosure"].score < 0.5


def test_linked_references_restore_progressive_disclosure(make_skill: MakeSkill) -> None:
    long_text = (
        WORKER_PROSE
        + "\nSee [the column guide](references/columns.md).\n"
        + "".join(f"- step {i}\n" for i in range(300))
    )
    folder = make_skill(long_text, files={"references/columns.md": "# Columns\n"})
    assert score(folder).subscores["progressive_disclosure"].score >= 0.8


def test_structure_ignores_headings_inside_code(make_skill: MakeSkill) -> None:
    fenced = HEAD + "# T\n\n```markdown\n## Examples\n## Troubleshooting\n```\n"
    real = HEAD + "# T\n\n## Examples\n\nx\n\n## Troubleshooting\n\ny\n"
    assert (
        score(make_skill(fenced, folder="a")).subscores["structural_completeness"].score
        < score(make_skill(real, folder="b")).subscores["structural_completeness"].score
    )


def test_directives_in_code_do_not_cost_token_efficiency(make_skill: MakeSkill) -> None:
    shouting = HEAD + "# T\n\n" + "".join(f"You MUST check {i}.\n\n" for i in range(10))
    in_code = HEAD + "# T\n\nCheck each.\n\n```text\n" + "MUST NEVER ALWAYS\n" * 10 + "```\n"
    assert score(make_skill(shouting, folder="a")).subscores["token_efficiency"].score < 0.7
    assert score(make_skill(in_code, folder="b")).subscores["token_efficiency"].score == 1.0


def test_every_sub_score_is_the_clamped_sum_of_its_evidence(make_skill: MakeSkill) -> None:
    for text in (ORCHESTRATOR, WORKER_PROSE, WORKER_CONTRACT):
        result = score(make_skill(text))
        for sub in result.subscores.values():
            total = sum(e.points for e in sub.evidence)
            assert sub.score == round(min(1.0, max(0.0, total)), 4)


def test_non_anti_pattern_findings_lower_their_sub_score_with_evidence(
    make_skill: MakeSkill,
) -> None:
    bad = HEAD.replace("name: example-skill", "name: Example_Skill") + "# T\n\nx\n"
    result = score(make_skill(bad))
    evidence = result.subscores["structural_completeness"].evidence
    assert any(e.label.startswith("PE104") and e.points < 0 and e.line == 2 for e in evidence)


BODY = (
    "# T\n\n## Steps\n\n1. Read the file.\n2. Fix the headers.\n\n## Example\n\n"
    "```bash\ncsvclean in.csv\n```\n\n## Edge cases\n\n- Empty files are left alone.\n"
)


@pytest.mark.parametrize(
    ("old", "new", "code", "folder"),
    [
        ("name: example-skill", "name: claude-helper", "PE112", "claude-helper"),
        ("name: example-skill", "name: Example_Skill", "PE104", "Example_Skill"),
        ("name: example-skill\n", "name: example-skill\nversion: 2\n", "PE108", "example-skill"),
    ],
)
def test_a_field_problem_unrelated_to_routing_leaves_triggering_alone(
    make_skill: MakeSkill, old: str, new: str, code: str, folder: str
) -> None:
    """Only findings about what the router reads lower the triggering sub-score."""
    good = score(make_skill(HEAD + BODY))
    bad = score(make_skill(HEAD.replace(old, new) + BODY, folder=folder))
    assert [f.code for f in bad.findings] == [code]
    fq, sc = "frontmatter_quality", "structural_completeness"
    assert bad.subscores[fq].score == good.subscores[fq].score
    assert bad.subscores[sc].score < good.subscores[sc].score


def test_typed_fields_in_backticks_count_as_a_structured_output(make_skill: MakeSkill) -> None:
    text = HEAD + (
        "# T\n\n## Input\n\n- `path`: the file.\n\n## Output\n\n"
        "- `rows` (int): rows kept.\n- `dropped` (int): rows removed.\n"
    )
    evidence = score(make_skill(text)).subscores["orchestration_wiring"].evidence
    assert evidence[0].label.startswith("band: explicit input and output sections")


def test_an_unreadable_file_scores_zero_everywhere(make_skill: MakeSkill) -> None:
    result = score(make_skill(b"\x00\x01\x02"))
    assert all(sub.score == 0.0 for sub in result.subscores.values())
    assert result.composite.score == 0.0


def test_a_skill_naming_itself_is_not_delegation(make_skill: MakeSkill) -> None:
    body = "# S\n\nUse this skill when a CSV export fails to load.\n\nRun it on each file.\n"
    labels = [
        e.label for e in score(make_skill(HEAD + body)).subscores["orchestration_wiring"].evidence
    ]
    assert not any("calls other" in label for label in labels)
    other = body + "\nThen use the plan skill to schedule the fix.\n"
    labels = [
        e.label for e in score(make_skill(HEAD + other)).subscores["orchestration_wiring"].evidence
    ]
    assert any("calls other: 'use the plan skill'" in label for label in labels)


TEMPLATE_BODY = (
    "# Council\n\n## Steps\n\n1. Pick three perspectives.\n2. Let each argue.\n\n"
    "Each member replies in this format:\n\n```\nPosition: [one sentence]\n"
    "Reasoning: [two to four sentences]\nRisk: [what the others miss]\n```\n"
)


def test_an_exact_reply_template_reads_as_an_output_contract(make_skill: MakeSkill) -> None:
    evidence = score(make_skill(HEAD + TEMPLATE_BODY)).subscores["orchestration_wiring"].evidence
    band = evidence[0]
    assert band.label == "band: documented contract, 1 exact output template(s) (0.60–0.79)"
    assert band.line == 15  # the opening fence
    # The same block with no line calling it the format is an example, not a contract.
    example = TEMPLATE_BODY.replace("Each member replies in this format:", "For instance:")
    evidence = score(make_skill(HEAD + example)).subscores["orchestration_wiring"].evidence
    assert evidence[0].label.startswith("band: worker with prose-only output")


def test_a_boxed_template_after_provide_is_an_output_contract(make_skill: MakeSkill) -> None:
    body = (
        "# Scenarios\n\n## Analyse each branch\n\nFor each branch, provide:\n\n```\n"
        "╔══════════════════════════╗\n║  BRANCH: [name]          ║\n"
        "║  Probability: [X%]       ║\n║  • Trigger: [signal]      ║\n"
        "╚══════════════════════════╝\n```\n"
    )
    evidence = score(make_skill(HEAD + body)).subscores["orchestration_wiring"].evidence
    assert (evidence[0].label, evidence[0].line) == (
        "band: documented contract, 1 exact output template(s) (0.60–0.79)",
        12,
    )
    # The same block after a line that does not call it the reply is an illustration.
    other = body.replace("For each branch, provide:", "A branch once looked like this:")
    evidence = score(make_skill(HEAD + other)).subscores["orchestration_wiring"].evidence
    assert evidence[0].label.startswith("band: worker with prose-only output")


def test_a_configuration_with_elided_values_is_no_reply_template(make_skill: MakeSkill) -> None:
    body = (
        "# Runner\n\n## Configure\n\n1. Copy the config.\n2. Run the job.\n\n"
        "**Configuration structure:**\n\n```yaml\ntask_name: ledger\nstages:\n"
        "  load: {...}\n  merge: {...}\n  export: []\n```\n"
    )
    evidence = _orchestration_evidence(body, make_skill)
    assert evidence[0][0].startswith("band: worker with prose-only output")
    # Worded placeholders in the same place are the shape of what the job writes.
    worded = body.replace("{...}", "{stage options}").replace("[]", "[file names]")
    assert _orchestration_evidence(worded, make_skill)[0] == (
        "band: documented contract, 1 exact output template(s) (0.60–0.79)",
        15,  # the opening fence
    )


def _orchestration_evidence(body: str, make_skill: MakeSkill) -> list[tuple[str, int | None]]:
    sub = score(make_skill(HEAD + body)).subscores["orchestration_wiring"]
    return [(e.label, e.line) for e in sub.evidence]


@pytest.mark.parametrize(
    "heading",
    ["Validate Input Files", "Model Output Types", "Parameter Tuning Guide", "Returns Policy"],
)
def test_an_io_word_that_only_modifies_a_heading_is_no_contract(
    make_skill: MakeSkill, heading: str
) -> None:
    body = f"# Tool\n\n## {heading}\n\nCheck each file before you load it.\n"
    evidence = _orchestration_evidence(body, make_skill)
    assert evidence[0][0].startswith("band: worker with prose-only output")


@pytest.mark.parametrize(
    ("heading", "line"),
    [("Output", 8), ("Output format", 8), ("Expected output (JSON)", 8), ("3. Returns:", 8)],
)
def test_a_heading_about_the_output_is_a_contract(
    make_skill: MakeSkill, heading: str, line: int
) -> None:
    body = f"# Tool\n\n## {heading}\n\nA table of the rows kept and dropped.\n"
    evidence = _orchestration_evidence(body, make_skill)
    assert evidence[0] == ("band: documented contract, an output section (0.60–0.79)", line)


def test_inputs_and_outputs_opening_a_heading_count_for_both(make_skill: MakeSkill) -> None:
    body = "# Tool\n\n## Inputs and outputs\n\nA CSV path in, a cleaned CSV out.\n"
    evidence = _orchestration_evidence(body, make_skill)
    assert evidence[0] == ("band: documented inputs and outputs (0.60–0.79)", 8)


def test_bold_input_and_output_labels_document_the_contract(make_skill: MakeSkill) -> None:
    body = (
        "# Promote a checkpoint\n\n**Input:** the run directory and the metric to compare.\n"
        "**Output format:** one line per checkpoint, `name score verdict`.\n\n"
        "Compare each checkpoint with the current best.\n"
    )
    evidence = _orchestration_evidence(body, make_skill)
    assert evidence[0] == ("band: documented inputs and outputs (0.60–0.79)", 9)
    alone = "# Promote\n\n**Output format:** one line per checkpoint.\n\nCompare each one.\n"
    assert _orchestration_evidence(alone, make_skill)[0][0].startswith("band: worker")


@pytest.mark.parametrize(
    "sentence",
    [
        "Convert genomic coordinates between assemblies.",
        "Explain how vtable dispatch works in the binary.",
        "Delegate authentication to the identity provider.",
        "Coordinate systems differ between the two files.",
        "`propagate()` orchestrates the message passing between nodes.",
    ],
)
def test_orchestration_words_with_nothing_to_hand_work_to_are_no_signal(
    make_skill: MakeSkill, sentence: str
) -> None:
    labels = [label for label, _ in _orchestration_evidence(f"# T\n\n{sentence}\n", make_skill)]
    assert not any(label.startswith("orchestrator signals") for label in labels)


@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        ("Dispatch the tasks to three workers.", "dispatch the tasks"),
        ("Delegate the review to subagents.", "delegate the review to subagents"),
        ("Coordinate the specialist agents until they agree.", "coordinate the specialist"),
        ("Orchestrate the review agents in parallel.", "orchestrate the review agents"),
        ("You are the orchestrator of this release.", "orchestrator"),
    ],
)
def test_handing_work_to_agents_or_workers_is_a_signal(
    make_skill: MakeSkill, sentence: str, shown: str
) -> None:
    evidence = _orchestration_evidence(f"# T\n\n{sentence}\n", make_skill)
    signal = next(e for e in evidence if e[0].startswith("orchestrator signals"))
    assert f"orchestration: '{shown}'" in signal[0] and signal[1] == 8


def test_use_the_skill_named_as_itself_is_no_call_to_another(make_skill: MakeSkill) -> None:
    # "Use the example-skill skill when …" in example-skill's own body names itself; naming
    # another skill is a call to it.
    body = "# T\n\nUse the example-skill skill when a report is due.\n"
    labels = [label for label, _ in _orchestration_evidence(body, make_skill)]
    assert not any(label.startswith("orchestrator signals") for label in labels)
    other = body.replace("example-skill skill", "csv-merge skill")
    evidence = _orchestration_evidence(other, make_skill)
    signal = next(e for e in evidence if e[0].startswith("orchestrator signals"))
    assert "calls other: 'use the csv-merge skill'" in signal[0] and signal[1] == 8


def test_only_an_input_stated_as_such_counts_in_prose(make_skill: MakeSkill) -> None:
    tangent = "# T\n\nTake a brief tangent when the user seems stuck.\n"
    assert _orchestration_evidence(tangent, make_skill)[0][0].startswith("band: worker")
    stated = "# T\n\nIt takes a CSV path as input and writes the cleaned file beside it.\n"
    assert _orchestration_evidence(stated, make_skill)[0] == (
        "band: documented contract, inputs or outputs described in prose (0.60–0.79)",
        8,
    )


def test_a_worker_without_a_contract_that_ships_its_scripts_is_placed_above_a_guide(
    make_skill: MakeSkill,
) -> None:
    body = (
        "# Spike sorting\n\nSort the recording, then curate the units.\n\n"
        "```bash\npython scripts/sort.py recording.bin\n```\n\n"
        "```bash\npython scripts/curate.py sorted/\n```\n"
    )
    guide = score(make_skill(HEAD + body, folder="guide")).subscores["orchestration_wiring"]
    worker = score(
        make_skill(
            HEAD + body,
            folder="worker",
            files={
                "scripts/sort.py": "print('sort')\n",
                "scripts/curate.py": "print('curate')\n",
                "scripts/lib/io.py": "",  # a library of theirs, not a script to run
                "scripts/README.md": "Scripts.\n",
            },
        )
    ).subscores["orchestration_wiring"]
    assert round(worker.score - guide.score, 4) == 0.02
    assert [(e.label, e.points) for e in worker.evidence][-1] == (
        "ships 2 script(s) in scripts/ that do its work itself",
        0.02,
    )
    # With a documented contract the band already says what kind of worker it is.
    contract = WORKER_CONTRACT + "\n```bash\npython scripts/sort.py a\n```\n"
    with_scripts = score(
        make_skill(contract, folder="contract", files={"scripts/sort.py": "print(1)\n"})
    ).subscores["orchestration_wiring"]
    assert not any("script(s) in scripts/" in e.label for e in with_scripts.evidence)
