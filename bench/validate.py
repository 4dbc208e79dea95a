"""Measure the static layer against the labelled validation set of real skills.

    python bench/validate.py [--half measure|tune|all] [--round N] [--show-findings] [--worst N]

The set (bench/validation/) is 190 real skills from two public MIT-licensed collections,
labelled in three rounds (90, 60, then 40), each skill rated twice, blind, on seed 002's
anchored rubrics (triggering accuracy, orchestration fitness, scope calibration), and every
finding the tool reported on them labelled real, false or debatable. The label of a skill is
the mean of the two passes. Each round was split once, at random, into a half rules are tuned
on and a half that is only measured (split.json); this script reports the measuring half
unless told otherwise, and ``--round N`` keeps one round's skills.

Prints, per dimension: Spearman's rho and the mean absolute error of the tool's static
score against the labels (with the two rating passes' own agreement for reference, and a 95 %
bootstrap interval of rho: how far the figure could move on another draw of skills); and per
rule: how many of its findings were labelled real, false, debatable or not labelled yet
(findings the labelling never saw: new ones, or ones whose message changed since they were
labelled, since a label judges the message its reader saw), its precision (real /
labelled, debatable counted as not real), and its precision among the findings the labels
decided (real / (real + false), debatable left out).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import bootstrap, spearmanr

HERE = Path(__file__).resolve().parent / "validation"
sys.path.insert(0, str(HERE.parents[1]))

from plugin_eval.config import Config  # noqa: E402
from plugin_eval.engine import score_skill  # noqa: E402

DIMENSIONS = ("triggering_accuracy", "orchestration_fitness", "scope_calibration")


def load_labels() -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    one, two = (
        {r["id"]: r for r in json.loads((HERE / "ratings" / f"pass{n}.json").read_text())}
        for n in (1, 2)
    )
    return (
        {i: {d: float(one[i][d]) for d in DIMENSIONS} for i in one},
        {i: {d: float(two[i][d]) for d in DIMENSIONS} for i in two},
    )


def finding_key(sid: str, code: str, file: str, line: object) -> tuple[str, str, str, str]:
    return (sid, code, file, str(line))


def load_finding_labels() -> dict[tuple[str, str, str, str], dict[str, str]]:
    """Each finding's label, found by where it is and then by its message: several findings
    can share a place (unlinked files are reported on the same line), and a label holds only
    for the message its reader judged."""
    out: dict[tuple[str, str, str, str], dict[str, str]] = defaultdict(dict)
    for row in json.loads((HERE / "findings_labels.json").read_text()):
        key = finding_key(row["id"], row["code"], row["file"], row["line"])
        out[key][row["message"]] = row["label"]
    return out


def score(ids: list[str]) -> dict[str, Any]:
    """The tool's static dimension scores and findings for each skill, in this process."""
    config = Config()
    out: dict[str, Any] = {}
    for sid in ids:
        folder = HERE / "skills" / sid
        result = score_skill(folder, config, sid)
        dims = {d.name: d.score for d in result.composite.dimensions}
        findings = [
            (f.code, f.path[len(sid) + 1 :] if f.path.startswith(sid + "/") else f.path, f.line)
            for f in result.findings
        ]
        out[sid] = {
            "dims": dims,
            "findings": findings,
            "message": [f.message for f in result.findings],
        }
    return out


