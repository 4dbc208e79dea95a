"""PE304 UNCLOSED_CODE_FENCE on fences inside blockquotes: '> ```' closes them, and one the
quote ends says so."""

from __future__ import annotations

from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from tests.conftest import write_files

FRONT = "---\nname: release-setup\ndescription: Installs release plugins. Use when preparing a release host.\n---\n\n"


def _pe304(tmp_path: Path, body: str) -> list[tuple[int | None, str]]:
    folder = tmp_path / "release-setup"
    write_files(folder, {"SKILL.md": FRONT + body})
    result = score_skill(folder, Config(), "release-setup")
    return [(f.line, f.message) for f in result.findings if f.code == "PE304"]


def test_a_quoted_closing_fence_closes_a_quoted_fence(tmp_path: Path) -> None:
    body = "# Setup\n\n> Install by hand:\n> ```\n> /plugin install tools\n> ```\n\nThen tag.\n"
    assert _pe304(tmp_path, body) == []


def test_a_fence_the_quote_ends_says_the_rest_of_the_quote_is_code(tmp_path: Path) -> None:
    body = "# Setup\n\n> Install by hand:\n> ```\n> /plugin install tools\n\nThen tag.\n"
    assert _pe304(tmp_path, body) == [
        (9, "code fence opened here is never closed: the rest of the blockquote renders as code")
    ]


def test_a_top_level_fence_never_closed_swallows_the_file(tmp_path: Path) -> None:
    body = "# Setup\n\n```\n/plugin install tools\n\n## Then\n\nTag.\n"
    assert _pe304(tmp_path, body) == [
        (8, "code fence opened here is never closed: the rest of the file renders as code")
    ]
