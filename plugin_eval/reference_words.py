"""The reference table of description words: in how many published skill descriptions each
word occurs (``description_words.json``, built by ``bench/build_description_words.py``, which
says from what). Package data, read once per process; never a file of a scored skill."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path


@cache
def reference_counts() -> tuple[int, dict[str, int]]:
    """How many descriptions the table read, and in how many of them each word occurs (the
    words as ``triggering.description_stems`` gives them)."""
    # Read beside this module: importlib.resources would cost ~15 ms of a run to import.
    table = json.loads(Path(__file__).with_name("description_words.json").read_bytes())
    return int(table["descriptions"]), {str(k): int(v) for k, v in table["counts"].items()}
