"""What the command line asks of the Monte Carlo layer (cheap to import: no scipy, no SDK)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

BACKENDS = ("offline", "anthropic", "openai")
DEPTH_RUNS = {"deep": 50, "thorough": 100}
# The depths with a model layer: the judge (all three) and Monte Carlo (those with runs).
MODEL_DEPTHS = ("standard", "deep", "thorough")
MONTE_CARLO_ONLY = ("--runs", "--ci-width", "--against", "--save-evals")
MAX_JUDGES = 25
DEFAULT_MODELS = {"offline": "bm25", "anthropic": "claude-haiku-4-5", "openai": "gpt-4o-mini"}


def default_cache_path() -> Path:
    """$PLUGIN_EVAL_CACHE_DIR, else $XDG_CACHE_HOME/plugin-eval, else ~/.cache/plugin-eval."""
    base = os.environ.get("PLUGIN_EVAL_CACHE_DIR")
    if base:
        return Path(base) / "responses.sqlite3"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "plugin-eval" / "responses.sqlite3"


@dataclass(frozen=True, repr=False)
class MonteCarloSettings:
    runs: int = 50
    backend: str = "offline"
    model: str | None = None
    base_url: str | None = None
    concurrency: int = 4
    timeout: float = 60.0
    use_cache: bool = True
    cache_path: Path | None = None
    max_cost: float | None = None
    # What the judge spent of --max-cost before this layer: max_cost is what it left.
    spent_before: float = 0.0
    ci_width: float | None = None
    against: Path | None = None
    save_evals: Path | None = None
    price: tuple[float, float] | None = None
    progress: bool = False
    # The judge layer: independent judgements per skill, and the models that give them in
    # turn (none: --model's).
    judges: int = 3
    judge_models: tuple[str, ...] = ()

    @classmethod
    def for_depth(cls, depth: str) -> MonteCarloSettings:
        return cls(runs=DEPTH_RUNS.get(depth, 50))

    @property
    def model_name(self) -> str:
        return self.model or DEFAULT_MODELS[self.backend]


class OptionError(ValueError):
    """A Monte Carlo option that cannot work as given: a usage error."""


def from_options(
    depth: str,
    *,
    runs: int | None = None,
    backend: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    concurrency: int | None = None,
    timeout: float | None = None,
    no_cache: bool = False,
    max_cost: float | None = None,
    price: str | None = None,
    ci_width: float | None = None,
    against: Path | None = None,
    save_evals: Path | None = None,
    progress: bool = False,
    judges: int | None = None,
    judge_models: tuple[str, ...] = (),
) -> MonteCarloSettings | None:
    """Settings for a depth with a model layer (the judge, Monte Carlo), else None; options
    never go unused."""
    given = {
        "--runs": runs,
        "--backend": backend,
        "--model": model,
        "--base-url": base_url,
        "--concurrency": concurrency,
        "--timeout": timeout,
        "--max-cost": max_cost,
        "--price": price,
        "--ci-width": ci_width,
        "--against": against,
        "--save-evals": save_evals,
        "--judges": judges,
        "--judge-model": judge_models or None,
    }
    if depth not in MODEL_DEPTHS:
        used = [name for name, value in given.items() if value is not None]
        if used:
            layers = "Monte Carlo layer" if used[0] in MONTE_CARLO_ONLY else "model layers"
            deeper = "deep or thorough" if used[0] in MONTE_CARLO_ONLY else "standard or deeper"
            raise OptionError(f"{used[0]} is for the {layers}: use --depth {deeper}")
        return None
    if depth not in DEPTH_RUNS:
        used = [name for name in MONTE_CARLO_ONLY if given[name] is not None]
        if used:
            raise OptionError(
                f"{used[0]} is for the Monte Carlo layer: use --depth deep or thorough"
            )
    chosen = backend or "offline"
    if chosen == "offline":
        for name in ("--model", "--base-url", "--price", "--max-cost", "--judges"):
            if given[name] is not None:
                raise OptionError(f"{name} is for --backend anthropic or openai")
        if judge_models:
            raise OptionError("--judge-model is for --backend anthropic or openai")
    if judges is not None and not 1 <= judges <= MAX_JUDGES:
        raise OptionError(f"--judges {judges}: give 1 to {MAX_JUDGES}")
    if against is not None and not against.is_dir():
        raise OptionError(f"--against {against}: not a folder")
    settings = MonteCarloSettings(
        runs=runs or DEPTH_RUNS.get(depth, 0),
        backend=chosen,
        model=model,
        base_url=base_url,
        concurrency=concurrency or 4,
        timeout=timeout or 60.0,
        use_cache=not no_cache,
        max_cost=max_cost,
        ci_width=ci_width,
        against=against,
        save_evals=save_evals,
        price=_price(price) if price is not None else None,
        progress=progress,
        judges=judges or 3,
        judge_models=tuple(judge_models),
    )
    from plugin_eval.montecarlo import costs

    for name in (settings.model_name, *settings.judge_models):
        if max_cost is not None and (settings.price or costs.price_of(chosen, name)) is None:
            raise OptionError(
                f"--max-cost: no price is known for model '{name}'; "
                "give one with --price IN,OUT (USD per million tokens)"
            )
    return settings


def _price(text: str) -> tuple[float, float]:
    try:
        tokens_in, tokens_out = (float(x) for x in text.split(","))
    except ValueError:
        raise OptionError(
            f"--price {text}: give USD per million input and output tokens, e.g. 1,5"
        ) from None
    if tokens_in < 0 or tokens_out < 0:
        raise OptionError(f"--price {text}: prices cannot be negative")
    return tokens_in, tokens_out
