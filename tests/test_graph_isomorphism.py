"""graph.isomorphic against brute force, on every path it can take, for both graphs of a problem.

Random scene graphs full of look-alike objects (a component copied several times, objects with
no facts, facts with no arguments, repeated arguments), each compared with a renamed copy and
with copies that differ by one fact, as the paper's graphs (``build_graph``) and as the graphs
with one- and two-argument facts folded into labels and edges (``problem_graph``).  The brute
force tries every type-preserving bijection of objects.  Plain VF2 decides most of these graphs
on its own, so the test also switches it off, and then VF2 on refined colours too, so that
refinement, the one forced renaming, the paired look-alikes and individualisation decide every
pair.
"""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from planetarium import graph
from planetarium.graph import (
    GOAL,
    INIT,
    SearchBudget,
    StepLimitReached,
    build_graph,
    isomorphic,
    problem_graph,
)

PREDICATES = {"p": 0, "q": 1, "r": 2, "s": 2, "t": 3}


def _component(rng: random.Random, size: int) -> tuple[list[str], list[tuple[str, tuple]]]:
    """Object types and (scene, atom) facts over local object numbers 0..size-1."""
    types = [rng.choice("AB") for _ in range(size)]
    facts = set()
    for _ in range(rng.randint(1, 2 * size)):
        name = rng.choice(sorted(PREDICATES))
        args = tuple(rng.randrange(size) for _ in range(PREDICATES[name]))
        facts.add((rng.choice((INIT, GOAL)), (name, *args)))
    return types, sorted(facts)


def _problem(rng: random.Random) -> tuple[list[str], list[str], set[tuple[str, tuple]]]:
    """Objects, their types and (scene, atom) facts: a random component copied 1-3 times,
    plus a few loose facts and objects."""
    size = rng.randint(1, 3)
    types, facts = _component(rng, size)
    objects, object_types, scened = [], [], set()
    for copy in range(rng.randint(1, 3)):
        names = [f"c{copy}o{i}" for i in range(size)]
        objects += names
        object_types += types
        scened |= {(scene, (atom[0], *(names[i] for i in atom[1:]))) for scene, atom in facts}
    for extra in range(rng.randint(0, 1)):
        objects.append(f"x{extra}")
        object_types.append(rng.choice("AB"))
    if rng.random() < 0.5:
        name = rng.choice(["q", "r"])
        scened.add((rng.choice((INIT, GOAL)),
                    (name, *rng.choices(objects, k=PREDICATES[name]))))
    return objects, object_types, scened


def _renamed(rng: random.Random, objects, object_types, facts):
    order = list(range(len(objects)))
    rng.shuffle(order)
    new = {objects[i]: f"n{k}" for k, i in enumerate(order)}
    return ([new[objects[i]] for i in order], [object_types[i] for i in order],
            {(scene, (atom[0], *(new[x] for x in atom[1:]))) for scene, atom in facts})


def _moved(rng: random.Random, objects, object_types, facts):
    """One fact's argument replaced by another object of the same type (or nothing changed)."""
    candidates = sorted(f for f in facts if len(f[1]) > 1)
    if not candidates:
        return objects, object_types, facts
    scene, atom = rng.choice(candidates)
    pos = rng.randrange(1, len(atom))
    type_of = dict(zip(objects, object_types, strict=True))
    other = rng.choice([o for o in objects if type_of[o] == type_of[atom[pos]]])
    return objects, object_types, (facts - {(scene, atom)}) | {
        (scene, atom[:pos] + (other,) + atom[pos + 1:])}


def _graph(builder, objects, object_types, facts):
    scenes = [(scene, {atom for s, atom in facts if s == scene}) for scene in (INIT, GOAL)]
    return builder(tuple(objects), tuple(object_types), scenes)


def _brute_force(first, second) -> bool:
    (objs_a, types_a, facts_a), (objs_b, types_b, facts_b) = first, second
    if sorted(types_a) != sorted(types_b) or len(facts_a) != len(facts_b):
        return False
    type_of_b = dict(zip(objs_b, types_b, strict=True))
    for image in permutations(objs_b):
        if any(type_of_b[y] != t for y, t in zip(image, types_a, strict=True)):
            continue
        rename = dict(zip(objs_a, image, strict=True))
        if {(s, (a[0], *(rename[x] for x in a[1:]))) for s, a in facts_a} == facts_b:
            return True
    return False


def _pairs(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        problem = _problem(rng)
        if len(problem[0]) > 7:
            continue
        other = _renamed(rng, *problem)
        if rng.random() < 0.5:
            other = _moved(rng, *other)
        yield problem, other


#: Ways to cut 4-7 objects into directed cycles: every object has one successor and one
#: predecessor however they are cut, so colour refinement cannot tell two cuts apart.
CYCLES = [(4,), (2, 2), (5,), (3, 2), (6,), (4, 2), (3, 3), (2, 2, 2), (7,), (5, 2), (4, 3),
          (3, 2, 2)]


def _cycles(lengths: tuple[int, ...], decorated: bool):
    objects, facts = [], set()
    for k, length in enumerate(lengths):
        names = [f"k{k}v{i}" for i in range(length)]
        objects += names
        facts |= {(INIT, ("r", names[i], names[(i + 1) % length])) for i in range(length)}
    if decorated:  # one goal fact on the first object: the other look-alikes stay alike
        facts.add((GOAL, ("q", objects[0])))
    return objects, ["A"] * len(objects), facts


def _hard_pairs(seed: int):
    """Cycle covers: look-alikes that refinement never separates, compared with a renamed
    copy (individualisation must find which look-alike is which) and with every other cover
    of as many objects (not isomorphic, though refinement cannot tell)."""
    rng = random.Random(seed)
    for lengths in CYCLES:
        for decorated in (False, True):
            problem = _cycles(lengths, decorated)
            for _ in range(3):
                yield problem, _renamed(rng, *problem)
            for other in CYCLES:
                if other != lengths and sum(other) == sum(lengths):
                    yield problem, _renamed(rng, *_cycles(other, decorated))


def _no_vf2_on_colours(self, a, b):
    raise StepLimitReached("switched off by the test")


@pytest.mark.parametrize("builder", [build_graph, problem_graph])
@pytest.mark.parametrize("paths", ["all", "no plain VF2", "no VF2"])
def test_isomorphic_agrees_with_brute_force(builder, paths, monkeypatch):
    if paths != "all":
        monkeypatch.setattr(graph, "MAX_PLAIN_VF2_NODES", -1)
    if paths == "no VF2":
        monkeypatch.setattr(graph._Search, "vf2", _no_vf2_on_colours)
    verdicts = []
    for first, second in [*_pairs(400, seed=7), *_hard_pairs(seed=7)]:
        expected = _brute_force(first, second)
        got = isomorphic(_graph(builder, *first), _graph(builder, *second), SearchBudget())
        assert got == expected, (first, second)
        verdicts.append(expected)
    # both verdicts, many times: the generator makes renamings and near misses
    assert verdicts.count(True) > 100 and verdicts.count(False) > 50
