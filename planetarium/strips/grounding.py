"""Grounding and progression for STRIPS problems.

A grounded action is the triple of Definition 1 (pre, add, del) over ground atoms.  Grounding
prunes on static predicates (those no action changes), so only actions whose static
preconditions hold in the initial state are produced.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import itemgetter

from ..errors import ResourceLimitError
from ..limits import check_deadline
from ..pddl.domain import Action, Atom, DomainDef
from ..pddl.problem import Problem

State = frozenset  # of ground atoms


@dataclass(frozen=True)
class GroundAction:
    """One action instance: ``name`` and ``args`` as written in a plan, with its STRIPS triple."""

    name: str
    args: tuple[str, ...]
    pre: frozenset[Atom]
    add: frozenset[Atom]
    delete: frozenset[Atom]

    def applicable(self, state: State) -> bool:
        return self.pre <= state

    def apply(self, state: State) -> State:
        return (state - self.delete) | self.add

    def __str__(self) -> str:
        return "(" + " ".join((self.name,) + self.args) + ")"


def _substitute(atoms: tuple[Atom, ...], binding: dict[str, str]) -> frozenset[Atom]:
    return frozenset((a[0],) + tuple(binding.get(x, x) for x in a[1:]) for a in atoms)


def ground_action(action: Action, args: tuple[str, ...]) -> GroundAction:
    """Instantiate ``action`` with ``args`` (no applicability check)."""
    binding = {var: arg for (var, _), arg in zip(action.parameters, args, strict=True)}
    return GroundAction(
        name=action.name,
        args=tuple(args),
        pre=_substitute(action.precondition, binding),
        add=_substitute(action.add, binding),
        delete=_substitute(action.delete, binding),
    )


class Instantiator:
    """An action's atoms compiled for instantiating it many times (grounding makes thousands of
    instances of each action): each atom becomes its predicate and the places of its arguments
    in the action's step ``(name, arg, ...)`` extended by its constants, read with one
    :func:`operator.itemgetter` call instead of a dictionary look-up per argument."""

    def __init__(self, action: Action) -> None:
        slot = {v: i + 1 for i, (v, _) in enumerate(action.parameters)}
        extra: list[str] = []  # constants (and undeclared variables, kept as written)
        width = 1 + len(action.parameters)

        def compile_atoms(atoms: tuple[Atom, ...]) -> list[tuple[str, Callable[[tuple], tuple]]]:
            out = []
            for atom in atoms:
                places = []
                for term in atom[1:]:
                    if term not in slot:
                        slot[term] = width + len(extra)
                        extra.append(term)
                    places.append(slot[term])
                out.append((atom[0], _getter(places)))
            return out

        self.pre = compile_atoms(action.precondition)
        self.add = compile_atoms(action.add)
        self.delete = compile_atoms(action.delete)
        self.extra = tuple(extra)

    def __call__(self, step: tuple[str, ...]
                 ) -> tuple[frozenset[Atom], frozenset[Atom], frozenset[Atom]]:
        """The ground precondition, add and delete lists of the instance ``step``."""
        row = step + self.extra
        return (frozenset([(p,) + get(row) for p, get in self.pre]),
                frozenset([(p,) + get(row) for p, get in self.add]),
                frozenset([(p,) + get(row) for p, get in self.delete]))


def _getter(places: list[int]) -> Callable[[tuple], tuple]:
    """The arguments at ``places`` of a row, always as a tuple."""
    if len(places) > 1:
        return itemgetter(*places)
    if places:
        place = places[0]
        return lambda row: (row[place],)
    return lambda row: ()


def fits_type(domain: DomainDef, object_type: str, param_type: str) -> bool:
    """Whether an object of ``object_type`` may fill a parameter of ``param_type``.

    An object typed ``object`` in a typed domain comes from a problem read with relaxed typing
    (types ignored), so it may fill any parameter; the preconditions still constrain it.
    """
    return not domain.typed or object_type == "object" or domain.is_subtype(object_type, param_type)


def candidates_for(domain: DomainDef, problem: Problem, type_name: str) -> list[str]:
    """Objects of ``problem`` that may fill a parameter of type ``type_name``."""
    return [o for o, t in zip(problem.objects, problem.object_types, strict=True)
            if fits_type(domain, t, type_name)]


#: Candidate argument tuples (grounding) and action tests (enumeration) between two looks at
#: the grading deadline: a few milliseconds of work each.
_CLOCK_CANDIDATES = 1 << 10
_CLOCK_WORK = 1 << 14


def ground_actions(domain: DomainDef, problem: Problem) -> Iterator[GroundAction]:
    """Every action instance whose static preconditions hold in the initial state (the
    candidates grow as objects to the power of the parameters, so the deadline is checked)."""
    static_init = {a for a in problem.init if a[0] in domain.static_predicates}
    for action in domain.actions.values():
        pools = [candidates_for(domain, problem, t) for _, t in action.parameters]
        static_pre = [a for a in action.precondition if a[0] in domain.static_predicates]
        for count, args in enumerate(itertools.product(*pools)):
            if not count % _CLOCK_CANDIDATES:
                check_deadline("grounding the actions")
            binding = {var: arg for (var, _), arg in zip(action.parameters, args, strict=True)}
            if all((a[0],) + tuple(binding.get(x, x) for x in a[1:]) in static_init
                   for a in static_pre):
                yield ground_action(action, args)


class StateBudgetExceeded(ResourceLimitError):
    """More states are reachable than the caller allowed (not the clock running out)."""


def reachable_states(actions: list[GroundAction], init: State, max_states: int,
                     parents: dict[State, tuple[State, tuple[str, ...]]] | None = None
                     ) -> Iterator[State]:
    """Breadth-first enumeration of every state reachable from ``init``.

    Raises :class:`ResourceLimitError` when more than ``max_states`` states are reachable, so a
    caller can never mistake a truncated enumeration for the whole space.  With ``parents``,
    each state found records the state and ground action it was reached by (plan extraction);
    states come in breadth-first order, so the first one satisfying a goal is a closest one.
    """
    seen = {init}
    frontier = [init]
    yield init
    work = 0  # action tests since the last look at the deadline
    while frontier:
        next_frontier = []
        for state in frontier:
            work += len(actions) + 1
            if work >= _CLOCK_WORK:
                check_deadline("state enumeration")
                work = 0
            for action in actions:
                if action.pre <= state:
                    succ = (state - action.delete) | action.add
                    if succ not in seen:
                        if len(seen) >= max_states:
                            raise StateBudgetExceeded(
                                f"more than {max_states} reachable states; brute force gives up"
                            )
                        seen.add(succ)
                        if parents is not None:
                            parents[succ] = (state, (action.name,) + action.args)
                        next_frontier.append(succ)
                        yield succ
        frontier = next_frontier
