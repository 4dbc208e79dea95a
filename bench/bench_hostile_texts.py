"""Time per MB of seed 000's text measures on hostile texts, and the memory of dataset-score
on a large JSON Lines file: both must stay flat.

    python bench/bench_hostile_texts.py [--sizes 100K,400K,1M,4M] [--lines 10000,100000]

The texts that ``dataset-score`` compares and checks values against, and the model replies
that the Monte Carlo layer compares, are hostile input. Each shape below is a text of the
size asked for, read the way those measures read it (``normalise``, ``source``, a value
matched against it); a pass that is quadratic in the shape shows as a time per MB that grows
with the size. Before these passes were made linear, 160 KB of letters took 27 s (the URL
search) and 80 KB of "<" 8 s (the tag search).

Then ``plugin-eval dataset-score`` is run on JSON Lines of the numbers of lines asked for, in a
child process, and its peak memory printed: it reads and scores a line at a time, so the
peak must not grow with the file (it was 25 times the file, 2.8 GB for 116 MB).

"Flat": the largest size's time per MB within 2x of the smallest's, and the largest file's
peak memory within 1.5x of the smallest's. Exits 1 when a shape is not flat. Run on purpose,
not as a test: the figures are of this machine, and only their ratios within one run mean
anything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from plugin_eval.montecarlo.consistency import normalise
from plugin_eval.montecarlo.structured import match_in_text, source

FLAT_TIME, FLAT_MEMORY = 2.0, 1.5
ITEM = {
    "cleaned_data_list": ["alpha beta gamma", "alpha beta delta"],
    "structured_data": {"x": "alpha"},
    "dataset_schema": {"fields": [{"name": "x"}]},
}


def _matched(text: str) -> None:
    match_in_text("a" * 1000, source(text))


SHAPES: dict[str, tuple[Callable[[int], str], Callable[[str], object]]] = {
    # A run of letters: every letter could start a URL scheme.
    "letters-source": (lambda n: "a" * n, source),
    # A run of "<" with no ">": every "<" could start a tag.
    "open-tags": (lambda n: "<" * n, normalise),
    # A long value against a run of the same letter: found everywhere, a whole word nowhere.
    "value-in-a-run": (lambda n: "a" * n, _matched),
    "words": (lambda n: "word " * (n // 5), source),
}


def parse_size(text: str) -> int:
    units = {"K": 1000, "M": 1000**2}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def per_mb(make: Callable[[int], str], run: Callable[[str], object], size: int) -> float:
    text = make(size)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run(text)
        best = min(best, time.perf_counter() - start)
    return best / (size / 1e6)


def peak_kb(path: Path) -> int:
    """The peak memory (KB) of a child process running dataset-score on ``path``."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run([sys.executable, '-m', 'plugin_eval', 'dataset-score', sys.argv[1]],"
        " stdout=subprocess.DEVNULL, check=False)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return int(out.stdout.split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100K,400K,1M,4M")
    parser.add_argument("--lines", default="10000,100000")
    args = parser.parse_args()
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    failed = False
    print(f"{'shape':<16}" + "".join(f"{s:>12,}" for s in sizes) + "   ratio  (s per MB)")
    for name, (make, run) in SHAPES.items():
        times = [per_mb(make, run, size) for size in sizes]
        ratio = times[-1] / times[0]
        failed |= ratio > FLAT_TIME
        print(f"{name:<16}" + "".join(f"{t:>12.4f}" for t in times) + f"{ratio:>8.2f}")
    counts = [int(n) for n in args.lines.split(",")]
    line = json.dumps(ITEM) + "\n"
    peaks = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            path = Path(tmp) / f"items-{count}.jsonl"
            path.write_text(line * count, encoding="utf-8")
            peaks.append(peak_kb(path))
            size = path.stat().st_size
            print(f"dataset-score {count:>9,} lines ({size / 1e6:.1f} MB): peak {peaks[-1]:,} KB")
    growth = peaks[-1] / peaks[0]
    failed |= growth > FLAT_MEMORY
    print(f"dataset-score peak memory, largest over smallest: {growth:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
