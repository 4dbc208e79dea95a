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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from plugin_eval import json_input
from plugin_eval.montecarlo.consistency import consistency_score, mean_pairwise_jaccard
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
    sub = score_object(data, Expectation(fields), [source(t) for t in texts])
    similarity = mean_pairwise_jaccard(texts)
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


def score_text(text: str, json_lines: bool = False) -> Scored:
    """Every item of a file's text: one JSON object, or JSON Lines (see the module)."""
    if not json_lines:
        try:
            whole = json_input.parse(text)
        except json_input.JsonInputError as err:
            if not _first_line_is_an_object(text):
                where = f"line {err.line}, column {err.column}"
                return Scored(
                    (Entry(err.line, problem=f"not JSON: {err.message} ({where})"),), False
                )
        else:
            if isinstance(whole, list):
                problem = "a JSON list: give one object, or JSON Lines (one object a line)"
                return Scored((Entry(1, problem=problem),), False)
            return Scored((_entry(1, whole),), False)
    entries: list[Entry] = []
    for number, line in enumerate(_lines(text), 1):
        if not line.strip():
            continue
        try:
            item = json_input.parse(line)
        except json_input.JsonInputError as err:
            problem = f"not JSON: {err.message} (column {err.column})"
            entries.append(Entry(number, problem=problem))
            continue
        entries.append(_entry(number, item))
    if not entries:
        entries.append(Entry(1, problem="holds no item: give one JSON object a line"))
    return Scored(tuple(entries), True)


def _lines(text: str) -> list[str]:
    """The lines of JSON Lines: split at line feeds (a carriage return before one dropped), not
    at U+2028, U+2029 or U+0085, which JSON allows raw inside a string."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def _first_line_is_an_object(text: str) -> bool:
    first = next((line for line in _lines(text) if line.strip()), "")
    try:
        return isinstance(json_input.parse(first), dict)
    except json_input.JsonInputError:
        return False


def _entry(line: int, item: object) -> Entry:
    try:
        return Entry(line, output=score_item(item))
    except ItemError as err:
        return Entry(line, problem=str(err))


# --- the text summary ------------------------------------------------------------------------


def render_text(scored: Scored) -> str:
    """A short summary: each item's scores on one line, then the count for JSON Lines."""
    lines = []
    for entry in scored.entries:
        head = f"line {entry.line}  " if scored.json_lines else ""
        lines.append(head + (_summary(entry.output) if entry.output else "not scored"))
    if scored.json_lines:
        done = [e.output["miner_score"] for e in scored.entries if e.output]
        mean = f"; mean miner_score {_number(sum(done) / len(done))}" if done else ""
        lines.append(
            f"{len(scored.entries)} item(s): {len(done)} scored, {len(scored.bad)} not scored"
            + mean
        )
    return "".join(line + "\n" for line in lines)


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
    return [
        f"{name}:{e.line}: {e.problem}" if scored.json_lines else f"{name}: {e.problem}"
        for e in scored.bad
    ]
