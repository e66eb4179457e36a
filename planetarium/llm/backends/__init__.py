"""Inference backends behind one small interface; each imports its heavy stack lazily."""

from __future__ import annotations

from ..config import EvalConfig
from .base import Backend, BackendError, Completion, Messages

__all__ = ["Backend", "BackendError", "Completion", "Messages", "make_backend"]


def make_backend(config: EvalConfig, model: str) -> Backend:
    """The backend named in ``config``, loading ``model`` (a resolved local path or hub id)."""
    if config.backend == "vllm":
        from .vllm_backend import VLLMBackend

        return VLLMBackend(config, model)
    if config.backend == "transformers":
        from .hf_backend import TransformersBackend

        return TransformersBackend(config, model)
    from .openai_backend import OpenAIBackend

    return OpenAIBackend(config, model)
