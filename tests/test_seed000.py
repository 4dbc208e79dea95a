"""Seed 000 as written: its structured-data quality, its matching rules, and its evaluator.

The seed scores structured JSON on field completeness (30 %), value accuracy (40 %), type
correctness (15 %) and information sufficiency (15 %), and a miner's submission on content
consistency (40 %) and that structuring quality (60 %). ``plugin-eval dataset-score`` runs it
on the seed's own input; the Monte Carlo layer scores a reply's JSON the same way when an
eval case gives ``expected_json`` or ``expected_schema``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.dataset_score import miner_score, score_item, score_text
from plugin_eval.montecarlo import measures
from plugin_eval.montecarlo.prompts import (
    EvalCase,
    EvalFileError,
    PromptSet,
    load_eval_file,
    save_evals,
)
from plugin_eval.montecarlo.results import RunRecord
from plugin_eval.montecarlo.structured import (
    Expectation,
    Field,
    SchemaError,
    Verdict,
    canonical_url,
    expectation,
    has_type,
    iso_date,
    match_in_text,
    match_value,
    reply_object,
    schema_fields,
    score_object,
    score_reply,
    source,
    structuring_quality,
)
from tests.conftest import write_files
from tests.fake_llm_server import FakeLLM

runner = CliRunner()

# The seed's "Input" and "Output Format" examples, as the seed writes them.
SEED_INPUT = """\
{
  "cleaned_data_list": [
    "cleaned_text_1",
    "cleaned_text_2",
    "cleaned_text_3",
    "cleaned_text_4",
    "cleaned_text_5"
  ],
  "structured_data": {
    "field1": "value",
    "field2": "value"
  },
  "dataset_schema": {
    "fields": [
      {"name": "title", "type": "string", "required": true},
      {"name": "author", "type": "string", "required": false},
      {"name": "date", "type": "string", "required": false},
      {"name": "url", "type": "string", "required": true}
    ]
  }
}
"""
SEED_OUTPUT = {
    "content_consistency_score": 92,
    "structuring_quality_score": 85,
    "miner_score": 88.2,
    "details": {
        "completeness_score": 90,
        "value_accuracy_score": 88,
        "type_score": 100,
        "information_sufficiency_score": 80,
    },
}

# A filled-in item, every number worked by hand in the test that uses it.
WORKED = {
    "cleaned_data_list": [
        "<h1>Deep Learning Basics</h1> by Jane Doe, 2024-03-05. https://example.com/dl",
        "Deep Learning Basics by Jane Doe, 2024-03-05. https://example.com/dl",
        "deep learning basics by jane doe, 2024-03-05. https://example.com/dl",
        "Deep  Learning Basics by Jane Doe 2024-03-05. https://example.com/dl",
        "Deep Learning Basics, a primer by Jane Doe",
    ],
    "structured_data": {
        "title": "Deep Learning Basics",
        "author": "Jane Doe, PhD",
        "date": "2024-03-05T00:00:00",
        "url": "HTTPS://Example.com:443/dl/",
        "pages": "12",
    },
    "dataset_schema": {
        "fields": [
            {"name": "title", "type": "string", "required": True},
            {"name": "author", "type": "string", "required": False},
            {"name": "date", "type": "string", "required": False},
            {"name": "url", "type": "string", "required": True},
            {"name": "summary", "type": "string", "required": False},
            {"name": "pages", "type": "integer", "required": False},
        ]
    },
}
WORKED_OUTPUT = {
    "content_consistency_score": 67.88,
    "structuring_quality_score": 82.58,
    "miner_score": 76.7,
    "details": {
        "completeness_score": 100,
        "value_accuracy_score": 73.33,
        "type_score": 80,
        "information_sufficiency_score": 75,
    },
}


# --- the seed's evaluator: dataset-score ------------------------------------------------------


def test_the_seeds_example_input_gives_the_seeds_output_fields() -> None:
    """The seed's example input is a template: placeholder texts ("cleaned_text_1", …) that
    share no word, and structured data whose keys (field1, field2) are none of the schema's
    fields. Its formulas give 0 for every score: no required field present (completeness 0),
    no declared field to check a value or a type of (0), neither optional field (author,
    date) filled (sufficiency 0), and a mean Jaccard similarity of 0 (consistency 0). The
    output has the seed's fields, named and nested as the seed writes them."""
    out = score_item(json.loads(SEED_INPUT))
    assert list(out) == list(SEED_OUTPUT)
    assert list(out["details"]) == list(SEED_OUTPUT["details"])  # type: ignore[call-overload]
    assert out == {
        "content_consistency_score": 0,
        "structuring_quality_score": 0,
        "miner_score": 0,
        "details": dict.fromkeys(out["details"], 0),
    }


