"""`plugin-eval certify` through the real SDKs, over real HTTP, against tests/fake_llm_server.py."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner, Result

from plugin_eval import __version__
from plugin_eval.cli import app
from plugin_eval.engine import NEEDS_A_MODEL
from tests.conftest import REPO
from tests.fake_llm_server import FakeLLM, JudgeFault
from tests.test_montecarlo_offline import SKILLS, TARGET

FILES = ("certificate.txt", "certificate.md", "certificate.json", "badge.svg")
JUDGED = ("triggering_accuracy", "orchestration_fitness", "output_quality", "scope_calibration")
HOSTILE = '<script>alert(1)</script> "&amp;\u202e\x1b[31m'
runner = CliRunner()


def certify(
    llm: FakeLLM, out: Path, *args: str, path: Path = TARGET, command: str = "certify"
) -> Result:
    return runner.invoke(
        app,
        [
            command, str(path), "--backend", "openai", "--base-url", f"{llm.url}/v1",
            "--model", "fake-router", "--concurrency", "8", "--price", "1,5",
            *(("--out", str(out)) if command == "certify" else ()), *args,
        ],
    )  # fmt: skip


def written(out: Path) -> dict[str, str]:
    return {name: (out / name).read_text(encoding="utf-8") for name in FILES}


def unstamped(text: str) -> str:
    """A certificate's text with its timestamp (JSON, text or Markdown) taken out."""
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "TIME", text)


def test_a_certified_run_writes_the_four_files_with_every_field(
    llm: FakeLLM, tmp_path: Path
) -> None:
    out = tmp_path / "cert"
    # Depth deep, as seed 002 has it for certify; 100 runs make Certified+ reachable.
    result = certify(llm, out, "--runs", "100")
    assert result.exit_code == 0, result.stderr
    files = written(out)
    assert result.stdout == files["certificate.txt"]
    cert = json.loads(files["certificate.json"])
    schema = json.loads(runner.invoke(app, ["schema", "--certificate"]).stdout)
    jsonschema.validate(cert, schema)
    assert list(cert) == [
        "kind", "schema_version", "tool", "version", "generated_at", "certified", "result",
        "reasons", "skill", "score", "ci_lower", "ci_upper", "badge", "grade",
        "confidence_label", "dimensions", "backend", "models", "monte_carlo", "judges", "cost",
    ]  # fmt: skip
    assert (cert["certified"], cert["result"], cert["confidence_label"]) == (
        True,
        "Certified+",
        "Certified+",
    )
    assert cert["reasons"] == [] and cert["version"] == __version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", cert["generated_at"])
    assert cert["skill"] == {"name": "csv-cleanup", "path": TARGET.as_posix()}
    assert cert["backend"] == "openai"
    assert cert["models"] == {"judge": ["fake-router"], "routing": "fake-router"}
    assert cert["monte_carlo"] == {
        "runs": 100,
        "runs_requested": 100,
        "distinct_prompts": 16,
        "stopped_early": None,
    }
    assert cert["judges"] == {
        "judges": 3,
        "usable_judges": 3,
        "alpha": 1.0,
        "alpha_ci_lower": 1.0,
        "alpha_ci_upper": 1.0,
    }
    # The certificate carries the report's figures: the same run, read back from the cache.
    scored = certify(llm, out, "--depth", "deep", "--runs", "100", "-o", "json", "--fail-on",
                     "none", command="score")  # fmt: skip
    assert scored.exit_code == 0, scored.stderr
    report = json.loads(scored.stdout)
    composite = report["composite"]
    for key in ("score", "ci_lower", "ci_upper", "badge", "grade", "confidence_label"):
        assert cert[key] == composite[key], key
    assert cert["ci_lower"] < cert["score"] < cert["ci_upper"]
    assert [(d["name"], d["weight"], d["score"], d["measured_by"]) for d in cert["dimensions"]] == [
        (d["name"], d["weight"], d["score"], d["measured_by"]) for d in composite["dimensions"]
    ]
    needs = {d["name"]: d["needed_by_certification"] for d in cert["dimensions"]}
    assert needs["triggering_accuracy"] == ["judge", "monte_carlo"]
    assert all(needs[name] == ["judge"] for name in JUDGED[1:])
    assert needs["progressive_disclosure"] == []
    layers = {x["layer"]: x for x in report["layers"]}
    usage = [layers["judge"]["judge"]["usage"], layers["monte_carlo"]["monte_carlo"]["usage"]]
    cost = cert["cost"]
    assert cost["calls"] == sum(u["calls"] for u in usage) == 3 + len(llm.requests)
    assert cost["input_tokens"] == sum(u["input_tokens"] for u in usage)
    assert cost["output_tokens"] == sum(u["output_tokens"] for u in usage)
    # The second run paid nothing: the cache saved what the first one spent.
    assert cost["judge_usd"] == layers["judge"]["judge"]["usage"]["saved_by_cache_usd"] > 0
    assert cost["usd"] == pytest.approx(cost["judge_usd"] + cost["monte_carlo_usd"])
    tokens = cost["input_tokens"] * 1 + cost["output_tokens"] * 5  # --price 1,5
    assert cost["usd"] == pytest.approx(tokens / 1e6, abs=1e-5)
    badge = f"Certified+ · {composite['badge']} {composite['score']:.0f}"
    assert f">{badge}</text>" in files["badge.svg"]
    assert "result       Certified+\n" in files["certificate.txt"]
    assert "| triggering_accuracy | 0.25 |" in files["certificate.md"]


