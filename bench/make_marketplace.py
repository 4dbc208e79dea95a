"""Write a synthetic marketplace of N skills (plugins with skills, agents and commands, plus
loose skills), deterministic for a given seed, for scale benchmarks.

    python bench/make_marketplace.py 100000 /tmp/market [--seed 7] [--skills-per-plugin 5]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

TOPICS = [
    "csv",
    "sql",
    "http",
    "git",
    "docker",
    "latex",
    "pdf",
    "react",
    "kafka",
    "redis",
    "terraform",
    "pandas",
    "regex",
    "oauth",
    "grpc",
    "yaml",
    "bash",
    "rust",
    "go",
    "kotlin",
]
ACTIONS = [
    "cleaning",
    "reviewing",
    "migrating",
    "profiling",
    "testing",
    "documenting",
    "securing",
    "debugging",
    "deploying",
    "formatting",
    "validating",
    "merging",
]
OBJECTS = [
    "exports",
    "schemas",
    "queries",
    "pipelines",
    "configs",
    "release notes",
    "APIs",
    "dashboards",
    "fixtures",
    "indexes",
    "logs",
    "reports",
]


def skill_md(rng: random.Random, name: str) -> str:
    topic = rng.choice(TOPICS)
    contexts = rng.sample([f"{a} {topic} {o}" for a in ACTIONS for o in OBJECTS], rng.randint(0, 4))
    trigger = (
        f" Use when {', '.join(contexts[:-1])} or {contexts[-1]}."
        if len(contexts) > 1
        else (f" Use when {contexts[0]}." if contexts else "")
    )
    description = f"Helps with {topic} work for {rng.choice(OBJECTS)}.{trigger}"
    if rng.random() < 0.02:
        description = "broken: yaml: here"  # an invalid YAML line now and then
    body = [f"# {name}", "", f"Work on {topic} {rng.choice(OBJECTS)} step by step.", ""]
    if rng.random() < 0.5:
        body += [
            "## Input",
            "",
            "- `path`: the file to read.",
            "",
            "## Output",
            "",
            "```json",
            '{"status": "ok", "changes": []}',
            "```",
            "",
        ]
    for step in range(rng.randint(2, 12)):
        body += [
            f"## Step {step + 1}",
            "",
            f"Run the {rng.choice(ACTIONS)} pass on each "
            f"{rng.choice(OBJECTS)}. Keep a log of what changed.",
            "",
        ]
        if rng.random() < 0.4:
            body += ["```bash", f"{topic}-tool --check item-{step}", "```", ""]
    if rng.random() < 0.3:
        body += ["See [the guide](references/guide.md) for details.", ""]
    if rng.random() < 0.1:
        body += ["Also read [missing](references/missing.md).", ""]
    return f"---\nname: {name}\ndescription: {description}\n---\n\n" + "\n".join(body)


def write_skill(folder: Path, rng: random.Random) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(skill_md(rng, folder.name), encoding="utf-8")
    if rng.random() < 0.3:
        (folder / "references").mkdir(exist_ok=True)
        (folder / "references" / "guide.md").write_text("# Guide\n\nDetails.\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("skills", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skills-per-plugin", type=int, default=5)
    parser.add_argument("--loose-share", type=float, default=0.5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    loose = int(args.skills * args.loose_share)
    in_plugins = args.skills - loose
    plugins = (in_plugins + args.skills_per_plugin - 1) // args.skills_per_plugin
    made = 0
    for p in range(plugins):
        root = args.out / "plugins" / f"plugin-{p:06d}"
        (root / ".claude-plugin").mkdir(parents=True, exist_ok=True)
        manifest = {"name": f"plugin-{p:06d}", "version": "1.0.0", "description": "Synthetic."}
        (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest), encoding="utf-8")
        (root / "agents").mkdir(exist_ok=True)
        (root / "agents" / "helper.md").write_text(
            "---\nname: helper\ndescription: Use PROACTIVELY when the user asks for a review.\n"
            "tools: Read, Grep\nmodel: inherit\n---\n\nReview the files.\n",
            encoding="utf-8",
        )
        for s in range(min(args.skills_per_plugin, in_plugins - made)):
            write_skill(root / "skills" / f"skill-{p:06d}-{s}", rng)
            made += 1
    for s in range(loose):
        write_skill(args.out / "skills" / f"{s // 1000:03d}" / f"loose-{s:06d}", rng)
    print(f"wrote {args.skills} skills ({plugins} plugins, {loose} loose) under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
