"""A named collection of plug-ins fed by one entry-point group: benchmarks and inference backends.

Built-ins are listed as ``"module:attribute"`` references exactly as pyproject declares their
entry points, and loaded the same way, so that an installation whose entry points are stale
(an editable install made before a plug-in was added) still finds them.  A plug-in that fails
to load, or that is not of the expected type, is remembered with its reason instead of
breaking the others; asking for it by name says why it is missing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from .errors import PlanetariumError

T = TypeVar("T")


class PluginNotFoundError(PlanetariumError, LookupError):
    """No plug-in of that name is registered."""


class Registry(Generic[T]):
    """Plug-ins of type ``kind`` by name; ``name_of`` reads a plug-in's own name."""

    def __init__(self, what: str, group: str, kind: type, builtins: Mapping[str, str],
                 name_of: Callable[[T], str]) -> None:
        self.what, self.group, self.kind = what, group, kind
        self.builtins, self.name_of = dict(builtins), name_of
        self._items: dict[str, T] = {}
        self._failures: dict[str, str] = {}
        self._loaded = False

    def _load(self, reference: str) -> T:
        module, _, attribute = reference.partition(":")
        plugin = getattr(importlib.import_module(module), attribute)
        if not isinstance(plugin, self.kind):
            raise TypeError(f"{reference} is a {type(plugin).__name__}, not a {self.kind.__name__}")
        return plugin

    def _load_all(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        found = {ep.name: ep.value for ep in entry_points(group=self.group)}
        for name, reference in {**self.builtins, **found}.items():
            try:
                plugin = self._load(reference)
            except Exception as err:  # a broken plug-in must not break the others
                self._failures[name] = f"{type(err).__name__}: {err}"
                continue
            if self._items.setdefault(self.name_of(plugin), plugin) is not plugin:
                self._failures[name] = (f"{reference} is ignored: {self.what} "
                                        f"'{self.name_of(plugin)}' is already registered")

    def register(self, plugin: T, *, replace: bool = False) -> T:
        """Make ``plugin`` available by name; refuses to shadow another unless ``replace``."""
        self._load_all()
        if not isinstance(plugin, self.kind):
            raise TypeError(f"{plugin!r} is not a {self.kind.__name__}")
        name = self.name_of(plugin)
        known = self._items.get(name)
        if known is not None and known is not plugin and not replace:
            raise ValueError(f"a {self.what} named '{name}' is already registered")
        self._items[name] = plugin
        return plugin

    def unregister(self, name: str) -> None:
        self._items.pop(name, None)

    def get(self, name: str) -> T:
        self._load_all()
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            failed = (f"; failed to load: {', '.join(sorted(self._failures))}"
                      if self._failures else "")
            raise PluginNotFoundError(f"unknown {self.what} '{name}' (registered: {known}{failed})"
                                      ) from None

    def available(self) -> dict[str, T]:
        self._load_all()
        return dict(sorted(self._items.items()))

    def failures(self) -> dict[str, str]:
        self._load_all()
        return dict(self._failures)