def test_the_seeds_example_output_is_illustrative_and_the_formulas_win() -> None:
    """The seed's example output does not follow its own formulas: its details (90, 88, 100,
    80) give a structuring quality of 27 + 35.2 + 15 + 12 = 89.2, not the 85 it prints, and
    its consistency 92 with that 85 gives a miner score of 36.8 + 51 = 87.8, not 88.2.
    plugin-eval follows the formulas: with those details and that consistency it prints
    89.2 and 90.32."""
    details = SEED_OUTPUT["details"]
    assert isinstance(details, dict)
    assert structuring_quality(*details.values()) == pytest.approx(89.2)
    assert miner_score(92, 85) == 87.8
    assert miner_score(92, 89.2) == 90.32


def test_a_filled_in_item_gives_the_numbers_worked_by_hand() -> None:
    """Consistency: three texts are the same once normalised (HTML out, lowercase, spaces
    collapsed); the fourth lacks the comma after "Doe" (7 of 9 words shared with each of
    them), the fifth shares 4 of 12 words with each of the three and 5 of 11 with the
    fourth: (3 + 3 × 7/9 + 3 × 1/3 + 5/11) / 10 = 0.6788 → 67.88 (100 × s below 0.8).

    Structured data: both required fields present (completeness 100); five declared fields
    present, pages ("12") not an integer (types 4/5 = 80); three of the four optional
    fields present (sufficiency 75); values: title, date (a midnight timestamp is that
    date) and url (canonical form) exact, "Jane Doe, PhD" partial (2 of its 3 words in the
    text: 60 + 40 × 1/6 = 66.67), "12" inconsistent (0): accuracy 366.67 / 5 = 73.33.
    Structuring 30 + 29.33 + 12 + 11.25 = 82.58; miner 27.15 + 49.55 = 76.7."""
    assert score_item(WORKED) == WORKED_OUTPUT


def test_scores_are_clamped_rounded_and_whole_numbers_have_no_fraction() -> None:
    out = score_item(WORKED)
    assert json.dumps(out["details"]["completeness_score"]) == "100"
    assert json.dumps(out["miner_score"]) == "76.7"
    assert miner_score(200, 200) == 100 and miner_score(-5, -5) == 0


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"cleaned_data_list": ["only one"]}, "cleaned_data_list must be a list of two or more"),
        ({"structured_data": ["a"]}, "structured_data must be a JSON object"),
        ({"dataset_schema": {"fields": []}}, "dataset_schema fields must be a list"),
        (
            {"dataset_schema": {"fields": [{"name": "t", "type": "str"}]}},
            "dataset_schema field 1 (t): type must be one of string, number, integer",
        ),
    ],
)
def test_an_item_that_is_not_the_seeds_says_what_is_wrong(
    change: dict[str, Any], said: str
) -> None:
    scored = score_text(json.dumps({**WORKED, **change}))
    (entry,) = scored.bad
    assert entry.problem is not None and entry.problem.startswith(said)


