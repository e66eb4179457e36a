"""The ground-truth PDDL text the generator writes, and a fast reader for it.

The layout is ours (objects on one line, one atom per line under ``(:init`` and then
``(:goal (and``), so reading it back needs no PDDL parser: :func:`read_generated` (for the
held-out split's leak check) and :func:`shape_key` (the problem up to renaming, for the
generator's ambiguous-text check).
"""

from __future__ import annotations

import re
from collections import Counter

from ..pddl.problem import Problem
from ..tasks import Atom, Instance

_ATOM = re.compile(r"\([^()]*\)")


def _objects_pddl(instance: Instance) -> str:
    if instance.object_types is None:
        return " ".join(instance.objects)
    groups: dict[str, list[str]] = {}
    for obj, type_name in zip(instance.objects, instance.object_types, strict=True):
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


def read_generated(pddl: str) -> Problem:
    """A problem :func:`problem_pddl` wrote, read back without the PDDL parser (which checks
    everything, at ~0.5 ms a problem; the leak check reads tens of thousands).  Untyped objects
    get the type ``object``, as :func:`planetarium.pddl.read_problem` gives them."""
    head, _, rest = pddl.partition("(:init")
    init, _, goal = rest.partition("(:goal")
    tokens = head[head.index("(:objects") + len("(:objects"):].split(")")[0].split()
    objects: list[str] = []
    types: list[str] = []
    pending = 0
    for i, token in enumerate(tokens):
        if token == "-":
            types += [tokens[i + 1]] * pending
            pending = -1  # the type name itself is not an object
        else:
            if pending >= 0:
                objects.append(token)
            pending += 1
    types += ["object"] * pending
    return Problem(
        name=head.split("(problem", 1)[1].split(")", 1)[0].strip(),
        domain=head.split("(:domain", 1)[1].split(")", 1)[0].strip(),
        objects=tuple(objects),
        object_types=tuple(types),
        init=frozenset(_atoms(init)),
        goal=frozenset(_atoms(goal)),
    )


def _atoms(section: str) -> list[Atom]:
    return [tuple(match[1:-1].split()) for match in _ATOM.findall(section)]


def shape_key(pddl: str) -> tuple:
    """A cheap invariant of a problem up to renaming: object types and predicate counts of
    init and goal.

    Rows sharing one text must agree on it: an abstract text leaves the numbering open (the
    grader forgives that), but two different shapes would mean an ambiguous text.  Rows whose
    texts are both explicit need no check: such a text states every atom, one sentence each,
    so equal texts are equal problems.
    """
    problem = read_generated(pddl)
    return (sorted(Counter(problem.object_types).items()),
            sorted(Counter(a[0] for a in problem.init).items()),
            sorted(Counter(a[0] for a in problem.goal).items()))
