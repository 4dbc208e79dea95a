"""Calls to a backend: concurrency, retries with backoff, a timeout, the cache, the budget.

Rate limits (429), server errors (5xx, 408, 409) and dropped connections are retried up
to MAX_ATTEMPTS times, waiting what the server asks (``retry-after``) or an exponential
backoff. Timeouts and malformed replies are not retried: they count as failures.
An authentication error, an unknown model, or an endpoint that cannot be reached before
any call succeeded stops the layer (BackendBroken).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from plugin_eval.errors import Explained
from plugin_eval.montecarlo import costs
from plugin_eval.montecarlo.backends.base import Backend, Call, CallFailed, Reply, public_url
from plugin_eval.montecarlo.cache import ResponseCache, cache_key
from plugin_eval.montecarlo.results import Usage

MAX_ATTEMPTS = 4
BACKOFF_SECONDS = 0.5
MAX_WAIT_SECONDS = 30.0


class BackendBroken(Explained):
    """The backend refuses every call (bad key, unknown model): nothing to measure."""


@dataclass(frozen=True, repr=False)
class Outcome:
    reply: Reply | None
    error: str | None = None
    message: str | None = None
    cached: bool = False
    skipped: bool = False  # never made: --max-cost was reached


class Runner:
    def __init__(
        self,
        backend: Backend,
        *,
        concurrency: int,
        timeout: float,
        cache: ResponseCache | None,
        price: tuple[float, float] | None,
        max_cost: float | None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.backend = backend
        self.timeout = timeout
        self.cache = cache
        self.price = price
        self.max_cost = max_cost
        self._sleep = sleep
        self._slots = asyncio.Semaphore(max(1, concurrency))
        self.calls = self.backend_calls = self.cached_calls = self.retries = 0
        self.input_tokens = self.output_tokens = 0
        self.spent = 0.0
        self.saved = 0.0
        self.messages: list[str] = []

    def budget_left(self) -> bool:
        return self.max_cost is None or self.spent < self.max_cost

    async def run(self, call: Call) -> Outcome:
        key = None
        if self.cache is not None:
            key = cache_key(
                self.backend.name, self.backend.model, public_url(self.backend.base_url), call
            )
            hit = self.cache.get(key)
            if hit is not None:
                self.cached_calls += 1
                self._count(hit, fresh=False)
                return Outcome(hit, cached=True)
        if not self.budget_left():
            return Outcome(None, skipped=True)
        async with self._slots:
            failure: CallFailed | None = None
            for attempt in range(MAX_ATTEMPTS):
                self.backend_calls += 1
                try:
                    reply = await asyncio.wait_for(self.backend.call(call), self.timeout)
                except TimeoutError:
                    failure = CallFailed("timeout", f"no reply within {self.timeout:g} s")
                except CallFailed as err:
                    failure = err
                else:
                    self._count(reply, fresh=True)
                    if self.cache is not None and key is not None:
                        self.cache.put(key, reply)
                    return Outcome(reply)
                if failure.fatal:
                    raise BackendBroken(str(failure))
                if not failure.retryable or attempt == MAX_ATTEMPTS - 1:
                    break
                self.retries += 1
                wait = failure.retry_after
                if wait is None:
                    wait = BACKOFF_SECONDS * 2**attempt
                await self._sleep(min(wait, MAX_WAIT_SECONDS))
        assert failure is not None
        if failure.kind == "connection" and self.calls == 0:
            raise BackendBroken(f"cannot reach the backend: {failure}")
        self.messages.append(f"{failure.kind}: {failure}")
        return Outcome(None, error=failure.kind, message=str(failure))

    def _count(self, reply: Reply, fresh: bool) -> None:
        self.calls += 1
        tokens_in, tokens_out = reply.input_tokens or 0, reply.output_tokens or 0
        self.input_tokens += tokens_in
        self.output_tokens += tokens_out
        spent = costs.cost(self.price, tokens_in, tokens_out) or 0.0
        if fresh:
            self.spent += spent
        else:
            self.saved += spent

    def usage(self) -> Usage:
        known = self.price is not None
        return Usage(
            calls=self.calls,
            backend_calls=self.backend_calls,
            cached_calls=self.cached_calls,
            retries=self.retries,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cost_usd=round(self.spent, 6) if known else None,
            saved_by_cache_usd=round(self.saved, 6) if known else None,
            price_per_mtok=self.price,
        )
