"""Calibrate the judge against people: the judge layer over the labelled validation set.

    python bench/judge_calibration.py --backend anthropic [--model M] [--judges N]
        [--half measure|tune|all] [--base-url URL] [--price IN,OUT] [--max-cost USD]

Runs `--depth standard` (static + judge) on every skill of the chosen half of
bench/validation (see validate.py) with a configured model backend, and prints per judged
dimension that people rated (triggering accuracy, orchestration fitness, scope calibration):
Spearman's rho and the mean absolute error of the judge's score, of the static layer's
score, and of the blended composite dimension against the mean of the two rating passes,
beside the passes' own agreement; then the judges' agreement with each other over every
skill and dimension (Krippendorff's alpha on the bands) and what the judgements cost
(tokens per skill: median in and out; total USD when a price is known).

It is a benchmark, not a test: it needs a model (an API key, or --base-url for a local or
OpenAI-compatible server; the loopback test server, `python -m tests.fake_llm_server`,
gives a dry run whose correlations mean nothing). Responses are cached as in `score`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from scipy.stats import spearmanr

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from validate import DIMENSIONS, load_labels  # noqa: E402
from validate import HERE as SET  # noqa: E402

from plugin_eval.config import Config  # noqa: E402
from plugin_eval.engine import score_skill  # noqa: E402
from plugin_eval.judge.agreement import agreement  # noqa: E402
from plugin_eval.montecarlo.settings import OptionError, from_options  # noqa: E402
from plugin_eval.vocabulary import Depth  # noqa: E402


def judged(ids: list[str], settings: Any) -> dict[str, dict[str, Any]]:
    config = Config()
    out: dict[str, dict[str, Any]] = {}
    for n, sid in enumerate(ids, start=1):
        result = score_skill(SET / "skills" / sid, config, sid, Depth.STANDARD, settings)
        static = {d.name: d.layer_scores.get("static") for d in result.composite.dimensions}
        blended = {d.name: d.score for d in result.composite.dimensions}
        j = result.judge
        out[sid] = {
            "judge": {d.name: d.score for d in j.dimensions} if j else {},
            "bands": [list(d.bands) for d in j.dimensions] if j else [],
            "static": static,
            "blended": blended,
            "tokens": (j.usage.input_tokens, j.usage.output_tokens) if j else (0, 0),
            "cost": j.usage.cost_usd if j else None,
        }
        print(f"\r{n}/{len(ids)} judged", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return out


def correlate(values: list[float | None], truth: list[float]) -> str:
    pairs = [(v, t) for v, t in zip(values, truth, strict=True) if v is not None]
    if len(pairs) < 3:
        return f"{'—':>6} {'—':>6} {len(pairs):>4}"
    rho = spearmanr([v for v, _ in pairs], [t for _, t in pairs]).statistic
    mae = sum(abs(v - t) for v, t in pairs) / len(pairs)
    return f"{rho:6.2f} {mae:6.3f} {len(pairs):4}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=("measure", "tune", "all"), default="measure")
    parser.add_argument("--backend", required=True, choices=("anthropic", "openai"))
    parser.add_argument("--model")
    parser.add_argument("--base-url")
    parser.add_argument("--judges", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--price")
    parser.add_argument("--max-cost", type=float)
    args = parser.parse_args()
    try:
        settings = from_options(
            "standard",
            backend=args.backend,
            model=args.model,
            base_url=args.base_url,
            concurrency=args.concurrency,
            judges=args.judges,
            price=args.price,
            max_cost=args.max_cost,
        )
    except OptionError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    import json

    split = json.loads((SET / "split.json").read_text())
    ids = sorted(split["tune"] + split["measure"]) if args.half == "all" else split[args.half]
    one, two = load_labels()
    truth = {i: {d: (one[i][d] + two[i][d]) / 2 for d in DIMENSIONS} for i in ids}
    scored = judged(ids, settings)
    print(f"validation set: {len(ids)} skills ({args.half} half); judge {args.backend} "
          f"{settings.model_name if settings else ''}, {args.judges} judge(s)\n")  # fmt: skip
    print(f"{'dimension':24} {'source':8} {'rho':>6} {'MAE':>6} {'n':>4}   passes rho")
    for dim in DIMENSIONS:
        labels = [truth[i][dim] for i in ids]
        agree = spearmanr([one[i][dim] for i in ids], [two[i][dim] for i in ids]).statistic
        for source in ("judge", "static", "blended"):
            values = [scored[i][source].get(dim) for i in ids]
            tail = f"   {agree:.2f}" if source == "judge" else ""
            print(f"{dim:24} {source:8} {correlate(values, labels)}{tail}")
    # Rows are judges, columns every (skill, dimension) judged: bands[dimension][judge].
    rows = [scored[i]["bands"] for i in ids if scored[i]["bands"]]
    table = [[dim[j] for bands in rows for dim in bands] for j in range(args.judges)]
    pooled = agreement(table) if rows else None
    if pooled is not None and pooled.alpha is not None:
        low, high = pooled.interval or (pooled.alpha, pooled.alpha)
        print(f"\njudges' agreement: alpha {pooled.alpha:.2f} [{low:.2f}–{high:.2f}] "
              f"over {pooled.units} skill-dimensions")  # fmt: skip
    tokens_in = [scored[i]["tokens"][0] for i in ids]
    tokens_out = [scored[i]["tokens"][1] for i in ids]
    costs = [scored[i]["cost"] for i in ids if scored[i]["cost"] is not None]
    print(
        f"tokens per skill ({args.judges} judge(s)): median {statistics.median(tokens_in):.0f} "
        f"in, {statistics.median(tokens_out):.0f} out"
        + (f"; total ${sum(costs):.2f}" if costs else "; cost unknown (no price)")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
