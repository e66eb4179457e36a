"""Recognising an initial state seen before under other object names.

A prediction graded against a ground truth usually has the truth's initial state with its
objects named differently (the paper's placeholder mode is about exactly that); the exact
questions of :mod:`.forced` about it need the same ground tables as the truth's, up to the
renaming.  Colour refinement (1-dimensional Weisfeiler-Leman) over the initial facts gives each
object a colour that no renaming changes; when every object of a problem gets a colour of its
own, the colours name the one renaming that can map it onto a problem with the same colours,
and :func:`renaming_onto` checks that it does (types kept, initial facts mapped onto the other
problem's, the domain's constants fixed).  A problem with symmetric objects gets no shape: it is
simply grounded anew.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem

#: Refinement rounds at most (each costs a pass over the initial facts; problems that are
#: renamings of each other need the same number, so the cap never separates them).
MAX_ROUNDS = 8


@dataclass(frozen=True)
class Shape:
    """A problem's initial state up to renaming: ``fingerprint`` (equal for problems that are
    renamings of each other) and the object of each colour (every colour is one object's)."""

    fingerprint: int
    objects: Mapping[int, str]


def schema_constants(domain: DomainDef) -> frozenset[str]:
    """The objects the domain's actions name (constants): no renaming may move them."""
    return frozenset(term for action in domain.actions.values()
                     for atom in (*action.precondition, *action.add, *action.delete)
                     for term in atom[1:] if not term.startswith("?"))


def shape_of(domain: DomainDef, problem: Problem) -> Shape | None:
    """The shape of ``problem``'s initial state, or ``None`` when colour refinement leaves two
    objects with the same colour (after :data:`MAX_ROUNDS` rounds at most)."""
    constants = schema_constants(domain)
    colour = {o: hash((t, o if o in constants else "")) for o, t
              in zip(problem.objects, problem.object_types, strict=True)}
    occurrences: dict[str, list[tuple[int, Atom]]] = {o: [] for o in colour}
    for atom in problem.init:
        for position, term in enumerate(atom[1:]):
            if term in occurrences:
                occurrences[term].append((position, atom))
    classes = len(set(colour.values()))
    for _ in range(MAX_ROUNDS):
        if classes == len(colour):
            break
        refined = {o: hash((colour[o], tuple(sorted(
            hash((atom[0], position, tuple(colour.get(x, hash(x)) for x in atom[1:])))
            for position, atom in occurrences[o])))) for o in colour}
        count = len(set(refined.values()))
        colour = refined
        if count == classes:
            break
        classes = count
    if classes < len(colour):
        return None
    return Shape(hash(tuple(sorted(colour.values()))), {c: o for o, c in colour.items()})


def renaming_onto(domain: DomainDef, problem: Problem, target: Problem,
                  shape: Shape, target_shape: Shape) -> dict[str, str] | None:
    """The renaming of ``problem``'s objects that maps its typed objects and initial state onto
    ``target``'s, found through their shapes and checked, or ``None``."""
    if shape.fingerprint != target_shape.fingerprint or len(problem.objects) != len(target.objects):
        return None
    sigma = {o: target_shape.objects[c] for c, o in shape.objects.items()
             if c in target_shape.objects}
    if len(sigma) != len(problem.objects) or len(set(sigma.values())) != len(sigma):
        return None
    types, target_types = problem.type_of, target.type_of
    if any(types[o] != target_types[image] for o, image in sigma.items()):
        return None
    if any(sigma.get(c, c) != c for c in schema_constants(domain)):
        return None
    if rename_atoms(problem.init, sigma) != target.init:
        return None
    return sigma


def rename_atoms(atoms: Iterable[Atom], sigma: Mapping[str, str]) -> frozenset[Atom]:
    return frozenset((atom[0],) + tuple(sigma.get(x, x) for x in atom[1:]) for atom in atoms)


def rename_problem(problem: Problem, sigma: Mapping[str, str]) -> Problem:
    """``problem`` with its objects renamed by ``sigma`` (a goal of literals only)."""
    return replace(problem, objects=tuple(sigma.get(o, o) for o in problem.objects),
                   init=rename_atoms(problem.init, sigma), goal=rename_atoms(problem.goal, sigma),
                   negative_goal=rename_atoms(problem.negative_goal, sigma))
