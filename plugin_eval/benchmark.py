"""Seed 003's benchmark definition: read and check one, and write plugin-eval's own.

A definition is Markdown in the seed's layout (its 模式一 output): a `## Scoring Dimensions`
table (dimension, weight in per cent: 5 to 8 rows whose weights add up to 100 %), a
`## Detailed Rubric` holding, for each dimension, a `### Dimension N: name (w%)` heading
over a table of the seed's five bands (90–100 Excellent, 70–89 Good, 50–69 Acceptable,
30–49 Poor, 0–29 Failing, each with its criteria), and `## Pass Thresholds` naming the
`pass_score` (with `industry_avg_score` and `elite_avg_score` for reference). The file is
read with the project's markdown-it parser: headings, tables and list items come from its
token stream, each with its line, and only a cell's or an item's own text is read further.

plugin-eval scores ten dimensions (seed 002's), more than the seed's eight: `export` writes
the ten, and a definition whose dimensions are exactly plugin-eval's ten is accepted besides
5 to 8 of any names. `score --weights` reads a definition whose dimensions are plugin-eval's
(any 5 to 8 of them, or all ten): its weights replace seed 002's for that run, and a
dimension it leaves out weighs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.token import Token

from plugin_eval import __version__, regexes
from plugin_eval.judge import rubric as judged
from plugin_eval.markdown_parser import (
    INLINE_SYNTAX,
    MD,
    NOT_CODE_SPAN_ONLY,
    code_spans,
    parse,
    plain_text,
)
from plugin_eval.scoring.composite import (
    DIMENSION_WEIGHTS,
    LABELS,
    PASS_PRESETS,
    SEED_PASS_SCORE,
)

MAX_BYTES = 1 << 20
DIMENSIONS_SECTION = "Scoring Dimensions"
RUBRIC_SECTION = "Detailed Rubric"
FORMULA_SECTION = "Scoring Formula"
PASS_SECTION = "Pass Thresholds"
FEWEST, MOST = 5, 8
OWN: tuple[str, ...] = tuple(DIMENSION_WEIGHTS)


def _bands() -> tuple[tuple[str, int, int], ...]:
    """The seed's five bands, best first: (label, lowest, highest score)."""
    out, top = [], 100
    for floor, name in LABELS:
        out.append((name, int(floor), top))
        top = int(floor) - 1
    return tuple(out)


BANDS = _bands()
BAND_NAMES = tuple(name for name, _, _ in BANDS)


@dataclass(frozen=True, repr=False)
class Problem:
    """What is wrong with a definition, at a line of its file."""

    line: int
    message: str
    # A definition that names no pass score: `validate` reports it, and scoring with the
    # table (`score --weights`) takes the seed's default pass line instead.
    no_pass_score: bool = False


@dataclass(frozen=True, repr=False)
class DimensionDef:
    """One row of the dimension table: its name, its weight in per cent, and its line."""

    name: str
    weight: float
    line: int


@dataclass(frozen=True, repr=False)
class Benchmark:
    """What a definition says, and every problem found in it, in line order."""

    dimensions: tuple[DimensionDef, ...]
    pass_score: float | None
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


class Unreadable(Exception):
    """The file cannot be read as UTF-8 text (missing, a folder, too large, binary)."""


def read(path: Path) -> Benchmark:
    """The definition in ``path``; raises ``Unreadable`` when there is no text to check."""
    try:
        if not path.is_file():
            raise Unreadable("not a regular file" if path.exists() else "no such file")
        if path.stat().st_size > MAX_BYTES:
            raise Unreadable(f"larger than {MAX_BYTES // 1024} KiB")
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as err:
        raise Unreadable(err.strerror or str(err)) from None
    except UnicodeDecodeError:
        raise Unreadable("not UTF-8 text") from None
    return check(text)


# The walk: headings, tables and text blocks of the token stream, in order, with their lines.


@dataclass
class _Heading:
    level: int
    text: str
    line: int


@dataclass
class _Row:
    line: int
    cells: list[str] = field(default_factory=list)


@dataclass
class _Table:
    line: int
    rows: list[_Row] = field(default_factory=list)


