"""PE307 (a fence with a language inside a code block) and PE308 (a section with nothing in
it), on small skills laid out as real ones are: templates that nest fenced examples, doubled
openers, blocks in list items, anti-pattern headings left empty."""

from __future__ import annotations

from pathlib import Path

import pytest

from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.findings import Finding
from tests.conftest import write_files

# Seven lines: the body starts at line 8.
HEAD = (
    "---\nname: runbook-writer\ndescription: Writes on-call runbooks. Use when a service has "
    "no runbook, or after an incident showed it was stale.\n---\n\n# Runbook writer\n\n"
)


def found(tmp_path: Path, body: str, code: str) -> list[Finding]:
    write_files(tmp_path / "runbook-writer", {"SKILL.md": HEAD + body})
    result = score_skill(tmp_path / "runbook-writer", Config(), "runbook-writer")
    return [f for f in result.findings if f.code == code]


def where(findings: list[Finding]) -> list[tuple[str, int | None, int | None]]:
    return [(f.path, f.line, f.column) for f in findings]


# --- PE307 -------------------------------------------------------------------------------------


def test_a_template_whose_nested_block_closes_it_is_reported_at_the_nested_fence(
    tmp_path: Path,
) -> None:
    body = (
        "## Template\n\n"  # 8
        "```markdown\n"  # 10
        "# <Service> runbook\n\n"
        "```bash\n"  # 13
        "kubectl get pods\n```\n\n## Escalate\n```\n"
    )
    [finding] = found(tmp_path, body, "PE307")
    assert where([finding]) == [("runbook-writer/SKILL.md", 13, 1)]
    assert finding.severity.value == "warning"
    assert finding.message.startswith(
        "'```bash' sits inside the code block opened at line 10: a fence with a language never "
        "closes a block"
    )
    assert finding.fix == (
        "If the block at line 10 is an example that holds fenced blocks, open and close it with "
        "more backticks than they use ('````markdown' … '````'); otherwise close it before this "
        "line, or delete the fence at line 10 if it is a stray one."
    )


def test_a_doubled_opening_fence_is_one_to_delete(tmp_path: Path) -> None:
    body = "Build the image:\n\n```dockerfile\n```dockerfile\nFROM python:3.12-slim\n```\n"
    [finding] = found(tmp_path, body, "PE307")
    assert where([finding]) == [("runbook-writer/SKILL.md", 11, 1)]
    assert finding.fix == "Delete the fence at line 10: the block is opened twice."
    # The block still closes where it was meant to: no claim that the fences below pair wrong.
    assert finding.message == (
        "'```dockerfile' sits inside the code block opened at line 10: a fence with a language "
        "never closes a block, so it shows as the first line of the code (a doubled opening "
        "fence)"
    )


@pytest.mark.parametrize(
    "inner",
    ["``` python", "```\tpython", "```\u00a0bash", "````js"],
)
def test_an_inner_opener_is_read_as_commonmark_reads_its_info_string(
    tmp_path: Path, inner: str
) -> None:
    # Spaces or tabs before the language are stripped; a no-break space is part of it.
    body = f"```python\n{inner}\nprint(1)\n```\n"
    assert where(found(tmp_path, body, "PE307")) == [("runbook-writer/SKILL.md", 9, 1)]


def test_a_tilde_block_is_opened_only_by_tildes(tmp_path: Path) -> None:
    body = "~~~\n~~~ python\nprint(1)\n~~~\n\n~~~\n~~~~\n```python\n~~~\n"
    # "~~~ python" opens nothing inside; "~~~~" closes the second block, "```python" then opens.
    assert where(found(tmp_path, body, "PE307")) == [("runbook-writer/SKILL.md", 9, 1)]


def test_a_block_in_a_list_item_is_placed_at_its_column_in_the_file(tmp_path: Path) -> None:
    body = "1. Check the pods:\n\n   ```bash\n   ```bash\n   kubectl get pods\n   ```\n"
    assert where(found(tmp_path, body, "PE307")) == [("runbook-writer/SKILL.md", 11, 4)]


