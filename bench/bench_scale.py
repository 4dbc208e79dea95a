"""Cold `plugin-eval report` over a synthetic marketplace: wall time and peak memory.

    python bench/bench_scale.py 100000 [--work /tmp/pe-scale] [--jobs N]

Generates the marketplace with make_marketplace.py (reused when already there), runs the
real CLI in a subprocess with an empty cache, and samples the resident memory of the
whole process tree (main process plus workers) every 0.1 s.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants, in KiB (Linux /proc)."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0)
            with open(f"/proc/{current}/task/{current}/children") as fh:
                stack += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("skills", type=int)
    parser.add_argument("--work", type=Path, default=Path("/tmp/pe-scale"))
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    market = args.work / f"market-{args.skills}"
    if not market.exists():
        subprocess.run(
            [sys.executable, str(HERE / "make_marketplace.py"), str(args.skills), str(market)],
            check=True,
        )
    out, cache = args.work / "out", args.work / "cache"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    command = [
        sys.executable,
        "-m",
        "plugin_eval",
        "report",
        str(market),
        "--out",
        str(out),
        "--cache-dir",
        str(cache),
    ]
    if args.jobs:
        command += ["--jobs", str(args.jobs)]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.1)
    elapsed = time.perf_counter() - start
    print(proc.stderr.read().strip().splitlines()[-1] if proc.stderr else "")
    print(
        f"skills: {args.skills}  wall: {elapsed:.1f} s ({elapsed / args.skills * 1000:.2f} ms/skill)  "
        f"peak memory (all processes): {peak / 1024:.0f} MiB  exit: {proc.returncode}"
    )
    return proc.returncode or 0


if __name__ == "__main__":
    raise SystemExit(main())
