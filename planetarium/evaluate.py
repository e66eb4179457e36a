"""``planetarium.evaluate`` of the original package, as a module: ``from planetarium.evaluate
import evaluate``.

The original package had both a module and a function of this name: ``planetarium.evaluate``
was the function, ``planetarium.evaluate.evaluate`` the same one through the module.  Importing
this module makes Python bind the *module* to ``planetarium.evaluate``, so the module is made
callable as the function: ``planetarium.evaluate(gt, pred)`` answers the same either way.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .compat import evaluate

__all__ = ["evaluate"]


class _CallableModule(types.ModuleType):
    """This module, callable as :func:`planetarium.compat.evaluate`."""

    def __call__(self, *args: Any, **kwargs: Any) -> tuple[bool, bool, bool]:
        return evaluate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