def test_after_the_first_mispaired_fence_the_fix_says_to_fix_that_one_first(
    tmp_path: Path,
) -> None:
    # Two wrapper blocks: the second opener is read as the closer of what the first left.
    body = (
        "```javascript\n```yaml\nname: a\n```\n\n"  # 8, 9: a doubled opener
        "Then the client:\n\n"
        "```markdown\n"  # 15
        "```js\nrun()\n```\n"  # 16
    )
    findings = found(tmp_path, body, "PE307")
    assert where(findings) == [
        ("runbook-writer/SKILL.md", 9, 1),
        ("runbook-writer/SKILL.md", 16, 1),
    ]
    assert findings[0].fix == "Delete the fence at line 8: the block is opened twice."
    assert findings[1].fix == (
        "Fix the first fence reported above (line 9) and read again: fences pair from the top "
        "of the file, so this block may have been opened by a fence meant to close one. If it "
        "still is reported: delete the fence at line 15: the block is opened twice."
    )


@pytest.mark.parametrize(
    "body",
    [
        # A longer outer fence holds the nested example: what the fix asks for.
        "````markdown\n# Runbook\n\n```bash\nkubectl get pods\n```\n````\n",
        # Tildes around backticks: another kind of fence, which cannot close it.
        "~~~markdown\n```bash\nkubectl get pods\n```\n~~~\n",
        # A shorter run inside a longer block, and a fence in a code span.
        "````\n```js\n````\n\nWrite ```` ```js ```` to open a JavaScript block.\n",
        # Blocks one after another, each closed.
        "```bash\nmake\n```\n\n```python\nprint(1)\n```\n",
    ],
)
def test_fences_that_pair_as_written_are_not_reported(tmp_path: Path, body: str) -> None:
    assert found(tmp_path, body, "PE307") == []


# --- PE308 -------------------------------------------------------------------------------------


def test_empty_sections_are_reported_at_their_heading(tmp_path: Path) -> None:
    body = (
        "Verify, store, acknowledge.\n\n"  # 8
        "## Anti-patterns\n\n"  # 10: a parent of what follows, not empty
        "### Skipping signature verification\n\n"  # 12: empty
        "### Processing before acknowledging\n\n"  # 14
        "Acknowledge first, then queue the work.\n\n"
        "## Sharp edges\n\n"  # 18: empty
        "## Output\n\n"  # 20
        "A receiver that returns 2xx.\n\n"
        "## Related skills\n"  # 24: empty, at the end of the file
    )
    findings = found(tmp_path, body, "PE308")
    assert where(findings) == [
        ("runbook-writer/SKILL.md", 12, 1),
        ("runbook-writer/SKILL.md", 18, 1),
        ("runbook-writer/SKILL.md", 24, 1),
    ]
    assert [f.message for f in findings] == [
        "section 'Skipping signature verification' is empty: the heading 'Processing before "
        "acknowledging' (line 14) follows it, with nothing between them",
        "section 'Sharp edges' is empty: the heading 'Output' (line 20) follows it, with "
        "nothing between them",
        "section 'Related skills' is empty: nothing follows it before the end of the file",
    ]
    assert {f.severity.value for f in findings} == {"info"}


def test_a_paragraph_made_a_heading_by_a_rule_under_it_is_content(tmp_path: Path) -> None:
    # "Run … service." over a '---' is a heading to CommonMark, but the author wrote text.
    body = "## Setup\nRun the installer.\nThen restart the service.\n---\n\n## Output\n\nOk.\n"
    assert found(tmp_path, body, "PE308") == []


def test_an_indented_heading_is_placed_where_it_starts(tmp_path: Path) -> None:
    body = "   ## Empty\n\n## Output\n\nOk.\n"
    assert where(found(tmp_path, body, "PE308")) == [("runbook-writer/SKILL.md", 8, 4)]


@pytest.mark.parametrize(
    "body",
    [
        # A title followed by a section, a section with a table, one with a code block.
        "## Steps\n\n| step | what |\n|---|---|\n| 1 | read |\n\n## Output\n\n```json\n{}\n```\n",
        # A heading in a list item belongs to the item.
        "- ## Inline heading\n- another item\n\n## Output\n\nText.\n",
        # A setext heading with text under it.
        "Output\n------\n\nThe runbook.\n",
        # A paragraph that a rule right under it makes a heading: its text is no title.
        "You are a reviewer.\nYou read every line.\n---\n\n## Output\n\nNotes.\n",
    ],
)
def test_sections_with_something_in_them_are_not_reported(tmp_path: Path, body: str) -> None:
    assert found(tmp_path, body, "PE308") == []