@dataclass
class _Text:
    """A paragraph or a list item."""

    text: str
    line: int


_Block = _Heading | _Table | _Text


def _text(content: str) -> str:
    """What an inline token shows as text (code spans and link texts included)."""
    if INLINE_SYNTAX.search(content) is None:
        text = plain_text(content)
    elif NOT_CODE_SPAN_ONLY.search(content) is None:
        text = "".join(" " if kind == "break" else value for kind, value in code_spans(content))
    else:
        children = MD.inline.parse(content, MD, {}, [])
        text = "".join(
            " " if c.type in ("softbreak", "hardbreak") else c.content
            for c in children
            if c.type in ("text", "text_special", "code_inline", "softbreak", "hardbreak")
        )
    return " ".join(text.split())


def _unemphasised(text: str) -> str:
    """The text without the emphasis markers around it (the parser reads none)."""
    return re.sub(r"^[*_]+|[*_]+$", "", text).strip()


def _blocks(tokens: Sequence[Token]) -> list[_Block]:
    out: list[_Block] = []
    heading: _Heading | None = None
    table: _Table | None = None
    for tok in tokens:
        line = tok.map[0] + 1 if tok.map is not None else 0
        if tok.type == "heading_open":
            heading = _Heading(int(tok.tag[1:]), "", line)
        elif tok.type == "table_open":
            table = _Table(line)
        elif tok.type == "tr_open" and table is not None:
            table.rows.append(_Row(line))
        elif tok.type == "table_close" and table is not None:
            out.append(table)
            table = None
        elif tok.type == "inline":
            text = _text(tok.content)
            if heading is not None:
                heading.text = text
                out.append(heading)
                heading = None
            elif table is not None and table.rows:
                table.rows[-1].cells.append(text)
            else:
                out.append(_Text(text, line))
    return out


def _key(title: str) -> str:
    return " ".join(_unemphasised(title).rstrip(":：").split()).lower()


@dataclass
class _Section:
    heading: _Heading
    blocks: list[_Block] = field(default_factory=list)


def _sections(blocks: Sequence[_Block]) -> dict[str, _Section]:
    """Each level-2 section by its title (the first of a title), with the blocks under it."""
    out: dict[str, _Section] = {}
    current: _Section | None = None
    for block in blocks:
        if isinstance(block, _Heading) and block.level <= 2:
            current = _Section(block) if block.level == 2 else None
            if current is not None:
                out.setdefault(_key(block.text), current)
            continue
        if current is not None:
            current.blocks.append(block)
    return out


def _columns(table: _Table) -> dict[str, int]:
    header = table.rows[0].cells if table.rows else []
    return {_key(cell): i for i, cell in enumerate(header)}


def _cell(row: _Row, column: int | None) -> str:
    if column is None or column >= len(row.cells):
        return ""
    return _unemphasised(row.cells[column])


_NUMBER = regexes.compile(r"(\d+(?:\.\d+)?)\s*%?")


def _percent(text: str) -> float | None:
    found = _NUMBER.fullmatch(text.strip())
    return float(found.group(1)) if found else None


# Checking


