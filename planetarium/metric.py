"""``planetarium.metric`` of the original package: graph comparison up to renaming objects.

A front on :mod:`planetarium.compat`, for code written against the original package.
"""

from .compat import graphs_equal as equals
from .compat import graphs_isomorphic as isomorphic

__all__ = ["equals", "isomorphic"]
