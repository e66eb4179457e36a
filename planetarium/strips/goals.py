"""Goal satisfaction beyond positive conjunctions: negative literals and general formulas.

One place decides whether a state satisfies a problem's goal, so plan validation, the bounded
exact search and the brute-force referee can never disagree on what a goal means.  States are
closed-world: an atom not in the state is false.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ..pddl.domain import Atom
from ..pddl.problem import Formula, Problem


def _substitute(atom: Atom, binding: dict[str, str]) -> Atom:
    return (atom[0],) + tuple(binding.get(x, x) for x in atom[1:])


def _objects_of(problem: Problem, type_name: str, is_subtype) -> list[str]:
    return [o for o, t in zip(problem.objects, problem.object_types, strict=True)
            if type_name == "object" or t == "object" or is_subtype(t, type_name)]


def formula_holds(formula: Formula, state: Iterable[Atom] | frozenset, problem: Problem,
                  is_subtype=None, binding: dict[str, str] | None = None) -> bool:
    """Whether ``formula`` is true in ``state`` (quantifiers range over ``problem``'s objects)."""
    binding = binding or {}
    head = formula[0]
    if head == "atom":
        return _substitute(formula[1], binding) in state
    if head == "not":
        return not formula_holds(formula[1], state, problem, is_subtype, binding)
    if head == "and":
        return all(formula_holds(f, state, problem, is_subtype, binding) for f in formula[1:])
    if head == "or":
        return any(formula_holds(f, state, problem, is_subtype, binding) for f in formula[1:])
    if head == "imply":
        return (not formula_holds(formula[1], state, problem, is_subtype, binding)
                or formula_holds(formula[2], state, problem, is_subtype, binding))
    variables = formula[1]
    check = is_subtype or (lambda sub, sup: sub == sup)
    pools = [_objects_of(problem, t, check) for _, t in variables]
    quantify = all if head == "forall" else any
    return quantify(
        formula_holds(formula[2], state, problem, is_subtype,
                      {**binding, **{v: o for (v, _), o in zip(variables, values, strict=True)}})
        for values in itertools.product(*pools))


def goal_holds(problem: Problem, state: frozenset, is_subtype=None) -> bool:
    """Whether ``state`` satisfies ``problem``'s goal (literals or formula)."""
    if not problem.goal <= state:
        return False
    if problem.negative_goal & state:
        return False
    if problem.goal_formula is not None:
        return formula_holds(problem.goal_formula, state, problem, is_subtype)
    return True
