"""Models from the Hugging Face Hub, checked before a local backend loads one.

A Hub model id on an offline machine fails deep inside transformers or vLLM with a long
``OSError`` traceback (or after a minute of connection retries); here it becomes one line that
says what is missing and how to fix it.  Local backends call :func:`load_error` around their
loaders; :func:`check_model` runs before anything is built.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...config import ConfigError
from ...errors import require
from .base import BackendError

_TRUE = {"1", "on", "yes", "true"}


def hub_offline() -> bool:
    """Whether the Hugging Face libraries were told not to use the network."""
    return any(
        os.environ.get(name, "").strip().lower() in _TRUE
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def is_local(model: str) -> bool:
    return Path(model).is_dir()


def is_cached(model: str) -> bool:
    """Whether the Hub cache holds this model id's ``config.json`` (what every load reads)."""
    hub = require("huggingface_hub", "train")
    try:
        return isinstance(hub.try_to_load_from_cache(model, "config.json"), str)
    except ValueError:  # not a valid repo id: certainly not cached
        return False


def offline_message(model: str) -> str:
    """The one line a user sees for a Hub model that cannot be fetched."""
    return (
        f"offline: model {model} is not in the local cache; download it where the Hub is "
        f"reachable ('hf download {model}', then copy the cache or the folder here), or pass "
        "--model with a local model directory"
    )


def check_model(model: str) -> None:
    """Refuse, before building anything, a Hub model id that offline mode cannot load."""
    if hub_offline() and not is_local(model) and not is_cached(model):
        raise ConfigError(offline_message(model) + " (HF_HUB_OFFLINE is set)")


def load_error(model: str, err: Exception) -> BackendError:
    """Wrap a loader's error: the offline line when the model is neither on disk nor cached
    (the Hub could not be reached), else the loader's first line."""
    if not is_local(model) and not is_cached(model):
        return BackendError(offline_message(model) + " (the Hub could not be reached)")
    first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return BackendError(f"cannot load model {model}: {first}")
