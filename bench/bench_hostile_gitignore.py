"""Time of searching a tree whose .gitignore is hostile, over the same tree's search with a
plain .gitignore: the ratio must stay small.

    python bench/bench_hostile_gitignore.py [--shapes a,b] [--repeat N]

pathspec matches each .gitignore pattern with a regular expression that backtracks over its
wildcards. Each shape is one pattern line and a tree made to nearly match it: a folder named
by 40 letters (the run of ten `*` before the line was read as git reads it: 37 s, and twelve
did not finish in a minute), a chain of 600 nested folders (two `**` with more pattern
after them: 30 s for 2,000), or 16 nested names of 250 letters (many `*` in one name). Lines
past budgets.GITIGNORE_SPANNING_STARS or GITIGNORE_EXTRA_STARS are left out with a note,
and the rest are matched.

"Flat" means each hostile shape's search takes at most 5x the plain one on its tree (the
`ratio` column); the script exits 1 otherwise. The `limit-` shapes are the costliest lines
kept, shown and not judged: a `*a*` before a `**` is tried at every place of the path after
it, some 10 ms a folder of 4 KB, and a plain line some 0.03 ms. Run on purpose, not as a test: the figures are seconds
of this machine, and only their ratios within one run mean anything.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from plugin_eval.discovery import discover

FLAT = 5.0
SKILL = (
    "---\nname: s\ndescription: Formats SQL queries. Use when tidying SQL files or aligning "
    "joins.\n---\n\n# s\n\nBody.\n"
)
# Each tree, as the names of the folders nested in its root (Python's own recursion stops
# os.makedirs and shutil.rmtree near 1,000 deep).
TREES = {
    "long-name": ["a" * 40],
    "deep": ["a"] * 600,
    "long-names": ["a" * 250] * 16,
}
# Each shape: its tree and its .gitignore line.
SHAPES = {
    "star-run": ("long-name", "**********x"),
    "star-run-12": ("long-name", "************x"),
    "many-stars": ("long-names", "*a*a*a*a*a*a*a*a*x"),
    "three-stars": ("long-names", "*a*a*x"),
    "double-stars": ("deep", "a/**/a/**/b"),
    "leading-double-stars": ("deep", "**/a/**/b"),
    "limit-stars": ("long-names", "*a*/**/a*b"),
    "limit-double-star": ("deep", "a/**/a*b"),
}


def make(work: Path, tree: str) -> Path:
    """A root holding ``tree``'s folders and a skill."""
    root = work / tree
    folder = root
    for name in TREES[tree]:
        folder = folder / name
        folder.mkdir(parents=True)
    (root / "s").mkdir()
    (root / "s" / "SKILL.md").write_text(SKILL)
    return root


def search(root: Path, repeat: int) -> float:
    """The fastest of ``repeat`` searches of ``root``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        discover(root)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per search")
    args = parser.parse_args()
    shapes = args.shapes.split(",")
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        print(
            f"unknown shape(s): {', '.join(unknown)}; known: {', '.join(SHAPES)}", file=sys.stderr
        )
        return 2
    work = Path(tempfile.mkdtemp(prefix="pe-gitignore-"))
    roots: dict[str, Path] = {}
    plain: dict[str, float] = {}
    not_flat = []
    print(f"{'shape':<22}{'plain s':>10}{'shape s':>10}{'ratio':>8}  line")
    try:
        for shape in shapes:
            tree, line = SHAPES[shape]
            if tree not in roots:
                roots[tree] = root = make(work, tree)
                (root / ".gitignore").write_text("x\n")
                plain[tree] = search(root, args.repeat)
            root = roots[tree]
            (root / ".gitignore").write_text(line + "\n")
            seconds = search(root, args.repeat)
            said = "left out" if discover(root).notes else "applied"
            ratio = seconds / plain[tree]
            if ratio > FLAT and not shape.startswith("limit-"):
                not_flat.append(shape)
            print(f"{shape:<22}{plain[tree]:>10.4f}{seconds:>10.4f}{ratio:>8.2f}  {said}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not_flat:
        print(f"not flat (ratio over {FLAT:g}): {', '.join(not_flat)}")
        return 1
    print(f"flat: every hostile shape's search is within {FLAT:g}x of the plain one on its tree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
