"""plugin-eval beside PluginEval (the published reference), measured in one run on the same skills.

    python bench/bench_vs_plugineval.py [CORPUS] [--skill DIR] [--repeat N] [--score-repeat K]

Two figures, each for both tools, with their ratio:

- the static layer over every SKILL.md under CORPUS in one process (parse and score, depth
  quick): each tool's sweep script runs in a fresh process of its own and times its loop;
  the median of N runs, in ms per skill;
- `score` of one skill as a whole process (`plugin-eval score DIR --depth quick -o json`
  against PluginEval's `plugin-eval score DIR --depth quick --output json`): CPU time of the
  child (user + sys), the median of K runs.

The runs of the two tools alternate, so a drift of the host's speed falls on both; a fixed
pure-Python loop is timed at the start and the end to show how fast the host was.

Both tools run as installed packages, the way their users run them: plugin-eval is installed
from this working tree (non-editable, like PluginEval) into a venv of its own under
~/.cache/plugin-eval-bench/plugin-eval, created on the first run (its dependencies from the
package index) and refreshed from the tree on every run (offline: --no-deps, no build
isolation). An editable install of a development venv spends tens of milliseconds more per
start (its import hook, the test extras' entry points), which no user pays.

CORPUS defaults to ../shared/corpus-real from the repository root, when it exists. PluginEval
(its source in ../shared/anchors/plugineval, or --plugineval-src) needs Python >= 3.12 and is
also called plugin_eval, so it is installed into a venv of its own under
~/.cache/plugin-eval-bench/ (created on the first run, reused after), never into this one.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from calibration import calibration_ms  # bench/ is the script's folder

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "plugin-eval-bench"
SWEPT = re.compile(r"(\d+) skills ([\d.]+) s")


def child_env() -> dict[str, str]:
    # Neither tool may see the other's package through PYTHONPATH; and both run from cached
    # bytecode, as installed tools do (pip compiles PluginEval's; the warm-up run writes ours,
    # with the code of our regexes kept beside it: plugin_eval.regexes).
    hidden = ("PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")
    return {k: v for k, v in os.environ.items() if k not in hidden}


def python_3_12_or_newer() -> str | None:
    """A Python >= 3.12 to build PluginEval's venv with: on PATH, or a pyenv version."""
    candidates = [shutil.which(name) for name in ("python3.13", "python3.12", "python3")]
    pyenv = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    candidates += sorted(glob.glob(f"{pyenv}/versions/3.1[2-9]*/bin/python3"), reverse=True)
    for candidate in filter(None, candidates):
        probe = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info >= (3, 12))"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0 and probe.stdout.strip() == "True":
            return candidate
    return None


def plugineval_venv(venv: Path, source: Path, python: str | None) -> Path:
    """PluginEval's venv, created and installed from ``source`` when not there yet."""
    if (venv / "bin" / "plugin-eval").exists():
        return venv
    if not (source / "pyproject.toml").exists():
        raise SystemExit(f"PluginEval's source is not at {source} (use --plugineval-src)")
    python = python or python_3_12_or_newer()
    if python is None:
        raise SystemExit("PluginEval needs Python >= 3.12 and none was found (use --python)")
    print(f"installing PluginEval from {source} into {venv} with {python} …", file=sys.stderr)
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(source)], check=True, env=child_env()
    )
    return venv


def our_venv(venv: Path) -> Path:
    """plugin-eval installed from this working tree into ``venv`` (created when not there)."""
    python = venv / "bin" / "python"
    fresh = not python.exists()
    if fresh:
        print(f"creating {venv} for plugin-eval …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "setuptools>=68", "wheel"],
            check=True,
            env=child_env(),
        )
    with tempfile.TemporaryDirectory(prefix="plugin-eval-bench-") as tmp:
        # Built from a copy, so the build writes nothing into the working tree (and no build/
        # folder left by an earlier build is installed instead of the tree).
        source = Path(tmp) / "src"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(REPO / name, source / name)
        shutil.copytree(
            REPO / "plugin_eval",
            source / "plugin_eval",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        # The dependencies come from the package index the first time only.
        deps = [] if fresh else ["--no-deps"]
        build = ["--no-build-isolation", "--force-reinstall"]
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", *deps, *build, str(source)],
            check=True,
            env=child_env(),
        )
    return venv


def sweep_ms(command: list[str], skills: int) -> float:
    """Run a sweep script; its own timing of the loop, in ms per skill."""
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, env=child_env(), cwd=CACHE
    )
    match = SWEPT.search(done.stderr)
    if done.returncode != 0 or match is None:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    if int(match.group(1)) != skills:
        raise SystemExit(f"{command[0]} scored {match.group(1)} skills, not {skills}")
    return float(match.group(2)) * 1000 / skills