def test_by_default_fifty_runs_certify_but_not_certified_plus(llm: FakeLLM, tmp_path: Path) -> None:
    result = certify(llm, tmp_path / "cert", "-o", "json")
    assert result.exit_code == 0, result.stderr
    cert = json.loads(result.stdout)
    assert (cert["result"], cert["confidence_label"]) == ("Certified", "Certified")
    assert cert["monte_carlo"]["runs"] == 50
    assert "Certified · " in written(tmp_path / "cert")["badge.svg"]


def test_fewer_runs_than_deep_are_not_certified(llm: FakeLLM, tmp_path: Path) -> None:
    result = certify(llm, tmp_path / "cert", "--runs", "20", "-o", "json")
    assert result.exit_code == 1
    cert = json.loads(result.stdout)
    assert cert["certified"] is False and cert["result"] == "NOT CERTIFIED"
    assert cert["confidence_label"] == "Assessed"
    assert cert["reasons"] == [
        "the confidence label is Assessed: Certified needs the judge and routing by a model "
        "over at least 50 runs, Certified+ over 100; 20 run(s) were routed"
    ]


@pytest.mark.parametrize(("judges", "faults"), [("3", 6), ("1", 2)])
def test_a_dimension_the_judges_refused_twice_is_not_certified(
    llm: FakeLLM, tmp_path: Path, judges: str, faults: int
) -> None:
    llm.judge_fail_next(*[JudgeFault("bad_schema", dimension="scope_calibration")] * faults)
    out = tmp_path / "cert"
    result = certify(llm, out, "--judges", judges)
    assert result.exit_code == 1, result.stderr
    files = written(out)
    assert result.stdout == files["certificate.txt"]
    cert = json.loads(files["certificate.json"])
    assert cert["certified"] is False and cert["result"] == "NOT CERTIFIED"
    (reason,) = cert["reasons"]
    assert reason.startswith(
        f"scope_calibration was not measured by the judge: no usable verdict from {judges} "
        "judge(s) (judge 1: "
    )
    assert "invalid verdict (band" in reason
    scope = next(d for d in cert["dimensions"] if d["name"] == "scope_calibration")
    assert scope["score"] is None and scope["measured_by"] == []
    # The layers earned Certified+, but it is never shown on a certificate that is not.
    assert cert["confidence_label"] == "Assessed"
    for text in files.values():
        assert not re.search(r"Certified", text)
    assert (
        "why          scope_calibration was not measured by the judge" in files["certificate.txt"]
    )
    assert "## Why it is not certified\n\n- scope_calibration was not" in files["certificate.md"]
    title = ET.fromstring(files["badge.svg"]).find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "csv-cleanup: plugin-eval not certified"


def test_offline_is_a_usage_error_before_anything_runs(llm: FakeLLM, tmp_path: Path) -> None:
    out = tmp_path / "cert"
    result = runner.invoke(app, ["certify", str(TARGET), "--out", str(out)])
    assert result.exit_code == 2
    assert NEEDS_A_MODEL in " ".join(result.stderr.split())
    offline = runner.invoke(app, ["certify", str(TARGET), "--backend", "offline", "--model", "m"])
    assert offline.exit_code == 2 and "the judge needs a model" in offline.stderr
    assert not out.exists() and not llm.requests and not llm.judge_requests


@pytest.mark.parametrize(
    ("path", "example"),
    [
        (REPO / "corpus" / "csv-toolkit", f"{(REPO / 'corpus' / 'csv-toolkit').as_posix()}/skills/NAME"),
        (SKILLS, TARGET.as_posix()),
    ],
)  # fmt: skip
def test_a_plugin_or_several_skills_is_a_usage_error(
    llm: FakeLLM, tmp_path: Path, path: Path, example: str
) -> None:
    result = certify(llm, tmp_path / "cert", path=path)
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    assert "certify one skill at a time" in said and f"plugin-eval certify {example}" in said
    assert not (tmp_path / "cert").exists() and not llm.judge_requests


def test_a_file_that_is_not_a_certificate_is_never_overwritten(
    llm: FakeLLM, tmp_path: Path
) -> None:
    out = tmp_path / "cert"
    out.mkdir()
    (out / "certificate.md").write_text("my notes\n")
    result = certify(llm, out)
    assert result.exit_code == 2
    assert "certificate.md there is not a certificate" in " ".join(result.stderr.split())
    assert (out / "certificate.md").read_text() == "my notes\n"
    assert sorted(p.name for p in out.iterdir()) == ["certificate.md"]
    assert not llm.requests and not llm.judge_requests


