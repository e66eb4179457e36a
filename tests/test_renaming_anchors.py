"""Anchored names in explanations' renamings map to themselves or to nothing (found while
type-checking: when no target left was allowed, the completion took a forbidden one, so an
anchor absent from the ground truth, or declared with another type there, took a real object's
name)."""

from __future__ import annotations

import itertools
import random

from planetarium.equivalence.renaming import best_renaming


def _brute_force_cost(objs_a, types_a, atoms_a, objs_b, types_b, atoms_b, anchors) -> int:
    """The fewest differing atoms over every partial injective, type-preserving map of b's
    objects into a's that sends an anchored name only to itself (unmapped objects get fresh
    names, so their atoms never match)."""
    type_a = dict(zip(objs_a, types_a, strict=True))
    type_b = dict(zip(objs_b, types_b, strict=True))
    options = []
    for p in objs_b:
        images = [None] + [g for g in objs_a if type_a[g] == type_b[p]
                           and (g == p if p in anchors else g not in anchors)]
        options.append(images)
    best = None
    for choice in itertools.product(*options):
        images = [g for g in choice if g is not None]
        if len(images) != len(set(images)):
            continue
        m = {p: (g if g is not None else f"fresh:{p}") for p, g in zip(objs_b, choice, strict=True)}
        cost = len(atoms_a ^ {x[:2] + tuple(m[o] for o in x[2:]) for x in atoms_b})
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def test_anchors_typed_differently_on_the_two_sides_map_to_nothing():
    atoms = {("init", "p", "x"), ("init", "q", "y")}
    found = best_renaming(["x", "y"], ["t1", "t2"], atoms, ["x", "y"], ["t2", "t1"], atoms,
                          anchors=frozenset({"x", "y"}))
    assert found.mapping == {} and found.extra == ("x", "y") and found.missing == ("x", "y")
    assert found.optimal and found.cost == 4


def test_an_anchor_the_ground_truth_lacks_maps_to_nothing():
    found = best_renaming(["o3"], ["s"], {("init", "q", "o3")}, ["o0", "o1", "o2"], ["s"] * 3, set(),
                          anchors=frozenset({"o0", "o2"}))
    assert found.mapping == {"o1": "o3"} and found.extra == ("o0", "o2")


def test_anchored_renamings_are_the_minimum_by_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        objs_a = [f"o{i}" for i in range(rng.randint(1, 4))]
        objs_b = [f"o{i}" for i in range(rng.randint(1, 4))]
        types_a = [rng.choice("st") for _ in objs_a]
        types_b = [rng.choice("st") for _ in objs_b]
        anchors = frozenset(o for o in sorted(set(objs_a) | set(objs_b)) if rng.random() < 0.4)
        atoms_a = {("init", rng.choice("pq"), rng.choice(objs_a)) for _ in range(rng.randint(0, 4))}
        atoms_b = {("init", rng.choice("pq"), rng.choice(objs_b)) for _ in range(rng.randint(0, 4))}
        found = best_renaming(objs_a, types_a, atoms_a, objs_b, types_b, atoms_b, anchors=anchors)
        case = (objs_a, types_a, atoms_a, objs_b, types_b, atoms_b, anchors, found)
        assert all(p == g for p, g in found.mapping.items() if p in anchors or g in anchors), case
        assert found.optimal, case
        assert found.cost == _brute_force_cost(objs_a, types_a, atoms_a, objs_b, types_b, atoms_b,
                                               anchors), case
