"""Words and BM25 over short texts: the offline router, distractor ranking, the generator."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from plugin_eval import regexes
from plugin_eval.triggering import STOPWORDS, words_of

# Words a request or a skill listing uses without saying what the task is.
NOISE = STOPWORDS | frozenset(
    """
    skill skills please help helps need needs want like would could can i'm im let lets
    something thing things way task tasks want wants make sure done get got one two also
    """.split()
)
K1 = 1.5
B = 0.75
# "Not for Excel workbooks", "do not use it for …": a boundary, which a reader (and a
# model) takes as a reason not to pick the skill.
NOT_FOR = regexes.compile(
    r"\b(?:not\s+for|do\s+not\s+use\s+(?:it\s+|this\s+)?(?:for|when|on)|"
    r"don't\s+use\s+(?:it\s+|this\s+)?(?:for|when|on))\s+([^.;]+)",
    re.IGNORECASE,
)


def without_boundaries(text: str) -> str:
    """The text less its "not for …" clauses, which a bag of words would read as topics."""
    return NOT_FOR.sub(" ", text)


def stem(word: str) -> str:
    """A crude suffix stripper: "cleaning", "cleaned", "cleans" → "clean"; "dates" → "dat"."""
    for suffix in ("ies", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def terms(text: str) -> list[str]:
    """Stemmed content words of a text (CJK runs as two-character words)."""
    return [stem(w) for w in words_of(text.replace("-", " ").replace("_", " ")) if w not in NOISE]


@dataclass(frozen=True, repr=False)
class Index:
    """BM25 over a handful of documents (skill names and descriptions)."""

    docs: tuple[Counter[str], ...]
    lengths: tuple[int, ...]
    df: Counter[str]

    @classmethod
    def build(cls, texts: Sequence[str]) -> Index:
        docs = tuple(Counter(terms(t)) for t in texts)
        df: Counter[str] = Counter()
        for doc in docs:
            df.update(doc.keys())
        return cls(docs, tuple(sum(d.values()) for d in docs), df)

    def idf(self, term: str) -> float:
        n, seen = len(self.docs), self.df.get(term, 0)
        return math.log(1 + (n - seen + 0.5) / (seen + 0.5))

    def match(self, query: str) -> list[float]:
        """Per document: BM25 of the query over the most BM25 could give it, in [0, 1).

        Roughly the IDF-weighted share of the query's distinct words the document covers,
        so one threshold works for short and long prompts alike (0: nothing shared).
        """
        wanted = sorted(set(terms(query)))
        if not wanted or not self.docs:
            return [0.0 for _ in self.docs]
        avgdl = (sum(self.lengths) / len(self.lengths)) or 1.0
        weights = {t: self.idf(t) for t in wanted}
        ceiling = sum(weights.values()) * (K1 + 1)
        out = []
        for doc, length in zip(self.docs, self.lengths, strict=True):
            norm = K1 * (1 - B + B * length / avgdl)
            score = sum(
                weights[t] * doc[t] * (K1 + 1) / (doc[t] + norm) for t in wanted if t in doc
            )
            out.append(score / ceiling)
        return out
