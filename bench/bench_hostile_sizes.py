"""Time per MB of scoring one hostile SKILL.md, from 100 KB to 4 MB: it must stay flat.

    python bench/bench_hostile_sizes.py [--sizes 100K,400K,1M,2M,4M] [--shapes a,b] [--repeat N]

Each shape repeats one small unit (a heading, a link on the same line, a level of nesting, a
YAML alias, ...) until SKILL.md has the size asked for, then scores it in this process as
`plugin-eval score -o json` does (parse, rules, sub-scores, the JSON report) and prints the
seconds per MB and the size of the JSON for each size. A pass that is quadratic in one of
these shapes shows as a time per MB that grows with the size: 584 s for 4 MB of "MUST "
before it was made linear.

Each size is scored at least --repeat times and until 1 MB has been scored in all (ten runs
of 100 KB), after one warm-up run, and the fastest run counts: small sizes are the noisiest.

"Flat" means the 4 MB time per MB is within 2x of the 100 KB one (the `ratio` column, the
largest size over the smallest); a quadratic pass makes that ratio about 40. The script
exits 1 when a shape is not flat. Run on purpose, not as a test: the figures are seconds
of this machine, and only their ratios within one run mean anything.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from plugin_eval.api import render, score_paths
from plugin_eval.budgets import YAML_ALIAS_NODES

FRONT = (
    "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables, "
    "cleaning column names, or merging CSV files.\n---\n\n"
)
FLAT = 2.0
# A table header of 1,000 columns and its delimiter row.
WIDE = "|" + "a|" * 1000 + "\n|" + "-|" * 1000 + "\n"


def repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def numbered(unit: str, size: int) -> str:
    """``unit`` with ``{i}`` counted up, repeated to about ``size`` characters."""
    out, total, i = [], 0, 0
    while total < size:
        piece = unit.format(i=i)
        out.append(piece)
        total += len(piece)
        i += 1
    return "".join(out)


def aliases(size: int) -> str:
    """Frontmatter of anchors and aliases of scalars: each alias adds no node, so any number
    stays below the cap; a few aliases of a list add up to half the cap."""
    lists = YAML_ALIAS_NODES // 2 // 3
    head = "---\nname: {name}\ndescription: Formats CSV reports. Use when exporting tables.\n"
    head += "base: &b [1, 2, 3]\none: &o x\n" + "".join(f"l{i}: *b\n" for i in range(lists))
    return head + numbered("k{i}: *o\n", size - len(head)) + "---\n\n# Body\n\nText.\n"


def body(make: Callable[[int], str]) -> Callable[[int], str]:
    return lambda size: FRONT + make(size - len(FRONT))


SHAPES: dict[str, Callable[[int], str]] = {
    "must-repeat": body(lambda n: repeat("MUST ", n) + "\n"),
    "headings": body(lambda n: numbered("# Heading {i}\n", n)),
    "nested-headings": body(lambda n: repeat("# A\n## B\n### C\n#### D\n##### E\n###### F\n", n)),
    "links-one-line": body(lambda n: numbered("[l](references/m{i}.md) ", n) + "\n"),
    # A reference link is 4 bytes ("[r] "): the densest way to ask for parser tokens.
    "refs-one-line": body(lambda n: "[r]: references/r.md\n\n" + repeat("[r] ", n) + "\n"),
    "setext-headings": body(lambda n: repeat("a\n=\n", n)),
    "list-items": body(lambda n: repeat("- a\n", n)),
    "long-line": body(lambda n: repeat("word ", n) + "\n"),
    "deep-lists": body(lambda n: repeat("".join("  " * d + "- item\n" for d in range(40)), n)),
    "deep-quotes": body(lambda n: repeat(">" * 60 + " quoted\n\n", n)),
    "fences": body(lambda n: repeat("```python\nx = 1\n```\n\n", n)),
    "table-rows": body(lambda n: "| a | b |\n|---|---|\n" + repeat("| x | [y](z.md) |\n", n)),
    # A header of 1,000 columns, then rows of "|" only: 1,000 cells a row, each a few parser
    # tokens, until TABLE_CELLS; and tables whose rows hold no "|", filled in to 1,000 cells.
    "table-cells": body(lambda n: WIDE + repeat("|" * 1001 + "\n", n - len(WIDE))),
    "table-filled-in": body(lambda n: repeat(WIDE + "x\n" * 65 + "\n", n)),
    "code-spans-one-line": body(lambda n: repeat("`Read` then `x`` ` ", n) + "\n"),
    # One-word tool names that are not instructions (PE402 judges each name once per line).
    "tool-words-one-line": body(lambda n: repeat("a `Task` or `Read` b ", n) + "\n"),
    "tool-prose-one-line": body(lambda n: repeat("use the Bash tool ", n) + "\n"),
    "prose-refs-one-line": body(lambda n: numbered("see references/r{i}.md ", n) + "\n"),
    # Paths in code spans that the line points to, none shipped (PE211 reads around each).
    "named-paths-one-line": body(
        lambda n: numbered("see `sib-{i}`'s `references/r{i}.md`; ", n) + "\n"
    ),
    # A file of the skill named after a '/' again and again: each is asked whether the path
    # before it is the skill's own folder (written() looked back from the top: 46 s for
    # 360 KB).
    "paths-after-slash": body(lambda n: "```\n" + repeat("a/SKILL.md ", n) + "\n```\n"),
    "suppressions": body(lambda n: repeat("<!-- plugin-eval: ignore PE201 -->\n[a](b.md)\n\n", n)),
    # Blocks opened twice (PE307 reads each block's lines once) and one block holding a
    # fence with a language on every line after a long run of code.
    "mispaired-fences": body(lambda n: repeat("```\n```js\nx\n```\n\n", n)),
    "fence-in-long-block": body(lambda n: "```\n" + repeat("x = 1\n", n) + "```js\n```\n"),
    # Headings with nothing under them (PE308 reads the token stream once).
    "empty-sections": body(lambda n: repeat("## A\n\n", n)),
    "output-sections": body(
        lambda n: repeat("## Output\n\n```json\n{}\n```\n\n- `a` (str)\n\n", n)
    ),
    "description-clauses": lambda n: (
        "---\nname: {name}\ndescription: Use when "
        + numbered("exporting t{i} files, ", n)
        + "\n---\n\n# Body\n"
    ),
    "yaml-aliases": aliases,
}


def parse_size(text: str) -> int:
    units = {"K": 1000, "M": 1000 * 1000}
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def measure(root: Path, shape: str, size: int) -> tuple[float, int, int]:
    """Seconds to score and render one skill of ``size`` bytes, its bytes, the JSON's bytes."""
    folder = root / shape / str(size) / "hostile-skill"
    folder.mkdir(parents=True)
    text = SHAPES[shape](size).replace("{name}", "hostile-skill")
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    start = time.perf_counter()
    batch = score_paths([folder])
    out = render(batch, "json")
    elapsed = time.perf_counter() - start
    shutil.rmtree(folder)
    return elapsed, len(text.encode("utf-8")), len(out.encode("utf-8"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100K,400K,1M,2M,4M")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--repeat", type=int, default=1, help="least runs per size")
    args = parser.parse_args()
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        print(
            f"unknown shape(s): {', '.join(unknown)}; known: {', '.join(SHAPES)}", file=sys.stderr
        )
        return 2
    labels = [f"{s / 1e6:g} MB" for s in sizes]
    print(f"{'shape (s/MB)':<22}" + "".join(f"{x:>10}" for x in labels) + "     ratio  json@max")
    root = Path(tempfile.mkdtemp(prefix="pe-hostile-"))
    not_flat = []
    try:
        measure(root, shapes[0], sizes[0])  # imports and first-call costs, not timed
        for shape in shapes:
            per_mb, json_bytes = [], 0
            for size in sizes:
                count = max(args.repeat, -(-1_000_000 // size))
                runs = [measure(root, shape, size) for _ in range(count)]
                elapsed, written, json_bytes = min(runs)
                per_mb.append(elapsed / (written / 1e6))
            ratio = per_mb[-1] / per_mb[0]
            if ratio > FLAT:
                not_flat.append(shape)
            print(
                f"{shape:<22}"
                + "".join(f"{t:>10.3f}" for t in per_mb)
                + f"{ratio:>10.2f}{json_bytes / 1000:>8.0f}KB"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if not_flat:
        print(f"not flat (ratio over {FLAT:g}): {', '.join(not_flat)}")
        return 1
    print(f"flat: every shape's time per MB at {labels[-1]} is within {FLAT:g}x of {labels[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
