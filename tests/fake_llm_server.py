"""A small HTTP server speaking the Anthropic Messages and OpenAI chat-completions wire formats.

Tool calls included, answers deterministic: a request offering tools is routed to the tool
whose name and description share the most words with the user's message (``none`` under
two), a request forcing ``write_eval_prompts`` gets prompts cut from the description it
quotes, and a plain request gets the three lines of the system prompt (the skill body)
closest to the user's message, unless the body holds blocks fenced as ```` ```json reply ````:
then it gets the one that shares the most words with the message (the first of equals), as
a ```` ```json ```` block. Tests start it on 127.0.0.1 with an ephemeral port; faults
(429 with retry-after, 500, malformed bodies) are queued with ``fail_next``. ``echo`` makes it
a hostile endpoint that puts (a piece of) the API key each request carried into its replies.

A request forcing the judge's ``record_judgement`` tool is a judge call: it is kept apart
(``judge_requests``), never takes a fault queued for the other calls, and gets ``VERDICT``
with a quote cut from the fenced skill, unless ``judge_fail_next`` queued a misbehaviour for
it (an HTTP status, a reply that fails the schema, an invented quote, a band and score that
disagree, a refusal, a reply too slow for the client, or a band shifted up).

Run it for a demo: ``python -m tests.fake_llm_server --port 0`` prints its URLs.
"""

from __future__ import annotations

import argparse
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    "this that with from when what your into have help need please skill used uses about "
    "should would could their there then than them they were been some more most also only "
    "each every over under none".split()
)
GENERATE_TOOL = "write_eval_prompts"
JUDGE_TOOL = "record_judgement"
# The test server's judgement: (band, score) per dimension, the same from every judge.
VERDICT = {
    "triggering_accuracy": (3, 0.72),
    "orchestration_fitness": (2, 0.5),
    "output_quality": (3, 0.65),
    "scope_calibration": (4, 0.85),
}
JudgeFaultKind = Literal[
    "status", "bad_schema", "fake_quote", "band_mismatch", "refusal", "slow", "shift"
]


@dataclass(frozen=True)
class JudgeFault:
    kind: JudgeFaultKind
    status: int = 429
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    dimension: str = "output_quality"


def judge(user: str, fault: JudgeFault | None = None) -> dict[str, Any]:
    """The judge tool's arguments for the fenced skill in ``user``."""
    fenced = re.search(r"<<<(SKILL-[0-9a-f]+)\n(.*)\n\1>>>", user, re.S)
    skill = fenced.group(2) if fenced else ""
    lines = [
        line.strip()
        for line in skill.splitlines()
        if len(line.split()) >= 3 and not line.startswith(("===", "---", "- "))
    ]
    quote = lines[0][:80] if lines else "no text"
    out: dict[str, Any] = {
        name: {"band": band, "score": score, "evidence": [quote], "reason": "fake verdict"}
        for name, (band, score) in VERDICT.items()
    }
    if fault is None:
        return out
    target = out[fault.dimension]
    if fault.kind == "bad_schema":
        target["band"] = "high"
    elif fault.kind == "fake_quote":
        target["evidence"] = [quote, "a sentence the skill never wrote"]
    elif fault.kind == "band_mismatch":
        target["score"] = 0.95 if target["band"] < 4 else 0.1
    elif fault.kind == "shift":
        band, score = VERDICT[fault.dimension]
        target["band"], target["score"] = band + 1, round(min(1.0, score + 0.2), 2)
    return out


def words(text: str) -> set[str]:
    """Content words cut to five letters: a crude stem ("cleaning", "cleans" → "clean")."""
    return {w[:5] for w in _WORD.findall(text.lower()) if len(w) > 3 and w not in _STOP}


def route(prompt: str, tools: list[tuple[str, str]]) -> str:
    wanted = words(prompt)
    best, overlap = "none", 1
    for name, description in tools:
        if name == "none":
            continue
        shared = len(wanted & words(f"{name.replace('-', ' ')} {description}"))
        if shared > overlap:
            best, overlap = name, shared
    return best


# A block the answer returns as it is, fenced as JSON (no corpus skill has one).
_JSON_REPLY = re.compile(r"^```json reply\n(.*?)^```", re.M | re.S)


def answer(system: str, prompt: str) -> str:
    wanted = words(prompt)
    replies = _JSON_REPLY.findall(system)
    if replies:
        best = min(range(len(replies)), key=lambda i: (-len(wanted & words(replies[i])), i))
        return f"```json\n{replies[best]}```"
    lines = [line.strip() for line in system.splitlines() if len(line.split()) >= 3]
    ranked = sorted(range(len(lines)), key=lambda i: (-len(wanted & words(lines[i])), i))
    return "\n".join(f"- {lines[i]}" for i in sorted(ranked[:3])) or "I can help with that."


