"""The measures: triggering, output quality, consistency, failures and tokens, with intervals.

Text measures follow the seeds: keyword recall and greedy best-match with precision,
recall, F1 and the mean similarity of matched pairs (seed 004: items by keyword recall,
cards by its weighted pair score), the structured-data quality of a reply's JSON (seed 000:
completeness, value accuracy, types and sufficiency, weighed 30/40/15/15), and consistency
as the mean pairwise Jaccard similarity of normalised replies mapped to 0–100 (seed 000).

Keywords are found with case and spacing ignored; a case from an eval file that sets
``strict-seed`` finds them as seed 004 does, as written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from plugin_eval import json_input, regexes
from plugin_eval.montecarlo import stats
from plugin_eval.montecarlo.backends.base import NONE_TOOL
from plugin_eval.montecarlo.consistency import consistency_score as consistency_score
from plugin_eval.montecarlo.consistency import jaccard as jaccard
from plugin_eval.montecarlo.consistency import mean_pairwise_jaccard as mean_pairwise_jaccard
from plugin_eval.montecarlo.consistency import normalise as normalise
from plugin_eval.montecarlo.prompts import EvalCase, ExpectedCard
from plugin_eval.montecarlo.results import (
    Consistency,
    Estimate,
    Failures,
    Matching,
    PromptOutcome,
    Quality,
    RunRecord,
    StructuredQuality,
    Tokens,
    Triggering,
)
from plugin_eval.montecarlo.structured import StructuredScore, score_reply, source

_E = TypeVar("_E")
_G = TypeVar("_G")
_LIST_ITEM = regexes.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")
# Seed 004's threshold: a generated item matches an expected one at 30 % of its keywords.
MATCH_THRESHOLD = 0.3
# Seed 004's pair score: front and back keyword similarity weigh half each; when the expected
# card names a type, they weigh 0.4 each and the type 0.2 (1 if the card's type is that type).
SIDE_WEIGHT = 0.5
TYPED_SIDE_WEIGHT, TYPE_WEIGHT = 0.4, 0.2
# skill-creator counts a prompt as triggering when it does so in at least half its runs.
PASS_RATE = 0.5


def keyword_recall(keywords: Sequence[str], text: str, strict: bool = False) -> float:
    """Share of the keywords found in the text, 0 without keywords (seed 004's keyword
    similarity); case and spacing ignored unless ``strict``, which finds them as written."""
    if not keywords:
        return 0.0
    if strict:
        return sum(1 for k in keywords if k in text) / len(keywords)
    body = normalise(text)
    return sum(1 for k in keywords if normalise(k) in body) / len(keywords)


def reply_items(text: str) -> list[str]:
    """The items of a reply: its Markdown list items if it has any, else its non-empty lines."""
    lines = [line for line in text.splitlines() if line.strip()]
    items = [m.group(1) for line in lines if (m := _LIST_ITEM.match(line))]
    return items or [line.strip() for line in lines]


@dataclass(frozen=True, repr=False)
class Card:
    """A card a reply wrote: its front, its back and its type (None when it names none)."""

    front: str
    back: str
    card_type: str | None = None


def reply_cards(text: str) -> list[Card]:
    """The cards of a reply: a JSON list of ``{front, back, card_type}`` objects, or an object
    with such a ``cards`` list (either maybe in a code fence), or one object per item; an item
    that is not one is a card with the item on both sides and no type."""
    whole = _json_cards(_unfenced(text))
    if whole is not None:
        return whole
    cards: list[Card] = []
    for item in reply_items(text):
        one = _json_cards(item)
        cards += one if one is not None else [Card(item, item)]
    return cards


def _unfenced(text: str) -> str:
    lines = text.strip().splitlines()
    if len(lines) >= 2 and lines[0].startswith("```") and lines[-1].strip() == "```":
        return "\n".join(lines[1:-1])
    return text


def _json_cards(text: str) -> list[Card] | None:
    """The cards a JSON text holds, or None when it is not JSON cards."""
    if not text.lstrip().startswith(("[", "{")):
        return None
    try:
        value = json_input.parse(text)
    except json_input.JsonInputError:
        return None
    if isinstance(value, dict):
        value = value.get("cards", [value])
    if not isinstance(value, list):
        return None
    cards = [_card(v) for v in value]
    return None if any(c is None for c in cards) else [c for c in cards if c is not None]


def _card(value: object) -> Card | None:
    if not isinstance(value, dict) or not ("front" in value or "back" in value):
        return None
    front, back, kind = value.get("front"), value.get("back"), value.get("card_type")
    return Card(
        front if isinstance(front, str) else "",
        back if isinstance(back, str) else "",
        kind if isinstance(kind, str) else None,
    )


def pair_score(expected: ExpectedCard, card: Card, strict: bool = False) -> float:
    """Seed 004's weighted pair score of an expected card and a generated one (0–1)."""
    front = keyword_recall(expected.front_keywords, card.front, strict)
    back = keyword_recall(expected.back_keywords, card.back, strict)
    if expected.card_type is None:
        return front * SIDE_WEIGHT + back * SIDE_WEIGHT
    bonus = 1.0 if same_type(expected.card_type, card.card_type, strict) else 0.0
    return front * TYPED_SIDE_WEIGHT + back * TYPED_SIDE_WEIGHT + bonus * TYPE_WEIGHT


