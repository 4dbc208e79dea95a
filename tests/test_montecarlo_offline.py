"""The Monte Carlo layer on the offline backend: no key, no network, the same JSON every time."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.document import parse_skill
from plugin_eval.montecarlo.backends.base import NONE_TOOL, Call, Tool
from plugin_eval.montecarlo.backends.offline import OfflineRouter
from plugin_eval.montecarlo.distractors import find_candidates
from plugin_eval.montecarlo.prompts import (
    EvalFileError,
    generate,
    load_eval_file,
    load_evals,
)
from tests.conftest import REPO, write_files

SKILLS = REPO / "tests" / "fixtures" / "montecarlo" / "skills"
TARGET = SKILLS / "csv-cleanup"
VAGUE = "Helps with data. Use when working with files."
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def report_of(*args: str) -> dict[str, Any]:
    code, out, err = run("score", *args, "-o", "json", "--fail-on", "none")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def monte_carlo(report: dict[str, Any]) -> dict[str, Any]:
    (layer,) = [x for x in report["layers"] if x["layer"] == "monte_carlo"]
    return layer["monte_carlo"]  # type: ignore[no-any-return]


def vague_copy(tmp_path: Path) -> Path:
    """The fixture folder with the target's description made vague; body and evals unchanged."""
    copy = tmp_path / "skills"
    shutil.copytree(SKILLS, copy)
    skill = copy / "csv-cleanup" / "SKILL.md"
    lines = skill.read_text().splitlines()
    lines[2] = f"description: {VAGUE}"
    skill.write_text("\n".join(lines) + "\n")
    return copy / "csv-cleanup"


def route(prompt: str, tools: dict[str, str]) -> str | None:
    call = Call(
        "route",
        prompt,
        tools=(*(Tool(n, d) for n, d in tools.items()), Tool(NONE_TOOL, "no skill")),
    )
    return OfflineRouter().route(call).tool


# --- the router ----------------------------------------------------------------------


def test_offline_router_picks_the_closest_description_or_none() -> None:
    tools = {
        "csv-cleanup": "Cleans messy CSV files: headers, dates, duplicate rows.",
        "json-format": "Pretty-prints JSON documents and fixes indentation.",
    }
    assert route("Remove duplicate rows from this CSV file", tools) == "csv-cleanup"
    assert route("Pretty-print my JSON with two-space indentation", tools) == "json-format"
    assert route("What is the capital of Australia?", tools) == NONE_TOOL


def test_offline_router_does_not_match_on_not_for_clauses() -> None:
    tools = {"csv-cleanup": "Cleans CSV files. Not for Excel workbooks with formulas."}
    assert route("Recalculate the formulas in my Excel workbook", tools) == NONE_TOOL


# --- eval files and generated prompts --------------------------------------------------


def test_yaml_eval_file_in_seed_004_style() -> None:
    prompts = load_evals(TARGET, "csv-cleanup")
    assert prompts is not None and prompts.origin == "evals/triggers.yaml"
    cases = {c.id: c for c in prompts.cases}
    assert len(cases) == 16 and sum(c.should_trigger for c in cases.values()) == 8
    assert cases["headers"].expected_keywords == ("snake_case", "headers")
    assert cases["blank-duplicates"].expected_items == (("blank rows",), ("duplicate rows",))
    assert cases["join"].owner == "csv-merge" and cases["excel"].owner is None


def test_skill_creator_json_formats(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "evals/a.json": json.dumps(
                [
                    {"query": "clean this csv", "should_trigger": True},
                    {"query": "hi", "should_trigger": False},
                ]
            ),
            "evals/b.json": json.dumps({"evals": [{"id": 1, "prompt": "fix csv headers"}]}),
        },
    )
    prompts = load_evals(tmp_path, "x")
    assert prompts is not None
    assert [(c.prompt, c.should_trigger) for c in prompts.cases] == [
        ("clean this csv", True),
        ("hi", False),
        ("fix csv headers", True),  # skill-creator output evals: tasks for the skill
    ]
    assert prompts.origin == "evals/a.json + evals/b.json"


def test_repeated_case_ids_are_made_unique(tmp_path: Path) -> None:
    cases = [{"id": "x", "query": f"clean csv {i}"} for i in range(4)] + [
        {"id": "t-x", "query": "fix csv headers"}
    ]
    write_files(tmp_path, {"evals/t.json": json.dumps(cases)})
    prompts = load_evals(tmp_path, "x")
    assert prompts is not None
    assert [c.id for c in prompts.cases] == ["x", "t-x", "t-x-2", "t-x-3", "t-t-x"]


