"""Chat completions over HTTP: OpenAI's API, or any compatible server such as ``vllm serve``.

Plain ``httpx`` keeps the dependency small.  Requests run concurrently in a thread pool; 429,
5xx and connection errors are retried with exponential backoff (honouring ``Retry-After``), and
if they persist the batch fails so a rerun can resume.  Any other 4xx is the server refusing
this prompt for good (e.g. too long): it is recorded as an empty answer with the error, which
is how the paper scores it — wrong.  The API key is read from the environment variable named
in the config when the backend is built, never at import time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ...config import ConfigError, at_least, between, setting
from ...errors import require
from ...limits import MAX_TIMEOUT_S, Stopwatch
from ..options import ModelConfig, speed
from .base import BackendError, Completion, Messages
from .registry import BackendSpec

_RETRY_AFTER_CAP_S = 60.0


def _is_retryable(status: int) -> bool:
    return status == 429 or status >= 500


@dataclass(frozen=True)
class OpenAIOptions(ModelConfig):
    """A chat-completions server: ``base_url`` (required), ``api_key_env`` (the *name* of the
    variable holding the key, read when the run starts, never stored), reasoning models'
    ``use_max_completion_tokens``, and the request pacing."""

    base_url: str = setting("", check=lambda v: None if v else "a server URL")
    api_key_env: str | None = None
    use_max_completion_tokens: bool = False
    concurrency: int = speed(8, at_least(1))
    max_retries: int = speed(6, at_least(0))
    backoff_s: float = speed(1.0, at_least(0))
    request_timeout_s: float = speed(600.0, between(0.001, MAX_TIMEOUT_S))

    def __post_init__(self) -> None:
        if not self.base_url:
            raise ConfigError("the openai backend needs base_url", key="base_url")


class OpenAIBackend:
    """POST ``{base_url}/chat/completions`` once per conversation."""

    def __init__(self, config: OpenAIOptions, model: str) -> None:
        httpx = require("httpx", "openai")
        self.httpx = httpx
        self.config = config
        self.model = model
        headers = {}
        if config.api_key_env:
            key = os.environ.get(config.api_key_env)
            if not key:
                raise ConfigError(f"environment variable {config.api_key_env} is not set")
            headers["Authorization"] = f"Bearer {key}"
        self.client = httpx.Client(
            base_url=config.base_url.rstrip("/"),
            headers=headers,
            timeout=config.request_timeout_s,
        )

    def _payload(self, messages: Messages) -> dict[str, Any]:
        """Reasoning models take ``max_completion_tokens`` and reject a temperature."""
        token_key = (
            "max_completion_tokens" if self.config.use_max_completion_tokens else "max_tokens"
        )
        payload = {"model": self.model, "messages": messages, token_key: self.config.max_new_tokens}
        if self.config.temperature is not None:
            payload["temperature"] = self.config.temperature
        return payload

    def _delay(self, attempt: int, response: Any) -> float:
        retry_after = response.headers.get("retry-after") if response is not None else None
        try:
            seconds = -1.0 if retry_after is None else float(retry_after)
        except ValueError:  # an HTTP date or other text
            seconds = -1.0
        if seconds >= 0:  # not a negative or NaN one, which would make time.sleep raise
            return min(seconds, _RETRY_AFTER_CAP_S)
        return self.config.backoff_s * 2**attempt

    def _post(self, messages: Messages) -> Completion:
        payload = self._payload(messages)
        last_problem = ""
        response = None
        for attempt in range(self.config.max_retries + 1):
            if attempt:
                time.sleep(self._delay(attempt - 1, response))
            watch = Stopwatch()
            try:
                response = self.client.post("/chat/completions", json=payload)
            except self.httpx.TransportError as err:
                response, last_problem = None, f"{type(err).__name__}: {err}"
                continue
            if _is_retryable(response.status_code):
                last_problem = f"HTTP {response.status_code}: {response.text[:200]}"
                continue
            if response.status_code >= 400:
                return Completion(
                    text="", error=f"HTTP {response.status_code}: {response.text[:500]}"
                )
            return self._parse(response, watch.seconds)
        raise BackendError(
            f"{self.config.base_url}: giving up after {self.config.max_retries + 1} attempts; "
            f"last: {last_problem}"
        )

    def _parse(self, response: Any, latency_s: float) -> Completion:
        try:
            body = response.json()
            choice = body["choices"][0]
            message = choice["message"]
        except (ValueError, KeyError, IndexError, TypeError) as err:
            raise BackendError(
                f"{self.config.base_url}: not a chat-completions answer: {response.text[:200]}"
            ) from err
        usage = body.get("usage") or {}
        return Completion(
            text=message.get("content") or "",
            finish_reason=choice.get("finish_reason"),
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            latency_s=latency_s,
        )

    def generate(self, conversations: Sequence[Messages]) -> list[Completion]:
        workers = min(self.config.concurrency, len(conversations))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(self._post, conversations))

    def close(self) -> None:
        self.client.close()


BACKEND = BackendSpec("openai", OpenAIOptions, OpenAIBackend, local=False,
                      requires=(("httpx", "openai"),))
