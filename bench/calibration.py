"""How fast the host is right now: a fixed pure-Python loop, timed (shared hosts drift)."""

from __future__ import annotations

import time


def calibration_ms() -> float:
    """Milliseconds for the same loop every time: lower is a faster host."""
    start = time.perf_counter()
    total = 0
    for i in range(3_000_000):
        total += i * i % 7
    return (time.perf_counter() - start) * 1000
