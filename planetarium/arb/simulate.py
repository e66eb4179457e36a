"""Running actions over an ARB instance: ARB's ground universe over the shared STRIPS semantics.

ARB asks about *every* ground fluent and action of an instance, by its own rule of which
groundings exist (:class:`.domain.ArbDomain`: typed parameters, pairs of parameters that must
name different objects); that universe is ARB's and is enumerated here.  What actions *do* —
whether one applies in a state, which of its preconditions are false, the state that follows,
where a sequence first fails — is asked of :class:`planetarium.reasoning.GroundedTask`, the
STRIPS question semantics ACPBench's grader uses too (issue 28.5).  ARB writes a step
``(name, args)``; the shared layer ``(name, arg, ...)``: :func:`flat` converts.

A :class:`World` is one instance (domain and typed objects), built once and shared by the many
questions over it; the shared task grounds lazily and keeps what it grounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..reasoning import GroundedTask, Trace
from .domain import ArbDomain, Atom

State = frozenset  # of positive ground atoms; everything else in the universe is false
Step = tuple[str, tuple[str, ...]]  # (action name, arguments)

__all__ = ["State", "Step", "Trace", "World", "flat"]


def flat(step: Step) -> tuple[str, ...]:
    """ARB's ``(name, args)`` as the shared layer writes a step: ``(name, arg, ...)``."""
    return (step[0], *step[1])


@dataclass
class World:
    """One instance: a domain and its objects (``type_of``: object -> type).

    Every step asked about must be one of the instance's actions (:meth:`is_action`; the
    questions' readers admit no other): the shared task checks arguments against the domain's
    types as PDDL does, which ARB's universe only narrows."""

    domain: ArbDomain
    type_of: Mapping[str, str]
    _flat: dict[Step, tuple[str, ...]] = field(default_factory=dict, repr=False)

    @cached_property
    def task(self) -> GroundedTask:
        """The instance as the shared STRIPS layer asks about it (no goal, no current state:
        every question names its own state)."""
        return GroundedTask.over_objects(self.domain.definition, self.type_of)

    @cached_property
    def fluents(self) -> frozenset[Atom]:
        """Every ground fluent of the instance (a state's negative fluents are the rest)."""
        return frozenset(self.domain.fluent_universe(self.type_of))

    @cached_property
    def actions(self) -> tuple[Step, ...]:
        """Every ground action of the instance, in the domain's order."""
        return tuple(self.domain.action_universe(self.type_of))

    def is_action(self, step: Step) -> bool:
        return self.domain.is_action(step[0], step[1], self.type_of)

    def _step(self, step: Step) -> tuple[str, ...]:
        found = self._flat.get(step)
        if found is None:
            found = self._flat[step] = flat(step)
        return found

    def missing(self, step: Step, state: State) -> frozenset[Atom]:
        """The preconditions of ``step`` false in ``state`` (empty: it applies)."""
        return self.task.unmet(state, self._step(step))

    def applies(self, step: Step, state: State) -> bool:
        return self.task.applicable(state, self._step(step))

    def apply(self, step: Step, state: State) -> State:
        """The successor of ``state`` under ``step`` (``NotAnAction`` when it does not apply)."""
        return self.task.progress(state, self._step(step))

    def run(self, state: State, steps: Sequence[Step]) -> Trace:
        """Steps in order from ``state``, stopping at the first that does not apply (its
        index and false preconditions in ``failure``)."""
        return self.task.run(state, [self._step(s) for s in steps])

    def executable(self, state: State) -> list[Step]:
        """The instance's actions that apply in ``state``, in the domain's order."""
        return [step for step in self.actions if self.task.applicable(state, self._step(step))]

    def negatives(self, state: State) -> frozenset[Atom]:
        """The ground fluents false in ``state``."""
        return self.fluents - state