def generate(user: str) -> list[dict[str, Any]]:
    """Prompts cut from the quoted description (should trigger) and the neighbours' (not)."""
    count = int(m.group(1)) if (m := re.search(r"Write (\d+) requests", user)) else 5
    description = m.group(1) if (m := re.search(r"^Description: (.*)$", user, re.M)) else ""
    trigger = re.split(r"\buse when\b", description, flags=re.I)
    clauses = [c.strip(" .") for c in re.split(r"[,.;]| or ", trigger[-1]) if len(c.split()) >= 2]
    out: list[dict[str, Any]] = [
        {"prompt": f"Please help: {c}", "should_trigger": True} for c in clauses[:count]
    ]
    for name, text in re.findall(r"^- ([^:\n]+): (.*)$", user, re.M)[:count]:
        first = re.split(r"\buse when\b", text, flags=re.I)[-1]
        clause = re.split(r"[,.;]| or ", first)[0].strip(" .")
        out.append({"prompt": f"Please help: {clause}", "should_trigger": False, "owner": name})
    return out


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default 5 drops connections under --concurrency 8


@dataclass
class Fault:
    status: int
    body: bytes
    headers: dict[str, str]


@dataclass(frozen=True)
class Echo:
    """Put ``piece(key)`` into every reply: as the message of a JSON error (a 400), as a
    plain-text error body, or in the answer text, the routed tool's name, the first prompt."""

    into: Literal["error", "body", "text", "tool", "prompt"]
    piece: Callable[[str], str]


