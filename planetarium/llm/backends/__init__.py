"""Inference backends behind one small interface; each imports its heavy stack lazily."""

from __future__ import annotations

from ..options import ModelConfig
from .base import Backend, BackendError, Completion, Messages
from .registry import BackendSpec, get_backend, register_backend

__all__ = ["Backend", "BackendError", "BackendSpec", "Completion", "Messages", "get_backend",
           "make_backend", "register_backend"]


def make_backend(options: ModelConfig, model: str) -> Backend:
    """The backend named in ``options``, loading ``model`` (a resolved local path or hub id)."""
    return get_backend(options.backend).load(options, model)
