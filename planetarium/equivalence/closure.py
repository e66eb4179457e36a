"""Sets of reachable goal states beyond positive goals: closures of literal goals, explicit sets.

For a goal that is a conjunction of literals (``P`` must hold, ``N`` must not), let ``G`` be its
reachable goal states and ``R`` all reachable states.  With ``F+`` the atoms true in every state
of ``G`` and ``F-`` the atoms false in every one, ``G = {s in R : F+ <= s, F- & s = {}}``: every
literal of the goal is in ``F+`` or ``F-``, and every state of ``G`` agrees with both.  Atoms
false in *every reachable* state are in ``F-`` on both sides of any bijection that maps one
initial state onto the other, so only ``F- & U`` (``U``: atoms true in some reachable state)
needs comparing.  :class:`Closure` holds ``F+`` and ``F- & U``; comparing them under a bijection
that maps the initial states decides Definition 2 exactly, like ``fully_specify`` for positive
goals.

Two ways to get a closure, both exact:

* **closed form** (the domain's ``fully_specify`` is a closed form for this initial state): a
  negative literal ``n`` is *redundant* when ``P + n`` has no reachable goal state, and makes the
  goal unsatisfiable when ``n`` is in ``F+(P)``; when every negative literal is one of these,
  ``G`` is the positive goal's set, ``F+ = fully_specify(P)``, and an atom ``x`` of ``U`` is in
  ``F-`` iff ``P + x`` has no reachable goal state — ``fully_specify`` answers both questions;
* **generic** otherwise (a negative literal that really cuts the positive goal's states, or an
  initial state no closed form covers): every atom settled by a witness state or a proof
  (:func:`planetarium.strips.forced.literal_closure`); past the deadline ``ResourceLimitError``
  (``timeout``).  :func:`search_closure`, the explicit enumeration, is the referee the
  conformance kit compares it with.

Goals with ``or`` / ``imply`` / ``exists`` / ``forall`` have no such closure (``G`` is not
determined by ``F+`` and ``F-``); :func:`explicit_goal_states` enumerates them instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..domains.base import Domain
from ..errors import ResourceLimitError
from ..limits import check_deadline
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..strips import exact, forced
from ..strips.goals import goal_holds
from ..strips.grounding import candidates_for, ground_actions, reachable_states

CLOSED_FORM, SEARCH, GENERIC = "closed-form", "search", "generic"

#: Candidate atoms the closed form tests one by one before handing the problem to the search.
MAX_CANDIDATE_ATOMS = 20_000


@dataclass(frozen=True)
class Closure:
    """``positive``: true in every reachable goal state; ``negative``: false in every one but
    true in some reachable state; ``positive_only``: the goal states are exactly the reachable
    states containing ``positive`` (negative literals, if any, add nothing); ``how``: which
    method decided it."""

    positive: frozenset[Atom]
    negative: frozenset[Atom]
    positive_only: bool
    how: str


def candidate_atoms(domain: Domain, problem: Problem) -> list[Atom]:
    """Every ground atom of the domain's predicates over the problem's objects, types fitting."""
    definition = domain.definition
    atoms: list[Atom] = []
    for predicate, param_types in sorted(definition.predicates.items()):
        pools = [candidates_for(definition, problem, t) for t in param_types]
        atoms.extend((predicate, *args) for args in itertools.product(*pools))
        if len(atoms) > MAX_CANDIDATE_ATOMS:
            raise ResourceLimitError(f"more than {MAX_CANDIDATE_ATOMS} ground atoms to test")
    return atoms


def literal_closure(domain: Domain, problem: Problem) -> Closure | None:
    """The closure of a goal of literals, ``None`` when no reachable state satisfies it."""
    if problem.goal_formula is not None:
        raise ValueError("literal_closure needs a conjunction of literals")
    if domain.closed_form_covers(problem):
        try:
            return _closed_form(domain, problem)
        except _NeedsSearch:
            pass
    return generic_closure(domain, problem)


def generic_closure(domain: Domain, problem: Problem) -> Closure | None:
    """The closure from the domain file alone, each atom settled by a witness or a proof."""
    closure = forced.literal_closure(domain.definition, problem)
    if closure is None:
        return None
    return Closure(*closure, GENERIC)


class _NeedsSearch(Exception):
    """A negative literal cuts the positive goal's states: no closed form applies."""


def _closed_form(domain: Domain, problem: Problem) -> Closure | None:
    positive_goal = replace(problem, negative_goal=frozenset())
    forced = domain.fully_specify(positive_goal)
    if forced is None:
        return None

    def satisfiable_with(atom: Atom) -> bool:
        return atom in forced or domain.fully_specify(
            replace(positive_goal, goal=problem.goal | {atom})) is not None

    for atom in problem.negative_goal:
        check_deadline("negative goal closure")
        if atom in forced:
            return None
        if satisfiable_with(atom):
            raise _NeedsSearch
    negative = []
    for index, atom in enumerate(candidate_atoms(domain, problem)):
        if not index & 0xF:  # each test runs fully_specify, linear in the problem
            check_deadline("negative goal closure")
        if not satisfiable_with(atom) and domain.fully_specify(
                replace(positive_goal, goal=frozenset({atom}))) is not None:
            negative.append(atom)
    return Closure(forced, frozenset(negative), True, CLOSED_FORM)


def search_closure(domain: Domain, problem: Problem,
                   max_states: int | None = None) -> Closure | None:
    """The closure by enumerating every reachable state (bounded; ResourceLimitError past it)."""
    goals, reachable_atoms, containing = _enumerate(domain, problem, max_states)
    if not goals:
        return None
    positive = frozenset.intersection(*goals)
    negative = frozenset(reachable_atoms - frozenset.union(*goals))
    return Closure(positive, negative, containing(positive) == len(goals), SEARCH)


def _enumerate(domain: Domain, problem: Problem, max_states: int | None
               ) -> tuple[list[frozenset[Atom]], set[Atom], Callable[[frozenset[Atom]], int]]:
    """Goal states, atoms of all reachable states, and a counter of reachable states holding a
    given atom set (to tell whether the negative literals cut anything)."""
    definition = domain.definition
    actions = list(ground_actions(definition, problem))
    budget = exact.MAX_STATES if max_states is None else max_states
    states = list(reachable_states(actions, frozenset(problem.init), budget))
    goals = [s for s in states if goal_holds(problem, s, definition.is_subtype)]
    atoms = set().union(*states)
    return goals, atoms, lambda facts: sum(1 for s in states if facts <= s)


def explicit_goal_states(domain: Domain, problem: Problem,
                         max_states: int | None = None) -> frozenset[frozenset]:
    """Every reachable goal state, explicitly (any goal formula); ResourceLimitError past the
    budget."""
    goals, _ = exact.reachable_goal_states(domain.definition, problem, max_states)
    return frozenset(goals)
