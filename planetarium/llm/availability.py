"""Is what a run loads actually there?  Checked before any model is built.

Without these checks a missing adapter surfaces as a peft ``ValueError`` after the base model
has loaded, and a Hub model id on an offline machine as a long ``OSError`` traceback (or a
minute of connection retries first).  Here both become one line that says what is missing and
how to fix it.  Only the local inference backends load files; the OpenAI-compatible backend
names a model on a server and is never checked.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from ..errors import MissingExtraError, require
from .backends.base import BackendError
from .config import TINY_PREFIX, ConfigError, ModelConfig

ADAPTER_CONFIG = "adapter_config.json"
_TRUE = {"1", "on", "yes", "true"}


def check_adapter(adapter: str | None) -> None:
    """A LoRA adapter must be a directory holding ``adapter_config.json`` (peft's layout)."""
    if adapter is None:
        return
    path = Path(adapter)
    if not (path / ADAPTER_CONFIG).is_file():
        what = "is not a LoRA adapter directory" if path.exists() else "does not exist"
        raise ConfigError(
            f"adapter {adapter} {what} (no {ADAPTER_CONFIG}): train it first with "
            "'planetarium finetune --config finetune/NAME.yaml', which writes OUT_DIR/adapter, "
            "or pass --adapter with the directory of an existing adapter"
        )


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


#: The optional packages each backend imports, with the extra that installs them.
_BACKEND_MODULES = {
    "transformers": (("torch", "train"), ("transformers", "train")),
    "vllm": (("vllm", "vllm"),),
    "openai": (("httpx", "openai"),),
}


def check_extras(options: ModelConfig) -> None:
    """Refuse a run whose backend's packages are missing, with the ``pip install`` line, before
    the run directory exists (a failed pre-check must leave nothing to block the rerun)."""
    needs = list(_BACKEND_MODULES.get(options.backend, ()))
    if getattr(options, "adapter", None):  # only backends that load adapters have the key
        needs.append(("peft", "train"))
    if options.model.startswith(TINY_PREFIX):  # built here with tokenizers and transformers
        needs += [("tokenizers", "train"), ("torch", "train"), ("transformers", "train")]
    for module, extra in needs:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtraError(module, extra)


def check_inputs(options: ModelConfig) -> None:
    """The backend's packages, the adapter, and a Hub model in offline mode (``tiny:`` is built
    locally; a server's model name is not ours to look up)."""
    from .backends.registry import get_backend

    check_extras(options)
    check_adapter(getattr(options, "adapter", None))
    if get_backend(options.backend).local and not options.model.startswith(TINY_PREFIX):
        check_model(options.model)
