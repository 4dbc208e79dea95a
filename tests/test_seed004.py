"""Seed 004 as written: its YAML dataset is an eval file, and its example gives its metrics.

The seed matches expected cards (front and back keywords, maybe a type) to generated ones
greedily by a weighted pair score, and reports recall, precision, F1 and the mean
similarity of the matched pairs. plugin-eval ignores case and spacing when it looks for a
keyword; an eval file with ``strict-seed: true`` looks for them as the seed does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from plugin_eval.cli import app
from plugin_eval.montecarlo import measures
from plugin_eval.montecarlo.measures import Card
from plugin_eval.montecarlo.prompts import (
    EvalCase,
    EvalFileError,
    ExpectedCard,
    PromptSet,
    load_eval_file,
    save_evals,
)
from plugin_eval.report.montecarlo import MatchOut
from tests.conftest import write_files
from tests.fake_llm_server import FakeLLM

# The seed's "YAML Dataset Format" example, character for character.
SEED_EXAMPLE = """\
name: "eval-dataset"
version: "1.0"
cases:
  - id: "case-01"
    text: "Input text for LLM..."
    expected_cards:
      - front_keywords: ["key concept"]
        back_keywords: ["expected answer part"]
        card_type: qa
"""
SEED_CARD = ExpectedCard(("key concept",), ("expected answer part",), "qa")

# The test server answers with the three lines of the skill body that share the most words
# with the prompt ("Input text for LLM..."): these three cards, one JSON object a line.
# Against SEED_CARD: the first scores 1.0 with case ignored and 0.2 (type only) as written;
# the second 0.6 either way (front and type); the third 0.0 (other type, no keyword).
SKILL_MD = """\
---
name: flashcards
description: Turns an input text such as study notes into Anki flashcards, a question on \
the front and its answer on the back. Use when someone asks for flashcards from a text.
---

# Flashcards

Reply with one JSON object per card, one card a line:

```json
{"front": "Key concept of the input text", "back": "Expected answer part", "card_type": "qa"}
{"front": "The key concept in this text", "back": "Something else entirely", "card_type": "qa"}
{"front": "Input text summary", "back": "No match here", "card_type": "cloze"}
```

## Steps

