"""The deadline rule of planetarium.limits: entry points make the item's deadline, code below
them takes the one in force, and code that needs one and finds none raises
MissingDeadlineError — there is no silent default limit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from planetarium.domains import Domain, get_domain
from planetarium.equivalence import Limits, compare
from planetarium.equivalence.closure import GENERIC, literal_closure
from planetarium.grading import Status, grade
from planetarium.limits import (
    Deadline,
    MissingDeadlineError,
    check_deadline,
    deadline_for,
    required,
)
from planetarium.pddl import read_problem
from planetarium.planning import SolveStatus, check_solvable

TOWER = """(define (problem tower) (:domain blocksworld)
  (:objects a b)
  (:init (arm-empty) (on-table a) (on-table b) (clear a) (clear b))
  (:goal (and (on a b))))"""


def _problem():
    domain = get_domain("blocksworld")
    return domain, read_problem(TOWER, domain.definition)


def test_required_without_a_deadline_is_a_programming_error():
    with pytest.raises(MissingDeadlineError, match="no default time limit"):
        required("a search")
    check_deadline("code outside any item")  # only checking: passes without a deadline


def test_required_returns_the_given_deadline_else_the_one_in_force():
    given, in_force = Deadline.start(5.0), Deadline.start(60.0)
    assert required("x", given) is given
    with in_force.applied() as applied:
        assert required("x") is applied


@pytest.mark.parametrize("call", [
    lambda d, p: check_solvable(d, p),
    lambda d, p: d.solve(p),
    lambda d, p: compare(p, p, d),
], ids=["check_solvable", "Domain.solve", "compare"])
def test_below_the_entry_points_a_missing_deadline_raises(call):
    domain, problem = _problem()
    with pytest.raises(MissingDeadlineError):
        call(domain, problem)


def _renamed_problem():
    """TOWER in Blocks World's file under another name: no closed form, the generic engine."""
    text = get_domain("blocksworld").pddl.replace("(domain blocksworld)", "(domain other)")
    domain = Domain("other", text)
    return domain, read_problem(TOWER.replace("(:domain blocksworld)", "(:domain other)"),
                                domain.definition)


def test_the_generic_exact_engine_needs_the_deadline_in_force():
    """A domain read from a file has no closed form: its ``fully_specify`` and closures run
    the generic engine (strips.forced), which needs the item's deadline.  Without one it is a
    programming error naming what needed it, never a silent limit of a day."""
    domain, problem = _renamed_problem()
    for call in (domain.fully_specify, lambda p: literal_closure(domain, p)):
        with pytest.raises(MissingDeadlineError, match=r"generic exact engine \(strips\.forced"):
            call(problem)
    with deadline_for(10).applied():
        full = domain.fully_specify(problem)
        closure = literal_closure(domain, problem)
    builtin, original = _problem()
    assert full == builtin.fully_specify(original)  # the closed form's answer
    assert full == {("on", "a", "b"), ("clear", "a"), ("on-table", "b"), ("arm-empty",)}
    assert closure is not None and closure.how == GENERIC and closure.positive == full


def test_below_the_entry_points_the_deadline_in_force_is_the_channel():
    domain, problem = _problem()
    with Deadline.start(60.0).applied():
        assert check_solvable(domain, problem).status is SolveStatus.SOLVABLE
        assert compare(problem, problem, domain).equivalent
    with Deadline.start(1e-9).applied():  # already over: the one in force is obeyed
        assert check_solvable(domain, problem).status is SolveStatus.TIMEOUT


def test_an_explicit_deadline_still_counts_outside_any_item():
    domain, problem = _problem()
    assert compare(problem, problem, domain, limits=Limits(Deadline.start(60.0))).equivalent


def test_compare_puts_its_deadline_in_force_for_the_hooks():
    """``compare``'s explicit deadline is the one the hooks that take none read: the generic
    ``fully_specify`` (and closure) of a domain from a file decides under it."""
    domain, problem = _renamed_problem()
    implied = replace(problem, goal=problem.goal | {("clear", "a"), ("arm-empty",)})
    negated = replace(problem, negative_goal=frozenset({("holding", "a")}))
    limits = Limits(Deadline.start(60.0))
    assert compare(problem, implied, domain, limits=limits).equivalent
    assert compare(problem, negated, domain, limits=limits).equivalent
    assert not compare(problem, replace(problem, goal=frozenset({("holding", "a")})), domain,
                       limits=limits).equivalent


def test_grade_is_an_entry_point_with_a_stated_limit():
    result = grade(TOWER, TOWER, timeout_s=30.0)
    assert result.correct and result.status is Status.DECIDED
