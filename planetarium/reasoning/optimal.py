"""Optimal plan length from a state, and whether an action takes the current state one step
closer to the goal.

The optimal length h* is found by breadth-first search on a small budget, then A* with LM-cut,
which searches symmetric states once (merging costs about what breadth-first search spends per
state, so it pays only where each state costs an LM-cut evaluation).  An action takes the state
closer exactly when it is applicable and ``h*(s[a]) = h*(s) - 1``.  A claimed optimal cost (a
question's stored one) is a *hint* used only once checked: when LM-cut proves ``h*(s) >= opt``
and a plan of ``opt - 1`` steps follows the action, both costs are proven without the optimal
search from ``s``.  Without a hint the same shortcut often works: greedy search finds a plan of
``L`` steps after the action, and a search from ``s`` bounded by ``L`` that finds no plan proves
``h*(s) = L + 1``; when it finds one, it has found ``h*(s)``, and a search from ``s[a]`` bounded
by ``h*(s) - 1`` decides.  "Closer to the goal" presupposes that the goal is reachable: when it is
not, :class:`~.proof.FalsePremise` says so with the proof.
"""

from __future__ import annotations

from ..errors import ResourceLimitError
from ..limits import Deadline
from ..strips.ff import greedy_search
from ..strips.relaxed import astar_length, optimal_length
from .planner import Planner
from .proof import Method, Proof
from .task import State, Step, show, shows

#: States the breadth-first search gets before A* with LM-cut takes over.
_BREADTH_FIRST_STATES = 5_000


def shortest(planner: Planner, state: State, deadline: Deadline,
             bound: int | None = None) -> int | None:
    """The length of a shortest plan from ``state``: ``None`` when the goal is unreachable
    from it (or, with ``bound``, further than ``bound``)."""
    search = planner.goal_search(deadline)
    ground = search.starting_at(state)
    try:
        return optimal_length(ground, min(planner.max_states, _BREADTH_FIRST_STATES), bound,
                              deadline)
    except ResourceLimitError:
        if deadline.expired():
            raise
        return astar_length(ground, planner.max_states, bound, deadline, search.heuristic,
                            search.merge)


def _greedy_plan(planner: Planner, state: State, deadline: Deadline) -> tuple | None:
    """Some plan from ``state`` found by greedy search on a small budget, or ``None``."""
    search = planner.goal_search(deadline)
    try:
        found = greedy_search(search.starting_at(state), deadline,
                              min(planner.max_states, _BREADTH_FIRST_STATES), search.ff)
    except ResourceLimitError:
        if deadline.expired():
            raise
        return None
    return found.plan


def _hint_holds(planner: Planner, after: State, plan: tuple | None, hint: int,
                deadline: Deadline) -> bool:
    """Whether LM-cut proves ``h*(s) >= hint`` and a plan of at most ``hint - 1`` steps leads
    from ``after`` to the goal (``plan``, one found already, or a bounded optimal search):
    then ``h*(after) = hint - 1`` and ``h*(s) = hint``."""
    search = planner.goal_search(deadline)
    if search.heuristic(search.ground.init) < hint:
        return False
    if plan is not None and len(plan) <= hint - 1:
        return True
    return shortest(planner, after, deadline, bound=hint - 1) is not None


def optimal_cost(planner: Planner, deadline: Deadline,
                 what: str = "an optimal-cost question") -> int:
    """h* of the current state; :class:`~.proof.FalsePremise` (``what`` presupposes a plan)
    when the goal is unreachable."""
    state = planner.task.state
    if state not in planner.optimal:
        planner.optimal[state] = shortest(planner, state, deadline)
    cost = planner.optimal[state]
    if cost is None:
        planner.require_plan(deadline, what)
        raise RuntimeError("optimal search and plan search disagree on the goal's reachability")
    return cost


def next_action(planner: Planner, step: Step, deadline: Deadline,
                hint: int | None = None) -> Proof:
    """Whether ``step`` is applicable now and takes the current state one step closer to the
    goal (``h*(s[a]) = h*(s) - 1``); ``hint``: a claimed h*(s), checked before it is used.
    :class:`~.task.NotAnAction` when ``step`` names no ground action."""
    task = planner.task
    action = task.action(step)
    missing = action.pre - task.state
    if missing:
        planner.require_plan(deadline, "a next-action question")
        return Proof(False, Method.STATE, f"not applicable: {show(step)} has false "
                                          f"precondition(s) {shows(missing)}")
    after = action.apply(task.state)
    plan = _greedy_plan(planner, after, deadline)
    if hint and _hint_holds(planner, after, plan, hint, deadline):
        return Proof(True, Method.OPTIMAL, f"h* drops from {hint} to {hint - 1} (LM-cut proves "
                                           f"h* >= {hint}, a plan of {hint - 1} steps follows "
                                           f"{show(step)})")
    if plan is not None and task.state not in planner.optimal:
        # A plan of L steps after the action and none of L steps or fewer from the current
        # state prove h*(s) = L + 1 and h*(s[a]) = L at once; otherwise the bounded search
        # found h*(s) itself.
        bound = len(plan)
        cost = shortest(planner, task.state, deadline, bound=bound)
        planner.optimal[task.state] = bound + 1 if cost is None else cost
        if cost is None:
            return Proof(True, Method.OPTIMAL, f"h* drops from {bound + 1} to {bound}")
    cost = optimal_cost(planner, deadline, "a next-action question")
    if cost == 0:
        return Proof(False, Method.STATE, "the goal already holds; no action brings it closer")
    if shortest(planner, after, deadline, bound=cost - 1) == cost - 1:
        return Proof(True, Method.OPTIMAL, f"h* drops from {cost} to {cost - 1}")
    return Proof(False, Method.OPTIMAL, f"h* is {cost} now and not {cost - 1} after {show(step)}")