def _rho(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho; 0 for a resample in which either side is constant (many tied scores
    can draw one), where no order is there to agree with."""
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return 0.0
    return float(spearmanr(x, y).statistic)


def rho_interval(tool: list[Any], truth: list[float]) -> tuple[float, float]:
    """A 95 % percentile bootstrap interval of Spearman's rho, skills resampled in pairs (2,000
    resamples, a fixed seed: the same labels and scores always print the same interval)."""
    result = bootstrap(
        (np.asarray(tool, dtype=float), np.asarray(truth, dtype=float)),
        _rho,
        paired=True,
        vectorized=False,
        n_resamples=2000,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    ci = result.confidence_interval
    return float(ci.low), float(ci.high)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=("measure", "tune", "all"), default="measure")
    parser.add_argument("--worst", type=int, default=0, help="list the N largest errors")
    parser.add_argument("--show-findings", action="store_true", help="list unlabelled findings")
    parser.add_argument(
        "--round",
        type=int,
        default=0,
        help="only the skills added in labelling round N (1, 2 …; split.json's 'rounds')",
    )
    args = parser.parse_args()
    split = json.loads((HERE / "split.json").read_text())
    ids = sorted(split["tune"] + split["measure"]) if args.half == "all" else split[args.half]
    rounds = split.get("rounds", [])
    if args.round:
        if not 1 <= args.round <= len(rounds):
            parser.error(f"--round: split.json has rounds 1 to {len(rounds)}")
        added = set(rounds[args.round - 1]["ids"])
        ids = [i for i in ids if i in added]
    one, two = load_labels()
    labels = {i: {d: (one[i][d] + two[i][d]) / 2 for d in DIMENSIONS} for i in ids}
    scored = score(ids)
    which = f", round {args.round}" if args.round else ""
    print(f"validation set: {len(ids)} skills ({args.half} half{which}, of {len(one)})\n")
    print(
        f"{'dimension':24} {'rho vs labels':>13} {'MAE':>6} {'passes rho':>10} {'passes MAE':>10}"
        f"  {'rho 95% CI':>12}"
    )
    for dim in DIMENSIONS:
        a = [one[i][dim] for i in ids]
        b = [two[i][dim] for i in ids]
        agree = spearmanr(a, b).statistic
        between = sum(abs(x - y) for x, y in zip(a, b, strict=True)) / len(ids)
        tool = [scored[i]["dims"].get(dim) for i in ids]
        if any(t is None for t in tool):
            print(f"{dim:24} {'not measured':>13} {'':>6} {agree:10.2f} {between:10.3f}")
            continue
        truth = [labels[i][dim] for i in ids]
        rho = spearmanr(tool, truth).statistic
        mae = sum(abs(float(t) - y) for t, y in zip(tool, truth, strict=True)) / len(ids)
        low, high = rho_interval(tool, truth)
        print(
            f"{dim:24} {rho:13.2f} {mae:6.3f} {agree:10.2f} {between:10.3f}"
            f"  {f'{low:.2f} – {high:.2f}':>12}"
        )
        if args.worst:
            worst = sorted(ids, key=lambda i: -abs(float(scored[i]["dims"][dim]) - labels[i][dim]))
            for i in worst[: args.worst]:
                print(f"    {scored[i]['dims'][dim]:.2f} vs {labels[i][dim]:.2f}  {i}")
    found = load_finding_labels()
    per_rule: dict[str, Counter[str]] = defaultdict(Counter)
    unlabelled = []
    for sid in ids:
        for (code, file, line), message in zip(
            scored[sid]["findings"], scored[sid]["message"], strict=True
        ):
            label = found.get(finding_key(sid, code, file, line), {}).get(message, "unlabelled")
            per_rule[code][label] += 1
            if label == "unlabelled":
                unlabelled.append(f"{sid}/{file}:{line} {code} {message}")
    print(
        f"\n{'rule':6} {'fired':>5} {'real':>5} {'false':>5} {'debatable':>9} {'unlabelled':>10} "
        f"{'precision':>9} {'decided':>7}"
    )
    for code in sorted(per_rule):
        c = per_rule[code]
        labelled = c["real"] + c["false"] + c["debatable"]
        decided = c["real"] + c["false"]
        precision = f"{c['real'] / labelled:9.2f}" if labelled else f"{'—':>9}"
        among = f"{c['real'] / decided:7.2f}" if decided else f"{'—':>7}"
        fired = sum(c.values())
        print(
            f"{code:6} {fired:5} {c['real']:5} {c['false']:5} {c['debatable']:9} "
            f"{c['unlabelled']:10} {precision} {among}"
        )
    if args.show_findings and unlabelled:
        print("\nunlabelled findings:")
        print("\n".join("  " + u for u in unlabelled))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