def process_cpu_ms(command: list[str]) -> tuple[float, int]:
    """CPU time (user + sys) of one child process and the children it waited for, and its exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=child_env()
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        # 1 is a verdict (a threshold not met); anything else is a failure.
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]!r}")
    return cpu * 1000, done.returncode


def alternate(runs: int, measures: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Each measure ``runs`` times, interleaved, after one untimed warm-up run of each."""
    for measure in measures.values():
        measure()
    out: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(runs):
        for name, measure in measures.items():
            out[name].append(measure())
    return out


def show(title: str, unit: str, digits: int, results: dict[str, list[float]]) -> None:
    print(title)
    for name, values in results.items():
        spread = f"min {min(values):.{digits}f}, max {max(values):.{digits}f}"
        print(f"  {name:<12} {statistics.median(values):8.{digits}f} {unit}  ({spread})")
    ours, theirs = (statistics.median(v) for v in results.values())
    faster, times = (
        ("plugin-eval", theirs / ours) if ours <= theirs else ("PluginEval", ours / theirs)
    )
    print(f"  ratio plugin-eval / PluginEval: {ours / theirs:.2f} ({faster} {times:.2f}x as fast)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=SHARED / "corpus-real")
    parser.add_argument("--skill", type=Path, default=REPO / "corpus" / "csv-cleanup")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each sweep")
    parser.add_argument("--score-repeat", type=int, default=10, help="runs of each `score`")
    parser.add_argument("--plugineval-src", type=Path, default=SHARED / "anchors" / "plugineval")
    parser.add_argument(
        "--plugineval-sweep", type=Path, default=SHARED / "anchors" / "plugineval_sweep.py"
    )
    parser.add_argument("--venv", type=Path, default=CACHE / "plugineval")
    parser.add_argument("--python", help="a Python >= 3.12 for PluginEval's venv")
    parser.add_argument("--our-venv", type=Path, default=CACHE / "plugin-eval")
    args = parser.parse_args()

    corpus, skill = args.corpus.resolve(), args.skill.resolve()
    if not corpus.is_dir():
        print(
            f"corpus {corpus} does not exist: pass a folder of skills "
            "(the shared real-world corpus is ../shared/corpus-real from the repository root)",
            file=sys.stderr,
        )
        return 2
    skills = sum(1 for _ in corpus.rglob("SKILL.md"))
    if not skills or not (skill / "SKILL.md").is_file():
        print(f"no SKILL.md under {corpus}, or none in {skill}", file=sys.stderr)
        return 2
    if not args.plugineval_sweep.is_file():
        print(f"PluginEval's sweep script is not at {args.plugineval_sweep}", file=sys.stderr)
        return 2
    CACHE.mkdir(parents=True, exist_ok=True)
    venv = plugineval_venv(args.venv, args.plugineval_src, args.python)
    their_python = str(venv / "bin" / "python")
    ours = our_venv(args.our_venv)
    our_python = str(ours / "bin" / "python")
    our_score = [str(ours / "bin" / "plugin-eval")]

    start_calibration = calibration_ms()
    sweeps = alternate(
        args.repeat,
        {
            "plugin-eval": lambda: sweep_ms(
                [our_python, str(HERE / "bench_static.py"), str(corpus)], skills
            ),
            "PluginEval": lambda: sweep_ms(
                [their_python, str(args.plugineval_sweep.resolve()), str(corpus)], skills
            ),
        },
    )
    exits: dict[str, set[int]] = {"plugin-eval": set(), "PluginEval": set()}

    def score(name: str, command: list[str]) -> Callable[[], float]:
        def run() -> float:
            cpu, code = process_cpu_ms(command)
            exits[name].add(code)
            return cpu

        return run

    scores = alternate(
        args.score_repeat,
        {
            "plugin-eval": score(
                "plugin-eval", [*our_score, "score", str(skill), "--depth", "quick", "-o", "json"]
            ),
            "PluginEval": score(
                "PluginEval",
                [
                    str(venv / "bin" / "plugin-eval"),
                    "score",
                    str(skill),
                    "--depth",
                    "quick",
                    "--output",
                    "json",
                ],
            ),
        },
    )
    end_calibration = calibration_ms()

    print(
        f"calibration loop: {start_calibration:.0f} ms at the start, {end_calibration:.0f} ms "
        "at the end (lower is a faster host)"
    )
    show(
        f"static layer, one process, {skills} skills under {corpus} "
        f"(median of {args.repeat} runs):",
        "ms/skill",
        3,
        sweeps,
    )
    show(
        f"`score {skill} --depth quick`, whole process, CPU user+sys "
        f"(median of {args.score_repeat} runs; exit codes "
        f"{sorted(exits['plugin-eval'])} / {sorted(exits['PluginEval'])}):",
        "ms",
        0,
        scores,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
