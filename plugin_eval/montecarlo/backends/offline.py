"""The offline backend: a lexical router (BM25), deterministic, no key, no network.

It is a simulation of routing, not a model: it picks the candidate whose name and
description share the most (IDF-weighted) words with the prompt, or "none" when the best
match is under NONE_BELOW. A description's "not for …" clauses are left out of what it
matches on, as a reader would. It cannot write replies, so it measures triggering only.
"""

from __future__ import annotations

from plugin_eval.montecarlo.backends.base import NONE_TOOL, Call, CallFailed, Reply
from plugin_eval.montecarlo.lexical import Index, without_boundaries

# Under this match (about a fifth of the prompt's IDF-weighted words, each seen once),
# no candidate is close enough to pick.
NONE_BELOW = 0.08


class OfflineRouter:
    name = "offline"
    model = "bm25"
    base_url: str | None = None
    simulated = True
    can_answer = False
    can_generate = False

    def __init__(self) -> None:
        self._indexes: dict[tuple[tuple[str, str], ...], Index] = {}

    async def call(self, call: Call) -> Reply:
        return self.route(call)

    def route(self, call: Call) -> Reply:
        if call.kind != "route":
            raise CallFailed("unsupported", "the offline router only routes")
        listed = tuple((t.name, t.description) for t in call.tools if t.name != NONE_TOOL)
        index = self._indexes.get(listed)
        if index is None:
            index = self._indexes[listed] = Index.build(
                [f"{n} {without_boundaries(d)}" for n, d in listed]
            )
        matches = index.match(call.prompt)
        scores = {name: round(m, 4) for (name, _), m in zip(listed, matches, strict=True)}
        # Ties go to the candidate listed first; candidates are listed by name, so the
        # target is not favoured.
        best = max(range(len(listed)), key=lambda i: (matches[i], -i), default=None)
        picked = NONE_TOOL if best is None or matches[best] < NONE_BELOW else listed[best][0]
        return Reply(text="", tool=picked, scores=scores)

    async def aclose(self) -> None:
        return None
