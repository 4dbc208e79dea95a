"""Resource exhaustion from a few bytes or one file (issue 10, class 2).

YAML aliases are never expanded: a document whose aliases repeat too much is refused at the
alias, in frontmatter (PE003, PE601) and in eval files. Every pass over one large body is
linear: each hostile shape below is scored to the end, with its findings located exactly,
at most FINDINGS_PER_CODE of one code per file plus one that counts the rest, and messages
at most MESSAGE_CHARS long. The time limits are the harness's guard against a hang, not a
measure of speed (bench/bench_hostile_sizes.py measures that).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from plugin_eval import budgets
from plugin_eval.api import render, score_paths
from plugin_eval.config import Config
from plugin_eval.document import MAX_SKILL_BYTES
from plugin_eval.findings import Finding, Severity, bounded, capped
from plugin_eval.montecarlo.prompts import EvalFileError, load_eval_file
from plugin_eval.plugin_score import score_plugin
from plugin_eval.results import SkillResult
from plugin_eval.rules.plugin_base import good_plugin
from plugin_eval.yaml_input import AliasError, check_aliases
from tests.conftest import REPO, MakeSkill, score, write_files

# The description is on line 3, extra frontmatter from line 4, the body from line 6 (no extra).
HEAD = (
    "---\nname: example-skill\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n"
)
FRONT = HEAD + "---\n\n"
LEVELS = "abcdefghi"


def alias_bomb(item: str = "[{refs}]", first: str = '["lol","lol","lol","lol","lol"]') -> str:
    """Nine anchors, each nine aliases of the one before: the last stands for 5 × 9⁸ strings."""
    lines = [f"a: &a {first}"]
    for prev, name in pairwise(LEVELS):
        lines.append(f"{name}: &{name} " + item.format(refs=",".join([f"*{prev}"] * 9)))
    return "\n".join(lines) + "\n"


# --- YAML aliases: refused at the alias, never expanded --------------------------------------

# (frontmatter after the description, line and column of the alias that passes the cap: the
# second *d of line 8 takes the repeated nodes from 9,450 to 13,914)
FRONTMATTER_BOMBS = {
    "alias-as-a-key": (alias_bomb() + "? *i\n: x\n", 8, 11),
    "alias-as-a-value": (alias_bomb() + "metadata: *i\n", 8, 11),
    "merge-keys": (alias_bomb("{{<<: [{refs}]}}", "{k1: v, k2: v}") + "x: *i\n", 8, 16),
    "alias-inside-its-anchor": ("metadata: &m {self: [1, *m]}\n", 4, 25),
    "sequence-inside-itself": ("x-list: &l [1, 2, [*l]]\n", 4, 20),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", FRONTMATTER_BOMBS, ids=str)
def test_frontmatter_aliases_are_refused_at_the_alias(make_skill: MakeSkill, case: str) -> None:
    extra, line, column = FRONTMATTER_BOMBS[case]
    result = score(make_skill(HEAD + extra + "---\n\n# Body\n\nSteps.\n"))
    found = [(f.path, f.line, f.column) for f in result.findings if f.code == "PE003"]
    assert found == [("example-skill/SKILL.md", line, column)]
    (finding,) = (f for f in result.findings if f.code == "PE003")
    assert finding.message.startswith("frontmatter refused, not expanded: ")
    assert "anchors (&name) or aliases (*name)" in finding.fix


@pytest.mark.timeout(60)
@pytest.mark.parametrize("part", ["agents/csv-analyst.md", "commands/csv-clean.md"], ids=str)
def test_plugin_part_aliases_are_refused_at_the_alias(tmp_path: Path, part: str) -> None:
    plugin = tmp_path / "p"
    text = "---\nname: csv-analyst\ndescription: Use when x.\n" + alias_bomb() + "? *i\n: x\n---\n"
    write_files(plugin, good_plugin(**{part.replace("/", "__"): text}))
    result = score_plugin(plugin, Config(), "p")
    located = [(f.code, f.line, f.column) for f in result.findings if f.path == f"p/{part}"]
    code = "PE601" if part.startswith("agents/") else "PE701"
    assert located == [(code, 8, 11)]
    assert all(len(f.message) <= budgets.MESSAGE_CHARS for f in result.findings)


def test_aliases_that_repeat_little_are_read() -> None:
    source = "defaults: &d {retries: 3, timeout: 10}\n" + "".join(
        f"job{i}: {{<<: *d, name: j{i}}}\n" for i in range(100)
    )
    check_aliases(source)  # 100 merges of 4 repeated nodes each: 400, under the cap


def test_the_cap_counts_repeated_nodes_not_aliases() -> None:
    scalar_aliases = "one: &o x\n" + "".join(f"k{i}: *o\n" for i in range(50_000))
    check_aliases(scalar_aliases)  # an alias of a scalar repeats nothing beyond itself
    lists = "l: &l [1, 2]\n" + "".join(f"k{i}: *l\n" for i in range(budgets.YAML_ALIAS_NODES // 2))
    check_aliases(lists)  # exactly at the cap: 5,000 aliases of 3 nodes repeat 10,000
    with pytest.raises(AliasError, match=r"more than 10,000 nodes") as err:
        check_aliases(lists + "last: *l\n")
    assert err.value.problem_mark is not None
    assert (err.value.problem_mark.line, err.value.problem_mark.column) == (5001, 6)


# (file name, text, what the error says)
EVAL_BOMBS = {
    "yaml-id": (
        "e.yaml",
        alias_bomb() + "cases:\n  - id: *i\n    prompt: p\n",
        "(line 5, column 11)",
    ),
    "yaml-keywords": (
        "e.yml",
        alias_bomb() + "cases:\n  - prompt: p\n    expected_keywords: *i\n",
        "more than 10,000 nodes",
    ),
    "yaml-cycle": ("e.yaml", "cases:\n  - &c {prompt: p, id: [*c]}\n", "(line 2, column 25)"),
    "json-deep": ("e.json", "[" * 200_000 + "]" * 200_000, "nested too deeply"),
    "json-long-number": ("e.json", '[{"query": "q", "id": ' + "9" * 20_000 + "}]", "number"),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", EVAL_BOMBS, ids=str)
def test_an_eval_file_that_would_expand_is_one_error(tmp_path: Path, case: str) -> None:
    name, text, said = EVAL_BOMBS[case]
    path = tmp_path / "evals" / name
    write_files(tmp_path, {f"evals/{name}": text})
    with pytest.raises(EvalFileError, match=re.escape(said)) as err:
        load_eval_file(path, f"skill/evals/{name}")
    assert str(err.value).startswith(f"skill/evals/{name}: cannot be read: ")
    assert len(str(err.value)) < 300


# --- one large body: every pass linear, findings capped, messages bounded -------------------

SIZE = 1_000_000


def repeat(unit: str, size: int = SIZE) -> str:
    return unit * max(1, size // len(unit))


def numbered(unit: str, size: int = SIZE) -> str:
    out: list[str] = []
    total = i = 0
    while total < size:
        out.append(unit.format(i=i))
        total += len(out[-1])
        i += 1
    return "".join(out)


NESTED_LIST = "".join("  " * depth + "- x\n" for depth in range(40))
TABLE = "| a | b |\n|---|---|\n"
QUIET = "<!-- plugin-eval: ignore PE201 -->\n[a](b.md)\n\n"
CLAUSES = "---\nname: example-skill\ndescription: Use when {}\n---\n\n# Body\n"

# name: (SKILL.md, the code expected, and the line and column of its first finding)
SHAPES: dict[str, tuple[Callable[[], str], str, int | None, int | None]] = {
    "must-repeat": (lambda: FRONT + repeat("MUST ") + "\n", "PE302", 6, None),
    "headings": (lambda: FRONT + numbered("# Heading {i}\n"), "PE303", 5, None),
    "nested-headings": (lambda: FRONT + repeat("# A\n## B\n### C\n#### D\n"), "PE301", None, None),
    "links-one-line": (lambda: FRONT + numbered("[l](references/m{i}.md) ") + "\n", "PE201", 6, 1),
    "images-one-line": (lambda: FRONT + numbered("![i](assets/i{i}.png) ") + "\n", "PE201", 6, 1),
    "long-line": (lambda: FRONT + repeat("word ") + "\n", "PE303", 5, None),
    "deep-lists": (lambda: FRONT + repeat(NESTED_LIST), "PE303", 5, None),
    "deep-quotes": (lambda: FRONT + repeat(">" * 60 + " q\n\n"), "PE303", 5, None),
    "fences": (lambda: FRONT + repeat("```python\nx = 1\n```\n\n"), "PE303", 5, None),
    "unclosed-fences": (lambda: FRONT + repeat("~~~\n```\n"), "PE304", 5 + SIZE // 4, 1),
    "table-rows": (lambda: FRONT + TABLE + repeat("| x | [y](z.md) |\n"), "PE201", 8, 7),
    "code-spans-one-line": (lambda: FRONT + repeat("`Read` then `x`` ` ") + "\n", "PE402", 6, 1),
    "prose-refs-one-line": (
        lambda: FRONT + numbered("see references/r{i}.md ") + "\n",
        "PE201",
        6,
        5,
    ),
    "tool-prose-one-line": (lambda: FRONT + repeat("use the Bash tool ") + "\n", "PE403", 6, 5),
    "suppressed-links": (lambda: FRONT + repeat(QUIET), "PE303", 5, None),
    "comments-one-line": (
        lambda: FRONT + numbered("x <!-- plugin-eval: ignore PE{i} --> ") + "\n",
        "PE008",
        6,
        28,
    ),
    "output-sections": (
        lambda: FRONT + repeat("## Output\n\n```json\n{}\n```\n\n"),
        "PE303",
        5,
        None,
    ),
    "description-clauses": (
        lambda: CLAUSES.format(numbered("exporting t{i} files, ")),
        "PE106",
        3,
        1,
    ),
    "frontmatter-keys": (lambda: HEAD + numbered("k{i}: v\n") + "---\n\n# Body\n", "PE108", 4, 1),
}


def _listed(result: SkillResult, code: str) -> list[Finding]:
    return [f for f in result.findings if f.code == code]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_a_large_body_is_scored_with_its_findings_capped(make_skill: MakeSkill, shape: str) -> None:
    make, code, line, column = SHAPES[shape]
    folder = make_skill(make())
    batch = score_paths([folder])
    (report,) = batch.reports
    result = score(folder)
    found = _listed(result, code)
    assert found, f"no {code} finding"
    assert (found[0].line, found[0].column) == (line, column)
    per_code = Counter((f.path, f.code) for f in result.findings)
    assert max(per_code.values()) <= budgets.FINDINGS_PER_CODE + 1
    assert all(len(f.message) <= budgets.MESSAGE_CHARS for f in result.findings)
    assert all(
        len(e.label) <= budgets.MESSAGE_CHARS for s in result.subscores.values() for e in s.evidence
    )
    # The report of a 1 MB skill, whatever it holds, is a few hundred KB at most.
    assert len(render(batch, "json")) < 300_000
    assert report.path == str(folder)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("unit", "column_of"),
    [
        ("[l](references/m{i}.md) ", lambda i, width: 1 + i * width),
        ("see references/r{i}.md ", lambda i, width: 5 + i * width),
        ("x <!-- plugin-eval: ignore PE9{i} --> ", lambda i, width: 28 + i * width),
    ],
    ids=["links", "prose-references", "suppression-codes"],
)
def test_each_of_many_findings_on_one_line_has_its_own_column(
    make_skill: MakeSkill, unit: str, column_of: Callable[[int, int], int]
) -> None:
    count = 50_000
    # The same width for every item: numbers padded to five digits.
    body = "".join(unit.replace("{i}", f"{i:05d}") for i in range(count))
    width = len(unit.replace("{i}", "00000"))
    result = score(make_skill(FRONT + body + "\n"))
    code = "PE008" if "ignore" in unit else "PE201"
    found = _listed(result, code)
    listed, rest = found[:-1], found[-1]
    assert [(f.line, f.column) for f in listed] == [
        (6, column_of(i, width)) for i in range(budgets.FINDINGS_PER_CODE)
    ]
    assert (rest.line, rest.column) == (6, column_of(budgets.FINDINGS_PER_CODE, width))
    more = count - budgets.FINDINGS_PER_CODE
    assert rest.message.startswith(f"{more:,} more ")
    assert rest.severity == found[0].severity


def test_a_tool_named_many_times_on_one_line_is_one_finding_with_its_count(
    make_skill: MakeSkill,
) -> None:
    body = "".join(f"x the Read tool {i:05d} " for i in range(50_000))
    [finding] = _listed(score(make_skill(FRONT + body + "\n")), "PE403")
    assert (finding.line, finding.column) == (6, 3)
    assert (
        finding.message == "'the Read tool' assumes Claude Code's tool names (50,000 times in all)"
    )


@pytest.mark.timeout(120)
def test_the_issues_samples_finish_with_a_small_report(tmp_path: Path) -> None:
    skills = {
        "must": FRONT + "MUST " * 835_000 + "\n",
        "headings": FRONT + "".join(f"# H{i}\n" for i in range(100_000)),
        "links": FRONT + "".join(f"[l](references/m{i}.md) " for i in range(100_000)) + "\n",
    }
    for name, text in skills.items():
        # In a Codex plugin, so that Codex's cut (PE401) is measured on them too.
        write_files(
            tmp_path / name,
            {".codex-plugin/plugin.json": '{"name": "x"}\n', "skills/example-skill/SKILL.md": text},
        )
    assert len(skills["must"].encode()) <= MAX_SKILL_BYTES
    batch = score_paths([tmp_path / name / "skills" / "example-skill" for name in skills])
    assert [sorted(Counter(f.code for f in r.findings).items()) for r in batch.reports] == [
        [("PE302", 1), ("PE303", 1), ("PE401", 1)],
        [("PE301", 1), ("PE303", 1), ("PE401", 1)],
        [("PE201", budgets.FINDINGS_PER_CODE + 1), ("PE303", 1), ("PE401", 1)],
    ]
    assert len(render(batch, "json")) < 200_000  # 79 MB before the cap


# --- the caps themselves ---------------------------------------------------------------------


def _finding(line: int, code: str = "PE201", path: str = "SKILL.md") -> Finding:
    return Finding(path, line, 1, code, "ORPHAN", Severity.ERROR, f"at {line}", "fix it")


def test_findings_past_the_cap_become_one_finding_at_the_first_not_listed() -> None:
    findings = [_finding(n) for n in range(1, 251)] + [_finding(5, "PE404")]
    findings += [_finding(n, path="other.md") for n in range(1, 4)]
    findings.sort(key=Finding.sort_key)
    kept = capped(findings, limit=100)
    pe201 = [f for f in kept if f.code == "PE201" and f.path == "SKILL.md"]
    assert [f.line for f in pe201] == list(range(1, 102))
    assert pe201[-1].message == (
        "150 more ORPHAN finding(s) in this file are not listed (a report lists 100 of one code "
        "per file); the first: at 101"
    )
    assert sum(f.code == "PE404" for f in kept) == 1
    assert sum(f.path == "other.md" for f in kept) == 3
    assert kept == sorted(kept, key=Finding.sort_key)


def test_suppressed_findings_do_not_count_toward_the_cap(make_skill: MakeSkill) -> None:
    quiet = "<!-- plugin-eval: ignore PE201 -->\n[a](gone.md)\n\n" * 150
    loud = "".join(f"[b](gone{i}.md)\n\n" for i in range(30))
    result = score(make_skill(FRONT + quiet + loud))
    assert len(_listed(result, "PE201")) == 30
    assert result.suppressed == 150


def test_a_long_quote_keeps_its_start_and_its_end(make_skill: MakeSkill) -> None:
    target = "references/" + "x" * 1_000_000 + ".md"
    result = score(make_skill(FRONT + f"See [it]({target}).\n"))
    (finding,) = _listed(result, "PE201")
    assert len(finding.message) == budgets.MESSAGE_CHARS
    assert finding.message.startswith("link 'references/xxx")
    assert finding.message.endswith(
        "xxx.md' points at a file that does not exist in the skill folder"
    )
    assert "…" in finding.message
    assert len(finding.fix) <= budgets.MESSAGE_CHARS


def test_bounded_leaves_short_text_alone_and_cuts_long_text_by_its_middle() -> None:
    assert bounded("short", 10) == "short"
    assert bounded("abcdefghijklmnop", 9) == "abcd…mnop"
    assert len(bounded("x" * 10_000)) == budgets.MESSAGE_CHARS


@pytest.mark.parametrize("name", ["YAML_ALIAS_NODES", "FINDINGS_PER_CODE", "MESSAGE_CHARS"])
def test_each_limit_is_in_the_readmes_table_with_its_value(name: str) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"| `{name}` | {getattr(budgets, name):,} |" in readme


def test_a_paragraph_of_too_many_marks_is_read_as_text_past_the_cap(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each "[" can make a few parser tokens, each hundreds of bytes: past INLINE_MARKS in one
    paragraph the rest is plain text, and PE005 says from which line links are not checked."""
    monkeypatch.setattr(budgets, "INLINE_MARKS", 40)
    body = "".join(f"[r{i}] " if i % 10 else f"[r{i}]\n" for i in range(1, 101))
    refs = "[r1]: references/r.md\n[r95]: references/s.md\n\n"
    result = score(make_skill(FRONT + refs + body))
    [cut] = _listed(result, "PE005")
    assert (cut.line, cut.column) == (13, None)  # the paragraph starts on line 9
    assert cut.message == (
        "the paragraph at line 9 holds 100 link, code and HTML marks; from line 13 on, past "
        "40, it is read as plain text and its links are not checked"
    )
    # [r1] is read, and its file is missing; [r95], past the cut, is not read.
    assert [(f.line, f.column) for f in _listed(result, "PE201")] == [(9, 1)]


def test_a_body_of_too_many_lines_is_parsed_as_markdown_up_to_the_cap(
    make_skill: MakeSkill, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budgets, "MARKDOWN_LINES", 50)
    body = "".join(f"- [item {i}](references/r{i}.md)\n" for i in range(80))
    result = score(make_skill(FRONT + body))
    [cut] = _listed(result, "PE005")
    assert (cut.line, cut.message) == (
        55,
        "the body has 81 lines; the first 50 are read as Markdown, the rest only as lines of text",
    )
    dead = _listed(result, "PE201")
    assert [f.line for f in dead] == list(range(6, 55))  # links past the cut are not read