def test_expected_json_nested_hundreds_deep_names_its_case(tmp_path: Path) -> None:
    deep = "[" * 500 + "1" + "]" * 500
    write_files(
        tmp_path,
        {"evals/deep.json": f'[{{"query": "clean csv", "expected_json": {{"a": {deep}}}}}]'},
    )
    with pytest.raises(EvalFileError, match=r"deep\.json: case 1.*expected_json is nested too"):
        load_evals(tmp_path, "x")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[{'query': 1}]", "cannot be read"),
        ('[{"query": ""}]', "case 1 has no 'query' or 'prompt'"),
        ('[{"query": "x", "should_trigger": "yes"}]', "case 1: should_trigger"),
        ('{"cases": 3}', "expected a list of cases"),
    ],
)
def test_broken_eval_file_names_the_file_and_the_case(
    content: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(EvalFileError, match=r"x/bad\.json") as err:
        load_eval_file(path, "x/bad.json")
    assert message in str(err.value)


def test_generator_draws_positives_from_the_body_and_near_misses_from_neighbours() -> None:
    doc = parse_skill(TARGET)
    neighbours = [(name, parse_skill(SKILLS / name)) for name in ("csv-profile", "csv-merge")]
    prompts = generate(doc, neighbours, 50)
    positives = [c for c in prompts.cases if c.should_trigger]
    negatives = [c for c in prompts.cases if not c.should_trigger]
    assert len(positives) == len(negatives)
    assert positives[0].source.startswith("body: When to use")
    assert "customer_name" in positives[0].prompt  # inline code kept
    assert negatives[0].source == "description: not for"
    assert {c.owner for c in negatives[1:3]} == {"csv-profile", "csv-merge"}
    assert not {c.prompt for c in positives} & {c.prompt for c in negatives}
    assert generate(doc, neighbours, 50) == prompts  # deterministic


def test_distractors_are_the_listable_siblings(tmp_path: Path) -> None:
    shutil.copytree(SKILLS, tmp_path / "skills")
    write_files(
        tmp_path / "skills",
        {
            "no-description/SKILL.md": "---\nname: no-description\n---\n# x\n",
            "manual-only/SKILL.md": "---\nname: manual-only\ndescription: Deploys.\n"
            "disable-model-invocation: true\n---\n# x\n",
        },
    )
    found = find_candidates(parse_skill(tmp_path / "skills" / "csv-cleanup"), "skills/csv-cleanup")
    assert [c.name for c in found.distractors] == [
        "csv-merge",
        "csv-profile",
        "json-format",
        "release-notes",
    ]
    assert found.skipped == {"disable-model-invocation": 1, "no description": 1}
    assert found.target.path == "skills/csv-cleanup"
    assert found.distractors[0].path == "skills/csv-merge"


# --- the command line ------------------------------------------------------------------


def test_deep_runs_static_and_monte_carlo_and_says_the_judge_did_not_run() -> None:
    code, out, err = run("score", str(TARGET), "--depth", "deep", "-o", "json")
    assert code == 0, err
    report = json.loads(out)
    _, schema, _ = run("schema")
    jsonschema.validate(report, json.loads(schema))
    assert [x["layer"] for x in report["layers"]] == ["static", "monte_carlo"]
    assert report["layers_not_run"] == ["judge"]
    assert "judge layer did not run" in err and "simulated" in err
    mc = monte_carlo(report)
    assert mc["simulated"] is True and mc["backend"] == "offline"
    assert mc["runs_requested"] == 50 and mc["runs"] == mc["distinct_prompts"] == 16
    assert mc["prompt_source"] == "evals/triggers.yaml"
    t = mc["triggering"]
    assert t["tp"] + t["fn"] == 8 and t["fp"] + t["tn"] == 8
    for key in ("precision", "recall"):
        assert t[key]["method"] == "wilson"
        assert t[key]["ci_lower"] <= t[key]["value"] <= t[key]["ci_upper"]
    c = report["composite"]
    assert c["ci_lower"] <= c["score"] <= c["ci_upper"]
    dims = {d["name"]: d for d in c["dimensions"]}
    assert dims["triggering_accuracy"]["layer_scores"]["monte_carlo"] == t["f1"]["value"]
    # Offline writes no replies: the model-only dimensions stay unmeasured, never 0.
    assert not dims["output_quality"]["measured"] and not dims["robustness"]["measured"]


def test_composite_blends_monte_carlo_by_the_seeds_layer_weights() -> None:
    report = report_of(str(TARGET), "--depth", "deep")
    dims = {d["name"]: d for d in report["composite"]["dimensions"]}
    trig = dims["triggering_accuracy"]
    static, mc = trig["layer_scores"]["static"], trig["layer_scores"]["monte_carlo"]
    assert trig["score"] == pytest.approx((0.15 * static + 0.60 * mc) / 0.75, abs=1e-4)


def test_vague_description_scores_lower_f1_and_the_report_says_who_took_its_prompts(
    tmp_path: Path,
) -> None:
    precise = monte_carlo(report_of(str(TARGET), "--depth", "deep"))["triggering"]
    vague_report = report_of(str(vague_copy(tmp_path)), "--depth", "deep")
    vague = monte_carlo(vague_report)["triggering"]
    assert vague["f1"]["value"] < precise["f1"]["value"] - 0.5
    assert vague["fn"] > precise["fn"]
    # The missed prompts went to named siblings (or to no skill), per run and per prompt.
    assert sum(vague["stolen_by"].values()) == vague["fn"]
    assert {"csv-merge", "json-format"} <= set(vague["stolen_by"])
    missed = [p for p in monte_carlo(vague_report)["prompts"] if p["outcome"] == "missed"]
    assert any("csv-merge" in p["picked"] for p in missed)
    _, text, _ = run("score", str(vague_copy(tmp_path / "again")), "--depth", "deep")
    taken = text.split("taken by:")[1].splitlines()[0]
    assert "csv-merge" in taken and "json-format" in taken


def test_offline_json_is_identical_between_runs_apart_from_the_timestamp() -> None:
    args = ("score", str(TARGET), "--depth", "deep", "-o", "json")
    first, second = run(*args)[1], run(*args)[1]
    strip = [line for line in first.splitlines() if '"generated_at"' not in line]
    assert strip == [line for line in second.splitlines() if '"generated_at"' not in line]


def test_text_output_shows_measures_with_intervals_and_the_composite_interval() -> None:
    code, out, _ = run("score", str(TARGET), "--depth", "deep", "--explain")
    assert code == 0
    assert "a simulation: lexical BM25 router, not a model" in out
    assert "precision" in out and "recall" in out and "F1" in out
    assert "composite" in out and "95 % bootstrap over prompts" in out
    assert "triggering_f1" in out and "F1 of 16 routing runs" in out


def test_markdown_output_has_a_monte_carlo_section() -> None:
    code, out, _ = run("score", str(TARGET), "--depth", "deep", "-o", "markdown")
    assert code == 0
    assert "### Monte Carlo" in out and "| F1 |" in out and "| composite |" in out


def test_quick_start_up_imports_neither_scipy_nor_an_sdk() -> None:
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from plugin_eval.cli import app\n"
        f"CliRunner().invoke(app, ['score', {str(TARGET)!r}])\n"
        "print(sorted(m for m in ('scipy', 'numpy', 'anthropic', 'openai') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--runs", "5"), "--runs is for the Monte Carlo layer"),
        (("--depth", "deep", "--model", "x"), "--model is for --backend anthropic or openai"),
        (("--depth", "deep", "--backend", "nope"), "--backend nope"),
        (("--depth", "deep", "--against", "/no/such/dir"), "not a folder"),
        (
            (
                *("--depth", "deep", "--backend", "openai", "--base-url", "http://x"),
                *("--model", "local", "--max-cost", "1"),
            ),
            "--max-cost: no price is known",
        ),
        (
            ("--depth", "deep", "--backend", "openai", "--base-url", "http://x", "--price", "a,b"),
            "--price a,b",
        ),
    ],
)
def test_monte_carlo_options_that_cannot_work_are_usage_errors(
    args: tuple[str, ...], message: str
) -> None:
    code, _, err = run("score", str(TARGET), *args)
    assert code == 2 and message in err


