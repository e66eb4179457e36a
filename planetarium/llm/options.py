"""The ``model:`` options every backend takes, apart from the eval config that holds them.

A backend's options class subclasses :class:`ModelConfig`; the backends registry names those
classes, and :mod:`planetarium.llm.config` asks the registry which class a ``model:`` section
selects.  Keeping the options here (below both) is what lets the config ask the registry without
the registry importing the config back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import Check, at_least, setting

TINY_PREFIX = "tiny:"


def _model_name(value: str) -> str | None:
    """``tiny:`` takes an optional integer seed (``tiny:3``); anything else is a path or hub id."""
    if not value:
        return "a model path, hub id or tiny:[SEED]"
    if value.startswith(TINY_PREFIX) and not (value[len(TINY_PREFIX):] or "0").isdigit():
        return "tiny: followed by nothing or an integer seed (tiny:, tiny:3)"
    return None


def speed(default: Any, check: Check | None = None) -> Any:
    """A field that affects throughput only, left out of the config hash."""
    return setting(default, check=check, affects_output=False)


@dataclass(frozen=True)
class ModelConfig:
    """The ``model:`` options every backend takes; a backend subclasses it with its own."""

    backend: str = setting(check=lambda v: None if v else "a registered backend name")
    model: str = setting(check=_model_name)
    max_new_tokens: int = setting(1024, check=at_least(1))
    temperature: float | None = setting(0.0, check=at_least(0))
    seed: int = 0
    batch_size: int = speed(8, at_least(1))
