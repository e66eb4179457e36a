"""The prediction asked in the ground truth's names, so that one ground task serves both.

The generic engine grounds a problem's objects and initial state once per process
(:func:`planetarium.strips.forced.goal_states`), but a prediction that names its objects
otherwise (any renamed answer) has a different ground task and would be grounded again: on
ACPBench's swap, 0.1-0.3 s of a pair's 0.3-0.8 s (by machine load).  Once
:func:`~planetarium.equivalence.compare` knows the initial states isomorphic, one renaming of
the prediction's objects onto the ground truth's that maps initial state onto initial state is
looked for (VF2 within :data:`RENAMING_STEPS`); the prediction's fully specified goal (or
closure) is computed for its renamed copy and renamed back.  Both are the same set: which atoms
hold in every reachable goal state does not depend on what the objects are called.  Without
such a renaming within the budget, the prediction is asked as written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from operator import eq
from typing import TypeVar

import rustworkx as rx

from ..pddl.domain import Atom
from ..pddl.problem import Problem
from .closure import Closure

T = TypeVar("T")

#: VF2 states explored looking for the renaming; the isomorphism is already known, so one is
#: usually found in about one step per node.
RENAMING_STEPS = 50_000


def onto_truth(a: Problem, b: Problem, init_a: rx.PyDiGraph,
               init_b: rx.PyDiGraph) -> dict[str, str] | None:
    """A renaming of ``b``'s objects onto ``a``'s (types kept) under which ``b``'s initial state
    is ``a``'s, from the problem graphs of the two initial states (object nodes first, in
    objects order); ``None`` when VF2 finds none within :data:`RENAMING_STEPS`."""
    if len(a.objects) != len(b.objects):
        return None
    found = rx.vf2_mapping(init_b, init_a, node_matcher=eq, edge_matcher=eq, id_order=False,
                           call_limit=RENAMING_STEPS)
    try:
        nodes = next(iter(found))
    except StopIteration:
        return None
    count = len(b.objects)
    renaming = {b.objects[i]: a.objects[j] for i, j in nodes.items() if i < count}
    types_a, types_b = a.type_of, b.type_of
    if (len(renaming) != count or any(types_a.get(renaming[o]) != t for o, t in types_b.items())
            or rename(b.init, renaming) != a.init):
        return None  # not a renaming of objects onto objects (never expected): ask as written
    return renaming


def rename(atoms: frozenset[Atom], renaming: dict[str, str]) -> frozenset[Atom]:
    """``atoms`` with every argument renamed."""
    return frozenset((atom[0], *(renaming[x] for x in atom[1:])) for atom in atoms)


def renamed_goal(goal: frozenset[Atom] | None,
                 renaming: dict[str, str]) -> frozenset[Atom] | None:
    """A fully specified goal (``None``: unreachable) renamed."""
    return None if goal is None else rename(goal, renaming)


def renamed_closure(closure: Closure | None, renaming: dict[str, str]) -> Closure | None:
    """A closure (``None``: unreachable) renamed."""
    return None if closure is None else replace(
        closure, positive=rename(closure.positive, renaming),
        negative=rename(closure.negative, renaming))


def asked_in_truth_names(a: Problem, b: Problem, init_a: rx.PyDiGraph, init_b: rx.PyDiGraph,
                         ask: Callable[[Problem], T],
                         back: Callable[[T, dict[str, str]], T]) -> T:
    """``ask(b)``, computed as ``back(ask(b renamed onto a's names), inverse renaming)`` where
    :func:`onto_truth` finds a renaming (module docstring); ``back`` renames an answer."""
    renaming = onto_truth(a, b, init_a, init_b)
    if renaming is None:
        return ask(b)
    renamed = replace(b, objects=tuple(renaming[o] for o in b.objects), init=a.init,
                      goal=rename(b.goal, renaming),
                      negative_goal=rename(b.negative_goal, renaming))
    inverse = {new: old for old, new in renaming.items()}
    return back(ask(renamed), inverse)
