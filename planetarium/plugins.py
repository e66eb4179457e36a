"""One registry class for every kind of plug-in: domains, benchmarks, inference backends, reward
schemes and viewer scene drawers.

A plug-in is one object of the kind's type, found by name.  It comes from one of three places:
the package's own built-ins (listed as ``"module:attribute"`` references exactly as pyproject
declares their entry points, and loaded the same way, so that an installation whose entry
points are stale — an editable install made before a plug-in was added — still finds them), an
entry point of the kind's group in any installed distribution, or :meth:`Registry.register` at
run time (tests, notebooks).  A plug-in that fails to load, is not of the kind's type, or takes
a name already taken is remembered with its reason instead of breaking the others; asking for
it by name says why it is missing, and ``planetarium plugins`` lists every kind with where each
plug-in came from.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from .errors import PlanetariumError

T = TypeVar("T")


class PluginNotFoundError(PlanetariumError, LookupError):
    """No plug-in of that name is registered."""


@dataclass(frozen=True)
class Listing:
    """One line of ``planetarium plugins``: a plug-in that loaded (``source`` says from where)
    or one that did not (``failure`` says why)."""

    kind: str
    name: str
    source: str
    failure: str | None = None


def entry_points(group: str) -> Any:
    """The installed entry points of ``group``.  ``importlib.metadata`` is imported here, when
    first needed: reading every distribution's metadata was a fifth of the start-up of
    ``planetarium grade``, which needs one built-in domain by name (:meth:`Registry.get`)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _identity(name: str) -> str:
    return name


class Registry(Generic[T]):
    """Plug-ins of type ``kind`` by name.

    ``what`` names the kind in messages (``"domain"``); ``group`` is its entry-point group;
    ``builtins`` maps names to ``"module:attribute"``; ``name_of`` reads a plug-in's own name;
    ``normalize`` maps a name to its key (``str.lower`` makes look-ups case-insensitive);
    ``not_found`` is the error raised for an unknown name (a :class:`PluginNotFoundError` by
    default; it must take one message).
    """

    def __init__(self, what: str, group: str, kind: type, builtins: Mapping[str, str],
                 name_of: Callable[[T], str], *, normalize: Callable[[str], str] = _identity,
                 not_found: Callable[[str], LookupError] = PluginNotFoundError) -> None:
        self.what, self.group, self.kind = what, group, kind
        self.builtins, self.name_of = dict(builtins), name_of
        self.normalize, self.not_found = normalize, not_found
        self._items: dict[str, T] = {}
        self._sources: dict[str, str] = {}
        self._references: dict[str, str] = {}  # key -> the reference that provided it
        self._failures: dict[str, str] = {}
        self._loaded = False

    def _load(self, reference: str) -> T:
        module, _, attribute = reference.partition(":")
        plugin = getattr(importlib.import_module(module), attribute)
        if not isinstance(plugin, self.kind):
            raise TypeError(f"{reference} is a {type(plugin).__name__}, not a {self.kind.__name__}")
        return cast(T, plugin)  # checked just above: an instance of the kind

    def _load_all(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        found = [(name, reference, f"built-in {reference}")
                 for name, reference in self.builtins.items()]
        for point in entry_points(group=self.group):
            dist = getattr(getattr(point, "dist", None), "name", None)
            source = f"entry point {point.value}" + (f" of {dist}" if dist else "")
            if self.builtins.get(point.name) != point.value:  # a built-in is listed once
                found.append((point.name, point.value, source))
        for entry, reference, source in found:
            try:
                plugin = self._load(reference)
            except Exception as err:  # a broken plug-in must not break the others
                self._failures[entry] = f"{type(err).__name__}: {err}"
                continue
            key = self.normalize(self.name_of(plugin))
            if self._items.setdefault(key, plugin) is plugin:
                self._sources.setdefault(key, source)
                self._references.setdefault(key, reference)
            else:
                self._failures[entry] = (f"{reference} is ignored: {self.what} "
                                         f"'{self.name_of(plugin)}' is already provided by "
                                         f"{self._references[key]}")

    def register(self, plugin: T, *, replace: bool = False) -> T:
        """Make ``plugin`` available by name; refuses to shadow another unless ``replace``."""
        self._load_all()
        if not isinstance(plugin, self.kind):
            raise TypeError(f"{plugin!r} is not a {self.kind.__name__}")
        key = self.normalize(self.name_of(plugin))
        known = self._items.get(key)
        if known is not None and known is not plugin and not replace:
            raise ValueError(f"a {self.what} named '{self.name_of(plugin)}' is already registered")
        if known is not plugin:
            self._sources[key] = self._references[key] = "registered at run time"
        self._items[key] = plugin
        return plugin

    def unregister(self, name: str) -> None:
        self._load_all()  # else a built-in removed before the full load would come back
        key = self.normalize(name)
        for table in (self._items, self._sources, self._references):
            table.pop(key, None)

    def _builtin_alone(self, key: str) -> T | None:
        """The built-in called ``key``, loaded on its own before the full load (a command that
        needs one built-in by name reads no entry points); ``None`` if it does not load as
        itself (the full load then says why)."""
        reference = self.builtins.get(key)
        if reference is None:
            return None
        try:
            plugin = self._load(reference)
        except Exception:  # noqa: BLE001 - reported by the full load, with every other failure
            return None
        if self.normalize(self.name_of(plugin)) != key:
            return None
        self._items[key] = plugin
        self._sources[key] = f"built-in {reference}"
        self._references[key] = reference
        return plugin

    def get(self, name: str) -> T:
        key = self.normalize(name)
        if not self._loaded and key not in self._items:
            found = self._builtin_alone(key)
            if found is not None:
                return found
        self._load_all()
        try:
            return self._items[key]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            failed = (f"; failed to load: {', '.join(sorted(self._failures))}"
                      if self._failures else "")
            raise self.not_found(f"unknown {self.what} '{name}' (registered: {known}{failed})"
                                 ) from None

    def available(self) -> dict[str, T]:
        self._load_all()
        return dict(sorted(self._items.items()))

    def failures(self) -> dict[str, str]:
        """Plug-ins that could not be loaded or were ignored, with the reason."""
        self._load_all()
        return dict(self._failures)

    def source(self, name: str) -> str:
        """Where the plug-in called ``name`` came from (built-in, entry point, run time)."""
        self._load_all()
        return self._sources[self.normalize(name)]

    def listing(self) -> list[Listing]:
        """Every plug-in of this kind, then every failure: what ``planetarium plugins`` shows."""
        self._load_all()
        return ([Listing(self.what, name, self._sources[name]) for name in sorted(self._items)]
                + [Listing(self.what, name, "", why) for name, why in sorted(self._failures.items())])
