"""Running actions over an ARB instance: the one place the ARB package asks STRIPS semantics.

Every question ARB asks is answered from the states an action sequence passes through, which
actions apply in a state and, for one that does not, which precondition fails.  All of it goes
through :mod:`planetarium.strips.grounding` (``ground_action``: the STRIPS triple; ``(s - del) |
add``), behind this small module, so the shared question-semantics layer can take its place in
one spot.  A :class:`World` is one instance (domain and typed objects); it grounds lazily and
keeps what it grounded, so the many questions over one instance share the work.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..strips.grounding import GroundAction, ground_action
from .domain import ArbDomain, Atom

State = frozenset  # of positive ground atoms; everything else in the universe is false
Step = tuple[str, tuple[str, ...]]  # (action name, arguments)


@dataclass(frozen=True)
class Run:
    """What a sequence did: ``states[i]`` is the state before step ``i`` (``states[-1]`` the last
    one reached); ``failed`` is the index of the first step that could not run (None: all ran)
    and ``missing`` its false preconditions."""

    states: tuple[State, ...]
    failed: int | None = None
    missing: frozenset[Atom] = frozenset()


@dataclass
class World:
    """One instance: a domain and its objects (``type_of``: object -> type)."""

    domain: ArbDomain
    type_of: Mapping[str, str]
    _ground: dict[Step, GroundAction] = field(default_factory=dict, repr=False)
    _fluents: frozenset[Atom] | None = field(default=None, repr=False)
    _actions: tuple[Step, ...] | None = field(default=None, repr=False)

    @property
    def fluents(self) -> frozenset[Atom]:
        """Every ground fluent of the instance (a state's negative fluents are the rest)."""
        if self._fluents is None:
            self._fluents = frozenset(self.domain.fluent_universe(self.type_of))
        return self._fluents

    @property
    def actions(self) -> tuple[Step, ...]:
        """Every ground action of the instance, in the domain's order."""
        if self._actions is None:
            self._actions = tuple(self.domain.action_universe(self.type_of))
        return self._actions

    def is_action(self, step: Step) -> bool:
        return self.domain.is_action(step[0], step[1], self.type_of)

    def ground(self, step: Step) -> GroundAction:
        """The STRIPS triple of ``step`` (which must be one of the instance's actions)."""
        found = self._ground.get(step)
        if found is None:
            found = ground_action(self.domain.actions[step[0]].action, step[1])
            self._ground[step] = found
        return found

    def missing(self, step: Step, state: State) -> frozenset[Atom]:
        """The preconditions of ``step`` false in ``state`` (empty: it applies)."""
        return self.ground(step).pre - state

    def applies(self, step: Step, state: State) -> bool:
        return self.ground(step).pre <= state

    def apply(self, step: Step, state: State) -> State:
        """The successor of ``state`` under ``step`` (no applicability check)."""
        return self.ground(step).apply(state)

    def run(self, state: State, steps: Sequence[Step]) -> Run:
        """Steps in order from ``state``, stopping at the first that does not apply."""
        states = [state]
        for index, step in enumerate(steps):
            missing = self.missing(step, state)
            if missing:
                return Run(tuple(states), index, missing)
            state = self.apply(step, state)
            states.append(state)
        return Run(tuple(states))

    def executable(self, state: State) -> list[Step]:
        """The instance's actions that apply in ``state``, in the domain's order."""
        return [step for step in self.actions if self.applies(step, state)]

    def negatives(self, state: State) -> frozenset[Atom]:
        """The ground fluents false in ``state``."""
        return self.fluents - state


def initial_state(atoms: Iterable[Atom]) -> State:
    return frozenset(atoms)
