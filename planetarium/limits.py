"""The time limit of the grading call in progress, visible to every search below it.

Domain hooks such as ``fully_specify(domain, problem)`` have no deadline parameter (plug-in
authors should not have to thread one through), yet the brute force they may fall back to must
stop when the grading call's time is up.  A context variable carries the deadline down.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import PlanetariumError, ResourceLimitError

#: Time limits are capped: a typo of 1e9 must not disable a watchdog.
MAX_TIMEOUT_S = 24 * 3600.0


class LimitValueError(PlanetariumError, ValueError):
    """A time limit that is not a finite, positive number of seconds."""


def check_seconds(value: object, what: str = "timeout_s") -> float:
    """``value`` as a finite, positive number of seconds, at most :data:`MAX_TIMEOUT_S`.

    NaN compares false with everything, so an unchecked ``nan`` would switch every deadline
    off; infinity would do the same.  Both are refused, as are booleans and strings.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise LimitValueError(f"{what} must be a number of seconds, got {value!r}")
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT_S:
        raise LimitValueError(
            f"{what} must be finite, positive and at most {MAX_TIMEOUT_S:g} s, got {value!r}")
    return float(value)

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


def deadline_within(seconds: float) -> float:
    """The ``time.monotonic()`` value ``seconds`` from now, or the time limit in force if that
    comes first: searches given an explicit deadline then honour a caller's outer limit too."""
    mine = time.monotonic() + seconds
    outer = _deadline.get()
    return mine if outer is None else min(mine, outer)


def check_deadline(what: str) -> None:
    """Raise :class:`ResourceLimitError` if the current time limit has passed."""
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline:
        raise ResourceLimitError(f"{what} ran past the time limit")


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with Python's cyclic garbage collector paused (reference counting goes on).

    The collector's full passes scan every object on the heap and no deadline check can
    interrupt them: while a 400-block problem was grounded they took up to 0.4 s each, half of
    the call's time, and pushed calls past their limit on a busy machine.  Grading makes little
    cyclic garbage, and what it makes is collected by the first pass after the block.  Nested
    use is fine; the collector is switched back on only by the block that switched it off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
