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


def test_a_closer_an_inner_block_stole_names_the_example_and_a_longer_fence(
    tmp_path: Path,
) -> None:
    """An example opened with a language holds a fenced block whose closing fence closes the
    example; the example's own closer then opens a block to the end of the file. The fix
    names the example and the fence that keeps the inner block inside it."""
    body = (
        "# Setup\n\n## Plan template\n\n```markdown\n### Task N\n\n```python\ndef test():\n"
        "    pass\n```\n\nRun it.\n```\n\n## Then\n\nTag.\n"
    )
    folder = tmp_path / "release-setup"
    write_files(folder, {"SKILL.md": FRONT + body})
    [finding] = [
        f for f in score_skill(folder, Config(), "release-setup").findings if f.code == "PE304"
    ]
    assert (finding.path, finding.line, finding.column) == ("release-setup/SKILL.md", 19, 1)
    assert finding.message == (
        "code fence opened here is never closed: the rest of the file renders as code (it was "
        "meant to close the block opened at line 10, which the fenced block inside it, line 13, "
        "closed early)"
    )
    assert finding.fix == (
        "Open the block at line 10 with ```` and close it here with ````: a longer fence keeps "
        "the fenced block inside it."
    )


def test_a_bare_block_holding_a_fence_is_a_closer_paired_wrong_and_gets_the_general_fix(
    tmp_path: Path,
) -> None:
    """A doubled fence ('```' then '```') makes the second open a bare block: what it holds is
    not an example, so no wrapper is named."""
    body = (
        "# Setup\n\n```bash\nls\n```\n```\n\n## Next\n\n```javascript\nrun()\n```\n\nDone.\n```\n"
    )
    assert _pe304(tmp_path, body) == [
        (20, "stray code fence: it opens a block that holds nothing and is never closed")
    ]
