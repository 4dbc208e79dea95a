"""The run API: what the command line does, in a few lines of Python."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval import api
from plugin_eval.cli import app
from plugin_eval.config import Config
from plugin_eval.report.formats import FORMATS, Subject, names, renderer
from plugin_eval.report.model import Report
from plugin_eval.targets import Target
from tests.conftest import REPO

runner = CliRunner()


def _readme_example() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- api-example -->\n```python\n(.*?)```", text, re.S)
    assert match, "the README's API example is marked with <!-- api-example -->"
    return match.group(1)


def test_the_readme_api_example_runs_and_prints_the_score() -> None:
    code = _readme_example()
    assert len([line for line in code.splitlines() if line.strip()]) == 3
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    cli = runner.invoke(app, ["score", "corpus/csv-cleanup", "-o", "json"], catch_exceptions=False)
    assert float(done.stdout) == json.loads(cli.stdout)["composite"]["score"]


def test_score_paths_returns_reports_and_failures_without_stopping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def explode(*_args: object, **_kwargs: object) -> None:
        raise OSError("disk on fire")

    real = api.score_target

    def flaky(target: Target, *args: object, **kwargs: object) -> Report:
        if target.folder.name == "log-triage":
            explode()
        return real(target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "score_target", flaky)
    batch = api.score_paths([REPO / "corpus/csv-cleanup", REPO / "corpus/log-triage"])
    assert [r.name for r in batch.reports] == ["csv-cleanup"]
    assert [(Path(f.path).name, f.error) for f in batch.failures] == [
        ("log-triage", "OSError: disk on fire")
    ]
    assert api.exit_code(batch, api.configure(fail_on="none")) == api.EXIT_FAIL


def test_usage_problems_are_raised_before_anything_is_scored(tmp_path: Path) -> None:
    with pytest.raises(api.UsageError, match="nothing to score; skipped"):
        api.score_paths([REPO / "README.md"])
    with pytest.raises(api.UsageError, match="matches no rule"):
        api.configure(select=["PE9"])
    with pytest.raises(api.UsageError, match="two paths"):
        api.compare_paths(tmp_path)


def test_a_depth_given_by_its_name_is_that_depth_and_checked_the_same(tmp_path: Path) -> None:
    """`depth="standard"` once scored without a judge and `depth="bogus"` raised IndexError:
    a name is read as the depth it names, and an unknown one is a usage error."""
    skill = REPO / "corpus/csv-cleanup"
    with pytest.raises(api.UsageError, match="--depth standard adds the judge layer"):
        api.score_paths(skill, depth="standard")
    with pytest.raises(
        api.UsageError, match=r"^depth 'bogus': choose quick, standard, deep, thorough$"
    ):
        api.score_paths(skill, depth="bogus")
    (report,) = api.score_paths(skill, depth="quick").reports
    assert report.depth == "quick"


def test_exit_code_follows_threshold_and_fail_on() -> None:
    batch = api.score_paths([REPO / "corpus/broken-dead-links"])
    assert api.exit_code(batch, Config()) == api.EXIT_FAIL
    assert api.exit_code(batch, api.configure(fail_on="none")) == api.EXIT_OK
    assert api.exit_code(batch, api.configure(fail_on="none", threshold=99)) == api.EXIT_FAIL


def test_every_registered_renderer_exists_with_the_one_signature() -> None:
    for fmt in FORMATS:
        for subject in fmt.subjects:
            function = renderer(fmt.name, subject)
            assert function.__name__ == f"render_{subject}"
            assert function.__code__.co_varnames[:2][1] == "options"


def test_each_command_offers_exactly_the_formats_it_can_render() -> None:
    commands: list[tuple[str, Subject]] = [
        ("score", "batch"),
        ("compare", "comparison"),
        ("rules", "rules"),
    ]
    for command, subject in commands:
        page = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
        shown = re.search(r"<([a-z|]+)>", page[page.index("--output ") :])
        assert shown and tuple(shown.group(1).split("|")) == names(subject), command
    refused = runner.invoke(app, ["rules", "-o", "sarif"])
    assert refused.exit_code == 2 and "sarif" in refused.stderr
    refused = runner.invoke(app, ["compare", "corpus/a", "corpus/b", "-o", "html"])
    assert refused.exit_code == 2


def test_output_files_are_written_from_one_scoring_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = api.score_target

    def counted(target: Target, *args: object, **kwargs: object) -> Report:
        calls.append(target.display)
        return real(target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "score_target", counted)
    monkeypatch.chdir(REPO)
    sarif, js, md = tmp_path / "a.sarif", tmp_path / "deep" / "a.json", tmp_path / "s.md"
    skills = ["corpus/csv-cleanup", "corpus/log-triage"]
    result = runner.invoke(
        app,
        [
            "score",
            *skills,
            "--output",
            "text",
            "--output-file",
            f"sarif={sarif}",
            "--output-file",
            f"json={js}",
            "--output-file",
            f"markdown={md}",
            "--fail-on",
            "none",
        ],
    )
    assert result.exit_code == 0, result.stderr
    assert calls == skills
    assert "mean score" in result.stdout
    assert json.loads(sarif.read_text())["version"] == "2.1.0"
    assert [r["path"] for r in json.loads(js.read_text())["reports"]] == skills
    assert md.read_text().startswith("## csv-cleanup")
    assert not [p for p in tmp_path.rglob(".*.tmp")]


def test_output_file_names_a_format_the_command_can_render(tmp_path: Path) -> None:
    for spec in ("nope=x", "sarif", "json="):
        result = runner.invoke(
            app, ["score", str(REPO / "corpus/csv-cleanup"), "--output-file", spec]
        )
        assert result.exit_code == 2 and "FORMAT=PATH" in result.stderr, spec
    result = runner.invoke(app, ["rules", "--output-file", f"sarif={tmp_path / 'r'}"])
    assert result.exit_code == 2


def test_an_output_file_under_a_file_says_so(tmp_path: Path) -> None:
    """A file where a folder of the path should be is named as such, not 'File exists'."""
    (tmp_path / "notes").write_text("mine\n")
    target = tmp_path / "notes" / "out.sarif"
    result = runner.invoke(
        app, ["score", str(REPO / "corpus/csv-cleanup"), "--output-file", f"sarif={target}"]
    )
    assert result.exit_code == 2
    assert "cannot be written (Not a directory)" in result.stderr
    assert (tmp_path / "notes").read_text() == "mine\n"


def test_action_scores_once_and_writes_every_output() -> None:
    text = (REPO / "action.yml").read_text()
    assert text.count("plugin-eval score") == 1
    assert "markdown=$GITHUB_STEP_SUMMARY" in text and "sarif=$PE_SARIF" in text


def test_the_action_script_runs_locally(tmp_path: Path) -> None:
    """The action's scoring step, run with bash as GitHub would, writes all three outputs."""
    import yaml

    action = yaml.safe_load((REPO / "action.yml").read_text())
    (step,) = [s for s in action["runs"]["steps"] if s.get("name") == "Score"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "plugin-eval"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m plugin_eval "$@"\n')
    shim.chmod(0o755)
    summary, sarif = tmp_path / "summary.md", tmp_path / "out.sarif"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_STEP_SUMMARY": str(summary),
        "PE_PATH": "corpus/csv-cleanup corpus/broken-dead-links",
        "PE_THRESHOLD": "0",
        "PE_FAIL_ON": "error",
        "PE_SARIF": str(sarif),
    }
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=REPO, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1  # broken-dead-links has errors
    assert "::error file=corpus/broken-dead-links/SKILL.md" in done.stdout
    assert summary.read_text().count("## ") >= 2
    assert json.loads(sarif.read_text())["runs"][0]["results"]


