"""Wrong answers made from a ground truth: the mistakes models make, one or two at a time.

Each mutation changes what a model could get wrong when writing PDDL from a description: a goal
fact's object (:func:`~planetarium.testing.pairs.near_miss`), a goal fact left out or added, an
initial fact left out or added, an object too many or too few, two objects' roles swapped in
the goal, or a hostile rewrite of the text (:mod:`planetarium.testing.fuzz`).  Benchmarks and
tests of the explanations (bench/bench_explain.py, tests/test_explain*.py) grade them; a
mutation may by chance give an equivalent answer, which the grader then says.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace

from ..domains import get_domain
from ..pddl.problem import Problem
from .generators import random_atoms
from .pairs import near_miss, renamed


def _drop(facts: frozenset, rng: random.Random) -> frozenset:
    return facts - {rng.choice(sorted(facts))} if facts else facts


def _add(problem: Problem, facts: frozenset, rng: random.Random) -> frozenset:
    definition = get_domain(problem.domain).definition
    return facts | random_atoms(definition, problem, rng, 1)


def drop_goal_fact(p: Problem, rng: random.Random) -> Problem:
    return replace(p, goal=_drop(p.goal, rng))


def add_goal_fact(p: Problem, rng: random.Random) -> Problem:
    return replace(p, goal=_add(p, p.goal, rng))


def drop_init_fact(p: Problem, rng: random.Random) -> Problem:
    return replace(p, init=_drop(p.init, rng))


def add_init_fact(p: Problem, rng: random.Random) -> Problem:
    return replace(p, init=_add(p, p.init, rng))


def extra_object(p: Problem, rng: random.Random) -> Problem:
    """One more object of an existing type, in no fact (a model counting one too many)."""
    kind = rng.choice(sorted(set(p.object_types)))
    name = "extra1"
    while name in p.objects:
        name += "x"
    return replace(p, objects=(*p.objects, name), object_types=(*p.object_types, kind))


def missing_object(p: Problem, rng: random.Random) -> Problem:
    """One object fewer, with every fact that mentions it."""
    gone = rng.choice(p.objects)
    keep = [(o, t) for o, t in zip(p.objects, p.object_types, strict=True) if o != gone]
    return replace(p, objects=tuple(o for o, _ in keep), object_types=tuple(t for _, t in keep),
                   init=frozenset(a for a in p.init if gone not in a[1:]),
                   goal=frozenset(a for a in p.goal if gone not in a[1:]))


def swap_goal_objects(p: Problem, rng: random.Random) -> Problem:
    """Two objects of one type trade places in the goal (the right shape, the wrong objects)."""
    by_type: dict[str, list[str]] = {}
    for o, t in zip(p.objects, p.object_types, strict=True):
        by_type.setdefault(t, []).append(o)
    pools = [objs for objs in by_type.values() if len(objs) > 1]
    if not pools:
        return p
    x, y = rng.sample(rng.choice(pools), 2)
    swap = {x: y, y: x}
    return replace(p, goal=frozenset((a[0], *(swap.get(o, o) for o in a[1:])) for a in p.goal))


#: Every mutation by name.
MUTATIONS: dict[str, Callable[[Problem, random.Random], Problem]] = {
    "near-miss": near_miss,
    "drop-goal-fact": drop_goal_fact,
    "add-goal-fact": add_goal_fact,
    "drop-init-fact": drop_init_fact,
    "add-init-fact": add_init_fact,
    "extra-object": extra_object,
    "missing-object": missing_object,
    "swap-goal-objects": swap_goal_objects,
}


def wrong_answers(problem: Problem, rng: random.Random, *,
                  per_problem: int = 4) -> Iterator[tuple[str, Problem]]:
    """``per_problem`` mutants of ``problem`` (one or two mutations each), renamed and
    redeclared in a random order like a model's own answer: ``(what was done, problem)``."""
    names = sorted(MUTATIONS)
    for _ in range(per_problem):
        chosen = rng.sample(names, 1 if rng.random() < 0.7 else 2)
        mutant = problem
        for name in chosen:
            mutant = MUTATIONS[name](mutant, rng)
        yield "+".join(chosen), renamed(mutant, rng, rename=rng.random() < 0.5)