def dataset_score(tmp_path: Path, name: str, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["dataset-score", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_dataset_score_prints_the_seeds_json(tmp_path: Path) -> None:
    code, out, err = dataset_score(tmp_path, "item.json", json.dumps(WORKED, indent=2))
    assert (code, err) == (0, "")
    assert json.loads(out) == WORKED_OUTPUT


def test_json_lines_go_on_past_a_bad_line_and_report_it(tmp_path: Path) -> None:
    lines = [json.dumps(WORKED), '{"cleaned_data_list": ', "", json.dumps(WORKED)]
    code, out, err = dataset_score(tmp_path, "batch.jsonl", "\n".join(lines) + "\n")
    assert code == 1
    assert json.loads(out) == [WORKED_OUTPUT, None, WORKED_OUTPUT]  # the blank line skipped
    assert err.startswith(f"error: {tmp_path / 'batch.jsonl'}:2: not JSON: ")
    assert err.count("error:") == 1


def test_json_lines_are_found_without_the_suffix(tmp_path: Path) -> None:
    lines = [json.dumps(WORKED), json.dumps({**WORKED, "structured_data": 1})]
    code, out, err = dataset_score(tmp_path, "batch.json", "\n".join(lines))
    assert code == 1 and json.loads(out) == [WORKED_OUTPUT, None]
    assert "batch.json:2: structured_data must be a JSON object" in err


def test_every_line_good_exits_0(tmp_path: Path) -> None:
    code, out, _ = dataset_score(tmp_path, "b.ndjson", json.dumps(WORKED) + "\n")
    assert code == 0 and json.loads(out) == [WORKED_OUTPUT]


def test_the_text_output_is_a_short_summary(tmp_path: Path) -> None:
    lines = [json.dumps(WORKED), "[]"]
    code, out, _ = dataset_score(tmp_path, "b.jsonl", "\n".join(lines), "-o", "text")
    assert code == 1
    assert out == (
        "line 1  miner_score 76.7  consistency 67.88  structuring 82.58  (completeness 100, "
        "accuracy 73.33, types 80, sufficiency 75)\n"
        "line 2  not scored\n"
        "2 item(s): 1 scored, 1 not scored; mean miner_score 76.7\n"
    )


def test_a_bad_single_object_names_the_line_and_column(tmp_path: Path) -> None:
    code, out, err = dataset_score(tmp_path, "item.json", '{\n  "a": 1,\n}')
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {tmp_path / 'item.json'}: not JSON: ")
    assert "(line 3, column 1)" in err


@pytest.mark.parametrize("args", [["missing.json"], ["item.json", "-o", "yaml"]])
def test_an_unreadable_file_or_a_bad_option_exits_2(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "item.json").write_text(json.dumps(WORKED))
    result = runner.invoke(app, ["dataset-score", *[str(tmp_path / args[0]), *args[1:]]])
    assert result.exit_code == 2


def test_a_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    (tmp_path / "item.json").write_bytes(b'{"a": "\xff"}')
    result = runner.invoke(app, ["dataset-score", str(tmp_path / "item.json")])
    assert result.exit_code == 2 and "cannot be read" in result.stderr


# --- the matching rules ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected", "verdict"),
    [
        # exact: the same text once normalised (HTML out, lowercase, whitespace collapsed)
        ("<b>Jane</b>  DOE", "jane doe", Verdict("exact", 100.0)),
        (2024, "2024", Verdict("exact", 100.0)),  # a wrong type is not a wrong value
        (3.0, 3, Verdict("exact", 100.0)),
        (True, "true", Verdict("exact", 100.0)),
        (["ml", "AI"], ["ml", "ai"], Verdict("exact", 100.0)),
        # partial: word Jaccard from 0.5, 60 + 40 × (overlap − 0.5)
        ("Doe, Jane", "Jane Doe", Verdict("partial", 80.0)),
        ("Jane A. Doe", "Jane Doe", Verdict("partial", 60 + 40 * (2 / 3 - 0.5))),
        ("Jane Doe Smith Jr", "Jane Doe", Verdict("partial", 60.0)),
        # inconsistent: below 0.5, 100 × overlap
        ("Jane Smith", "Jane Doe", Verdict("inconsistent", 100 / 3)),
        ("John Smith", "Jane Doe", Verdict("inconsistent", 0.0)),
    ],
)
def test_a_value_against_its_expected_value(value: Any, expected: Any, verdict: Verdict) -> None:
    got = match_value(value, expected)
    assert got.kind == verdict.kind and got.score == pytest.approx(verdict.score)


@pytest.mark.parametrize(
    ("value", "expected", "kind"),
    [
        ("2024-03-05T10:00:00+02:00", "2024-03-05T08:00:00Z", "exact"),  # the same instant
        ("2024-03-05T00:00:00", "2024-03-05", "exact"),  # midnight, no zone: that date
        ("2024-03-05", "2024-03-05T10:00:00", "partial"),  # 3 of 5 words
        ("2024-03-05", "2024-03-06", "partial"),  # year and month: 2 of 4 words, 60
        ("March 5, 2024", "2024-03-05", "inconsistent"),  # only ISO dates are read as dates
    ],
)
def test_dates_are_compared_in_canonical_form(value: str, expected: str, kind: str) -> None:
    assert match_value(value, expected).kind == kind


def test_iso_dates_are_written_canonically() -> None:
    assert iso_date("2024-03-05T10:00:00+02:00") == "2024-03-05 08:00:00+00:00"
    assert iso_date("2024-03-05t10:00z") == "2024-03-05 10:00:00+00:00"
    assert iso_date("2024-03-05 10:30") == "2024-03-05 10:30:00"
    assert iso_date("2024-13-05") is None and iso_date("05/03/2024") is None


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://Example.COM:443/dl/", "https://example.com/dl"),
        ("http://example.com:80/", "http://example.com"),
        ("http://example.com:8080/a/?q=1#top", "http://example.com:8080/a?q=1#top"),
        ("https://user@Example.com/Path", "https://user@example.com/Path"),
        ("http://[::1]:80/x", "http://[::1]/x"),
    ],
)
def test_urls_lowercase_scheme_and_host_and_drop_default_port_and_slash(
    url: str, canonical: str
) -> None:
    assert canonical_url(url) == canonical


