"""The API key never enters the program: every string a backend returns is redacted here.

``Redacted`` wraps a backend; each reply (text, tool name, tool input, scores) and each
failure message passes through one ``Redactor`` before anything can cut, cache, store or
print it, so a server that echoes the key (whole, cut, or broken over lines) leaks nothing.

What counts as the key: any run of at least ``MIN_FRAGMENT`` consecutive characters of it
(a prefix, a suffix, any middle), found even when whitespace, or whitespace escaped as
``\\n``, ``\\r`` or ``\\t`` the way a repr or JSON quotes it, breaks it up. Shorter runs are
left alone, so ordinary text is not mangled; a key shorter than ``MIN_FRAGMENT`` is
redacted only whole.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from plugin_eval import budgets, regexes
from plugin_eval.montecarlo.backends.base import Backend, Call, CallFailed, Reply, short

# Eight characters of a random key are 40+ bits of it, and no ordinary word is eight
# characters of a key by chance; fewer would start to redact common fragments.
MIN_FRAGMENT = 8
MARK = "***"

_SEPARATOR = regexes.compile(r"(?:\s|\\[nrt])+")
# Used, three times over, instead of "*" when the key holds a "*": a mark made of the key's
# own characters could complete a fragment with its neighbours.
_SPARE_MARKS = "*#~%" + "".join(map(chr, range(0x2500, 0x2580)))


class Redactor:
    """Removes one API key, and every long enough fragment of it, from text and replies."""

    def __init__(self, key: str | None) -> None:
        secret = _SEPARATOR.sub("", key or "")  # read as the text is: separators left out
        self.width = min(MIN_FRAGMENT, len(secret))
        self._fragments = frozenset(
            secret[i : i + self.width] for i in range(len(secret) - self.width + 1) if secret
        )
        spare = next(c for c in _SPARE_MARKS if c not in secret)
        self.mark = MARK if spare == "*" else spare * len(MARK)

    def text(self, text: str) -> str:
        """The text with every span that spells a fragment of the key replaced by the mark."""
        if not self._fragments or len(text) < self.width:
            return text
        # Match on the text without separators, remembering where each character was.
        where: list[int] = []
        start = 0
        for gap in _SEPARATOR.finditer(text):
            where += range(start, gap.start())
            start = gap.end()
        where += range(start, len(text))
        joined = "".join(text[i] for i in where)
        spans: list[list[int]] = []
        width = self.width
        for i in range(len(joined) - width + 1):
            if joined[i : i + width] in self._fragments:
                if spans and i <= spans[-1][1]:
                    spans[-1][1] = i + width
                else:
                    spans.append([i, i + width])
        if not spans:
            return text
        out: list[str] = []
        end = 0
        for first, stop in spans:
            out += [text[end : where[first]], self.mark]
            end = where[stop - 1] + 1
        out.append(text[end:])
        return "".join(out)

    def value(self, value: Any) -> Any:
        """A JSON-like value (a tool's input) with every string in it, keys too, redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.value(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value

    def reply(self, reply: Reply) -> Reply:
        return replace(
            reply,
            text=self.text(reply.text),
            tool=None if reply.tool is None else self.text(reply.tool),
            tool_input=None if reply.tool_input is None else self.value(reply.tool_input),
            scores={self.text(name): score for name, score in reply.scores.items()},
        )

    def failure(self, failure: CallFailed) -> CallFailed:
        """The same failure with its message redacted, then cut to one short line."""
        return CallFailed(
            failure.kind,
            short(self.text(str(failure))),
            retryable=failure.retryable,
            retry_after=failure.retry_after,
            fatal=failure.fatal,
        )


def reply_chars(reply: Reply) -> int:
    """The characters of a reply's text, tool name and tool arguments (as JSON)."""
    size = len(reply.text) + len(reply.tool or "")
    if reply.tool_input:
        size += len(json.dumps(reply.tool_input, ensure_ascii=False, default=str))
    return size + sum(len(name) for name in reply.scores)


class Redacted:
    """A backend whose replies and failures have passed through a Redactor: the boundary."""

    def __init__(self, backend: Backend, key: str | None) -> None:
        self.backend = backend
        self.redactor = Redactor(key)
        self.name, self.model, self.base_url = backend.name, backend.model, backend.base_url
        self.simulated = backend.simulated
        self.can_answer, self.can_generate = backend.can_answer, backend.can_generate

    async def call(self, call: Call) -> Reply:
        try:
            reply = await self.backend.call(call)
        except CallFailed as err:
            raise self.redactor.failure(err) from None
        except TimeoutError:
            raise
        except Exception as err:  # a reply the backend could not read: its text may quote it
            failed = CallFailed("malformed", f"{type(err).__name__}: {err}")
            raise self.redactor.failure(failed) from None
        size = reply_chars(reply)
        if size > budgets.MODEL_REPLY_CHARS:  # refused before any pass over it
            raise CallFailed(
                "malformed",
                f"the reply has {size:,} characters, more than the {budgets.MODEL_REPLY_CHARS:,} "
                "a run reads (MODEL_REPLY_CHARS)",
            )
        return self.redactor.reply(reply)

    async def aclose(self) -> None:
        await self.backend.aclose()
