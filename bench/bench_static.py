"""Skills per second of the static layer over a tree of skills, in one process.

    python bench/bench_static.py [ROOT] [--repeat N]

ROOT defaults to ../shared/corpus-real. Prints the best and median of N runs and the
ratio to PluginEval's published ~5.7 ms a skill (one process, same corpus).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill

PLUGINEVAL_MS_PER_SKILL = 5.7


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1].parent / "shared" / "corpus-real"
    parser.add_argument("root", nargs="?", type=Path, default=default)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    skills = sorted(p.parent for p in args.root.rglob("SKILL.md"))
    if not skills:
        print(f"no SKILL.md under {args.root}", file=sys.stderr)
        return 2
    config = Config()
    runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for folder in skills:
            score_skill(folder, config, folder.name)
        runs.append((time.perf_counter() - start) / len(skills) * 1000)
    best, median = min(runs), statistics.median(runs)
    print(f"skills: {len(skills)}  runs: {args.repeat}")
    print(f"best   {best:.2f} ms/skill  ({1000 / best:.0f} skills/s)")
    print(f"median {median:.2f} ms/skill  ({1000 / median:.0f} skills/s)")
    print(
        f"PluginEval ~{PLUGINEVAL_MS_PER_SKILL} ms/skill: {PLUGINEVAL_MS_PER_SKILL / median:.2f}x its "
        "throughput (median)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