def same_type(expected: str, generated: str | None, strict: bool = False) -> bool:
    """Is the card of the expected type? Case and spacing ignored unless ``strict``."""
    if generated is None:
        return False
    return expected == generated if strict else normalise(expected) == normalise(generated)


@dataclass(frozen=True, repr=False)
class ItemMatch:
    matched: int
    expected: int
    generated: int
    similarities: tuple[float, ...] = ()  # the scores of the matched pairs

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

    @property
    def avg_similarity(self) -> float:
        """Seed 004's mean similarity of the matched pairs; 0 when none matched."""
        return sum(self.similarities) / len(self.similarities) if self.similarities else 0.0


def best_match(
    expected: Sequence[_E],
    generated: Sequence[_G],
    score: Callable[[_E, _G], float],
    threshold: float = MATCH_THRESHOLD,
) -> ItemMatch:
    """Seed 004's greedy best match: each expected thing, in order, takes the unused generated
    one it scores highest with (the first of equals), when that score is ≥ threshold."""
    used: set[int] = set()
    similarities: list[float] = []
    for want in expected:
        best, best_index = 0.0, -1
        for index, got in enumerate(generated):
            if index in used:
                continue
            similarity = score(want, got)
            if similarity > best:
                best, best_index = similarity, index
        if best_index >= 0 and best >= threshold:
            used.add(best_index)
            similarities.append(best)
    return ItemMatch(len(used), len(expected), len(generated), tuple(similarities))


def greedy_match(
    expected: Sequence[Sequence[str]],
    generated: Sequence[str],
    threshold: float = MATCH_THRESHOLD,
    strict: bool = False,
) -> ItemMatch:
    """Seed 004 for items: an item's similarity is the share of its keywords it holds."""
    return best_match(
        expected,
        generated,
        lambda keywords, item: keyword_recall(keywords, item, strict),
        threshold,
    )


def card_match(
    expected: Sequence[ExpectedCard],
    generated: Sequence[Card],
    threshold: float = MATCH_THRESHOLD,
    strict: bool = False,
) -> ItemMatch:
    """Seed 004 for cards: a pair's similarity is its weighted pair score."""
    return best_match(
        expected, generated, lambda want, card: pair_score(want, card, strict), threshold
    )


def item_match_of(case: EvalCase, reply: str) -> ItemMatch | None:
    if not case.expected_items:
        return None
    return greedy_match(case.expected_items, reply_items(reply), strict=case.strict_seed)


def card_match_of(case: EvalCase, reply: str) -> ItemMatch | None:
    if not case.expected_cards:
        return None
    return card_match(case.expected_cards, reply_cards(reply), strict=case.strict_seed)


