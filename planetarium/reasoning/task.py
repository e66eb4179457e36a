"""One planning task asked about: a domain and a problem whose initial state is the current state.

Questions about a task (ACPBench's, ActionReasoningBench's) name actions and facts as
``(name arg ...)`` tuples, which may name nothing at all: an unknown action, the wrong number of
arguments, an undeclared object, an object of the wrong type.  :class:`GroundedTask` turns such
a step into a ground action or says why it is none, and answers the questions every benchmark
asks of states: is an action applicable (and if not, which preconditions are false: the
certificate), what state follows, what does a sequence of actions do and where does it first
fail.  It is built once per task; the searches over it live in :mod:`.planner`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..errors import PlanetariumError, UnsupportedFeatureError
from ..limits import Deadline
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..strips.grounding import GroundAction, fits_type, ground_action
from ..strips.joins import FactIndex, bindings
from ..strips.search import GroundInstance, relaxed_ground

Step = tuple[str, ...]  # (name, arg, ...) in lower case: an action or an atom
State = frozenset  # of ground atoms


def show(step: Step) -> str:
    """``(name arg ...)``, as PDDL writes it."""
    return "(" + " ".join(step) + ")"


def shows(steps: Iterable[Step], limit: int = 4) -> str:
    """Up to ``limit`` steps, sorted, and how many more there are."""
    ordered = sorted(steps)
    more = f" and {len(ordered) - limit} more" if len(ordered) > limit else ""
    return ", ".join(show(s) for s in ordered[:limit]) + more


class NotAnAction(PlanetariumError, ValueError):
    """A step that names no ground action of the task (the message says why)."""


@dataclass(frozen=True)
class Inexecutable:
    """Where a sequence of steps first fails, and why: the certificate of inexecutability."""

    index: int  # 0-based position in the sequence
    step: Step
    reason: str
    missing: frozenset[Atom] = frozenset()  # its false preconditions (empty: no action at all)

    @property
    def is_action(self) -> bool:
        """Whether the failing step is a ground action of the task (just not applicable)."""
        return bool(self.missing)


@dataclass(frozen=True)
class Trace:
    """The states a sequence of steps passes through, up to its first inexecutable step."""

    states: tuple[State, ...]  # states[0] the start; states[i + 1] after step i
    failure: Inexecutable | None

    @property
    def executable(self) -> bool:
        return self.failure is None

    @property
    def final(self) -> State:
        """The state after the last step that ran."""
        return self.states[-1]


class GroundedTask:
    """A domain and a problem, grounded once; the problem's initial state is the current state.

    Only conjunctive positive goals are asked about (:attr:`goal` refuses others).
    """

    def __init__(self, domain: DomainDef, problem: Problem) -> None:
        self.domain = domain
        self.problem = problem
        self.state: State = problem.init
        self._relaxed: tuple[list[GroundInstance], set[Atom]] | None = None
        #: The ground actions named so far: questions ask about the same steps again and
        #: again (every action of a universe, in state after state).
        self._ground: dict[Step, GroundAction] = {}

    @classmethod
    def over_objects(cls, domain: DomainDef, type_of: Mapping[str, str],
                     state: Iterable[Atom] = ()) -> GroundedTask:
        """A task over the objects of ``type_of`` (object -> type), ``state`` the current
        state, with no goal: for questions about what actions do where there is no problem
        file (an ActionReasoningBench instance is its objects and a state)."""
        problem = Problem(f"{domain.name}-objects", domain.name, tuple(type_of),
                          tuple(type_of.values()), frozenset(state), frozenset())
        return cls(domain, problem)

    @property
    def goal(self) -> frozenset[Atom]:
        if not self.problem.has_plain_goal:
            raise UnsupportedFeatureError("questions about the goal need a conjunction of "
                                          "positive atoms")
        return self.problem.goal

    @cached_property
    def types(self) -> dict[str, str]:
        return self.problem.type_of

    @cached_property
    def fluents(self) -> frozenset[str]:
        """Predicates some action changes (a task's "propositions", as the questions say)."""
        return frozenset(set(self.domain.predicates) - self.domain.static_predicates)

    # --- naming: steps as ground actions or atoms ---------------------------------------------

    def _arguments_problem(self, args: Step, types: tuple[str, ...], what: str) -> str | None:
        if len(args) != len(types):
            return f"{what} takes {len(types)} argument(s), got {len(args)}"
        for arg, wanted in zip(args, types, strict=True):
            if arg not in self.types:
                return f"object '{arg}' is not in the problem"
            if not fits_type(self.domain, self.types[arg], wanted):
                return f"'{arg}' is a {self.types[arg]}, {what} needs a {wanted} there"
        return None

    def why_not_action(self, step: Step) -> str | None:
        """Why ``step`` names no ground action of the task (``None`` when it names one)."""
        if not step:
            return "empty parentheses, not an action"
        lifted = self.domain.actions.get(step[0])
        if lifted is None:
            return f"'{step[0]}' is not an action of domain '{self.domain.name}'"
        return self._arguments_problem(step[1:], tuple(t for _, t in lifted.parameters),
                                       f"action '{step[0]}'")

    def action(self, step: Step) -> GroundAction:
        """The ground action ``step`` names; :class:`NotAnAction` (with why) when it names none."""
        found = self._ground.get(step)
        if found is None:
            why = self.why_not_action(step)
            if why is not None:
                raise NotAnAction(why)
            found = self._ground[step] = ground_action(self.domain.actions[step[0]], step[1:])
        return found

    def atom_problem(self, step: Step, fluent_only: bool = True) -> str | None:
        """Why ``step`` is not one of the task's atoms (``None`` when it is one); with
        ``fluent_only`` an atom of a predicate no action changes is refused too."""
        if not step:
            return "empty parentheses, not a proposition"
        signature = self.domain.predicates.get(step[0])
        if signature is None:
            return f"'{step[0]}' is not a predicate of domain '{self.domain.name}'"
        if fluent_only and step[0] not in self.fluents:
            return (f"'{step[0]}' is a static predicate (no action changes it), not one of the "
                    "task's propositions")
        return self._arguments_problem(step[1:], signature, f"predicate '{step[0]}'")

    # --- states and actions --------------------------------------------------------------------

    def unmet(self, state: State, step: Step) -> frozenset[Atom]:
        """The preconditions of ``step`` false in ``state`` (empty: applicable)."""
        return self.action(step).pre - state

    def applicable(self, state: State, step: Step) -> bool:
        """Whether the ground action ``step`` can be applied in ``state``."""
        return self.action(step).pre <= state

    def progress(self, state: State, step: Step) -> State:
        """The state after applying ``step`` in ``state``; :class:`NotAnAction` when it is not
        applicable there (the message names its false preconditions)."""
        action = self.action(step)
        missing = action.pre - state
        if missing:
            raise NotAnAction(f"{show(step)} is not applicable: false precondition(s) "
                              f"{shows(missing)}")
        return action.apply(state)

    def effects(self, state: State, step: Step) -> tuple[frozenset[Atom], frozenset[Atom]]:
        """``(t - s, s - t)`` for ``t`` the state after ``step`` in ``s = state``: what it
        makes true and what it makes false (whether or not it is applicable there)."""
        after = self.action(step).apply(state)
        return frozenset(after - state), frozenset(state - after)

    def run(self, state: State, steps: Sequence[Step]) -> Trace:
        """Apply ``steps`` in turn from ``state`` and stop at the first that cannot run."""
        states = [state]
        for index, step in enumerate(steps):
            try:
                action = self.action(step)
            except NotAnAction as err:
                return Trace(tuple(states), Inexecutable(index, step, str(err)))
            missing = action.pre - state
            if missing:
                return Trace(tuple(states), Inexecutable(
                    index, step, f"{show(step)} has false precondition(s) {shows(missing)}",
                    frozenset(missing)))
            state = action.apply(state)
            states.append(state)
        return Trace(tuple(states), None)

    @cached_property
    def _pools(self) -> dict[str, dict[str, dict[str, None]]]:
        return {name: {v: dict.fromkeys(o for o in self.problem.objects
                                        if fits_type(self.domain, self.types[o], t))
                       for v, t in action.parameters}
                for name, action in self.domain.actions.items()}

    def applicable_actions(self, state: State | None = None) -> set[Step]:
        """Every ground action applicable in ``state`` (default: the current state)."""
        state = self.state if state is None else state
        facts = FactIndex(state)
        out: set[Step] = set()
        for action in self.domain.actions.values():
            for binding in bindings(action, facts, self._pools[action.name]):
                out.add((action.name,) + tuple(binding[v] for v, _ in action.parameters))
        return out

    def universe_atoms(self) -> list[Step]:
        """Every type-consistent ground atom of the fluent predicates, sorted."""
        out: list[Step] = []
        for pred in sorted(self.fluents):
            pools = [[o for o in self.problem.objects if fits_type(self.domain, self.types[o], t)]
                     for t in self.domain.predicates[pred]]
            out.extend((pred,) + args for args in itertools.product(*pools))
        return out

    def universe_actions(self) -> Iterator[Step]:
        """Every type-consistent ground action."""
        for name, action in self.domain.actions.items():
            pools = [list(self._pools[name][v]) for v, _ in action.parameters]
            for args in itertools.product(*pools):
                yield (name,) + args

    # --- the delete relaxation from the current state ------------------------------------------

    def relaxed(self, deadline: Deadline | None = None) -> tuple[list[GroundInstance], set[Atom]]:
        """The ground actions whose preconditions are delete-relaxed reachable from the current
        state, and the atoms reachable that way (a superset of every reachable state's atoms).
        Built on the first call; ``deadline`` bounds that grounding."""
        if self._relaxed is None:
            self._relaxed = relaxed_ground(self.domain, self.problem, deadline)
        return self._relaxed
