"""``plugin-eval dataset-score``: seed 000's evaluator, run on the seed's own input.

An item is the seed's input: ``cleaned_data_list`` (the cleaned texts; the seed sends five,
and two or more are needed to compare), ``structured_data`` (the JSON object to score) and
``dataset_schema`` (the seed's ``{fields: [{name, type, required}]}``, or a JSON Schema).
Its result is the seed's output, field for field:

- ``content_consistency_score``: the mean pairwise Jaccard similarity of the texts' word
  sets after the seed's normalisation, mapped to 0–100 by the seed's table;
- ``details``: ``completeness_score``, ``value_accuracy_score``, ``type_score`` and
  ``information_sufficiency_score``, seed 000's structured-data sub-scores
  (``plugin_eval.montecarlo.structured``; values are checked against the cleaned texts);
- ``structuring_quality_score``: completeness × 0.30 + value accuracy × 0.40 + types × 0.15 +
  information sufficiency × 0.15;
- ``miner_score``: content consistency × 0.4 + structuring quality × 0.6.

Every score is clamped to 0–100 and rounded to two decimals before it enters the next
formula, so the printed numbers follow the seed's formulas exactly; a whole number is
written without a fraction, as the seed writes its example.

A file holds one JSON object, or JSON Lines (one object a line; blank lines are skipped): a
file named ``*.jsonl`` or ``*.ndjson``, or one that is not one JSON value but whose first
line is a JSON object by itself. A bad item is reported with its line and never stops the
others.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from plugin_eval import json_input
from plugin_eval.budgets import DATASET_ITEM_BYTES, PAIRWISE_WORK
from plugin_eval.montecarlo.consistency import (
    consistency_score,
    mean_pairwise_similarity,
    pairwise_work,
    word_sets,
)
from plugin_eval.montecarlo.structured import (
    Expectation,
    Field,
    SchemaError,
    schema_fields,
    score_object,
    source,
    structuring_quality,
)

CONSISTENCY_WEIGHT, STRUCTURING_WEIGHT = 0.4, 0.6
JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")
KEYS = ("cleaned_data_list", "structured_data", "dataset_schema")
Number = int | float


class ItemError(ValueError):
    """What is wrong with one item, and what to write instead."""


@dataclass(frozen=True, repr=False)
class Entry:
    """One item of a file: its line, and the seed's output or what is wrong with it."""

    line: int
    output: dict[str, Any] | None = None
    problem: str | None = None


@dataclass(frozen=True, repr=False)
class Scored:
    """A file's items, and whether it was read as JSON Lines (then the output is a list)."""

    entries: tuple[Entry, ...]
    json_lines: bool

    @property
    def bad(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.problem is not None)

    def output(self) -> object:
        """The seed's output: one object, or a list with null for each bad line."""
        if self.json_lines:
            return [e.output for e in self.entries]
        return self.entries[0].output if self.entries else None


def score_item(item: object) -> dict[str, Any]:
    """The seed's output for one input item; raises ItemError when it is not the seed's."""
    texts, data, fields = _checked(item)
    sets = word_sets(texts)
    work = pairwise_work(sets)
    if work > PAIRWISE_WORK:
        raise ItemError(
            f"cleaned_data_list: comparing its {len(texts):,} texts pair by pair would cost "
            f"{work:,} steps, over the {PAIRWISE_WORK:,} one item may take (the seed sends "
            "five texts): split it into items of fewer texts"
        )
    sub = score_object(data, Expectation(fields), [source(t) for t in texts])
    similarity = mean_pairwise_similarity(sets)
    consistency = _score(consistency_score(similarity if similarity is not None else 0.0))
    details = (
        _score(sub.completeness),
        _score(sub.accuracy),
        _score(sub.type_correctness),
        _score(sub.sufficiency),
    )
    structuring = _score(structuring_quality(*details))
    return {
        "content_consistency_score": _shown(consistency),
        "structuring_quality_score": _shown(structuring),
        "miner_score": _shown(miner_score(consistency, structuring)),
        "details": dict(
            zip(
                (
                    "completeness_score",
                    "value_accuracy_score",
                    "type_score",
                    "information_sufficiency_score",
                ),
                map(_shown, details),
                strict=True,
            )
        ),
    }


def miner_score(consistency: float, structuring: float) -> float:
    """The seed's final score: content consistency × 0.4 + structuring quality × 0.6."""
    return _score(consistency * CONSISTENCY_WEIGHT + structuring * STRUCTURING_WEIGHT)


