"""Brute-force semantics on small problems: the reference the graph algorithm must agree with.

Everything here enumerates the reachable state space explicitly, so it is exponential and only
for small problems — which is exactly what makes it trustworthy as an oracle.
"""

from __future__ import annotations

import itertools
from typing import Iterator

from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..strips.grounding import ground_actions, reachable_states


def reachable_goal_states(domain: DomainDef, problem: Problem, max_states: int) -> list[frozenset]:
    """All reachable states that contain the goal."""
    actions = list(ground_actions(domain, problem))
    return [s for s in reachable_states(actions, frozenset(problem.init), max_states)
            if problem.goal <= s]


def reachable_goal_intersection(domain: DomainDef, problem: Problem,
                                max_states: int) -> frozenset[Atom] | None:
    """The facts true in every reachable goal state, or ``None`` if none is reachable."""
    goal_states = reachable_goal_states(domain, problem, max_states)
    if not goal_states:
        return None
    return frozenset.intersection(*goal_states)


def _rename(atoms, mapping: dict[str, str]) -> frozenset:
    return frozenset((a[0],) + tuple(mapping[x] for x in a[1:]) for a in atoms)


def _signature(problem: Problem) -> dict[str, tuple]:
    """Per object: its type and the (predicate, position) pairs it fills in the initial state.

    Any bijection that maps one initial state onto another preserves these signatures, so the
    brute force only tries bijections within classes of equal signature.
    """
    sig: dict[str, list] = {o: [t] for o, t in zip(problem.objects, problem.object_types)}
    for atom in problem.init:
        for pos, arg in enumerate(atom[1:]):
            sig[arg].append((atom[0], pos))
    return {o: (s[0], tuple(sorted(s[1:]))) for o, s in sig.items()}


def init_preserving_bijections(a: Problem, b: Problem) -> Iterator[dict[str, str]]:
    """Every bijection of objects of ``a`` onto ``b`` that maps a's initial state onto b's."""
    if len(a.objects) != len(b.objects) or len(a.init) != len(b.init):
        return
    sig_a, sig_b = _signature(a), _signature(b)
    classes: dict[tuple, tuple[list[str], list[str]]] = {}
    for o, s in sig_a.items():
        classes.setdefault(s, ([], []))[0].append(o)
    for o, s in sig_b.items():
        if s not in classes:
            return
        classes[s][1].append(o)
    if any(len(xs) != len(ys) for xs, ys in classes.values()):
        return
    groups = list(classes.values())
    for perms in itertools.product(*(itertools.permutations(ys) for _, ys in groups)):
        mapping = {x: y for (xs, _), ys in zip(groups, perms) for x, y in zip(xs, ys)}
        if _rename(a.init, mapping) == b.init:
            yield mapping


def equivalent_by_definition(domain: DomainDef, a: Problem, b: Problem, *,
                             is_placeholder: bool, max_states: int = 100_000) -> bool:
    """Decide equivalence by enumerating states.

    Identity mode is Definition 2 of the Planetarium paper taken literally: some bijection f of
    objects maps a's initial state onto b's *and* a's set of reachable goal states onto b's.
    Placeholder mode: the initial states are isomorphic, and some (possibly different)
    type-preserving bijection maps the facts true in all of a's reachable goal states onto those
    of b's — the goal's objects are placeholders.  With no reachable goal state on either side,
    the goal sides match; with none on one side only, they do not.
    """
    goals_a = {frozenset(s) for s in reachable_goal_states(domain, a, max_states)}
    goals_b = {frozenset(s) for s in reachable_goal_states(domain, b, max_states)}
    if len(goals_a) != len(goals_b):
        return False
    if not any(True for _ in init_preserving_bijections(a, b)):
        return False
    if not goals_a:
        return True
    inter_a = frozenset.intersection(*goals_a)
    inter_b = frozenset.intersection(*goals_b)
    if is_placeholder:
        return any(_rename(inter_a, m) == inter_b for m in _all_typed_bijections(a, b))
    for mapping in init_preserving_bijections(a, b):
        if _rename(inter_a, mapping) != inter_b:
            continue  # cheap necessary condition: f maps the intersection onto the intersection
        if {_rename(s, mapping) for s in goals_a} == goals_b:
            return True
    return False


def _all_typed_bijections(a: Problem, b: Problem) -> Iterator[dict[str, str]]:
    """Every type-preserving bijection of objects (placeholder goals may permute anything)."""
    by_type_a: dict[str, list[str]] = {}
    by_type_b: dict[str, list[str]] = {}
    for o, t in zip(a.objects, a.object_types):
        by_type_a.setdefault(t, []).append(o)
    for o, t in zip(b.objects, b.object_types):
        by_type_b.setdefault(t, []).append(o)
    if {t: len(v) for t, v in by_type_a.items()} != {t: len(v) for t, v in by_type_b.items()}:
        return
    types = list(by_type_a)
    for perms in itertools.product(*(itertools.permutations(by_type_b[t]) for t in types)):
        yield {x: y for t, ys in zip(types, perms) for x, y in zip(by_type_a[t], ys)}
