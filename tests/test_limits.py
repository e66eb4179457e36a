"""The one Deadline: clocks, nesting, and what a block under it sees."""

from __future__ import annotations

import time

import pytest

from planetarium.errors import ResourceLimitError
from planetarium.limits import (
    WALL_FACTOR,
    Clock,
    Deadline,
    LimitValueError,
    check_deadline,
    current,
    deadline_for,
)


def test_a_wall_deadline_expires_after_its_seconds():
    deadline = Deadline.start(0.05)
    assert not deadline.expired() and 0 < deadline.remaining() <= 0.05
    time.sleep(0.07)
    assert deadline.expired() and deadline.remaining() == 0.0
    with pytest.raises(ResourceLimitError, match="grounding ran past the time limit"):
        deadline.check("grounding")


def test_a_cpu_deadline_ignores_sleeping_but_keeps_a_wall_cap():
    deadline = Deadline.start(0.05, Clock.CPU)
    assert deadline.wall_limit_s == pytest.approx(WALL_FACTOR * 0.05)
    time.sleep(0.08)  # no CPU spent: not expired on its own clock
    assert not deadline.expired()
    time.sleep(WALL_FACTOR * 0.05)  # past the wall cap: expired whatever the CPU says
    assert deadline.expired()


def test_within_never_extends_and_applied_keeps_the_earlier_limit():
    outer = Deadline.start(0.2)
    assert outer.within(10).end == outer.end
    assert outer.within(0.01).end < outer.end
    with outer.applied():
        assert current() is not None and current().end == outer.end
        with Deadline.start(60).applied() as inner:
            assert inner.end == outer.end  # a callee never extends its caller's limit
        assert deadline_for(60).end == outer.end
    assert current() is None


def test_check_deadline_sees_the_deadline_in_force_only_inside_the_block():
    check_deadline("nothing in force")  # no deadline: never raises
    expired = Deadline.start(0.001)
    time.sleep(0.01)
    with expired.applied(), pytest.raises(ResourceLimitError, match="the search"):
        check_deadline("the search")


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), True, "5", 1e9])
def test_a_deadline_refuses_a_limit_that_is_not_a_finite_positive_number(bad):
    with pytest.raises(LimitValueError):
        Deadline.start(bad)


def test_a_remaining_time_of_zero_is_a_deadline_that_has_passed_not_an_error():
    """Callers hand on what is left of a limit; once it has run out that is 0."""
    assert Deadline.start(5).within(0).expired()
    assert deadline_for(0).expired()
