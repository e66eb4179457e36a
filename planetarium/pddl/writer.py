"""Write problems and domains back as PDDL: the one writer of the package.

Problems come out canonical (sorted facts, one per line) from :func:`problem_to_pddl`, or with
their atoms in a given order from :func:`render_problem` (the dataset generator's ground truths);
domains as the STRIPS fragment :class:`~planetarium.pddl.domain.DomainDef` holds (what external
planners are given).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby
from operator import itemgetter

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
    """Render ``problem`` canonically (facts sorted); ``typed`` writes ``name - type`` object
    declarations.

    Objects are declared in ``problem.objects`` order (with ``typed``, a type after each run of
    objects of that type), so reading the text back gives the same problem, object order
    included (tests/test_pddl_roundtrip.py).
    """
    return render_problem(problem.name, problem.domain, problem.objects,
                          problem.object_types if typed else None, tuple(sorted(problem.init)),
                          tuple(sorted(problem.goal)), tuple(sorted(problem.negative_goal)),
                          formula=problem.goal_formula)


def render_problem(name: str, domain: str, objects: Sequence[str],
                   object_types: Sequence[str] | None, init: tuple[Atom, ...],
                   goal: tuple[Atom, ...], negative_goal: tuple[Atom, ...] = (), *,
                   formula: Formula | None = None) -> str:
    """A problem file with the atoms in the order given, one per line (the dataset's layout:
    its texts keep the order their descriptions use).  ``object_types`` ``None`` writes an
    untyped problem; ``formula`` replaces the conjunctive goal."""
    if object_types is not None:
        runs = groupby(zip(objects, object_types, strict=True), key=itemgetter(1))
        declared = " ".join(f"{' '.join(o for o, _ in run)} - {t}" for t, run in runs)
        requirements = "(:requirements :strips :typing)"
    else:
        declared = " ".join(objects)
        requirements = "(:requirements :strips)"
    if formula is None:
        literals = _lines(goal, "\n      ")
        if negative_goal:
            literals += "\n      " + "\n      ".join(f"(not {atom_to_pddl(a)})"
                                                   for a in negative_goal)
        goal_text = "(and\n      " + literals + ")"
    else:
        goal_text = formula_to_pddl(formula)
    return (
        f"(define (problem {name})\n"
        f"  (:domain {domain})\n"
        f"  {requirements}\n"
        f"  (:objects {declared})\n"
        f"  (:init\n    {_lines(init, chr(10) + '    ')})\n"
        f"  (:goal {goal_text})\n"
        ")\n"
    )


def _lines(atoms: tuple[Atom, ...], separator: str) -> str:
    return separator.join(atom_to_pddl(a) for a in atoms)


def domain_to_pddl(domain: DomainDef, *, typed: bool, negative_goals: bool = False) -> str:
    """Write a parsed STRIPS domain back as PDDL (types dropped unless ``typed``;
    ``negative_goals``: declare ``:negative-preconditions``, which a planner reading a problem
    with negative goal literals requires)."""

    def params(pairs: Iterable[tuple[str, str]]) -> str:
        return " ".join(f"{v} - {t}" if typed else v for v, t in pairs)

    def conj(atoms: Iterable[Atom], negated: Iterable[Atom] = ()) -> str:
        parts = ["(" + " ".join(a) + ")" for a in atoms]
        parts += ["(not (" + " ".join(a) + "))" for a in negated]
        return "(and " + " ".join(parts) + ")"

    lines = [f"(define (domain {domain.name})",
             "(:requirements :strips" + (" :typing" if typed else "")
             + (" :negative-preconditions)" if negative_goals else ")")]
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
