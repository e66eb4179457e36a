"""``planetarium.oracle`` of the original package: fully specified goals and plans.

A front on :mod:`planetarium.compat`, for code written against the original package.  The
original's ``DomainNotSupportedError`` is this package's
:class:`~planetarium.errors.DomainNotFoundError` (no registered domain has that name).
"""

from .compat import fully_specify, plan, plan_to_string
from .errors import DomainNotFoundError as DomainNotSupportedError

__all__ = ["DomainNotSupportedError", "fully_specify", "plan", "plan_to_string"]
