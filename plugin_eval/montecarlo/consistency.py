"""Seed 000's content consistency: texts normalised, their mean pairwise Jaccard similarity,
and the seed's table from that similarity to a score out of 100.

Kept apart from the measures (which load numpy and scipy) so that ``plugin-eval
dataset-score`` reads the seed's input without them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from itertools import combinations


def without_tags(text: str) -> str:
    """``text`` with each tag (a ``<`` to the first ``>`` after it) replaced by a space.

    What ``re.sub(r"<[^>]*>", " ", text)`` gives, in one pass: that regex tries every ``<``
    to the end of the text when no ``>`` follows, so a reply of 100,000 ``<`` cost minutes."""
    parts: list[str] = []
    at = 0
    while (start := text.find("<", at)) >= 0:
        end = text.find(">", start)
        if end < 0:
            break
        parts += (text[at:start], " ")
        at = end + 1
    parts.append(text[at:])
    return "".join(parts)


def normalise(text: str) -> str:
    """Seed 000: strip HTML, lowercase, collapse whitespace."""
    return " ".join(html.unescape(without_tags(text)).lower().split())


def _word_set(text: str) -> frozenset[str]:
    return frozenset(normalise(text).split())


def _similarity(left: frozenset[str], right: frozenset[str]) -> float:
    if not left and not right:
        return 1.0
    shared = len(left & right)
    return shared / (len(left) + len(right) - shared)


def jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two normalised texts (1.0 for two empty texts)."""
    return _similarity(_word_set(a), _word_set(b))


def word_sets(texts: Sequence[str]) -> list[frozenset[str]]:
    """Each text's words, as ``jaccard`` compares them."""
    return [_word_set(t) for t in texts]


def pairwise_work(sets: Sequence[frozenset[str]]) -> int:
    """What comparing every pair of ``sets`` costs: one per pair, plus the words of the
    smaller set of each (what intersecting two sets reads). Counted without the pairs: in
    ascending order of size, the k-th set (from 0) is the smaller one of the pairs it makes
    with the sets after it."""
    sizes = sorted(map(len, sets))
    n = len(sizes)
    return n * (n - 1) // 2 + sum(size * (n - 1 - k) for k, size in enumerate(sizes))


def mean_pairwise_jaccard(texts: Sequence[str]) -> float | None:
    """The mean Jaccard similarity over every pair of texts (None for fewer than two). Each
    text is normalised once; the pairs are compared one at a time, never held in a list."""
    return mean_pairwise_similarity(word_sets(texts))


def mean_pairwise_similarity(sets: Sequence[frozenset[str]]) -> float | None:
    """``mean_pairwise_jaccard`` of texts whose ``word_sets`` are ``sets``."""
    count = len(sets) * (len(sets) - 1) // 2
    if not count:
        return None
    return sum(_similarity(a, b) for a, b in combinations(sets, 2)) / count


def consistency_score(similarity: float) -> float:
    """Seed 000's table: ≥ 0.9 → 100; 0.8–0.9 → 80–100; 0.6–0.8 → 60–80; 0.4–0.6 → 40–60; < 0.4 → < 40.

    Linear inside each band, so the table's band ends hold exactly; below 0.8 that is 100 × s.
    """
    if similarity >= 0.9:
        return 100.0
    if similarity >= 0.8:
        return 80.0 + (similarity - 0.8) * 200.0
    return max(0.0, similarity * 100.0)
