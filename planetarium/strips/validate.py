"""Plan validation: Planetarium's own VAL.

Replays a plan from the initial state under STRIPS semantics (``(s - del) | add``) and stops at
the first step that cannot run, naming the action and exactly which precondition atoms were
false; a plan that runs to the end but misses the goal names the goal atoms left unsatisfied.
Every planner answer is checked with it in the tests, so it must never crash: an unknown action,
a wrong number of arguments, an undeclared object, an argument of the wrong type or plan text
that does not parse are all reported as results, not raised.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import PDDLSyntaxError
from ..limits import check_deadline
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..pddl.writer import atom_to_pddl
from .goals import formula_holds
from .grounding import fits_type
from .plan_io import parse_plan

FailureKind = Literal["syntax", "malformed", "unknown-action", "arity", "unknown-object", "type",
                      "precondition", "goal"]


@dataclass(frozen=True)
class ValidationResult:
    """The verdict on one plan.

    ``step`` is the 0-based index of the first step that could not run (``None`` when the plan
    ran to its end, or did not parse); ``unsatisfied`` holds the false precondition atoms of that
    step, or the goal atoms the final state misses.
    """

    ok: bool
    message: str
    step: int | None = None
    kind: FailureKind | None = None
    unsatisfied: tuple[Atom, ...] = ()


#: Plan steps replayed between two looks at the grading deadline.
_CLOCK_EVERY = 1024


def _atoms(atoms: Iterable[Atom]) -> str:
    return " ".join(atom_to_pddl(a) for a in sorted(atoms))


def _ground(atoms: tuple[Atom, ...], binding: dict[str, str]) -> list[Atom]:
    return [(a[0],) + tuple(binding.get(x, x) for x in a[1:]) for a in atoms]


def _as_step(raw: object) -> tuple[str, ...] | None:
    if isinstance(raw, (tuple, list)) and raw and all(isinstance(x, str) and x for x in raw):
        return tuple(x.lower() for x in raw)
    return None


def validate_plan(domain: DomainDef, problem: Problem,
                  plan: Sequence[Sequence[str]] | str) -> ValidationResult:
    """Replay ``plan`` (ground actions, or plan text) on ``problem``; never raises on bad plans."""
    if isinstance(plan, str):
        try:
            plan = parse_plan(plan)
        except PDDLSyntaxError as err:
            return ValidationResult(False, f"plan does not parse: {err}", kind="syntax")
    types = dict(zip(problem.objects, problem.object_types, strict=True))
    state = set(problem.init)  # updated in place: copying the state per step would dominate
    for index, raw in enumerate(plan):
        if not index % _CLOCK_EVERY:
            check_deadline("plan validation")
        step = _as_step(raw)
        where = f"step {index + 1}"
        if step is None:
            return ValidationResult(False, f"{where}: {raw!r} is not an action (name, arg, ...)",
                                    index, "malformed")
        where = f"step {index + 1} ({' '.join(step)})"
        action = domain.actions.get(step[0])
        if action is None:
            known = ", ".join(sorted(domain.actions))
            return ValidationResult(
                False, f"{where}: domain '{domain.name}' has no action '{step[0]}' (it has: {known})",
                index, "unknown-action")
        args = step[1:]
        if len(args) != len(action.parameters):
            return ValidationResult(
                False, f"{where}: '{action.name}' takes {len(action.parameters)} argument(s), "
                f"got {len(args)}", index, "arity")
        for arg, (var, param_type) in zip(args, action.parameters, strict=True):
            if arg not in types:
                return ValidationResult(
                    False, f"{where}: object '{arg}' is not declared in the problem",
                    index, "unknown-object")
            if not fits_type(domain, types[arg], param_type):
                return ValidationResult(
                    False, f"{where}: '{arg}' is a '{types[arg]}', parameter {var} of "
                    f"'{action.name}' needs a '{param_type}'", index, "type")
        binding = {var: arg for (var, _), arg in zip(action.parameters, args, strict=True)}
        missing = {a for a in _ground(action.precondition, binding) if a not in state}
        if missing:
            return ValidationResult(
                False, f"{where}: precondition not satisfied: {_atoms(missing)}",
                index, "precondition", tuple(sorted(missing)))
        state.difference_update(_ground(action.delete, binding))
        state.update(_ground(action.add, binding))
    unmet = problem.goal - state
    if unmet:
        return ValidationResult(
            False, f"after {len(plan)} step(s) the goal is not satisfied: {_atoms(unmet)}",
            None, "goal", tuple(sorted(unmet)))
    still_true = problem.negative_goal & state
    if still_true:
        return ValidationResult(
            False, f"after {len(plan)} step(s) the goal is not satisfied: these must be false: "
            f"{_atoms(still_true)}", None, "goal", tuple(sorted(still_true)))
    if problem.goal_formula is not None and not formula_holds(
            problem.goal_formula, frozenset(state), problem, domain.is_subtype):
        return ValidationResult(
            False, f"after {len(plan)} step(s) the goal formula is false", None, "goal")
    return ValidationResult(True, f"plan of {len(plan)} step(s) reaches the goal")
