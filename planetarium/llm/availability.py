"""Is what a run loads actually there?  Checked before any model is built.

Without these checks a missing adapter surfaces as a peft ``ValueError`` after the base model
has loaded, and a Hub model id on an offline machine as a long ``OSError`` traceback (or a
minute of connection retries first).  Here both become one line that says what is missing and
how to fix it.  Which packages a backend needs is asked of its spec (``BackendSpec.requires``);
only the local inference backends load files (:mod:`.backends.hub`), the OpenAI-compatible
backend names a model on a server and is never checked.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..config import ConfigError
from ..errors import MissingExtraError
from .backends.hub import check_model
from .backends.registry import get_backend
from .options import TINY_PREFIX, ModelConfig

ADAPTER_CONFIG = "adapter_config.json"


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


def check_extras(options: ModelConfig) -> None:
    """Refuse a run whose backend's packages are missing, with the ``pip install`` line, before
    the run directory exists (a failed pre-check must leave nothing to block the rerun)."""
    needs = list(get_backend(options.backend).requires)
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
    check_extras(options)
    check_adapter(getattr(options, "adapter", None))
    if get_backend(options.backend).local and not options.model.startswith(TINY_PREFIX):
        check_model(options.model)
