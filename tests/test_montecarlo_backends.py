"""The model backends through the real SDKs, over real HTTP, against tests/fake_llm_server.py."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.montecarlo import stats
from plugin_eval.montecarlo.backends.base import Call, CallFailed, Reply
from plugin_eval.montecarlo.runner import BackendBroken, Runner
from tests.conftest import REPO, TEST_KEY
from tests.fake_llm_server import FakeLLM, answer
from tests.test_montecarlo_offline import SKILLS, TARGET, monte_carlo, vague_copy

SECRET = TEST_KEY
runner = CliRunner()


def score(
    llm: FakeLLM, *args: str, backend: str = "openai", path: Path = TARGET, depth: str = "deep"
) -> dict[str, Any]:
    url = f"{llm.url}/v1" if backend == "openai" else llm.url
    result = runner.invoke(
        app,
        [
            "score", str(path), "--depth", depth, "-o", "json", "--fail-on", "none",
            "--backend", backend, "--base-url", url, "--model", "fake-router",
            "--concurrency", "8", *args,
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_openai_backend_measures_from_real_http_calls(llm: FakeLLM) -> None:
    mc = monte_carlo(score(llm, "--runs", "32"))
    assert mc["simulated"] is False and mc["backend"] == "openai"
    assert mc["runs"] == 32 and mc["distinct_prompts"] == 16  # prompts repeat: new draws
    assert llm.count() == mc["usage"]["backend_calls"] == mc["usage"]["calls"] > 0
    assert {path for path, _ in llm.requests} == {"/v1/chat/completions"}
    route = next(body for _, body in llm.requests if body.get("tools"))
    names = [t["function"]["name"] for t in route["tools"]]
    assert names == [
        "csv-cleanup",
        "csv-merge",
        "csv-profile",
        "json-format",
        "release-notes",
        "none",
    ]
    assert route["tool_choice"] == "required"
    assert mc["triggering"]["f1"]["value"] > 0.8


def test_an_immediate_second_run_makes_no_http_call(llm: FakeLLM) -> None:
    first = score(llm, "--runs", "20")
    calls = llm.count()
    second = score(llm, "--runs", "20")
    assert llm.count() == calls
    assert monte_carlo(second)["usage"]["cached_calls"] == monte_carlo(first)["usage"]["calls"]
    assert monte_carlo(second)["usage"]["backend_calls"] == 0
    assert monte_carlo(second)["triggering"] == monte_carlo(first)["triggering"]
    score(llm, "--runs", "20", "--no-cache")
    assert llm.count() == 2 * calls


def test_anthropic_backend_speaks_the_messages_api(llm: FakeLLM) -> None:
    mc = monte_carlo(score(llm, "--runs", "16", backend="anthropic"))
    assert {path for path, _ in llm.requests} == {"/v1/messages"}
    route = next(body for _, body in llm.requests if body.get("tools"))
    assert route["tool_choice"] == {"type": "any"}
    assert route["tools"][-1]["name"] == "none" and "input_schema" in route["tools"][0]
    sent = llm.headers[0]
    assert SECRET in sent.get("x-api-key", "") + sent.get("authorization", "")
    assert mc["triggering"]["f1"]["value"] > 0.8


def test_replies_give_quality_consistency_robustness_and_output_tokens(llm: FakeLLM) -> None:
    report = score(llm, "--runs", "32")
    mc = monte_carlo(report)
    quality = mc["output_quality"]
    assert quality["mean"]["method"] == "BCa bootstrap" and quality["cases"] == 5
    assert quality["mean"]["ci_lower"] <= quality["mean"]["value"] <= quality["mean"]["ci_upper"]
    assert mc["consistency"]["score"] == 100  # the test server answers the same every time
    # Output tokens are the replies' own, not the skill text sent as input.
    replies = [
        len(answer(body["messages"][0]["content"], body["messages"][-1]["content"]).split())
        for _, body in llm.requests
        if not body.get("tools")
    ]
    assert mc["tokens"]["median_output_tokens"] == statistics.median(replies)
    dims = {d["name"]: d for d in report["composite"]["dimensions"]}
    assert dims["output_quality"]["layer_scores"]["monte_carlo"] == quality["mean"]["value"]
    assert dims["robustness"]["layer_scores"]["monte_carlo"] == 1.0
    efficiency = 1 - mc["tokens"]["median_output_tokens"] / 8000
    assert dims["token_efficiency"]["layer_scores"]["monte_carlo"] == pytest.approx(
        efficiency, abs=1e-4
    )


def test_vague_description_scores_lower_f1_on_the_server(llm: FakeLLM, tmp_path: Path) -> None:
    precise = monte_carlo(score(llm, "--runs", "16"))["triggering"]
    vague = monte_carlo(score(llm, "--runs", "16", path=vague_copy(tmp_path)))["triggering"]
    assert vague["f1"]["value"] < precise["f1"]["value"] - 0.5
    assert sum(vague["stolen_by"].values()) == vague["fn"] > precise["fn"]
    assert set(vague["stolen_by"]) - {"none"}  # siblings took some of them


def test_rate_limits_are_retried_after_the_servers_wait(llm: FakeLLM) -> None:
    llm.fail_next(429, times=2, headers={"retry-after": "0"})
    mc = monte_carlo(score(llm, "--runs", "16"))
    assert mc["usage"]["retries"] == 2
    assert mc["failures"]["failures"] == 0
    assert mc["usage"]["backend_calls"] == mc["usage"]["calls"] + 2


def test_a_malformed_reply_is_a_failure_with_an_exact_interval(llm: FakeLLM) -> None:
    llm.fail_next(200, body=b"{not json")
    mc = monte_carlo(score(llm, "--runs", "16", "--concurrency", "1"))
    f = mc["failures"]
    assert f["failures"] == 1 and f["by_kind"] == {"malformed": 1}
    assert (f["rate"]["ci_lower"], f["rate"]["ci_upper"]) == pytest.approx(
        stats.clopper_pearson(1, f["calls"]), abs=1e-4
    )
    assert f["rate"]["method"] == "clopper-pearson"
    assert mc["triggering"]["failed_runs"] + (mc["runs"] - 16) == 1 or mc["output_quality"]


def test_a_server_error_that_persists_is_a_failure_not_a_crash(llm: FakeLLM) -> None:
    llm.fail_next(500, times=4, headers={"retry-after": "0"})
    mc = monte_carlo(score(llm, "--runs", "16", "--concurrency", "1"))
    assert mc["failures"]["by_kind"] == {"server_error": 1}
    assert mc["usage"]["retries"] == 3


def test_an_unknown_tool_from_the_model_is_malformed(llm: FakeLLM) -> None:
    body = {
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "rm-rf", "arguments": "{}"}}
            ]}}],
    }  # fmt: skip
    llm.fail_next(200, body=json.dumps(body).encode())
    mc = monte_carlo(score(llm, "--runs", "16", "--concurrency", "1"))
    assert mc["failures"]["by_kind"] == {"malformed": 1}
    assert "unknown tool 'rm-rf'" in mc["failures"]["first_message"]


def test_a_refused_key_stops_with_a_clear_message_and_never_shows_the_key(llm: FakeLLM) -> None:
    llm.fail_next(401, times=20)
    result = runner.invoke(
        app,
        ["score", str(TARGET), "--depth", "deep", "--backend", "openai",
         "--base-url", f"{llm.url}/v1", "--model", "fake-router"],
    )  # fmt: skip
    assert result.exit_code == 1
    assert "refused the API key" in result.stderr
    assert SECRET not in result.stdout + result.stderr


@pytest.mark.parametrize("key", [f"{SECRET}\n", f" {SECRET} "], ids=["newline", "spaces"])
def test_white_space_around_the_key_is_no_part_of_it(
    llm: FakeLLM, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", key)
    report = score(llm, "--runs", "10")
    assert monte_carlo(report)["runs"] == 10
    assert llm.headers[-1]["authorization"] == f"Bearer {SECRET}"


def test_a_control_character_inside_the_key_is_said_before_any_call(
    llm: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET[:6] + "\x07" + SECRET[6:])
    result = runner.invoke(
        app,
        ["score", str(TARGET), "--depth", "deep", "--backend", "openai",
         "--base-url", f"{llm.url}/v1", "--model", "fake-router"],
    )  # fmt: skip
    assert result.exit_code == 2 and not llm.requests
    assert "OPENAI_API_KEY holds white space or a control character inside the key" in (
        result.stderr
    )
    assert SECRET[6:] not in result.stdout + result.stderr


def test_the_key_is_never_written_to_the_report_or_the_cache(llm: FakeLLM, tmp_path: Path) -> None:
    report = score(llm, "--runs", "16")
    assert llm.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in json.dumps(report)
    (database,) = (tmp_path / "cache").glob("*.sqlite3")
    assert SECRET.encode() not in database.read_bytes()
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT key, reply FROM responses").fetchall()
    assert rows and not any(SECRET in key + reply for key, reply in rows)


def test_max_cost_stops_cleanly_with_partial_results(llm: FakeLLM) -> None:
    # The judge spends first: run it once so that its verdicts come from the cache (free).
    judged = score(llm, "--price", "1000,1000", depth="standard")
    assert judged["layers"][1]["judge"]["usage"]["cost_usd"] > 0.5
    report = score(llm, "--runs", "40", "--price", "1000,1000", "--max-cost", "0.5")
    assert report["layers"][1]["judge"]["usage"]["cost_usd"] == 0
    mc = monte_carlo(report)
    assert mc["partial"] is True and mc["stopped_early"] == "max_cost"
    assert mc["runs"] == 10  # the first batch finishes; no call starts after the budget
    assert mc["usage"]["cost_usd"] >= 0.5
    assert any("results are partial" in note for note in report["notes"])


def test_the_max_cost_note_names_the_limit_given_and_what_the_judge_spent(llm: FakeLLM) -> None:
    judged = score(llm, "--price", "1000,1000", "--no-cache", depth="standard")
    spent = judged["layers"][1]["judge"]["usage"]["cost_usd"]
    limit = round(spent + 0.5, 6)
    report = score(
        llm, "--runs", "40", "--price", "1000,1000", "--max-cost", f"{limit}", "--no-cache"
    )
    assert report["layers"][1]["judge"]["usage"]["cost_usd"] == spent
    assert any(
        note.startswith(f"stopped at --max-cost {limit:g} USD (the judge spent {spent:g} of it)")
        for note in report["notes"]
    ), report["notes"]


def test_ci_width_stops_once_every_interval_is_narrow(llm: FakeLLM) -> None:
    wide = monte_carlo(score(llm, "--runs", "40", "--ci-width", "0.95"))
    assert wide["stopped_early"] == "ci_width" and wide["runs"] == 20
    narrow = monte_carlo(score(llm, "--runs", "40", "--ci-width", "0.01"))
    assert narrow["stopped_early"] is None and narrow["runs"] == 40


def test_the_model_writes_the_prompts_when_there_is_no_eval_file(
    llm: FakeLLM, tmp_path: Path
) -> None:
    copy = tmp_path / "skills"
    shutil.copytree(SKILLS, copy)
    shutil.rmtree(copy / "csv-cleanup" / "evals")
    mc = monte_carlo(score(llm, "--runs", "20", path=copy / "csv-cleanup"))
    assert mc["prompt_source"] == "written by openai fake-router"
    generate = llm.requests[0][1]
    assert generate["tool_choice"] == {
        "type": "function",
        "function": {"name": "write_eval_prompts"},
    }
    assert "Neighbour skills" in generate["messages"][-1]["content"]
    owners = {p["owner"] for p in mc["prompts"] if not p["should_trigger"]}
    assert "csv-profile" in owners


def test_the_test_server_runs_on_its_own_for_a_demo() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.fake_llm_server", "--port", "0"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("anthropic: --backend anthropic --base-url http://127.0.0.1:")
    finally:
        proc.terminate()
        proc.wait(timeout=5)


# --- the runner alone: timeouts and backoff without waiting ---------------------------


class Scripted:
    """A backend that plays a script of replies and failures (no HTTP)."""

    name, model = "scripted", "m"
    base_url: str | None = None
    simulated, can_answer, can_generate = False, True, False

    def __init__(self, *script: Reply | CallFailed | float) -> None:
        self.script = list(script)

    async def call(self, call: Call) -> Reply:
        step = self.script.pop(0)
        if isinstance(step, float):
            await asyncio.sleep(step)
            return Reply("late")
        if isinstance(step, CallFailed):
            raise step
        return step

    async def aclose(self) -> None:
        return None


def _run(backend: Scripted, timeout: float = 5.0) -> tuple[Any, list[float], Runner]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def go() -> tuple[Any, Runner]:
        r = Runner(
            backend,
            concurrency=1,
            timeout=timeout,
            cache=None,
            price=None,
            max_cost=None,
            sleep=sleep,
        )
        return await r.run(Call("answer", "x")), r

    outcome, r = asyncio.run(go())
    return outcome, waits, r


def test_backoff_doubles_without_a_retry_after() -> None:
    busy = CallFailed("server_error", "503", retryable=True)
    outcome, waits, r = _run(Scripted(busy, busy, busy, Reply("ok")))
    assert outcome.reply == Reply("ok") and waits == [0.5, 1.0, 2.0] and r.retries == 3


def test_retries_stop_after_four_attempts() -> None:
    busy = CallFailed("rate_limit", "429", retryable=True, retry_after=0.0)
    outcome, waits, _ = _run(Scripted(busy, busy, busy, busy, Reply("never")))
    assert outcome.error == "rate_limit" and waits == [0.0, 0.0, 0.0]


def test_a_timeout_is_a_failure_and_is_not_retried() -> None:
    outcome, waits, r = _run(Scripted(0.5, Reply("never")), timeout=0.01)
    assert outcome.error == "timeout" and waits == [] and r.backend_calls == 1


def test_a_fatal_error_stops_the_layer() -> None:
    with pytest.raises(BackendBroken, match="refused"):
        _run(Scripted(CallFailed("auth", "HTTP 401: the endpoint refused the API key", fatal=True)))


def _none_routed(**extra: Any) -> dict[str, Any]:
    """A well-formed completion that routes to no skill, with ``extra`` top-level fields."""
    return {
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None, "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "none", "arguments": "{}"}}
            ]}}],
        **extra,
    }  # fmt: skip


def test_a_compressed_reply_is_never_inflated_and_is_malformed(llm: FakeLLM) -> None:
    import gzip

    # A gzip bomb inflates a small body to gigabytes: a reply compressed though the request
    # asked for none is passed on as it came, which no SDK can read.
    body = gzip.compress(json.dumps(_none_routed()).encode())
    llm.fail_next(200, body=body, headers={"content-encoding": "gzip"})
    mc = monte_carlo(score(llm, "--runs", "16", "--concurrency", "1"))
    assert mc["failures"]["by_kind"] == {"malformed": 1}


def test_a_reply_body_past_its_budget_is_cut_and_malformed(llm: FakeLLM) -> None:
    from plugin_eval.budgets import MODEL_REPLY_BYTES

    padded = json.dumps(_none_routed(junk="x" * (MODEL_REPLY_BYTES + 1000))).encode()
    llm.fail_next(200, body=padded)
    mc = monte_carlo(score(llm, "--runs", "16", "--concurrency", "1"))
    assert mc["failures"]["by_kind"] == {"malformed": 1}


def test_usage_that_is_no_count_of_tokens_is_unknown_and_no_crash(llm: FakeLLM) -> None:
    from plugin_eval.montecarlo.backends.base import token_count

    assert [token_count(v) for v in (True, False, -1, 10**400, 12, 1.5, "7")] == [
        None, None, None, None, 12, None, None,
    ]  # fmt: skip
    usage = {"prompt_tokens": 10**400, "completion_tokens": True, "total_tokens": 0}
    llm.fail_next(200, body=json.dumps(_none_routed(usage=usage)).encode())
    mc = monte_carlo(score(llm, "--runs", "16", "--concurrency", "1", "--price", "1,2"))
    assert mc["failures"]["failures"] == 0
