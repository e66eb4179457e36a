"""One generative question as a grounded STRIPS task, built once and queried by the scorers.

The question's PDDL problem holds the *current* state as its initial state.  This module turns
answer items (``(name arg ...)`` tuples) into ground actions or atoms with a reason when they are
not ones (unknown action, wrong arity, undeclared object, wrong type), and caches what several
checks share: the delete-relaxed grounding, the applicable actions, the optimal plan length.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..limits import Clock
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..strips.grounding import GroundAction, fits_type, ground_action
from ..strips.relaxed import h2_reachable_pairs
from ..strips.search import GroundInstance, _bindings, relaxed_ground
from .data import AcpItem

Step = tuple[str, ...]


#: The clock of the search budget: CPU time of the grading process, not wall-clock time, so a
#: machine busy with other work makes grading slower but never changes a verdict.
CLOCK = Clock.CPU


@dataclass
class Budget:
    """How much exact search a single question may use before it is reported undecided."""

    max_states: int = 200_000
    seconds: float = 20.0  # CPU seconds per answer (CLOCK); search past it is "undecided"


@dataclass
class AcpTask:
    """The grounded task of one question (see module docstring)."""

    domain: DomainDef
    problem: Problem
    budget: Budget = field(default_factory=Budget)
    cache: dict = field(default_factory=dict, repr=False)  # results scorers share (h*, ...)

    @classmethod
    def from_item(cls, item: AcpItem, budget: Budget | None = None) -> AcpTask:
        from .adl import read_task

        domain, problem = read_task(item.domain_pddl, item.problem_pddl)
        return cls(domain, problem, budget or Budget())

    def remaining(self) -> float | None:
        """CPU seconds left of this answer's budget (the scorer starts the clock)."""
        deadline = self.cache.get("deadline")
        return None if deadline is None else deadline.remaining()

    @property
    def state(self) -> frozenset[Atom]:
        return self.problem.init

    @cached_property
    def types(self) -> dict[str, str]:
        return dict(zip(self.problem.objects, self.problem.object_types, strict=True))

    @cached_property
    def fluents(self) -> frozenset[str]:
        """Predicates some action changes: the "available propositions" of the question text."""
        return frozenset(set(self.domain.predicates) - self.domain.static_predicates)

    def _arguments_problem(self, args: Step, types: tuple[str, ...], what: str) -> str | None:
        if len(args) != len(types):
            return f"{what} takes {len(types)} argument(s), got {len(args)}"
        for arg, wanted in zip(args, types, strict=True):
            if arg not in self.types:
                return f"object '{arg}' is not in the problem"
            if not fits_type(self.domain, self.types[arg], wanted):
                return f"'{arg}' is a {self.types[arg]}, {what} needs a {wanted} there"
        return None

    def action(self, step: Step) -> GroundAction | str:
        """The ground action ``step`` names, or why it names none."""
        if not step:
            return "empty parentheses, not an action"
        lifted = self.domain.actions.get(step[0])
        if lifted is None:
            return f"'{step[0]}' is not an action of domain '{self.domain.name}'"
        problem = self._arguments_problem(step[1:], tuple(t for _, t in lifted.parameters),
                                          f"action '{step[0]}'")
        return problem or ground_action(lifted, step[1:])

    def atom_problem(self, step: Step, fluent_only: bool = True) -> str | None:
        """Why ``step`` is not one of the task's propositions (``None`` when it is one)."""
        if not step:
            return "empty parentheses, not a proposition"
        signature = self.domain.predicates.get(step[0])
        if signature is None:
            return f"'{step[0]}' is not a predicate of domain '{self.domain.name}'"
        if fluent_only and step[0] not in self.fluents:
            return (f"'{step[0]}' is a static predicate (no action changes it), not one of the "
                    "task's propositions")
        return self._arguments_problem(step[1:], signature, f"predicate '{step[0]}'")

    @cached_property
    def _pools(self) -> dict[str, dict[str, dict[str, None]]]:
        return {name: {v: dict.fromkeys(o for o in self.problem.objects
                                        if fits_type(self.domain, self.types[o], t))
                       for v, t in action.parameters}
                for name, action in self.domain.actions.items()}

    def applicable(self, state: frozenset[Atom] | None = None) -> set[Step]:
        """Every ground action applicable in ``state`` (default: the current state)."""
        state = self.state if state is None else state
        by_pred: dict[str, set[Atom]] = {}
        for atom in state:
            by_pred.setdefault(atom[0], set()).add(atom)
        out: set[Step] = set()
        for action in self.domain.actions.values():
            for binding in _bindings(action, by_pred, self._pools[action.name]):
                out.add((action.name,) + tuple(binding[v] for v, _ in action.parameters))
        return out

    @cached_property
    def relaxed(self) -> tuple[list[GroundInstance], set[Atom]]:
        """Delete-relaxed grounding from the current state: its instances and atoms."""
        return relaxed_ground(self.domain, self.problem)

    @cached_property
    def h2(self) -> dict[Atom, set[Atom]]:
        """h^2 reachable pairs from the current state (see :func:`h2_reachable_pairs`)."""
        return h2_reachable_pairs(self.relaxed[0], self.state, self.cache.get("deadline"))

    def universe_atoms(self) -> list[Step]:
        """Every type-consistent ground atom of the fluent predicates."""
        import itertools

        out = []
        for pred in sorted(self.fluents):
            pools = [[o for o in self.problem.objects if fits_type(self.domain, self.types[o], t)]
                     for t in self.domain.predicates[pred]]
            out.extend((pred,) + args for args in itertools.product(*pools))
        return out

    def universe_actions(self):
        """Every type-consistent ground action, as steps."""
        import itertools

        for name, action in self.domain.actions.items():
            pools = [list(self._pools[name][v]) for v, _ in action.parameters]
            for args in itertools.product(*pools):
                yield (name,) + args

    def effects(self, step: Step) -> tuple[frozenset[Atom], frozenset[Atom]]:
        """``(t - s, s - t)`` for ``t`` the successor of the current state under ``step``."""
        action = self.action(step)
        if isinstance(action, str):
            raise ValueError(action)  # noqa: TRY004 - the scorers report ValueError as a data error
        after = action.apply(self.state)
        return after - self.state, self.state - after
