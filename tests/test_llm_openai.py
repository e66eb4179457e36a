"""The OpenAI-compatible backend against a real local HTTP server (sockets on 127.0.0.1)."""

from __future__ import annotations

import socket
from dataclasses import replace

import pytest
from llm_fixtures import ChatServer, sections

from planetarium.benchmarks.planetarium.prompts import build_messages
from planetarium.config import ConfigError
from planetarium.llm.backends import BackendError, make_backend
from planetarium.llm.config import make_config


def _config(base_url: str, **extra):
    """The ``model:`` section of an eval config (what a backend is built from)."""
    return make_config(sections("api", backend="openai", dataset="unused", base_url=base_url,
                                backoff_s=0.01, max_new_tokens=50, **extra)).model


def _chats(n: int) -> list:
    return [build_messages(f"problem number {i}", "(define (domain d))") for i in range(n)]


def test_retries_429_and_500_then_succeeds():
    with ChatServer(script=[429, 500]) as server:
        backend = make_backend(_config(server.base_url, concurrency=1), "gpt-x")
        [answer] = backend.generate(_chats(1))
        backend.close()
    assert len(server.requests) == 3
    assert answer.error is None and answer.finish_reason == "stop"
    assert answer.text == _chats(1)[0][0]["content"][:40]
    assert (answer.prompt_tokens, answer.completion_tokens) == (7, 3)
    body = server.requests[-1]["body"]
    assert server.requests[-1]["path"] == "/v1/chat/completions"
    assert body == {
        "model": "gpt-x",
        "messages": _chats(1)[0],
        "max_tokens": 50,
        "temperature": 0.0,
    }


def test_reasoning_model_payload_and_api_key_from_env(monkeypatch):
    monkeypatch.setenv("PLANETARIUM_TEST_KEY", "sekrit")
    config = _config(
        "http://unused",
        api_key_env="PLANETARIUM_TEST_KEY",
        temperature=None,
        use_max_completion_tokens=True,
    )
    with ChatServer() as server:
        backend = make_backend(replace(config, base_url=server.base_url), "o1-mini")
        backend.generate(_chats(1))
    request = server.requests[0]
    assert request["headers"]["Authorization"] == "Bearer sekrit"
    assert "temperature" not in request["body"]
    assert request["body"]["max_completion_tokens"] == 50 and "max_tokens" not in request["body"]


def test_missing_api_key_is_a_config_error(monkeypatch):
    monkeypatch.delenv("PLANETARIUM_TEST_KEY", raising=False)
    with pytest.raises(ConfigError, match="PLANETARIUM_TEST_KEY"):
        make_backend(_config("http://127.0.0.1:9", api_key_env="PLANETARIUM_TEST_KEY"), "m")


def test_concurrent_answers_keep_input_order():
    with ChatServer() as server:
        answers = make_backend(_config(server.base_url, concurrency=4), "m").generate(_chats(12))
    assert [a.text for a in answers] == [c[0]["content"][:40] for c in _chats(12)]
    assert len(server.requests) == 12


def test_client_error_is_recorded_not_retried():
    with ChatServer(script=[400]) as server:
        [answer] = make_backend(_config(server.base_url), "m").generate(_chats(1))
    assert len(server.requests) == 1
    assert answer.text == "" and answer.error.startswith("HTTP 400")


def test_persistent_server_errors_fail_the_batch():
    with ChatServer(script=[503] * 10) as server:
        backend = make_backend(_config(server.base_url, max_retries=2), "m")
        with pytest.raises(BackendError, match="3 attempts.*HTTP 503"):
            backend.generate(_chats(1))
    assert len(server.requests) == 3


def test_connection_errors_are_retried_then_fail():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    backend = make_backend(_config(f"http://127.0.0.1:{port}/v1", max_retries=1), "m")
    with pytest.raises(BackendError, match="ConnectError"):
        backend.generate(_chats(1))


@pytest.mark.parametrize("retry_after", ["-1", "nan", "Wed, 21 Oct 2015 07:28:00 GMT", "0"])
def test_unusable_retry_after_falls_back_to_backoff(retry_after):
    """A negative or NaN Retry-After made ``time.sleep`` raise (found while type-checking); a
    date is not seconds.  Each is retried after the configured backoff instead."""
    with ChatServer(script=[429, 503], retry_after=retry_after) as server:
        [answer] = make_backend(_config(server.base_url, concurrency=1), "m").generate(_chats(1))
    assert len(server.requests) == 3
    assert answer.error is None and answer.text == _chats(1)[0][0]["content"][:40]
