"""The ground-truth PDDL text the generator writes (through the package's one writer,
:func:`planetarium.pddl.writer.render_problem`), and a fast reader for it.

The layout is the writer's (objects on one line, one atom per line under ``(:init`` and then
``(:goal (and``), so reading it back needs no PDDL parser: :func:`read_generated` (for the
held-out split's leak check) and :func:`shape_key` (the problem up to renaming, for the
generator's ambiguous-text check).
"""

from __future__ import annotations

import re
from collections import Counter

from ..pddl.problem import Problem
from ..pddl.writer import render_problem
from ..tasks import Atom, Instance

_ATOM = re.compile(r"\([^()]*\)")


def problem_pddl(name: str, domain: str, instance: Instance, typed: bool) -> str:
    """Ground-truth PDDL text (atoms in the instance's order, one per line)."""
    return render_problem(name, domain, instance.objects,
                          instance.object_types if typed else None, instance.init, instance.goal)


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
