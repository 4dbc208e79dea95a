"""The reference table of description words: in how many published skill descriptions each
word occurs (``description_words.json``, built by ``bench/build_description_words.py``, which
says from what), and a digest of each description it counted, so that a skill scored with
its own published description is not counted as its own neighbour. Package data, read once
per process; never a file of a scored skill."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path


def description_digest(description: str) -> str:
    """What the table keeps of a description it counted: a digest of its stripped text."""
    data = description.strip().encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


@cache
def _table() -> tuple[int, dict[str, int], frozenset[str]]:
    # Read beside this module: importlib.resources would cost ~15 ms of a run to import.
    table = json.loads(Path(__file__).with_name("description_words.json").read_bytes())
    counts = {str(k): int(v) for k, v in table["counts"].items()}
    return int(table["descriptions"]), counts, frozenset(map(str, table["digests"]))


def reference_counts() -> tuple[int, dict[str, int]]:
    """How many descriptions the table read, and in how many of them each word occurs (the
    words as ``triggering.description_stems`` gives them)."""
    total, counts, _ = _table()
    return total, counts


def reference_digests() -> frozenset[str]:
    """The ``description_digest`` of every description the table counted."""
    return _table()[2]