def test_urls_are_compared_in_canonical_form() -> None:
    assert match_value("HTTPS://Example.com:443/dl/", "https://example.com/dl").kind == "exact"
    assert match_value("http://example.com:8080/dl", "http://example.com/dl").kind != "exact"
    assert canonical_url("not a url") is None and canonical_url("http://x:port/") is None


def test_a_value_against_a_source_text() -> None:
    text = source(
        "<h1>Deep Learning Basics</h1> by Jane Doe, published 2024-03-05T10:00:00Z at "
        "https://Example.com/dl/."
    )
    assert match_in_text("deep  LEARNING basics", text).kind == "exact"
    assert match_in_text("https://example.com:443/dl", text).kind == "exact"  # named there
    assert match_in_text("2024-03-05", text).kind == "exact"  # the day of a timestamp
    assert match_in_text("Basics Deep Learning", text) == Verdict("partial", 80.0)
    assert match_in_text("Machine Learning", text) == Verdict("partial", 60.0)
    assert match_in_text("Jan", text) == Verdict("inconsistent", 0.0)  # whole words only


def test_types_follow_json_schema() -> None:
    assert has_type(3.0, ("integer",)) and has_type(3, ("number",))
    assert not has_type(True, ("number",)) and not has_type(3.5, ("integer",))
    assert has_type(None, ("string", "null")) and has_type("x", ())
    assert not has_type("2024", ("integer",))


# --- the structured measure ------------------------------------------------------------------

FIELDS = (
    Field("title", ("string",), True),
    Field("url", ("string",), True),
    Field("author", ("string",), False),
    Field("year", ("integer",), False),
    Field("tags", ("array",), False),
)
EXPECTED = {
    "title": "Deep Learning Basics",
    "url": "https://example.com/dl",
    "author": "Jane Doe",
    "year": 2024,
    "tags": ["ml"],
}
WANT = Expectation(FIELDS, EXPECTED)
WANT_SCHEMA = {
    "fields": [{"name": f.name, "type": f.types[0], "required": f.required} for f in FIELDS]
}
FULL = {"title": "Deep Learning Basics", "url": "https://example.com/dl", "author": "Jane Doe"}


def test_the_four_sub_scores_and_their_weights() -> None:
    got = score_object({**FULL, "year": 2024}, WANT)
    # Sufficiency: author and year of the three optional fields expected (tags missing).
    assert (got.completeness, got.accuracy, got.type_correctness) == (100.0, 100.0, 100.0)
    assert got.sufficiency == pytest.approx(200 / 3)
    assert got.score == pytest.approx(30 + 40 + 15 + 10)


def test_a_missing_field_and_a_wrong_type_cost_completeness_and_types_only() -> None:
    whole = score_object({**FULL, "year": 2024}, WANT)
    broken = score_object({**FULL, "url": None, "year": "2024"}, WANT)
    assert broken.completeness == 50.0 and broken.type_correctness == pytest.approx(200 / 3)
    assert (broken.accuracy, broken.sufficiency) == (whole.accuracy, whole.sufficiency)


