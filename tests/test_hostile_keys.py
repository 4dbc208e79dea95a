"""An endpoint that echoes the API key: no piece of it reaches any output or the cache.

The CLI runs against tests/fake_llm_server.py in its echo mode, which puts (a piece of) the
key each request carried into its errors, answers, tool names or written prompts; then
stdout, stderr, the JSON report, the reply cache's bytes and the --save-evals file are
searched for every 8-character run of the key, also with whitespace taken out.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.montecarlo.backends.base import Call, CallFailed, Reply
from plugin_eval.montecarlo.backends.redaction import MIN_FRAGMENT, Redacted, Redactor
from tests.fake_llm_server import Echo, FakeLLM
from tests.test_montecarlo_offline import SKILLS

# No hex digit run of 8 in it, so a SHA-256 in the cache cannot match it by chance.
KEY = "sk-hostile-Qw7zKpLmXrTbVnYcJdHsFgAuPe"
SEPARATORS = re.compile(r"(?:\s|\\[nrt])+")
runner = CliRunner()


def fragments(key: str) -> set[str]:
    """Every run of MIN_FRAGMENT characters of the key (whitespace in a key is not sent)."""
    key = SEPARATORS.sub("", key)
    width = min(MIN_FRAGMENT, len(key))
    return {key[i : i + width] for i in range(len(key) - width + 1)} if key else set()


def leaked(text: str, key: str = KEY) -> set[str]:
    """The key's fragments in the text as it is, or with whitespace (and ``\\n``) taken out."""
    flat = SEPARATORS.sub("", text)
    return {f for f in fragments(key) if f in text or f in flat}


def chunks(key: str, size: int, glue: str) -> str:
    return glue.join(key[i : i + size] for i in range(0, len(key), size))


PIECES: dict[str, Callable[[str], str]] = {
    "padded": lambda k: "x" * 160 + k,  # cut at 200 before redaction, it showed 20 characters
    "whole": lambda k: f"the key you sent is {k}, thanks",
    "split": lambda k: f"{k[:14]}\n{k[14:]}",
    "chunked": lambda k: chunks(k, 5, "\n "),  # no 8 characters in a row, the key whole
    "prefix": lambda k: f"{k[:12]}…",
    "suffix": lambda k: f"…{k[-12:]}",
}


