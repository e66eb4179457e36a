"""Domains as plug-ins: one object per domain, found through the ``planetarium.domains`` group."""

from .base import Domain, Plan
from .registry import available_domains, failed_plugins, get_domain, register_domain, unregister_domain

__all__ = ["Domain", "Plan", "available_domains", "failed_plugins", "get_domain",
           "register_domain", "unregister_domain"]