def _checked(item: object) -> tuple[list[str], Mapping[str, Any], tuple[Field, ...]]:
    if not isinstance(item, dict):
        raise ItemError(f"not a JSON object: give {{{', '.join(KEYS)}}}")
    missing = [key for key in KEYS if key not in item]
    if missing:
        raise ItemError(f"has no {', '.join(missing)}: an item holds {', '.join(KEYS)}")
    texts, data = item["cleaned_data_list"], item["structured_data"]
    if not isinstance(texts, list) or len(texts) < 2 or not all(isinstance(t, str) for t in texts):
        raise ItemError(
            "cleaned_data_list must be a list of two or more texts (the seed sends five)"
        )
    if not isinstance(data, dict):
        raise ItemError("structured_data must be a JSON object: the structured data to score")
    try:
        fields = schema_fields(item["dataset_schema"])
    except SchemaError as err:
        raise ItemError(f"dataset_schema {err}") from None
    return texts, data, fields


def _score(value: float) -> float:
    return round(min(100.0, max(0.0, value)), 2)


def _shown(value: float) -> Number:
    return int(value) if value.is_integer() else value


# --- files -----------------------------------------------------------------------------------

# A line of JSON Lines: its number, and its text, or why it cannot be read.
Line = tuple[int, str | None, str | None]
_BOM = b"\xef\xbb\xbf"


class Unreadable(ValueError):
    """A file that holds one item (not JSON Lines) and cannot be read: why, and the fix."""

    def __init__(self, reason: str, fix: str) -> None:
        super().__init__(reason)
        self.fix = fix


def score_text(text: str, json_lines: bool = False) -> Scored:
    """Every item of a file's text: one JSON object, or JSON Lines (see the module)."""
    numbered = ((n, line.removesuffix("\r"), None) for n, line in enumerate(text.split("\n"), 1))
    found, entries = _read(numbered, json_lines, lambda: text)
    return Scored(tuple(entries), found)


def score_stream(stream: BinaryIO, json_lines: bool = False) -> tuple[bool, Iterator[Entry]]:
    """Whether ``stream`` is JSON Lines, and its items, scored one at a time as they are read
    (a file of a million lines is never held whole). A line over ``DATASET_ITEM_BYTES``, or
    not UTF-8, is a bad item of its own; one item that is not JSON Lines is read whole, and
    raises ``Unreadable`` when it is over that size or not UTF-8."""
    lines = _stream_lines(stream)
    # The bytes read to tell JSON Lines from one item, for ``whole``: never more than one item
    # may hold, and only until it is told.
    taken = bytearray()
    over = False
    deciding = True

    def whole() -> str:
        data = bytes(taken) + stream.read(DATASET_ITEM_BYTES + 1 - len(taken))
        if over or len(data) > DATASET_ITEM_BYTES:
            raise Unreadable(
                f"over {DATASET_ITEM_BYTES // 2**20} MiB, the most one item holds",
                "give one item a line (JSON Lines, *.jsonl), each under that size",
            )
        try:
            return data.removeprefix(_BOM).decode("utf-8")
        except UnicodeDecodeError as err:
            raise Unreadable(f"not UTF-8 at byte {err.start:,}", "give a UTF-8 JSON file") from None

    def kept() -> Iterator[Line]:
        nonlocal over
        for number, raw in lines:
            if deciding and not over:
                over = raw is None or len(taken) + len(raw) > DATASET_ITEM_BYTES
                taken.extend(b"" if over or raw is None else raw)
            yield _decoded(number, raw)

    found = _read(kept(), json_lines, whole)
    deciding = False
    taken.clear()
    return found


def _read(
    lines: Iterator[Line], json_lines: bool, whole: Callable[[], str]
) -> tuple[bool, Iterator[Entry]]:
    """Read as JSON Lines when told, or when the first line with text is a JSON object by
    itself and another line with text follows (then the whole is not one JSON value); one
    JSON object alone on its line is one item. Anything else is read whole, as one value."""
    if json_lines:
        return True, _entries(lines)
    # Lines with text only: blank ones are skipped as JSON Lines, and a file can hold millions.
    seen = [line for line in itertools.islice(_with_text(lines), 1)]
    first = _object(seen[0][1]) if seen else None
    if first is not None:
        seen += itertools.islice(_with_text(lines), 1)
        if len(seen) > 1:
            return True, _entries(itertools.chain(seen, lines))
        return False, iter((_entry(1, first),))
    text = whole()
    try:
        value = json_input.parse(text)
    except json_input.JsonInputError as err:
        where = f"line {err.line}, column {err.column}"
        return False, iter((Entry(err.line, problem=f"not JSON: {err.message} ({where})"),))
    if isinstance(value, list):
        problem = "a JSON list: give one object, or JSON Lines (one object a line)"
        return False, iter((Entry(1, problem=problem),))
    return False, iter((_entry(1, value),))


