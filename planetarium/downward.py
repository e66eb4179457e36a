"""``planetarium.downward`` of the original package: ``plan`` and ``validate`` on PDDL text.

A front on :mod:`planetarium.compat`, for code written against the original package, which ran
Fast Downward and VAL here; this package plans and validates with its own planner and
validator, so their paths and options are accepted and ignored.
"""

from .compat import downward_plan as plan
from .compat import downward_validate as validate

__all__ = ["plan", "validate"]
