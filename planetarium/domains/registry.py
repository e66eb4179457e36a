"""Finding domains: built-ins and third-party plug-ins, through one entry-point group.

Built-in domains register through the same ``planetarium.domains`` entry-point group that
plug-ins use, so adding a domain never means editing core files.  ``register_domain`` adds one at
run time (tests, notebooks).  A plug-in that fails to load is remembered with its reason and
listed by ``planetarium domains`` instead of breaking every other domain.

A built-in domain asked for by name is loaded on its own (:data:`BUILTINS`): reading every
installed distribution's entry points (and importing ``importlib.metadata``) was a fifth of the
start-up of ``planetarium grade``; it waits until another name, a listing or a registration
needs it.  A built-in wins over a plug-in of the same name either way.
"""

from __future__ import annotations

import importlib

from ..errors import DomainNotFoundError
from .base import Domain

ENTRY_POINT_GROUP = "planetarium.domains"
#: name -> "module:attribute", exactly as pyproject's entry points declare them.
BUILTINS = {
    "blocksworld": "planetarium.domains.blocksworld:DOMAIN",
    "gripper": "planetarium.domains.gripper:DOMAIN",
    "floor-tile": "planetarium.domains.floortile:DOMAIN",
    "rover-single": "planetarium.domains.rover:DOMAIN",
}

_domains: dict[str, Domain] = {}
_sources: dict[str, str] = {}  # domain name -> the entry point that provided it
_failures: dict[str, str] = {}
_loaded = False


def entry_points(group: str):
    """The installed entry points of ``group`` (``importlib.metadata``, imported when needed)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _load_builtin(name: str) -> None:
    """Load the built-in domain ``name`` alone (see the module docstring); if that fails, the
    full load that follows says why."""
    module, _, attribute = BUILTINS[name].partition(":")
    try:
        domain = getattr(importlib.import_module(module), attribute)
    except Exception:  # noqa: BLE001 - reported by _load_entry_points, with every other failure
        return
    if isinstance(domain, Domain) and domain.name == name:
        _domains.setdefault(name, domain)
        _sources.setdefault(name, BUILTINS[name])


def _load_entry_points() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            domain = ep.load()
            if not isinstance(domain, Domain):
                raise TypeError(f"{ep.value} is a {type(domain).__name__}, not a planetarium Domain")
        except Exception as err:  # a broken plug-in must not break the others
            _failures[ep.name] = f"{type(err).__name__}: {err}"
            continue
        if domain.name in _domains and _domains[domain.name] is not domain:
            _failures[ep.name] = (f"{ep.value} is ignored: domain '{domain.name}' is already "
                                  f"provided by {_sources[domain.name]}")
            continue
        _domains[domain.name] = domain
        _sources[domain.name] = ep.value


def register_domain(domain: Domain, *, replace: bool = False) -> Domain:
    """Make ``domain`` available by name; refuses to shadow an existing one unless ``replace``."""
    _load_entry_points()
    if domain.name in _domains and not replace and _domains[domain.name] is not domain:
        raise ValueError(f"a domain named '{domain.name}' is already registered")
    _domains[domain.name] = domain
    return domain


def unregister_domain(name: str) -> None:
    _load_entry_points()  # else a built-in removed before the full load would come back
    _domains.pop(name, None)


def get_domain(name: str) -> Domain:
    """The registered domain called ``name`` (case-insensitive)."""
    key = name.lower()
    if key not in _domains and not _loaded and key in BUILTINS:
        _load_builtin(key)
    if key not in _domains:
        _load_entry_points()
    try:
        return _domains[key]
    except KeyError:
        known = ", ".join(sorted(_domains)) or "none"
        raise DomainNotFoundError(f"unknown domain '{name}' (registered: {known})") from None


def available_domains() -> dict[str, Domain]:
    _load_entry_points()
    return dict(sorted(_domains.items()))


def failed_plugins() -> dict[str, str]:
    """Plug-ins that could not be loaded, with the reason."""
    _load_entry_points()
    return dict(_failures)
