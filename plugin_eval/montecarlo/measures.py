"""The measures: triggering, output quality, consistency, failures and tokens, with intervals.

Text measures follow the seeds: keyword recall and greedy best-match with precision,
recall and F1 (seed 004), and consistency as the mean pairwise Jaccard similarity of
normalised replies mapped to 0–100 (seed 000).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from plugin_eval.montecarlo import stats
from plugin_eval.montecarlo.backends.base import NONE_TOOL
from plugin_eval.montecarlo.prompts import EvalCase
from plugin_eval.montecarlo.results import (
    Consistency,
    Estimate,
    Failures,
    PromptOutcome,
    Quality,
    RunRecord,
    Tokens,
    Triggering,
)

_TAG = re.compile(r"<[^>]*>")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")
# Seed 004's threshold: a generated item matches an expected one at 30 % of its keywords.
MATCH_THRESHOLD = 0.3
# skill-creator counts a prompt as triggering when it does so in at least half its runs.
PASS_RATE = 0.5


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


def keyword_recall(keywords: Sequence[str], text: str) -> float:
    """Share of the expected keywords found in the reply (case and spacing ignored)."""
    if not keywords:
        return 0.0
    body = normalise(text)
    return sum(1 for k in keywords if normalise(k) in body) / len(keywords)


def reply_items(text: str) -> list[str]:
    """The items of a reply: its Markdown list items if it has any, else its non-empty lines."""
    lines = [line for line in text.splitlines() if line.strip()]
    items = [m.group(1) for line in lines if (m := _LIST_ITEM.match(line))]
    return items or [line.strip() for line in lines]


@dataclass(frozen=True)
class ItemMatch:
    matched: int
    expected: int
    generated: int

    @property
    def precision(self) -> float:
        return self.matched / self.generated if self.generated else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def greedy_match(
    expected: Sequence[Sequence[str]], generated: Sequence[str], threshold: float = MATCH_THRESHOLD
) -> ItemMatch:
    """Seed 004: each expected item takes the best unused generated item at ≥ threshold."""
    used: set[int] = set()
    for keywords in expected:
        best, best_index = 0.0, -1
        for index, item in enumerate(generated):
            if index in used:
                continue
            similarity = keyword_recall(keywords, item)
            if similarity > best:
                best, best_index = similarity, index
        if best_index >= 0 and best >= threshold:
            used.add(best_index)
    return ItemMatch(len(used), len(expected), len(generated))


def case_quality(case: EvalCase, reply: str) -> float | None:
    """Keyword recall, item F1, or their mean when a case has both; None without expectations."""
    parts: list[float] = []
    if case.expected_keywords:
        parts.append(keyword_recall(case.expected_keywords, reply))
    if case.expected_items:
        parts.append(greedy_match(case.expected_items, reply_items(reply)).f1)
    return sum(parts) / len(parts) if parts else None


def quality_method(cases: Sequence[EvalCase]) -> str:
    keywords = any(c.expected_keywords for c in cases)
    items = any(c.expected_items for c in cases)
    if keywords and items:
        return "keyword recall and greedy item F1 (mean where a case has both)"
    return "keyword recall" if keywords else "greedy item F1 (seed 004)"


def rate(k: int, n: int) -> Estimate:
    interval = stats.wilson(k, n)
    return Estimate(
        value=k / n if n else None,
        lower=interval[0] if interval else None,
        upper=interval[1] if interval else None,
        method="wilson",
        n=n,
    )


def f1_of(tp: float, fp: float, fn: float) -> float | None:
    denominator = 2 * tp + fp + fn
    return 2 * tp / denominator if denominator else None


def triggering(
    records: Sequence[RunRecord],
    cases: Sequence[EvalCase],
    target: str,
    names: Mapping[str, str],
    f1_interval: tuple[float, float] | None,
) -> Triggering | None:
    """Confusion counts over runs; precision and recall get Wilson intervals, F1 a bootstrap."""
    tp = fp = fn = tn = failed = 0
    stolen: Counter[str] = Counter()
    false_from: Counter[str] = Counter()
    for r in records:
        if r.picked is None:
            failed += 1
            continue
        case = cases[r.case]
        chose = r.picked == target
        if case.should_trigger and chose:
            tp += 1
        elif case.should_trigger:
            fn += 1
            stolen[names.get(r.picked, NONE_TOOL)] += 1
        elif chose:
            fp += 1
            false_from[case.owner or NONE_TOOL] += 1
        else:
            tn += 1
    if tp + fp + fn + tn == 0:
        return None
    f1 = f1_of(tp, fp, fn)
    return Triggering(
        tp=tp,
        fp=fp,
        fn=fn,
        tn=tn,
        failed=failed,
        precision=rate(tp, tp + fp),
        recall=rate(tp, tp + fn),
        f1=Estimate(
            value=f1,
            lower=f1_interval[0] if f1_interval else None,
            upper=f1_interval[1] if f1_interval else None,
            method="percentile bootstrap over prompts",
            n=tp + fp + fn + tn,
        ),
        stolen_by=_ranked(stolen),
        false_triggers_from=_ranked(false_from),
    )


def prompt_outcomes(
    records: Sequence[RunRecord],
    cases: Sequence[EvalCase],
    target: str,
    names: Mapping[str, str],
) -> tuple[PromptOutcome, ...]:
    by_case: dict[int, list[RunRecord]] = {}
    for r in records:
        by_case.setdefault(r.case, []).append(r)
    out = []
    for index in sorted(by_case):
        case, runs = cases[index], by_case[index]
        decided = [r for r in runs if r.picked is not None]
        hits = sum(1 for r in decided if r.picked == target)
        picked: Counter[str] = Counter(names.get(r.picked or "", NONE_TOOL) for r in decided)
        estimate = rate(hits, len(decided))
        if not decided:
            outcome = "failed"
        elif case.should_trigger:
            outcome = "pass" if hits / len(decided) >= PASS_RATE else "missed"
        else:
            outcome = "false_trigger" if hits / len(decided) >= PASS_RATE else "pass"
        qualities = [r.quality for r in runs if r.quality is not None]
        answers = [r.answer for r in runs if r.answer is not None]
        similarity = mean_pairwise_jaccard(answers)
        out.append(
            PromptOutcome(
                id=case.id,
                prompt=case.prompt,
                should_trigger=case.should_trigger,
                source=case.source,
                owner=case.owner,
                runs=len(runs),
                failed=len(runs) - len(decided),
                triggered=hits,
                rate=estimate,
                picked=_ranked(picked),
                outcome=outcome,
                quality=sum(qualities) / len(qualities) if qualities else None,
                consistency=similarity,
                scores=_top_scores(runs[0].scores, names),
            )
        )
    return tuple(out)


def quality(records: Sequence[RunRecord], cases: Sequence[EvalCase]) -> Quality | None:
    values = [r.quality for r in records if r.quality is not None]
    if not values:
        return None
    interval = stats.bca_mean(values)
    scored = {r.case for r in records if r.quality is not None}
    return Quality(
        mean=Estimate(
            value=sum(values) / len(values),
            lower=interval[0] if interval else None,
            upper=interval[1] if interval else None,
            method="BCa bootstrap",
            n=len(values),
        ),
        method=quality_method([cases[i] for i in sorted(scored)]),
        cases=len(scored),
    )


def consistency(outcomes: Sequence[PromptOutcome]) -> Consistency | None:
    values = [o.consistency for o in outcomes if o.consistency is not None]
    if not values:
        return None
    mean = sum(values) / len(values)
    return Consistency(round(mean, 4), round(consistency_score(mean), 2), len(values))


def failures(records: Sequence[RunRecord], messages: Sequence[str]) -> Failures:
    kinds: Counter[str] = Counter()
    calls = 0
    for r in records:
        calls += 1 + (1 if r.answered else 0)
        if r.route_error:
            kinds[r.route_error] += 1
        if r.answer_error:
            kinds[r.answer_error] += 1
    count = sum(kinds.values())
    interval = stats.clopper_pearson(count, calls)
    return Failures(
        failures=count,
        calls=calls,
        rate=Estimate(
            value=count / calls if calls else None,
            lower=interval[0] if interval else None,
            upper=interval[1] if interval else None,
            method="clopper-pearson",
            n=calls,
        ),
        by_kind=_ranked(kinds),
        first_message=messages[0] if messages else None,
    )


def tokens(records: Sequence[RunRecord]) -> Tokens | None:
    counts = [float(r.answer_tokens) for r in records if r.answer_tokens is not None]
    if not counts:
        return None
    median, q1, q3 = stats.median_iqr(counts)
    return Tokens(median=median, q1=q1, q3=q3, answers=len(counts))


def _ranked(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def _top_scores(scores: Mapping[str, float], names: Mapping[str, str]) -> dict[str, float]:
    top = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return {names.get(key, key): value for key, value in top}
