"""Finding domains: built-ins and third-party plug-ins, through one entry-point group.

Built-in domains register through the same ``planetarium.domains`` entry-point group that
plug-ins use (and are listed in :data:`BUILTINS`, so a stale editable install still finds
them), so adding a domain never means editing core files.  ``register_domain`` adds one at run
time (tests, notebooks).  A plug-in that fails to load is remembered with its reason and listed
by ``planetarium domains`` / ``planetarium plugins`` instead of breaking every other domain.
Names are case-insensitive.  The registry is :class:`planetarium.plugins.Registry`, the one
every kind of plug-in uses.

A built-in domain asked for by name is loaded on its own: reading every installed
distribution's entry points (and importing ``importlib.metadata``) was a fifth of the start-up
of ``planetarium grade``; it waits until another name, a listing or a registration needs it.
"""

from __future__ import annotations

from ..errors import DomainNotFoundError
from ..plugins import Registry
from .base import Domain

ENTRY_POINT_GROUP = "planetarium.domains"
#: name -> "module:attribute", exactly as pyproject's entry points declare them.
BUILTINS = {
    "blocksworld": "planetarium.domains.blocksworld:DOMAIN",
    "gripper": "planetarium.domains.gripper:DOMAIN",
    "floor-tile": "planetarium.domains.floortile:DOMAIN",
    "rover-single": "planetarium.domains.rover:DOMAIN",
}
REGISTRY: Registry[Domain] = Registry("domain", ENTRY_POINT_GROUP, Domain, BUILTINS,
                                      lambda domain: domain.name, normalize=str.lower,
                                      not_found=DomainNotFoundError)


def register_domain(domain: Domain, *, replace: bool = False) -> Domain:
    """Make ``domain`` available by name; refuses to shadow an existing one unless ``replace``."""
    return REGISTRY.register(domain, replace=replace)


def unregister_domain(name: str) -> None:
    REGISTRY.unregister(name)


def get_domain(name: str) -> Domain:
    """The registered domain called ``name`` (case-insensitive)."""
    return REGISTRY.get(name)


def available_domains() -> dict[str, Domain]:
    return REGISTRY.available()


def failed_plugins() -> dict[str, str]:
    """Plug-ins that could not be loaded, with the reason."""
    return REGISTRY.failures()