def check(text: str) -> Benchmark:
    """Every problem of a definition, with what it says (whatever of it could be read)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    sections = _sections(_blocks(parse(lines, {}) if lines.strip() else []))
    problems: list[Problem] = []
    dims = _dimension_table(sections.get(_key(DIMENSIONS_SECTION)), problems)
    _rubric(sections.get(_key(RUBRIC_SECTION)), dims, problems)
    pass_score = _pass_score(sections.get(_key(PASS_SECTION)), problems)
    problems.sort(key=lambda p: p.line)
    return Benchmark(tuple(dims), pass_score, tuple(problems))


def _dimension_table(section: _Section | None, problems: list[Problem]) -> list[DimensionDef]:
    if section is None:
        problems.append(
            Problem(
                1,
                f"no '## {DIMENSIONS_SECTION}' section: add one with a table of dimensions "
                "and their weights (| # | Dimension | Weight | What It Measures |)",
            )
        )
        return []
    table = next((b for b in section.blocks if isinstance(b, _Table)), None)
    if table is None:
        problems.append(
            Problem(
                section.heading.line,
                f"'## {DIMENSIONS_SECTION}' holds no table: add | # | Dimension | Weight | "
                "What It Measures | with a row per dimension",
            )
        )
        return []
    columns = _columns(table)
    missing = [name for name in ("Dimension", "Weight") if name.lower() not in columns]
    if missing:
        problems.append(
            Problem(
                table.line,
                f"the dimension table has no {' or '.join(repr(m) for m in missing)} column: "
                "head it | # | Dimension | Weight | What It Measures |",
            )
        )
        return []
    dims: list[DimensionDef] = []
    seen: set[str] = set()
    weighed = True
    for row in table.rows[1:]:
        name = _cell(row, columns["dimension"])
        given = _cell(row, columns["weight"])
        weight = _percent(given)
        if weight is None or "%" not in given:
            # Each at its own row: a bare 20 is not read as 20 % in silence, nor 0.25 as 0.25 %.
            weighed = False
            if weight is not None and weight <= 1:
                why = f"is a fraction: write it as a percentage, {weight * 100:g}%"
            else:
                why = f"is not a percentage: write it as {weight or 20:g}%"
            problems.append(Problem(row.line, f"weight '{given}' of '{name}' {why}"))
        if not name:
            problems.append(Problem(row.line, "a dimension row has no name: name it or drop it"))
        elif _own(name) in seen:
            problems.append(
                Problem(row.line, f"dimension '{name}' is listed twice: keep one row for it")
            )
        elif weight is not None:
            seen.add(_own(name))
            dims.append(DimensionDef(name, weight, row.line))
    count = len(table.rows) - 1
    if not FEWEST <= count <= MOST and not (count == len(OWN) and seen == set(OWN)):
        problems.append(
            Problem(
                table.line,
                f"{count} dimension(s): the seed asks for {FEWEST} to {MOST} (plugin-eval's own "
                f"{len(OWN)}, as `plugin-eval benchmark export` writes them, are accepted too)",
            )
        )
    total = round(sum(d.weight for d in dims), 6)
    if weighed and dims and abs(total - 100) > 0.01:
        hint = (
            "write per cents (25%), not fractions (0.25)"
            if abs(total - 1) <= 0.01
            else "make them add up to 100 %"
        )
        problems.append(Problem(table.line, f"weights sum to {total:g} %, not 100 %: {hint}"))
    return dims


_DIMENSION_HEADING = regexes.compile(
    r"dimension(?:\s+\d+)?\s*[:：.\-]\s*(?P<name>.+?)\s*"
    r"(?:[(（]\s*(?P<weight>\d+(?:\.\d+)?)\s*%?\s*[)）])?",
    re.IGNORECASE,
)
_RANGE = regexes.compile(r"(\d+)\s*(?:-|–|—|~|to)\s*(\d+)")


def _rubric(
    section: _Section | None, dims: Sequence[DimensionDef], problems: list[Problem]
) -> None:
    if section is None:
        problems.append(
            Problem(
                1,
                f"no '## {RUBRIC_SECTION}' section: add one with '### Dimension N: name "
                "(weight%)' and a table of the five bands for each dimension",
            )
        )
        return
    by_name = {_own(d.name): d for d in dims}
    found: set[str] = set()
    for heading, table in _rubric_parts(section.blocks):
        match = _DIMENSION_HEADING.fullmatch(_unemphasised(heading.text))
        if match is None:
            continue
        name = match.group("name")
        dim = by_name.get(_own(name))
        if dim is None and not by_name:  # no table to hold it against: its bands only
            if table is not None:
                _bands_of(name, table, problems)
            continue
        if dim is None:
            problems.append(
                Problem(
                    heading.line,
                    f"a rubric for '{name}', which the dimension table does not list: add it "
                    "to the table or drop the rubric",
                )
            )
            continue
        found.add(_own(name))
        stated = match.group("weight")
        if stated is not None and abs(float(stated) - dim.weight) > 0.01:
            problems.append(
                Problem(
                    heading.line,
                    f"the rubric of '{name}' gives it {float(stated):g}%, the dimension table "
                    f"{dim.weight:g}%: make them agree",
                )
            )
        if table is None:
            problems.append(
                Problem(
                    heading.line,
                    f"the rubric of '{name}' has no table: add | Score Range | Label | "
                    "Criteria | with the five bands",
                )
            )
            continue
        _bands_of(name, table, problems)
    for dim in dims:
        if _own(dim.name) not in found:
            problems.append(
                Problem(
                    dim.line,
                    f"'{dim.name}' has no rubric: add '### Dimension N: {dim.name} "
                    f"({dim.weight:g}%)' under '## {RUBRIC_SECTION}' with its five bands",
                )
            )


def _rubric_parts(blocks: Sequence[_Block]) -> Iterator[tuple[_Heading, _Table | None]]:
    """Each heading under the rubric with the first table before the next heading."""
    heading: _Heading | None = None
    table: _Table | None = None
    for block in blocks:
        if isinstance(block, _Heading):
            if heading is not None:
                yield heading, table
            heading, table = block, None
        elif isinstance(block, _Table) and heading is not None and table is None:
            table = block
    if heading is not None:
        yield heading, table


def _bands_of(name: str, table: _Table, problems: list[Problem]) -> None:
    columns = _columns(table)
    missing = [c for c in ("Score Range", "Label", "Criteria") if c.lower() not in columns]
    if missing:
        problems.append(
            Problem(
                table.line,
                f"the rubric table of '{name}' has no {' or '.join(repr(m) for m in missing)} "
                "column: head it | Score Range | Label | Criteria |",
            )
        )
        return
    expected = {label.lower(): (label, low, high) for label, low, high in BANDS}
    seen: set[str] = set()
    for row in table.rows[1:]:
        label = _cell(row, columns["label"])
        band = expected.get(label.lower())
        if band is None:
            problems.append(
                Problem(
                    row.line,
                    f"'{label}' in the rubric of '{name}' is not one of the seed's bands "
                    f"({', '.join(BAND_NAMES)})",
                )
            )
            continue
        shown, low, high = band
        if shown in seen:
            problems.append(
                Problem(row.line, f"band {shown} of '{name}' is given twice: keep one row")
            )
            continue
        seen.add(shown)
        given = _cell(row, columns["score range"])
        bounds = _RANGE.fullmatch(given.strip())
        if bounds is None or (int(bounds.group(1)), int(bounds.group(2))) != (low, high):
            problems.append(
                Problem(
                    row.line,
                    f"band {shown} of '{name}' covers '{given}': the seed's {shown} band is "
                    f"{low}–{high}",
                )
            )
        if not _cell(row, columns["criteria"]):
            problems.append(
                Problem(
                    row.line,
                    f"band {shown} of '{name}' has no criteria: say what a skill in it does",
                )
            )
    for shown, low, high in BANDS:
        if shown not in seen:
            problems.append(
                Problem(
                    table.line,
                    f"the rubric of '{name}' has no {shown} band ({low}–{high}): add its row",
                )
            )


_PASS_SCORE = regexes.compile(r"pass_score\s*[:：=]\s*(\S+)", re.IGNORECASE)


def _pass_score(section: _Section | None, problems: list[Problem]) -> float | None:
    add = f"add '- **pass_score: {SEED_PASS_SCORE:g}**' (the seed's pass line)"
    if section is None:
        problems.append(
            Problem(1, f"no '## {PASS_SECTION}' section: {add} under one", no_pass_score=True)
        )
        return None
    for block in section.blocks:
        if not isinstance(block, _Text):
            continue
        found = _PASS_SCORE.search(block.text.replace("*", ""))
        if found is None:
            continue
        value = _percent(found.group(1).rstrip(",;.。"))
        if value is None or value > 100:
            problems.append(
                Problem(
                    block.line,
                    f"pass_score '{found.group(1)}' is not a score from 0 to 100: {add}",
                )
            )
            return None
        return value
    problems.append(
        Problem(
            section.heading.line,
            f"'## {PASS_SECTION}' names no pass_score: {add}",
            no_pass_score=True,
        )
    )
    return None


# plugin-eval's own dimensions


def _own(name: str) -> str:
    """A dimension's name as plugin-eval writes it: 'Triggering accuracy' → triggering_accuracy."""
    return "_".join(re.split(r"[\s\-]+", name.strip().lower()))