def test_a_present_field_is_not_null_blank_or_empty() -> None:
    got = score_object({"title": "  ", "url": [], "author": {}, "year": None}, WANT)
    assert (got.completeness, got.type_correctness, got.accuracy, got.sufficiency) == (0, 0, 0, 0)


def test_without_expected_values_values_are_checked_against_the_source() -> None:
    got = score_object(FULL, Expectation(FIELDS), [source("Deep Learning Basics by Jane Doe")])
    assert [(name, v.kind) for name, v in got.verdicts] == [
        ("title", "exact"),
        ("url", "inconsistent"),
        ("author", "exact"),
    ]
    assert got.sufficiency == pytest.approx(100 / 3)  # every optional field counts


def test_nothing_required_or_optional_is_complete() -> None:
    got = score_object({"a": "x"}, Expectation((Field("a"),), {"a": "x"}))
    assert (got.completeness, got.sufficiency, got.accuracy, got.type_correctness) == (
        100,
        100,
        100,
        100,
    )


def test_a_reply_gives_its_json_in_a_fence_or_whole() -> None:
    fenced = 'Here:\n```json\n{"a": \n```\n\n```JSON\n{"a": 1}\n```\n'
    assert reply_object(fenced) == ({"a": 1}, None)  # the first json block that parses
    assert reply_object(' {"a": 1} ') == ({"a": 1}, None)
    assert reply_object('Sure! {"a": 1}') == (None, "not JSON")
    assert reply_object("```json\n[1, 2]\n```") == (None, "JSON, but not an object")


def test_a_reply_that_is_not_json_scores_0_with_its_reason() -> None:
    got = score_reply("I cannot do that.", WANT)
    assert (got.score, got.not_json) == (0.0, "not JSON")


# --- schemas and eval files ------------------------------------------------------------------


def test_the_seeds_schema_form_and_json_schema_give_the_same_fields() -> None:
    seed = {
        "fields": [
            {"name": "title", "type": "string", "required": True},
            {"name": "year", "type": ["integer", "null"]},
        ]
    }
    json_schema = {
        "type": "object",
        "properties": {"title": {"type": "string"}, "year": {"type": ["integer", "null"]}},
        "required": ["title"],
    }
    want = (Field("title", ("string",), True), Field("year", ("integer", "null"), False))
    assert schema_fields(seed) == schema_fields(json_schema) == want


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ([], "must be a mapping"),
        ({"type": "object"}, "has neither fields"),
        ({"fields": [{"name": "a"}, {"name": "a"}]}, "declares a twice"),
        ({"fields": [{"type": "string"}]}, "field 1 has no name"),
        ({"fields": [{"name": "a", "required": "yes"}]}, "field 1 (a): required must be"),
        ({"properties": {"a": {"type": "text"}}}, "properties.a: type must be one of"),
    ],
)
def test_a_bad_schema_says_what_is_wrong(schema: object, said: str) -> None:
    with pytest.raises(SchemaError, match=rf"^{re.escape(said)}"):
        schema_fields(schema)


def test_expected_json_alone_requires_its_keys_of_their_types() -> None:
    want = expectation({"title": "x", "year": 2024, "note": None}, None)
    assert want.fields == (
        Field("title", ("string",), True),
        Field("year", ("integer",), True),
        Field("note", ("null",), False),  # nothing expected: optional
    )


CASE = """\
cases:
  - id: record
    prompt: "Give the {record} record of the article Deep Learning Basics as JSON"
    expected_json:
      title: Deep Learning Basics
      url: https://example.com/dl
      author: Jane Doe
      year: 2024
      tags: [ml]
    expected_schema:
      fields:
        - {{name: title, type: string, required: true}}
        - {{name: url, type: string, required: true}}
        - {{name: author, type: string, required: false}}
        - {{name: year, type: integer, required: false}}
        - {{name: tags, type: array, required: false}}
"""
EVAL_FILE = CASE.format(record="final")


def load(tmp_path: Path, text: str, name: str = "e.yaml") -> list[EvalCase]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_eval_file(path, f"x/{name}")