@pytest.mark.parametrize("case", ["link-to-skill", "link-elsewhere", "under-a-file"])
def test_an_out_folder_that_cannot_take_the_certificate_is_refused_before_any_call(
    llm: FakeLLM, tmp_path: Path, case: str
) -> None:
    """A symlink (to the skill, or anywhere) or a path under a file is said before the paid
    thorough run, exit 2, and nothing is written into the skill."""
    skill = tmp_path / "skill"
    shutil.copytree(TARGET, skill)
    before = sorted(p.name for p in skill.iterdir())
    if case == "under-a-file":
        (tmp_path / "afile").write_text("x")
        out, said = tmp_path / "afile" / "cert", "cannot be written ("
    else:
        target = skill if case == "link-to-skill" else tmp_path / "elsewhere"
        target.mkdir(exist_ok=True)
        out, said = tmp_path / "cert", "is a symlink, and plugin-eval writes no certificate"
        out.symlink_to(target)
    result = certify(llm, out, path=skill)
    assert result.exit_code == 2, result.output
    assert f"--out {out}: {said}" in " ".join(result.stderr.split())
    assert not llm.requests and not llm.judge_requests
    assert sorted(p.name for p in skill.iterdir()) == before


def test_an_out_inside_the_skill_through_a_symlinked_skill_path_is_refused(
    llm: FakeLLM, tmp_path: Path
) -> None:
    skill = tmp_path / "skill"
    shutil.copytree(TARGET, skill)
    (tmp_path / "via").symlink_to(skill)
    result = certify(llm, skill / "cert", path=tmp_path / "via")
    assert result.exit_code == 2 and "is inside the skill" in result.stderr
    assert not (skill / "cert").exists()


def test_a_skill_that_could_not_be_scored_gets_no_certificate(llm: FakeLLM, tmp_path: Path) -> None:
    llm.fail_next(401)  # the router's key refused: the Monte Carlo layer stops
    result = certify(llm, tmp_path / "cert")
    assert result.exit_code == 1
    assert "could not be scored" in result.stderr and "401" in result.stderr
    assert not (tmp_path / "cert").exists() and result.stdout == ""


def test_a_hostile_skill_name_is_escaped_in_every_output(llm: FakeLLM, tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(SKILLS, skills)
    skill = skills / "csv-cleanup" / "SKILL.md"
    quoted = json.dumps(HOSTILE)  # a YAML double-quoted scalar reads JSON's escapes
    skill.write_text(skill.read_text().replace("name: csv-cleanup", f"name: {quoted}"))
    out = tmp_path / "cert"
    result = certify(llm, out, path=skills / "csv-cleanup")
    assert result.exit_code in (0, 1), result.stderr
    files = written(out)
    assert json.loads(files["certificate.json"])["skill"]["name"] == HOSTILE
    for name, text in files.items():
        assert "\x1b" not in text and "\u202e" not in text, name
    assert "<script>" not in files["certificate.md"] + files["badge.svg"]
    assert "\\x1b[31m" in files["certificate.txt"] and "\\u202e" in files["certificate.txt"]
    assert '&lt;script>alert(1)&lt;/script> "&amp;amp;' in files["certificate.md"]
    svg = ET.fromstring(files["badge.svg"])
    title = svg.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text is not None
    assert title.text.startswith('<script>alert(1)</script> "&amp;\\u202e\\x1b[31m: plugin-eval ')
    assert svg.get("aria-label") == title.text


def test_the_badge_is_self_contained(llm: FakeLLM, tmp_path: Path) -> None:
    result = certify(llm, tmp_path / "cert", "--runs", "50")
    assert result.exit_code == 0, result.stderr
    svg = written(tmp_path / "cert")["badge.svg"]
    root = ET.fromstring(svg)
    tags = {element.tag.split("}")[1] for element in root.iter()}
    assert tags == {"svg", "title", "rect", "g", "text"}
    assert "href" not in svg and "url(" not in svg and "@import" not in svg


def test_two_runs_are_identical_apart_from_the_timestamp(llm: FakeLLM, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert certify(llm, first).exit_code == 0
    a = written(first)
    assert certify(llm, second).exit_code == 0  # from the response cache
    b = written(second)
    assert a["badge.svg"] == b["badge.svg"]
    for name in FILES:
        assert unstamped(a[name]) == unstamped(b[name]), name
    differ = [
        (x, y)
        for x, y in zip(
            a["certificate.json"].splitlines(), b["certificate.json"].splitlines(), strict=True
        )
        if x != y
    ]
    assert all(x.startswith('  "generated_at": ') for x, _ in differ)
    assert certify(llm, first).exit_code == 0  # a previous certificate is replaced
