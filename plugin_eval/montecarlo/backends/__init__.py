"""One small interface for every backend: a call goes in, a reply (or a CallFailed) comes out."""

from __future__ import annotations

from plugin_eval.montecarlo.backends.base import SDKS, Backend, BackendUnavailable, load_sdk
from plugin_eval.montecarlo.settings import MonteCarloSettings


def make_backend(settings: MonteCarloSettings) -> Backend:
    """The backend the settings name; raises BackendUnavailable with what to do.

    A backend that holds an API key is returned wrapped in ``Redacted``, which loads the key
    here: whatever comes back from the API is redacted before the program sees it.
    """
    if settings.backend == "offline":
        from plugin_eval.montecarlo.backends.offline import OfflineRouter

        return OfflineRouter()
    if settings.backend not in SDKS:
        raise BackendUnavailable(f"unknown backend '{settings.backend}'")
    sdk, key = load_sdk(settings.backend, settings.base_url)
    model, url, timeout = settings.model_name, settings.base_url, settings.timeout
    if settings.backend == "anthropic":
        from plugin_eval.montecarlo.backends.anthropic import AnthropicBackend

        backend: Backend = AnthropicBackend(sdk, key, model, url, timeout)
    else:
        from plugin_eval.montecarlo.backends.openai import OpenAIBackend

        backend = OpenAIBackend(sdk, key, model, url, timeout)
    from plugin_eval.montecarlo.backends.redaction import Redacted

    return Redacted(backend, key)


def preflight(settings: MonteCarloSettings) -> None:
    """Fail before any skill is scored when the backend cannot start (no SDK, no key)."""
    if settings.backend != "offline":
        load_sdk(settings.backend, settings.base_url)
