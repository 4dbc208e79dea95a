"""TABLE_CELLS: the cells the parser makes for a body's tables, each a few tokens of hundreds of
bytes. One 4 MiB table of one-byte cells under 1,000 columns made 4 million of them (4.8 GB);
rows without a "|" are filled in to the header's columns, so a few lines can make thousands.
Past the budget, the body from the row that passes it is read as lines of text only, and
PE005 names that row, as at MARKDOWN_LINES lines."""

from __future__ import annotations

import pytest

from plugin_eval import budgets
from plugin_eval.document import parse_skill
from plugin_eval.findings import Finding
from plugin_eval.markdown_parser import CellsSpent, parse_capped, parse_lines
from plugin_eval.results import SkillResult
from tests.conftest import REPO, MakeSkill, score

# The description is on line 3, the body from line 6.
FRONT = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n"
)
# Line 6 a heading, line 8 the table's header row, line 9 its delimiter row, lines 10 to 15
# its rows (each a link to a missing file, at column 7), line 17 a link after the table.
TABLE = (
    "# Steps\n\n| Step | File | Note |\n|---|:---:|---|\n"
    + "".join(f"| {i} | [r{i}](references/r{i}.md) | x |\n" for i in range(1, 7))
    + "\nSee [the guide](references/guide.md) for more.\n"
)
AFTER = "See [the guide](references/guide.md) for more."


def _listed(result: SkillResult, code: str) -> list[Finding]:
    return [f for f in result.findings if f.code == code]


def _cut_message(at: int, table: int, columns: int) -> str:
    return (
        f"the body's tables pass {budgets.TABLE_CELLS:,} cells at line {at} (the table at line "
        f"{table} has {columns:,} columns); the lines before it are read as Markdown, the rest "
        "only as lines of text"
    )