def test_an_eval_case_gives_expected_json_and_expected_schema(tmp_path: Path) -> None:
    (case,) = load(tmp_path, EVAL_FILE)
    assert case.structured == WANT and case.has_expectations
    assert case.structured.expected == EXPECTED and case.structured.schema is not None


def test_an_unquoted_yaml_date_is_its_iso_text(tmp_path: Path) -> None:
    text = EVAL_FILE.replace(
        "      tags: [ml]\n", "      tags: [ml]\n      published: 2024-03-05\n"
    )
    text += "        - {name: published, type: string}\n"
    (case,) = load(tmp_path, text)
    assert case.structured is not None
    assert case.structured.expected == {**EXPECTED, "published": "2024-03-05"}


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("      tags: [ml]\n", "      isbn: 1\n", "x/e.yaml: case 1 (line 5): "
         "expected_json has isbn, which expected_schema does not declare"),
        ("type: integer", "type: int", "x/e.yaml: case 1 (line 11): expected_schema field 4 "
         "(year): type must be one of"),
        ("    expected_json:\n", "    expected_json: [1]\n    x:\n", "x/e.yaml: case 1 (line 4): "
         "expected_json must be a JSON object"),
    ],
)  # fmt: skip
def test_a_bad_structured_case_names_the_file_the_line_and_the_fix(
    tmp_path: Path, old: str, new: str, said: str
) -> None:
    assert old in EVAL_FILE
    with pytest.raises(EvalFileError) as err:
        load(tmp_path, EVAL_FILE.replace(old, new, 1))
    assert str(err.value).startswith(said)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_saved_evals_keep_expected_json_and_schema(tmp_path: Path, suffix: str) -> None:
    cases = load(tmp_path, EVAL_FILE)
    path = tmp_path / f"saved{suffix}"
    save_evals(path, PromptSet(tuple(cases), "evals/e.yaml", generated=False), "article")
    (again,) = load_eval_file(path, "saved")
    assert again.structured == WANT
    assert again.structured.expected == EXPECTED and again.structured.schema == WANT_SCHEMA


def test_structured_quality_joins_the_other_measures_as_their_mean() -> None:
    case = EvalCase("c", "p", True, expected_keywords=("jane",), structured=WANT)
    reply = json.dumps({**FULL, "year": 2024})  # keyword recall 1, structured 95
    assert measures.case_quality(case, reply) == pytest.approx((1 + 0.95) / 2)
    assert measures.quality_method([case]) == (
        "keyword recall and structured quality (mean where a case has both)"
    )
    alone = EvalCase("d", "p", True, structured=WANT)
    assert measures.quality_method([alone]) == "structured quality (seed 000)"


def test_the_report_averages_every_reply_and_counts_those_not_json() -> None:
    case = EvalCase("c", "p", True, structured=WANT)
    good = json.dumps({**FULL, "year": 2024})
    records = [
        RunRecord(0, i, "k", answer=answer, quality=measures.case_quality(case, answer))
        for i, answer in enumerate([good, "no JSON here", "[1]", good])
    ]
    quality = measures.quality(records, [case])
    assert quality is not None and quality.structured is not None
    s = quality.structured
    assert (s.replies, s.not_json) == (4, 2)
    assert dict(s.not_json_reasons) == {"JSON, but not an object": 1, "not JSON": 1}
    assert s.score == pytest.approx(95 / 2) and s.completeness == 50.0
    assert quality.mean.value == pytest.approx(0.95 / 2)


# --- end to end, through the test server -----------------------------------------------------

# The test server answers with the ```json reply block sharing the most words with the prompt:
# "final" picks the whole record, "draft" the one without its url and with the year as text.
SKILL_MD = """\
---
name: article-record
description: Extracts the title, author, year and URL of an article into a JSON record. Use \
when someone asks for the record of an article as JSON.
---

# Article record

Reply with the record as one JSON object. The final record looks like this:

```json reply
{"title": "Deep Learning Basics", "author": "Jane Doe", "year": 2024, "url": "https://example.com/dl", "note": "final"}
```

A draft record, for comparison:

```json reply
{"title": "Deep Learning Basics", "author": "Jane Doe", "year": "2024", "note": "draft"}
```
"""


