"""Finding inference backends: built-ins and plug-ins, through the ``planetarium.backends`` group.

A backend is one module exposing a :class:`BackendSpec`: its name (what ``model.backend``
selects), its options (a :class:`~planetarium.llm.options.ModelConfig` subclass: the keys its
``model:`` section may hold, checked before anything loads), the class that loads it and the
optional packages it imports (checked before a run folder is made); plus one registration, an
entry point in the ``planetarium.backends`` group or :func:`register_backend` at run time.  The
built-ins are declared the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ...plugins import Registry
from ..options import ModelConfig
from .base import Backend

ENTRY_POINT_GROUP = "planetarium.backends"
BUILTINS = {
    "vllm": "planetarium.llm.backends.vllm_backend:BACKEND",
    "transformers": "planetarium.llm.backends.hf_backend:BACKEND",
    "openai": "planetarium.llm.backends.openai_backend:BACKEND",
}

#: A backend's own options class (its ``load`` takes exactly those).
OptionsT = TypeVar("OptionsT", bound=ModelConfig)


@dataclass(frozen=True)
class BackendSpec(Generic[OptionsT]):
    """``load(options, model)`` builds the backend for a resolved model path or id;
    ``local``: it loads weights from disk or the Hub (so ``tiny:`` is built for it and a Hub id
    is checked before loading), unlike a server that names its own models; ``requires``: the
    optional packages ``load`` imports, each with the extra that installs it (``eval run``
    refuses a run whose packages are missing, naming the ``pip install`` line, before anything
    is written)."""

    name: str
    options: type[OptionsT]
    load: Callable[[OptionsT, str], Backend]
    local: bool = True
    requires: tuple[tuple[str, str], ...] = ()


# Any: the registry holds backends with different options classes; each spec's ``load`` gets an
# instance of its own ``options`` (built by ``llm.config`` from that class).
REGISTRY: Registry[BackendSpec[Any]] = Registry("backend", ENTRY_POINT_GROUP, BackendSpec, BUILTINS,
                                           lambda spec: spec.name)


def register_backend(spec: BackendSpec[OptionsT], *, replace: bool = False) -> BackendSpec[OptionsT]:
    return REGISTRY.register(spec, replace=replace)


def get_backend(name: str) -> BackendSpec[Any]:
    return REGISTRY.get(name)


def available_backends() -> dict[str, BackendSpec[Any]]:
    return REGISTRY.available()
