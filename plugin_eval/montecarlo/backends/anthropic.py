"""The anthropic backend: the official SDK and the Messages API.

Routing offers one tool per candidate skill (its name and description, as Claude Code
lists skills) plus "none", with ``tool_choice: any`` so the model must choose.
"""

from __future__ import annotations

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


class AnthropicBackend:
    name = "anthropic"
    simulated = False
    can_answer = True
    can_generate = True

    def __init__(
        self, sdk: Any, key: str | None, model: str, base_url: str | None, timeout: float
    ) -> None:
        self.model = model
        self.base_url = base_url
        self._sdk = sdk
        # Retries are ours (runner.py): one policy, counted in the report.
        self._client = sdk.AsyncAnthropic(
            api_key=key or "not-needed",
            base_url=base_url,
            max_retries=0,
            timeout=timeout,
            http_client=bounded_http_client(sdk, budgets.MODEL_REPLY_BYTES),
        )

    async def call(self, call: Call) -> Reply:
        sdk = self._sdk
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": call.max_tokens,
            "messages": [{"role": "user", "content": call.prompt}],
        }
        if call.system:
            params["system"] = call.system
        if call.tools:
            params["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": dict(t.schema)}
                for t in call.tools
            ]
            params["tool_choice"] = (
                {"type": "tool", "name": call.force_tool} if call.force_tool else {"type": "any"}
            )
        message = await sdk_request(sdk, self._client.messages.create(**params))
        return _reply(message)

    async def aclose(self) -> None:
        await self._client.close()


def _reply(message: object) -> Reply:
    content = getattr(message, "content", None)
    if not isinstance(content, list):
        raise CallFailed("malformed", "the reply has no content blocks")
    text: list[str] = []
    tool: str | None = None
    tool_input: dict[str, Any] | None = None
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "text":
            text.append(str(getattr(block, "text", "") or ""))
        elif kind == "tool_use" and tool is None:
            name = getattr(block, "name", None)
            if not isinstance(name, str) or not name:
                raise CallFailed("malformed", "a tool_use block without a tool name")
            tool = name
            given = getattr(block, "input", None)
            tool_input = given if isinstance(given, dict) else None
    usage = getattr(message, "usage", None)
    return Reply(
        text="".join(text),
        tool=tool,
        tool_input=tool_input,
        input_tokens=token_count(getattr(usage, "input_tokens", None)),
        output_tokens=token_count(getattr(usage, "output_tokens", None)),
    )