def _with_text(lines: Iterator[Line]) -> Iterator[Line]:
    return (line for line in lines if line[1] is None or line[1].strip())


def _entries(lines: Iterable[Line]) -> Iterator[Entry]:
    """The items of JSON Lines, one a line with text: blank lines are skipped."""
    any_item = False
    for number, line, problem in lines:
        if problem is not None:
            yield Entry(number, problem=problem)
        elif line is not None and line.strip():
            try:
                item = json_input.parse(line)
            except json_input.JsonInputError as err:
                yield Entry(number, problem=f"not JSON: {err.message} (column {err.column})")
            else:
                yield _entry(number, item)
        else:
            continue
        any_item = True
    if not any_item:
        yield Entry(1, problem="holds no item: give one JSON object a line")


def _stream_lines(stream: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """The lines of a stream split at line feeds only (JSON allows U+2028, U+2029 and U+0085
    raw inside a string), each with its line feed; None for a line over the size one item
    may have, which is read past, never held."""
    number = 0
    while line := stream.readline(DATASET_ITEM_BYTES + 1):
        number += 1
        if len(line) > DATASET_ITEM_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(2**20)) and not rest.endswith(b"\n"):
                pass
            yield number, None
        else:
            yield number, line


def _decoded(number: int, raw: bytes | None) -> Line:
    if raw is None:
        return number, None, f"over {DATASET_ITEM_BYTES // 2**20} MiB, the most one item holds"
    if number == 1:
        raw = raw.removeprefix(_BOM)
    try:
        return number, raw.removesuffix(b"\n").removesuffix(b"\r").decode("utf-8"), None
    except UnicodeDecodeError as err:
        return number, None, f"not UTF-8 at byte {err.start:,} of the line"


def _object(line: str | None) -> dict[str, Any] | None:
    try:
        value = json_input.parse(line) if line is not None else None
    except json_input.JsonInputError:
        return None
    return value if isinstance(value, dict) else None


def _entry(line: int, item: object) -> Entry:
    try:
        return Entry(line, output=score_item(item))
    except ItemError as err:
        return Entry(line, problem=str(err))


# --- the text summary ------------------------------------------------------------------------


def render_text(scored: Scored) -> str:
    """A short summary: each item's scores on one line, then the count for JSON Lines."""
    return "".join(text_lines(iter(scored.entries), scored.json_lines))


def text_lines(entries: Iterator[Entry], json_lines: bool) -> Iterator[str]:
    """``render_text``'s lines, each as its item is scored."""
    count = bad = 0
    total = 0.0
    for entry in entries:
        count += 1
        head = f"line {entry.line}  " if json_lines else ""
        yield head + (_summary(entry.output) if entry.output else "not scored") + "\n"
        if entry.output:
            total += entry.output["miner_score"]
        else:
            bad += 1
    if json_lines:
        done = count - bad
        mean = f"; mean miner_score {_number(total / done)}" if done else ""
        yield f"{count} item(s): {done} scored, {bad} not scored{mean}\n"


def json_list_parts(entries: Iterator[Entry]) -> Iterator[str]:
    """The JSON Lines output, a list with null for each bad line, in parts as its items are
    scored: together, the bytes of ``json.dumps(outputs, indent=2, ensure_ascii=False)``."""
    yield "["
    for number, entry in enumerate(entries):
        shown = json.dumps(entry.output, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        yield ("," if number else "") + "\n  " + shown
    yield "\n]\n"


def _summary(output: Mapping[str, Any]) -> str:
    d = output["details"]
    return (
        f"miner_score {_number(output['miner_score'])}  consistency "
        f"{_number(output['content_consistency_score'])}  structuring "
        f"{_number(output['structuring_quality_score'])}  (completeness "
        f"{_number(d['completeness_score'])}, accuracy {_number(d['value_accuracy_score'])}, "
        f"types {_number(d['type_score'])}, sufficiency "
        f"{_number(d['information_sufficiency_score'])})"
    )


def _number(value: float) -> str:
    return f"{round(value, 2):g}"


def problems(scored: Scored, name: str) -> Sequence[str]:
    """'FILE:LINE: what is wrong' for each bad item of a JSON Lines file, 'FILE: …' else."""
    return [problem(e, name, scored.json_lines) for e in scored.bad]


def problem(entry: Entry, name: str, json_lines: bool) -> str:
    """One bad item's 'FILE:LINE: what is wrong' ('FILE: …' for a file of one item)."""
    return f"{name}:{entry.line}: {entry.problem}" if json_lines else f"{name}: {entry.problem}"
