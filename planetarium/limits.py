"""The time limit of the grading call in progress, visible to every search below it.

Domain hooks such as ``fully_specify(domain, problem)`` have no deadline parameter (plug-in
authors should not have to thread one through), yet the brute force they may fall back to must
stop when the grading call's time is up.  A context variable carries the deadline down.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from .errors import ResourceLimitError

_deadline: ContextVar[float | None] = ContextVar("planetarium_deadline", default=None)


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Run the block under a deadline ``seconds`` from now (the earlier of nested limits wins)."""
    outer = _deadline.get()
    mine = None if seconds is None else time.monotonic() + seconds
    token = _deadline.set(mine if outer is None else outer if mine is None else min(outer, mine))
    try:
        yield
    finally:
        _deadline.reset(token)


def check_deadline(what: str) -> None:
    """Raise :class:`ResourceLimitError` if the current time limit has passed."""
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline:
        raise ResourceLimitError(f"{what} ran past the time limit")
