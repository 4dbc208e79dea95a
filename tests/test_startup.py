"""Start-up shortcuts of the `plugin-eval` process give what the plain way gives."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_eval import __main__ as entry
from plugin_eval import api
from plugin_eval.report import text
from plugin_eval.report.formats import RenderOptions

REPO = Path(__file__).resolve().parent.parent
SKILLS = sorted(p.parent for p in (REPO / "corpus").glob("*/SKILL.md"))

# --- the plain dimension table (report/text.py) -------------------------------------------

# Cells near the guard's edges: plain words, blanks, markup, escapes, wide and accented
# letters, the dash, long words.
WORDS = st.sampled_from(
    [
        *("triggering_accuracy", "scope", "x", "A-", "B+", "Good", "unmeasured", "—", ""),
        *("a b", " a", "a ", "[b]", "[bold]x", "\\", "a\\[b", "é", "中文", "~!@#$%^&*()", "-"),
        *("very_long_dimension_name_that_takes_a_lot_of_room", "a\tb", "ß", "]", "x" * 30),
    ]
)


def _row(
    name: str, weight: float, score: float | None, grade: str, label: str
) -> tuple[tuple[str, str], ...]:
    if score is None:
        return (
            (f"[dim]{name}[/]", name),
            (f"[dim]{weight:.2f}[/]", f"{weight:.2f}"),
            ("[dim]—[/]", "—"),
            ("", ""),
            ("[dim]unmeasured[/]", "unmeasured"),
        )
    return (
        (name, name),
        (f"{weight:.2f}", f"{weight:.2f}"),
        (f"[green]{score:.0f}[/]", f"{score:.0f}"),
        (grade, grade),
        (label, label),
    )


ROWS = st.lists(
    st.builds(
        _row,
        WORDS,
        st.floats(0, 10),
        st.none() | st.floats(0, 100),
        WORDS,
        WORDS,
    ),
    max_size=12,
)


def _table(rows: list[tuple[tuple[str, str], ...]], width: int, colour: bool) -> str:
    console, buffer = text.console_for(RenderOptions(width=width, colour=colour))
    text._dimension_table(console, rows)
    return text._finished(buffer)


@settings(max_examples=600, deadline=None)
@given(ROWS, st.integers(8, 200), st.booleans())
def test_the_plain_dimension_table_is_richs(
    rows: list[tuple[tuple[str, str], ...]], width: int, colour: bool
) -> None:
    shown = _table(rows, width, colour)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text, "_PLAIN_CELL", re.compile(r"(?!)"))  # never plain: Rich's table
        assert shown == _table(rows, width, colour)


@pytest.mark.parametrize("width", [30, 61, 62, 80, 240])
def test_text_reports_of_the_corpus_are_richs(width: int) -> None:
    batch = api.score_paths(SKILLS)
    for explain in (False, True):
        options = RenderOptions(width=width, explain=explain)
        shown = api.render(batch, "text", "batch", options)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(text, "_PLAIN_CELL", re.compile(r"(?!)"))
            assert shown == api.render(batch, "text", "batch", options)


# --- pydantic's plugin loader (__main__.py) --------------------------------------------------

PROBE = """
import sys
sys.argv = ["plugin-eval", "score", {skill!r}, "--depth", "quick", "-o", "json"]
from plugin_eval.__main__ import main
try:
    main()
finally:
    loader = sys.modules.get("pydantic.plugin._loader")
    print("LOADER", getattr(loader, "__file__", None) is not None, file=sys.stderr)
    print("METADATA", "importlib.metadata" in sys.modules, file=sys.stderr)
"""


def _probe(env_value: str | None) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if env_value is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = env_value
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(skill=str(REPO / "corpus" / "csv-cleanup"))],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout, done.stderr


def test_with_plugins_off_the_loader_is_not_imported() -> None:
    off, said = _probe(None)
    assert "LOADER False" in said and "METADATA False" in said
    on, said = _probe("")  # plugins on: pydantic's own loader looks for them
    assert "LOADER True" in said
    strip = re.compile(r'"generated_at": "[^"]*"')
    assert strip.sub("", off) == strip.sub("", on) and '"composite"' in off


@pytest.mark.parametrize("value", entry._PLUGINS_OFF)
def test_pydantics_loader_finds_no_plugin_for_the_values_the_stand_in_answers(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pydantic.plugin import _loader

    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", value)
    assert tuple(_loader.get_plugins()) == () == tuple(entry._plugins())


def test_the_stand_in_hands_over_when_plugins_are_turned_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pydantic.plugin import _loader

    monkeypatch.setitem(sys.modules, entry._LOADER, entry._STAND_IN)
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "")
    assert list(entry._plugins()) == list(_loader.get_plugins())
    assert sys.modules[entry._LOADER] is not entry._STAND_IN
