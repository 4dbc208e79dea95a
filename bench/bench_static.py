"""Score every SKILL.md under ROOT with plugin-eval's static layer, in one process.

    python bench/bench_static.py [ROOT ...] [--repeat N] [--json FILE]

The counterpart of PluginEval's sweep script: parse and score each skill (depth quick) and
print the number of skills and the seconds spent on stderr, once per pass; with --json FILE
also write each skill's composite score, badge, static sub-scores and flags. The first pass
is the cold one (as in a fresh `report`); later passes show the warm, in-process figure.
bench_vs_plugineval.py runs it beside PluginEval's sweep.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from plugin_eval.config import Config
from plugin_eval.engine import score_skill

REPO = Path(__file__).resolve().parents[1]


def default_root() -> Path:
    """The shared real-world corpus beside the repository."""
    return REPO.parent / "shared" / "corpus-real"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    roots = args.root or [default_root()]
    skills = [md.parent for root in roots for md in sorted(root.rglob("SKILL.md"))]
    if not skills:
        print(f"no SKILL.md under {', '.join(map(str, roots))}", file=sys.stderr)
        return 2
    config = Config()
    out: dict[str, object] = {}
    for _ in range(args.repeat):
        start = time.perf_counter()
        for folder in skills:
            result = score_skill(folder, config, folder.name)
            out[str(folder)] = {
                "score": result.composite.score,
                "badge": result.composite.badge,
                "sub": {name: sub.score for name, sub in result.subscores.items()},
                "flags": [f.flag for f in result.anti_patterns],
            }
        print(len(skills), "skills", f"{time.perf_counter() - start:.3f}", "s", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
