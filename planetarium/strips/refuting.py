"""The generic planner with cheap proofs of "no plan" between two runs.

A lazy greedy search (Mimir's, or ours) proves that no plan exists only by exhausting the state
space: ACPBench's swap with eight agents and one role asked of two of them (8! states) outlasted
10 s, where h^2 refutes the goal in 0.03 s.  The proofs cost a grounding of our own (0.1-0.3 s
there), which solvable tasks need not pay, so the planner runs alone first for
about as long as the proofs would take (:func:`first_try_s`, at most :data:`FIRST_TRY_S`; most
tasks are solved or exhausted by then), then the proofs
(:func:`~planetarium.strips.forced.goal_provably_unreachable`), then the planner for the time
left; where the ground task is kept already (the same objects and initial state as a problem
the exact engine was asked about: grading decides equivalence first on domains without a closed
form), the proofs and what the engine found on it come first: a plan to a goal state, or a goal
it proved unreachable.
"""

from __future__ import annotations

from ..errors import ResourceLimitError
from ..limits import Deadline
from ..pddl.domain import DomainDef
from ..pddl.problem import Problem
from .forced import goal_provably_unreachable, goal_states, ground_task_kept
from .generic import generic_solve, grounding_estimate
from .plan_io import GroundStep

#: Seconds the planner searches alone before the proofs are tried, at most: no longer than the
#: proofs' grounding is expected to take (:func:`first_try_s`), so an unsolvable task costs at
#: most about twice what the proofs alone would.
FIRST_TRY_S = 0.5
#: Ground actions our grounding instantiates per second, as :func:`first_try_s` expects
#: (measured on ACPBench's swap, 4,096 estimated in 0.25-0.3 s on a loaded 2-core machine).
OWN_GROUNDING_RATE = 15_000
#: The shortest first try: Mimir's own start-up on a small task.
MIN_FIRST_TRY_S = 0.05


def first_try_s(domain: DomainDef, problem: Problem) -> float:
    """Seconds for the planner's first try: about the proofs' cost, within
    [:data:`MIN_FIRST_TRY_S`, :data:`FIRST_TRY_S`] (the rent-or-buy balance: a solvable task
    Mimir solves quickly never pays for the proofs, an unsolvable one pays for them after a
    planner run of about their price)."""
    expected = grounding_estimate(domain, problem) / OWN_GROUNDING_RATE
    return min(FIRST_TRY_S, max(MIN_FIRST_TRY_S, expected))


def solve_or_refute(domain: DomainDef, problem: Problem,
                    deadline: Deadline) -> list[GroundStep] | None:
    """A plan, ``None`` when none exists, or :class:`ResourceLimitError` past ``deadline``
    (:func:`~planetarium.strips.generic.generic_solve`'s contract).  Where the ground task is
    kept already (the equivalence check asked the engine about this goal, or the ground truth's
    task for a prediction that kept its names), the proofs and the plans the engine found on it
    come first: Mimir's start-up alone costs 25-50 ms on ACPBench's swap.  (Building the task
    for a prediction asked here first would not pay: a renamed one is graded in the truth's
    names, on the truth's task; nor would our own search there: where the engine found no goal
    state, the time ran out on it, and Mimir's search is the faster.)"""
    if ground_task_kept(domain, problem):
        deadline.check("the generic planner")
        with deadline.applied():
            if goal_provably_unreachable(domain, problem):
                return None
            states = goal_states(domain, problem)
            positive = states.mask(problem.goal)
            if states.known_unreachable(positive):
                return None
            plan = states.plan_found(positive)
            if plan is not None:
                return plan
    try:
        return generic_solve(domain, problem, deadline.within(first_try_s(domain, problem)))
    except ResourceLimitError:
        deadline.check("the generic planner")
    with deadline.applied():
        if goal_provably_unreachable(domain, problem):
            return None
    deadline.check("the generic planner")
    return generic_solve(domain, problem, deadline)
