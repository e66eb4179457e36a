"""What every inference backend promises, and the prompt rendering the local ones share.

The runner only needs "a batch of conversations in, one completion per conversation out", so
the interface is that and nothing more.  Local backends (vLLM, transformers) render the chat
template themselves through :func:`render_prompt_ids`, so both feed the model the very same
token ids (one BOS, generation prompt added) and their outputs are comparable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...errors import PlanetariumError

Messages = list[dict[str, str]]


class BackendError(PlanetariumError, RuntimeError):
    """Inference failed in a way a rerun may fix (retries exhausted, engine crashed)."""


@dataclass(frozen=True)
class Completion:
    """One model answer; ``error`` is set for a request the server refused for good.

    ``prompt_ids_hash`` fingerprints the token ids the model actually saw (local backends), so a
    changed chat template or tokenizer shows up even when the messages are the same.
    ``token_ids`` are the generated ids, stop token included (local backends): two backends'
    answers can be compared exactly even where their detokenizers differ (vLLM holds back an
    incomplete UTF-8 sequence that transformers decodes as U+FFFD).
    """

    text: str
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    prompt_ids_hash: str | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    error: str | None = None
    token_ids: tuple[int, ...] | None = None


class Backend(Protocol):
    """A model that answers a batch of chats, in order."""

    def generate(self, conversations: Sequence[Messages]) -> list[Completion]: ...

    def close(self) -> None: ...


def render_prompt_ids(tokenizer: Any, messages: Messages) -> list[int]:
    """Token ids of the chat-templated prompt with the generation prompt appended.

    The template already writes the BOS token, so the text is encoded without adding special
    tokens again; a doubled BOS silently degrades Gemma's answers.
    """
    text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def ids_hash(ids: Sequence[int]) -> str:
    """Short SHA-256 of a token-id sequence."""
    return hashlib.sha256(",".join(map(str, ids)).encode("ascii")).hexdigest()[:16]
