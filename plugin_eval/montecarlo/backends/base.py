"""What every backend shares: calls, replies, failures, and the SDK loader."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from plugin_eval.textsearch import one_line

_T = TypeVar("_T")

NONE_TOOL = "none"
NONE_DESCRIPTION = (
    "No listed skill fits this request: choose this to answer the user directly without a skill."
)
EMPTY_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True, repr=False)
class Tool:
    name: str
    description: str
    schema: Mapping[str, Any] = field(default_factory=lambda: EMPTY_SCHEMA)


@dataclass(frozen=True, repr=False)
class Call:
    """One request. ``sample`` numbers repeats of the same request, so each is a new draw."""

    kind: Literal["route", "answer", "generate", "judge"]
    prompt: str
    system: str = ""
    tools: tuple[Tool, ...] = ()
    force_tool: str | None = None
    max_tokens: int = 1024
    sample: int = 0

    def key_fields(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "prompt": self.prompt,
            "system": self.system,
            "tools": [[t.name, t.description, dict(t.schema)] for t in self.tools],
            "force_tool": self.force_tool,
            "max_tokens": self.max_tokens,
            "sample": self.sample,
        }


@dataclass(frozen=True, repr=False)
class Reply:
    text: str
    tool: str | None = None
    tool_input: Mapping[str, Any] | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    # What the router saw, when it can say (the offline router's match per candidate).
    scores: Mapping[str, float] = field(default_factory=dict)


class CallFailed(Exception):
    """A call that produced no usable reply: rate limit, server error, timeout, malformed…"""

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
        fatal: bool = False,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retryable = retryable
        self.retry_after = retry_after
        self.fatal = fatal


class BackendUnavailable(Exception):
    """The backend cannot start: SDK not installed, no API key. A usage error."""


class Backend(Protocol):
    name: str
    model: str
    base_url: str | None
    simulated: bool
    can_answer: bool
    can_generate: bool

    async def call(self, call: Call) -> Reply: ...

    async def aclose(self) -> None: ...


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Seconds a server asks us to wait (``retry-after-ms`` or ``retry-after`` in seconds)."""
    if not headers:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * scale)
        except ValueError:
            continue  # an HTTP date: fall back to our own backoff
    return None


def public_url(url: str | None) -> str | None:
    """A base URL without user:password or query string: safe to print and report."""
    if not url:
        return None
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def status_failure(status: int, message: str, headers: Mapping[str, str] | None) -> CallFailed:
    """What an HTTP error status means for the run: retry, count as a failure, or stop."""
    if status == 429:
        return CallFailed(
            "rate_limit",
            f"HTTP 429: {message}",
            retryable=True,
            retry_after=retry_after_seconds(headers),
        )
    if status in (408, 409) or status >= 500:
        return CallFailed(
            "server_error",
            f"HTTP {status}: {message}",
            retryable=True,
            retry_after=retry_after_seconds(headers),
        )
    if status in (401, 403):
        return CallFailed("auth", f"HTTP {status}: the endpoint refused the API key", fatal=True)
    if status == 404:
        return CallFailed(
            "not_found", f"HTTP 404 (wrong --base-url or --model?): {message}", fatal=True
        )
    return CallFailed("client_error", f"HTTP {status}: {message}")


async def sdk_request(sdk: Any, request: Awaitable[_T]) -> _T:
    """Await one SDK request, turning the SDK's errors into CallFailed.

    The Anthropic and OpenAI SDKs share their exception classes' names and fields, so one
    translation serves both. Messages are kept whole: ``redaction.Redacted`` removes the
    key from them before they are cut.
    """
    try:
        return await request
    except sdk.APIStatusError as err:
        raise status_failure(err.status_code, err.message, err.response.headers) from None
    except sdk.APITimeoutError:
        raise CallFailed("timeout", "the request timed out") from None
    except sdk.APIConnectionError as err:
        raise CallFailed("connection", str(err), retryable=True) from None
    except (sdk.APIError, ValueError, TypeError, KeyError) as err:
        raise CallFailed("malformed", str(err)) from None


def short(text: str, width: int = 200) -> str:
    return one_line(str(text), width)


SDKS = {"anthropic": ("anthropic", "ANTHROPIC_API_KEY"), "openai": ("openai", "OPENAI_API_KEY")}


def load_sdk(backend: str, base_url: str | None) -> tuple[Any, str | None]:
    """The backend's SDK module and API key; BackendUnavailable when either is missing.

    Without a key, a --base-url (a local or self-hosted server) is enough.
    """
    import importlib
    import os

    module, variable = SDKS[backend]
    try:
        sdk = importlib.import_module(module)
    except ImportError as err:
        raise BackendUnavailable(
            f'the {backend} backend needs its SDK: pip install "plugin-eval[{module}]"'
        ) from err
    # White space around the key (a newline pasted with it) is no part of it; inside it, or a
    # control character anywhere, makes a header the HTTP client refuses before any request,
    # which the SDK would report as a connection error. Said here, without the key.
    key = (os.environ.get(variable) or "").strip() or None
    if key is not None and any(c.isspace() or not c.isprintable() for c in key):
        raise BackendUnavailable(
            f"{variable} holds white space or a control character inside the key; set it to "
            "the key alone"
        )
    if key is None and base_url is None:
        raise BackendUnavailable(
            f"the {backend} backend needs {variable}, or --base-url for a local server"
        )
    return sdk, key


def bounded_http_client(sdk: Any, limit: int) -> Any:
    """The HTTP client an SDK is given: its default one, over a transport that asks for no
    compression and reads at most ``limit`` bytes of a reply's body. A body that is
    compressed anyway is passed on as it came (the SDK cannot read it: a malformed reply), and
    one that runs past ``limit`` is cut there (the same), so an endpoint that sends a gzip
    bomb or gigabytes costs ``limit`` bytes, not the reply's size."""
    import importlib

    client_class = sdk.DefaultAsyncHttpxClient
    base = next(k for k in client_class.__mro__ if k.__name__ == "AsyncClient")
    http = importlib.import_module(base.__module__.split(".")[0])

    class Capped(http.AsyncByteStream):  # type: ignore[misc, name-defined]
        def __init__(self, stream: Any) -> None:
            self._stream = stream

        async def __aiter__(self) -> Any:
            left = limit
            async for chunk in self._stream:
                if left <= 0:
                    break
                yield chunk[:left]
                left -= len(chunk)

        async def aclose(self) -> None:
            await self._stream.aclose()

    class Bounded(http.AsyncBaseTransport):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            self._inner = http.AsyncHTTPTransport()

        async def handle_async_request(self, request: Any) -> Any:
            request.headers["Accept-Encoding"] = "identity"
            response = await self._inner.handle_async_request(request)
            headers = [
                (name, value)
                for name, value in response.headers.raw
                if name.lower() not in (b"content-encoding", b"content-length")
            ]
            return http.Response(
                response.status_code,
                headers=headers,
                stream=Capped(response.stream),
                extensions=response.extensions,
            )

        async def aclose(self) -> None:
            await self._inner.aclose()

    return client_class(transport=Bounded())


# More tokens than any call could use: a count past it is not a count (10**400 would
# overflow every float it meets).
MOST_TOKENS = 10**9


def token_count(value: object) -> int | None:
    """A usage figure of a reply as a count of tokens, or None (unknown) where it is none: not
    a whole number (``true`` is not 1), negative, or past MOST_TOKENS."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MOST_TOKENS else None
