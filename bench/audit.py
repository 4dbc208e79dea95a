"""Rule precision on real skills outside the validation set: a labelled sample of findings.

    python bench/audit.py [CORPUS]            # which labelled findings the tool still reports
    python bench/audit.py --sample [CORPUS]   # draw a new sample to label (JSON on stdout)

CORPUS is the robustness corpus (874 real skills and 91 plugins; by default ../shared/
corpus-real beside the repository). The sample in bench/audit/corpus_real_findings.json was
drawn with --sample: for each rule, up to six findings, each on a different skill, from the
collection the validation set does not use (skill rules) or from the plugins (plugin rules),
and labelled real, false or debatable by readers who saw the findings and the files, not the
scores. The default run scores the corpus again and prints, per label, how many of the
labelled findings the tool still reports at the same file and line: a false finding that
is gone was fixed, a real one that is gone was lost.
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
PER_RULE = 6
SEED = 20261203


def findings(corpus: Path) -> list[dict[str, Any]]:
    """Every finding over the corpus, with its path relative to the corpus."""
    out: list[dict[str, Any]] = []
    for report in score_paths(corpus).reports:
        for f in report.findings:
            row = f.model_dump()
            row["path"] = str(Path(row["path"]).resolve().relative_to(corpus.resolve()))
            out.append(row)
    return out


def sample(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Up to PER_RULE findings of each rule, one per skill or plugin, drawn with SEED."""
    by_code: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in found:
        plugin_rule = f["code"] >= "PE5"
        if plugin_rule or f["path"].startswith(SKILL_COLLECTION + "/"):
            by_code[f["code"]].append(f)
    rng = random.Random(SEED)
    picked: list[dict[str, Any]] = []
    for code in sorted(by_code):
        one_each = list({f["path"].split("/")[1]: f for f in reversed(by_code[code])}.values())
        rng.shuffle(one_each)
        picked += one_each[:PER_RULE]
    return picked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--sample", action="store_true", help="draw a sample to label")
    args = parser.parse_args()
    found = findings(args.corpus)
    if args.sample:
        json.dump(sample(found), sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    now = Counter((f["code"], f["path"], f["line"]) for f in found)
    # A finding with the same message in the same file, at another line: one moved to the
    # words it is about, not one fixed or lost.
    lines = {(f["code"], f["path"], f["message"]): f["line"] for f in found}
    still: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for row in json.loads(LABELS.read_text()):
        total[row["label"]] += 1
        place = f"{row['code']} {row['path']}:{row['line']}"
        moved = lines.get((row["code"], row["path"], row["message"]))
        if now[(row["code"], row["path"], row["line"])]:
            still[row["label"]] += 1
        elif moved is not None:
            still[row["label"]] += 1
            print(f"moved ({row['label']}): {place} -> line {moved}")
        elif row["label"] != "real":
            print(f"gone ({row['label']}): {place}")
        else:
            print(f"LOST (real): {place}")
    for label in ("real", "false", "debatable"):
        print(f"{label:10s} labelled {total[label]:4d}  still reported {still[label]:4d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
