"""Token prices, so the report can say what a run cost and --max-cost can stop it.

List prices in US dollars per million tokens (input, output), as published by the
providers in 2025; they change, so ``--price IN,OUT`` overrides them. A model not listed
here has no known price: its cost is reported as unknown, and --max-cost needs --price.
"""

from __future__ import annotations

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4-1": (15.00, 75.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
}


def price_of(backend: str, model: str) -> tuple[float, float] | None:
    """(input, output) dollars per million tokens; the offline router costs nothing."""
    if backend == "offline":
        return (0.0, 0.0)
    # Longest prefix first, so "gpt-4o-mini-2024-07-18" is not priced as "gpt-4o".
    for name in sorted(PRICES_PER_MTOK, key=len, reverse=True):
        if model == name or model.startswith(name + "-"):
            return PRICES_PER_MTOK[name]
    return None


def cost(price: tuple[float, float] | None, input_tokens: int, output_tokens: int) -> float | None:
    if price is None:
        return None
    return (input_tokens * price[0] + output_tokens * price[1]) / 1_000_000