def test_a_table_past_the_budget_is_read_as_markdown_up_to_the_row_that_passes_it(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The header row and three rows fit (4 x 3 cells); the fourth row, line 13, passes them.
    monkeypatch.setattr(budgets, "TABLE_CELLS", 12)
    folder = make_skill(FRONT + TABLE)
    result = score(folder)
    [cut] = _listed(result, "PE005")
    assert (cut.code, cut.path, cut.line, cut.column) == (
        "PE005",
        "example-skill/SKILL.md",
        13,
        None,
    )
    assert cut.message == _cut_message(13, 8, 3)
    # The rows before the cut are read (their links are missing files); the rows from it on
    # and the link after the table are not parsed as Markdown.
    assert [(f.line, f.column) for f in _listed(result, "PE201")] == [(10, 7), (11, 7), (12, 7)]
    doc = parse_skill(folder)
    assert [link.target for link in doc.links] == [f"references/r{i}.md" for i in (1, 2, 3)]
    assert [h.text for h in doc.headings] == ["Steps"]
    assert doc.tables == 1
    # The rest is still the file's text, which the rules that read lines read.
    assert doc.lines[16] == AFTER
    assert not any("guide" in p.text for p in doc.prose)


def test_a_table_within_the_budget_is_read_whole(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seven rows of three cells: exactly the budget, and the text after the table is read.
    monkeypatch.setattr(budgets, "TABLE_CELLS", 21)
    result = score(make_skill(FRONT + TABLE))
    assert _listed(result, "PE005") == []
    assert [f.line for f in _listed(result, "PE201")] == [10, 11, 12, 13, 14, 15, 17]


def test_a_header_row_past_the_budget_cuts_before_the_table(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budgets, "TABLE_CELLS", 2)
    folder = make_skill(FRONT + TABLE)
    result = score(folder)
    [cut] = _listed(result, "PE005")
    assert (cut.path, cut.line, cut.column) == ("example-skill/SKILL.md", 8, None)
    assert cut.message == _cut_message(8, 8, 3)
    assert _listed(result, "PE201") == []
    doc = parse_skill(folder)
    assert (doc.tables, [h.text for h in doc.headings]) == (0, ["Steps"])


def test_the_cells_of_every_table_count_and_filled_in_cells_too(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows without a "|" are rows all the same, filled in to the header's columns: the count
    is the parser's cells, not the "|" written."""
    monkeypatch.setattr(budgets, "TABLE_CELLS", 30)
    first = "| a | b | c |\n|---|---|---|\n" + "x\n" * 5  # lines 6 to 12: 18 cells
    second = "| [d](references/d.md) | e | f |\n| - | - | - |\n" + "y\n" * 5  # from line 14
    result = score(make_skill(FRONT + first + "\n" + second + "\n" + AFTER + "\n"))
    # 12 cells are left for the second table: its header row and three rows, lines 14 to 18
    # (the delimiter row is no row); its row on line 19 passes them.
    [cut] = _listed(result, "PE005")
    assert (cut.line, cut.message) == (19, _cut_message(19, 14, 3))
    assert [(f.line, f.column) for f in _listed(result, "PE201")] == [(14, 3)]


@pytest.mark.parametrize(
    ("prefix", "lead"),
    [("> ", ""), ("  ", "- Steps:\n\n")],
    ids=["blockquote", "list-item"],
)
def test_a_table_inside_a_quote_or_a_list_item_is_counted(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch, prefix: str, lead: str
) -> None:
    monkeypatch.setattr(budgets, "TABLE_CELLS", 9)
    rows = "| a | b | c |\n|---|---|---|\n" + "".join(
        f"| {i} | [r{i}](references/r{i}.md) | x |\n" for i in range(1, 6)
    )
    table = "".join(prefix + line + "\n" for line in rows.splitlines())
    result = score(make_skill(FRONT + lead + table + "\n" + AFTER + "\n"))
    start = 6 + lead.count("\n")  # the header row's line
    [cut] = _listed(result, "PE005")
    # The header row and two rows fit; the third row passes the budget.
    assert (cut.line, cut.message) == (start + 4, _cut_message(start + 4, start, 3))
    column = len(prefix) + 7
    assert [(f.line, f.column) for f in _listed(result, "PE201")] == [
        (start + 2, column),
        (start + 3, column),
    ]


def test_parse_capped_is_parse_lines_within_the_budget_and_its_prefix_past_it() -> None:
    lines = ("[g]: references/g.md\n\n" + TABLE).split("\n")
    env: dict[str, object] = {}
    tokens, spent = parse_capped(lines, env, 21)
    whole: dict[str, object] = {}
    expected = parse_lines(lines, whole)
    assert spent is None
    assert [(t.type, t.map, t.content) for t in tokens] == [
        (t.type, t.map, t.content) for t in expected
    ]
    assert env == whole  # the reference definitions, and nothing of the budget's
    # Past the budget: the tokens of the lines before the row that passes it, parsed alone.
    env = {}
    tokens, spent = parse_capped(lines, env, 12)
    assert spent == CellsSpent(line=9, table=4, columns=3)
    prefix: dict[str, object] = {}
    expected = parse_lines(lines[:9], prefix)
    assert [(t.type, t.map, t.content) for t in tokens] == [
        (t.type, t.map, t.content) for t in expected
    ]
    assert env == prefix


@pytest.mark.timeout(60)
def test_a_table_of_one_byte_cells_makes_no_more_cells_than_the_budget(
    make_skill: MakeSkill,
) -> None:
    """The red team's shape at 300 KB, under the real budget: a header of 1,000 columns, then
    rows of 1,001 "|" (1,000 empty cells each)."""
    columns = 1000
    body = "|" + "a|" * columns + "\n|" + "-|" * columns + "\n" + ("|" * (columns + 1) + "\n") * 300
    folder = make_skill(FRONT + body)
    doc = parse_skill(folder)
    assert sum(t.type in ("th_open", "td_open") for t in doc.tokens) == budgets.TABLE_CELLS
    rows = budgets.TABLE_CELLS // columns  # the header row and 99 rows, lines 6 to 106
    [cut] = [p for p in doc.problems if p.line == 6 + rows + 1]
    assert cut.message == _cut_message(6 + rows + 1, 6, columns)
    assert len(doc.lines) == 5 + 2 + 300


def test_the_limit_is_in_the_readmes_table_with_its_value() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"| `TABLE_CELLS` | {budgets.TABLE_CELLS:,} |" in readme


def test_a_body_cut_at_its_first_line_is_not_called_empty(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table header row that alone passes the budget, first in the body: nothing is read as
    Markdown, and PE005 says why; PE305 does not add that the body is empty."""
    monkeypatch.setattr(budgets, "TABLE_CELLS", 2)
    result = score(make_skill(FRONT + TABLE.removeprefix("# Steps\n\n")))
    [cut] = _listed(result, "PE005")
    assert (cut.path, cut.line, cut.column) == ("example-skill/SKILL.md", 6, None)
    assert _listed(result, "PE305") == []


def test_a_list_ten_deep_is_read_whole(make_skill: MakeSkill) -> None:
    """markdown-it's CommonMark preset stops at 20 levels of blocks (ten lists) and skips the
    rest in silence: a dead link after such a list was lost. The parser reads 100 levels."""
    nest = "".join("  " * k + f"- item {k}\n" for k in range(10))
    result = score(make_skill(FRONT + f"# Steps\n\n{nest}\n## After\n\n{AFTER}\n"))
    assert _listed(result, "PE005") == []
    assert [(f.line, f.column) for f in _listed(result, "PE201")] == [(21, 5)]


def test_a_list_nested_past_the_parser_is_cut_and_said(make_skill: MakeSkill) -> None:
    """Past MARKDOWN_NESTING levels the body from the first line nested deeper is read as
    lines of text only, and PE005 names that line (here the 50th list, at line 57)."""
    nest = "".join("  " * k + f"- item {k}\n" for k in range(60))
    folder = make_skill(FRONT + f"# Steps\n\n{nest}\n## After\n\n{AFTER}\n")
    result = score(folder)
    [cut] = _listed(result, "PE005")
    assert (cut.code, cut.path, cut.line, cut.column) == (
        "PE005",
        "example-skill/SKILL.md",
        57,
        None,
    )
    assert cut.message == (
        "lists or quotes at line 57 nest deeper than the Markdown parser reads (100 levels of "
        "blocks: a list and its item are two, a quote one); the lines before it are read as "
        "Markdown, the rest only as lines of text"
    )
    assert _listed(result, "PE201") == [] and _listed(result, "PE305") == []
    assert [h.text for h in parse_skill(folder).headings] == ["Steps"]
