"""The openai backend: the official SDK against any OpenAI-compatible endpoint.

Chat completions with one function tool per candidate skill plus "none" and
``tool_choice: required``. ``--base-url`` points it at vLLM, Ollama, llama.cpp's server
or a hosted API; with a base URL and no OPENAI_API_KEY a placeholder key is sent, since
local servers need none.
"""

from __future__ import annotations

import json
from typing import Any

from plugin_eval import budgets
from plugin_eval.montecarlo.backends.base import (
    Call,
    CallFailed,
    Reply,
    bounded_http_client,
    sdk_request,
    token_count,
)


class OpenAIBackend:
    name = "openai"
    simulated = False
    can_answer = True
    can_generate = True

    def __init__(
        self, sdk: Any, key: str | None, model: str, base_url: str | None, timeout: float
    ) -> None:
        self.model = model
        self.base_url = base_url
        self._sdk = sdk
        self._client = sdk.AsyncOpenAI(
            api_key=key or "not-needed",
            base_url=base_url,
            max_retries=0,
            timeout=timeout,
            http_client=bounded_http_client(sdk, budgets.MODEL_REPLY_BYTES),
        )

    async def call(self, call: Call) -> Reply:
        sdk = self._sdk
        messages: list[dict[str, str]] = []
        if call.system:
            messages.append({"role": "system", "content": call.system})
        messages.append({"role": "user", "content": call.prompt})
        params: dict[str, Any] = {"model": self.model, "messages": messages}
        # OpenAI's newer models only take max_completion_tokens; compatible servers all
        # take max_tokens, not all the newer name.
        params["max_tokens" if self.base_url else "max_completion_tokens"] = call.max_tokens
        if call.tools:
            params["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": dict(t.schema),
                    },
                }
                for t in call.tools
            ]
            params["tool_choice"] = (
                {"type": "function", "function": {"name": call.force_tool}}
                if call.force_tool
                else "required"
            )
        completion = await sdk_request(sdk, self._client.chat.completions.create(**params))
        return _reply(completion)

    async def aclose(self) -> None:
        await self._client.close()


def _reply(completion: object) -> Reply:
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise CallFailed("malformed", "the reply has no choices")
    message = getattr(choices[0], "message", None)
    if message is None:
        raise CallFailed("malformed", "the first choice has no message")
    tool: str | None = None
    tool_input: dict[str, Any] | None = None
    calls = getattr(message, "tool_calls", None) or []
    if calls:
        function = getattr(calls[0], "function", None)
        name = getattr(function, "name", None)
        if not isinstance(name, str) or not name:
            raise CallFailed("malformed", "a tool call without a function name")
        tool = name
        try:
            parsed = json.loads(getattr(function, "arguments", None) or "{}")
        except ValueError:
            parsed = None
        tool_input = parsed if isinstance(parsed, dict) else None
    usage = getattr(completion, "usage", None)
    return Reply(
        text=str(getattr(message, "content", None) or ""),
        tool=tool,
        tool_input=tool_input,
        input_tokens=token_count(getattr(usage, "prompt_tokens", None)),
        output_tokens=token_count(getattr(usage, "completion_tokens", None)),
    )
