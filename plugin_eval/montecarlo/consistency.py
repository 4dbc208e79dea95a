"""Seed 000's content consistency: texts normalised, their mean pairwise Jaccard similarity,
and the seed's table from that similarity to a score out of 100.

Kept apart from the measures (which load numpy and scipy) so that ``plugin-eval
dataset-score`` reads the seed's input without them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from itertools import combinations

from plugin_eval import regexes

_TAG = regexes.compile(r"<[^>]*>")


def normalise(text: str) -> str:
    """Seed 000: strip HTML, lowercase, collapse whitespace."""
    return " ".join(html.unescape(_TAG.sub(" ", text)).lower().split())


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two normalised texts (1.0 for two empty texts)."""
    left, right = set(normalise(a).split()), set(normalise(b).split())
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)


def mean_pairwise_jaccard(texts: Sequence[str]) -> float | None:
    pairs = list(combinations(texts, 2))
    if not pairs:
        return None
    return sum(jaccard(a, b) for a, b in pairs) / len(pairs)


def consistency_score(similarity: float) -> float:
    """Seed 000's table: ≥ 0.9 → 100; 0.8–0.9 → 80–100; 0.6–0.8 → 60–80; 0.4–0.6 → 40–60; < 0.4 → < 40.

    Linear inside each band, so the table's band ends hold exactly; below 0.8 that is 100 × s.
    """
    if similarity >= 0.9:
        return 100.0
    if similarity >= 0.8:
        return 80.0 + (similarity - 0.8) * 200.0
    return max(0.0, similarity * 100.0)
