"""Plans from the current state: validation (where a sequence first fails, whether it reaches the
goal) and justification (which actions can be removed and still leave a plan)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..pddl.domain import Atom
from .task import GroundedTask, State, Step, Trace, shows


@dataclass(frozen=True)
class PlanCheck:
    """A sequence of steps run from a state: its trace, and the goal atoms false at its end."""

    trace: Trace
    unmet: frozenset[Atom]  # goal atoms false after the last step (when every step ran)

    @property
    def ok(self) -> bool:
        """Whether every step ran and the goal holds at the end: the sequence is a plan."""
        return self.trace.executable and not self.unmet

    @property
    def reason(self) -> str:
        steps = len(self.trace.states) - 1
        if self.trace.failure is not None:
            return f"step {self.trace.failure.index}: {self.trace.failure.reason}"
        if self.unmet:
            return f"after {steps} step(s) the goal is not satisfied: {shows(self.unmet)}"
        return f"plan of {steps} step(s) reaches the goal"


def check_plan(task: GroundedTask, plan: Sequence[Step], state: State | None = None) -> PlanCheck:
    """Run ``plan`` from ``state`` (default: the current state) and check the goal at its end."""
    trace = task.run(task.state if state is None else state, plan)
    unmet = frozenset(task.goal - trace.final) if trace.executable else frozenset()
    return PlanCheck(trace, unmet)


def is_subsequence(short: Sequence[Step], long: Sequence[Step]) -> bool:
    """Whether ``short`` is ``long`` with some steps left out (order kept)."""
    rest = iter(long)
    return all(any(step == other for other in rest) for step in short)


def places(plan: Sequence[Step], removed: Sequence[Step]) -> list[int]:
    """Every position where ``plan`` holds the steps ``removed`` consecutively."""
    width = len(removed)
    return [i for i in range(len(plan) - width + 1) if list(plan[i:i + width]) == list(removed)]


def without(plan: Sequence[Step], start: int, width: int) -> list[Step]:
    """``plan`` with ``width`` steps removed at ``start``."""
    return list(plan[:start]) + list(plan[start + width:])
