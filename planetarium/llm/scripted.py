"""A scripted OpenAI-compatible chat endpoint, for smoke tests without a model.

``planetarium serve-scripted`` serves it; the tests start it in a thread.  It answers
``POST .../chat/completions`` from a script: a list of HTTP status codes served in order to
successive requests (then 200 forever); a 200 answers ``answer(last user message)`` as one JSON
body or, when the request asks ``stream: true``, as server-sent chunks ending in ``[DONE]`` —
clients that only stream (verifiers' chat program) and clients that never do (our ``openai``
backend) both work against it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..jsonl import JsonLineError, decode, numbered_lines

#: Tokens every answer reports using (a client that counts usage needs some).
USAGE = {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}


def echo(prompt: str) -> str:
    """The default answer: the prompt's first 40 characters (so answers are checkable)."""
    return prompt[:40]


def answers_from(path: str) -> Callable[[str], str]:
    """Answers read from a JSON Lines file of ``{"prompt_contains": TEXT, "answer": TEXT}``:
    the answer of the first line whose text the prompt contains, else :func:`echo`'s."""
    table: list[tuple[str, str]] = []
    with open(path, "rb") as stream:
        lines = [(number, decode(line)) for number, line in numbered_lines(stream, path)]
    for number, row in lines:
        if not (isinstance(row, dict) and isinstance(row.get("prompt_contains"), str)
                and isinstance(row.get("answer"), str)):
            raise JsonLineError(f"{path}:{number}: expected {{\"prompt_contains\": TEXT, "
                                "\"answer\": TEXT}")
        table.append((row["prompt_contains"], row["answer"]))

    def answer(prompt: str) -> str:
        return next((text for key, text in table if key in prompt), echo(prompt))

    return answer


def _chunks(model: str, text: str) -> bytes:
    """One answer as a chat-completions stream: the text, the stop with usage, ``[DONE]``."""
    head = {"id": "chat-1", "object": "chat.completion.chunk", "created": 0, "model": model}
    chunks = [{**head, "choices": [{"index": 0, "finish_reason": None,
                                    "delta": {"role": "assistant", "content": text}}]},
              {**head, "choices": [{"index": 0, "finish_reason": "stop", "delta": {}}],
               "usage": USAGE}]
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


class ChatServer:
    """The endpoint on ``host`` (port ``port``, 0: any free one), serving from a thread.

    Every request body and its headers are kept in ``requests``; ``retry_after``: the
    Retry-After header of every error answer.  A context manager: serving from ``__enter__``
    to ``__exit__``.
    """

    def __init__(self, script: list[int] | None = None,
                 answer: Callable[[str], str] | None = None, retry_after: str | None = None,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self.script = list(script or [])
        self.answer = answer or echo
        self.retry_after = retry_after
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer((host, port), self._handler())
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                status, kind, data = server.respond(
                    self.path, dict(self.headers),
                    self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                if status != 200 and server.retry_after is not None:
                    self.send_header("Retry-After", server.retry_after)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler

    def respond(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, str, bytes]:
        """The status, content type and body answering one request."""
        try:
            body = decode(raw)
            prompt = str(body["messages"][-1]["content"])
        except (JsonLineError, KeyError, IndexError, TypeError):
            message = {"error": {"message": "expected a chat-completions request"}}
            return 400, "application/json", json.dumps(message).encode()
        with self.lock:
            self.requests.append({"path": path, "body": body, "headers": headers})
            status = self.script.pop(0) if self.script else 200
        if status != 200:
            error = {"error": {"message": f"scripted {status}"}}
            return status, "application/json", json.dumps(error).encode()
        text = self.answer(prompt)
        if body.get("stream"):
            return 200, "text/event-stream", _chunks(str(body.get("model", "")), text)
        payload: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "content": text},
                                "finish_reason": "stop"}], "usage": USAGE}
        return 200, "application/json", json.dumps(payload).encode()

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
