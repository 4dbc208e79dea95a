"""Build the reference table of description words (plugin_eval/description_words.json).

    python bench/build_description_words.py SKILLS_FOLDER [--exclude-names-in FOLDER]... [--source TEXT]

Reads the ``description`` of every SKILL.md under SKILLS_FOLDER (as plugin-eval reads it,
with a safe YAML loader) and counts, for each word as the triggering analysis reads it
(``triggering.words_of``, stop words left out, plural endings stemmed), in how many
descriptions it occurs. The table is what a router's neighbours are made of: a word that
hundreds of published skills use ("design", "api", "testing") tells a router little about
which of them to pick; a word that few use ("pKa", "Prometheus") tells it a lot.

The shipped table was built from sickn33/antigravity-awesome-skills (folder skills/, MIT
licence), a collection that no skill of the validation set comes from, less the 120 of its
559 skills that republish, under the same folder name, a skill of the two collections the
validation set was drawn from (``--exclude-names-in`` each of them): no rated skill counts
its own words, even edited. Only the counts are kept, never a description,
with the collection's licence notice (its LICENSE file, when it has one), and a digest of each
description, so that a skill scored with its own published description is not counted as its
own neighbour.
The output is written sorted, so the same folder always gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from plugin_eval.document import parse_skill
from plugin_eval.reference_words import description_digest
from plugin_eval.triggering import description_stems

OUT = Path(__file__).resolve().parents[1] / "plugin_eval" / "description_words.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder of skill folders")
    parser.add_argument(
        "--source",
        default="sickn33/antigravity-awesome-skills, folder skills/ (MIT licence), less the "
        "skills that wshobson/agents or K-Dense-AI/claude-scientific-skills also publish",
        help="where the skills come from, recorded in the table",
    )
    parser.add_argument(
        "--exclude-names-in",
        type=Path,
        action="append",
        default=[],
        metavar="FOLDER",
        help="leave out every skill whose folder name is that of a skill under FOLDER (a "
        "collection that republishes skills of the validation set's collections must not "
        "count their words); repeatable",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    excluded_names = {
        path.parent.name for folder in args.exclude_names_in for path in folder.rglob("SKILL.md")
    }
    excluded = 0
    counts: dict[str, int] = {}
    digests: set[str] = set()
    read = 0
    for path in sorted(args.folder.rglob("SKILL.md")):
        if path.is_symlink():
            continue
        if path.parent.name in excluded_names:
            excluded += 1
            continue
        # The project's own reader (a safe YAML loader; never raises on bad content): a file
        # whose frontmatter does not parse is reported and left out.
        doc = parse_skill(path.parent)
        if not doc.frontmatter_ok:
            print(f"{path}: skipped (its frontmatter does not parse)", file=sys.stderr)
            continue
        description = doc.frontmatter.get("description")
        if not isinstance(description, str) or not description.strip():
            continue
        read += 1
        digests.add(description_digest(description))
        for stem in description_stems(description):
            counts[stem] = counts.get(stem, 0) + 1
    # The collection's licence notice travels with the counts taken from it.
    notice = next(
        (
            f.read_text(encoding="utf-8").strip()
            for f in (args.folder / n for n in ("LICENSE", "LICENSE.md", "LICENSE.txt"))
            if f.is_file() and not f.is_symlink()
        ),
        None,
    )
    table = {
        "source": args.source,
        "licence": notice,
        "descriptions": read,
        "left_out": excluded,
        "counts": dict(sorted(counts.items())),
        "digests": sorted(digests),
    }
    args.out.write_text(json.dumps(table, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{read} descriptions, {len(counts)} words ({excluded} skills left out) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
