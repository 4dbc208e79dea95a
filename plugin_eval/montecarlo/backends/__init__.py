"""One small interface for every backend: a call goes in, a reply (or a CallFailed) comes out."""

from __future__ import annotations

from plugin_eval.montecarlo.backends.base import Backend, BackendUnavailable, load_sdk
from plugin_eval.montecarlo.settings import MonteCarloSettings


def make_backend(settings: MonteCarloSettings) -> Backend:
    """The backend the settings name; raises BackendUnavailable with what to do."""
    if settings.backend == "offline":
        from plugin_eval.montecarlo.backends.offline import OfflineRouter

        return OfflineRouter()
    if settings.backend == "anthropic":
        from plugin_eval.montecarlo.backends.anthropic import AnthropicBackend

        return AnthropicBackend(settings.model_name, settings.base_url, settings.timeout)
    if settings.backend == "openai":
        from plugin_eval.montecarlo.backends.openai import OpenAIBackend

        return OpenAIBackend(settings.model_name, settings.base_url, settings.timeout)
    raise BackendUnavailable(f"unknown backend '{settings.backend}'")


def preflight(settings: MonteCarloSettings) -> None:
    """Fail before any skill is scored when the backend cannot start (no SDK, no key)."""
    if settings.backend != "offline":
        load_sdk(settings.backend, settings.base_url)
