"""Throughput of `plugin-eval report` over a tree: cold (empty cache) and warm (all hits).

    python bench/bench_report.py [ROOT] [--jobs N] [--repeat K]

Runs in one process plus its workers, with default settings unless --jobs is given, and prints
ms per skill. Interpreter start-up is not counted (`time plugin-eval report …` adds it); the
side-by-side figures against PluginEval are bench_vs_plugineval.py's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from calibration import calibration_ms  # bench/ is the script's folder

from plugin_eval.config import Config
from plugin_eval.marketplace import default_jobs, run_report


def count_skills(root: Path) -> int:
    return sum(1 for _ in root.rglob("SKILL.md"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1].parent / "shared" / "corpus-real"
    parser.add_argument("root", nargs="?", type=Path, default=default)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    skills = count_skills(args.root)
    if not skills:
        print(f"no SKILL.md under {args.root}", file=sys.stderr)
        return 2
    cold: list[float] = []
    warm: list[float] = []
    works: list[Path] = []
    items = 0
    try:
        for _ in range(args.repeat):
            work = Path(tempfile.mkdtemp(prefix="pe-bench-"))
            works.append(work)
            for bucket in (cold, warm):
                # Flush what earlier runs wrote, so each run pays only for its own writes.
                os.sync()
                start = time.perf_counter()
                rows, stats = run_report(
                    args.root, work / "out", Config(), args.jobs, work / "cache", "T"
                )
                bucket.append((time.perf_counter() - start) * 1000 / skills)
                items = len(rows)
                rows.close()
            assert stats.cache_misses == 0, "second run should be all cache hits"
    finally:
        for work in works:
            shutil.rmtree(work, ignore_errors=True)
    print(
        f"root: {args.root}  skills: {skills}  items: {items}  jobs: {args.jobs}  "
        f"calibration loop: {calibration_ms():.0f} ms"
    )
    for label, runs in (("cold", cold), ("warm", warm)):
        median = statistics.median(runs)
        print(f"{label}: median {median:.3f} ms/skill (best {min(runs):.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
