"""The bounded exact search: every reachable state, explicitly, up to a budget.

Used where no closed form is exact — goals with genuinely restricting negative literals or with
``or`` / ``imply`` / ``exists`` / ``forall``, and initial states the domain rules do not cover.
Exhaustive below the budget (so its answers are proofs), and raises
:class:`~planetarium.errors.ResourceLimitError` past it, so a truncated enumeration can never
pass for a verdict.
"""

from __future__ import annotations

from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from .goals import goal_holds
from .grounding import ground_actions, reachable_states
from .plan_io import GroundStep

#: States the bounded search enumerates before giving up (grading and solvability).
MAX_STATES = 100_000


def reachable_goal_states(domain: DomainDef, problem: Problem,
                          max_states: int | None = None) -> tuple[list[frozenset[Atom]], set[Atom]]:
    """All reachable states satisfying the goal, and the union of all reachable states' atoms
    (``max_states`` defaults to :data:`MAX_STATES`, read at call time)."""
    max_states = MAX_STATES if max_states is None else max_states
    actions = list(ground_actions(domain, problem))
    goals: list[frozenset[Atom]] = []
    seen_atoms: set[Atom] = set()
    for state in reachable_states(actions, frozenset(problem.init), max_states):
        seen_atoms |= state
        if goal_holds(problem, state, domain.is_subtype):
            goals.append(state)
    return goals, seen_atoms


def reachable_goal_intersection(domain: DomainDef, problem: Problem,
                                max_states: int | None = None) -> frozenset[Atom] | None:
    """The facts true in every reachable goal state, or ``None`` if none is reachable: the
    definition of ``fully_specify``, enumerated (domains fall back on it where no closed form
    covers the initial state)."""
    goal_states, _ = reachable_goal_states(domain, problem, max_states)
    if not goal_states:
        return None
    return frozenset.intersection(*goal_states)


def solve_exhaustively(domain: DomainDef, problem: Problem,
                       max_states: int | None = None) -> list[GroundStep] | None:
    """A shortest plan by breadth-first search under the full goal test, or ``None`` when no
    reachable state satisfies the goal; :class:`ResourceLimitError` past ``max_states``."""
    max_states = MAX_STATES if max_states is None else max_states
    actions = list(ground_actions(domain, problem))
    parents: dict = {}
    for state in reachable_states(actions, frozenset(problem.init), max_states, parents):
        if goal_holds(problem, state, domain.is_subtype):
            plan = []
            while state in parents:
                state, step = parents[state]
                plan.append(step)
            return plan[::-1]
    return None
