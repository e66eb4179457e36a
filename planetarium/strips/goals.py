"""Goal satisfaction beyond positive conjunctions: negative literals and general formulas.

One place decides whether a state satisfies a problem's goal, so plan validation, the bounded
exact search and the brute-force referee can never disagree on what a goal means.  States are
closed-world: an atom not in the state is false.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

from ..limits import check_deadline
from ..pddl.domain import Atom
from ..pddl.problem import Formula, Problem

#: ``is_subtype(sub, sup)``: the domain's type hierarchy (DomainDef.is_subtype).
IsSubtype = Callable[[str, str], bool]


def _substitute(atom: Atom, binding: dict[str, str]) -> Atom:
    return (atom[0],) + tuple(binding.get(x, x) for x in atom[1:])


def _objects_of(problem: Problem, type_name: str, is_subtype: IsSubtype) -> list[str]:
    return [o for o, t in zip(problem.objects, problem.object_types, strict=True)
            if type_name == "object" or t == "object" or is_subtype(t, type_name)]


def formula_holds(formula: Formula, state: Iterable[Atom] | frozenset, problem: Problem,
                  is_subtype: IsSubtype | None = None, binding: dict[str, str] | None = None) -> bool:
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
    return _quantified(formula, state, problem, is_subtype, binding)


#: Bindings of one quantifier tried between two looks at the grading deadline.
_CLOCK_EVERY = 256


def _quantified(formula: Formula, state: Iterable[Atom] | frozenset, problem: Problem,
                is_subtype: IsSubtype | None,
                binding: dict[str, str]) -> bool:
    """``forall`` / ``exists``: bindings tried lazily, stopping at the first that settles it.

    Nested quantifiers multiply (four over 12 objects are 20,736 bindings per state), so the
    grading deadline is checked on entry and every :data:`_CLOCK_EVERY` bindings.
    """
    check_deadline("evaluating a quantified goal")
    variables = formula[1]
    check = is_subtype or (lambda sub, sup: sub == sup)
    pools = [_objects_of(problem, t, check) for _, t in variables]
    want = formula[0] == "forall"  # forall stops at the first false body, exists at a true one
    for count, values in enumerate(itertools.product(*pools), 1):
        if not count % _CLOCK_EVERY:
            check_deadline("evaluating a quantified goal")
        inner = {**binding, **{v: o for (v, _), o in zip(variables, values, strict=True)}}
        if formula_holds(formula[2], state, problem, is_subtype, inner) != want:
            return not want
    return want


def goal_holds(problem: Problem, state: frozenset, is_subtype: IsSubtype | None = None) -> bool:
    """Whether ``state`` satisfies ``problem``'s goal (literals or formula)."""
    if not problem.goal <= state:
        return False
    if problem.negative_goal & state:
        return False
    if problem.goal_formula is not None:
        # a formula may hold thousands of disjuncts: every state tested costs that much
        check_deadline("evaluating the goal formula")
        return formula_holds(problem.goal_formula, state, problem, is_subtype)
    return True