@dataclass
class FakeLLM:
    """The server and what it saw: (path, parsed body) per request, and their headers."""

    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    faults: deque[Fault] = field(default_factory=deque)
    judge_requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    judge_faults: deque[JudgeFault] = field(default_factory=deque)
    echo: Echo | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.server_address[1])

    @property
    def url(self) -> str:
        """The Anthropic base URL; the OpenAI one is ``url + "/v1"``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, port: int = 0) -> FakeLLM:
        self.server = _Server(("127.0.0.1", port), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def count(self) -> int:
        with self.lock:
            return len(self.requests)

    def reset(self) -> None:
        with self.lock:
            self.requests.clear()
            self.headers.clear()
            self.faults.clear()
            self.judge_requests.clear()
            self.judge_faults.clear()
            self.echo = None

    def fail_next(
        self,
        status: int = 429,
        times: int = 1,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """The next ``times`` requests get this status and body instead of an answer."""
        payload = body if body is not None else json.dumps(_error(status)).encode()
        with self.lock:
            for _ in range(times):
                self.faults.append(Fault(status, payload, dict(headers or {})))

    def judge_fail_next(self, *faults: JudgeFault) -> None:
        """The next judge calls misbehave as given, one fault each, in order."""
        with self.lock:
            self.judge_faults.extend(faults)


def _forced(body: dict[str, Any]) -> str | None:
    """The tool a request forces, in either wire format."""
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return None
    if choice.get("type") == "tool":
        name = choice.get("name")
    else:
        name = choice.get("function", {}).get("name")
    return name if isinstance(name, str) else None


def _judge_reply(path: str, body: dict[str, Any], fault: JudgeFault | None) -> dict[str, Any]:
    messages = body.get("messages", [])
    user = _text(messages[-1]["content"]) if messages else ""
    said = "I cannot judge this skill." if fault and fault.kind == "refusal" else ""
    arguments = None if said else judge(user, fault)
    tokens = {
        "in": len(user.split()),
        "out": len(json.dumps(arguments).split()) if arguments else 5,
    }
    if path.endswith("/v1/messages"):
        block: dict[str, Any] = (
            {"type": "text", "text": said}
            if arguments is None
            else {"type": "tool_use", "id": "toolu_judge", "name": JUDGE_TOOL, "input": arguments}
        )
        return _messages_reply(body, block, tokens["in"], tokens["out"])
    message: dict[str, Any] = {"role": "assistant", "content": said or None}
    if arguments is not None:
        message["tool_calls"] = [_call(JUDGE_TOOL, json.dumps(arguments))]
    return _chat_reply(body, message, tokens["in"], tokens["out"])


def _messages_reply(
    body: dict[str, Any], block: dict[str, Any], tokens_in: int, tokens_out: int
) -> dict[str, Any]:
    """An Anthropic Messages reply holding one content block."""
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "fake"),
        "content": [block],
        "stop_reason": "tool_use" if block["type"] == "tool_use" else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
    }


def _chat_reply(
    body: dict[str, Any], message: dict[str, Any], tokens_in: int, tokens_out: int
) -> dict[str, Any]:
    """An OpenAI chat-completions reply holding one message."""
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if "tool_calls" in message else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": tokens_in,
            "completion_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        },
    }


def _error(status: int, message: str | None = None) -> dict[str, Any]:
    kind = {429: "rate_limit_error", 500: "api_error", 401: "authentication_error"}.get(
        status, "invalid_request_error"
    )
    return {
        "type": "error",
        "error": {"type": kind, "message": message or f"fake error {status}", "code": kind},
    }


def sent_key(headers: dict[str, str]) -> str:
    """The API key a request carried (``x-api-key``, or ``authorization: Bearer``)."""
    return headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")


def leak(reply: dict[str, Any], into: str, text: str) -> None:
    """Put ``text`` where ``into`` says in an Anthropic or OpenAI reply, in place."""
    if "content" in reply:
        for block in reply["content"]:
            if block["type"] == "text" and into == "text":
                block["text"] += f"\n{text}"
            elif block["type"] == "tool_use" and block["name"] == GENERATE_TOOL:
                if into == "prompt":
                    block["input"]["prompts"][0]["prompt"] += f" {text}"
            elif block["type"] == "tool_use" and into == "tool":
                block["name"] = text
        return
    message = reply["choices"][0]["message"]
    if message["content"] is not None and into == "text":
        message["content"] += f"\n{text}"
    for call in message.get("tool_calls", []):
        function = call["function"]
        if function["name"] != GENERATE_TOOL and into == "tool":
            function["name"] = text
        elif function["name"] == GENERATE_TOOL and into == "prompt":
            arguments = json.loads(function["arguments"])
            arguments["prompts"][0]["prompt"] += f" {text}"
            function["arguments"] = json.dumps(arguments)


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def _anthropic(body: dict[str, Any]) -> dict[str, Any]:
    system = _text(body.get("system", ""))
    user = _text(body["messages"][-1]["content"])
    tools = [(t["name"], t.get("description", "")) for t in body.get("tools", [])]
    choice = body.get("tool_choice") or {}
    if choice.get("type") == "tool" and choice.get("name") == GENERATE_TOOL:
        block: dict[str, Any] = {
            "type": "tool_use",
            "id": "toolu_gen",
            "name": GENERATE_TOOL,
            "input": {"prompts": generate(user)},
        }
        said = json.dumps(block["input"])
    elif tools:
        picked = route(user, tools)
        block = {"type": "tool_use", "id": "toolu_route", "name": picked, "input": {}}
        said = picked
    else:
        said = answer(system, user)
        block = {"type": "text", "text": said}
    return _messages_reply(body, block, len(f"{system} {user}".split()), len(said.split()))


def _openai(body: dict[str, Any]) -> dict[str, Any]:
    messages = body["messages"]
    system = "\n".join(_text(m["content"]) for m in messages if m["role"] == "system")
    user = _text(messages[-1]["content"])
    tools = [
        (t["function"]["name"], t["function"].get("description", "")) for t in body.get("tools", [])
    ]
    choice = body.get("tool_choice")
    forced = choice.get("function", {}).get("name") if isinstance(choice, dict) else None
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if forced == GENERATE_TOOL:
        arguments = json.dumps({"prompts": generate(user)})
        message["tool_calls"] = [_call(GENERATE_TOOL, arguments)]
        said = arguments
    elif tools:
        said = route(user, tools)
        message["tool_calls"] = [_call(said, "{}")]
    else:
        said = answer(system, user)
        message["content"] = said
    return _chat_reply(body, message, len(f"{system} {user}".split()), len(said.split()))


def _call(name: str, arguments: str) -> dict[str, Any]:
    return {
        "id": "call_fake",
        "type": "function",
        "function": {"name": name, "arguments": arguments},
    }


def _handler(state: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in two writes

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            if _forced(body) == JUDGE_TOOL:
                self._judge(body)
                return
            with state.lock:
                state.requests.append((self.path, body))
                state.headers.append({k.lower(): v for k, v in self.headers.items()})
                fault = state.faults.popleft() if state.faults else None
                echo = state.echo
            if fault is not None:
                self._send(fault.status, fault.body, fault.headers)
                return
            key = sent_key({k.lower(): v for k, v in self.headers.items()})
            if echo is not None and echo.into == "error":
                self._send(400, json.dumps(_error(400, echo.piece(key))).encode(), {})
                return
            if echo is not None and echo.into == "body":
                self._send(400, echo.piece(key).encode(), {})
                return
            if self.path.endswith("/v1/messages"):
                reply = _anthropic(body)
            elif self.path.endswith("/chat/completions"):
                reply = _openai(body)
            else:
                self._send(404, json.dumps(_error(404)).encode(), {})
                return
            if echo is not None:
                leak(reply, echo.into, echo.piece(key))
            self._send(200, json.dumps(reply).encode(), {})

        def _judge(self, body: dict[str, Any]) -> None:
            with state.lock:
                state.judge_requests.append((self.path, body))
                fault = state.judge_faults.popleft() if state.judge_faults else None
            if fault is not None and fault.kind == "status":
                self._send(fault.status, json.dumps(_error(fault.status)).encode(), fault.headers)
                return
            if fault is not None and fault.kind == "slow":
                time.sleep(fault.delay)
            reply = _judge_reply(self.path, body, fault)
            with suppress(OSError):  # the client gave up waiting (a "slow" fault)
                self._send(200, json.dumps(reply).encode(), {})

        def _send(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:
            return  # quiet: tests read state.requests instead

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    port = parser.parse_args().port
    server = FakeLLM().start(port)
    print(f"anthropic: --backend anthropic --base-url {server.url}", flush=True)
    print(f"openai:    --backend openai --base-url {server.url}/v1", flush=True)
    try:
        assert server.thread is not None
        server.thread.join()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
