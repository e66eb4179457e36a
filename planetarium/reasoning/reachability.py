"""Can a fact ever hold, can an action ever become applicable, from the current state?

Each answer is a :class:`~.proof.Proof` from :meth:`.planner.Planner.prove`: certificates first
(delete relaxation, then h^2), exact search second.  The "every ..." forms check every atom's or
action's certificate before any search, so a cheap counterexample is found before an expensive
one; a breadth-first sweep of the first states marks most atoms and actions reachable at once,
and the states along each search's plan are known reachable for the rest.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..limits import Deadline
from ..pddl.domain import Atom
from ..strips.relaxed import h2_mutex
from .planner import Planner
from .proof import Method, Proof
from .task import Step, shows


def reachable(planner: Planner, atoms: Iterable[Atom], deadline: Deadline) -> Proof:
    """Whether some reachable state holds every atom of ``atoms``."""
    return planner.prove(atoms, deadline)


def action_reachable(planner: Planner, step: Step, deadline: Deadline) -> Proof:
    """Whether the ground action ``step`` is applicable in some reachable state
    (:class:`~.task.NotAnAction` when it names none)."""
    return planner.prove(planner.task.action(step).pre, deadline)


def all_atoms_reachable(planner: Planner, deadline: Deadline) -> Proof:
    """Whether every type-consistent atom of a fluent predicate holds in some reachable state;
    when not, ``about`` is one that never does."""
    task = planner.task
    atoms = task.universe_atoms()
    reached = task.relaxed(deadline)[1]
    for atom in atoms:
        if atom not in reached:
            return Proof(False, Method.RELAXED, "not delete-relaxed reachable", about=atom)
    pairs = planner.h2(deadline)
    for atom in atoms:
        if h2_mutex(pairs, [atom]):
            return Proof(False, Method.H2, "h^2 finds no way to reach it", about=atom)
    explored = planner.explored(deadline)[0]
    for atom in atoms:
        if atom in explored or planner.seen(atom):
            continue
        proof = planner.prove([atom], deadline, certificates_first=False)
        if not proof.holds:
            return Proof(False, proof.method, proof.reason, about=atom)
    return Proof(True, Method.PLAN, "every proposition of the task holds in some reachable state")


def all_actions_reachable(planner: Planner, deadline: Deadline) -> Proof:
    """Whether every type-consistent ground action is applicable in some reachable state; when
    not, ``about`` is one that never is."""
    task = planner.task
    steps = list(task.universe_actions())
    reached = task.relaxed(deadline)[1]
    for step in steps:
        pre = task.action(step).pre
        if not pre <= reached:
            return Proof(False, Method.RELAXED, f"precondition {shows(pre - reached)} is not "
                                                "delete-relaxed reachable", about=step)
    pairs = planner.h2(deadline)
    for step in steps:
        mutex = h2_mutex(pairs, task.action(step).pre)
        if mutex:
            return Proof(False, Method.H2, f"preconditions {shows(set(mutex))} are h^2 mutex",
                         about=step)
    explored = planner.explored(deadline)[1]
    for step in steps:
        if step in explored:
            continue
        proof = planner.prove(task.action(step).pre, deadline, certificates_first=False)
        if not proof.holds:
            return Proof(False, proof.method, proof.reason, about=step)
    return Proof(True, Method.PLAN, "every ground action can become applicable")

