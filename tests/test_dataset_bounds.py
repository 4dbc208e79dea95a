"""What seed 000's measures may cost on hostile input: the same results as the plain
definitions, by passes that read a text once, and ``dataset-score`` reading JSON Lines a line
at a time, with a bound on one item and on comparing its texts.

(The time and memory themselves are measured by ``bench/bench_hostile_texts.py``.)
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from plugin_eval import dataset_score
from plugin_eval.cli import app
from plugin_eval.montecarlo.consistency import (
    jaccard,
    mean_pairwise_jaccard,
    normalise,
    pairwise_work,
    without_tags,
    word_sets,
)
from plugin_eval.montecarlo.structured import match_in_text, source
from tests.test_seed000 import WORKED, WORKED_OUTPUT

runner = CliRunner()
ALPHABET = 'ab1-_.+:/ <>"é'


def _texts(seed: int, count: int, longest: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(ALPHABET, k=rng.randint(0, longest))) for _ in range(count)]


# --- one pass a text -------------------------------------------------------------------------


def test_tags_are_removed_as_the_tag_regex_removes_them() -> None:
    for text in [*_texts(1, 5000, 16), "a <b <c> d", "<<<", "x>y<z", "<a>b</a>"]:
        assert without_tags(text) == re.sub(r"<[^>]*>", " ", text), text
    assert normalise("A <b <c> D &amp; <e") == "a d & <e"


def test_a_value_is_found_as_whole_words_where_the_plain_search_finds_it() -> None:
    """The look-around search of the definition, against the one that reads the text once."""
    for body, got in zip(_texts(2, 20000, 12), _texts(3, 20000, 4), strict=True):
        value = normalise(got)
        if not value:
            continue
        text = source(body)
        found = match_in_text(value, text).kind == "exact"
        plain = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text.body) is not None
        assert found == (plain or value in text.names), (body, got)


@pytest.mark.parametrize(
    ("body", "value", "kind"),
    [
        ("aaa aa", "aa", "exact"),  # not in "aaa", but the second word
        ("aaaa", "aa", "partial"),  # never whole: shares no word, but …
        ("x-ab y", "ab", "exact"),  # "-" is no word character
        ("éab ab", "ab", "exact"),  # "é" is one
    ],
)
def test_whole_words_after_places_that_are_not(body: str, value: str, kind: str) -> None:
    got = match_in_text(value, source(body)).kind
    assert got == kind or (kind == "partial" and got == "inconsistent")


def test_urls_are_named_as_the_url_regex_finds_them() -> None:
    url = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"'`]+")
    rng = random.Random(4)
    for _ in range(5000):
        text = "".join(rng.choices('ab1+.-:/ x<"', k=rng.randint(0, 24)))
        plain = {m.group() for m in url.finditer(text)}
        # Every URL the plain search finds is named, and nothing else is.
        assert source(text).names == source(" ".join(sorted(plain))).names, text
    assert source("see 1ab+c://host.org/x, then").names == {"ab+c://host.org/x"}


# --- comparing texts -------------------------------------------------------------------------


def test_the_mean_pairwise_similarity_is_the_mean_over_every_pair() -> None:
    texts = ["a b c", "a b", "c d e f", "", "A  <b>B</b>"]
    pairs = list(itertools.combinations(texts, 2))
    assert mean_pairwise_jaccard(texts) == sum(jaccard(a, b) for a, b in pairs) / len(pairs)
    assert mean_pairwise_jaccard(["only one"]) is None


def test_the_work_of_comparing_counts_a_step_a_pair_and_the_smaller_sets_words() -> None:
    sets = word_sets(["a b c", "a", "d e", "", "f g h i"])
    brute = sum(1 + min(len(x), len(y)) for x, y in itertools.combinations(sets, 2))
    assert pairwise_work(sets) == brute == 10 + (0 * 4 + 1 * 3 + 2 * 2 + 3 * 1 + 4 * 0)


def test_an_item_whose_texts_cost_too_much_to_compare_is_refused_with_the_cost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limit = pairwise_work(word_sets(list(WORKED["cleaned_data_list"])))  # what WORKED costs
    monkeypatch.setattr(dataset_score, "PAIRWISE_WORK", limit)
    many = {**WORKED, "cleaned_data_list": [f"w{i}" for i in range(20)]}
    lines = [json.dumps(WORKED), json.dumps(many), json.dumps(WORKED)]
    scored = dataset_score.score_text("\n".join(lines), json_lines=True)
    assert [e.output for e in scored.entries] == [WORKED_OUTPUT, None, WORKED_OUTPUT]
    assert scored.entries[1].problem == (
        "cleaned_data_list: comparing its 20 texts pair by pair would cost 380 steps, over the "
        f"{limit} one item may take (the seed sends five texts): split it into items of fewer "
        "texts"
    )


# --- reading a line at a time ----------------------------------------------------------------


def _run(tmp_path: Path, name: str, data: bytes, *args: str) -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_bytes(data)
    result = runner.invoke(app, ["dataset-score", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_lines_are_written_as_the_list_would_be(tmp_path: Path) -> None:
    bad = {**WORKED, "structured_data": "é"}
    lines = [json.dumps(WORKED), json.dumps(bad, ensure_ascii=False), "", json.dumps(WORKED)]
    code, out, _ = _run(tmp_path, "b.jsonl", "\n".join(lines).encode())
    assert code == 1
    assert out == json.dumps([WORKED_OUTPUT, None, WORKED_OUTPUT], indent=2) + "\n"


def test_a_line_that_is_not_utf8_is_a_bad_item_of_its_own(tmp_path: Path) -> None:
    data = json.dumps(WORKED).encode() + b'\n{"a": "\xff"}\n' + json.dumps(WORKED).encode()
    code, out, err = _run(tmp_path, "b.jsonl", data)
    assert code == 1 and json.loads(out) == [WORKED_OUTPUT, None, WORKED_OUTPUT]
    assert err == f"error: {tmp_path / 'b.jsonl'}:2: not UTF-8 at byte 7 of the line\n"


def test_a_line_over_the_item_size_is_read_past_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dataset_score, "DATASET_ITEM_BYTES", 2 * 2**20)
    long = json.dumps({**WORKED, "cleaned_data_list": ["x" * 3 * 2**20, "y"]}).encode()
    data = b"\n".join([json.dumps(WORKED).encode(), long, json.dumps(WORKED).encode()])
    code, out, err = _run(tmp_path, "b.jsonl", data, "-o", "text")
    assert code == 1
    assert out.splitlines()[1:] == [
        "line 2  not scored",
        "line 3  miner_score 76.7  consistency 67.88  structuring 82.58  (completeness 100, "
        "accuracy 73.33, types 80, sufficiency 75)",
        "3 item(s): 2 scored, 1 not scored; mean miner_score 76.7",
    ]
    assert err == f"error: {tmp_path / 'b.jsonl'}:2: over 2 MiB, the most one item holds\n"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            b" " * (2 * 2**20 + 1),
            "over 2 MiB, the most one item holds); give one item a line (JSON Lines, "
            "*.jsonl), each under that size",
        ),
        (b'{"a":\n "\xff"}', "not UTF-8 at byte 8); give a UTF-8 JSON file"),
    ],
)
def test_a_file_of_one_item_over_the_size_or_not_utf8_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, said: str
) -> None:
    monkeypatch.setattr(dataset_score, "DATASET_ITEM_BYTES", 2 * 2**20)
    code, out, err = _run(tmp_path, "item.json", data)
    assert (code, out) == (2, "")
    assert err == f"error: {tmp_path / 'item.json'}: cannot be read ({said}\n"


def test_json_lines_on_standard_input_are_told_from_one_item() -> None:
    two = (json.dumps(WORKED) + "\n\n" + json.dumps(WORKED) + "\n").encode()
    result = runner.invoke(app, ["dataset-score", "-"], input=two)
    assert result.exit_code == 0 and json.loads(result.stdout) == [WORKED_OUTPUT] * 2
    one = ("\n\n" + json.dumps(WORKED) + "\n\n").encode()
    result = runner.invoke(app, ["dataset-score", "-"], input=one)
    assert result.exit_code == 0 and json.loads(result.stdout) == WORKED_OUTPUT


def test_blank_lines_before_the_first_item_are_not_kept() -> None:
    """Millions of blank lines are read past, the items after them numbered by their line."""
    data = b"\n" * 100_000 + json.dumps(WORKED).encode() + b"\n" + b"[]\n"
    found, entries = dataset_score.score_stream(io.BytesIO(data))
    assert found is True
    assert [(e.line, e.output is not None) for e in entries] == [(100_001, True), (100_002, False)]