def test_the_action_reads_one_path_a_line(tmp_path: Path) -> None:
    """`path: |` in a workflow gives one path a line: every one is scored, none dropped."""
    done = _run_action(
        REPO,
        tmp_path,
        path="corpus/csv-cleanup\ncorpus/broken-dead-links\n",
        threshold="0",
        **{"fail-on": "none"},
    )
    assert done.returncode == 0, done.stderr
    assert "::error file=corpus/broken-dead-links/SKILL.md" in done.stdout
    assert "csv-cleanup" in (tmp_path / "summary.md").read_text()


def _run_action(folder: Path, tmp_path: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
    """The action's scoring step, run with bash as GitHub would, in ``folder``: each input
    not given is the action's default."""
    import yaml

    action = yaml.safe_load((REPO / "action.yml").read_text())
    (step,) = [s for s in action["runs"]["steps"] if s.get("name") == "Score"]
    given = {name: str(spec["default"]) for name, spec in action["inputs"].items()} | inputs
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "plugin-eval"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m plugin_eval "$@"\n')
    shim.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        **{f"PE_{name.upper().replace('-', '_')}": value for name, value in given.items()},
    }
    return subprocess.run(
        ["bash", "-c", step["run"]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_action_leaves_unset_gates_to_the_project_configuration(tmp_path: Path) -> None:
    """A project's own threshold and fail-on hold in CI as they do locally; an input given
    to the action overrides them, as a flag overrides the configuration."""
    project = tmp_path / "project"
    (project / "skills").mkdir(parents=True)
    import shutil

    shutil.copytree(REPO / "corpus" / "dependency-audit", project / "skills" / "dependency-audit")
    (project / ".plugin-eval.toml").write_text('fail-on = "warning"\nthreshold = 95\n')
    done = _run_action(project, tmp_path, path="skills/dependency-audit")
    assert done.returncode == 1, done.stderr
    assert "::warning file=skills/dependency-audit/SKILL.md,line=3" in done.stdout
    summary = (tmp_path / "summary.md").read_text()
    assert "at warning or worse (--fail-on)" in summary and "below the threshold" in summary
    done = _run_action(project, tmp_path, path="skills/dependency-audit", threshold="0")
    assert done.returncode == 1  # still the warning
    done = _run_action(
        project, tmp_path, path="skills/dependency-audit", threshold="0", **{"fail-on": "none"}
    )
    assert done.returncode == 0, done.stdout


def test_one_version_string_and_a_typed_package() -> None:
    from importlib.metadata import version

    import plugin_eval

    assert version("plugin-eval") == plugin_eval.__version__
    assert (Path(plugin_eval.__file__).parent / "py.typed").is_file()
    assert 'dynamic = ["version"]' in (REPO / "pyproject.toml").read_text()


def test_schema_row_describes_every_summary_row(tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads(runner.invoke(app, ["schema", "--row"]).stdout)
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(REPO / "corpus"), "--out", str(out), "--no-cache"])
    assert result.exit_code in (0, 1)
    rows = json.loads((out / "summary.json").read_text())["rows"]
    assert len(rows) > 40
    for row in rows:
        jsonschema.validate(row, schema)
    assert runner.invoke(app, ["schema", "--row", "--batch"]).exit_code == 2


def test_a_quick_text_score_loads_no_layer_renderer_or_sdk_it_does_not_use() -> None:
    code = (
        "import sys\n"
        "from plugin_eval.cli import main\n"
        "try:\n"
        "    main(['score', 'corpus/csv-cleanup'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    loaded = set(done.stdout.split())
    unused = {
        "numpy",
        "scipy",
        "anthropic",
        "openai",
        "sqlite3",
        "asyncio",
        "plugin_eval.montecarlo.layer",
        "plugin_eval.montecarlo.results",
        "plugin_eval.report.sarif",
        "plugin_eval.report.html",
        "plugin_eval.report.github",
        "plugin_eval.report.markdown",
        "plugin_eval.marketplace",
        "pathspec",
    }
    assert "plugin_eval.report.text" in loaded
    assert not unused & loaded


def test_an_output_file_is_never_written_in_place_of_a_symlink_or_special_file(
    tmp_path: Path,
) -> None:
    """A rename would replace the symlink (leaving its target as it was) or a device:
    refused, named, before anything is scored."""
    (tmp_path / "target.json").write_text("keep\n")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    os.mkfifo(tmp_path / "pipe")
    skill = str(REPO / "corpus/broken-dead-links")  # it has findings to print
    for spec, why in (
        (f"json={tmp_path / 'link.json'}", "it is a symlink; give the path of a regular file"),
        (f"text={tmp_path / 'pipe'}", "it is a FIFO, socket or device, not a regular file"),
        (f"json={tmp_path}", "it is a folder; give a file name"),
    ):
        result = runner.invoke(app, ["score", skill, "-q", "--output-file", spec])
        assert result.exit_code == 2
        assert f"--output-file {spec}: cannot be written ({why})" in " ".join(result.stderr.split())
        assert result.stdout == ""  # refused before scoring: no finding was printed
    assert (tmp_path / "target.json").read_text() == "keep\n"
    assert (tmp_path / "link.json").is_symlink()


def test_two_formats_given_one_output_file_are_refused_before_scoring(tmp_path: Path) -> None:
    """The second would replace the first, and one report would be lost without a word."""
    out = tmp_path / "out.txt"
    json_spec, sarif_spec = f"json={out}", f"sarif={tmp_path / '.' / 'out.txt'}"
    skill = str(REPO / "corpus/broken-dead-links")
    result = runner.invoke(
        app, ["score", skill, "-q", "--output-file", json_spec, "--output-file", sarif_spec]
    )
    assert (result.exit_code, result.stdout) == (2, "")
    said = " ".join(result.stderr.split())
    assert (
        f"--output-file {sarif_spec}: {tmp_path / '.' / 'out.txt'} is also given to {json_spec}"
        in said
    )
    assert "give each format a file of its own" in said
    assert not out.exists()


def test_every_path_parameter_takes_a_string(tmp_path: Path) -> None:
    """As score_paths does: a str is a path wherever the API takes one."""
    from plugin_eval import benchmark

    bench = tmp_path / "bench.md"
    bench.write_text(benchmark.export())
    assert api.configure(weights=str(bench)).weights == benchmark.scoring_weights(
        benchmark.read(bench)
    )
    settings = tmp_path / "cfg.toml"
    settings.write_text("threshold = 40\n")
    assert api.configure(config_file=str(settings)).threshold == 40
    with pytest.raises(api.UsageError, match=r"cfg-missing\.toml: cannot read"):
        api.configure(config_file=str(tmp_path / "cfg-missing.toml"))
    a, b = str(REPO / "corpus" / "csv-cleanup"), str(REPO / "corpus" / "log-triage")
    data = api.compare_paths(a, b)
    assert data["a"]["path"].endswith("csv-cleanup") and data["b"]["path"].endswith("log-triage")
