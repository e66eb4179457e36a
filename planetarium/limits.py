"""Time limits: the one :class:`Deadline` of an item, the clocks, and the only clock readings.

**The deadline rule** (one channel, stated; CONTRACTS.md "Time limits" repeats it):

1. *Entry points make the deadline.*  Every item (a graded answer, an ACP question, an ARB
   record, a reward rollout) gets one :class:`Deadline`, made once by its entry point from a
   limit the user stated (``timeout_s``, ``--timeout``, ``GradeOptions.timeout_s``) and the
   :class:`Clock` its benchmark declares, and installed with :meth:`Deadline.applied`.  The
   entry points are the item loop (:mod:`planetarium.loop`, in the worker), ``grade`` /
   ``grade_correct`` / ``grade_strict`` called outside an item, ``batch.grade_item``, the CLI
   commands, ACP / ARB scoring, the compat layer's calls (the original package's API) and each
   case of the conformance kit.  Nothing below them starts a deadline of its own; a sub-search
   may only *narrow* the one in force (:meth:`Deadline.within`, :func:`deadline_for`).
2. *Below the entry points the deadline in force is the one channel.*  Code checks it with
   :func:`check_deadline` (parsing, grounding, closures, plug-in hooks such as
   ``fully_specify``: plug-in authors thread nothing through) and, where it needs the object
   (a planner's own clock, a step budget), takes it with :func:`required`.
3. *An explicit ``deadline`` parameter is that same deadline, never a second limit*: the
   plug-in API ``Domain.solve(problem, deadline)`` receives the deadline in force, and the
   engines' ``deadline=`` parameters (``strips``, ``graph.SearchBudget``, ``equivalence``) are
   handed the one in force by their callers (or a narrowing of it).
4. *A missing deadline is a programming error*: code that needs one and is given none while
   none is in force raises :class:`MissingDeadlineError` — there is no silent default limit.
   Code that runs outside any item (reading a file, generating a data set) only *checks*, and
   :func:`check_deadline` passes there.

This is the only module that reads clocks (watchdogs read :func:`wall_now`, timings a
:class:`Stopwatch`).
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum

from .errors import PlanetariumError, ResourceLimitError

#: Time limits are capped: a typo of 1e9 must not disable a watchdog.
MAX_TIMEOUT_S = 24 * 3600.0


class LimitValueError(PlanetariumError, ValueError):
    """A time limit that is not a finite, positive number of seconds."""


class MissingDeadlineError(RuntimeError):
    """Code that needs the item's deadline was given none and none is in force.

    A programming error (an entry point did not make the item's deadline, or a caller skipped
    the entry point), never a verdict: it is deliberately not a :class:`PlanetariumError`, so no
    handler turns it into ``invalid-input`` or ``timeout``."""


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

class Clock(str, Enum):
    """What a time limit counts: seconds of wall time (the default) or CPU seconds of this
    process (for verdicts that must not depend on how busy the machine is, such as ACP's exact
    searches: the same budget then decides the same questions on a laptop and a loaded server)."""

    WALL = "wall"
    CPU = "cpu"

    def read(self) -> float:
        return time.monotonic() if self is Clock.WALL else time.process_time()

    def __str__(self) -> str:
        return self.value


#: On the CPU clock an item also ends after this many times its limit in wall time: a process
#: starved by other work must still return (``acp score --timeout 20`` ends within 60 s + 1 s).
WALL_FACTOR = 3.0


def wall_now() -> float:
    """The wall clock every watchdog and stopwatch reads (``time.monotonic``)."""
    return time.monotonic()


@dataclass(frozen=True)
class Deadline:
    """The one time limit of one item: ``seconds`` of ``clock`` from :meth:`start`.

    Made once per item by its entry point from the limit the user gave and the clock the
    benchmark declares, and installed with :meth:`applied`: below the entry point it is the
    deadline in force, read through :func:`check_deadline` and :func:`required` (the rule in
    this module's docstring).  On the CPU clock the deadline also ends after
    :data:`WALL_FACTOR` times ``seconds`` of wall time.
    """

    seconds: float
    clock: Clock
    end: float        # the reading of ``clock`` at which it expires
    wall_end: float   # the reading of :func:`wall_now` at which it expires in any case

    @classmethod
    def start(cls, seconds: float, clock: Clock = Clock.WALL) -> Deadline:
        seconds = check_seconds(seconds)
        wall = wall_now()
        if clock is Clock.WALL:
            return cls(seconds, clock, wall + seconds, wall + seconds)
        return cls(seconds, clock, clock.read() + seconds, wall + WALL_FACTOR * seconds)

    @property
    def wall_limit_s(self) -> float:
        """The most wall time the item may take: what a watchdog outside the process allows."""
        return self.seconds if self.clock is Clock.WALL else WALL_FACTOR * self.seconds

    def remaining(self) -> float:
        """Seconds left on its own clock (never more than the wall time left), at least 0."""
        own = self.end - self.clock.read()
        if self.clock is not Clock.WALL:
            own = min(own, self.wall_end - wall_now())
        return max(0.0, own)

    def expired(self) -> bool:
        if self.clock is not Clock.WALL and wall_now() > self.wall_end:
            return True
        return self.clock.read() > self.end

    def check(self, what: str) -> None:
        """Raise :class:`ResourceLimitError` naming ``what`` if the deadline has passed."""
        if self.expired():
            raise ResourceLimitError(f"{what} ran past the time limit")

    def within(self, seconds: float) -> Deadline:
        """A deadline on the same clock ``seconds`` from now, or this one if it ends first."""
        inner = Deadline.start(_at_least_now(seconds), self.clock)
        if inner.end >= self.end and inner.wall_end >= self.wall_end:
            return self
        return Deadline(self.seconds, self.clock, min(inner.end, self.end),
                        min(inner.wall_end, self.wall_end))

    @contextmanager
    def applied(self) -> Iterator[Deadline]:
        """Make this the deadline in force for the block (:func:`check_deadline`, :func:`current`).

        A deadline already in force that ends first stays in force: a callee never extends its
        caller's limit."""
        outer = _current.get()
        mine = self
        if outer is not None and outer.clock is self.clock:
            if outer.end < self.end or outer.wall_end < self.wall_end:
                mine = Deadline(self.seconds, self.clock, min(outer.end, self.end),
                                min(outer.wall_end, self.wall_end))
        elif outer is not None:  # another clock: its wall cap still holds
            wall_end = min(outer.wall_end, self.wall_end)
            mine = Deadline(self.seconds, self.clock,
                            min(self.end, wall_end) if self.clock is Clock.WALL else self.end,
                            wall_end)
        token = _current.set(mine)
        try:
            yield mine
        finally:
            _current.reset(token)


_current: ContextVar[Deadline | None] = ContextVar("planetarium_deadline", default=None)


def current() -> Deadline | None:
    """The deadline in force (set by :meth:`Deadline.applied`), if any."""
    return _current.get()


def _at_least_now(seconds: float) -> float:
    """A remaining time computed by a caller (0 once it has run out) as a limit: a deadline
    that has already passed, never an error."""
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds == 0:
        return _JUST_NOW
    return seconds


#: The limit of a deadline that has run out (a limit must be positive).
_JUST_NOW = 1e-9


def deadline_for(seconds: float, clock: Clock = Clock.WALL) -> Deadline:
    """A deadline ``seconds`` from now, or the one in force if that ends first."""
    outer = _current.get()
    seconds = _at_least_now(seconds)
    return outer.within(seconds) if outer is not None else Deadline.start(seconds, clock)


def required(what: str, deadline: Deadline | None = None) -> Deadline:
    """``deadline`` if given (the caller's narrowing of the item's), else the deadline in force.

    Raises :class:`MissingDeadlineError` naming ``what`` when there is neither: code that needs
    a deadline never invents one (rule 4 of this module's docstring)."""
    if deadline is not None:
        return deadline
    in_force = _current.get()
    if in_force is None:
        raise MissingDeadlineError(
            f"{what} needs the item's deadline: pass one, or call it under "
            "Deadline.applied() as the entry points do (there is no default time limit)")
    return in_force


def check_deadline(what: str) -> None:
    """Raise :class:`ResourceLimitError` if the deadline in force has passed (no deadline in
    force: code outside any item, which only checks; see :func:`required`)."""
    deadline = _current.get()
    if deadline is not None:
        deadline.check(what)


def unix_time() -> float:
    """Seconds since the epoch: when something happened, for records (never a limit)."""
    return time.time()


class Stopwatch:
    """Elapsed wall seconds since it was made: timings for rows and reports (never a limit)."""

    def __init__(self) -> None:
        self._start = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self._start


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
