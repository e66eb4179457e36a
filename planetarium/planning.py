"""Deciding solvability: the library functions behind the grader's "solvable" column.

Built-in domains answer with their own exact polynomial planners (``domains/<pkg>/planner.py``);
plug-in domains without one inherit :func:`planetarium.strips.generic.generic_solve` (Mimir or
our own complete search).  A time-out is ``TIMEOUT``, never "unsolvable", and every plan a planner
returns is replayed by our validator before it counts as a proof of solvability.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from .domains.base import Domain
from .errors import ResourceLimitError
from .limits import Deadline, collector_paused, required
from .pddl.problem import Problem
from .strips.exact import solve_exhaustively
from .strips.plan_io import GroundStep
from .strips.validate import validate_plan


class SolveStatus(str, Enum):
    """What :func:`check_solvable` found out."""

    SOLVABLE = "solvable"      # a plan, replayed by the validator
    UNSOLVABLE = "unsolvable"  # a proof that none exists
    TIMEOUT = "timeout"        # a time or search limit ran out: undecided
    ERROR = "error"            # the planner returned a plan the validator rejects (a bug)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class SolveResult:
    """Whether a problem has a plan: a validated ``plan``, a proof of none, or why neither."""

    status: SolveStatus
    plan: tuple[GroundStep, ...] | None = None
    reason: str = ""


def check_solvable(domain: Domain, problem: Problem,
                   deadline: Deadline | None = None) -> SolveResult:
    """Solve ``problem`` with ``domain``'s planner and validate the plan it returns.

    ``deadline``: the item's :class:`~planetarium.limits.Deadline` (``None``: the deadline in
    force; with neither, :class:`~planetarium.limits.MissingDeadlineError` — there is no default
    limit); running out is ``TIMEOUT``.

    A plan that fails validation is reported ``ERROR`` with the validator's message: a planner
    bug must never turn into a false "solvable", nor pass for a time-out.  For a goal with
    negative literals the domain planner solves its positive part first (no plan there: none for
    the goal; a plan that also keeps the negative literals false: done); otherwise, and for
    ``or`` / ``exists`` / ... goals, the bounded exhaustive search decides (running out is
    ``TIMEOUT``).
    """
    contradiction = sorted(problem.goal & problem.negative_goal)
    if contradiction:
        return SolveResult(SolveStatus.UNSOLVABLE, None, "the goal requires both "
                           f"({' '.join(contradiction[0])}) and its negation")
    planner = f"{domain.name} planner"
    # Every step below runs under one deadline that domain planners, the exhaustive search and
    # the validator all look at (passed, and in force for planetarium.limits.check_deadline).
    deadline = required("check_solvable", deadline)
    try:
        with deadline.applied() as deadline, collector_paused():
            plan = domain.solve(replace(problem, negative_goal=frozenset(), goal_formula=None),
                                deadline) if problem.goal_formula is None else None
            if not problem.has_plain_goal and (plan is None or not validate_plan(
                    domain.definition, problem, plan).ok):
                # The positive part alone has no plan (then neither has the goal), or its plan
                # misses the negative literals / formula: search under the full goal test.
                if problem.goal_formula is None and plan is None:
                    return SolveResult(SolveStatus.UNSOLVABLE, None,
                                       f"no plan exists ({planner}, positive part of the goal)")
                planner = "exhaustive search"
                plan = solve_exhaustively(domain.definition, problem)
            if plan is None:
                return SolveResult(SolveStatus.UNSOLVABLE, None, f"no plan exists ({planner})")
            verdict = validate_plan(domain.definition, problem, plan)
    except ResourceLimitError as err:
        return SolveResult(SolveStatus.TIMEOUT, None, str(err))
    if not verdict.ok:
        return SolveResult(SolveStatus.ERROR, None,
                           f"{planner} returned an invalid plan: {verdict.message}")
    return SolveResult(SolveStatus.SOLVABLE, tuple(tuple(step) for step in plan), verdict.message)
