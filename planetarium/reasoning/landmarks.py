"""Fact landmarks: atoms every plan from the current state makes true at some point.

An atom is a landmark exactly when the goal is unreachable once the atom is forbidden (no action
that adds it may run).  That is decided by :meth:`.planner.Planner.prove` with the atom
forbidden: the delete relaxation without the atom's achievers (the classic landmark test), a
plan found earlier that never visits it, h^2 without its achievers, then an exact search — FF
greedy search, which finds a plan avoiding the atom quickly when there is one, and proves there
is none by exhausting the states (dead ends pruned by the relaxation; symmetric states merged
when the search is large).  So every landmark question is decided, not given up on.

"Every plan" presupposes that there is a plan: when the goal is unreachable every atom would be
a landmark vacuously, and the question is a bad one (:class:`~.proof.FalsePremise`).
"""

from __future__ import annotations

from ..limits import Deadline
from ..pddl.domain import Atom
from ..strips.relaxed import relaxed_closure
from .planner import Planner
from .proof import Method, Proof

_WHY = {Method.RELAXED: "without it the goal is not even delete-relaxed reachable",
        Method.H2: "without it h^2 proves the goal unreachable"}


def is_landmark(planner: Planner, atom: Atom, deadline: Deadline) -> Proof:
    """Whether every plan from the current state makes ``atom`` true (it holds now, it is part
    of the goal, or the goal is unreachable with it forbidden).  :class:`~.proof.FalsePremise`
    when no plan exists at all."""
    task = planner.task
    planner.require_plan(deadline, "a landmark question")
    if atom in task.state:
        return Proof(True, Method.STATE, "it holds in the current state")
    if atom in task.goal:
        return Proof(True, Method.STATE, "it is part of the goal")
    avoided = planner.prove(task.goal, deadline, forbidden=[atom])
    if not avoided.holds:
        why = _WHY.get(avoided.method, f"no plan avoids it: {avoided.reason}")
        return Proof(True, avoided.method, why)
    if avoided.plan is not None:
        return Proof(False, Method.PLAN, f"a plan of {len(avoided.plan)} step(s) never makes "
                                         "it true", plan=avoided.plan)
    return Proof(False, Method.PLAN, "a search over states up to symmetry reaches the goal "
                                     "without it")


def nontrivial_landmark(planner: Planner, deadline: Deadline) -> Proof:
    """Whether some atom that holds neither now nor in the goal is a landmark; ``about`` is one
    when there is one.  :class:`~.proof.FalsePremise` when no plan exists at all.

    A landmark lies on every plan, so only the atoms some plan visits can be one: the plan of
    the goal proof gives the candidates (all delete-relaxed reachable atoms when the proof has
    no plan); their relaxation certificates are checked before any search, and every plan a
    search finds clears the candidates it avoids.
    """
    task = planner.task
    premise = planner.require_plan(deadline, "a landmark question")
    trivial = set(task.state) | set(task.goal)
    visited = (planner.visited(premise.plan) if premise.plan is not None
               else task.relaxed(deadline)[1])
    candidates = [a for a in sorted(visited - trivial) if a[0] in task.fluents]
    instances = task.relaxed(deadline)[0]
    for atom in candidates:
        if not task.goal <= relaxed_closure(instances, task.state, [atom]):
            return Proof(True, Method.RELAXED, _WHY[Method.RELAXED], about=atom)
    for atom in candidates:
        proof = is_landmark(planner, atom, deadline)
        if proof.holds:
            return Proof(True, proof.method, proof.reason, about=atom)
    return Proof(False, Method.PLAN, "no fact other than the current and goal ones lies on "
                                     "every plan")
