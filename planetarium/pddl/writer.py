"""Write problems and domains back as PDDL: the one writer of the package.

Problems come out canonical (sorted facts, one per line); domains as the STRIPS fragment
:class:`~planetarium.pddl.domain.DomainDef` holds (what external planners are given).
"""

from __future__ import annotations

from .domain import Atom, DomainDef
from .problem import Formula, Problem


def atom_to_pddl(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def formula_to_pddl(formula: Formula) -> str:
    """Write a goal formula (``Problem.goal_formula``) back as PDDL."""
    head = formula[0]
    if head == "atom":
        return atom_to_pddl(formula[1])
    if head in ("forall", "exists"):
        variables = " ".join(f"{v} - {t}" for v, t in formula[1])
        return f"({head} ({variables}) {formula_to_pddl(formula[2])})"
    return "(" + " ".join([head] + [formula_to_pddl(f) for f in formula[1:]]) + ")"


def problem_to_pddl(problem: Problem, *, typed: bool = False) -> str:
    """Render ``problem``; ``typed`` writes ``name - type`` object declarations."""
    if typed:
        by_type: dict[str, list[str]] = {}
        for obj, type_name in zip(problem.objects, problem.object_types, strict=True):
            by_type.setdefault(type_name, []).append(obj)
        objects = " ".join(f"{' '.join(objs)} - {t}" for t, objs in by_type.items())
        requirements = "(:requirements :strips :typing)"
    else:
        objects = " ".join(problem.objects)
        requirements = "(:requirements :strips)"
    init = "\n    ".join(atom_to_pddl(a) for a in sorted(problem.init))
    goal = "\n      ".join([atom_to_pddl(a) for a in sorted(problem.goal)]
                            + [f"(not {atom_to_pddl(a)})" for a in sorted(problem.negative_goal)])
    goal = ("(and\n      " + goal + ")" if problem.goal_formula is None
            else formula_to_pddl(problem.goal_formula))
    return (
        f"(define (problem {problem.name})\n"
        f"  (:domain {problem.domain})\n"
        f"  {requirements}\n"
        f"  (:objects {objects})\n"
        f"  (:init\n    {init})\n"
        f"  (:goal {goal})\n"
        ")\n"
    )


def domain_to_pddl(domain: DomainDef, *, typed: bool) -> str:
    """Write a parsed STRIPS domain back as PDDL (types dropped unless ``typed``)."""

    def params(pairs) -> str:
        return " ".join(f"{v} - {t}" if typed else v for v, t in pairs)

    def conj(atoms, negated=()) -> str:
        parts = ["(" + " ".join(a) + ")" for a in atoms]
        parts += ["(not (" + " ".join(a) + "))" for a in negated]
        return "(and " + " ".join(parts) + ")"

    lines = [f"(define (domain {domain.name})",
             "(:requirements :strips" + (" :typing)" if typed else ")")]
    if typed and domain.types:
        lines.append("(:types " + " ".join(f"{t} - {p}" for t, p in domain.types.items()) + ")")
    lines.append("(:predicates " + " ".join(
        f"({name} {params((f'?a{i}', t) for i, t in enumerate(sig))})"
        for name, sig in domain.predicates.items()) + ")")
    for action in domain.actions.values():
        lines.append(f"(:action {action.name} :parameters ({params(action.parameters)})"
                     f" :precondition {conj(action.precondition)}"
                     f" :effect {conj(action.add, action.delete)})")
    return "\n".join(lines) + ")\n"
