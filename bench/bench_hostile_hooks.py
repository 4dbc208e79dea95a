"""Time per MB of scoring a plugin whose hooks/hooks.json (or plugin.json, or a command) is
hostile, from 100 KB to 1 MB.

    python bench/bench_hostile_hooks.py [--sizes 100K,300K,900K] [--shapes a,b] [--repeat N]

The hook rules (PE801-PE803) search the file's text for where each event and command is
written, since JSON keeps no positions. Each shape repeats one small unit (an event, a hook
of one event, a plugin path in one command, a variable in one command) until the file has
the size asked for (at most PART_BYTES, 1 MiB, past which the file is not read at all),
then scores the plugin in this process as `plugin-eval score -o json` does and prints the
seconds per MB. Two shapes put their text elsewhere: `manifest-paths` is a plugin.json
naming thousands of missing paths (PE505 places each at its key: 97 s for 326 KB while each
search started from the top), `command-positionals` a command whose code holds `$1` on every
line (PE702: 53 s for 1 MB while each line was counted from the top). One shape is many
files: `agents` is agents of 20 KB each (5 for 100 KB, 45 for 900 KB) whose descriptions say
no trigger, each handing work to the next by name (PE602 looks for every agent's name in
every body: 66 s for 200 agents while it searched each body once per agent). A search that
starts again from the top of the file for each event shows as a time per MB that grows with
the size: 16 s for 1 MB of events before it was made linear.

"Flat" means the largest size's time per MB is within 2x of the smallest's (the `ratio`
column); the script exits 1 when a shape is not flat. Run on purpose, not as a test: the
figures are seconds of this machine, and only their ratios within one run mean anything.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_hostile_sizes import parse_size  # beside this script

from plugin_eval.api import render, score_paths
from plugin_eval.budgets import PART_BYTES

FLAT = 2.0
MANIFEST = '{"name": "hostile-hooks", "version": "1.0.0", "description": "Hook checks."}\n'


def _hook(command: str) -> dict[str, str]:
    return {"type": "command", "command": command}


def _fill(unit: Callable[[int], object], wrap: Callable[[list[object]], object], size: int) -> str:
    """The JSON of ``wrap`` over as many ``unit(i)`` as make about ``size`` bytes (a line
    each: the rules find a line per event and per command)."""

    def text(count: int) -> str:
        return json.dumps({"hooks": wrap([unit(i) for i in range(count)])}, indent=1)

    sample = len(text(100)) / 100
    return text(max(1, int(size / sample)))


def _command(word: Callable[[int], str], size: int) -> str:
    """One Stop hook whose command is as many ``word(i)`` as make about ``size`` bytes."""

    def text(count: int) -> str:
        command = " ".join(word(i) for i in range(count))
        return json.dumps({"hooks": {"Stop": [{"hooks": [_hook(command)]}]}})

    # Words grow with their number: the count is fitted twice.
    count = max(1, int(size / (len(text(1000)) / 1000)))
    return text(max(1, int(0.98 * size / (len(text(count)) / count))))


def _agents(size: int) -> dict[str, str]:
    """Agents of about 20 KB each, as many as make about ``size`` bytes, with descriptions
    that say no trigger; each hands work to the next by name at the end of its body."""
    text = "Some text about work and other things here. " * 450
    count = max(2, round(size / len(text)))
    return {
        f"agents/a{i}.md": f"---\nname: agent-{i}\ndescription: Reviews code.\n---\n\n{text}"
        f"\n\nThen hand off to the `agent-{(i + 1) % count}`.\n"
        for i in range(count)
    }


SHAPES: dict[str, Callable[[int], str | dict[str, str]]] = {
    # Events Claude Code never sends, each with one hook: one event search each.
    "events": lambda size: _fill(
        lambda i: (f"Evt{i:07d}", [{"hooks": [_hook(f"echo {i}")]}]),
        lambda units: dict(units),  # type: ignore[arg-type]
        size,
    ),
    # One event with many hooks, each a command that runs a missing script.
    "commands": lambda size: _fill(
        lambda i: _hook(f"${{CLAUDE_PLUGIN_ROOT}}/s{i}.sh"),
        lambda units: {"PreToolUse": [{"matcher": "Bash", "hooks": units}]},
        size,
    ),
    # One command that names many plugin paths.
    "paths": lambda size: _command(lambda i: f"${{CLAUDE_PLUGIN_ROOT}}/p{i}", size),
    # One command that reads many variables Claude Code never sets.
    "variables": lambda size: _command(lambda i: f"$TOOL_{i}", size),
    # A manifest naming many paths that do not exist (PE505 places each at its key).
    "manifest-paths": lambda size: json.dumps(
        {
            "name": "hostile-hooks",
            "commands": [f"./c{i}.md" for i in range(int(size / 36))],
            "agents": [f"./a{i}.md" for i in range(int(size / 36))],
        },
        indent=1,
    ),
    # A command whose code blocks hold shell's $1 on every line (PE702 places each).
    "command-positionals": lambda size: (
        "---\ndescription: x\n---\n\n```bash\n" + "awk '{print $1}' f\n" * int(size / 19) + "```\n"
    ),
    # Many agents, each named in the body of the one before it (PE602).
    "agents": _agents,
}
# Where each shape's text goes in the plugin, for a shape of one file: hooks/hooks.json
# unless named here.
PLACES = {"manifest-paths": ".claude-plugin/plugin.json", "command-positionals": "commands/a.md"}


def measure(root: Path, shape: str, size: int) -> tuple[float, int]:
    """Seconds to score and render one plugin whose hooks.json (or the shape's files) is
    about ``size`` bytes, and the bytes written."""
    folder = root / shape / str(size) / "hostile-hooks"
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / "hooks").mkdir()
    (folder / ".claude-plugin" / "plugin.json").write_text(MANIFEST, encoding="utf-8")
    made = SHAPES[shape](size)
    files = made if isinstance(made, dict) else {PLACES.get(shape, "hooks/hooks.json"): made}
    written = 0
    for rel, text in files.items():
        data = text.encode("utf-8")
        if len(data) > PART_BYTES:
            raise SystemExit(f"{shape} at {size:,} bytes makes {len(data):,}: over PART_BYTES")
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
        written += len(data)
    start = time.perf_counter()
    render(score_paths([folder]), "json")
    elapsed = time.perf_counter() - start
    shutil.rmtree(folder)
    return elapsed, written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100K,300K,900K")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per size (the fastest counts)")
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
    print(f"{'shape (s/MB)':<14}" + "".join(f"{x:>10}" for x in labels) + "     ratio")
    root = Path(tempfile.mkdtemp(prefix="pe-hooks-"))
    not_flat = []
    try:
        measure(root, shapes[0], sizes[0])  # imports and first-call costs, not timed
        for shape in shapes:
            per_mb = []
            for size in sizes:
                elapsed, written = min(measure(root, shape, size) for _ in range(args.repeat))
                per_mb.append(elapsed / (written / 1e6))
            ratio = per_mb[-1] / per_mb[0]
            if ratio > FLAT:
                not_flat.append(shape)
            print(f"{shape:<14}" + "".join(f"{t:>10.3f}" for t in per_mb) + f"{ratio:>10.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if not_flat:
        print(f"not flat (ratio over {FLAT:g}): {', '.join(not_flat)}")
        return 1
    print(f"flat: every shape's time per MB at {labels[-1]} is within {FLAT:g}x of {labels[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