def test_a_backend_without_its_key_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, _, err = run("score", str(TARGET), "--depth", "deep", "--backend", "anthropic")
    assert code == 2 and "ANTHROPIC_API_KEY" in err


def test_save_evals_writes_the_set_used_in_both_formats(tmp_path: Path) -> None:
    for name in ("used.yaml", "used.json"):
        report_of(str(TARGET), "--depth", "deep", "--save-evals", str(tmp_path / name))
        saved = load_eval_file(tmp_path / name, name)
        original = load_evals(TARGET, "t")
        assert original is not None
        assert [(c.prompt, c.should_trigger, c.expected_keywords) for c in saved] == [
            (c.prompt, c.should_trigger, c.expected_keywords) for c in original.cases
        ]


def test_generated_prompts_when_no_eval_file(tmp_path: Path) -> None:
    copy = tmp_path / "skills"
    shutil.copytree(SKILLS, copy)
    shutil.rmtree(copy / "csv-cleanup" / "evals")
    mc = monte_carlo(report_of(str(copy / "csv-cleanup"), "--depth", "deep"))
    assert mc["prompt_source"] == "generated (deterministic)"
    sources = {p["source"] for p in mc["prompts"]}
    assert "body: When to use (line 12)" in sources and "description: not for" in sources


def test_a_skill_that_is_never_model_invoked_skips_the_layer(tmp_path: Path) -> None:
    write_files(
        tmp_path / "manual",
        {
            "SKILL.md": "---\nname: manual\ndescription: Deploys the site.\n"
            "disable-model-invocation: true\n---\n\n# Deploy\n\nRun it.\n"
        },
    )
    report = report_of(str(tmp_path / "manual"), "--depth", "deep")
    assert report["layers_not_run"] == ["judge", "monte_carlo"]
    assert any("disable-model-invocation" in n for n in report["notes"])
    assert report["composite"]["ci_lower"] is None


