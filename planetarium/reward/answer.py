"""The answer text of one completion, as trainers hand completions to a reward.

TRL passes a completion as a string, or in conversational datasets as a list of chat messages
(``{"role": "assistant", "content": ...}``, the content itself possibly a list of typed parts).
Reasoning models write a ``<think> ... </think>`` block first: only the text after the closing
marker is the answer.  A block that opens and never closes means the model ran out of tokens while
thinking — there is no answer, which is graded as unparseable output, never a crash.
"""

from __future__ import annotations

from typing import Any


def opening_marker(closing: str) -> str:
    """``"</think>"`` -> ``"<think>"``: the marker that opens the block ``closing`` closes."""
    return closing.replace("</", "<", 1)


class NotACompletion(ValueError):
    """A value a trainer would never hand over as a completion (the item is invalid input)."""


def completion_text(completion: Any) -> str | None:
    """The text of a completion, or ``None`` when its chat messages hold no assistant text.

    A completion is a string, one message (a dict) or a list or tuple of messages; of a message
    list the last assistant message counts (the generated turn), its content a string or a list
    of ``{"type": "text", "text": ...}`` parts, which are joined.  Anything else — ``None``, a
    number, a generator, a list of non-messages such as a list nested 100,000 deep — raises
    :class:`NotACompletion`.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if not isinstance(completion, (list, tuple)):
        raise NotACompletion(f"a completion must be a string or chat messages, got "
                             f"{type(completion).__name__}")
    for number, message in enumerate(completion):
        if not isinstance(message, dict):
            raise NotACompletion(f"chat messages must be dicts, got {type(message).__name__} "
                                 f"at position {number}")
    replies = [m for m in completion if m.get("role", "assistant") == "assistant"]
    if not replies:
        return None
    content = replies[-1].get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        texts = [p for p in parts if isinstance(p, str)]
        return "".join(texts) if texts else None
    return None


def answer_of(text: str, think_marker: str | None = "</think>") -> tuple[str | None, str]:
    """``(answer, why)``: the text after the last ``think_marker``; ``(None, why)`` when a
    reasoning block opens and never closes.  ``think_marker=None`` takes the whole text."""
    if not think_marker:
        return text, ""
    closed = text.rfind(think_marker)
    if closed >= 0:
        return text[closed + len(think_marker):], ""
    if opening_marker(think_marker) in text:
        return None, (f"no answer: the reasoning block {opening_marker(think_marker)} never "
                      f"closes with {think_marker}")
    return text, ""