def through_the_test_server(llm: FakeLLM, tmp_path: Path, record: str) -> dict[str, Any]:
    folder = tmp_path / record / "article-record"
    write_files(folder, {"SKILL.md": SKILL_MD, "evals/e.yaml": CASE.format(record=record)})
    result = runner.invoke(
        app,
        [
            "score", str(folder), "--depth", "deep", "-o", "json", "--fail-on", "none",
            "--backend", "openai", "--base-url", f"{llm.url}/v1", "--model", "fake-router",
            "--runs", "2",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    jsonschema.validate(report, json.loads(runner.invoke(app, ["schema"]).stdout))
    (layer,) = [x for x in report["layers"] if x["layer"] == "monte_carlo"]
    return layer  # type: ignore[no-any-return]


def test_replies_with_json_are_scored_by_the_structured_measure(
    llm: FakeLLM, tmp_path: Path
) -> None:
    layer = through_the_test_server(llm, tmp_path, "final")
    quality = layer["monte_carlo"]["output_quality"]
    # Every declared field present with its type and its value; of the optional fields
    # expected (author, year, tags), tags is missing.
    assert quality["structured"] == {
        "completeness": 100.0,
        "accuracy": 100.0,
        "type_correctness": 100.0,
        "sufficiency": 66.67,
        "score": 95.0,
        "replies": 2,
        "not_json": 0,
        "not_json_reasons": {},
    }
    assert quality["method"] == "structured quality (seed 000)"
    assert quality["mean"]["value"] == 0.95
    assert layer["monte_carlo"]["consistency"]["score"] == 100  # the same reply twice
    (evidence,) = layer["sub_scores"]["output_quality"]["evidence"]
    assert evidence["label"].endswith(
        "; structured: completeness 100, accuracy 100, types 100, sufficiency 67, score 95 "
        "(2 replies, 0 not JSON)"
    )


def test_a_missing_field_and_a_wrong_type_lower_exactly_those_sub_scores(
    llm: FakeLLM, tmp_path: Path
) -> None:
    whole = through_the_test_server(llm, tmp_path, "final")["monte_carlo"]["output_quality"]
    draft = through_the_test_server(llm, tmp_path, "draft")["monte_carlo"]["output_quality"]
    # The draft has no url (1 of 2 required fields) and a year written as text (2 of the 3
    # declared fields present have their type); its values and optional fields are the same.
    changed = {k for k in whole["structured"] if whole["structured"][k] != draft["structured"][k]}
    assert changed == {"completeness", "type_correctness", "score"}
    assert draft["structured"]["completeness"] == 50.0
    assert draft["structured"]["type_correctness"] == 66.67
    assert draft["structured"]["score"] == 75.0  # 15 + 40 + 10 + 10


def test_structured_data_nested_hundreds_deep_is_scored_not_a_crash() -> None:
    """JSON Python reads (under its own nesting limit) is read without recursion: a value 400
    levels deep is scored, and the items around it are too."""
    from plugin_eval.montecarlo.structured import canonical

    good = (
        '{"cleaned_data_list":["a","b"],"structured_data":{"x":1},'
        '"dataset_schema":{"fields":[{"name":"x"}]}}'
    )
    deep = good.replace('{"x":1}', '{"x":' + "[" * 400 + "1" + "]" * 400 + "}")
    scored = score_text("\n".join([good, deep, good]), json_lines=True)
    assert [(e.line, e.problem) for e in scored.entries] == [(1, None), (2, None), (3, None)]
    assert canonical([1, [], 2.0, {"a": True, "b": [None, "x"]}, ()]) == "1  2 true  x "


def test_a_json_lines_line_holding_a_raw_line_separator_stays_one_line() -> None:
    """JSON allows U+2028, U+2029 and U+0085 raw inside a string: they end no line of JSON
    Lines, so the items and their line numbers stay as written (CRLF line ends too)."""
    item = (
        '{"cleaned_data_list":["a\u2028b","c\u0085d"],"structured_data":{"x":"e\u2029f"},'
        '"dataset_schema":{"fields":[{"name":"x"}]}}'
    )
    scored = score_text("\r\n".join([item, item, "not json"]) + "\r\n", json_lines=True)
    assert [(e.line, e.problem is None) for e in scored.entries] == [
        (1, True),
        (2, True),
        (3, False),
    ]
