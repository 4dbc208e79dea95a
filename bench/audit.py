"""Rule precision on real skills outside the validation set: a labelled sample of findings.

    python bench/audit.py [CORPUS]                   # which labelled findings are still reported
    python bench/audit.py --sample [--round 2|3] [CORPUS] # draw a sample to label (JSON)

CORPUS is the robustness corpus (874 real skills and 91 plugins; by default ../shared/
corpus-real beside the repository). The findings in bench/audit/corpus_real_findings.json
were drawn with --sample in three rounds and labelled real, false or debatable by readers who
saw the findings and the files, not the scores:

- round 1: for each rule, up to six findings, each on a different skill, from the collection
  the validation set does not use (skill rules) or from the plugins (plugin rules);
- round 2 (drawn after round 1's fixes): skill rules only, up to five per rule, from every
  collection, leaving out the validation set's skills and the skills round 1 drew;
- round 3 (drawn after round 2's): plugin rules only, up to six per rule, each in a different
  plugin, leaving out the plugins rounds 1 and 2 drew.

`--sample` reproduces round 1 with the code as it was then; `--round 2` or `--round 3` draws a
fresh sample of that round's kind (each labelled one was drawn before its own fixes, so
today's draw differs).

The default run scores the corpus again and prints, per round and label, how many of the
labelled findings the tool still reports at the same file and line (or with the same message
in the same file: moved): a false finding that is gone was fixed, a real one gone was lost.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from plugin_eval.api import score_paths  # noqa: E402

LABELS = HERE / "audit" / "corpus_real_findings.json"
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus-real"
SKILL_COLLECTION = "antigravity-awesome-skills"  # the collection the validation set leaves out
DRAWS = {1: (6, 20261203), 2: (5, 20261204), 3: (6, 20261205)}  # round: findings per rule, seed
SPLIT = HERE / "validation" / "split.json"


def findings(corpus: Path) -> list[dict[str, Any]]:
    """Every finding over the corpus, with its path relative to the corpus."""
    out: list[dict[str, Any]] = []
    for report in score_paths(corpus).reports:
        for f in report.findings:
            row = f.model_dump()
            row["path"] = str(Path(row["path"]).resolve().relative_to(corpus.resolve()))
            out.append(row)
    return out


def sample(found: list[dict[str, Any]], draw: int = 1) -> list[dict[str, Any]]:
    """Up to the round's number of findings of each rule, one per skill or plugin."""
    per_rule, seed = DRAWS[draw]
    split = json.loads(SPLIT.read_text())
    left_out = set(split["tune"]) | set(split["measure"])
    rows = json.loads(LABELS.read_text())
    drawn = {row["path"].split("/")[1] for row in rows if row["round"] < draw}
    by_code: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in found:
        if draw == 1:
            if f["code"] >= "PE5" or f["path"].startswith(SKILL_COLLECTION + "/"):
                by_code[f["code"]].append(f)
        elif draw == 3:
            if f["code"] >= "PE5" and f["path"].split("/")[1] not in drawn:
                by_code[f["code"]].append(f)
        elif (
            f["code"] < "PE5"
            and f["path"].split("/")[1] not in drawn
            and not any(f["path"].startswith(skill + "/") for skill in left_out)
        ):
            by_code[f["code"]].append(f)
    rng = random.Random(seed)
    picked: list[dict[str, Any]] = []
    for code in sorted(by_code):
        one_each = list({f["path"].split("/")[1]: f for f in reversed(by_code[code])}.values())
        rng.shuffle(one_each)
        picked += one_each[:per_rule]
    return picked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--sample", action="store_true", help="draw a sample to label")
    parser.add_argument("--round", type=int, choices=sorted(DRAWS), default=1)
    args = parser.parse_args()
    found = findings(args.corpus)
    if args.sample:
        json.dump(sample(found, args.round), sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    now = Counter((f["code"], f["path"], f["line"]) for f in found)
    # A finding with the same message in the same file, at another line: one moved to the
    # words it is about, not one fixed or lost.
    lines = {(f["code"], f["path"], f["message"]): f["line"] for f in found}
    still: Counter[tuple[int, str]] = Counter()
    total: Counter[tuple[int, str]] = Counter()
    for row in json.loads(LABELS.read_text()):
        key = (row["round"], row["label"])
        total[key] += 1
        place = f"{row['code']} {row['path']}:{row['line']}"
        moved = lines.get((row["code"], row["path"], row["message"]))
        if now[(row["code"], row["path"], row["line"])]:
            still[key] += 1
        elif moved is not None:
            still[key] += 1
            print(f"moved ({row['label']}): {place} -> line {moved}")
        elif row["label"] != "real":
            print(f"gone ({row['label']}): {place}")
        else:
            print(f"LOST (real): {place}")
    for draw in sorted(DRAWS):
        for label in ("real", "false", "debatable"):
            key = (draw, label)
            print(
                f"round {draw} {label:10s} labelled {total[key]:4d}  still reported {still[key]:4d}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