def structured_of(case: EvalCase, reply: str) -> StructuredScore | None:
    """Seed 000's structured quality of a reply's JSON; values with no expected value are
    checked against the prompt, the text the skill was given."""
    if case.structured is None:
        return None
    return score_reply(reply, case.structured, (source(case.prompt),))


def case_quality(case: EvalCase, reply: str) -> float | None:
    """Keyword recall, item F1, card F1, structured quality / 100, or the mean of those a
    case has; None without expectations."""
    parts: list[float] = []
    if case.expected_keywords:
        parts.append(keyword_recall(case.expected_keywords, reply, case.strict_seed))
    parts += [m.f1 for m in (item_match_of(case, reply), card_match_of(case, reply)) if m]
    structured = structured_of(case, reply)
    if structured is not None:
        parts.append(structured.score / 100.0)
    return sum(parts) / len(parts) if parts else None


def quality_method(cases: Sequence[EvalCase]) -> str:
    """What output quality is the mean of, e.g. 'greedy card F1 (seed 004)'."""
    used = [
        (name, seed)
        for name, seed, wanted in (
            ("keyword recall", None, any(c.expected_keywords for c in cases)),
            ("greedy item F1", "seed 004", any(c.expected_items for c in cases)),
            ("greedy card F1", "seed 004", any(c.expected_cards for c in cases)),
            ("structured quality", "seed 000", any(c.structured is not None for c in cases)),
        )
        if wanted
    ]
    parts = [name for name, _ in used]
    notes: list[str] = []
    if len(parts) == 1:
        notes += [seed for _, seed in used if seed]
    else:
        notes.append(f"mean where a case has {'both' if len(parts) == 2 else 'several'}")
    strict = sum(1 for c in cases if c.strict_seed)
    if strict:
        some = "" if strict == len(cases) else f" in {strict} of {len(cases)} cases"
        notes.append(f"keywords as written{some}, strict-seed")
    method = f"{', '.join(parts[:-1])} and {parts[-1]}" if len(parts) > 1 else parts[0]
    return method + (f" ({'; '.join(notes)})" if notes else "")


def matching(
    records: Sequence[RunRecord],
    cases: Sequence[EvalCase],
    match_of: Callable[[EvalCase, str], ItemMatch | None],
) -> Matching | None:
    """Seed 004's aggregate over every reply: matched pairs over all expected and all
    generated, F1 of those, and the mean score of every matched pair."""
    found = [
        m
        for r in records
        if r.answer is not None and (m := match_of(cases[r.case], r.answer)) is not None
    ]
    if not found:
        return None
    total = ItemMatch(
        sum(m.matched for m in found),
        sum(m.expected for m in found),
        sum(m.generated for m in found),
        tuple(s for m in found for s in m.similarities),
    )
    return Matching(
        replies=len(found),
        expected=total.expected,
        generated=total.generated,
        matched=total.matched,
        precision=total.precision,
        recall=total.recall,
        f1=total.f1,
        avg_similarity=total.avg_similarity,
    )


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
        item_match=matching(records, cases, item_match_of),
        card_match=matching(records, cases, card_match_of),
        structured=structured_quality(records, cases),
    )


def structured_quality(
    records: Sequence[RunRecord], cases: Sequence[EvalCase]
) -> StructuredQuality | None:
    """Seed 000's sub-scores, each the mean over every reply to a case that expects JSON."""
    found = [
        s
        for r in records
        if r.answer is not None and (s := structured_of(cases[r.case], r.answer)) is not None
    ]
    if not found:
        return None
    reasons = Counter(s.not_json for s in found if s.not_json is not None)

    def mean(values: Iterable[float]) -> float:
        return sum(values) / len(found)

    return StructuredQuality(
        completeness=mean(s.completeness for s in found),
        accuracy=mean(s.accuracy for s in found),
        type_correctness=mean(s.type_correctness for s in found),
        sufficiency=mean(s.sufficiency for s in found),
        score=mean(s.score for s in found),
        replies=len(found),
        not_json=sum(reasons.values()),
        not_json_reasons=_ranked(reasons),
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
