"""Messages of the training stack that read as breakage and are not, dropped by exact message.

* bitsandbytes logs a WARNING on import, ``Failed to load CPU gemm_4bit_forward from
  kernels-community: No module named 'kernels'. Please make sure you already `pip install
  kernels` ...``: an optional CPU kernel that the ``kernels`` package would fetch from the Hugging
  Face Hub is absent, and bitsandbytes uses its own CPU code instead (4-bit training on a CPU
  works either way).  Every command that imports transformers' training side, peft or trl
  printed it.
* transformers 5.23 renamed gradient checkpointing "activation checkpointing"; peft and trl read
  the old ``is_gradient_checkpointing`` property on every run, and each read warns
  (``FutureWarning``).  Our own calls use the new names where the installed transformers has them
  (:func:`checkpointing_arguments`).

Nothing else is filtered: other warnings of these libraries still show.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_BNB_LOGGER = "bitsandbytes.backends.cpu.ops"
_BNB_KERNELS = "Failed to load CPU gemm_4bit_forward from kernels-community"
#: FutureWarnings of transformers' checkpointing rename that other libraries trigger.
_RENAMED_PROPERTY = r"`is_gradient_checkpointing` is deprecated"


class _DropMissingKernels(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(_BNB_KERNELS)


_FILTER = _DropMissingKernels()


def quiet_bitsandbytes() -> None:
    """Drop bitsandbytes' missing-``kernels`` warning (module docstring); call before anything
    imports bitsandbytes (transformers' training side, peft, trl).  Idempotent and cheap: the
    filter sits on the logger by name, so bitsandbytes need not be imported yet."""
    logger = logging.getLogger(_BNB_LOGGER)
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)


@contextmanager
def checkpointing_renames_silenced() -> Iterator[None]:
    """Run a block (a trainer's ``train()``, model preparation) without the FutureWarning that
    peft and trl trigger by reading ``is_gradient_checkpointing``."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_RENAMED_PROPERTY, category=FutureWarning)
        yield


def checkpointing_arguments(enabled: bool, training_arguments_type: Any) -> dict[str, Any]:
    """``TrainingArguments`` keywords for gradient checkpointing without reentrant autograd
    (which needs no input-grad hook under LoRA), under the names the installed transformers
    takes: ``activation_checkpointing`` from 5.23 on, ``gradient_checkpointing`` before (the
    GPU node's 5.17 knows only that)."""
    import dataclasses

    names = {field.name for field in dataclasses.fields(training_arguments_type)}
    prefix = "activation" if "activation_checkpointing" in names else "gradient"
    return {f"{prefix}_checkpointing": enabled,
            f"{prefix}_checkpointing_kwargs": {"use_reentrant": False}}