@pytest.fixture
def llm(llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> FakeLLM:
    """The shared loopback server (conftest), with this file's key in the environment."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    return llm


@pytest.mark.parametrize("backend", ["anthropic", "openai"])
@pytest.mark.parametrize("into", ["error", "body", "text", "tool", "prompt"])
@pytest.mark.parametrize("piece", list(PIECES))
def test_no_piece_of_an_echoed_key_reaches_an_output_or_the_cache(
    llm: FakeLLM,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    backend: str,
    into: str,
    piece: str,
) -> None:
    skills = tmp_path / "skills"
    shutil.copytree(SKILLS, skills)
    shutil.rmtree(skills / "csv-cleanup" / "evals")  # so the model writes the prompts
    cache, saved = tmp_path / "cache", tmp_path / "evals.json"
    monkeypatch.setenv("PLUGIN_EVAL_CACHE_DIR", str(cache))
    llm.echo = Echo(into, PIECES[piece])  # type: ignore[arg-type]
    url = f"{llm.url}/v1" if backend == "openai" else llm.url
    result = runner.invoke(
        app,
        [
            "score", str(skills / "csv-cleanup"), "--depth", "deep", "-o", "json",
            "--fail-on", "none", "--backend", backend, "--base-url", url,
            "--model", "fake-router", "--runs", "12", "--save-evals", str(saved),
        ],
    )  # fmt: skip
    assert llm.count() > 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    outputs = {
        "stdout": result.stdout,
        "stderr": result.stderr,
        "cache": "".join(p.read_bytes().decode("latin-1") for p in cache.glob("*")),
        "saved": saved.read_text() if saved.exists() else "",
    }
    for where, text in outputs.items():
        assert not leaked(text), f"{where} holds {sorted(leaked(text))}"
    # The echo did arrive, and was redacted where it would have shown (or cut off after).
    places = {"error": "stderr", "body": "stderr", "text": "cache", "tool": "stdout"}
    shown = outputs[places.get(into, "saved")]
    if into == "body" and backend == "openai":  # its SDK does not quote a body that is not JSON
        assert "HTTP 400: Error code: 400" in shown
    else:
        assert "***" in shown or (piece == "padded" and "x" * 20 in shown)


# --- the redactor: the class, not the samples -----------------------------------------

KEYS = st.text(
    st.characters(min_codepoint=33, max_codepoint=0x2FF, exclude_characters="\\"),
    min_size=1,
    max_size=60,
)
NOISE = st.text(st.characters(min_codepoint=9, max_codepoint=0x2FF), max_size=40)
GLUE = st.sampled_from(["", " ", "\n", "\r\n", "\t", "  \n ", "\\n", "\\r\\n"])


@st.composite
def hostile(draw: st.DrawFn) -> tuple[str, str]:
    """A key, and text that quotes pieces of it (cut, broken by whitespace) among noise."""
    key = draw(KEYS)
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(key) - 1))
        stop = draw(st.integers(start + 1, len(key)))
        size = draw(st.integers(1, len(key)))
        glue = draw(GLUE)
        parts += [draw(NOISE), chunks(key[start:stop], size, glue)]
    return key, "".join([*parts, draw(NOISE)])


@given(hostile())
@example((KEY, "x" * 160 + KEY))
@example((KEY, chunks(KEY, 3, "\\n")))
@example(("a*b*c*d*e*f", "a*b*c*d*e*f"))
def test_no_fragment_of_the_key_survives_redaction(case: tuple[str, str]) -> None:
    key, text = case
    assert not leaked(Redactor(key).text(text), key)


@st.composite
def near_misses(draw: st.DrawFn) -> tuple[str, str]:
    """A key, and text made of its short pieces (under MIN_FRAGMENT) and noise."""
    key = draw(KEYS.filter(lambda k: len(k) > MIN_FRAGMENT))
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, len(key) - MIN_FRAGMENT))
        parts += [draw(NOISE), key[start : start + draw(st.integers(1, MIN_FRAGMENT - 1))]]
    return key, "".join(parts)


@given(near_misses())
def test_text_without_a_fragment_of_the_key_is_unchanged(case: tuple[str, str]) -> None:
    key, text = case
    assume(not leaked(text, key))
    assert Redactor(key).text(text) == text


def test_fragments_shorter_than_eight_characters_are_kept() -> None:
    redactor = Redactor(KEY)
    assert redactor.text(f"{KEY[:7]} and {KEY[-7:]}") == f"{KEY[:7]} and {KEY[-7:]}"
    assert redactor.text(f"{KEY[:8]} or {KEY[-8:]}") == "*** or ***"


def test_a_key_shorter_than_eight_characters_is_redacted_only_whole() -> None:
    redactor = Redactor("abc123")
    assert redactor.text("abc12 abc123 c123") == "abc12 *** c123"


def test_the_mark_is_never_made_of_the_keys_own_characters() -> None:
    redactor = Redactor("sk-*-0123456789")
    assert redactor.mark == "###" and redactor.text("sk-*-0123456789") == "###"


def test_no_key_redacts_nothing() -> None:
    assert Redactor(None).text("anything at all") == "anything at all"
    assert Redactor("  ").text("anything at all") == "anything at all"


def test_every_string_of_a_reply_is_redacted() -> None:
    reply = Reply(
        text=f"hi {KEY}",
        tool=KEY,
        tool_input={KEY: [KEY[:10], {"n": 1, "s": KEY[-10:]}]},
        scores={KEY: 0.5},
    )
    clean = Redactor(KEY).reply(reply)
    assert not leaked(repr(clean))
    assert clean.text == "hi ***" and clean.tool == "***" and clean.scores == {"***": 0.5}
    assert clean.tool_input == {"***": ["***", {"n": 1, "s": "***"}]}


def test_a_failure_is_redacted_before_it_is_cut() -> None:
    failure = CallFailed("server_error", "x" * 190 + KEY, retryable=True, retry_after=2.0)
    clean = Redactor(KEY).failure(failure)
    assert str(clean) == "x" * 190 + "***" and not leaked(str(clean))
    assert (clean.kind, clean.retryable, clean.retry_after) == ("server_error", True, 2.0)


class Raising:
    """A backend whose every call raises ``outcome``, or returns it when it is a reply."""

    name, model = "raising", "m"
    base_url: str | None = None
    simulated, can_answer, can_generate = False, True, False

    def __init__(self, outcome: Exception | Reply) -> None:
        self.outcome = outcome

    async def call(self, call: Call) -> Reply:
        if isinstance(self.outcome, Reply):
            return self.outcome
        raise self.outcome

    async def aclose(self) -> None:
        return None


def test_any_error_out_of_a_backend_becomes_a_redacted_failure() -> None:
    backend = Redacted(Raising(AttributeError(f"no field in {KEY}")), KEY)
    with pytest.raises(CallFailed) as caught:
        asyncio.run(backend.call(Call("answer", "x")))
    assert caught.value.kind == "malformed" and not leaked(str(caught.value))
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_a_reply_past_model_reply_chars_is_a_failure_never_redacted_or_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 50 MB reply from a hostile endpoint costs no pass over it: refused at the boundary."""
    from plugin_eval import budgets

    monkeypatch.setattr(budgets, "MODEL_REPLY_CHARS", 40)
    fits = Reply(text="x" * 20, tool="pick", tool_input={"a": "y" * 5})
    assert asyncio.run(Redacted(Raising(fits), KEY).call(Call("answer", "x"))) == fits
    big = Reply(text="x" * 20, tool="pick", tool_input={"a": "y" * 20})
    with pytest.raises(CallFailed) as caught:
        asyncio.run(Redacted(Raising(big), KEY).call(Call("answer", "x")))
    assert caught.value.kind == "malformed" and not caught.value.retryable
    assert str(caught.value) == (
        "the reply has 53 characters, more than the 40 a run reads (MODEL_REPLY_CHARS)"
    )
