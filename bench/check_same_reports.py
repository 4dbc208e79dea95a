"""Prove a change left every report as it was: the working tree against a commit, on a corpus.

    python bench/check_same_reports.py [REV] [CORPUS]

Scores every skill (every SKILL.md) and every plugin (every .claude-plugin/plugin.json) under
CORPUS with the code of commit REV (default HEAD, taken with `git archive`) and with the
working tree, each in a process of its own, and compares the full report JSON item by item.
Prints the counts and the first differences; exits 1 when any report differs. CORPUS defaults
to ../shared/corpus-real from the repository root, when it exists.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Run in each process, with the plugin_eval package of that side first on the path.
DUMP = """
import json, sys
from pathlib import Path
from plugin_eval.config import Config
from plugin_eval.engine import score_skill
from plugin_eval.plugin_score import score_plugin
from plugin_eval.report.model import build_plugin_report, build_report

root = Path(sys.argv[1])
out = {}
for md in sorted(root.rglob("SKILL.md")):
    rel = str(md.parent.relative_to(root))
    out["skill " + rel] = build_report(score_skill(md.parent, Config(), rel), "X").model_dump_json()
for manifest in sorted(root.rglob(".claude-plugin/plugin.json")):
    folder = manifest.parent.parent
    rel = str(folder.relative_to(root))
    result = score_plugin(folder, Config(), rel)
    out["plugin " + rel] = build_plugin_report(result, "X").model_dump_json()
json.dump(out, sys.stdout)
"""


def reports(code: Path, corpus: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(code)
    done = subprocess.run(
        [sys.executable, "-c", DUMP, str(corpus)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=code,
    )
    loaded: dict[str, str] = json.loads(done.stdout)
    return loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD")
    parser.add_argument(
        "corpus", nargs="?", type=Path, default=REPO.parent / "shared" / "corpus-real"
    )
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    if not corpus.is_dir():
        print(f"corpus {corpus} does not exist: pass a folder of skills", file=sys.stderr)
        return 2
    archive = subprocess.run(
        ["git", "archive", args.rev, "plugin_eval"], capture_output=True, check=True, cwd=REPO
    ).stdout
    with tempfile.TemporaryDirectory(prefix="pe-base-") as base:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(base, filter="data")
        before = reports(Path(base), corpus)
    after = reports(REPO, corpus)
    differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    skills = sum(1 for k in after if k.startswith("skill "))
    print(f"{skills} skills and {len(after) - skills} plugins under {corpus}: ", end="")
    print(f"{len(differ)} reports differ from {args.rev}" if differ else f"identical to {args.rev}")
    for key in differ[:10]:
        print(f"  {key}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
