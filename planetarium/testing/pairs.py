"""Predictions made from a ground truth, for benchmarks, fuzzing and metamorphic tests.

A prediction is the ground truth renamed and redeclared in another order (an equivalent answer,
:func:`renamed`), with one goal fact changed (a near miss, :func:`near_miss`), or with only the
goal's objects renamed (:func:`goal_renamed`: equivalent in the paper's placeholder mode when
the fully specified goals match, and in the strict one when the goal states do); :func:`render`
writes either as PDDL text through the package's one writer.  The problems themselves come from
:mod:`planetarium.testing.generators`.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..equivalence.shared_task import rename as rename_atoms
from ..pddl.problem import Problem
from ..pddl.writer import problem_to_pddl


def renamed(problem: Problem, rng: random.Random, *, rename: bool = True,
            prefix: str = "o") -> Problem:
    """``problem`` with its objects declared in a random order and, with ``rename``, renamed
    ``o0``, ``o1``, ... by a random bijection: the same planning problem.  (Goal formulas are
    not renamed: refused.)"""
    if problem.goal_formula is not None:
        raise ValueError("renamed() handles conjunctive goals only")
    if rename:
        fresh = [f"{prefix}{i}" for i in range(len(problem.objects))]
        rng.shuffle(fresh)
        mapping = dict(zip(problem.objects, fresh, strict=True))
    else:
        mapping = {o: o for o in problem.objects}
    order = list(range(len(problem.objects)))
    rng.shuffle(order)

    return replace(problem, objects=tuple(mapping[problem.objects[i]] for i in order),
                   object_types=tuple(problem.object_types[i] for i in order),
                   init=rename_atoms(problem.init, mapping),
                   goal=rename_atoms(problem.goal, mapping),
                   negative_goal=rename_atoms(problem.negative_goal, mapping))


def goal_renamed(problem: Problem, rng: random.Random) -> Problem:
    """``problem`` with its goal literals (not its initial state) renamed by a random bijection
    that keeps each object's type."""
    by_type: dict[str, list[str]] = {}
    for name, kind in zip(problem.objects, problem.object_types, strict=True):
        by_type.setdefault(kind, []).append(name)
    mapping: dict[str, str] = {}
    for names in by_type.values():
        mapping.update(zip(names, rng.sample(names, len(names)), strict=True))

    return replace(problem, goal=rename_atoms(problem.goal, mapping),
                   negative_goal=rename_atoms(problem.negative_goal, mapping))


def render(problem: Problem, rng: random.Random, *, rename: bool = True,
           typed: bool = False) -> str:
    """PDDL text of :func:`renamed` ``(problem)``.

    The facts come out in the writer's sorted order, which after renaming is unrelated to the
    ground truth's: the reader keeps facts in sets, so their order in the text never reaches the
    grader; the order of object declarations does (it orders the graph's nodes), and that is
    shuffled.
    """
    return problem_to_pddl(renamed(problem, rng, rename=rename), typed=typed)


def near_miss(problem: Problem, rng: random.Random) -> Problem:
    """The problem with one goal fact's last argument replaced by another object of its type."""
    goal = sorted(problem.goal)
    candidates = [a for a in goal if len(a) > 1]
    if not candidates:
        return problem
    victim = rng.choice(candidates)
    type_of = problem.type_of
    same_type = [o for o in problem.objects if type_of[o] == type_of[victim[-1]]]
    replacement = victim[:-1] + (rng.choice(same_type),)
    return replace(problem, goal=frozenset((set(goal) - {victim}) | {replacement}))
