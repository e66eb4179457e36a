"""The ground-truth PDDL text the generator writes, and the two keys read back from it.

The layout is ours (objects on one line, one atom per line under ``(:init`` and then
``(:goal (and``), so reading it back needs no PDDL parser: :func:`shape_key` (the problem up
to renaming, for the generator's ambiguous-text check) and :func:`problem_key` (the problem
itself, for the held-out split's leak check) share one reader, :func:`_sections`.
"""

from __future__ import annotations

import re
from collections import Counter

from ..tasks import Atom, Instance

_ATOM = re.compile(r"\([^()]*\)")


def _objects_pddl(instance: Instance) -> str:
    if instance.object_types is None:
        return " ".join(instance.objects)
    groups: dict[str, list[str]] = {}
    for obj, type_name in zip(instance.objects, instance.object_types):
        groups.setdefault(type_name, []).append(obj)
    return " ".join(f"{' '.join(objs)} - {t}" for t, objs in groups.items())


def problem_pddl(name: str, domain: str, instance: Instance, typed: bool) -> str:
    """Ground-truth PDDL text (atoms in the instance's order, one per line)."""
    init = _atoms_pddl(instance.init, "\n    ")
    goal = _atoms_pddl(instance.goal, "\n      ")
    requirements = ":strips :typing" if typed else ":strips"
    return (
        f"(define (problem {name})\n"
        f"  (:domain {domain})\n"
        f"  (:requirements {requirements})\n"
        f"  (:objects {_objects_pddl(instance)})\n"
        f"  (:init\n    {init})\n"
        f"  (:goal (and\n      {goal}))\n"
        ")\n"
    )


_ATOMS_TEXT: dict[tuple[tuple[Atom, ...], str], str] = {}


def _atoms_pddl(atoms: tuple[Atom, ...], sep: str) -> str:
    """Atoms one per line; cached because one state recurs in many problems."""
    key = (atoms, sep)
    text = _ATOMS_TEXT.get(key)
    if text is None:
        text = _ATOMS_TEXT[key] = sep.join("(" + " ".join(a) + ")" for a in atoms)
    return text


def _sections(pddl: str) -> tuple[list[str], list[str], list[str]]:
    """Object declaration tokens (in order), init atoms and goal atoms of a generated problem."""
    head, _, rest = pddl.partition("(:init")
    init, _, goal = rest.partition("(:goal")
    objects = head[head.index("(:objects") + len("(:objects"):].split(")")[0].split()
    return objects, _ATOM.findall(init), _ATOM.findall(goal)


def shape_key(pddl: str) -> tuple:
    """A cheap invariant of a problem up to renaming: object declarations' size and predicate
    counts of init and goal.

    Rows sharing one text must agree on it: an abstract text leaves the numbering open (the
    grader forgives that), but two different shapes would mean an ambiguous text.  Rows whose
    texts are both explicit need no check: such a text states every atom, one sentence each,
    so equal texts are equal problems.
    """
    tokens, init, goal = _sections(pddl)
    types: Counter[str] = Counter()
    pending = 0
    for i, token in enumerate(tokens):
        if token == "-":
            types[tokens[i + 1]] += pending
            pending = -1  # the type name itself is not an object
        else:
            pending += 1
    types["object"] += pending
    return (sorted(types.items()),
            sorted(Counter(_predicate(a) for a in init).items()),
            sorted(Counter(_predicate(a) for a in goal).items()))


def problem_key(pddl: str) -> tuple:
    """A generated problem without its name: equal keys are the same problem, whichever
    combination named it or in whatever order it listed the atoms."""
    objects, init, goal = _sections(pddl)
    return tuple(sorted(objects)), tuple(sorted(init)), tuple(sorted(goal))


def _predicate(atom: str) -> str:
    return atom[1:-1].split(" ", 1)[0]