def test_eval_files_are_read_as_every_file_of_a_skill(tmp_path: Path) -> None:
    """An eval file that is a symlink (or in an evals/ that is one) is refused, named: its
    prompts, from outside the skill, would be sent to the model; one past the cap is too."""
    secret = tmp_path / "outside.json"
    secret.write_text('[{"prompt": "merge the ledgers", "should_trigger": true}]')
    skill = tmp_path / "csv-cleanup"
    shutil.copytree(TARGET, skill)
    (skill / "evals").mkdir(exist_ok=True)
    for old in (skill / "evals").iterdir():
        old.unlink()
    (skill / "evals" / "evals.json").symlink_to(secret)
    with pytest.raises(EvalFileError) as err:
        load_evals(skill, "csv-cleanup")
    assert str(err.value) == (
        "csv-cleanup/evals/evals.json: a symlink or special file, not followed; make it a "
        "regular file in the skill folder"
    )
    shutil.rmtree(skill / "evals")
    (skill / "evals").symlink_to(tmp_path)
    with pytest.raises(EvalFileError, match=r"^csv-cleanup/evals: a symlink, not followed"):
        load_evals(skill, "csv-cleanup")
    (skill / "evals").unlink()
    (skill / "evals").mkdir()
    case = '{"prompt": "merge the ledgers", "should_trigger": true},'
    (skill / "evals" / "evals.json").write_text("[" + case * 40_000 + "]")
    with pytest.raises(EvalFileError, match=r"cannot be read: larger than 2,097,152 bytes"):
        load_evals(skill, "csv-cleanup")


def test_save_evals_never_writes_in_place_of_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("keep\n")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "mine.yaml")
    code, _, err = run(
        "score", str(TARGET), "--depth", "deep", "--save-evals", str(tmp_path / "link.yaml")
    )
    assert code == 2
    assert "cannot be written (it is a symlink; give the path of a regular file)" in " ".join(
        err.split()
    )
    assert (tmp_path / "mine.yaml").read_text() == "keep\n"


def test_an_interval_without_width_is_said_even_when_a_few_resamples_differ() -> None:
    """The note follows the interval shown (the central 95 %), not only draws that all agree."""
    from plugin_eval.montecarlo.measuring import _no_width

    same = {"triggering_accuracy": 1.0, "token_efficiency": 0.9}
    odd = {"triggering_accuracy": 0.8, "token_efficiency": 0.9}
    assert _no_width([same] * 1960 + [odd] * 40)  # 2 % differ: the central 95 % is one value
    assert not _no_width([same] * 1800 + [odd] * 200)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("where", ["/proc/evals.yaml", "/proc/plugin-eval-x/evals.yaml"])
def test_save_evals_where_no_file_can_be_made_is_refused_before_scoring(where: str) -> None:
    """/proc takes no new file, whatever its permissions say (root may write anywhere): a
    file is made there and removed to know, before the run, never after it."""
    code, out, err = run("score", str(TARGET), "--depth", "deep", "--save-evals", where)
    assert (code, out) == (2, "")
    said = " ".join(err.split())
    # Root is told what making the file said; another user, that the folder is not writable.
    assert any(
        f"--save-evals {where}: cannot be written ({why})" in said
        for why in ("No such file or directory", "Permission denied")
    )


def test_checking_that_a_save_evals_file_can_be_made_leaves_nothing_behind(
    tmp_path: Path,
) -> None:
    code, _, _ = run(
        "score", str(TARGET), "--depth", "deep", "--save-evals", str(tmp_path / "e.yaml")
    )
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.yaml"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            'cases:\n  - prompt: "x \\ud800 y"\n',
            "found invalid Unicode character escape code, while parsing a quoted scalar "
            "(line 2, column 18)",
        ),
        ("cases:\n  - prompt: *nope\n", "found undefined alias (line 2, column 13)"),
    ],
)
def test_an_eval_yaml_error_says_what_is_wrong_before_what_was_being_read(
    tmp_path: Path, text: str, said: str
) -> None:
    (tmp_path / "t.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(EvalFileError) as caught:
        load_eval_file(tmp_path / "t.yaml", "evals/t.yaml")
    assert str(caught.value) == f"evals/t.yaml: cannot be read: {said}"