class NotScorable(Exception):
    """A definition plugin-eval cannot score with: its first problem, with the line."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def scoring_weights(benchmark: Benchmark) -> dict[str, float]:
    """plugin-eval's dimension table with the definition's weights, as fractions: every one of
    the ten, in seed 002's order, a dimension the definition leaves out at 0. Raises
    ``NotScorable`` for a definition with problems or with a dimension plugin-eval lacks; one
    that only names no pass score is scored (its pass line is then the seed's default)."""
    problems = [p for p in benchmark.problems if not p.no_pass_score]
    if problems:
        raise NotScorable(problems[0])
    given = {_own(d.name): d for d in benchmark.dimensions}
    for name, dim in given.items():
        if name not in DIMENSION_WEIGHTS:
            raise NotScorable(
                Problem(
                    dim.line,
                    f"'{dim.name}' is not a dimension plugin-eval scores: name dimensions as "
                    f"`plugin-eval benchmark export` does ({', '.join(OWN)})",
                )
            )
    return {name: given[name].weight / 100 if name in given else 0.0 for name in OWN}


@dataclass(frozen=True, repr=False)
class OwnDimension:
    """What one of plugin-eval's dimensions measures, and its five bands, best first."""

    measures: str
    criteria: tuple[str, str, str, str, str]


def _judged(name: str) -> OwnDimension:
    """A dimension the judge reads: its question, and its anchored bands (best first)."""
    dim = judged.BY_NAME[name]
    best_first = tuple(reversed(dim.bands))
    assert len(best_first) == 5
    return OwnDimension(dim.question, best_first)


RUBRIC: dict[str, OwnDimension] = {
    "triggering_accuracy": _judged("triggering_accuracy"),
    "orchestration_fitness": _judged("orchestration_fitness"),
    "output_quality": _judged("output_quality"),
    "scope_calibration": _judged("scope_calibration"),
    "progressive_disclosure": OwnDimension(
        "Whether SKILL.md stays short and moves detail into supporting files it links.",
        (
            "Body well within 500 lines and ~5,000 tokens; detail lives in references/ files "
            "that SKILL.md links or names, or the skill is compact enough to need none.",
            "Body within budget; supporting files exist and most are linked from SKILL.md.",
            "Body near or over budget, or detail in files that SKILL.md never links or names.",
            "Body well over budget, with reference material inline that belongs in files.",
            "One very long body with no supporting files, or nothing a harness can read.",
        ),
    ),
    "token_efficiency": OwnDimension(
        "How few tokens the skill and its replies spend: emphatic wording, repetition, reply "
        "length.",
        (
            "Plain instructions with little MUST/NEVER/ALWAYS and no repeated blocks; replies "
            "far under 8,000 tokens.",
            "Occasional emphatic words or one repeated passage; replies of moderate length.",
            "Frequent MUST/NEVER/ALWAYS or several repeated blocks; replies run long.",
            "Emphatic wording and repetition throughout; replies near 8,000 tokens.",
            "Mostly repetition and capitalised commands; replies at or over 8,000 tokens.",
        ),
    ),
    "robustness": OwnDimension(
        "Whether calls that use the skill succeed and give the same answer to the same request.",
        (
            "No failed calls; near-identical answers to a prompt across runs.",
            "Rare failures; answers mostly consistent across runs.",
            "Some failures, or noticeably different answers to the same prompt.",
            "Frequent failures, or answers that vary widely between runs.",
            "Most calls fail, or answers to one prompt have little in common.",
        ),
    ),
    "structural_completeness": OwnDimension(
        "Whether the skill has the parts a reader needs: valid fields, sections, examples, "
        "usage and edge cases.",
        (
            "Valid fields; sections, worked examples with labelled code blocks, a usage "
            "section, an edge-case or troubleshooting section, lists or tables.",
            "Valid fields; sections, examples and usage guidance, one part missing.",
            "Some structure (headings, a list) but no examples or no usage guidance.",
            "Little structure: few headings, no examples, field problems in the frontmatter.",
            "A wall of text or an unreadable file; required fields missing or invalid.",
        ),
    ),
    "code_template_quality": OwnDimension(
        "Whether the scripts and templates the skill ships work as the skill says they do.",
        (
            "Scripts and templates run as shipped and match what SKILL.md says they do.",
            "Code works, with minor gaps (an edge case, an unpinned version).",
            "Code is illustrative: it needs adapting before it runs.",
            "Code has errors, or contradicts the instructions.",
            "Code cannot run, or is unsafe to run.",
        ),
    ),
    "ecosystem_coherence": OwnDimension(
        "Whether the skill fits among its neighbours: working links, related skills, stated "
        "boundaries.",
        (
            "Links that resolve, a related or see-also section, and a description that says "
            "when not to use the skill and what to use instead.",
            "Working links, and either a related section or a stated boundary.",
            "No broken links, but nothing that places the skill among its neighbours.",
            "Broken or outside links; no boundaries.",
            "Broken cross-references throughout; it duplicates or contradicts its neighbours.",
        ),
    ),
}


def band_criterion(dimension: str, label: str) -> str | None:
    """plugin-eval's criterion for one band of one of its dimensions."""
    own = RUBRIC.get(dimension)
    if own is None or label not in BAND_NAMES:
        return None
    return own.criteria[BAND_NAMES.index(label)]


def _cell_text(text: str) -> str:
    return text.replace("|", "\\|")


def export(weights: dict[str, float] | None = None) -> str:
    """plugin-eval's dimension table as a definition in the seed's layout (seed 002's weights
    unless others are given, as fractions): what `plugin-eval benchmark export` writes."""
    table = DIMENSION_WEIGHTS if weights is None else weights
    out = [
        "# plugin-eval — Benchmark v1.0.0",
        "",
        "Benchmark version: 1.0.0",
        f"Trigger: plugin-eval {__version__} benchmark export",
        "",
        f"## {DIMENSIONS_SECTION}",
        "",
        "| # | Dimension | Weight | What It Measures |",
        "|---|-----------|--------|------------------|",
    ]
    for n, (name, weight) in enumerate(table.items(), 1):
        out.append(f"| {n} | {name} | {weight * 100:g}% | {_cell_text(RUBRIC[name].measures)} |")
    out += [
        "",
        "plugin-eval scores these ten dimensions (seed 002's), two more than seed 003's 5–8. "
        "Edit the weights (they must add up to 100 %) and score with "
        "`plugin-eval score --weights FILE.md`; a dimension left out weighs nothing.",
        "",
        f"## {RUBRIC_SECTION}",
    ]
    for n, (name, weight) in enumerate(table.items(), 1):
        out += [
            "",
            f"### Dimension {n}: {name} ({weight * 100:g}%)",
            "",
            "| Score Range | Label | Criteria |",
            "|-------------|-------|----------|",
        ]
        for (label, low, high), text in zip(BANDS, RUBRIC[name].criteria, strict=True):
            out.append(f"| {low}–{high} | {label} | {_cell_text(text)} |")
    out += [
        "",
        f"## {FORMULA_SECTION}",
        "",
        "Final Score = Σ (dimension_score × dimension_weight), the weights renormalised over "
        "the dimensions that were measured, × the anti-pattern penalty max(0.5, 1 − 0.05 × "
        "anti-patterns)",
        "",
        f"## {PASS_SECTION}",
        "",
        f"- **pass_score: {SEED_PASS_SCORE:g}** — under it an item FAILs and "
        "`plugin-eval score` exits 1",
        f"- industry_avg_score: {PASS_PRESETS['industry']:g} — `--pass-threshold industry`",
        f"- elite_avg_score: {PASS_PRESETS['elite']:g} — `--pass-threshold elite`",
        "",
    ]
    return "\n".join(out)