1. Read the notes and pick the ideas worth remembering.
2. Write one card per idea, the question on the front and the answer on the back.
"""
runner = CliRunner()


def skill_with(tmp_path: Path, eval_file: str) -> Path:
    folder = tmp_path / "skills" / "flashcards"
    write_files(folder, {"SKILL.md": SKILL_MD, "evals/seed.yaml": eval_file})
    return folder


def score(folder: Path, *args: str) -> dict[str, Any]:
    result = runner.invoke(
        app, ["score", str(folder), "--depth", "deep", "-o", "json", "--fail-on", "none", *args]
    )
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def layer(report: dict[str, Any]) -> dict[str, Any]:
    (found,) = [x for x in report["layers"] if x["layer"] == "monte_carlo"]
    return found  # type: ignore[no-any-return]


def through_the_test_server(llm: FakeLLM, folder: Path) -> dict[str, Any]:
    return score(
        folder,
        *("--backend", "openai", "--base-url", f"{llm.url}/v1", "--model", "fake-router"),
        *("--runs", "2"),
    )


def load(tmp_path: Path, text: str, name: str = "seed.yaml") -> list[EvalCase]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_eval_file(path, f"x/{name}")


# --- the dataset ------------------------------------------------------------------------


def test_the_seeds_example_file_is_an_eval_file(tmp_path: Path) -> None:
    assert load(tmp_path, SEED_EXAMPLE) == [
        EvalCase(
            id="case-01",
            prompt="Input text for LLM...",
            should_trigger=True,
            source="x/seed.yaml#1",
            expected_cards=(SEED_CARD,),
        )
    ]


def test_strict_seed_is_a_setting_of_the_file(tmp_path: Path) -> None:
    (case,) = load(tmp_path, "strict-seed: true\n" + SEED_EXAMPLE)
    assert case.strict_seed and case.expected_cards == (SEED_CARD,)
    (case,) = load(tmp_path, "strict-seed: false\n" + SEED_EXAMPLE)
    assert not case.strict_seed


def test_a_card_without_a_type_and_with_one_empty_side_is_the_seeds(tmp_path: Path) -> None:
    text = SEED_EXAMPLE.replace('["expected answer part"]', "[]").replace("card_type: qa", "")
    (case,) = load(tmp_path, text)
    assert case.expected_cards == (ExpectedCard(("key concept",), ()),)


# (what to change in the seed's example, what the error starts with)
BAD_FILES = {
    "type-not-text": (
        {"card_type: qa": "card_type: yes"},
        "x/seed.yaml: case 1 (line 9): expected card 1: card_type must be a name in quotes "
        '(card_type: "qa"), or left out',
    ),
    "keywords-not-a-list": (
        {'back_keywords: ["expected answer part"]': "back_keywords: expected"},
        "x/seed.yaml: case 1 (line 8): expected card 1: back_keywords must be a list of "
        "keywords in quotes ([] for none)",
    ),
    "side-misspelt": (
        {"front_keywords:": "front:"},
        "x/seed.yaml: case 1 (line 7): expected card 1: front_keywords must be a list",
    ),
    "no-keywords": (
        {'["key concept"]': "[]", '["expected answer part"]': "[]"},
        "x/seed.yaml: case 1 (line 7): expected card 1 has no keywords on either side, so it "
        "can never match: give front_keywords or back_keywords",
    ),
    "no-text": (
        {"text:": "txt:"},
        "x/seed.yaml: case 1 (line 4) has no 'query' or 'prompt' text (nor seed 004's "
        "'text'): give the request to put to the model",
    ),
    "strict-not-bool": (
        {'version: "1.0"': 'version: "1.0"\nstrict-seed: "yes"'},
        "x/seed.yaml (line 3): strict-seed must be true",
    ),
    "strict-misspelt": (
        {'version: "1.0"': 'version: "1.0"\nstrict_seed: true'},
        "x/seed.yaml (line 3): strict_seed is not a key: write strict-seed: true",
    ),
}


@pytest.mark.parametrize("bad", BAD_FILES)
def test_a_bad_seed_file_names_the_file_the_line_and_the_fix(tmp_path: Path, bad: str) -> None:
    changes, said = BAD_FILES[bad]
    text = SEED_EXAMPLE
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new, 1)
    with pytest.raises(EvalFileError) as err:
        load(tmp_path, text)
    assert str(err.value).startswith(said)


def test_json_eval_files_take_the_seeds_cases_too(tmp_path: Path) -> None:
    rows = {"strict-seed": True, "cases": [{"text": "t", "expected_cards": [{"card_type": 1}]}]}
    with pytest.raises(EvalFileError, match=r"^x/e\.json: case 1: expected card 1: front_keyw"):
        load(tmp_path, json.dumps(rows), "e.json")


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_saved_evals_keep_the_cards_and_strict_seed(tmp_path: Path, suffix: str) -> None:
    cases = load(tmp_path, "strict-seed: true\n" + SEED_EXAMPLE)
    path = tmp_path / f"saved{suffix}"
    save_evals(path, PromptSet(tuple(cases), "evals/seed.yaml", generated=False), "flashcards")
    (again,) = load_eval_file(path, "saved")
    assert (again.prompt, again.expected_cards, again.strict_seed) == (
        "Input text for LLM...",
        (SEED_CARD,),
        True,
    )
    if suffix == ".yaml":
        assert path.read_text().count("strict-seed: true") == 1  # said once, for the file


def test_saved_yaml_gives_back_keywords_and_prompts_holding_line_separators(
    tmp_path: Path,
) -> None:
    """U+0085, U+2028 and U+2029 are read as line breaks in any YAML style but double quotes:
    under strict-seed a keyword that came back as "a b" would match other text."""
    odd = ["a\u0085b", "\u2028x", "y\u2029", "plain"]
    rows = [{"query": "p\u0085q", "should_trigger": True, "expected_keywords": odd}]
    cases = load(tmp_path, json.dumps({"strict-seed": True, "cases": rows}), "e.json")
    path = tmp_path / "saved.yaml"
    save_evals(path, PromptSet(tuple(cases), "evals/e.json", generated=False), "notes")
    (again,) = load_eval_file(path, "saved")
    assert (again.prompt, again.expected_keywords) == ("p\u0085q", tuple(odd))
    assert '"a\\Nb"' in path.read_text(encoding="utf-8")  # the escape, never the raw break


# --- the weighted pair score and the greedy match ----------------------------------------


def test_without_a_type_front_and_back_weigh_half_each() -> None:
    expected = ExpectedCard(("alpha", "beta"), ("gamma",))
    assert measures.pair_score(expected, Card("alpha", "gamma")) == 0.75
    assert measures.pair_score(expected, Card("alpha beta", "none")) == 0.5
    assert measures.pair_score(expected, Card("gamma", "alpha beta")) == 0.0  # sides kept apart


@pytest.mark.parametrize(
    ("card", "score"),
    [
        (Card("key concept", "expected answer part", "qa"), 1.0),
        (Card("key concept", "expected answer part", "cloze"), 0.8),
        (Card("key concept", "no", "qa"), 0.6),
        (Card("key concept", "no"), 0.4),  # a card that names no type has not the expected one
        (Card("no", "no", "qa"), 0.2),
    ],
)
def test_with_a_type_the_sides_weigh_04_and_the_type_02(card: Card, score: float) -> None:
    assert measures.pair_score(SEED_CARD, card) == pytest.approx(score, abs=1e-12)


def test_an_empty_side_scores_zero_as_in_the_seed() -> None:
    assert measures.pair_score(ExpectedCard((), ("b",)), Card("b", "b")) == 0.5


def test_keywords_ignore_case_and_spacing_unless_strict_seed() -> None:
    card = Card("The  Key CONCEPT", "Expected\nanswer part", "QA")
    assert measures.pair_score(SEED_CARD, card) == 1.0
    assert measures.pair_score(SEED_CARD, card, strict=True) == 0.0
    assert measures.pair_score(SEED_CARD, Card("key concept", "expected answer part", "qa"), True)


def test_greedy_match_takes_the_first_best_unused_card() -> None:
    beta, delta = ExpectedCard(("alpha",), ("beta",)), ExpectedCard(("alpha",), ("delta",))
    cards = [Card("alpha", "beta delta"), Card("alpha", "beta"), Card("other", "other")]
    match = measures.card_match([beta, delta], cards)
    # beta scores 1.0 with both first cards and takes the first; delta gets the second (0.5).
    assert match.similarities == (1.0, 0.5)
    assert (match.matched, match.expected, match.generated) == (2, 2, 3)
    assert match.precision == pytest.approx(2 / 3) and match.recall == 1.0
    assert match.f1 == pytest.approx(0.8) and match.avg_similarity == 0.75


def test_a_pair_matches_at_the_threshold_and_not_below() -> None:
    five = ExpectedCard(("a", "b", "c", "d", "e"), ())
    assert measures.card_match([five], [Card("a b c", "")]).similarities == (0.3,)
    assert measures.card_match([five], [Card("a b", "")]).matched == 0
    assert measures.card_match([five], [Card("a b", "")]).avg_similarity == 0.0


def test_a_reply_gives_cards_as_json_or_one_per_item() -> None:
    fenced = '```json\n[{"front": "f", "back": "b", "card_type": "qa"}, {"front": "g"}]\n```'
    assert measures.reply_cards(fenced) == [Card("f", "b", "qa"), Card("g", "")]
    assert measures.reply_cards('{"cards": [{"back": "b"}]}') == [Card("", "b")]
    lines = 'Here they are:\n- {"front": "f", "back": "b"}\n- plain words'
    assert measures.reply_cards(lines) == [Card("f", "b"), Card("plain words", "plain words")]
    assert measures.reply_cards("[]") == []


def test_quality_of_a_card_case_is_the_card_f1() -> None:
    case = EvalCase("c", "p", True, expected_cards=(SEED_CARD,))
    reply = '- {"front": "key concept", "back": "expected answer part", "card_type": "qa"}\n- x'
    assert measures.case_quality(case, reply) == pytest.approx(2 / 3)  # P 1/2, R 1


# --- end to end -----------------------------------------------------------------------------


def test_the_seeds_example_runs_offline(tmp_path: Path) -> None:
    mc = layer(score(skill_with(tmp_path, SEED_EXAMPLE)))["monte_carlo"]
    assert mc["prompt_source"] == "evals/seed.yaml"
    assert [(p["id"], p["prompt"]) for p in mc["prompts"]] == [("case-01", "Input text for LLM...")]
    assert mc["output_quality"] is None  # the offline router writes no replies


def test_the_seeds_example_gives_the_seeds_metrics(llm: FakeLLM, tmp_path: Path) -> None:
    report = through_the_test_server(llm, skill_with(tmp_path, SEED_EXAMPLE))
    jsonschema.validate(report, json.loads(runner.invoke(app, ["schema"]).stdout))
    found = layer(report)
    quality = found["monte_carlo"]["output_quality"]
    # Two replies, each the three cards above; the seed card takes the first (1.0).
    assert quality["card_match"] == {
        "replies": 2,
        "expected": 2,
        "generated": 6,
        "matched": 2,
        "precision": 0.3333,
        "recall": 1.0,
        "f1": 0.5,
        "avg_similarity": 1.0,
    }
    assert quality["item_match"] is None
    assert quality["method"] == "greedy card F1 (seed 004)"
    assert quality["mean"]["value"] == 0.5
    (evidence,) = found["sub_scores"]["output_quality"]["evidence"]
    assert evidence["label"].endswith(
        "; cards: precision 0.33, recall 1.00, F1 0.50, avg similarity 1.00 (2 of 2 matched)"
    )


def test_strict_seed_gives_the_seeds_exact_matching(llm: FakeLLM, tmp_path: Path) -> None:
    folder = skill_with(tmp_path, "strict-seed: true\n" + SEED_EXAMPLE)
    quality = layer(through_the_test_server(llm, folder))["monte_carlo"]["output_quality"]
    # As written, "key concept" is not in "Key concept …": the second card (0.6) is taken.
    assert quality["card_match"] == {
        "replies": 2,
        "expected": 2,
        "generated": 6,
        "matched": 2,
        "precision": 0.3333,
        "recall": 1.0,
        "f1": 0.5,
        "avg_similarity": 0.6,
    }
    assert quality["method"] == "greedy card F1 (seed 004; keywords as written, strict-seed)"


def test_the_match_reads_as_one_line() -> None:
    match = MatchOut(
        replies=2,
        expected=2,
        generated=6,
        matched=2,
        precision=0.3333,
        recall=1.0,
        f1=0.5,
        avg_similarity=0.6,
    )
    assert match.text() == (
        "precision 0.33  recall 1.00  F1 0.50  avg similarity 0.60 "
        "(2 of 2 expected matched, 6 written, 2 replies)"
    )
